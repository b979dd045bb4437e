//! `tablero gui` under hostile clients (loopback): a 10 MB request gets a one-line 431 and the
//! server goes on; a client dripping a request byte by byte, or one that half-closes its
//! socket, blocks nobody else.

use crate::gui_support;

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::Duration;

use gui_support::Server;

fn answer(s: &mut TcpStream) -> String {
    s.set_read_timeout(Some(Duration::from_secs(40))).unwrap();
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

#[test]
fn a_10_mb_request_is_one_line_431_and_the_server_goes_on() {
    let s = Server::start("connect4", &[]);
    let mut c = TcpStream::connect(&s.addr).unwrap();
    let mut w = c.try_clone().unwrap();
    // Written on the side: the server answers after the first 16 KiB and stops reading.
    let writer = std::thread::spawn(move || {
        let mut req = b"GET /".to_vec();
        req.extend(std::iter::repeat_n(b'a', 10 << 20));
        req.extend_from_slice(b" HTTP/1.1\r\nHost: x\r\n\r\n");
        let _ = w.write_all(&req);
    });
    let a = answer(&mut c);
    let _ = c.shutdown(Shutdown::Both);
    writer.join().unwrap();
    assert!(a.starts_with("HTTP/1.1 431"), "{a:?}");
    let body = a.split_once("\r\n\r\n").unwrap().1;
    assert_eq!(body.trim_end().lines().count(), 1, "{body:?}");
    assert!(
        body.contains("request head larger than 16384 bytes"),
        "{body}"
    );
    let (code, page) = s.get("/");
    assert_eq!(code, 200);
    assert!(page.contains("<title>tablero</title>"));
}

#[test]
fn slow_and_half_closed_clients_block_nobody() {
    let s = Server::start("connect4", &[]);
    // A request dripping in: its connection waits, the others are served meanwhile.
    let mut slow = TcpStream::connect(&s.addr).unwrap();
    slow.write_all(b"GET /api/sta").unwrap();
    for _ in 0..3 {
        let (code, _) = s.get("/api/state?since=0&board=0");
        assert_eq!(code, 200);
    }
    // Half-closed: request sent, writing side shut; the answer still comes.
    let mut half = TcpStream::connect(&s.addr).unwrap();
    half.write_all(format!("GET /api/state HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr).as_bytes())
        .unwrap();
    half.shutdown(Shutdown::Write).unwrap();
    assert!(answer(&mut half).starts_with("HTTP/1.1 200"));
    slow.write_all(format!("te HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr).as_bytes())
        .unwrap();
    assert!(answer(&mut slow).starts_with("HTTP/1.1 200"));
}
