//! `tablero serve`: the protocol (or a built-in player) over TCP, one independent session per
//! connection, each on its own thread. The session ends when the peer sends `quit` or closes
//! the connection; the listener keeps accepting.

use std::io::BufReader;
use std::net::{TcpListener, TcpStream};

use crate::games::GameKind;
use crate::players::{self, Player};
use crate::protocol::{self, Out};

/// Binds `addr` and reports the bound address (useful with port 0).
pub fn bind(addr: &str) -> Result<TcpListener, String> {
    TcpListener::bind(addr).map_err(|e| format!("--listen {addr}: {e}"))
}

fn session(stream: TcpStream, kind: GameKind, player: Option<Player>) {
    let _ = stream.set_nodelay(true);
    let (Ok(w), Ok(closer)) = (stream.try_clone(), stream.try_clone()) else {
        return;
    };
    let out = Out::new(Box::new(w));
    let input = BufReader::new(stream);
    match player {
        Some(p) => players::run(p, kind, input, out),
        None => protocol::run(kind, input, out),
    }
    // After `quit` the protocol's reader thread may still wait for input: closing the socket
    // ends it and tells the peer.
    let _ = closer.shutdown(std::net::Shutdown::Both);
}

/// Serves connections forever (or until `max_sessions` sessions have been accepted).
pub fn serve(
    listener: TcpListener,
    kind: GameKind,
    player: Option<Player>,
    max_sessions: Option<usize>,
) {
    let mut n = 0usize;
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        if let Ok(peer) = stream.peer_addr() {
            log::info!("session from {peer}");
        }
        std::thread::spawn(move || {
            session(stream, kind, player);
        });
        n += 1;
        if max_sessions.is_some_and(|m| n >= m) {
            break;
        }
    }
}
