#!/usr/bin/env python3
"""Balanced Conecta-4 BOOM openings: every opening of four movements (one of each mirror pair,
the second player's two movements in one order) scored by a plain tablero search to a fixed
depth; the ones it proves decided (a mate score) or scores beyond --max-cp are left out, the
rest written one per line, shuffled with --seed (a match reads a file's lines in order).

    scripts/boom/balanced_openings.py --tablero target/release/tablero --depth 16 -o book.txt

Prints the counts to stderr; --scores FILE keeps every opening's score (TSV)."""
import argparse
import itertools
import random
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tablero", default="tablero", help="the tablero binary")
    ap.add_argument("--depth", type=int, default=16, help="go depth of each search")
    ap.add_argument("--max-cp", type=int, default=300, help="largest |score| kept, centipawns")
    ap.add_argument("--seed", type=int, default=2026, help="shuffle seed of the book")
    ap.add_argument("--scores", help="write every opening's score here (TSV)")
    ap.add_argument("-o", "--output", required=True, help="the book (refused if it exists)")
    a = ap.parse_args()
    try:
        out = open(a.output, "x")
    except FileExistsError:
        sys.exit(f"balanced_openings.py: {a.output} exists; remove it or choose another file")
    # At depth 12 or more the default heuristic is not extended: a plain alpha-beta, whose
    # mate scores are proofs (no forward pruning).
    eng = subprocess.Popen([a.tablero, "--game", "connect4boom"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True, bufsize=1)
    seen, rows = set(), []
    for m in itertools.product(range(1, 8), repeat=4):
        key = (m[0], tuple(sorted(m[1:3])), m[3])
        mirror = (8 - m[0], tuple(sorted((8 - m[1], 8 - m[2]))), 8 - m[3])
        if key in seen or mirror in seen:
            continue
        seen.add(key)
        moves = " ".join(map(str, m))
        eng.stdin.write(f"position startpos moves {moves}\ngo depth {a.depth}\n")
        score = None
        for line in eng.stdout:
            t = line.split()
            if t[:2] == ["info", "depth"] and "score" in t:
                i = t.index("score")
                score = (t[i + 1], int(t[i + 2]))
            elif t[:1] == ["bestmove"]:
                break
        if score is None:
            sys.exit(f"balanced_openings.py: no score for '{moves}' (is {a.tablero} tablero?)")
        rows.append((moves, score))
    eng.stdin.write("quit\n")
    eng.stdin.close()
    eng.wait()
    won = sum(1 for _, (k, v) in rows if k == "mate" and v > 0)
    lost = sum(1 for _, (k, v) in rows if k == "mate" and v < 0)
    book = [m for m, (k, v) in rows if k == "cp" and abs(v) <= a.max_cp]
    random.Random(a.seed).shuffle(book)
    out.write("".join(m + "\n" for m in book))
    out.close()
    if a.scores:
        with open(a.scores, "w") as f:
            f.write("".join(f"{m}\t{k} {v}\n" for m, (k, v) in rows))
    print(f"{len(rows)} openings at depth {a.depth}: {won} won and {lost} lost for the side to "
          f"move (proven), {len(book)} balanced (|cp| <= {a.max_cp}) in {a.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
