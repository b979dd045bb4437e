//! `tablero serve`'s limits over loopback: a connection over `--max-connections` gets one error
//! line and is closed while the others go on; a 10 MB line gets one error line and the session
//! stays usable; a slow or half-closed peer blocks nobody; silence past `--idle-timeout` is said
//! and the connection closed; `Hash` is capped by `--max-hash`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_tablero");

struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(flags: &[&str]) -> Server {
    let mut child = Command::new(BIN)
        .args(["--game", "connect4", "serve", "--listen", "127.0.0.1:0"])
        .args(flags)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line.trim().strip_prefix("listening ").unwrap().to_string();
    Server { child, addr }
}

struct Conn {
    w: TcpStream,
    r: BufReader<TcpStream>,
}

impl Conn {
    fn open(s: &Server) -> Conn {
        let w = TcpStream::connect(&s.addr).unwrap();
        w.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let r = BufReader::new(w.try_clone().unwrap());
        Conn { w, r }
    }
    fn send(&mut self, text: &str) {
        self.w.write_all(text.as_bytes()).unwrap();
    }
    /// The next line, or `None` at end of input.
    fn line(&mut self) -> Option<String> {
        let mut l = String::new();
        match self.r.read_line(&mut l) {
            Ok(0) => None,
            Ok(_) => Some(l.trim_end().to_string()),
            Err(e) => panic!("read: {e}"),
        }
    }
    fn ready(&mut self) {
        self.send("isready\n");
        assert_eq!(self.line().as_deref(), Some("readyok"));
    }
}

#[test]
fn a_connection_over_the_limit_gets_one_line_and_the_others_go_on() {
    let s = serve(&["--max-connections", "2"]);
    let mut a = Conn::open(&s);
    let mut b = Conn::open(&s);
    a.ready();
    b.ready();
    let mut c = Conn::open(&s);
    let l = c.line().expect("a reason before the close");
    assert!(
        l.starts_with("info string error: too many connections (the limit is 2"),
        "{l}"
    );
    assert_eq!(c.line(), None, "then the connection is closed");
    a.ready();
    // A slot freed is a slot for the next one.
    a.send("quit\n");
    assert_eq!(a.line(), None);
    let mut d = Conn::open(&s);
    for _ in 0..100 {
        d.send("isready\n");
        match d.line().as_deref() {
            Some("readyok") => break,
            // The freed slot may be counted a moment after `quit` closed the socket.
            Some(l) if l.contains("too many connections") => {
                std::thread::sleep(Duration::from_millis(50));
                d = Conn::open(&s);
            }
            other => panic!("{other:?}"),
        }
    }
    b.ready();
}

#[test]
fn a_10_mb_line_is_one_error_and_the_session_goes_on() {
    let s = serve(&[]);
    let mut a = Conn::open(&s);
    let writer = {
        let mut w = a.w.try_clone().unwrap();
        std::thread::spawn(move || {
            w.write_all(&vec![b'x'; 10 << 20]).unwrap();
            w.write_all(b"\nisready\n").unwrap();
        })
    };
    assert_eq!(
        a.line().unwrap(),
        "info string error: line too long (10485761 bytes, the limit is 65536); ignored"
    );
    assert_eq!(a.line().as_deref(), Some("readyok"));
    writer.join().unwrap();
    a.send("position startpos moves 4 4\ngo depth 2\n");
    assert!(std::iter::from_fn(|| a.line()).any(|l| l.starts_with("bestmove")));
}

#[test]
fn slow_and_half_closed_peers_block_nobody() {
    let s = serve(&[]);
    let mut slow = Conn::open(&s);
    slow.send("isr");
    let mut other = Conn::open(&s);
    other.ready();
    // Half-closed: the request is sent, then the peer's writing side is shut; the answer
    // still arrives, then the server closes.
    let mut half = Conn::open(&s);
    half.send("position startpos\ngo depth 3\n");
    half.w.shutdown(Shutdown::Write).unwrap();
    let lines: Vec<String> = std::iter::from_fn(|| half.line()).collect();
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    slow.send("eady\n");
    assert_eq!(slow.line().as_deref(), Some("readyok"));
    other.ready();
}

#[test]
fn silence_past_the_idle_timeout_is_said_and_closes() {
    let s = serve(&["--idle-timeout", "1"]);
    let mut a = Conn::open(&s);
    a.ready();
    let l = a.line().unwrap();
    assert_eq!(
        l,
        "info string error: no input for 1 s; closing the connection (serve --idle-timeout)"
    );
    let mut rest = Vec::new();
    a.r.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty());
}

#[test]
fn hash_is_capped_by_max_hash() {
    let s = serve(&["--max-hash", "8"]);
    let mut a = Conn::open(&s);
    a.send("uci\n");
    let lines: Vec<String> = std::iter::from_fn(|| a.line())
        .take_while(|l| l != "uciok")
        .collect();
    assert!(
        lines.contains(&"option name Hash type spin default 8 min 1 max 8".to_string()),
        "{lines:?}"
    );
    a.send("setoption name Hash value 9\n");
    let l = a.line().unwrap();
    assert!(l.starts_with("info string error: setoption Hash"), "{l}");
    a.send("setoption name Hash value 8\n");
    a.ready();
    let bad = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--max-connections", "0"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
