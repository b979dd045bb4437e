//! `tablero analyse`: the command line of the game review ([`crate::review`]) — flags to its
//! configuration, skipped games and the summary table printed, failures as one line.

use std::time::Duration;

use super::cli::AnalyseArgs;
use crate::core::spec::name_value;
use crate::referee::conn::EngineSpec;
use crate::review::analyst::QueryLimits;
use crate::review::run::{Config, Engine, Notice};
use crate::review::{fit, run as review_run, totals_text};

pub fn run(a: &AnalyseArgs) -> Result<(), String> {
    if a.fit {
        let f = fit::fit(&a.records, a.partial).map_err(|e| e.to_string())?;
        print!("{}", f.text());
        return Ok(());
    }
    let (output, resume) = match (&a.output, &a.resume) {
        (Some(o), None) => (o.clone(), false),
        (None, Some(r)) => (r.clone(), true),
        _ => return Err("give -o FILE or --resume FILE".into()),
    };
    let engine = if a.engine == "tablero" {
        Engine::Tablero
    } else {
        Engine::Spec(EngineSpec::parse(&a.engine).map_err(|e| format!("--engine: {e}"))?)
    };
    let options = a
        .option
        .iter()
        .map(|o| name_value(o).ok_or_else(|| format!("--option '{o}': expected NAME=VALUE")))
        .collect::<Result<Vec<_>, _>>()?;
    if a.depth == Some(0) {
        return Err("--depth: at least 1".into());
    }
    if a.concurrency == 0 {
        return Err("--concurrency: at least 1".into());
    }
    let cfg = Config {
        inputs: a.records.clone(),
        output,
        resume,
        overwrite: a.overwrite,
        partial: a.partial,
        engine,
        engine_name: a.engine.clone(),
        options,
        limits: QueryLimits {
            depth: a.depth,
            nodes: a.nodes,
            movetime_ms: a.movetime,
        },
        solver_nodes: a.solver_nodes,
        solver_all: a.solver_all,
        hash_mib: a.hash.clamp(1, 4096),
        concurrency: a.concurrency,
        timeout: Duration::from_millis(a.timeout),
        progress: true,
    };
    let mut notice = |n: Notice| match n {
        Notice::Skipped(s) => eprintln!(
            "tablero analyse: game {} ({}): {}; not analysed",
            s.game, s.source, s.why
        ),
        Notice::TornLine { line } => eprintln!(
            "tablero analyse: --resume {}: dropped its torn last line {line}",
            cfg.output.display()
        ),
    };
    let o = review_run(&cfg, &mut notice).map_err(|e| e.to_string())?;
    print!("{}", totals_text(&o.totals));
    eprintln!(
        "tablero analyse: {} {} games (the records' game) in {} ({} reviewed now, {} kept, {} skipped); {} moves in {:.1} s",
        o.games,
        o.settings.variant,
        cfg.output.display(),
        o.reviewed,
        o.kept,
        o.skipped.len(),
        o.moves,
        o.elapsed.as_secs_f64()
    );
    Ok(())
}
