//! Fuzz target: the referee's records reader, as `resume` and `tablero report` use it: every
//! line through `GameRecord::from_json` and `line_settings` (and the settings comparison
//! `resume` makes), then the files through `records::read_files` (the merge of several files of
//! any records version: identity, duplicates, missing games) and a match's text table and HTML
//! page (which replays every game through its game's move parser), or a tournament's standings.
//!
//! Input: arbitrary bytes; each 0xFF byte (never part of UTF-8 text) starts another records
//! file, at most three. Everything must end in a result or a one-line error.

#![no_main]

use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tablero::referee::GameRecord;
use tablero::referee::ratings::standings;
use tablero::referee::records::{line_settings, read_files};
use tablero::report;

fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("tablero-fuzz-records-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&d);
    d
}

fuzz_target!(|data: &[u8]| {
    let dir = scratch();
    let mut paths = Vec::new();
    let mut first_settings = None;
    for (i, part) in data.split(|&b| b == 0xFF).take(3).enumerate() {
        for line in String::from_utf8_lossy(part).lines() {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let _ = GameRecord::from_json(&v).map(|r| r.winner_engine());
            if let Some(Ok(s)) = line_settings(&v) {
                match &first_settings {
                    None => first_settings = Some(s),
                    Some(f) => {
                        let _ = f.difference(&s);
                        assert!(
                            s.difference(&s).is_none(),
                            "settings differ from themselves"
                        );
                    }
                }
            }
        }
        let p = dir.join(format!("r{i}.jsonl"));
        std::fs::write(&p, part).expect("scratch file");
        paths.push(p);
    }
    match read_files(&paths) {
        Ok(m) if m.is_match() => match report::load(&paths) {
            Ok(records) => {
                let text = records.text();
                assert!(!text.is_empty());
                if let Err(e) = report::html::page(&records) {
                    assert!(!e.to_string().contains('\n'), "multi-line error: {e}");
                }
            }
            Err(e) => assert!(!e.to_string().contains('\n'), "multi-line error: {e}"),
        },
        Ok(m) => {
            let games: Vec<GameRecord> = m.games.iter().map(|g| g.record.clone()).collect();
            let settings = m
                .settings
                .as_ref()
                .expect("a tournament's records have settings");
            match standings(settings, &games, None) {
                Ok(s) => {
                    assert!(!s.text().is_empty());
                    let _ = s.json();
                }
                Err(e) => assert!(!e.to_string().contains('\n'), "multi-line error: {e}"),
            }
        }
        Err(e) => assert!(!e.to_string().contains('\n'), "multi-line error: {e}"),
    }
});
