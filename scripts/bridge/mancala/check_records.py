#!/usr/bin/env python3
"""Rule check of refereed Mancala games against the course's own game core.

  check_records.py COURSE_DIR TABLERO RECORDS...

COURSE_DIR holds the course's GameState.h and GameState.cpp (e.g. the course material's
MancalaEngine/ folder, or any student's bot folder built on it). TABLERO is the tablero binary.
RECORDS are `tablero match`/`tournament` records files (JSON lines) of Mancala games.

Every game (opening moves, then the moves played) is replayed twice: in the course's core
(core_replay.cpp, compiled here with g++ into a temporary folder) and in tablero's rules (one
protocol session: `position startpos moves ...`, `d`, `moves` after every ply). Both give, after
every ply, the state string and the pits the mover may sow; any difference is a disagreement.
Prints the totals and the first disagreements; exit status 1 if there is any.
"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def games_of(paths):
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                if r.get("variant") != "mancala" or "moves" not in r:
                    continue
                opening = r.get("opening", {})
                if opening.get("base", "startpos") != "startpos":
                    sys.exit(f"{path}: game {r.get('game')} starts from a fen; only the start is checked")
                moves = list(opening.get("moves", [])) + [m["move"] for m in r["moves"]]
                yield f"{os.path.basename(path)} game {r.get('game')}", moves


def core_views(course_dir, games):
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "core_replay")
        subprocess.run(
            ["g++", "-O1", "-std=c++11", "-I", course_dir, "-o", exe,
             os.path.join(HERE, "core_replay.cpp"), os.path.join(course_dir, "GameState.cpp")],
            check=True,
        )
        text = "".join(" ".join(m) + "\n" for _, m in games)
        out = subprocess.run([exe], input=text, capture_output=True, text=True, check=True).stdout
    return [line.split(" | ") for line in out.splitlines()]


def tablero_views(tablero, games):
    p = subprocess.Popen([tablero, "--game", "mancala"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)
    views = []
    for _, moves in games:
        seen = []
        for k in range(len(moves) + 1):
            p.stdin.write(f"position startpos moves {' '.join(moves[:k])}\nd\nmoves\n")
            p.stdin.flush()
            fen = None
            while True:
                line = p.stdout.readline()
                if not line:
                    sys.exit("tablero ended")
                line = line.rstrip("\n")
                if line.startswith("info string error"):
                    seen.append("ILLEGAL " + moves[k - 1])
                    break
                if line.startswith("fen: "):
                    fen = line[5:]
                if line == "moves" or line.startswith("moves "):
                    legal = sorted(line.split()[1:], key=int)
                    seen.append(f"{fen} [{' '.join(legal)}]")
                    break
            if seen[-1].startswith("ILLEGAL"):
                break
        views.append(seen)
    p.stdin.close()
    p.wait()
    return views


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    course_dir, tablero, records = sys.argv[1], sys.argv[2], sys.argv[3:]
    games = list(games_of(records))
    core = core_views(course_dir, games)
    ours = tablero_views(tablero, games)
    plies = disagreements = 0
    for (name, _), a, b in zip(games, core, ours):
        plies += len(a) - 1
        if a != b:
            disagreements += 1
            if disagreements <= 5:
                k = next(i for i in range(max(len(a), len(b)))
                         if i >= len(a) or i >= len(b) or a[i] != b[i])
                print(f"{name}, ply {k}: core {a[k] if k < len(a) else '-'}; "
                      f"tablero {b[k] if k < len(b) else '-'}")
    print(f"games {len(games)}, plies {plies}, games with a disagreement {disagreements}")
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
