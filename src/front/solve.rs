//! `tablero solve`: solves one position (start, `--fen`, `--moves`) or a batch file (golden
//! lines; for 5-en-Raya positions with the `Status` answers to check), printing `info …`
//! progress and `solved score <s> best <move> nodes <n> time <ms>`.

use std::sync::Arc;
use std::time::Instant;

use crate::core::game::Game;
use crate::core::spec;
use crate::games::GameKind;
use crate::games::connect4::Connect4;
use crate::games::mancala::{Mancala, MancalaConfig};

use crate::games::enraya::{Config as EnrayaConfig, Enraya};
use crate::solver::enraya::{self, Unproven, course_word, from_course_word};
use crate::solver::kalahdb::{self, KalahDb, Rules};
use crate::solver::{Budget, Wdl, connect4, kalah, kalah_golden_line, registry};

use super::args::{move_tokens, option_error, position_error, set_values};

/// What to solve and how.
#[derive(Clone, Debug, Default)]
pub struct SolveArgs {
    pub game: String,
    pub fen: Option<String>,
    pub moves: Vec<String>,
    pub batch: Option<String>,
    /// `NAME=VALUE` variant options (Rows, Columns, Pits, Seeds).
    pub set: Vec<String>,
    /// Table size in MiB (`None`: the game's default, see [`default_hash_mib`]).
    pub hash_mib: Option<usize>,
    pub threads: usize,
    /// Kalah: seeds the bottom-up endgame database covers (`None`: [`kalahdb::auto_seeds`]).
    pub db_seeds: Option<usize>,
    /// Kalah: the database cache directory (`None`: [`kalahdb::default_dir`]).
    pub db_dir: Option<std::path::PathBuf>,
    /// Kalah: the most the database may take, MB (fewer seeds when the asked ones need more).
    pub db_max_mb: Option<u64>,
    /// Connect Four batches: keep the table between positions.
    pub keep_table: bool,
    /// 5-en-Raya: the node budget of each solve (`None`: none).
    pub nodes: Option<u64>,
}

/// The value of variant option `name` of `G` (its default when `--set` does not give it).
fn option<G: Game>(args: &SolveArgs, name: &str) -> Result<i64, String> {
    let values =
        spec::variant_values::<G>(&set_values(&args.set)?, false).map_err(|e| option_error(&e))?;
    let i = G::OPTIONS
        .iter()
        .position(|o| o.name == name)
        .ok_or_else(|| format!("{} has no option {name}", G::NAME))?;
    Ok(spec::option_values::<G>(&values)[i])
}

/// `--set EmptyCapture=0|1` (Kalah's rule variant, a solver setting rather than a game option).
fn empty_capture(args: &SolveArgs) -> Result<Rules, String> {
    let mut rules = Rules::Course;
    for (k, v) in set_values(&args.set)? {
        if k.eq_ignore_ascii_case("EmptyCapture") {
            rules = match v.trim() {
                "0" => Rules::Course,
                "1" => Rules::EmptyCapture,
                v => return Err(format!("--set EmptyCapture={v}: expected 0 or 1")),
            };
        }
    }
    Ok(rules)
}

/// The position of `--fen` and `--moves` (Pons move strings for Connect Four).
fn start<G: Game>(args: &SolveArgs, cfg: &G::Config, kind: GameKind) -> Result<G, String> {
    spec::position_from(cfg, args.fen.as_deref(), &move_tokens(kind, &args.moves))
        .map_err(|e| position_error(&e))
}

/// `solve`'s table size when none is given. Kalah's is smaller: with the endgame database
/// Kalah(6,4) needs far less, and zeroing a 1 GiB table took longer than the 3.5 s solve.
/// 5-en-Raya's endgames fit in 64 MiB, and a batch clears the table before every position.
pub fn default_hash_mib(game: &str) -> usize {
    if game.eq_ignore_ascii_case("mancala") {
        256
    } else if game.eq_ignore_ascii_case("enraya") {
        64
    } else {
        1024
    }
}

/// The table size this run uses.
fn hash_mib(args: &SolveArgs) -> usize {
    args.hash_mib
        .unwrap_or_else(|| default_hash_mib(&args.game))
}

/// Runs the subcommand, printing to stdout.
pub fn run(args: &SolveArgs) -> Result<(), String> {
    match args.game.to_ascii_lowercase().as_str() {
        "connect4" => run_connect4(args),
        "mancala" => run_kalah(args),
        "enraya" => run_enraya(args),
        g => Err(format!(
            "solve supports {}, not '{g}': add --game with one of them",
            registry::games().join(", ")
        )),
    }
}

fn run_connect4(args: &SolveArgs) -> Result<(), String> {
    let cfg = Connect4::configure(&[
        option::<Connect4>(args, "Rows")?,
        option::<Connect4>(args, "Columns")?,
    ])?;
    let settings = connect4::Settings {
        hash_mib: hash_mib(args),
        threads: args.threads,
    };
    let (w, h) = (cfg.columns as u32, cfg.rows as u32);
    if let Some(file) = &args.batch {
        let text = std::fs::read_to_string(file).map_err(|e| format!("--batch {file}: {e}"))?;
        let (mut n, mut bad, mut nodes, mut micros) = (0u64, 0u64, 0u64, 0u128);
        let t = Instant::now();
        let fresh = !args.keep_table;
        connect4::run_batch_with(
            &text,
            w,
            h,
            settings,
            fresh,
            |line, moves, want, sol, us| {
                n += 1;
                nodes += sol.nodes;
                micros += us;
                if sol.score != want {
                    bad += 1;
                    println!(
                        "info string mismatch line {line} {moves}: expected {want} got {}",
                        sol.score
                    );
                }
                if n % 100 == 0 {
                    println!("info positions {n} mismatches {bad}");
                }
            },
        )
        .map_err(|e| format!("--batch {file}: {e}"))?;
        print_batch(n, bad, nodes, micros, t);
        return Ok(());
    }
    let s: Connect4 = start(args, &cfg, GameKind::Connect4)?;
    println!(
        "info string solving connect4 {}x{} with {} MiB, {} thread(s)",
        w,
        h,
        hash_mib(args),
        args.threads
    );
    let t = Instant::now();
    let sol = connect4::solve_reporting(&s, settings, Budget::default(), |l| println!("{l}"))
        .ok_or("stopped")?;
    let best = sol.best.map_or("none".to_string(), |c| s.format_move(c));
    println!(
        "solved score {} best {best} nodes {} time {}",
        sol.score,
        sol.nodes,
        t.elapsed().as_millis()
    );
    Ok(())
}

fn print_batch(n: u64, bad: u64, nodes: u64, micros: u128, t: Instant) {
    let n1 = n.max(1);
    println!(
        "batch positions {n} mismatches {bad} mean_nodes {} mean_time_us {:.1} total_ms {}",
        nodes / n1,
        micros as f64 / n1 as f64,
        t.elapsed().as_millis()
    );
}

/// The bottom-up database a Kalah solve of `pits` pits and `total` seeds uses (loaded from the
/// cache or built and saved), with progress on stderr; `None` when it covers no seeds.
fn kalah_database(
    args: &SolveArgs,
    pits: usize,
    total: usize,
    rules: Rules,
) -> Result<Option<Arc<KalahDb>>, String> {
    let k = args
        .db_seeds
        .unwrap_or_else(|| kalahdb::auto_seeds(pits, total));
    if k == 0 || pits > kalah::MAX_SOLVER_PITS || pits == 0 {
        return Ok(None);
    }
    if k > kalahdb::MAX_DB_SEEDS {
        return Err(format!(
            "--db-seeds {k}: at most {} seeds",
            kalahdb::MAX_DB_SEEDS
        ));
    }
    let k = match args.db_max_mb {
        None => k,
        Some(mb) => match kalahdb::seeds_within(pits, k, mb << 20) {
            Some(fit) if fit == k => k,
            Some(fit) => {
                eprintln!(
                    "info string kalah database: {k} seeds take {} MB, over --db-max-mb {mb}: \
                     {fit} seeds ({} MB) instead",
                    kalahdb::layers_bytes(pits, 0, k) >> 20,
                    kalahdb::layers_bytes(pits, 0, fit) >> 20
                );
                fit
            }
            None => return Ok(None),
        },
    };
    let dir = args
        .db_dir
        .clone()
        .or_else(kalahdb::default_dir)
        .ok_or("no cache directory for the Kalah database: set --db-dir or HOME")?;
    let db = KalahDb::load_or_build(&dir, pits, rules, k, args.threads, &|l| eprintln!("{l}"));
    Ok(Some(Arc::new(db)))
}

fn run_kalah(args: &SolveArgs) -> Result<(), String> {
    let cfg: MancalaConfig = Mancala::configure(&[
        option::<Mancala>(args, "Pits")?,
        option::<Mancala>(args, "Seeds")?,
    ])?;
    let rules = empty_capture(args)?;
    if let Some(file) = &args.batch {
        let text = std::fs::read_to_string(file).map_err(|e| format!("--batch {file}: {e}"))?;
        let (mut n, mut bad, mut nodes, mut micros) = (0u64, 0u64, 0u64, 0u128);
        let t = Instant::now();
        let mut solver: Option<kalah::Solver> = None;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let (fen, want) = kalah_golden_line(line)
                .map_err(|e| format!("--batch {file}: line {}: {e}", i + 1))?;
            let s = Mancala::parse_fen(&fen, &cfg)
                .map_err(|e| format!("--batch {file}: line {}: {e}", i + 1))?;
            if solver.is_none() {
                let total = s.total_seeds() as usize;
                let db = kalah_database(args, s.pits(), total, rules)?;
                let mut sv =
                    kalah::Solver::with_database(s.pits(), total, hash_mib(args), rules, db)?;
                sv.set_threads(args.threads);
                solver = Some(sv);
            }
            let Some(sv) = solver.as_mut() else { continue };
            let t1 = Instant::now();
            let sol = sv
                .solve(&s)
                .ok_or_else(|| format!("line {}: cannot solve", i + 1))?;
            micros += t1.elapsed().as_micros();
            nodes += sol.nodes;
            n += 1;
            let got = if fen.ends_with('S') {
                sol.score
            } else {
                -sol.score
            };
            if got != want {
                bad += 1;
                println!(
                    "info string mismatch line {}: expected {want} got {got}",
                    i + 1
                );
            }
        }
        print_batch(n, bad, nodes, micros, t);
        return Ok(());
    }
    let s: Mancala = start(args, &cfg, GameKind::Mancala)?;
    let t = Instant::now();
    let total = s.total_seeds() as usize;
    let db = kalah_database(args, s.pits(), total, rules)?;
    let mut solver = kalah::Solver::with_database(s.pits(), total, hash_mib(args), rules, db)?;
    solver.set_threads(args.threads);
    solver.set_progress(true);
    println!(
        "info string solving kalah ({} rules) with {} MiB, {} thread(s); endgame database up \
         to {} seeds in pits",
        if rules == Rules::Course {
            "course"
        } else {
            "empty-capture"
        },
        hash_mib(args),
        args.threads,
        solver.db_seeds()
    );
    let sol = solver.solve(&s).ok_or("stopped")?;
    let best = sol.best.map_or("none".to_string(), |c| s.format_move(c));
    println!("info string database positions {}", solver.db_filled());
    println!(
        "solved score {} best {best} nodes {} time {}",
        sol.score,
        sol.nodes,
        t.elapsed().as_millis()
    );
    Ok(())
}

/// One line of an enraya `--batch` file: a state string, then optionally the answer to check
/// (`VICTORIA`, `EMPATE` or `DERROTA`, then optionally the move, `f,c` or `pass`).
struct StatusLine {
    fen: String,
    claim: Option<(Wdl, Option<String>)>,
}

fn status_line(line: &str) -> Result<StatusLine, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 5 {
        return Err(format!(
            "'{}': expected a state string (<grid> <x|o> <left> <phase> <turn>), then optionally \
             VICTORIA|EMPATE|DERROTA and a move",
            crate::core::spec::clip(line)
        ));
    }
    let fen = words[..5].join(" ");
    let claim = match words.get(5) {
        None => None,
        Some(w) => {
            let v = from_course_word(w).ok_or_else(|| {
                format!(
                    "'{}': expected VICTORIA, EMPATE or DERROTA",
                    crate::core::spec::clip(w)
                )
            })?;
            Some((v, words.get(6).map(|m| m.to_string())))
        }
    };
    if words.len() > 7 {
        return Err(format!(
            "'{}': too many words after the move",
            crate::core::spec::clip(line)
        ));
    }
    Ok(StatusLine { fen, claim })
}

/// `solve --game enraya`: one position (its verdict, distance, move and line), or `--batch`: a
/// file of positions, each with the answer to check (docs/solvers.md, "Checking Status
/// answers").
fn run_enraya(args: &SolveArgs) -> Result<(), String> {
    let cfg = Enraya::configure(&[
        option::<Enraya>(args, "Rows")?,
        option::<Enraya>(args, "Columns")?,
        option::<Enraya>(args, "InARow")?,
    ])?;
    let mut solver = enraya::Solver::new(hash_mib(args));
    solver.set_budget(Budget {
        nodes: args.nodes,
        ..Budget::default()
    });
    if let Some(file) = &args.batch {
        let text = std::fs::read_to_string(file).map_err(|e| format!("--batch {file}: {e}"))?;
        return enraya_batch(&text, &cfg, &mut solver);
    }
    let s: Enraya = start(args, &cfg, GameKind::Enraya)?;
    println!(
        "info string solving enraya {}x{} N={} with {} MiB",
        s.rows(),
        s.cols(),
        s.in_a_row(),
        hash_mib(args)
    );
    let t = Instant::now();
    let sol = solver.solve(&s).map_err(|e| e.to_string())?;
    let st = solver.stats();
    let pv: Vec<String> = sol.pv.iter().map(|&m| s.format_move(m)).collect();
    println!(
        "info string {} plies {} horizon {} repetitions {} pv {}",
        course_word(sol.verdict),
        sol.plies.map_or("-".to_string(), |p| p.to_string()),
        st.horizon,
        st.repetitions,
        pv.join(" ")
    );
    let best = sol.best.map_or("none".to_string(), |m| s.format_move(m));
    println!(
        "solved score {} best {best} nodes {} time {}",
        sol.protocol_score(),
        sol.nodes,
        t.elapsed().as_millis()
    );
    Ok(())
}

/// The value of playing `m` in `s` for the side to move of `s` (a fresh solve of the child).
fn value_after(
    solver: &mut enraya::Solver,
    s: &Enraya,
    m: crate::games::enraya::Move,
) -> Result<Wdl, Unproven> {
    let c = s.apply(m);
    solver.clear();
    let v = solver.solve(&c)?.verdict;
    Ok(if c.side_to_move() == s.side_to_move() {
        v
    } else {
        v.flip()
    })
}

fn enraya_batch(text: &str, cfg: &EnrayaConfig, solver: &mut enraya::Solver) -> Result<(), String> {
    let t = Instant::now();
    let (mut n, mut claims, mut unproven) = (0, 0, 0);
    let (mut wrong_verdicts, mut wrong_moves, mut unchecked) = (0, 0, 0);
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let no = i + 1;
        let l = status_line(line).map_err(|e| format!("line {no}: {e}"))?;
        let s = Enraya::parse_fen(&l.fen, cfg).map_err(|e| format!("line {no}: {e}"))?;
        n += 1;
        solver.clear();
        let t1 = Instant::now();
        let sol = match solver.solve(&s) {
            Ok(sol) => sol,
            Err(e) => {
                unproven += 1;
                println!("line {no}: {e}");
                continue;
            }
        };
        let best = sol.best.map_or("none".to_string(), |m| s.format_move(m));
        let plies = sol.plies.map_or("-".to_string(), |p| p.to_string());
        let mut out = format!(
            "line {no}: {} plies {plies} best {best} nodes {} time {}",
            course_word(sol.verdict),
            sol.nodes,
            t1.elapsed().as_millis()
        );
        if let Some((claim, mv)) = &l.claim {
            claims += 1;
            let mut notes = Vec::new();
            let bad_before = wrong_verdicts + wrong_moves;
            if *claim != sol.verdict {
                wrong_verdicts += 1;
                notes.push(format!("verdict {} is wrong", course_word(*claim)));
            }
            if let Some(mv) = mv {
                // The move must reach the solver's verdict (any such move is right, not only
                // the solver's).
                match s.parse_move(mv) {
                    Err(e) => {
                        wrong_moves += 1;
                        notes.push(format!("move {mv} is illegal ({e})"));
                    }
                    Ok(m) => match value_after(solver, &s, m) {
                        Ok(v) if v == sol.verdict => {}
                        Ok(v) => {
                            wrong_moves += 1;
                            notes.push(format!("move {mv} gives {}", course_word(v)));
                        }
                        Err(e) => {
                            unchecked += 1;
                            notes.push(format!("move {mv} not checked: {e}"));
                        }
                    },
                }
            }
            let bad = wrong_verdicts + wrong_moves > bad_before;
            if notes.is_empty() {
                out += " claim right";
            } else if !bad {
                out += &format!(" claim: {}", notes.join("; "));
            } else {
                out += &format!(" MISMATCH: {}", notes.join("; "));
            }
        }
        println!("{out}");
    }
    println!(
        "batch positions {n} claims {claims} wrong_verdicts {wrong_verdicts} wrong_moves \
         {wrong_moves} unchecked_moves {unchecked} unproven {unproven} total_ms {}",
        t.elapsed().as_millis()
    );
    Ok(())
}
