//! The course bridges' build scripts and sources, compiled into the binary and written out
//! where a class run builds its engines (`OUT/bridge/`).
//!
//! Why embedded rather than looked up next to the binary or in a checkout: a teacher runs an
//! installed `tablero` from anywhere (often not inside this repository), on a cluster's nodes
//! too, and the engines it builds must speak the protocol of the referee that plays them. The
//! copy inside the binary is exactly the bridge of this version (`include_str!` reads the
//! repository's files at compile time, so it cannot drift), and writing it into the run's own
//! folder leaves a record of what built every engine, on the shared file system that a
//! cluster's shards see.

use std::path::{Path, PathBuf};

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

/// The embedded files of `kind`'s bridge (relative path, contents); none for Mancala, whose
/// bots need no bridge (the referee's `mancala-bot:` spec runs them as they are).
pub fn files(kind: GameKind) -> &'static [(&'static str, &'static str)] {
    match kind {
        GameKind::Parchis => PARCHIS,
        GameKind::Connect4Boom => BOOM,
        _ => &[],
    }
}

/// Writes `kind`'s bridge under `dir` and returns its build script (`None` for a game without
/// a bridge).
pub fn write(kind: GameKind, dir: &Path) -> Result<Option<PathBuf>, String> {
    let files = files(kind);
    let mut script = None;
    for (rel, text) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        // Rewritten only when it differs, so a shard starting while another builds never
        // sees a half-written script.
        if std::fs::read_to_string(&path).ok().as_deref() != Some(*text) {
            let tmp = path.with_extension(format!("tmp{}", std::process::id()));
            std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
            std::fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))?;
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
        ];
        for (game, kind) in [
            ("parchis", GameKind::Parchis),
            ("boom", GameKind::Connect4Boom),
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
