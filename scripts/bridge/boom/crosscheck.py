#!/usr/bin/env python3
"""Cross-checks tablero's Conecta-4 BOOM rules against the course core, position by position.

    crosscheck.py RECORDS.jsonl BRIDGED_ENGINE [TABLERO]
    crosscheck.py --golden CORE_TRACES.jsonl BRIDGED_ENGINE

For every game of a `tablero match --records` file (game connect4boom) and every ply of it
(opening included), sends `position startpos moves …` to tablero (`d`, `moves`) and to an engine
built by scripts/bridge/boom/build.sh (`d`), and compares: the board, the side to move and the
movement number (tablero's state string), the set of legal movements, whether the game is over
and who won, which players hold a bomb, the turn counter and whether the next PUT places a bomb.
The course core's movement counter is private: the bridge reports the number of movements it
accepted, so that field checks tablero's counter against the replay. Prints one line per game
with a disagreement (its first one) and a summary; exit 1 if any.

With --golden, checks the bridged engine itself against games recorded from the course core
(tests/golden/boom/core_traces.jsonl.gz, read compressed or not: one line per ply with fen,
legal, over, result, bombs, turn, bombnow): every line must equal the engine's `d` after replaying the game up to that ply.
"""
import gzip
import json
import re
import subprocess
import sys


class Engine:
    def __init__(self, cmd, setup):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send(setup)

    def send(self, text):
        self.p.stdin.write(text)
        self.p.stdin.flush()

    def lines(self, moves, queries):
        """The reply lines to `position startpos moves …` and `queries`, up to `readyok`."""
        pos = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        self.send(pos + "\n" + queries + "isready\n")
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("engine exited")
            line = line.strip()
            if line == "readyok":
                return out
            out.append(line)

    def close(self):
        self.send("quit\n")
        self.p.wait()


def tablero_state(lines):
    s = {"errors": [l for l in lines if l.startswith("info string error")]}
    for l in lines:
        if l.startswith("fen: "):
            s["fen"] = l[5:]
        elif l.startswith("moves"):
            s["legal"] = sorted(l.split()[1:])
        elif l.startswith("game over: "):
            t = l[len("game over: "):]
            s["result"] = "first" if t.startswith("first") else "second" if t.startswith("second") else "draw"
        else:
            m = re.match(r"^[xo] to move: movement \d+, turn (\d+)", l)
            if m:
                s["turn"] = m.group(1)
    s.setdefault("result", "-")
    if "fen" in s:
        rows, side = s["fen"].split()[0], s["fen"].split()[1]
        s["bombs"] = f"{int('X' in rows)},{int('O' in rows)}"
        if "turn" in s:
            own = "X" if side == "x" else "O"
            s["bombnow"] = str(int(int(s["turn"]) % 4 == 0 and own not in rows))
    return s


def course_state(lines):
    s = {"errors": [l for l in lines if l.startswith("info string error")]}
    for l in lines:
        if l.startswith("course "):
            f = l[len("course "):].split()
            s["fen"] = " ".join(f[:3])
            kv = dict(x.split("=", 1) for x in f[3:])
            s["legal"] = sorted(kv["legal"].split(",")) if kv["legal"] != "-" else []
            s["result"] = kv["result"] if kv["over"] == "1" else "-"
            s["bombs"] = kv["bombs"]
            if kv["over"] == "0":
                s["turn"] = kv["turn"]
                s["bombnow"] = kv["bombnow"]
    return s


def compare(t, c):
    problems = t["errors"] + c["errors"]
    for key in ("fen", "legal", "result", "bombs", "turn", "bombnow"):
        if t.get(key) != c.get(key):
            problems.append(f"{key}: tablero {t.get(key)} course {c.get(key)}")
    return problems


def golden(traces, bridged):
    games = {}
    with (gzip.open(traces, "rt") if traces.endswith(".gz") else open(traces)) as f:
        for line in f:
            r = json.loads(line)
            games.setdefault(r["game"], []).append(r)
    eng = Engine([bridged], "")
    lines = bad = 0
    for g, plies in games.items():
        moves = []
        for r in plies:
            if r["move"] is not None:
                moves.append(r["move"])
            out = eng.lines(moves, "d\n")
            lines += 1
            got = [l[len("course "):].split() for l in out if l.startswith("course ")]
            errors = [l for l in out if l.startswith("info string error")]
            want = {"fen": r["fen"], "legal": ",".join(r["legal"]) or "-", "over": "1" if r["over"] else "0",
                    "result": r["result"], "bombs": r["bombs"], "turn": r["turn"], "bombnow": r["bombnow"]}
            have = {}
            if got:
                have = dict(x.split("=", 1) for x in got[0][3:])
                have["fen"] = " ".join(got[0][:3])
            diffs = errors + [f"{k}: core {want[k]} bridge {have.get(k)}" for k in want if want[k] != have.get(k)]
            if diffs:
                bad += 1
                print(f"game {g} ply {r['ply']}: " + "; ".join(diffs))
                break
    eng.close()
    print(f"golden: {len(games)} games, {lines} lines compared, {bad} games with a difference")
    return 1 if bad else 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--golden":
        return golden(sys.argv[2], sys.argv[3])
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    records, bridged = sys.argv[1], sys.argv[2]
    tablero = sys.argv[3] if len(sys.argv) == 4 else "tablero"
    t_eng = Engine([tablero], "setoption name UCI_Variant value connect4boom\n")
    c_eng = Engine([bridged], "")
    games = positions = bad = 0
    with open(records) as f:
        for line in f:
            rec = json.loads(line)
            if rec.get("opening", {}).get("base", "startpos") != "startpos":
                continue
            moves = rec["opening"]["moves"] + [m["move"] for m in rec["moves"]]
            games += 1
            for k in range(len(moves) + 1):
                t = tablero_state(t_eng.lines(moves[:k], "d\nmoves\n"))
                c = course_state(c_eng.lines(moves[:k], "d\n"))
                positions += 1
                problems = compare(t, c)
                if problems:
                    bad += 1
                    print(f"game {rec['game']} ply {k}: " + "; ".join(problems))
                    break
    t_eng.close()
    c_eng.close()
    print(f"crosscheck: {games} games, {positions} positions compared, {bad} games with a disagreement")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
