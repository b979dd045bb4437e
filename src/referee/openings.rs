//! Where games start. Opening number `k` is a pure function of the openings, the seed and `k`
//! (the schedule gives every pair of games its number), so that a game can be replayed, resumed
//! or played on another machine and start from the same position.

use std::path::Path;

use super::error::{Error, OpeningsFileError};
use super::game::Start;
use crate::core::game::Game;
use crate::core::rng::{fnv1a, splitmix64};
use crate::core::spec::{PositionError, Token, play_moves};

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// Every pair starts from the start position.
    Start,
    /// `P` seeded random plies from the start position.
    Random(usize),
    /// Lines of a file (`fen <state> [moves …]` or a move list), used in order, cycling.
    Lines(Vec<String>),
}

impl Openings {
    /// `start`, `random:P` or `lines:<count>:<fingerprint>`: how records name the openings.
    pub fn label(&self) -> String {
        match self {
            Openings::Start => "start".to_string(),
            Openings::Random(p) => format!("random:{p}"),
            Openings::Lines(lines) => {
                format!(
                    "lines:{}:{:016x}",
                    lines.len(),
                    fnv1a(lines.join("\n").as_bytes())
                )
            }
        }
    }

    /// The opening lines of a file (`#` comment lines and blank lines skipped).
    pub fn from_file(path: &Path) -> Result<Openings, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::OpeningsFile {
            path: path.to_path_buf(),
            why: e.into(),
        })?;
        let lines: Vec<String> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        if lines.is_empty() {
            return Err(Error::OpeningsFile {
                path: path.to_path_buf(),
                why: OpeningsFileError::Empty,
            });
        }
        Ok(Openings::Lines(lines))
    }

    /// `random:P` (seeded random plies) or a file of opening lines, as a front end or a record
    /// writes them (`None`: the start position).
    pub fn from_spec(o: Option<&str>) -> Result<Openings, Error> {
        let Some(o) = o else {
            return Ok(Openings::Start);
        };
        match o.strip_prefix("random:") {
            Some(p) => p
                .parse()
                .map(Openings::Random)
                .map_err(|_| Error::OpeningsFile {
                    path: o.into(),
                    why: OpeningsFileError::RandomPlies(p.to_string()),
                }),
            None => Openings::from_file(Path::new(o)),
        }
    }

    /// Bad opening lines are a usage error, found before any game is played.
    pub fn check<G: Game>(&self, gcfg: &G::Config) -> Result<(), Error> {
        if let Openings::Lines(lines) = self {
            for (i, l) in lines.iter().enumerate() {
                parse_opening::<G>(l, gcfg)
                    .map_err(|error| Error::OpeningLine { line: i + 1, error })?;
            }
        }
        Ok(())
    }

    /// Opening number `k` under `seed` (a pure function of the three).
    pub fn opening<G: Game>(
        &self,
        seed: u64,
        gcfg: &G::Config,
        k: usize,
    ) -> Result<Start<G>, Error> {
        Ok(match self {
            Openings::Start => Start {
                state: G::start(gcfg),
                base: "startpos".into(),
                moves: vec![],
            },
            Openings::Lines(lines) => {
                let line = k % lines.len();
                parse_opening(&lines[line], gcfg).map_err(|error| Error::OpeningLine {
                    line: line + 1,
                    error,
                })?
            }
            Openings::Random(plies) => random_opening(*plies, seed, gcfg, k),
        })
    }
}

/// `plies` seeded random plies from the start: a pure function of `seed` and `k`.
fn random_opening<G: Game>(plies: usize, seed: u64, gcfg: &G::Config, k: usize) -> Start<G> {
    let mut rng = splitmix64(seed ^ splitmix64(k as u64 + 1));
    let mut best = None;
    // A random walk may end the game early; a few retries find an open position.
    for _ in 0..64 {
        let mut s = G::start(gcfg);
        let mut moves = Vec::new();
        for _ in 0..plies {
            let mut ms = G::Moves::default();
            s.legal_moves(&mut ms);
            let ms = ms.as_ref();
            if ms.is_empty() {
                break;
            }
            rng = splitmix64(rng);
            let m = ms[(rng % ms.len() as u64) as usize];
            moves.push(s.format_move(m));
            s = s.apply(m);
        }
        let open = s.outcome().is_none();
        best = Some(Start {
            state: s,
            base: "startpos".into(),
            moves,
        });
        if open {
            break;
        }
    }
    best.unwrap_or_else(|| Start {
        state: G::start(gcfg),
        base: "startpos".into(),
        moves: vec![],
    })
}

/// Parses one opening line into (base, moves) and checks it with the rules: `fen <state>
/// [moves …]`, `[startpos] [moves] m1 m2 …`, or a bare state string.
pub fn parse_opening<G: Game>(line: &str, cfg: &G::Config) -> Result<Start<G>, PositionError> {
    let line = line.trim();
    let play = |state: G, base: String, rest: &str| -> Result<Start<G>, PositionError> {
        let moves = Token::words(&[rest]);
        Ok(Start {
            state: play_moves(state, &moves)?,
            base,
            moves: moves.into_iter().map(|t| t.text).collect(),
        })
    };
    if let Some(f) = line.strip_prefix("fen ") {
        let (fen, rest) = match f.find(" moves") {
            Some(i) => (f[..i].trim(), &f[i + 6..]),
            None => (f.trim(), ""),
        };
        let state = G::parse_fen(fen, cfg).map_err(PositionError::Fen)?;
        return play(state, format!("fen {fen}"), rest);
    }
    let rest = line.strip_prefix("startpos").unwrap_or(line).trim_start();
    let rest = rest.strip_prefix("moves").unwrap_or(rest);
    play(G::start(cfg), "startpos".to_string(), rest).or_else(|e| {
        // Not a move list: perhaps a bare state string.
        G::parse_fen(line, cfg)
            .map(|state| Start {
                state,
                base: format!("fen {line}"),
                moves: vec![],
            })
            .map_err(|_| e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::Connect4;

    #[test]
    fn opening_lines() {
        let cfg = <Connect4 as Game>::configure(&[6, 7]).unwrap();
        let o = parse_opening::<Connect4>("4 4 3", &cfg).unwrap();
        assert_eq!((o.base.as_str(), o.moves.len()), ("startpos", 3));
        let o = parse_opening::<Connect4>("startpos moves 1", &cfg).unwrap();
        assert_eq!(o.moves, vec!["1".to_string()]);
        let fen = o.state.format_fen();
        let f = parse_opening::<Connect4>(&format!("fen {fen} moves 2"), &cfg).unwrap();
        assert_eq!(f.base, format!("fen {fen}"));
        assert_eq!(f.moves, vec!["2".to_string()]);
        let Err(e) = parse_opening::<Connect4>("4 9", &cfg) else {
            panic!("'4 9' accepted");
        };
        assert_eq!(
            e.to_string(),
            "move 2 '9' is illegal: column 9 is not in 1..7"
        );
        let bare = parse_opening::<Connect4>(&fen, &cfg).unwrap();
        assert_eq!(bare.base, format!("fen {fen}"));
        assert_eq!(bare.state, o.state);
        assert!(matches!(
            parse_opening::<Connect4>("fen nonsense", &cfg),
            Err(PositionError::Fen(_))
        ));
    }

    #[test]
    fn random_openings_are_a_function_of_seed_and_number() {
        let cfg = <Connect4 as Game>::configure(&[6, 7]).unwrap();
        let o = Openings::Random(4);
        let a = o.opening::<Connect4>(7, &cfg, 3).unwrap();
        let b = o.opening::<Connect4>(7, &cfg, 3).unwrap();
        assert_eq!((a.moves.len(), &a.moves), (4, &b.moves));
        assert_ne!(a.moves, o.opening::<Connect4>(7, &cfg, 4).unwrap().moves);
        assert_eq!(Openings::Random(3).label(), "random:3");
    }
}
