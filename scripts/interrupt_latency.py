#!/usr/bin/env python3
# Measures how long `stop` and `quit` take to end long work (perft, solve, searches): starts
# the engine, lets the work run for a second, sends the command and times the stopped line
# (or the exit). Usage: scripts/interrupt_latency.py [TABLERO] (default target/release/tablero).
import os, subprocess, sys, time
def default_tablero():
    """The release binary of the checkout this script belongs to, wherever it is run from."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "target", "release", "tablero")


def require_binary(path, script):
    """One clear line instead of a traceback when the binary is missing."""
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        sys.exit(f"{script}: no tablero binary at {path}: build it with `cargo build --release` "
                 "or give its path (first argument)")


T = sys.argv[1] if len(sys.argv) > 1 else default_tablero()
require_binary(T, "interrupt_latency.py")
def run(setup, cmd, waitword, stopcmd="stop", delay=1.0):
    p = subprocess.Popen([T], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    for l in setup: p.stdin.write(l + "\n")
    p.stdin.write(cmd + "\n"); p.stdin.flush()
    time.sleep(delay)
    t0 = time.perf_counter()
    p.stdin.write(stopcmd + "\n"); p.stdin.flush()
    if stopcmd == "quit":
        p.wait(); dt = time.perf_counter() - t0; line = "exit %d" % p.returncode
    else:
        while True:
            line = p.stdout.readline()
            if waitword in line or not line: break
        dt = time.perf_counter() - t0
        p.stdin.write("quit\n"); p.stdin.flush(); p.wait()
    return dt * 1000, line.strip()
for name, setup, cmd, word, stop in [
    ("parchis perft 7 / stop", [], "perft 7", "perft stopped", "stop"),
    ("parchis perft 7 / quit", [], "perft 7", "", "quit"),
    ("connect4 solve empty / stop", ["setoption name UCI_Variant value connect4"], "solve", "solve stopped", "stop"),
    ("connect4 solve empty / quit", ["setoption name UCI_Variant value connect4"], "solve", "", "quit"),
    ("mancala solve 6,4 / stop", ["setoption name UCI_Variant value mancala"], "solve", "solve stopped", "stop"),
    ("mancala solve 6,4 / quit", ["setoption name UCI_Variant value mancala"], "solve", "", "quit"),
    ("connect4 go / quit", ["setoption name UCI_Variant value connect4"], "go", "", "quit"),
    ("parchis go infinite / stop", [], "go infinite", "bestmove", "stop"),
]:
    res = [run(setup, cmd, word, stop) for _ in range(3)]
    print(f"{name:32s} " + "  ".join(f"{d:6.1f} ms" for d, _ in res), "|", res[0][1][:70])
