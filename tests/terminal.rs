//! A bare `tablero` started at a terminal says what it is and how to get help, in one line on
//! stderr (as engines do), and nothing on stdout; in a pipe (a referee, a GUI, a script) it
//! says nothing at all. The terminal is a pseudo-terminal (`openpty`).

use crate::common;

use std::io::Write;
use std::os::fd::FromRawFd;
use std::process::{Command, Output, Stdio};

use common::BIN;

/// `tablero ARGS` with a pseudo-terminal as its stdin, sent `quit`.
#[allow(unsafe_code)]
fn at_a_terminal(args: &[&str]) -> Output {
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes the two descriptors it opens; the null pointers ask for no name,
    // default settings and no window size.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and each is owned once, here.
    let (stdin, mut input) = unsafe {
        (
            Stdio::from_raw_fd(slave),
            std::fs::File::from_raw_fd(master),
        )
    };
    let child = Command::new(BIN)
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tablero runs");
    input.write_all(b"quit\n").expect("typed");
    let out = child.wait_with_output().expect("tablero ends");
    drop(input);
    out
}

#[test]
fn a_bare_tablero_at_a_terminal_says_what_it_is() {
    for (args, game) in [(&[][..], "parchis"), (&["--game", "kalah"][..], "mancala")] {
        let o = at_a_terminal(args);
        assert!(o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.starts_with("tablero "), "{err}");
        assert!(err.contains(&format!(" in {game} ")), "{err}");
        assert!(err.contains("'help' lists them"), "{err}");
        assert!(err.contains("`tablero --help`"), "{err}");
        assert!(
            o.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
    let o = at_a_terminal(&["--player", "random"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("as the built-in player random"), "{err}");
}

#[test]
fn in_a_pipe_it_says_nothing() {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tablero runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"isready\nquit\n")
        .expect("written");
    let o = child.wait_with_output().expect("tablero ends");
    assert!(o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stdout), "readyok\n");
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
