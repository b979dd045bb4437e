//! A folder of submissions, one sub-folder per student, and what each one holds: the player
//! file of a course bridge (Parchís `AIPlayer.cpp`, Conecta-4 BOOM `player.cpp`, with the header
//! next to it), a Mancala bot's sources (a folder with a makefile, or `.cpp` files), or a ready
//! program. Reading only: nothing here builds or runs anything.

use std::path::{Path, PathBuf};

use super::ClassError;
use crate::games::GameKind;

/// How a submission becomes an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A course player file, built by the game's bridge (`build.sh CHECKOUT FILE`).
    Player(PathBuf),
    /// A folder with a makefile: `make` in a copy of it.
    Make(PathBuf),
    /// A folder of `.cpp` files without a makefile: compiled together with g++.
    Cpp(PathBuf),
    /// A program used as it is.
    Program(PathBuf),
    /// Nothing to build, and why.
    Missing(String),
}

/// One student's submission.
#[derive(Clone, Debug)]
pub struct Submission {
    /// The engine name: the folder's name, spaces and `=` made `_`.
    pub name: String,
    pub dir: PathBuf,
    pub source: Source,
    /// `setoption`s of this student's engine from its `tablero.options` file.
    pub options: Vec<(String, String)>,
}

/// The file a submission's folder may hold with options for its engine (`NAME=VALUE` lines,
/// `#` comments), e.g. `PlayerId=2` for a Parchís player whose best heuristic is id 2.
pub const OPTIONS_FILE: &str = "tablero.options";

/// The player file a bridge builds, per game (`None` for Mancala, whose bots are programs).
pub fn player_file(kind: GameKind) -> Option<&'static str> {
    super::bridges::course(kind).and_then(|c| c.player_file)
}

/// The student's own headers that a bridge's build uses with the player file `player` (so that
/// a change in one is a new build): the headers next to it and, when it sits in the `src/`
/// (Parchís) or `Comportamiento_Agente/` (5-en-Raya) of a whole copy of the course repository,
/// beside an `include/`, that copy's `include/` headers. The bridges' build scripts use the
/// student's header of the player (`AIPlayer.h`, `player.h`, …) and the headers the course does
/// not have from these; the rest stay the course's. Sorted; a superset of what a build reads.
pub fn own_headers(player: &Path) -> Vec<PathBuf> {
    let is_header = |p: &Path| {
        p.is_file()
            && p.extension()
                .is_some_and(|e| ["h", "hpp", "hh", "hxx"].iter().any(|x| e == *x))
    };
    let headers_in = |d: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(d)
            .map(|rd| {
                rd.filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| is_header(p))
                    .collect()
            })
            .unwrap_or_default()
    };
    let Some(dir) = player.parent() else {
        return Vec::new();
    };
    let mut out = headers_in(dir);
    let in_copy = dir
        .file_name()
        .is_some_and(|n| n == "src" || n == "Comportamiento_Agente");
    if let Some(include) = dir.parent().map(|d| d.join("include"))
        && in_copy
        && include.is_dir()
    {
        out.extend(headers_in(&include));
    }
    out.sort();
    out
}

/// How deep a player file or a bot's sources are looked for inside a submission's folder.
const MAX_DEPTH: usize = 4;

/// The engine name of a folder name.
pub fn engine_name(folder: &str) -> String {
    folder
        .chars()
        .map(|c| {
            if c.is_whitespace() || c == '=' {
                '_'
            } else {
                c
            }
        })
        .collect()
}

/// Is `p` a program: a regular file with an execute bit that starts like one (ELF, `#!`)?
pub fn is_program(p: &Path) -> bool {
    use std::io::Read;
    use std::os::unix::fs::PermissionsExt;
    let Ok(m) = std::fs::metadata(p) else {
        return false;
    };
    if !m.is_file() || m.permissions().mode() & 0o111 == 0 {
        return false;
    }
    let mut head = [0u8; 4];
    let n = std::fs::File::open(p)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    head[..n].starts_with(b"\x7fELF") || head[..n].starts_with(b"#!")
}

/// Files and folders under `dir`, breadth first (shallowest first, names sorted), hidden ones
/// skipped, down to `MAX_DEPTH`.
fn walk(dir: &Path) -> Vec<(usize, PathBuf)> {
    let mut out = Vec::new();
    let mut level = vec![dir.to_path_buf()];
    for depth in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for d in &level {
            let Ok(rd) = std::fs::read_dir(d) else {
                continue;
            };
            let mut entries: Vec<PathBuf> = rd
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    !p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
                })
                .collect();
            entries.sort();
            for p in entries {
                if p.is_dir() {
                    next.push(p.clone());
                }
                out.push((depth, p));
            }
        }
        level = next;
    }
    out
}

fn rel(dir: &Path, p: &Path) -> String {
    p.strip_prefix(dir).unwrap_or(p).display().to_string()
}

/// A ready program in the folder (the only one), or why there is none.
fn program(dir: &Path, files: &[(usize, PathBuf)], wanted: &str) -> Source {
    let programs: Vec<&PathBuf> = files
        .iter()
        .map(|(_, p)| p)
        .filter(|p| is_program(p))
        .collect();
    match programs.as_slice() {
        [p] => Source::Program((*p).clone()),
        [] => Source::Missing(format!("no {wanted} and no program in the folder")),
        many => Source::Missing(format!(
            "no {wanted}, and several programs: {}",
            many.iter()
                .map(|p| rel(dir, p))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// What the folder `dir` holds for `kind`.
pub fn detect(kind: GameKind, dir: &Path) -> Source {
    let files = walk(dir);
    if let Some(file) = player_file(kind) {
        let found: Vec<&PathBuf> = files
            .iter()
            .map(|(_, p)| p)
            .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n == file))
            .collect();
        return match found.as_slice() {
            [p] => Source::Player((*p).clone()),
            [] => program(dir, &files, file),
            many => Source::Missing(format!(
                "several {file}: {}",
                many.iter()
                    .map(|p| rel(dir, p))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
    }
    // A Mancala bot: the shallowest folder with a makefile, else with .cpp files.
    let is_makefile = |p: &Path| {
        p.is_file()
            && p.file_name()
                .is_some_and(|n| n == "makefile" || n == "Makefile")
    };
    let is_cpp = |p: &Path| p.is_file() && p.extension().is_some_and(|e| e == "cpp");
    for depth in 0..MAX_DEPTH {
        let at: Vec<&PathBuf> = files
            .iter()
            .filter(|(d, _)| *d == depth)
            .map(|(_, p)| p)
            .collect();
        let mut makes: Vec<PathBuf> = at
            .iter()
            .filter(|p| is_makefile(p))
            .filter_map(|p| p.parent().map(Path::to_path_buf))
            .collect();
        makes.dedup();
        let mut cpps: Vec<PathBuf> = at
            .iter()
            .filter(|p| is_cpp(p))
            .filter_map(|p| p.parent().map(Path::to_path_buf))
            .collect();
        cpps.dedup();
        match (makes.as_slice(), cpps.as_slice()) {
            ([m], _) => return Source::Make(m.clone()),
            ([], [c]) => return Source::Cpp(c.clone()),
            ([], []) => {}
            (m, c) => {
                let dirs = if m.len() > 1 { m } else { c };
                return Source::Missing(format!(
                    "bot sources in several folders: {}",
                    dirs.iter()
                        .map(|p| rel(dir, p))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
    }
    program(dir, &files, "makefile or .cpp file")
}

/// Reads a submission's `tablero.options` (`None` when it has none).
fn options_file(dir: &Path) -> Result<Option<Vec<(String, String)>>, ClassError> {
    let path = dir.join(OPTIONS_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(ClassError::Io { path, error }),
    };
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (k, v) =
            crate::core::spec::name_value(line).ok_or_else(|| ClassError::OptionsLine {
                path: path.clone(),
                line: n + 1,
                text: line.to_string(),
            })?;
        out.push((k, v));
    }
    Ok(Some(out))
}

/// The submissions in `dir` (its sub-folders, by name; hidden ones and `skip` left out), and
/// the names of what was left out because it is not a folder. `defaults` are every student's
/// options; a submission's `tablero.options` adds to them and wins for the same name.
pub fn scan(
    kind: GameKind,
    dir: &Path,
    skip: Option<&Path>,
    defaults: &[(String, String)],
) -> Result<(Vec<Submission>, Vec<String>), ClassError> {
    let rd = std::fs::read_dir(dir).map_err(|error| ClassError::Io {
        path: dir.to_path_buf(),
        error,
    })?;
    let skip = skip.and_then(|s| s.canonicalize().ok());
    let mut entries: Vec<PathBuf> = rd.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    let mut subs = Vec::new();
    let mut ignored = Vec::new();
    for p in entries {
        let folder = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if folder.starts_with('.') {
            continue;
        }
        if skip.is_some() && p.canonicalize().ok() == skip {
            continue;
        }
        if !p.is_dir() {
            ignored.push(folder);
            continue;
        }
        let mut options = defaults.to_vec();
        if let Some(own) = options_file(&p)? {
            for (k, v) in own {
                options.retain(|(n, _)| !n.eq_ignore_ascii_case(&k));
                options.push((k, v));
            }
        }
        subs.push(Submission {
            name: engine_name(&folder),
            source: detect(kind, &p),
            dir: p,
            options,
        });
    }
    for (i, s) in subs.iter().enumerate() {
        if subs[..i].iter().any(|t| t.name == s.name) {
            return Err(ClassError::SameName(s.name.clone()));
        }
    }
    Ok((subs, ignored))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tablero-class-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn touch(p: &Path, text: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn exe(p: &Path, text: &str) {
        use std::os::unix::fs::PermissionsExt;
        touch(p, text);
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn what_each_folder_holds() {
        let d = tmp("detect");
        touch(&d.join("a/src/AIPlayer.cpp"), "");
        touch(&d.join("a/include/AIPlayer.h"), "");
        assert_eq!(
            detect(GameKind::Parchis, &d.join("a")),
            Source::Player(d.join("a/src/AIPlayer.cpp"))
        );
        touch(&d.join("b/AIPlayer.cpp"), "");
        touch(&d.join("b/old/AIPlayer.cpp"), "");
        assert_eq!(
            detect(GameKind::Parchis, &d.join("b")),
            Source::Missing("several AIPlayer.cpp: AIPlayer.cpp, old/AIPlayer.cpp".into())
        );
        exe(&d.join("c/engine"), "#!/bin/sh\n");
        touch(&d.join("c/notes.txt"), "");
        assert_eq!(
            detect(GameKind::Connect4Boom, &d.join("c")),
            Source::Program(d.join("c/engine"))
        );
        touch(&d.join("e/readme.txt"), "");
        assert_eq!(
            detect(GameKind::Connect4Boom, &d.join("e")),
            Source::Missing("no player.cpp and no program in the folder".into())
        );
        // Mancala: the shallowest makefile, else .cpp files, else a program.
        touch(&d.join("m/P3/Bot/makefile"), "");
        touch(&d.join("m/P3/Bot/x.cpp"), "");
        touch(&d.join("m/P3/old.cpp.txt"), "");
        assert_eq!(
            detect(GameKind::Mancala, &d.join("m")),
            Source::Make(d.join("m/P3/Bot"))
        );
        touch(&d.join("n/x.cpp"), "");
        touch(&d.join("n/y.cpp"), "");
        assert_eq!(
            detect(GameKind::Mancala, &d.join("n")),
            Source::Cpp(d.join("n"))
        );
        exe(&d.join("p/bot"), "\x7fELF");
        assert_eq!(
            detect(GameKind::Mancala, &d.join("p")),
            Source::Program(d.join("p/bot"))
        );
        touch(&d.join("q/one/a.cpp"), "");
        touch(&d.join("q/two/b.cpp"), "");
        assert_eq!(
            detect(GameKind::Mancala, &d.join("q")),
            Source::Missing("bot sources in several folders: one, two".into())
        );
        // Not a program: no execute bit, or not a program's first bytes.
        touch(&d.join("r/bot"), "\x7fELF");
        exe(&d.join("r/data.bin"), "data");
        assert_eq!(
            detect(GameKind::Mancala, &d.join("r")),
            Source::Missing("no makefile or .cpp file and no program in the folder".into())
        );
    }

    #[test]
    fn a_players_own_headers_include_a_whole_copys() {
        let d = tmp("headers");
        touch(&d.join("a/AIPlayer.cpp"), "");
        touch(&d.join("a/AIPlayer.h"), "");
        touch(&d.join("a/notes.txt"), "");
        assert_eq!(
            own_headers(&d.join("a/AIPlayer.cpp")),
            vec![d.join("a/AIPlayer.h")]
        );
        // A whole copy of the Parchís simulator: src/AIPlayer.cpp, include/AIPlayer.h.
        touch(&d.join("b/src/AIPlayer.cpp"), "");
        touch(&d.join("b/include/AIPlayer.h"), "");
        touch(&d.join("b/include/Parchis.h"), "");
        assert_eq!(
            own_headers(&d.join("b/src/AIPlayer.cpp")),
            vec![
                d.join("b/include/AIPlayer.h"),
                d.join("b/include/Parchis.h")
            ]
        );
        // 5-en-Raya: Comportamiento_Agente/ holds the agent and its header.
        touch(&d.join("c/Comportamiento_Agente/AgenteEstudiante.cpp"), "");
        touch(&d.join("c/Comportamiento_Agente/AgenteEstudiante.hpp"), "");
        touch(&d.join("c/include/Tablero.hpp"), "");
        assert_eq!(
            own_headers(&d.join("c/Comportamiento_Agente/AgenteEstudiante.cpp")),
            vec![
                d.join("c/Comportamiento_Agente/AgenteEstudiante.hpp"),
                d.join("c/include/Tablero.hpp")
            ]
        );
        // An include/ beside another folder is not the player's.
        touch(&d.join("e/other/AIPlayer.cpp"), "");
        touch(&d.join("e/include/AIPlayer.h"), "");
        assert!(own_headers(&d.join("e/other/AIPlayer.cpp")).is_empty());
    }

    #[test]
    fn scanning_names_and_options() {
        let d = tmp("scan");
        touch(&d.join("ana maria/player.cpp"), "");
        touch(&d.join("ana maria/tablero.options"), "# mine\nDepth = 6\n");
        touch(&d.join("bob/player.cpp"), "");
        touch(&d.join("notes.txt"), "");
        touch(&d.join(".git/x"), "");
        touch(&d.join("out/index.html"), "");
        let defaults = vec![
            ("Depth".to_string(), "4".to_string()),
            ("X".into(), "1".into()),
        ];
        let (subs, ignored) =
            scan(GameKind::Connect4Boom, &d, Some(&d.join("out")), &defaults).unwrap();
        let names: Vec<&str> = subs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, vec!["ana_maria", "bob"]);
        assert_eq!(ignored, vec!["notes.txt"]);
        assert_eq!(
            subs[0].options,
            vec![
                ("X".to_string(), "1".to_string()),
                ("Depth".into(), "6".into())
            ]
        );
        assert_eq!(subs[1].options, defaults);
        touch(&d.join("ana=maria/player.cpp"), "");
        let e = scan(GameKind::Connect4Boom, &d, None, &[]).unwrap_err();
        assert!(
            matches!(&e, ClassError::SameName(n) if n == "ana_maria"),
            "{e:?}"
        );
        assert!(e.to_string().contains("both named 'ana_maria'"), "{e}");
        std::fs::remove_dir_all(d.join("ana=maria")).unwrap();
        touch(&d.join("bob/tablero.options"), "Depth\n");
        let e = scan(GameKind::Connect4Boom, &d, None, &[]).unwrap_err();
        assert!(
            matches!(&e, ClassError::OptionsLine { line: 1, text, .. } if text == "Depth"),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .ends_with("tablero.options line 1: expected NAME=VALUE, got 'Depth'"),
            "{e}"
        );
    }
}
