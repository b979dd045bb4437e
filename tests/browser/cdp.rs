//! The DevTools protocol, spoken straight to Chromium over `--remote-debugging-pipe`: commands
//! are JSON objects ended by a NUL byte on the browser's fd 3, replies and events come back the
//! same way on its fd 4. A reader thread hands every message to the caller at once, so a
//! command costs one round trip (about a millisecond). The `headless_chrome` crate this
//! replaced held its socket's lock through 100 ms read timeouts, which made every evaluation
//! cost about 0.1 s and every click half a second: most of the page tests' minutes.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long one command may wait for its reply before the test fails.
const REPLY: Duration = Duration::from_secs(30);

/// A Chromium process and the one page the tests drive (a flattened DevTools session on it).
pub struct Cdp {
    child: Child,
    io: Mutex<Io>,
    session: String,
    profile: PathBuf,
}

struct Io {
    to: Option<ChildStdin>,
    from: Receiver<Value>,
    next_id: u64,
    /// The loaders whose document finished loading (the page's `load` lifecycle events), the
    /// latest few, read while waiting for other replies: kept for [`Cdp::wait_load`].
    loaded: VecDeque<String>,
}

impl Cdp {
    /// Starts `chromium` with `args` (the pipe, the profile and the page are added) and attaches
    /// to its first page.
    pub fn launch(chromium: &Path, args: &[String]) -> Cdp {
        static SERIAL: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let profile =
            std::env::temp_dir().join(format!("tablero-chromium-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("create the browser profile folder");
        let log = std::fs::File::create(profile.join("chromium.log")).expect("browser log");
        // The shell gives Chromium the pipe's ends as fds 3 and 4 (std has no way to map other
        // fds into a child) and sends its own stdout to the log.
        let child = Command::new("sh")
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 0</dev/null 1>&2"#)
            .arg(chromium)
            .args(args)
            .arg("--remote-debugging-pipe")
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromium.display()));
        let mut child = child;
        let to = child.stdin.take();
        let from = child.stdout.take().expect("the browser's fd 4");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(from);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(0, &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if buf.last() == Some(&0) {
                            buf.pop();
                        }
                        match serde_json::from_slice::<Value>(&buf) {
                            Ok(v) => {
                                if tx.send(v).is_err() {
                                    return;
                                }
                            }
                            Err(e) => eprintln!("browser: unreadable DevTools message: {e}"),
                        }
                    }
                }
            }
        });
        let mut cdp = Cdp {
            child,
            io: Mutex::new(Io {
                to,
                from: rx,
                next_id: 0,
                loaded: VecDeque::new(),
            }),
            session: String::new(),
            profile,
        };
        let start = Instant::now();
        let target = loop {
            let targets = cdp.browser_call("Target.getTargets", json!({}));
            let page = targets["targetInfos"]
                .as_array()
                .and_then(|a| a.iter().find(|t| t["type"] == "page"))
                .and_then(|t| t["targetId"].as_str())
                .map(str::to_string);
            if let Some(id) = page {
                break id;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "Chromium opened no page in 20 s{}",
                cdp.log_tail()
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let attached = cdp.browser_call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        cdp.session = attached["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session in {attached}"))
            .to_string();
        cdp.call("Page.enable", json!({}));
        cdp.call("Page.setLifecycleEventsEnabled", json!({"enabled": true}));
        cdp
    }

    /// The last lines Chromium logged, for a failure's message.
    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(self.profile.join("chromium.log")).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(8)..].join("\n  ");
        if tail.is_empty() {
            String::new()
        } else {
            format!("; Chromium's log ends:\n  {tail}")
        }
    }

    fn send(&self, method: &str, params: Value, session: bool) -> Result<Value, String> {
        let mut io = self.io.lock().expect("browser io");
        io.next_id += 1;
        let id = io.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if session {
            msg["sessionId"] = json!(self.session);
        }
        let mut bytes = serde_json::to_vec(&msg).expect("a DevTools command");
        bytes.push(0);
        let to = io.to.as_mut().expect("the browser's fd 3");
        if let Err(e) = to.write_all(&bytes).and_then(|()| to.flush()) {
            drop(io);
            panic!("{method}: the browser is gone ({e}){}", self.log_tail());
        }
        let deadline = Instant::now() + REPLY;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match io.from.recv_timeout(left) {
                Ok(v) if v["id"] == id => {
                    return match v.get("error") {
                        Some(e) => Err(format!("{method}: {e}")),
                        None => Ok(v["result"].clone()),
                    };
                }
                Ok(v) => io.note(&v),
                Err(RecvTimeoutError::Timeout) => {
                    drop(io);
                    panic!(
                        "{method}: no reply from the browser in {REPLY:?}{}",
                        self.log_tail()
                    )
                }
                Err(RecvTimeoutError::Disconnected) => {
                    drop(io);
                    panic!("{method}: the browser closed its pipe{}", self.log_tail())
                }
            }
        }
    }

    fn browser_call(&self, method: &str, params: Value) -> Value {
        self.send(method, params, false)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Sends `method` to the page and returns its result; a DevTools error fails the test.
    pub fn call(&self, method: &str, params: Value) -> Value {
        self.try_call(method, params)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Sends `method` to the page: its result, or the DevTools error as text.
    pub fn try_call(&self, method: &str, params: Value) -> Result<Value, String> {
        self.send(method, params, true)
    }

    /// Waits for the document of navigation `loader` (`Page.navigate`'s `loaderId`) to fire its
    /// `load` event: a load of an earlier document (a reload's, read late) does not count.
    pub fn wait_load(&self, loader: &str, timeout: Duration) {
        let mut io = self.io.lock().expect("browser io");
        let deadline = Instant::now() + timeout;
        while !io.loaded.iter().any(|l| l == loader) {
            let left = deadline.saturating_duration_since(Instant::now());
            match io.from.recv_timeout(left) {
                Ok(v) => io.note(&v),
                Err(_) => {
                    drop(io);
                    panic!("the page did not load in {timeout:?}{}", self.log_tail())
                }
            }
        }
    }
}

impl Io {
    /// Keeps what a later wait needs from an event read while waiting for something else.
    fn note(&mut self, v: &Value) {
        let p = &v["params"];
        if v["method"] == "Page.lifecycleEvent"
            && p["name"] == "load"
            && let Some(l) = p["loaderId"].as_str()
        {
            if self.loaded.len() == 32 {
                self.loaded.pop_front();
            }
            self.loaded.push_back(l.to_string());
        }
    }
}

impl Drop for Cdp {
    fn drop(&mut self) {
        // Closing the pipe ends a `--remote-debugging-pipe` browser; a kill if it lingers.
        if let Ok(mut io) = self.io.lock() {
            io.to = None;
        }
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Standard base64 (the screenshots' encoding), padding and line breaks allowed.
pub fn base64_decode(s: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' | b'\n' | b'\r' => continue,
            _ => panic!("not base64: byte {c}"),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

#[test]
fn base64_decodes_the_standard_alphabet() {
    assert_eq!(base64_decode("aGVsbG8="), b"hello");
    assert_eq!(base64_decode("aGk="), b"hi");
    assert_eq!(base64_decode("+/8A"), [0xfb, 0xff, 0x00]);
    assert_eq!(base64_decode(""), b"");
}
