//! nom parsers from one input line to a [`Command`], with errors that name the offending token
//! and its position in characters. Never panics, whatever the input (property-tested).

use nom::{
    IResult, Parser,
    bytes::complete::{take_till1, take_while},
    character::complete::u64 as nom_u64,
    combinator::all_consuming,
    multi::many0,
    sequence::preceded,
};

use super::command::{Command, GoParams, StartSpec, Token};
use super::error::LineError;

/// Longest accepted line, in bytes. Longer lines are rejected whole (no command is that long:
/// even a full Parchís game as a move list stays far below it).
pub const MAX_LINE: usize = 64 * 1024;

/// Most moves accepted after `position … moves`.
pub const MAX_MOVES: usize = 4096;

/// Deepest `perft`.
pub const MAX_PERFT: u64 = 64;

fn is_space(c: char) -> bool {
    c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

fn token(input: &str) -> IResult<&str, &str> {
    preceded(take_while(is_space), take_till1(is_space)).parse(input)
}

/// Splits a line into whitespace-separated tokens with their 1-based columns (in characters).
pub fn tokenize(line: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let Ok((_, toks)) = many0(token).parse(line) else {
        return out;
    };
    for t in toks {
        // `t` is a sub-slice of `line`: its byte offset gives its column.
        let byte = t.as_ptr() as usize - line.as_ptr() as usize;
        let column = line[..byte].chars().count() + 1;
        out.push(Token {
            text: t.to_string(),
            column,
        });
    }
    out
}

/// Parses a decimal unsigned integer token (no sign, no spaces, must fit in u64).
pub fn parse_u64(t: &Token, what: &str) -> Result<u64, LineError> {
    let r: IResult<&str, u64> = all_consuming(nom_u64).parse(t.text.as_str());
    r.map(|(_, v)| v).map_err(|_| LineError::NotANumber {
        what: what.to_string(),
        token: clip(&t.text),
        column: t.column,
    })
}

pub use crate::core::spec::clip;

/// Parses one input line. Keywords are case-sensitive, as in UCI.
pub fn parse_line(line: &str) -> Result<Command, LineError> {
    if line.len() > MAX_LINE {
        return Err(LineError::TooLong {
            bytes: line.len(),
            limit: MAX_LINE,
        });
    }
    let toks = tokenize(line);
    let Some(first) = toks.first() else {
        return Ok(Command::Empty);
    };
    let args = &toks[1..];
    let no_args = |c: Command| -> Result<Command, LineError> {
        match args.first() {
            None => Ok(c),
            Some(t) => Err(LineError::NoArguments {
                command: first.text.clone(),
                token: clip(&t.text),
                column: t.column,
            }),
        }
    };
    match first.text.as_str() {
        "uci" => no_args(Command::Uci),
        "isready" => no_args(Command::IsReady),
        "ucinewgame" => no_args(Command::UciNewGame),
        "stop" => no_args(Command::Stop),
        "quit" => no_args(Command::Quit),
        "moves" => no_args(Command::Moves),
        "d" => no_args(Command::Display),
        "eval" => no_args(Command::Eval),
        "help" => no_args(Command::Help),
        "solve" => no_args(Command::Solve),
        "file" => no_args(Command::File),
        "setoption" => parse_setoption(args),
        "position" => parse_position(args),
        "go" => parse_go(args),
        "perft" => parse_perft(args),
        other => Err(LineError::UnknownCommand {
            command: clip(other),
            column: first.column,
        }),
    }
}

fn join(toks: &[Token]) -> String {
    toks.iter()
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

fn parse_setoption(args: &[Token]) -> Result<Command, LineError> {
    match args.first() {
        Some(t) if t.text == "name" => {}
        Some(t) => {
            return Err(LineError::SetOptionNotName {
                token: clip(&t.text),
                column: t.column,
            });
        }
        None => return Err(LineError::SetOptionEmpty),
    }
    let rest = &args[1..];
    let vpos = rest.iter().position(|t| t.text == "value");
    let (name_toks, value) = match vpos {
        Some(p) => {
            let v = &rest[p + 1..];
            if v.is_empty() {
                return Err(LineError::SetOptionNoValue {
                    column: rest[p].column,
                });
            }
            (&rest[..p], Some(join(v)))
        }
        None => (rest, None),
    };
    if name_toks.is_empty() {
        return Err(LineError::SetOptionNoName);
    }
    Ok(Command::SetOption {
        name: join(name_toks),
        value,
    })
}

fn parse_position(args: &[Token]) -> Result<Command, LineError> {
    let Some(kind) = args.first() else {
        return Err(LineError::PositionEmpty);
    };
    let mpos = args.iter().position(|t| t.text == "moves");
    let head_end = mpos.unwrap_or(args.len());
    let start = match kind.text.as_str() {
        "startpos" => {
            if head_end > 1 {
                let t = &args[1];
                return Err(LineError::PositionNotMoves {
                    start: "startpos".to_string(),
                    token: clip(&t.text),
                    column: t.column,
                });
            }
            StartSpec::StartPos
        }
        "file" => {
            if head_end < 2 {
                return Err(LineError::PositionNoPath {
                    column: kind.column + 4,
                });
            }
            let moves = match mpos {
                Some(p) => args[p + 1..].to_vec(),
                None => Vec::new(),
            };
            if moves.len() > MAX_MOVES {
                return Err(LineError::TooManyMoves {
                    count: moves.len(),
                    max: MAX_MOVES,
                });
            }
            return Ok(Command::PositionFile {
                path: join(&args[1..head_end]),
                moves,
            });
        }
        "fen" => {
            if head_end < 2 {
                return Err(LineError::PositionNoFen {
                    column: kind.column + 3,
                });
            }
            StartSpec::Fen(join(&args[1..head_end]))
        }
        "moves" => {
            return Err(LineError::PositionMovesFirst {
                column: kind.column,
            });
        }
        name => {
            if head_end > 1 {
                let t = &args[1];
                return Err(LineError::PositionNotMoves {
                    start: clip(name),
                    token: clip(&t.text),
                    column: t.column,
                });
            }
            StartSpec::Named(name.to_string())
        }
    };
    let moves: Vec<Token> = match mpos {
        Some(p) => args[p + 1..].to_vec(),
        None => Vec::new(),
    };
    if moves.len() > MAX_MOVES {
        return Err(LineError::TooManyMoves {
            count: moves.len(),
            max: MAX_MOVES,
        });
    }
    Ok(Command::Position { start, moves })
}

/// The words of `go` (they end a `searchmoves` list).
const GO_WORDS: &[&str] = &[
    "depth",
    "nodes",
    "movetime",
    "infinite",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "searchmoves",
];

fn parse_go(args: &[Token]) -> Result<Command, LineError> {
    let mut p = GoParams::default();
    let mut i = 0;
    while i < args.len() {
        let t = &args[i];
        let slot = match t.text.as_str() {
            "infinite" => {
                p.infinite = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                // The moves run up to the next `go` word (no move of any game is one).
                let n = args[i + 1..]
                    .iter()
                    .take_while(|a| !GO_WORDS.contains(&a.text.as_str()))
                    .count();
                if n == 0 {
                    return Err(LineError::GoNoSearchMoves { column: t.column });
                }
                p.searchmoves.extend_from_slice(&args[i + 1..i + 1 + n]);
                i += 1 + n;
                continue;
            }
            "depth" => &mut p.depth,
            "nodes" => &mut p.nodes,
            "movetime" => &mut p.movetime,
            "wtime" => &mut p.wtime,
            "btime" => &mut p.btime,
            "winc" => &mut p.winc,
            "binc" => &mut p.binc,
            "movestogo" => &mut p.movestogo,
            other => {
                return Err(LineError::GoUnknownLimit {
                    word: clip(other),
                    column: t.column,
                });
            }
        };
        let Some(v) = args.get(i + 1) else {
            return Err(LineError::GoNoNumber {
                limit: t.text.clone(),
                column: t.column,
            });
        };
        *slot = Some(parse_u64(v, &format!("go {}", t.text))?);
        i += 2;
    }
    if p.depth == Some(0) {
        return Err(LineError::GoDepthZero);
    }
    Ok(Command::Go(p))
}

fn parse_perft(args: &[Token]) -> Result<Command, LineError> {
    let Some(t) = args.first() else {
        return Err(LineError::PerftNoDepth);
    };
    if let Some(x) = args.get(1) {
        return Err(LineError::PerftExtra {
            token: clip(&x.text),
            column: x.column,
        });
    }
    let d = parse_u64(t, "perft")?;
    if d > MAX_PERFT {
        return Err(LineError::PerftTooDeep {
            depth: d,
            max: MAX_PERFT,
        });
    }
    Ok(Command::Perft(d as u32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_the_main_commands() {
        assert_eq!(parse_line("  uci  "), Ok(Command::Uci));
        assert_eq!(parse_line(""), Ok(Command::Empty));
        assert_eq!(
            parse_line("go depth 6 nodes 100"),
            Ok(Command::Go(GoParams {
                depth: Some(6),
                nodes: Some(100),
                ..GoParams::default()
            }))
        );
        assert_eq!(
            parse_line("setoption name UCI_Variant value connect4"),
            Ok(Command::SetOption {
                name: "UCI_Variant".into(),
                value: Some("connect4".into())
            })
        );
        match parse_line("position fen a b  c moves 1 2").unwrap() {
            Command::Position { start, moves } => {
                assert_eq!(start, StartSpec::Fen("a b c".into()));
                let m: Vec<_> = moves.iter().map(|t| (t.text.as_str(), t.column)).collect();
                assert_eq!(m, vec![("1", 27), ("2", 29)]);
            }
            c => panic!("{c:?}"),
        }
        assert_eq!(
            parse_line("position playground"),
            Ok(Command::Position {
                start: StartSpec::Named("playground".into()),
                moves: vec![]
            })
        );
        assert_eq!(parse_line("perft 3"), Ok(Command::Perft(3)));
        match parse_line("position file my board.txt moves 4,4").unwrap() {
            Command::PositionFile { path, moves } => {
                assert_eq!(path, "my board.txt");
                assert_eq!(moves.len(), 1);
            }
            c => panic!("{c:?}"),
        }
        assert!(parse_line("position file").is_err());
        assert!(parse_line("position file moves 1").is_err());
        assert_eq!(parse_line("file"), Ok(Command::File));
        match parse_line("go searchmoves 3 boom depth 4").unwrap() {
            Command::Go(p) => {
                let m: Vec<_> = p
                    .searchmoves
                    .iter()
                    .map(|t| (t.text.as_str(), t.column))
                    .collect();
                assert_eq!(m, vec![("3", 16), ("boom", 18)]);
                assert_eq!(p.depth, Some(4));
            }
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn errors_name_the_token_and_its_place() {
        let e = parse_line("go depth x").unwrap_err();
        assert_eq!(
            e.to_string(),
            "go depth expects a non-negative integer, got 'x' (character 10)"
        );
        let e = parse_line("go depth 99999999999999999999999").unwrap_err();
        assert!(matches!(e, LineError::NotANumber { column: 10, .. }), "{e}");
        let e = parse_line("frobnicate 3").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown command 'frobnicate' (character 1); 'help' lists the commands"
        );
        let e = parse_line("go depth").unwrap_err();
        assert_eq!(e.to_string(), "go: 'depth' needs a number (character 4)");
        assert_eq!(parse_line("position"), Err(LineError::PositionEmpty));
        assert_eq!(
            parse_line("position fen"),
            Err(LineError::PositionNoFen { column: 13 })
        );
        let e = parse_line("position startpos 3").unwrap_err();
        assert_eq!(
            e.to_string(),
            "position startpos: expected 'moves', got '3' (character 19)"
        );
        assert_eq!(parse_line("go depth 0"), Err(LineError::GoDepthZero));
        let e = parse_line("go searchmoves depth 3").unwrap_err();
        assert_eq!(
            e.to_string(),
            "go: 'searchmoves' needs at least one move (character 4)"
        );
        assert_eq!(
            parse_line("go depth 3 searchmoves"),
            Err(LineError::GoNoSearchMoves { column: 12 })
        );
        assert!(matches!(
            parse_line("perft -1"),
            Err(LineError::NotANumber { .. })
        ));
        assert_eq!(
            parse_line("perft 65").unwrap_err().to_string(),
            "perft depth 65 is too deep (at most 64)"
        );
        assert!(matches!(
            parse_line("setoption value 3"),
            Err(LineError::SetOptionNotName { column: 11, .. })
        ));
        assert_eq!(
            parse_line("setoption name Hash value"),
            Err(LineError::SetOptionNoValue { column: 21 })
        );
        let e = parse_line("uci now").unwrap_err();
        assert_eq!(
            e.to_string(),
            "'uci' takes no arguments, got 'now' (character 5)"
        );
        let long = "x".repeat(100 * 1024);
        assert_eq!(
            parse_line(&long).unwrap_err().to_string(),
            "line too long (102400 bytes, the limit is 65536); ignored"
        );
    }

    proptest! {
        #[test]
        fn arbitrary_lines_never_panic(line in ".{0,200}") {
            let _ = parse_line(&line);
        }

        #[test]
        fn keyword_soup_never_panics(words in prop::collection::vec(
            prop::sample::select(vec!["go", "depth", "position", "fen", "moves", "startpos",
                "setoption", "name", "value", "perft", "1", "-3", "99999999999999999999", "é", "\t",
                "infinite", "nodes", "uci", ""]), 0..12)) {
            let _ = parse_line(&words.join(" "));
        }
    }
}
