#!/usr/bin/env python3
"""Cross-checks tablero's 5-en-Raya Táctico rules against the course core, position by position.

    crosscheck.py RECORDS.jsonl BRIDGED_ENGINE [TABLERO]
    crosscheck.py --golden TRACES.jsonl BRIDGED_ENGINE

RECORDS: for every game of a `tablero match --records` file (or of scripts/bridge/enraya/play.py's
records) and every ply of it (opening included), sends `position … moves …`, `d` and `moves` to
tablero and to an engine built by build.sh, and compares tablero's state string and legal moves
with the course core's (the bridged engine's `course` line): grid, player to move, placements
left, phase, turn counter, the set of legal moves (`pass` when the player has none, nothing when
the game is over) and, at the end, the result.

--golden: checks a bridged engine itself against games recorded from the course core
(tests/golden/enraya/core_traces.jsonl, read from its .gz): every line of the traces must equal the engine's
`course` line after replaying the game up to that ply (grid, player, left, phase, turn, over,
result and the legal moves in the core's order).

Prints one line per game with a disagreement and a summary; exit 1 if any.
"""
import gzip
import json
import os
import subprocess
import sys


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.size = None

    def send(self, *lines):
        self.p.stdin.write("".join(line + "\n" for line in lines))
        self.p.stdin.flush()

    def set_size(self, size):
        if size == self.size:
            return
        rows, cols, n = size
        self.send("setoption name UCI_Variant value enraya", f"setoption name Rows value {rows}",
                  f"setoption name Columns value {cols}", f"setoption name InARow value {n}")
        self.size = size

    def view(self, base, moves):
        """(fen fields, course line fields or None, legal moves or None, error lines)."""
        pos = "position " + base + (" moves " + " ".join(moves) if moves else "")
        self.send(pos, "d", "moves", "isready")
        fen = course = legal = None
        errors = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("engine exited")
            line = line.strip()
            if line == "readyok":
                return fen, course, legal, errors
            if line.startswith("info string error"):
                errors.append(line)
            elif line.startswith("fen: "):
                fen = line[5:].split()
            elif line.startswith("course "):
                course = line[7:].split()
            elif line == "moves" or line.startswith("moves "):
                legal = line.split()[1:]

    def close(self):
        self.send("quit")
        self.p.wait()


def course_fields(course):
    """The course line's fen (5 fields) and its key=value fields."""
    return course[:5], dict(f.split("=", 1) for f in course[5:])


def golden(traces, bridged):
    eng = Engine([bridged])
    games = lines = bad = 0
    current, moves, failed = None, [], False
    # The repository keeps large golden files gzip-compressed (tests/golden/enraya/core_traces.jsonl.gz).
    if not os.path.exists(traces) and os.path.exists(traces + ".gz"):
        traces += ".gz"
    opener = gzip.open if traces.endswith(".gz") else open
    with opener(traces, "rt") as f:
        for raw in f:
            t = json.loads(raw)
            if t["game"] != current:
                current, moves, failed = t["game"], [], False
                games += 1
                eng.set_size(tuple(t["size"]))
            if t["move"] is not None:
                moves.append(t["move"])
            if failed:
                continue
            lines += 1
            _, course, _, errors = eng.view("startpos", moves)
            problems = list(errors)
            if course is None:
                problems.append("no course line")
            else:
                fen, kv = course_fields(course)
                grid = expand(fen[0])
                if grid != t["grid"]:
                    problems.append(f"grid: course {grid} golden {t['grid']}")
                player = {"x": 1, "o": 2}.get(fen[1])
                for name, got, exp in (("player", player, t["player"]), ("left", int(fen[2]), t["left"]),
                                       ("phase", int(fen[3]), t["phase"]), ("turn", int(fen[4]), t["turn"])):
                    if got != exp:
                        problems.append(f"{name}: course {got} golden {exp}")
                legal = [] if kv.get("legal") == "-" else kv.get("legal", "").split(";")
                if legal != t["legal"]:
                    problems.append(f"legal: course {legal} golden {t['legal']}")
                if (kv.get("over") == "1") != t["over"] or kv.get("result") != t["result"]:
                    problems.append(f"over/result: course {kv.get('over')}/{kv.get('result')} "
                                    f"golden {t['over']}/{t['result']}")
            if problems:
                bad += 1
                failed = True
                print(f"game {t['game']} ply {t['ply']}: " + "; ".join(problems))
    eng.close()
    print(f"golden: {games} games, {lines} lines compared, {bad} games with a difference")
    return 1 if bad else 0


def expand(grid):
    """A state string's grid with '.' for every empty cell (the traces' spelling)."""
    out, n = [], ""
    for ch in grid + "/":
        if ch.isdigit():
            n += ch
            continue
        if n:
            out.append("." * int(n))
            n = ""
        out.append(ch)
    return "".join(out)[:-1]


def records(path, bridged, tablero):
    t_eng, c_eng = Engine([tablero]), Engine([bridged])
    games = positions = bad = 0
    size = (9, 9, 5)
    with open(path) as f:
        for raw in f:
            rec = json.loads(raw)
            if rec.get("kind") in ("match", "tournament"):
                # The header: the variant options the games were played with.
                opts = {n.lower(): v for n, v in rec.get("settings", {}).get("options", [])}
                size = (int(opts.get("rows", 9)), int(opts.get("columns", 9)), int(opts.get("inarow", 5)))
                continue
            if not isinstance(rec.get("moves"), list):
                continue
            t_eng.set_size(size)
            c_eng.set_size(size)
            opening = rec.get("opening", {})
            base = opening.get("base", "startpos")
            moves = list(opening.get("moves", [])) + [m["move"] for m in rec["moves"]]
            games += 1
            for k in range(len(moves) + 1):
                tfen, _, tlegal, terr = t_eng.view(base, moves[:k])
                _, course, clegal, cerr = c_eng.view(base, moves[:k])
                positions += 1
                problems = terr + cerr
                if tfen is None or course is None or tlegal is None or clegal is None:
                    problems.append("no state")
                else:
                    cfen, kv = course_fields(course)
                    if tfen != cfen:
                        problems.append(f"fen: tablero {' '.join(tfen)} course {' '.join(cfen)}")
                    if sorted(tlegal) != sorted(clegal):
                        problems.append(f"legal: tablero {tlegal} course {clegal}")
                if problems:
                    bad += 1
                    print(f"game {rec.get('game')} ply {k}: " + "; ".join(problems))
                    break
    t_eng.close()
    c_eng.close()
    print(f"crosscheck: {games} games, {positions} positions compared, {bad} games with a disagreement")
    return 1 if bad else 0


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "--golden":
        return golden(args[1], args[2])
    if len(args) in (2, 3) and not args[0].startswith("-"):
        return records(args[0], args[1], args[2] if len(args) == 3 else "tablero")
    print("usage: crosscheck.py RECORDS.jsonl BRIDGED_ENGINE [TABLERO]\n"
          "       crosscheck.py --golden TRACES.jsonl BRIDGED_ENGINE", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
