#!/usr/bin/env python3
# The `go infinite`/`stop` storm: one engine process, for SECONDS, random positions of all four
# games (random legal play through the protocol's own `position` + `moves`), `go infinite`, then
# `stop` after a random 0-50 ms. Every `stop` must be answered by exactly one `bestmove` within
# --timeout seconds (else: a hang, reported, exit 1); now and then `isready` must get `readyok`.
# A `bestmove` before the `stop`, a second one, an error line or a dead engine is a failure too.
# Usage: scripts/storm.py SECONDS [--tablero PATH] [--seed N] [--timeout S]
import argparse, os, queue, random, subprocess, sys, threading, time

GAMES = ["parchis", "connect4boom", "connect4", "mancala", "enraya"]
# `isready` may first build Mancala's endgame table (0.4 s of CPU once per process; seconds of
# wall time on a loaded machine), so it gets longer than a `stop` before it counts as unanswered.
READY_TIMEOUT = 30


def default_tablero():
    """The release binary of the checkout this script belongs to, wherever it is run from."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "target", "release", "tablero")


def require_binary(path, script):
    """One clear line instead of a traceback when the binary is missing."""
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        sys.exit(f"{script}: no tablero binary at {path}: build it with `cargo build --release` "
                 "or give its path (--tablero PATH)")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("seconds", type=float)
    ap.add_argument("--tablero", default=default_tablero())
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=5.0, help="a stop unanswered this long is a hang")
    a = ap.parse_args()
    require_binary(a.tablero, "storm.py")
    rng = random.Random(a.seed)
    p = subprocess.Popen([a.tablero], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    lines = queue.Queue()

    def reader():
        for l in p.stdout:
            lines.put((time.perf_counter(), l.rstrip("\n")))
        lines.put((time.perf_counter(), None))

    threading.Thread(target=reader, daemon=True).start()
    c = dict(cycles=0, slow=0, hangs=0, missing=0, extra=0, early=0, errors=0, isready=0, readyok_missing=0,
             per_game={g: 0 for g in GAMES})
    lat = []
    worst = (0.0, "", "")
    slow_by_game = {}
    failures = []
    hanglog = []

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait_for(pred, timeout):
        """Reads lines until pred(line) is true; returns (time, line) or None on timeout/EOF.
        Unexpected `bestmove` and error lines seen on the way are counted."""
        end = time.perf_counter() + timeout
        while True:
            left = end - time.perf_counter()
            if left <= 0:
                return None
            try:
                t, l = lines.get(timeout=left)
            except queue.Empty:
                return None
            if l is None:
                failures.append("engine exited (code %s)" % p.poll())
                return None
            if pred(l):
                return t, l
            if l.startswith("bestmove"):
                c["extra"] += 1
                failures.append("unexpected line: " + l)
            elif l.startswith("info string error"):
                c["errors"] += 1
                failures.append(l)

    game, hist = None, []
    t_end = time.perf_counter() + a.seconds
    while time.perf_counter() < t_end:
        g = rng.choice(GAMES)
        if g != game or rng.random() < 0.15:
            game, hist = g, []
            send("setoption name UCI_Variant value " + g)
        # a few random legal plies from the current line of play
        for _ in range(rng.randint(0, 6)):
            send("position startpos" + (" moves " + " ".join(hist) if hist else ""))
            send("moves")
            r = wait_for(lambda l: l.startswith("moves"), a.timeout)
            if r is None:
                failures.append(time.strftime("%H:%M:%S ") + "no answer to 'moves'")
                break
            legal = r[1].split()[1:]
            if not legal:
                hist = []
                break
            hist.append(rng.choice(legal))
        if failures:
            break
        send("position startpos" + (" moves " + " ".join(hist) if hist else ""))
        send("go infinite")
        time.sleep(rng.uniform(0, 0.050))
        # nothing may come but info lines before the stop
        while True:
            try:
                _, l = lines.get_nowait()
            except queue.Empty:
                break
            if l is None:
                failures.append("engine exited")
                break
            if l.startswith("bestmove"):
                c["early"] += 1
                failures.append("bestmove before stop: " + l)
            elif l.startswith("info string error"):
                c["errors"] += 1
                failures.append(l)
        t0 = time.perf_counter()
        send("stop")
        r = wait_for(lambda l: l.startswith("bestmove"), a.timeout)
        if r is None:
            # A hang. Wait a minute more to tell a very late answer (the storm goes on) from
            # a stuck engine (the storm ends).
            c["hangs"] += 1
            hanglog.append(time.strftime("%H:%M:%S ") + "hang: no bestmove %.1f s after stop (%s, position startpos moves %s)"
                            % (a.timeout, game, " ".join(hist)))
            r = wait_for(lambda l: l.startswith("bestmove"), 60)
            if r is None:
                c["missing"] += 1
                failures.append(time.strftime("%H:%M:%S ") + "no bestmove at all 60 s later")
                break
            hanglog.append("... its bestmove came %.1f s after the stop" % (r[0] - t0))
        lat.append((r[0] - t0) * 1000)
        if lat[-1] > worst[0]:
            worst = (lat[-1], game, " ".join(hist))
        if lat[-1] > 100:
            c["slow"] += 1
            slow_by_game[game] = slow_by_game.get(game, 0) + 1
        c["cycles"] += 1
        c["per_game"][game] += 1
        # the isready check also catches a second bestmove for this stop (counted as extra)
        if rng.random() < 0.1:
            c["isready"] += 1
            send("isready")
            if wait_for(lambda l: l == "readyok", READY_TIMEOUT) is None:
                c["readyok_missing"] += 1
                failures.append("isready unanswered")
                break
        if failures:
            break
    # a final isready flushes out any late extra bestmove
    send("isready")
    if wait_for(lambda l: l == "readyok", READY_TIMEOUT) is None:
        c["readyok_missing"] += 1
        failures.append("final isready unanswered")
    send("quit")
    try:
        p.wait(timeout=a.timeout)
    except subprocess.TimeoutExpired:
        failures.append("engine did not exit after quit")
        p.kill()
    lat.sort()
    q = lambda f: lat[min(len(lat) - 1, int(f * len(lat)))] if lat else float("nan")
    print("storm: %.0f s, seed %d, %d cycles (%s)" % (a.seconds, a.seed, c["cycles"],
          ", ".join("%s %d" % kv for kv in c["per_game"].items())))
    print("hangs %d, missing bestmoves %d, extra bestmoves %d, bestmoves before stop %d, error lines %d, "
          "isready %d (unanswered %d)" % (c["hangs"], c["missing"], c["extra"], c["early"], c["errors"],
                                          c["isready"], c["readyok_missing"]))
    print("stop->bestmove ms: median %.2f, p99 %.2f, p99.9 %.2f, max %.2f" % (q(0.5), q(0.99), q(0.999), lat[-1] if lat else float("nan")))
    print("stops answered after more than 100 ms: %d %s" % (c["slow"], slow_by_game))
    print("slowest: %.1f ms, %s, position startpos moves %s" % worst)
    for f in hanglog[:20] + failures:
        print("FAIL:", f)
    sys.exit(1 if failures or hanglog else 0)


if __name__ == "__main__":
    main()
