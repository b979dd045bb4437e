//! The protocol's `solve` command: exact values of the current position, errors elsewhere.

use tablero::games::GameKind;
use tablero::protocol::run_script;

fn solved_line(lines: &[String]) -> &str {
    lines
        .iter()
        .find(|l| l.starts_with("solved "))
        .unwrap_or_else(|| panic!("no 'solved' line in {lines:?}"))
}

#[test]
fn connect4_position_after_moves() {
    // Pons' tutorial: after 4455 the side to move wins with its 4th stone (+18).
    let out = run_script(
        GameKind::Connect4,
        "position startpos moves 4 4 5 5\nsolve\n",
    );
    let l = solved_line(&out);
    assert!(l.starts_with("solved score 18 best "), "{l}");
    // Pons' other example: 44455554221 scores -15.
    let out = run_script(
        GameKind::Connect4,
        "position startpos moves 4 4 4 5 5 5 5 4 2 2 1\nsolve\n",
    );
    assert!(
        solved_line(&out).starts_with("solved score -15 "),
        "{out:?}"
    );
}

#[test]
fn mancala_start_of_small_kalah() {
    let out = run_script(
        GameKind::Mancala,
        "setoption name Pits value 4\nsetoption name Seeds value 3\nsolve\n",
    );
    assert!(
        solved_line(&out).starts_with("solved score 6 best "),
        "{out:?}"
    );
}

#[test]
fn other_games_get_an_error() {
    let out = run_script(GameKind::Parchis, "solve\n");
    assert!(
        out.iter()
            .any(|l| l.contains("error") && l.contains("solve")),
        "{out:?}"
    );
}
