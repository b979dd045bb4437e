//! Which game a class is, when `--game` is not given: the output folder of an earlier run says it
//! (`class.json`), a course checkout looks like one course's simulator, and the submissions hold
//! one game's player files (Parchís `AIPlayer.cpp`, BOOM `player.cpp`, Mancala bot sources). A
//! class with none of these (only ready programs, say) is asked for its `--game`: a default
//! would be a guess, and a tournament of the wrong game measures nothing.

use std::path::Path;

use super::ClassError;
use super::bridges::{COURSES, Course};
use crate::games::GameKind;

/// The game and what told it, for the line that says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Told {
    pub kind: GameKind,
    pub why: String,
}

/// The course whose checkout `course` looks like, and the file that shows it.
pub fn course_game(course: &Path) -> Option<(GameKind, &'static str)> {
    for c in COURSES {
        if let Some((marker, _)) = c.checkout {
            for m in std::iter::once(marker).chain(c.other_markers.iter().copied()) {
                if course.join(m).is_file() {
                    return Some((c.game, m));
                }
            }
        }
    }
    // The Mancala course's material: the referee, the students' template bot.
    let mancala = std::fs::read_dir(course)
        .ok()?
        .filter_map(Result::ok)
        .any(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n == "MancalaNoGUI.jar" || n.starts_with("AlumnoBot") || n == "GreedyBot"
        });
    mancala.then_some((GameKind::Mancala, "a Mancala course folder"))
}

/// How a submission's folder votes: the course whose player file it holds (looked for up to
/// four folders deep, as the builds look for them), else the course whose students hand in
/// programs (sources or a makefile).
fn submission_game(dir: &Path) -> Option<&'static Course> {
    let mut found: Vec<&'static Course> = Vec::new();
    let mut sources = false;
    let mut stack = vec![(dir.to_path_buf(), 0)];
    while let Some((d, depth)) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.filter_map(Result::ok) {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            if p.is_dir() {
                if depth + 1 < 4 {
                    stack.push((p, depth + 1));
                }
                continue;
            }
            if let Some(c) = COURSES
                .iter()
                .find(|c| c.player_file == Some(name.as_str()))
            {
                if !found.iter().any(|f| f.game == c.game) {
                    found.push(c);
                }
            } else if name == "makefile" || name == "Makefile" || name.ends_with(".cpp") {
                sources = true;
            }
        }
    }
    // A player file decides (a whole copy of a simulator has other .cpp files too); two
    // courses' player files say nothing.
    match found[..] {
        [c] => Some(c),
        [] if sources => COURSES.iter().find(|c| c.player_file.is_none()),
        _ => None,
    }
}

/// What a course's submissions hold, in messages.
fn holds(c: &Course) -> String {
    match c.player_file {
        Some(f) => format!("{} {f} files", c.title),
        None => format!("{} bot sources", c.title),
    }
}

/// What the submissions' folders say: the game most of those that say one hold, when more
/// than half of them agree.
fn submissions_game(dir: &Path) -> Option<(GameKind, String)> {
    let rd = std::fs::read_dir(dir).ok()?;
    let mut votes: Vec<&'static Course> = Vec::new();
    let mut folders = 0;
    for e in rd.filter_map(Result::ok) {
        if e.path().is_dir() && !e.file_name().to_string_lossy().starts_with('.') {
            folders += 1;
            votes.extend(submission_game(&e.path()));
        }
    }
    let count = |k: GameKind| votes.iter().filter(|v| v.game == k).count();
    let best = COURSES.iter().max_by_key(|c| count(c.game))?;
    let n = count(best.game);
    (n > 0 && 2 * n > votes.len()).then(|| {
        (
            best.game,
            format!("{n} of {folders} submissions hold {}", holds(best)),
        )
    })
}

/// The class's game when `--game` is not given: the output folder's `class.json`, else the
/// course checkout, else the submissions (checkout and submissions must agree). An error asks
/// for `--game` when nothing tells.
pub fn game(
    course: Option<&Path>,
    submissions: Option<&Path>,
    out: &Path,
) -> Result<Told, ClassError> {
    let manifest = out.join("class.json");
    match std::fs::read_to_string(&manifest) {
        Ok(text) => {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(&text)
                && let Some(kind) = v
                    .get("game")
                    .and_then(|g| g.as_str())
                    .and_then(|g| GameKind::from_name(g).ok())
            {
                return Ok(Told {
                    kind,
                    why: format!("the class in {}", out.display()),
                });
            }
        }
        // Without submissions (`--report-only`) only the folder can tell.
        Err(error) if submissions.is_none() => {
            return Err(ClassError::NoManifest {
                path: manifest,
                error,
            });
        }
        Err(_) => {}
    }
    let from_course = course.and_then(|c| {
        course_game(c).map(|(k, f)| (k, format!("the checkout {} has {f}", c.display())))
    });
    let from_subs = submissions.and_then(submissions_game);
    match (from_course, from_subs) {
        (Some((a, why_a)), Some((b, why_b))) if a != b => {
            Err(ClassError::GamesDisagree { a, why_a, b, why_b })
        }
        (Some((kind, why)), _) | (None, Some((kind, why))) => Ok(Told { kind, why }),
        (None, None) => Err(ClassError::WhichGame {
            course: course.map(Path::to_path_buf),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("tablero-infer-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn touch(p: &Path) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "").unwrap();
    }

    #[test]
    fn the_submissions_and_the_checkout_tell_the_game() {
        let d = tmp("subs");
        let subs = d.join("subs");
        for s in ["ana", "ben", "eva"] {
            touch(&subs.join(s).join("bot.cpp"));
        }
        touch(&subs.join("tom/notes.txt"));
        let told = game(None, Some(&subs), &d.join("out")).unwrap();
        assert_eq!(told.kind, GameKind::Mancala);
        assert_eq!(told.why, "3 of 4 submissions hold Mancala bot sources");
        // A whole copy of the Parchís simulator is a Parchís submission.
        touch(&subs.join("ana/practica/src/AIPlayer.cpp"));
        touch(&subs.join("ben/AIPlayer.cpp"));
        touch(&subs.join("eva/AIPlayer.cpp"));
        assert_eq!(
            game(None, Some(&subs), &d.join("out")).unwrap().kind,
            GameKind::Parchis
        );
        // A BOOM checkout against Parchís submissions: asked.
        let course = d.join("course");
        touch(&course.join("environment.h"));
        let e = game(Some(&course), Some(&subs), &d.join("out")).unwrap_err();
        assert!(
            matches!(
                e,
                ClassError::GamesDisagree {
                    a: GameKind::Connect4Boom,
                    b: GameKind::Parchis,
                    ..
                }
            ),
            "{e:?}"
        );
        let e = e.to_string();
        assert!(e.contains("environment.h (connect4boom)"), "{e}");
        assert!(e.contains("give --game"), "{e}");
        // Only ready programs: asked.
        let progs = d.join("progs");
        touch(&progs.join("ana/engine"));
        let e = game(None, Some(&progs), &d.join("out")).unwrap_err();
        assert!(matches!(e, ClassError::WhichGame { course: None }), "{e:?}");
        assert!(e.to_string().contains("which game?"), "{e}");
        // An earlier run's folder says it.
        std::fs::create_dir_all(d.join("out")).unwrap();
        std::fs::write(d.join("out/class.json"), r#"{"game": "connect4boom"}"#).unwrap();
        assert_eq!(
            game(None, Some(&progs), &d.join("out")).unwrap().kind,
            GameKind::Connect4Boom
        );
        let _ = std::fs::remove_dir_all(d);
    }

    #[test]
    fn every_course_in_the_registry_is_told_by_its_files() {
        let d = tmp("courses");
        for c in COURSES {
            let subs = d.join(c.game.name());
            for s in ["ana", "ben"] {
                touch(&subs.join(s).join(c.player_file.unwrap_or("bot.cpp")));
            }
            let told = game(None, Some(&subs), &d.join("out")).unwrap();
            assert_eq!(told.kind, c.game);
            assert_eq!(told.why, format!("2 of 2 submissions hold {}", holds(c)));
            if let Some((marker, _)) = c.checkout {
                let course = d.join(format!("{}-course", c.game.name()));
                touch(&course.join(marker));
                assert_eq!(course_game(&course), Some((c.game, marker)));
            }
        }
        let told = game(None, Some(&d.join("enraya")), &d.join("out")).unwrap();
        assert_eq!(
            told.why,
            "2 of 2 submissions hold 5-en-Raya Táctico AgenteEstudiante.cpp files"
        );
        let _ = std::fs::remove_dir_all(d);
    }
}
