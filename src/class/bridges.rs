//! The courses a class can be built for, one [`Course`] each in [`COURSES`]: the course
//! bridge's build script and sources (compiled into the binary and written out where a class
//! run builds its engines, `OUT/bridge/`), the student's file it builds, what marks a checkout
//! of the course, the checkout's files a build reads, and the options every student's engine
//! starts with. Class support for a new game is its bridge under `scripts/bridge/<game>/`, one
//! `Course` here and one line in [`COURSES`].
//!
//! Why embedded rather than looked up next to the binary or in a checkout: a teacher runs an
//! installed `tablero` from anywhere (often not inside this repository), on a cluster's nodes
//! too, and the engines it builds must speak the protocol of the referee that plays them. The
//! copy inside the binary is exactly the bridge of this version (`include_str!` reads the
//! repository's files at compile time, so it cannot drift), and writing it into the run's own
//! folder leaves a record of what built every engine, on the shared file system that a
//! cluster's shards see.

use std::path::{Path, PathBuf};

use super::{ClassError, io};
use crate::games::GameKind;

/// The Parchís bridge: what `parchis/build.sh` compiles, and the header both bridges share.
const PARCHIS: &[(&str, &str)] = &[
    (
        "parchis/build.sh",
        include_str!("../../scripts/bridge/parchis/build.sh"),
    ),
    (
        "parchis/course_api.h",
        include_str!("../../scripts/bridge/parchis/course_api.h"),
    ),
    (
        "parchis/frontend.cpp",
        include_str!("../../scripts/bridge/parchis/frontend.cpp"),
    ),
    (
        "parchis/frontend.h",
        include_str!("../../scripts/bridge/parchis/frontend.h"),
    ),
    (
        "parchis/main.cpp",
        include_str!("../../scripts/bridge/parchis/main.cpp"),
    ),
    (
        "parchis/notation.cpp",
        include_str!("../../scripts/bridge/parchis/notation.cpp"),
    ),
    (
        "parchis/notation.h",
        include_str!("../../scripts/bridge/parchis/notation.h"),
    ),
    (
        "parchis/state_dump.cpp",
        include_str!("../../scripts/bridge/parchis/state_dump.cpp"),
    ),
    (
        "parchis/stub/GUIPlayer.h",
        include_str!("../../scripts/bridge/parchis/stub/GUIPlayer.h"),
    ),
    (
        "common/protocol_text.h",
        include_str!("../../scripts/bridge/common/protocol_text.h"),
    ),
];

/// The Conecta-4 BOOM bridge: what `boom/build.sh` compiles, and the shared header.
const BOOM: &[(&str, &str)] = &[
    (
        "boom/build.sh",
        include_str!("../../scripts/bridge/boom/build.sh"),
    ),
    (
        "boom/course_api.h",
        include_str!("../../scripts/bridge/boom/course_api.h"),
    ),
    (
        "boom/frontend.cpp",
        include_str!("../../scripts/bridge/boom/frontend.cpp"),
    ),
    (
        "boom/frontend.h",
        include_str!("../../scripts/bridge/boom/frontend.h"),
    ),
    (
        "boom/main.cpp",
        include_str!("../../scripts/bridge/boom/main.cpp"),
    ),
    (
        "boom/stub/include/GL/glui.h",
        include_str!("../../scripts/bridge/boom/stub/include/GL/glui.h"),
    ),
    (
        "common/protocol_text.h",
        include_str!("../../scripts/bridge/common/protocol_text.h"),
    ),
];

/// The 5-en-Raya Táctico bridge: what `enraya/build.sh` compiles, and the shared header.
const ENRAYA: &[(&str, &str)] = &[
    (
        "enraya/build.sh",
        include_str!("../../scripts/bridge/enraya/build.sh"),
    ),
    (
        "enraya/course_api.h",
        include_str!("../../scripts/bridge/enraya/course_api.h"),
    ),
    (
        "enraya/engine_process.h",
        include_str!("../../scripts/bridge/enraya/engine_process.h"),
    ),
    (
        "enraya/frontend.cpp",
        include_str!("../../scripts/bridge/enraya/frontend.cpp"),
    ),
    (
        "enraya/frontend.h",
        include_str!("../../scripts/bridge/enraya/frontend.h"),
    ),
    (
        "enraya/main.cpp",
        include_str!("../../scripts/bridge/enraya/main.cpp"),
    ),
    (
        "enraya/notation.h",
        include_str!("../../scripts/bridge/enraya/notation.h"),
    ),
    (
        "enraya/stub/GL/glut.h",
        include_str!("../../scripts/bridge/enraya/stub/GL/glut.h"),
    ),
    (
        "common/protocol_text.h",
        include_str!("../../scripts/bridge/common/protocol_text.h"),
    ),
];

/// What a class needs of a game's course.
#[derive(Debug)]
pub struct Course {
    pub game: GameKind,
    /// The course's name for the game, in messages ("Conecta-4 BOOM player.cpp files").
    pub title: &'static str,
    /// The student's file the bridge builds (`None`: students hand in programs, Mancala's
    /// course bots, built with `make` or g++ and run with the bot protocol).
    pub player_file: Option<&'static str>,
    /// The bridge's files (relative path, contents): `build.sh` and what it compiles.
    pub bridge: &'static [(&'static str, &'static str)],
    /// A file every checkout of the course has, and the checkout as a teacher knows it (for
    /// `--course` messages); `None`: no checkout is needed.
    pub checkout: Option<(&'static str, &'static str)>,
    /// Files that mark a checkout of another year's layout as well (Parchís 2024-25 keeps its
    /// core in `include/model/`).
    pub other_markers: &'static [&'static str],
    /// The checkout's files a build reads (so that a change in one is a new build): paths, or
    /// `DIR/*.EXT` for every such file of a folder; `*` for the files directly in it.
    pub course_files: &'static [&'static str],
    /// Options every student's engine starts with unless the teacher sets them (the course's
    /// test heuristic is id 0, the student's own heuristics 1, 2, …).
    pub student_options: &'static [(&'static str, &'static str)],
    /// The students' programs speak the course's bot protocol (Mancala's), run through the
    /// referee's `mancala-bot:` spec; otherwise they are tablero engines (a bridge's build).
    pub bot_protocol: bool,
}

/// Every course, one line each.
pub const COURSES: &[Course] = &[PARCHIS_COURSE, BOOM_COURSE, MANCALA_COURSE, ENRAYA_COURSE];

const PARCHIS_COURSE: Course = Course {
    game: GameKind::Parchis,
    title: "Parchís",
    player_file: Some("AIPlayer.cpp"),
    bridge: PARCHIS,
    checkout: Some((
        "include/Parchis.h",
        "the 2022-23 Parchís simulator's checkout (e.g. rbnuria/ParchisIA-23; with --option Year=2021-22 the 2021-22 one, e.g. pabloxeo/practica3; with --option Year=2023-24 the 2023-24 one, e.g. rbnuria/ParchisBoom; with --option Year=2024-25 the 2024-25 one, e.g. sechedUGR/practica3)",
    )),
    other_markers: &["include/model/Parchis.h"],
    course_files: &[
        "include/*.h",
        "src/Parchis.cpp",
        "src/Board.cpp",
        "src/Dice.cpp",
        "src/Piece.cpp",
        "src/Player.cpp",
        // 2023-24's power bar and the trap code its board still links.
        "src/PowerBar.cpp",
        "src/BoardTrap.cpp",
        // 2024-25's layout.
        "include/model/*.h",
        "src/model/*.cpp",
        "src/personal/AIPlayer.h",
    ],
    // The first of the student's own heuristics (docs/bridge-parchis.md).
    student_options: &[("PlayerId", "1")],
    bot_protocol: false,
};

const BOOM_COURSE: Course = Course {
    game: GameKind::Connect4Boom,
    title: "Conecta-4 BOOM",
    player_file: Some("player.cpp"),
    bridge: BOOM,
    checkout: Some((
        "environment.h",
        "the Conecta-4 BOOM simulator's checkout (2020-21, e.g. TheDani1/Conecta4Boom_linux; with --option Year=2018-19 the 2018-19 one, e.g. imm98/IA's Practica3/Desconecta4Boom_linux)",
    )),
    other_markers: &[],
    course_files: &["environment.h", "environment.cpp", "player.h"],
    student_options: &[],
    bot_protocol: false,
};

const MANCALA_COURSE: Course = Course {
    game: GameKind::Mancala,
    title: "Mancala",
    player_file: None,
    bridge: &[],
    checkout: None,
    other_markers: &[],
    course_files: &["*"],
    student_options: &[],
    bot_protocol: true,
};

const ENRAYA_COURSE: Course = Course {
    game: GameKind::Enraya,
    title: "5-en-Raya Táctico",
    player_file: Some("AgenteEstudiante.cpp"),
    bridge: ENRAYA,
    checkout: Some((
        "include/Tablero.hpp",
        "the 2025-26 5-en-Raya Táctico simulator's checkout (ugr-ccia-IA/practica3)",
    )),
    other_markers: &[],
    course_files: &[
        "include/*.hpp",
        "src/Tablero.cpp",
        "Comportamiento_Agente/AgenteEstudiante.hpp",
    ],
    student_options: &[],
    bot_protocol: false,
};

/// The course of `kind`, if a class can be built for it.
pub fn course(kind: GameKind) -> Option<&'static Course> {
    COURSES.iter().find(|c| c.game == kind)
}

/// The embedded files of `kind`'s bridge (relative path, contents); none for Mancala, whose
/// bots need no bridge (the referee's `mancala-bot:` spec runs them as they are).
pub fn files(kind: GameKind) -> &'static [(&'static str, &'static str)] {
    course(kind).map_or(&[], |c| c.bridge)
}

/// Writes `kind`'s bridge under `dir` and returns its build script (`None` for a game without
/// a bridge).
pub fn write(kind: GameKind, dir: &Path) -> Result<Option<PathBuf>, ClassError> {
    let files = files(kind);
    let mut script = None;
    for (rel, text) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        // Rewritten only when it differs, so a shard starting while another builds never
        // sees a half-written script.
        if std::fs::read_to_string(&path).ok().as_deref() != Some(*text) {
            let tmp = path.with_extension(format!("tmp{}", std::process::id()));
            std::fs::write(&tmp, text).map_err(io(&tmp))?;
            std::fs::rename(&tmp, &path).map_err(io(&path))?;
        }
        if rel.ends_with("/build.sh") {
            script = Some(path);
        }
    }
    Ok(script)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file of the bridges' folders is embedded, except the ones `build.sh` never reads
    /// (the simulator-side player, the cross-check and header-check tools): a file the bridges
    /// add later fails this test until it is listed on one side or the other.
    #[test]
    fn every_file_build_sh_may_read_is_embedded() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bridge");
        let not_built = [
            "parchis/TableroPlayer.h",
            "parchis/TableroPlayer.cpp",
            "parchis/check_stub_headers.sh",
            "parchis/crosscheck.py",
            "boom/crosscheck.py",
            "enraya/AgenteTablero.hpp",
            "enraya/AgenteTablero.cpp",
            "enraya/check_stub_headers.sh",
            "enraya/crosscheck.py",
            "enraya/play.py",
        ];
        for (game, kind) in [
            ("parchis", GameKind::Parchis),
            ("boom", GameKind::Connect4Boom),
            ("enraya", GameKind::Enraya),
        ] {
            let mut on_disk = Vec::new();
            let mut stack = vec![root.join(game)];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d).unwrap() {
                    let p = e.unwrap().path();
                    if p.is_dir() {
                        stack.push(p);
                    } else {
                        let rel = p
                            .strip_prefix(&root)
                            .unwrap()
                            .to_string_lossy()
                            .into_owned();
                        if !not_built.contains(&rel.as_str()) && !rel.contains("__pycache__") {
                            on_disk.push(rel);
                        }
                    }
                }
            }
            on_disk.push("common/protocol_text.h".into());
            on_disk.sort();
            let mut embedded: Vec<String> =
                files(kind).iter().map(|(r, _)| r.to_string()).collect();
            embedded.sort();
            assert_eq!(embedded, on_disk, "{game}");
        }
        assert!(files(GameKind::Mancala).is_empty());
    }
}
