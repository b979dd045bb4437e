//! The README's pictures (scripts/pictures/*.svg) are exactly what `tablero render` draws for
//! the positions listed in scripts/pictures/positions.txt, so they can never go stale: after a
//! change to a picture, `scripts/pictures.sh` redraws them.

use std::path::Path;
use std::process::Command;

#[test]
fn readme_pictures_equal_what_render_draws() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/pictures");
    let list = std::fs::read_to_string(dir.join("positions.txt")).expect("positions.txt");
    let mut games = Vec::new();
    for line in list
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut words = line.split_whitespace();
        let game = words.next().unwrap();
        let file = words.next().unwrap();
        let moves: Vec<&str> = words.collect();
        let mut args = vec!["--game", game, "render", "--size", "600", "--moves"];
        args.extend(&moves);
        let out = Command::new(env!("CARGO_BIN_EXE_tablero"))
            .args(&args)
            .output()
            .expect("run tablero render");
        assert!(
            out.status.success(),
            "{game}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let committed = std::fs::read(dir.join(file)).expect("committed picture");
        assert!(
            committed == out.stdout,
            "scripts/pictures/{file} differs from what render draws now: run scripts/pictures.sh"
        );
        games.push(game.to_string());
    }
    games.sort();
    assert_eq!(
        games,
        ["connect4", "connect4boom", "enraya", "mancala", "parchis"]
    );
}
