#!/usr/bin/env python3
"""Plays 5-en-Raya Táctico games between two protocol engines, refereed by the course core.

    play.py REFEREE ENGINE1 ENGINE2 [--games N] [--depth D | --movetime MS] [--random-plies P]
            [--seed S] [--size ROWS,COLUMNS,INAROW] [--option1 NAME=VALUE]... [--option2 NAME=VALUE]...
            [--timeout MS] [--records FILE] [--log DIR]

Until tablero plays enraya itself (`tablero match --game enraya`), this small referee lets bridged
students play each other. REFEREE is any engine built by build.sh: only its `d` (the course core's
view: legal moves, game over, result) is used, so the rules are the course's own. Games come in
colour-swapped pairs from the same opening (P random legal plies, seeded). Every ply sends
`position startpos moves …` and `go` to the engine to move (also when its only move is `pass`:
the bridge answers it without asking the student); a reply that is not one of the core's legal
moves loses the game (`illegal`), an engine that exits or does not answer within --timeout loses
it (`crash`, `time`). An engine's `info string error` lines are counted and logged.

Records are tablero's records format (a `match` header with the variant options, then one
`match-game` line per game), so scripts/bridge/enraya/crosscheck.py and `tablero report` read them.
Prints one line per game and a summary.
"""
import argparse
import json
import os
import random
import select
import subprocess
import sys
import time


class Engine:
    def __init__(self, cmd, name, log):
        self.name = name
        self.cmd = cmd
        self.log = log
        self.errors = 0
        self.p = None

    def start(self, options, size):
        err = open(self.log + ".stderr", "a") if self.log else subprocess.DEVNULL
        self.p = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                  text=True, bufsize=1)
        self.buf = b""
        rows, cols, n = size
        self.send("setoption name UCI_Variant value enraya", f"setoption name Rows value {rows}",
                  f"setoption name Columns value {cols}", f"setoption name InARow value {n}")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        return self.wait_for("readyok", 30000)

    def alive(self):
        return self.p is not None and self.p.poll() is None

    def send(self, *lines):
        text = "".join(line + "\n" for line in lines)
        if self.log:
            with open(self.log, "a") as f:
                f.write("".join("> " + line + "\n" for line in lines))
        try:
            self.p.stdin.write(text)
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def read(self, timeout_ms):
        """One line, or None at the end of output or after timeout_ms (then 'timeout')."""
        end = time.monotonic() + timeout_ms / 1000
        fd = self.p.stdout.fileno()
        while b"\n" not in self.buf:
            left = end - time.monotonic()
            if left <= 0:
                return "timeout"
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\n", 1)
        line = raw.decode("utf-8", "replace").rstrip("\r")
        if self.log:
            with open(self.log, "a") as f:
                f.write("< " + line + "\n")
        if line.startswith("info string error"):
            self.errors += 1
        return line

    def wait_for(self, prefix, timeout_ms):
        while True:
            line = self.read(timeout_ms)
            if line is None or line == "timeout":
                return line
            if line.startswith(prefix):
                return line

    def stop(self):
        if self.p:
            self.send("quit")
            try:
                self.p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.p.kill()
            self.p = None


def core_view(ref, moves):
    """The course core's view: (legal moves, over, result, player to move 1 or 2)."""
    ref.send("position startpos" + (" moves " + " ".join(moves) if moves else ""), "d", "isready")
    course = None
    while True:
        line = ref.read(30000)
        if line in (None, "timeout"):
            raise SystemExit("the referee engine stopped answering")
        if line == "readyok":
            break
        if line.startswith("info string error"):
            raise SystemExit(f"the referee refused the game so far ({' '.join(moves)}): {line}")
        if line.startswith("course "):
            course = line.split()
    kv = dict(f.split("=", 1) for f in course[6:])
    legal = [] if kv["legal"] == "-" else kv["legal"].split(";")
    return legal, kv["over"] == "1", kv["result"], 1 if course[2] == "x" else 2


def option_pairs(items):
    out = []
    for item in items or []:
        if "=" not in item:
            raise SystemExit(f"expected NAME=VALUE, got '{item}'")
        name, value = item.split("=", 1)
        out.append((name.strip(), value.strip()))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("referee")
    ap.add_argument("engine1")
    ap.add_argument("engine2")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--movetime", type=int)
    ap.add_argument("--random-plies", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--size", default="9,9,5")
    ap.add_argument("--option1", action="append")
    ap.add_argument("--option2", action="append")
    ap.add_argument("--timeout", type=int, default=600000, help="ms for a reply when no movetime applies")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--records")
    ap.add_argument("--log")
    a = ap.parse_args()
    size = tuple(int(x) for x in a.size.split(","))
    if len(size) != 3:
        raise SystemExit("--size takes ROWS,COLUMNS,INAROW")
    go = f"go depth {a.depth}" if a.depth else f"go movetime {a.movetime}" if a.movetime else "go"
    reply_ms = a.movetime + 5000 if a.movetime else a.timeout
    if a.log:
        os.makedirs(a.log, exist_ok=True)
    names = [os.path.basename(a.engine1.split()[0]), os.path.basename(a.engine2.split()[0])]
    if names[0] == names[1]:
        names = [names[0] + "-1", names[1] + "-2"]
    opts = [option_pairs(a.option1), option_pairs(a.option2)]
    ref = Engine([a.referee], "referee", None)
    if ref.start([], size) != "readyok":
        raise SystemExit(f"the referee '{a.referee}' did not start")
    rng = random.Random(a.seed)
    rec = open(a.records, "w") if a.records else None
    if rec:
        rec.write(json.dumps({"kind": "match", "version": 1, "settings": {
            "variant": "enraya", "options": [["Rows", size[0]], ["Columns", size[1]], ["InARow", size[2]]],
            "limits": go, "engines": names, "driver": "scripts/bridge/enraya/play.py"}}) + "\n")
    tally = {names[0]: [0, 0, 0], names[1]: [0, 0, 0]}
    reasons = {}
    times = []
    opening = []
    for g in range(a.games):
        if g % 2 == 0:
            opening = []
            for _ in range(a.random_plies):
                legal, over, _, _ = core_view(ref, opening)
                if over:
                    break
                opening.append(rng.choice(legal))
        first = g % 2  # engine index that moves first
        engines = []
        for i in (0, 1):
            log = os.path.join(a.log, f"game{g}-{names[i]}.log") if a.log else None
            e = Engine(a.engine1.split() if i == 0 else a.engine2.split(), names[i], log)
            if e.start(opts[i], size) != "readyok":
                raise SystemExit(f"engine '{names[i]}' did not start")
            e.send("ucinewgame")
            engines.append(e)
        moves = list(opening)
        played = []
        winner, reason, detail = None, "normal", ""
        while True:
            legal, over, result, mover_seat = core_view(ref, moves)
            if over:
                winner = None if result == "draw" else (first if result == "1" else 1 - first)
                break
            if len(played) >= a.max_plies:
                reason, detail = "max_plies", f"no result after {a.max_plies} plies"
                break
            # Player 1 (x) is the engine that moves first; the core says whose turn it is.
            mover = first if mover_seat == 1 else 1 - first
            e = engines[mover]
            e.send("position startpos" + (" moves " + " ".join(moves) if moves else ""), go)
            t0 = time.monotonic()
            line = e.wait_for("bestmove", reply_ms)
            ms = int((time.monotonic() - t0) * 1000)
            if line is None:
                winner, reason, detail = 1 - mover, "crash", f"{e.name} exited"
                break
            if line == "timeout":
                winner, reason, detail = 1 - mover, "time", f"{e.name}: no bestmove within {reply_ms} ms"
                break
            mv = line.split()[1] if len(line.split()) > 1 else ""
            if mv not in legal:
                winner, reason, detail = 1 - mover, "illegal", f"{e.name} played '{mv}', not in the core's legal moves"
                break
            times.append(ms)
            moves.append(mv)
            played.append({"move": mv, "ms": ms})
        for e in engines:
            e.stop()
        reasons[reason] = reasons.get(reason, 0) + 1
        if winner is None:
            tally[names[0]][1] += 1
            tally[names[1]][1] += 1
            res = "1/2-1/2"
        else:
            tally[names[winner]][0] += 1
            tally[names[1 - winner]][2] += 1
            res = "1-0" if winner == first else "0-1"
        print(f"game {g}: {names[first]} - {names[1 - first]} {res} ({reason}{': ' + detail if detail else ''}), "
              f"{len(played)} plies", flush=True)
        if rec:
            rec.write(json.dumps({"kind": "match-game", "game": g, "pair": g // 2, "variant": "enraya",
                                  "first": names[first], "second": names[1 - first], "first_engine": first + 1,
                                  "opening": {"base": "startpos", "moves": opening}, "moves": played,
                                  "result": res, "winner": None if winner is None else winner + 1,
                                  "reason": reason, "detail": detail,
                                  "errors": [engines[0].errors, engines[1].errors]}) + "\n")
            rec.flush()
    ref.stop()
    w, d, l = tally[names[0]]
    times.sort()
    med = times[len(times) // 2] if times else 0
    print(f"{names[0]} vs {names[1]}: {w}-{d}-{l} (W-D-L of {names[0]}); ended by: "
          + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
          + f"; {len(times)} moves, median {med} ms, max {times[-1] if times else 0} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
