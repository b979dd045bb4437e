#!/usr/bin/env python3
# Network faces under attack, loopback only: starts `tablero serve` (or `tablero gui`) and throws
# at it, phase by phase, 200 concurrent connections, slow clients sending a byte a second, a 10 MB
# line (serve) / request head (gui), and half-closed sockets, while a normal client keeps asking
# (serve: `isready` on a session opened before the attack, plus a new connection per probe; gui:
# `GET /api/state`, a new connection each). Prints per phase: connections accepted/refused (and
# with which message), the normal client's answers and worst latency, and the server's RSS,
# peak RSS and thread count before and after. Exit 1 when the server dies or stops answering.
# Usage: scripts/netstress.py serve|gui [--tablero PATH] [--phase SECONDS] [--conns N] [--slow N]
#        [-- extra server flags]
import argparse, os, socket, subprocess, sys, threading, time


def default_tablero():
    """The release binary of the checkout this script belongs to, wherever it is run from."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "target", "release", "tablero")


def require_binary(path, script):
    """One clear line instead of a traceback when the binary is missing."""
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        sys.exit(f"{script}: no tablero binary at {path}: build it with `cargo build --release` "
                 "or give its path (--tablero PATH)")


def status(pid):
    d = {}
    try:
        for l in open(f"/proc/{pid}/status"):
            k, _, v = l.partition(":")
            if k in ("VmRSS", "VmHWM", "Threads"):
                d[k] = int(v.split()[0])
    except OSError:
        pass
    return d


def fmt(st):
    return "RSS %.1f MB, peak %.1f MB, %d threads" % (st.get("VmRSS", 0) / 1024, st.get("VmHWM", 0) / 1024,
                                                      st.get("Threads", 0))


class Server:
    def __init__(self, kind, tablero, extra):
        if kind == "serve":
            cmd = [tablero, "--game", "connect4", "serve", "--listen", "127.0.0.1:0"] + extra
        else:
            cmd = [tablero, "--game", "connect4", "gui", "--listen", "127.0.0.1:0"] + extra
        self.p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, text=True)
        line = self.p.stdout.readline().strip()
        a = line.split()[-1].replace("http://", "").rstrip("/")
        host, port = a.rsplit(":", 1)
        self.addr = (host, int(port))
        self.kind = kind

    def alive(self):
        return self.p.poll() is None


def connect(addr, timeout=5):
    s = socket.create_connection(addr, timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def read_until(s, needle, timeout):
    s.settimeout(timeout)
    buf = b""
    end = time.time() + timeout
    while needle not in buf and time.time() < end:
        try:
            b = s.recv(65536)
        except (socket.timeout, OSError):
            break
        if not b:
            break
        buf += b
    return buf


def http(addr, path="/api/state", timeout=10):
    s = connect(addr, timeout)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: {addr[0]}:{addr[1]}\r\n\r\n".encode())
    r = read_until(s, b"\r\n\r\n", timeout)
    # the body follows; read to the end (Connection: close)
    s.settimeout(timeout)
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            r += b
    except OSError:
        pass
    s.close()
    return r


class Prober(threading.Thread):
    """The normal client: one probe every 100 ms, records answer latencies and failures."""

    def __init__(self, srv):
        super().__init__(daemon=True)
        self.srv = srv
        self.stop = threading.Event()
        self.reset()
        self.session = None
        if srv.kind == "serve":
            self.session = connect(srv.addr)
            self.session.sendall(b"isready\n")
            read_until(self.session, b"readyok", 5)

    def reset(self):
        self.lat, self.fail, self.refused, self.new_ok = [], 0, 0, 0

    def run(self):
        while not self.stop.is_set():
            t0 = time.perf_counter()
            try:
                if self.session:
                    self.session.sendall(b"isready\n")
                    ok = b"readyok" in read_until(self.session, b"readyok", 10)
                    # and a fresh connection, which may be refused at the cap
                    s = connect(self.srv.addr)
                    s.sendall(b"isready\n")
                    r = read_until(s, b"\n", 5)
                    s.close()
                    if b"readyok" in r:
                        self.new_ok += 1
                    elif b"too many connections" in r:
                        self.refused += 1
                else:
                    r = http(self.srv.addr)
                    ok = r.startswith(b"HTTP/1.1 200")
                    if r.startswith(b"HTTP/1.1 503"):
                        self.refused += 1
                        ok = None
            except OSError:
                ok = False
            dt = (time.perf_counter() - t0) * 1000
            if ok:
                self.lat.append(dt)
            elif ok is False:
                self.fail += 1
            time.sleep(0.1)

    def summary(self):
        l = sorted(self.lat)
        worst = l[-1] if l else float("nan")
        if self.session:
            return "normal client: %d isready answered on its session (worst %.1f ms), %d failed; new connections: %d answered, %d refused" % (
                len(l), worst, self.fail, self.new_ok, self.refused)
        return "normal client: %d requests answered 200 (worst %.1f ms), %d refused with 503, %d failed" % (
            len(l), worst, self.refused, self.fail)


def phase(name, srv, prober, fn):
    before = status(srv.p.pid)
    prober.reset()
    t0 = time.time()
    res = fn()
    print(f"== {name} ({time.time() - t0:.1f} s)")
    print("   " + res)
    print("   " + prober.summary())
    print("   server: before %s; after %s; %s" % (fmt(before), fmt(status(srv.p.pid)),
                                                "alive" if srv.alive() else "DEAD"))
    return srv.alive() and prober.fail == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["serve", "gui"])
    ap.add_argument("--tablero", default=default_tablero())
    ap.add_argument("--phase", type=float, default=12, help="seconds per phase")
    ap.add_argument("--conns", type=int, default=200)
    ap.add_argument("--slow", type=int, default=50)
    ap.add_argument("extra", nargs="*")
    a = ap.parse_args()
    require_binary(a.tablero, "netstress.py")
    srv = Server(a.kind, a.tablero, a.extra)
    print(f"tablero {a.kind} at {srv.addr[0]}:{srv.addr[1]}, pid {srv.p.pid}; start: {fmt(status(srv.p.pid))}")
    try:
        ok = attack(a, srv)
    finally:
        srv.p.kill()
        srv.p.wait()
    print("netstress %s: %s" % (a.kind, "OK" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


def attack(a, srv):
    prober = Prober(srv)
    prober.start()
    ok = True

    def many():
        socks, accepted, refused, other, errors = [], 0, 0, {}, 0
        for _ in range(a.conns):
            try:
                socks.append(connect(srv.addr))
            except OSError:
                errors += 1
        time.sleep(0.5)
        # which ones were refused (they got a line and were closed) and which are served
        for s in socks:
            try:
                if a.kind == "serve":
                    s.sendall(b"isready\n")
                    r = read_until(s, b"\n", 3)
                else:
                    s.sendall(f"GET /api/state HTTP/1.1\r\nHost: {srv.addr[0]}:{srv.addr[1]}\r\n\r\n".encode())
                    r = read_until(s, b"\r\n\r\n", 5)
            except OSError as e:
                r = b"<%s>" % type(e).__name__.encode()
            first = r.split(b"\n")[0].strip().decode(errors="replace")
            if b"readyok" in r or r.startswith(b"HTTP/1.1 200"):
                accepted += 1
            elif b"too many connections" in r or r.startswith(b"HTTP/1.1 503"):
                refused += 1
                msg = first if a.kind == "serve" else r.split(b"\r\n\r\n")[-1].strip().decode()
                other[msg] = other.get(msg, 0) + 1
            else:
                other[first or "<nothing>"] = other.get(first or "<nothing>", 0) + 1
        time.sleep(max(0, a.phase - 0.5))
        for s in socks:
            s.close()
        return "%d connections: %d answered, %d refused, %d connect errors; messages: %s" % (
            a.conns, accepted, refused, errors, other)

    def slow():
        done = {"answered": 0, "refused": 0, "closed": 0, "timeout msg": 0}
        lock = threading.Lock()
        req = b"isready\n" if a.kind == "serve" else \
            f"GET /api/state HTTP/1.1\r\nHost: {srv.addr[0]}:{srv.addr[1]}\r\n\r\n".encode()

        def one():
            try:
                s = connect(srv.addr, timeout=a.phase + 30)
                r = b""
                for i in range(len(req)):
                    try:
                        s.sendall(req[i:i + 1])
                    except OSError:
                        break  # refused: the server has closed it
                    time.sleep(1)
                    if time.time() > t_end:
                        break
                r = read_until(s, b"\n", 5)
                key = "answered" if (b"readyok" in r or r.startswith(b"HTTP/1.1 200")) else \
                    "refused" if (b"too many connections" in r or r.startswith(b"HTTP/1.1 503")) else \
                    ("timeout msg" if (b"408" in r or b"no input" in r) else "closed")
                s.close()
            except OSError:
                key = "closed"
            with lock:
                done[key] += 1
        t_end = time.time() + a.phase
        ts = [threading.Thread(target=one) for _ in range(a.slow)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        return "%d clients sending a byte a second: %s" % (a.slow, done)

    def huge():
        s = connect(srv.addr, timeout=60)
        big = b"x" * (10 * 1024 * 1024)
        t0 = time.perf_counter()
        try:
            if a.kind == "serve":
                s.sendall(big + b"\nisready\n")
                r = read_until(s, b"readyok", 30)
            else:
                s.sendall(b"GET /" + big + b" HTTP/1.1\r\nHost: x\r\n\r\n")
                r = read_until(s, b"\r\n\r\n", 30)
        except OSError as e:
            r = b"<%s> " % type(e).__name__.encode() + read_until(s, b"\n", 2)
        s.close()
        lines = [l for l in r.decode(errors="replace").splitlines() if l.strip()]
        return "10 MB line: answered in %.0f ms: %s" % ((time.perf_counter() - t0) * 1000, " | ".join(lines[:3])[:300])

    def halfclosed():
        res = {"answered": 0, "refused": 0, "none": 0}
        socks = []
        for i in range(a.conns):
            try:
                s = connect(srv.addr)
            except OSError:
                res["none"] += 1
                continue
            try:
                if a.kind == "serve":
                    s.sendall(b"setoption name UCI_Variant value connect4\nposition startpos\ngo depth 4\n")
                else:
                    s.sendall(f"GET /api/state HTTP/1.1\r\nHost: {srv.addr[0]}:{srv.addr[1]}\r\n\r\n".encode())
                s.shutdown(socket.SHUT_WR)
            except OSError:
                pass  # refused and closed by the server already; its line is read below
            socks.append(s)
        # half of them read their answers, the other half never read and just sit there
        for i, s in enumerate(socks):
            if i % 2 == 0:
                r = read_until(s, b"bestmove" if a.kind == "serve" else b"\r\n\r\n", 10)
                res["answered" if (b"bestmove" in r or r.startswith(b"HTTP/1.1 200")) else
                    "refused" if (b"too many connections" in r or r.startswith(b"HTTP/1.1 503")) else "none"] += 1
        time.sleep(a.phase)
        for s in socks:
            s.close()
        return "%d half-closed connections (request sent, then SHUT_WR; half never read): of the readers %s" % (
            a.conns, res)

    ok &= phase("200 concurrent connections", srv, prober, many)
    time.sleep(1)
    ok &= phase("slow clients", srv, prober, slow)
    time.sleep(1)
    ok &= phase("10 MB line", srv, prober, huge)
    time.sleep(1)
    ok &= phase("half-closed sockets", srv, prober, halfclosed)
    time.sleep(2)
    prober.stop.set()
    prober.join()
    print("end: %s, %s" % (fmt(status(srv.p.pid)), "alive" if srv.alive() else "DEAD"))
    return ok and srv.alive()


if __name__ == "__main__":
    main()
