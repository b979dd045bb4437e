//! What a match or tournament reports, as text for humans and as JSON: a match's W/D/L table
//! with Elo, LOS and SPRT, a tournament's standings with ratings and crosstable, the schedule of
//! a shard, and the notes about merged records files. Only formatting: every number comes from
//! [`super::stats`] and [`super::ratings`].

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::config::Config;
use super::game::Reason;
use super::ratings::{Standings, half};
use super::records::{Merged, ranges};
use super::stats::{self, Sprt, Summary};

/// `x` as it is shown to one decimal, without the "-0.0" of a tiny negative number (an even
/// score's rating is 0, whichever side of it the fit's rounding fell).
fn tenth(x: f64) -> f64 {
    let r = (x * 10.0).round() / 10.0;
    if r == 0.0 { 0.0 } else { r }
}

fn fmt_elo(e: Option<stats::EloEstimate>) -> String {
    match e {
        Some(e) if e.elo.is_finite() && e.error.is_finite() => {
            format!(
                "{:+.1} ± {:.1} (95%), LOS {:.1}%",
                tenth(e.elo),
                e.error,
                e.los * 100.0
            )
        }
        Some(e) if e.elo.is_finite() => format!("{:+.1} (interval unbounded)", tenth(e.elo)),
        Some(e) => format!(
            "{} (score {:.3})",
            if e.score > 0.5 { "+inf" } else { "-inf" },
            e.score
        ),
        None => "n/a".into(),
    }
}

/// The result table of a match of `variant` between engines named `names` (what `tablero
/// match` prints, and `tablero report` for its records).
pub fn match_text(variant: &str, names: [&str; 2], sprt: Option<Sprt>, s: &Summary) -> String {
    let t = &s.tally;
    let [n1, n2] = names;
    let mut o = String::new();
    o += &format!("Match {n1} vs {n2} ({variant}), {} games\n", t.games);
    let w = n1.len().max(n2.len()).max(6);
    o += &format!(
        "{:<w$}  {:>6} {:>6} {:>6} {:>7}\n",
        "engine", "wins", "draws", "losses", "score"
    );
    o += &format!(
        "{:<w$}  {:>6} {:>6} {:>6} {:>6.1}%\n",
        n1,
        t.wins,
        t.draws,
        t.losses,
        t.score() * 100.0
    );
    o += &format!(
        "{:<w$}  {:>6} {:>6} {:>6} {:>6.1}%\n",
        n2,
        t.losses,
        t.draws,
        t.wins,
        (1.0 - t.score()) * 100.0
    );
    o += &format!(
        "Elo {} - {}, pentanomial: {}\n",
        n1,
        n2,
        fmt_elo(stats::pentanomial(t.pairs))
    );
    o += &format!(
        "Elo {} - {}, trinomial:   {}\n",
        n1,
        n2,
        fmt_elo(stats::trinomial(t.wins, t.draws, t.losses))
    );
    o += &format!(
        "pairs by {}'s points (0, 0.5, 1, 1.5, 2): {:?}; LOS from W/L {:.1}%\n",
        n1,
        t.pairs,
        stats::los_wl(t.wins, t.losses) * 100.0
    );
    let reasons: Vec<String> = Reason::ALL
        .iter()
        .map(|r| format!("{} {}", r.name(), t.reasons.get(r).copied().unwrap_or(0)))
        .collect();
    o += &format!("games ended by: {}\n", reasons.join(", "));
    if let (Some(p), Some((llr, (lo, hi), d))) = (sprt, s.sprt) {
        o += &format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} ({:.2}, {:.2}) {}\n",
            p.elo0,
            p.elo1,
            p.alpha,
            p.beta,
            llr,
            lo,
            hi,
            d.name()
        );
    }
    o
}

fn est_json(e: Option<stats::EloEstimate>) -> Value {
    match e {
        Some(e) => json!({"score": e.score, "elo": e.elo, "elo_error": e.error, "los": e.los}),
        None => Value::Null,
    }
}

/// A match's result as one JSON object (engine 1's view) of a match of `variant` between
/// engines named `names`.
pub fn match_json(variant: &str, names: [&str; 2], sprt: Option<Sprt>, s: &Summary) -> Value {
    let t = &s.tally;
    let head = t.headline();
    let reasons: serde_json::Map<String, Value> = Reason::ALL
        .iter()
        .map(|r| {
            (
                r.name().to_string(),
                json!(t.reasons.get(r).copied().unwrap_or(0)),
            )
        })
        .collect();
    let mut v = json!({
        "variant": variant,
        "engine1": names[0],
        "engine2": names[1],
        "games": t.games,
        "wins1": t.wins,
        "draws": t.draws,
        "losses1": t.losses,
        "score1": t.score(),
        "elo": head.map(|e| e.elo),
        "elo_error": head.map(|e| e.error),
        "los": head.map(|e| e.los),
        "pentanomial": {"pairs": t.pairs, "estimate": est_json(stats::pentanomial(t.pairs))},
        "trinomial": est_json(stats::trinomial(t.wins, t.draws, t.losses)),
        "reasons": reasons,
    });
    if let (Some(p), Some((llr, (lo, hi), d))) = (sprt, s.sprt) {
        v["sprt"] = json!({
            "elo0": p.elo0, "elo1": p.elo1, "alpha": p.alpha, "beta": p.beta,
            "llr": llr, "lower": lo, "upper": hi, "decision": d.name(),
        });
    }
    v
}

/// The line about dropped duplicate games of merged records (match and tournament reports).
pub fn duplicates_note(duplicates: usize, conflicting: usize) -> Option<String> {
    (duplicates > 0).then(|| {
        format!(
            "duplicates dropped: {} line{} repeating a game number already read{}",
            duplicates,
            if duplicates == 1 { "" } else { "s" },
            if conflicting > 0 {
                format!(
                    " ({conflicting} with other moves or result than the one kept, the first read)"
                )
            } else {
                String::new()
            }
        )
    })
}

/// The games of the run's shard, one line each (`tournament --schedule`), without playing them.
pub fn schedule_text(cfg: &Config) -> String {
    let sched = cfg.schedule();
    let games = cfg.games();
    let shard = cfg.shard.unwrap_or(super::schedule::Shard { k: 1, n: 1 });
    let (k, n) = (shard.k, shard.n);
    let mut o = format!(
        "# shard {k}/{n}: {} of {} games (pairs p with p mod {n} = {}); game round first second opening\n",
        games.len(),
        sched.games().unwrap_or(games.len()),
        k - 1
    );
    for i in games {
        let s = sched.game(i);
        let e = |k: usize| cfg.engines[s.engines[k]].name.as_str();
        o += &format!(
            "{i} {} {} {} {}\n",
            s.round,
            e(s.first),
            e(1 - s.first),
            s.round
        );
    }
    o
}

/// Lines about merged records files: how many, duplicates, missing games (and, for a
/// tournament, their shards).
pub fn notes(m: &Merged) -> Vec<String> {
    let files = m.files.len();
    let plural = if files == 1 { "" } else { "s" };
    let mut out = vec![if m.is_match() {
        format!(
            "records: {files} file{plural}, {}{}",
            match m.total {
                Some(t) if t != m.games.len() => format!("{} of {t} games", m.games.len()),
                _ => format!("{} games", m.games.len()),
            },
            if m.settings.is_none() {
                " (records without settings: older referee)"
            } else {
                ""
            }
        )
    } else {
        format!(
            "records: {files} file{plural}, {} of {} games",
            m.games.len(),
            m.games.len() + m.missing_count()
        )
    }];
    out.extend(duplicates_note(m.duplicates, m.conflicting));
    if !m.missing.is_empty() {
        let mut line = format!(
            "missing games: {} ({})",
            ranges(&m.missing),
            m.missing_count()
        );
        if let Some(n) = m.shards.filter(|&n| n > 1 && !m.is_match()) {
            let shards: BTreeSet<usize> = m
                .missing
                .iter()
                .flat_map(|&(a, b)| a..=b)
                .map(|i| i / 2 % n + 1)
                .collect();
            let list: Vec<String> = shards.iter().map(|k| format!("{k}/{n}")).collect();
            line += &format!(
                "; in shard{} {}",
                if list.len() == 1 { "" } else { "s" },
                list.join(", ")
            );
        }
        out.push(line);
    }
    for t in &m.torn {
        out.push(format!("{t}: not read"));
    }
    out
}

impl Standings {
    /// The standings for humans.
    pub fn text(&self) -> String {
        let s = &self.settings;
        let names = s.names();
        let mut o = format!(
            "Tournament {} of {} engines ({}), {} round{}, {} games\n",
            s.format,
            names.len(),
            s.variant,
            s.rounds.unwrap_or(0),
            if s.rounds == Some(1) { "" } else { "s" },
            self.games
        );
        let w = names.iter().map(|n| n.len()).max().unwrap_or(0).max(6);
        o += &format!(
            "{:>4}  {:<w$}  {:>8}  {:>7}  {:>7} {:>6} {:>6} {:>6} {:>6} {:>6}\n",
            "rank", "engine", "elo", "95%", "points", "games", "wins", "draws", "losses", "score"
        );
        for (rank, &e) in self.order.iter().enumerate() {
            let l = &self.lines[e];
            let err = if self.is_anchor(e) {
                "anchor".to_string()
            } else {
                format!("±{:.1}", self.fit.error[e])
            };
            let score = if l.games() == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", 50.0 * l.half_points() as f64 / l.games() as f64)
            };
            o += &format!(
                "{:>4}  {:<w$}  {:>+8.1}{} {:>7}  {:>7} {:>6} {:>6} {:>6} {:>6} {:>6}\n",
                rank + 1,
                names[e],
                tenth(self.fit.elo[e]),
                if self.unbounded(e) { "*" } else { " " },
                err,
                half(l.half_points()),
                l.games(),
                l.wins,
                l.draws,
                l.losses,
                score
            );
        }
        o += &format!(
            "ratings: maximum likelihood, logistic Elo with a draw as half a win (as Ordo); {}; 95% intervals from the likelihood's curvature\n",
            match &self.anchor {
                Some((n, e)) => format!("{n} anchored at {e}"),
                None => "mean 0".to_string(),
            }
        );
        if self.fit.prior {
            o += "prior: the games alone leave ratings unbounded (* = won or lost every game, or no games); one virtual draw added per pair of engines that met\n";
        }
        o += "crosstable: points of the row engine against the column engine / games\n";
        let cells: Vec<Vec<String>> = self
            .order
            .iter()
            .map(|&a| {
                self.order
                    .iter()
                    .map(|&b| {
                        if a == b {
                            "x".to_string()
                        } else {
                            self.cell(a, b)
                                .map_or("-".to_string(), |(h, g)| format!("{}/{g}", half(h)))
                        }
                    })
                    .collect()
            })
            .collect();
        let cw = cells
            .iter()
            .flatten()
            .map(String::len)
            .max()
            .unwrap_or(1)
            .max(self.order.len().to_string().len());
        o += &format!("{:>4}  {:<w$}", "", "");
        for k in 1..=self.order.len() {
            o += &format!(" {k:>cw$}");
        }
        o.push('\n');
        for (rank, (&e, row)) in self.order.iter().zip(&cells).enumerate() {
            o += &format!("{:>4}  {:<w$}", rank + 1, names[e]);
            for c in row {
                o += &format!(" {c:>cw$}");
            }
            o.push('\n');
        }
        let reasons: Vec<String> = Reason::ALL
            .iter()
            .map(|r| format!("{} {}", r.name(), self.reasons.get(r).copied().unwrap_or(0)))
            .collect();
        o += &format!("games ended by: {}\n", reasons.join(", "));
        let faults: Vec<String> = self
            .order
            .iter()
            .filter(|&&e| !self.lines[e].lost_by.is_empty())
            .map(|&e| {
                let by: Vec<String> = self.lines[e]
                    .lost_by
                    .iter()
                    .map(|(r, c)| format!("{} {c}", r.name()))
                    .collect();
                format!("{} ({})", names[e], by.join(", "))
            })
            .collect();
        if !faults.is_empty() {
            o += &format!("lost off the board: {}\n", faults.join("; "));
        }
        for (&e, why) in &self.out {
            o += &format!("out: {} ({}; every game of it is lost)\n", names[e], why);
        }
        o
    }

    /// The standings as one JSON object.
    pub fn json(&self) -> Value {
        let s = &self.settings;
        let names = s.names();
        let engines: Vec<Value> = self
            .order
            .iter()
            .enumerate()
            .map(|(rank, &e)| {
                let l = &self.lines[e];
                let (elo, err) = (self.fit.elo[e], self.fit.error[e]);
                let lost_by: serde_json::Map<String, Value> = l
                    .lost_by
                    .iter()
                    .map(|(r, c)| (r.name().to_string(), json!(c)))
                    .collect();
                json!({
                    "rank": rank + 1,
                    "name": names[e],
                    "elo": elo,
                    "error": err,
                    "lower": elo - err,
                    "upper": elo + err,
                    "anchor": self.is_anchor(e),
                    "prior_only": self.unbounded(e),
                    "points": l.half_points() as f64 / 2.0,
                    "games": l.games(),
                    "wins": l.wins,
                    "draws": l.draws,
                    "losses": l.losses,
                    "score": if l.games() == 0 { Value::Null } else {
                        json!(l.half_points() as f64 / 2.0 / l.games() as f64)
                    },
                    "lost_by": lost_by,
                })
            })
            .collect();
        let crosstable: Vec<Value> = self
            .pairs
            .values()
            .map(|p| {
                json!({"engine1": names[p.a], "engine2": names[p.b], "wins1": p.wins_a,
                       "draws": p.draws, "wins2": p.wins_b})
            })
            .collect();
        let reasons: serde_json::Map<String, Value> = Reason::ALL
            .iter()
            .map(|r| {
                (
                    r.name().to_string(),
                    json!(self.reasons.get(r).copied().unwrap_or(0)),
                )
            })
            .collect();
        json!({
            "variant": s.variant,
            "format": s.format,
            "rounds": s.rounds,
            "games": self.games,
            "model": "logistic Elo, draw = half a win (Ordo), maximum likelihood; 95% from curvature",
            "anchor": self.anchor.as_ref().map(|(n, e)| json!({"name": n, "elo": e})),
            "prior": self.fit.prior,
            "standings": engines,
            "crosstable": crosstable,
            "reasons": reasons,
        })
    }
}
