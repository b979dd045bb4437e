#!/usr/bin/env python3
"""Cross-checks tablero's Parchís rules against the course core, position by position.

    crosscheck.py RECORDS.jsonl BRIDGED_ENGINE [TABLERO]

For every game of a `tablero match --records` file and every ply of it (opening included), sends
`position startpos moves …` + `d` to tablero and to an engine built by build.sh, and compares
tablero's state string with the course core's: mode, player to move, turn, every piece (box, type,
counter), both players' dice, items in hand and bonus dice, the items left on the board, traps,
bounce counters, the eating/goal flags and whether (and by which colour) the game is won. The
course keeps remember_6 and bananed private, so those two flags are checked only through their
effect on who moves next. Prints one line per disagreement and a summary; exit 1 if any.
"""
import json
import subprocess
import sys


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def state(self, moves, prefix):
        pos = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        self.p.stdin.write(pos + "\nd\nisready\n")
        self.p.stdin.flush()
        found, errors = None, []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("engine exited")
            line = line.strip()
            if line == "readyok":
                return found, errors
            if line.startswith("info string error"):
                errors.append(line)
            if line.startswith(prefix):
                found = line[len(prefix):].split()

    def close(self):
        self.p.stdin.write("quit\n")
        self.p.stdin.flush()
        self.p.wait()


NAMES = ["mode", "player", "turn", "pieces", "dice0", "dice1", "board items", "traps", "bounces"]


def compare(t, c):
    """Differences between tablero's fields `t` and the course's `c` (lists of fields)."""
    diffs = [f"{n}: tablero {t[i]} course {c[i]}" for i, n in enumerate(NAMES) if t[i] != c[i]]
    tflags = "".join(x for x in t[9] if x in "eg") or "-"
    if tflags != c[9]:
        diffs.append(f"flags e/g: tablero {t[9]} course {c[9]}")
    if (t[10] == "-") != (c[10] == "-") or (t[10].startswith("G") and t[10] != c[10]):
        diffs.append(f"outcome: tablero {t[10]} course {c[10]}")
    return diffs


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    records, bridged = sys.argv[1], sys.argv[2]
    tablero = sys.argv[3] if len(sys.argv) == 4 else "tablero"
    t_eng, c_eng = Engine([tablero]), Engine([bridged])
    games = positions = bad = 0
    with open(records) as f:
        for line in f:
            rec = json.loads(line)
            if rec.get("opening", {}).get("base", "startpos") != "startpos":
                continue
            moves = rec["opening"]["moves"] + [m["move"] for m in rec["moves"]]
            games += 1
            for k in range(len(moves) + 1):
                t, terr = t_eng.state(moves[:k], "fen: ")
                c, cerr = c_eng.state(moves[:k], "course ")
                positions += 1
                problems = terr + cerr
                if t is None or c is None:
                    problems.append("no state")
                else:
                    problems += compare(t, c)
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
