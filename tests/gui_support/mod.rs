//! Shared by the `tablero gui` tests: starts the binary on a free loopback port and speaks raw
//! HTTP/1.1 to it (raw so that tests can also send what no client library would).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub const BIN: &str = env!("CARGO_BIN_EXE_tablero");

/// `bash <tests/mock/name> args…` as one engine SPEC.
pub fn mock(name: &str, args: &[&str]) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mock")
        .join(name);
    let mut s = format!("bash {}", p.display());
    for a in args {
        s += " ";
        s += a;
    }
    s
}

/// A running `tablero gui`, killed on drop.
pub struct Server {
    child: Child,
    pub addr: String,
}

impl Server {
    /// Starts `tablero --game <game> gui --listen 127.0.0.1:0 <extra…>` and reads its address.
    pub fn start(game: &str, extra: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .args(["--game", game, "gui", "--listen", "127.0.0.1:0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start tablero gui");
        let out = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(out)
            .read_line(&mut line)
            .expect("read address");
        let addr = line
            .trim()
            .strip_prefix("listening http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line '{line}'"))
            .to_string();
        Server { child, addr }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// Sends raw bytes, returns (status, head, body).
    pub fn raw(&self, bytes: &[u8]) -> (u16, String, String) {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(40))).unwrap();
        let _ = s.write_all(bytes);
        let mut buf = Vec::new();
        let _ = s.read_to_end(&mut buf);
        let text = String::from_utf8_lossy(&buf).to_string();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let code = head
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        (code, head.to_string(), body.to_string())
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        let (c, _, b) =
            self.raw(format!("GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n", self.addr).as_bytes());
        (c, b)
    }

    /// A same-origin JSON POST as the page sends it.
    pub fn post(&self, path: &str, body: &str) -> (u16, String) {
        let (c, _, b) = self.raw(
            format!(
                "POST {path} HTTP/1.1\r\nHost: {a}\r\nOrigin: http://{a}\r\nSec-Fetch-Site: same-origin\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len(),
                a = self.addr
            )
            .as_bytes(),
        );
        (c, b)
    }

    /// The current state (no waiting).
    pub fn state(&self) -> Value {
        let (c, b) = self.get("/api/state?since=0&board=0");
        assert_eq!(c, 200, "{b}");
        serde_json::from_str(&b).expect("state JSON")
    }

    /// Long-polls the state until `pred` holds (panics after `secs`).
    pub fn wait_for(&self, secs: u64, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let t = Instant::now();
        let mut v = 0u64;
        loop {
            let (c, b) = self.get(&format!("/api/state?since={v}&board=0"));
            assert_eq!(c, 200, "{b}");
            let s: Value = serde_json::from_str(&b).expect("state JSON");
            if pred(&s) {
                return s;
            }
            assert!(
                t.elapsed() < Duration::from_secs(secs),
                "timed out waiting for {what}; last state: status {} messages {}",
                s["status"],
                s["messages"]
            );
            v = s["version"].as_u64().unwrap_or(0);
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
