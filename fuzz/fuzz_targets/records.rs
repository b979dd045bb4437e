//! Fuzz target: the referee's records reader, as `tablero match --resume` and `tablero report`
//! use it: every line through `GameRecord::from_json` and `record_settings` (and the settings
//! comparison `--resume` makes), then the files through `report::load` (the merge of several
//! files: identity, duplicates, missing games), the text table and the HTML page (which replays
//! every game through its game's move parser).
//!
//! Input: arbitrary bytes; each 0xFF byte (never part of UTF-8 text) starts another records
//! file, at most three. Everything must end in a result or a one-line error.

#![no_main]

use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tablero::referee::{GameRecord, record_settings};
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
            if let Some(Ok(s)) = record_settings(&v) {
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
    match report::load(&paths) {
        Ok(records) => {
            let text = records.text();
            assert!(!text.is_empty());
            if let Err(e) = report::html::page(&records) {
                assert!(!e.contains('\n'), "multi-line error: {e}");
            }
        }
        Err(e) => assert!(!e.contains('\n'), "multi-line error: {e}"),
    }
});
