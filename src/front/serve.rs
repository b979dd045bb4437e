//! `tablero serve`: the protocol (or a built-in player) over TCP, one independent session per
//! connection, each on its own thread. The session ends when the peer sends `quit` or closes
//! the connection; the listener keeps accepting.
//!
//! Limits, so that no peer can take the server down: at most [`Limits::max_connections`]
//! sessions at once (one more gets one error line and is closed), input lines capped at
//! `MAX_LINE` bytes like every protocol input, `Hash` capped by `--max-hash` (each session has
//! its own table, so memory is about sessions × table), a session silent for [`Limits::idle`] is told so
//! and closed, and a peer that stops reading is dropped after [`WRITE_TIMEOUT`] instead of
//! blocking its session forever.

use std::io::{BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::engine::EngineConfig;
use crate::games::GameKind;
use crate::players::{self, Player};
use crate::protocol::{self, Out};

/// Default of `--max-connections`.
pub const DEFAULT_MAX_CONNECTIONS: usize = 16;
/// Default of `--idle-timeout`, seconds.
pub const DEFAULT_IDLE_SECS: u64 = 600;
/// A write to a peer that does not read fails after this long and ends its session.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// The server's limits (`serve` flags).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Sessions served at once.
    pub max_connections: usize,
    /// A session with no input for this long is closed (`None`: never).
    pub idle: Option<Duration>,
    /// Each session's engine: its largest `Hash` bounds the memory of a session.
    pub engine: EngineConfig,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            idle: Some(Duration::from_secs(DEFAULT_IDLE_SECS)),
            engine: EngineConfig {
                files: false,
                ..EngineConfig::default()
            },
        }
    }
}

/// Binds `addr` and reports the bound address (useful with port 0).
pub fn bind(addr: &str) -> Result<TcpListener, String> {
    TcpListener::bind(addr).map_err(|e| format!("--listen {addr}: {e}"))
}

/// The socket as the session's output: a write that fails (the peer is gone or has not read
/// for [`WRITE_TIMEOUT`]) shuts the socket down, which ends the session's input too.
struct SocketOut(TcpStream);

impl Write for SocketOut {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.write(b).inspect_err(|_| {
            let _ = self.0.shutdown(Shutdown::Both);
        })
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// The socket as the session's input: silence past the idle limit is said in one error line
/// and read as the end of input (which stops even `go infinite`, see protocol.md).
struct SocketIn {
    stream: TcpStream,
    out: Out,
    idle: Option<Duration>,
}

impl Read for SocketIn {
    fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
        match self.stream.read(b) {
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                if let Some(t) = self.idle {
                    self.out.error(&format!(
                        "no input for {} s; closing the connection (serve --idle-timeout)",
                        t.as_secs()
                    ));
                }
                Ok(0)
            }
            r => r,
        }
    }
}

fn session(stream: TcpStream, kind: GameKind, player: Option<Player>, limits: Limits) {
    let idle = limits.idle;
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let _ = stream.set_read_timeout(idle);
    let (Ok(w), Ok(closer)) = (stream.try_clone(), stream.try_clone()) else {
        return;
    };
    let out = Out::new(Box::new(SocketOut(w)));
    let input = BufReader::new(SocketIn {
        stream,
        out: out.clone(),
        idle,
    });
    match player {
        Some(p) => players::run_with(p, kind, input, out, limits.engine),
        None => protocol::run_with(kind, input, out, limits.engine, None),
    }
    // After `quit` the protocol's reader thread may still wait for input: closing the socket
    // ends it and tells the peer.
    let _ = closer.shutdown(Shutdown::Both);
}

/// Answers a connection over the limit with one line and closes it.
fn refuse(mut stream: TcpStream, max: usize) {
    let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
    let _ = stream.write_all(
        format!(
            "info string error: too many connections (the limit is {max}, serve --max-connections); try again later\n"
        )
        .as_bytes(),
    );
    let _ = stream.shutdown(Shutdown::Write);
    // Whatever the peer already sent is read away, so that closing does not reset the
    // connection before it has read the line.
    if stream.set_nonblocking(true).is_ok() {
        let mut sink = [0u8; 4096];
        for _ in 0..16 {
            match stream.read(&mut sink) {
                Ok(n) if n > 0 => {}
                _ => break,
            }
        }
    }
}

/// Decrements the session count when a session thread ends, however it ends.
struct Active(Arc<AtomicUsize>);

impl Drop for Active {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serves connections forever (or until `max_sessions` sessions have been accepted).
pub fn serve(
    listener: TcpListener,
    kind: GameKind,
    player: Option<Player>,
    max_sessions: Option<usize>,
    limits: Limits,
) {
    let active = Arc::new(AtomicUsize::new(0));
    let mut n = 0usize;
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let peer = stream
            .peer_addr()
            .map(|p| p.to_string())
            .unwrap_or_default();
        if active.fetch_add(1, Ordering::SeqCst) >= limits.max_connections {
            active.fetch_sub(1, Ordering::SeqCst);
            log::info!("refused {peer}: {} sessions", limits.max_connections);
            refuse(stream, limits.max_connections);
            continue;
        }
        log::info!("session from {peer}");
        let guard = Active(active.clone());
        let spawned = std::thread::Builder::new()
            .name("serve-session".into())
            .spawn(move || {
                let _guard = guard;
                session(stream, kind, player, limits);
            });
        if let Err(e) = spawned {
            // The guard went down with the closure.
            log::warn!("cannot start a session thread for {peer}: {e}");
        }
        n += 1;
        if max_sessions.is_some_and(|m| n >= m) {
            break;
        }
    }
}
