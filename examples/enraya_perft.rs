//! Perft of 5-en-Raya from the command line, for `scripts/enraya/perft_vs_core.sh` while the game
//! is not yet selectable in the protocol (`tablero --game enraya`): the same generic
//! `core::perft` the protocol's `perft` command runs.
//!
//! Usage: `enraya_perft DEPTH [ROWS COLS N] [--fen STATE | --file BOARD_FILE] [--divide]`;
//! prints the leaves, then with `--divide` one line per first move (`f,c: N`). A board file is
//! the simulator's `-file` format (it carries its size), so the same file can be given to the
//! core's driver, `scripts/enraya/core_perft.cpp`.

use std::process::ExitCode;

use tablero::core::game::Game;
use tablero::core::perft::{divide, perft};
use tablero::games::enraya::{Config, Enraya};

fn run(args: &[String]) -> Result<(), String> {
    let usage =
        "usage: enraya_perft DEPTH [ROWS COLS N] [--fen STATE | --file BOARD_FILE] [--divide]";
    let mut words: Vec<&str> = args.iter().map(String::as_str).collect();
    let show_divide = words.last() == Some(&"--divide");
    if show_divide {
        words.pop();
    }
    let file = match words.iter().position(|w| *w == "--file") {
        Some(i) => {
            let path = words.get(i + 1).ok_or(usage)?.to_string();
            words.truncate(i);
            Some(path)
        }
        None => None,
    };
    let fen = match words.iter().position(|w| *w == "--fen") {
        Some(i) => {
            let f = words[i + 1..].join(" ");
            words.truncate(i);
            Some(f)
        }
        None => None,
    };
    let num = |w: &str| {
        w.parse::<i64>()
            .map_err(|_| format!("'{w}' is not a number; {usage}"))
    };
    let depth = num(words.first().ok_or(usage)?)?;
    let depth = u32::try_from(depth).map_err(|_| format!("DEPTH must be 0 or more; {usage}"))?;
    let config = match words[1..] {
        [] => Config::default(),
        [r, c, n] => Enraya::configure(&[num(r)?, num(c)?, num(n)?])?,
        _ => return Err(usage.into()),
    };
    let start = match (fen, file) {
        (Some(f), _) => Enraya::parse_fen(&f, &config)?,
        (None, Some(path)) => {
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
            Enraya::parse_board_file(&text)
                .map_err(|e| format!("{path}: {e}"))?
                .1
        }
        (None, None) => Enraya::start(&config),
    };
    println!("{}", perft(&start, depth));
    if show_divide && depth >= 1 {
        for (m, n) in divide(&start, depth) {
            println!("{m}: {n}");
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
