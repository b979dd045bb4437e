//! `tablero gui`: a local web page to play and watch the games. This module owns the HTTP
//! side — binding, the security rules, request reading with hard caps, routing and the embedded
//! page — and the threads around the [`api::Session`] (one engine worker per role, one thread
//! that hands worker events to the session).
//!
//! HTTP: requests are parsed by `httparse` (hyper's parser); the connection handling is ours so
//! that every cap is exact: at most `--max-connections` ([`MAX_CONNECTIONS`]) connections at
//! once (more get `503`),
//! [`MAX_HEADER`] bytes of request head, [`MAX_BODY`] bytes of body (`Content-Length` only),
//! 10 s to send a request, one request per connection (`Connection: close`). Engine output
//! reaches the page by long-polling `GET /api/state?since=V`, which returns as soon as the
//! session's version passes `V` (or after 25 s).
//!
//! Security: loopback only unless `--allow-remote`; the `Host` header must be `localhost`, a
//! loopback address (any IP literal with `--allow-remote`) with the bound port, which defeats
//! DNS rebinding; state-changing requests are `POST` with `Content-Type: application/json`, and
//! are refused when `Sec-Fetch-Site` says cross-site or `Origin` is not this server. The page can
//! only name engines from the list fixed at start-up; it never sends a command line.

pub mod api;
pub mod board;
pub mod engines;
pub mod error;
pub mod review;

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::games::GameKind;
use crate::players::Player;
use crate::referee::conn::EngineSpec;
use api::{Offered, Session};
use engines::{Event, Job, SEATS_AND_ANALYSIS};
pub use error::{ApiError, GuiError, ListenWhy, RequestError};

/// Default of `--max-connections`: connections served at once; more are answered `503` and
/// closed. A connection costs a thread and at most a request's caps in memory, so the default
/// is generous enough that 200 hostile connections leave room for the page.
pub const MAX_CONNECTIONS: usize = 256;
/// Largest request line plus headers.
pub const MAX_HEADER: usize = 16 * 1024;
/// Most header fields in a request.
pub const MAX_FIELDS: usize = 48;
/// Largest request body.
pub const MAX_BODY: usize = 64 * 1024;
/// Time a client has to send its whole request.
const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest a long-poll waits for a change.
const POLL_WAIT: Duration = Duration::from_secs(25);

const PAGE_HTML: &str = include_str!("page.html");
const PAGE_CSS: &str = include_str!("page.css");
const PAGE_JS: &str = include_str!("page.js");
const SCENE_JS: &str = include_str!("../view/scene.js");
const I18N_JS: &str = crate::i18n::SCRIPT;

/// What `tablero gui` serves.
#[derive(Clone, Debug)]
pub struct GuiConfig {
    pub listen: String,
    /// The engines the page may pick (names unique): [`builtin_engines`] and the user's.
    pub engines: Vec<Offered>,
    pub allow_remote: bool,
    /// The game shown first.
    pub game: GameKind,
    /// Connections served at once (`--max-connections`).
    pub max_connections: usize,
}

/// The engines every page offers: the full engine (this binary), then the built-in players.
pub fn builtin_engines() -> Result<Vec<Offered>, GuiError> {
    let exe = std::env::current_exe().map_err(GuiError::Locate)?;
    let mut out = vec![Offered {
        name: "tablero".into(),
        spec: EngineSpec::Command(vec![exe.to_string_lossy().into_owned()]),
    }];
    for p in Player::ALL {
        out.push(Offered {
            name: p.name().into(),
            spec: EngineSpec::Builtin(p),
        });
    }
    Ok(out)
}

/// Binds `listen`, refusing a non-loopback address unless `allow_remote`.
pub fn bind(listen: &str, allow_remote: bool) -> Result<TcpListener, GuiError> {
    let refuse = |why| GuiError::Listen {
        listen: listen.to_string(),
        why,
    };
    let addrs: Vec<SocketAddr> = listen
        .to_socket_addrs()
        .map_err(|e| refuse(ListenWhy::Resolve(e)))?
        .collect();
    let first = *addrs.first().ok_or_else(|| refuse(ListenWhy::NoAddress))?;
    if !allow_remote && addrs.iter().any(|a| !a.ip().is_loopback()) {
        return Err(refuse(ListenWhy::NotLoopback(first.ip())));
    }
    TcpListener::bind(first).map_err(|e| refuse(ListenWhy::Bind(e)))
}

/// Everything the connection threads share.
pub struct Shared {
    pub session: Mutex<Session>,
    pub changed: Condvar,
    pub port: u16,
    pub allow_remote: bool,
    conns: AtomicUsize,
    max_conns: AtomicUsize,
}

/// Starts the engine workers and the event thread; returns the shared state.
pub fn start(
    offered: Vec<Offered>,
    kind: GameKind,
    port: u16,
    allow_remote: bool,
) -> Result<Arc<Shared>, GuiError> {
    let thread = |what| move |error| GuiError::Thread { what, error };
    let (ev_tx, ev_rx) = mpsc::channel::<Event>();
    let channels: [_; SEATS_AND_ANALYSIS] = std::array::from_fn(|_| mpsc::channel::<Job>());
    let jobs = channels.each_ref().map(|(tx, _)| tx.clone());
    for (role, (_, rx)) in channels.into_iter().enumerate() {
        let ev = ev_tx.clone();
        std::thread::Builder::new()
            .name(format!("gui-engine-{role}"))
            .spawn(move || engines::worker(role, rx, ev))
            .map_err(thread("engine worker"))?;
    }
    // The game review's worker.
    let (review_tx, review_rx) = mpsc::channel::<review::ReviewJob>();
    let ev = ev_tx.clone();
    std::thread::Builder::new()
        .name("gui-review".into())
        .spawn(move || review::worker(review_rx, ev))
        .map_err(thread("game review"))?;
    drop(ev_tx);
    let mut session = Session::new(offered, kind, jobs);
    session.set_reviewer(review_tx);
    let shared = Arc::new(Shared {
        session: Mutex::new(session),
        changed: Condvar::new(),
        port,
        allow_remote,
        conns: AtomicUsize::new(0),
        max_conns: AtomicUsize::new(MAX_CONNECTIONS),
    });
    let s = shared.clone();
    std::thread::Builder::new()
        .name("gui-events".into())
        .spawn(move || {
            for ev in ev_rx {
                if let Ok(mut g) = s.session.lock() {
                    g.on_event(ev);
                }
                s.changed.notify_all();
            }
        })
        .map_err(thread("event"))?;
    Ok(shared)
}

/// `tablero gui`: binds, prints `listening http://ADDR/` and serves until killed.
pub fn run(opts: &GuiConfig) -> Result<(), GuiError> {
    let offered = opts.engines.clone();
    let listener = bind(&opts.listen, opts.allow_remote)?;
    let addr = listener.local_addr().map_err(|e| GuiError::Listen {
        listen: opts.listen.clone(),
        why: ListenWhy::Bind(e),
    })?;
    let shared = start(offered, opts.game, addr.port(), opts.allow_remote)?;
    shared
        .max_conns
        .store(opts.max_connections.max(1), Ordering::SeqCst);
    println!("listening http://{addr}/");
    let _ = std::io::stdout().flush();
    serve(listener, shared);
    Ok(())
}

/// Accepts connections forever, one thread each, at most `--max-connections` at once.
pub fn serve(listener: TcpListener, shared: Arc<Shared>) {
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        let _ = stream.set_write_timeout(Some(Duration::from_secs(10)));
        if shared.conns.fetch_add(1, Ordering::SeqCst) >= shared.max_conns.load(Ordering::SeqCst) {
            shared.conns.fetch_sub(1, Ordering::SeqCst);
            let _ = stream.write_all(&response(503, "text/plain", b"too many connections\n", &[]));
            continue;
        }
        let s = shared.clone();
        let spawned = std::thread::Builder::new()
            .name("gui-http".into())
            .spawn(move || {
                handle(&mut stream, &s);
                s.conns.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            shared.conns.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

fn status_text(code: u16) -> &'static str {
    match code {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

fn response(code: u16, ctype: &str, body: &[u8], extra: &[(&str, &str)]) -> Vec<u8> {
    let mut h = format!(
        "HTTP/1.1 {code} {}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n\
         Referrer-Policy: no-referrer\r\nContent-Security-Policy: default-src 'self'; \
         img-src 'self' data:; frame-ancestors 'none'; form-action 'none'\r\n",
        status_text(code),
        body.len()
    );
    for (k, v) in extra {
        h += &format!("{k}: {v}\r\n");
    }
    h += "\r\n";
    let mut out = h.into_bytes();
    out.extend_from_slice(body);
    out
}

/// A one-line error answer.
fn error(code: u16, reason: &str) -> Vec<u8> {
    let line: String = reason
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(300)
        .collect();
    response(
        code,
        "text/plain; charset=utf-8",
        format!("{line}\n").as_bytes(),
        &[],
    )
}

/// A parsed request.
pub struct Request {
    pub method: String,
    pub path: String,
    pub query: String,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads one request within the caps.
fn read_request(stream: &mut TcpStream) -> Result<Request, RequestError> {
    let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
    let t0 = Instant::now();
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        if buf.len() > MAX_HEADER {
            return Err(RequestError::HeadTooLarge);
        }
        // Each read waits only for what is left of the request's time, so a client dripping
        // bytes cannot stretch it.
        let Some(left) = READ_TIMEOUT
            .checked_sub(t0.elapsed())
            .filter(|l| !l.is_zero())
        else {
            return Err(RequestError::Slow(false));
        };
        let _ = stream.set_read_timeout(Some(left));
        match stream.read(&mut chunk) {
            Ok(0) => return Err(RequestError::Closed(false)),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(_) => return Err(RequestError::Slow(false)),
        }
    };
    let (mut r, len) = parse_head(&buf[..head_end])?;
    let mut body = buf[head_end..].to_vec();
    while body.len() < len {
        let Some(left) = READ_TIMEOUT
            .checked_sub(t0.elapsed())
            .filter(|l| !l.is_zero())
        else {
            return Err(RequestError::Slow(true));
        };
        let _ = stream.set_read_timeout(Some(left));
        match stream.read(&mut chunk) {
            Ok(0) => return Err(RequestError::Closed(true)),
            Ok(n) => body.extend_from_slice(&chunk[..n]),
            Err(_) => return Err(RequestError::Slow(true)),
        }
    }
    body.truncate(len);
    r.body = body;
    Ok(r)
}

/// Parses a request head (everything up to and including the blank line) within the caps:
/// the request without its body, and the body length it announces. Pure (no socket), so that
/// the fuzz target (fuzz/fuzz_targets/gui_http.rs) runs exactly what a connection runs.
pub fn parse_head(head: &[u8]) -> Result<(Request, usize), RequestError> {
    if head.len() > MAX_HEADER {
        return Err(RequestError::HeadTooLarge);
    }
    let mut hs = [httparse::EMPTY_HEADER; MAX_FIELDS];
    let mut req = httparse::Request::new(&mut hs);
    match req.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Err(RequestError::Incomplete),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(RequestError::TooManyHeaders(MAX_FIELDS));
        }
        Err(e) => return Err(RequestError::Malformed(e)),
    }
    let method = req.method.unwrap_or("").to_string();
    let target = req.path.unwrap_or("");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let headers: Vec<(String, String)> = req
        .headers
        .iter()
        .map(|h| {
            (
                h.name.to_ascii_lowercase(),
                String::from_utf8_lossy(h.value).trim().to_string(),
            )
        })
        .collect();
    let r = Request {
        method,
        path: path.to_string(),
        query: query.to_string(),
        headers,
        body: vec![],
    };
    if r.header("transfer-encoding").is_some() {
        return Err(RequestError::Chunked);
    }
    let len = match r.header("content-length") {
        None => 0,
        Some(v) => v
            .parse::<usize>()
            .map_err(|_| RequestError::BadLength(v.to_string()))?,
    };
    if len > MAX_BODY {
        return Err(RequestError::BodyTooLarge(len));
    }
    Ok((r, len))
}

/// Is `host` (a `Host` header) this server? `localhost` or a loopback literal with our port; any
/// IP literal with `--allow-remote`. Names other than `localhost` are refused (DNS rebinding).
pub fn host_allowed(host: &str, port: u16, allow_remote: bool) -> bool {
    let (name, p) = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((n, tail)) => (n, tail.strip_prefix(':')),
            None => return false,
        }
    } else {
        match host.rsplit_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (host, None),
        }
    };
    let port_ok = match p {
        Some(p) => p.parse::<u16>() == Ok(port),
        None => port == 80,
    };
    if !port_ok {
        return false;
    }
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match name.parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback() || allow_remote,
        Err(_) => false,
    }
}

/// Refuses state-changing requests from other sites (checked on every `POST`).
fn same_origin(r: &Request, host: &str) -> Result<(), RequestError> {
    if let Some(site) = r.header("sec-fetch-site")
        && !matches!(site, "same-origin" | "none")
    {
        return Err(RequestError::CrossSite {
            header: "Sec-Fetch-Site",
            value: site.to_string(),
        });
    }
    if let Some(origin) = r.header("origin")
        && !origin.eq_ignore_ascii_case(&format!("http://{host}"))
    {
        return Err(RequestError::CrossSite {
            header: "Origin",
            value: origin.to_string(),
        });
    }
    let json = r.header("content-type").is_some_and(|c| {
        c.split(';')
            .next()
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
    });
    if !json {
        return Err(RequestError::NotJson);
    }
    Ok(())
}

fn query_u64(q: &str, key: &'static str) -> Result<u64, RequestError> {
    for kv in q.split('&') {
        if let Some(v) = kv.strip_prefix(key).and_then(|r| r.strip_prefix('=')) {
            return v.parse().map_err(|_| RequestError::Query(key));
        }
    }
    Ok(0)
}

fn handle(stream: &mut TcpStream, shared: &Shared) {
    let _ = stream.set_nodelay(true);
    let out = match read_request(stream) {
        Ok(r) => route(&r, shared),
        Err(e) => error(e.status(), &e.to_string()),
    };
    let _ = stream.write_all(&out);
    let _ = stream.flush();
    let _ = stream.shutdown(std::net::Shutdown::Write);
    // Drain what the client may still send so that closing does not reset the connection
    // before it has read the answer.
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let mut sink = [0u8; 1024];
    for _ in 0..16 {
        match stream.read(&mut sink) {
            Ok(n) if n > 0 => {}
            _ => break,
        }
    }
}

/// Answers one request.
pub fn route(r: &Request, shared: &Shared) -> Vec<u8> {
    let Some(host) = r.header("host") else {
        return error(400, "missing Host header");
    };
    if !host_allowed(host, shared.port, shared.allow_remote) {
        return error(
            403,
            &format!(
                "Host '{}' is not this server (use localhost or the address)",
                crate::core::spec::clip(host)
            ),
        );
    }
    let text = "text/plain; charset=utf-8";
    match (r.method.as_str(), r.path.as_str()) {
        ("GET", "/") => response(200, "text/html; charset=utf-8", PAGE_HTML.as_bytes(), &[]),
        ("GET", "/page.css") => response(200, "text/css; charset=utf-8", PAGE_CSS.as_bytes(), &[]),
        ("GET", "/page.js") => response(
            200,
            "text/javascript; charset=utf-8",
            PAGE_JS.as_bytes(),
            &[],
        ),
        ("GET", "/scene.js") => response(
            200,
            "text/javascript; charset=utf-8",
            SCENE_JS.as_bytes(),
            &[],
        ),
        ("GET", "/i18n.js") => response(
            200,
            "text/javascript; charset=utf-8",
            I18N_JS.as_bytes(),
            &[],
        ),
        ("GET", "/review.js") => response(
            200,
            "text/javascript; charset=utf-8",
            crate::review::page::REVIEW_JS.as_bytes(),
            &[],
        ),
        ("GET", "/api/state") => {
            let (since, board) = match (query_u64(&r.query, "since"), query_u64(&r.query, "board"))
            {
                (Ok(s), Ok(b)) => (s, b),
                (Err(e), _) | (_, Err(e)) => return error(e.status(), &e.to_string()),
            };
            let Ok(mut g) = shared.session.lock() else {
                return error(500, "session lock poisoned");
            };
            let deadline = Instant::now() + POLL_WAIT;
            while g.version <= since {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    break;
                }
                g = match shared.changed.wait_timeout(g, left) {
                    Ok((g, _)) => g,
                    Err(_) => return error(500, "session lock poisoned"),
                };
            }
            let body = g.state_json(board).to_string();
            response(200, "application/json", body.as_bytes(), &[])
        }
        ("GET", "/api/record") => {
            let Ok(g) = shared.session.lock() else {
                return error(500, "session lock poisoned");
            };
            match g.api_record() {
                Ok(line) => response(
                    200,
                    "application/x-ndjson",
                    format!("{line}\n").as_bytes(),
                    &[(
                        "Content-Disposition",
                        "attachment; filename=\"tablero-game.jsonl\"",
                    )],
                ),
                Err(e) => error(e.status(), &e.to_string()),
            }
        }
        (
            "POST",
            "/api/new" | "/api/position" | "/api/move" | "/api/undo" | "/api/settings"
            | "/api/stop" | "/api/analysis" | "/api/review" | "/api/view" | "/api/load",
        ) => {
            if let Err(e) = same_origin(r, host) {
                return error(e.status(), &e.to_string());
            }
            let v: Value = if r.body.iter().all(u8::is_ascii_whitespace) {
                Value::Object(Default::default())
            } else {
                match serde_json::from_slice(&r.body) {
                    Ok(v @ Value::Object(_)) => v,
                    Ok(_) => return error(400, "the body must be a JSON object"),
                    Err(e) => return error(400, &format!("bad JSON: {e}")),
                }
            };
            let Ok(mut g) = shared.session.lock() else {
                return error(500, "session lock poisoned");
            };
            let res = match r.path.as_str() {
                "/api/new" => g.api_new(&v),
                "/api/position" => g.api_position(&v),
                "/api/move" => g.api_move(&v),
                "/api/undo" => g.api_undo(),
                "/api/settings" => g.api_settings(&v),
                "/api/stop" => g.api_stop(),
                "/api/review" => g.api_review(&v),
                "/api/view" => g.api_view(&v),
                "/api/load" => g.api_load(&v),
                _ => g.api_analysis(&v),
            };
            let version = g.version;
            drop(g);
            shared.changed.notify_all();
            match res {
                Ok(()) => response(
                    200,
                    "application/json",
                    format!("{{\"ok\":true,\"version\":{version}}}").as_bytes(),
                    &[],
                ),
                Err(e) => error(e.status(), &e.to_string()),
            }
        }
        (
            _,
            "/" | "/page.css" | "/page.js" | "/scene.js" | "/i18n.js" | "/review.js" | "/api/state"
            | "/api/record",
        ) => response(405, text, b"method not allowed\n", &[("Allow", "GET")]),
        (_, p) if p.starts_with("/api/") => {
            if r.method == "POST" {
                error(
                    404,
                    &format!("no such endpoint '{}'", crate::core::spec::clip(p)),
                )
            } else {
                response(405, text, b"method not allowed\n", &[("Allow", "POST")])
            }
        }
        _ => error(404, "not found"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        assert!(host_allowed("127.0.0.1:8080", 8080, false));
        assert!(host_allowed("localhost:8080", 8080, false));
        assert!(host_allowed("LOCALHOST:8080", 8080, false));
        assert!(host_allowed("[::1]:8080", 8080, false));
        assert!(!host_allowed("127.0.0.1:8081", 8080, false));
        assert!(!host_allowed("evil.example:8080", 8080, false));
        assert!(!host_allowed("evil.example:8080", 8080, true));
        assert!(!host_allowed("192.168.1.5:8080", 8080, false));
        assert!(host_allowed("192.168.1.5:8080", 8080, true));
        assert!(!host_allowed("127.0.0.1", 8080, false));
        assert!(host_allowed("127.0.0.1", 80, false));
        assert!(!host_allowed("[::1", 8080, false));
        assert!(!host_allowed("", 8080, false));
    }

    #[test]
    fn each_refused_head_is_its_own_kind_and_status() {
        let refused = |head: &str| parse_head(head.as_bytes()).map(|_| ()).unwrap_err();
        let e = refused("GARBAGE\r\n\r\n");
        assert!(
            matches!(e, RequestError::Malformed(_)) && e.status() == 400,
            "{e}"
        );
        let e = refused("GET / HTTP/1.1\r\nHost: a\r\n");
        assert!(
            matches!(e, RequestError::Incomplete) && e.status() == 400,
            "{e}"
        );
        let many = format!(
            "GET / HTTP/1.1\r\n{}\r\n",
            "X: y\r\n".repeat(MAX_FIELDS + 1)
        );
        let e = refused(&many);
        assert!(
            matches!(e, RequestError::TooManyHeaders(_)) && e.status() == 431,
            "{e}"
        );
        assert_eq!(e.to_string(), "more than 48 header fields");
        let e = refused("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n");
        assert!(
            matches!(e, RequestError::Chunked) && e.status() == 411,
            "{e}"
        );
        let e = refused("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n");
        assert!(
            matches!(e, RequestError::BadLength(_)) && e.status() == 400,
            "{e}"
        );
        assert_eq!(e.to_string(), "bad Content-Length '-1'");
        let e = refused("POST / HTTP/1.1\r\nContent-Length: 65537\r\n\r\n");
        assert!(
            matches!(e, RequestError::BodyTooLarge(65537)) && e.status() == 413,
            "{e}"
        );
        let (r, len) =
            parse_head(b"POST /api/move?since=3 HTTP/1.1\r\nContent-Length: 2\r\n\r\n").unwrap();
        assert_eq!(
            (r.path.as_str(), r.query.as_str(), len),
            ("/api/move", "since=3", 2)
        );
        assert_eq!(query_u64(&r.query, "since").unwrap(), 3);
        let e = query_u64("since=x", "since").unwrap_err();
        assert!(
            matches!(e, RequestError::Query("since")) && e.status() == 400,
            "{e}"
        );
    }

    #[test]
    fn cross_site_posts_are_403_with_what_said_so() {
        let post = |headers: &[(&str, &str)]| Request {
            method: "POST".into(),
            path: "/api/move".into(),
            query: String::new(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            body: vec![],
        };
        let json = ("content-type", "application/json; charset=utf-8");
        assert!(same_origin(&post(&[json]), "localhost:80").is_ok());
        assert!(
            same_origin(
                &post(&[json, ("origin", "http://localhost:80")]),
                "localhost:80"
            )
            .is_ok()
        );
        let e = same_origin(&post(&[json, ("sec-fetch-site", "cross-site")]), "h").unwrap_err();
        assert_eq!(e.status(), 403);
        assert_eq!(
            e.to_string(),
            "cross-site request refused (Sec-Fetch-Site: cross-site)"
        );
        let e = same_origin(&post(&[json, ("origin", "http://evil")]), "h").unwrap_err();
        assert_eq!(
            e.to_string(),
            "cross-site request refused (Origin: http://evil)"
        );
        let e = same_origin(&post(&[("content-type", "text/plain")]), "h").unwrap_err();
        assert!(
            matches!(e, RequestError::NotJson) && e.status() == 403,
            "{e}"
        );
    }

    #[test]
    fn binding_refuses_remote_addresses() {
        let e = bind("0.0.0.0:0", false).unwrap_err();
        assert!(
            matches!(
                e,
                GuiError::Listen {
                    why: ListenWhy::NotLoopback(_),
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("--allow-remote"), "{e}");
        // No port: refused before any name lookup.
        let e = bind("127.0.0.1", false).unwrap_err();
        assert!(
            matches!(
                e,
                GuiError::Listen {
                    why: ListenWhy::Resolve(_),
                    ..
                }
            ),
            "{e}"
        );
        assert!(bind("127.0.0.1:0", false).is_ok());
    }
}
