#!/usr/bin/env python3
"""Builds (or extends) Connect Four 7x6's opening book, src/solver/c4book.txt: the exact score
and an optimal column of every mirror-distinct position with the given stone counts, each
solved by `tablero solve` (this crate's own solver) from an empty table.

    python3 scripts/connect4/book.py --tablero target/release/tablero --stones 4 5 \
        --out src/solver/c4book.txt --jobs 2

Resumable: positions already in --out are skipped and each result is appended as soon as it
is solved, so an interrupted run loses nothing. The `# complete:` header line names the stone
counts whose every position is in the file (the tests check that claim); it is rewritten at
the end of a run. Costs on the 2-core machine, one thread a position: 4 stones 568 positions,
about 7 s each; 5 stones 2,144 positions, about 3 s each (docs/connect4-solver.md)."""
import argparse, os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor


def positions(n):
    """One Pons move string per mirror pair of positions with exactly n stones, sorted
    (no game can be over with fewer than 7 stones, which this book never reaches)."""
    if n > 6:
        sys.exit("book.py: at most 6 stones (a game can end from the 7th)")
    seen = {}

    def rec(cols, moves, turn):
        if len(moves) == n:
            key = tuple(cols)
            canon = min(key, tuple(reversed(key)))
            seen.setdefault(canon, moves)
            return
        for c in range(7):
            if len(cols[c]) < 6:
                cols[c] += turn
                rec(cols, moves + str(c + 1), "b" if turn == "a" else "a")
                cols[c] = cols[c][:-1]

    rec([""] * 7, "", "a")
    return sorted(seen.values())


def canon(moves):
    cols = [""] * 7
    for i, ch in enumerate(moves):
        cols[int(ch) - 1] += "ab"[i % 2]
    key = tuple(cols)
    return min(key, tuple(reversed(key)))


def won(moves):
    """Whether the last move of `moves` completed four (the game is over)."""
    cols = [""] * 7
    for i, ch in enumerate(moves):
        cols[int(ch) - 1] += "ab"[i % 2]
    c = int(moves[-1]) - 1
    r = len(cols[c]) - 1
    me = cols[c][r]
    at = lambda x, y: 0 <= x < 7 and 0 <= y < len(cols[x]) and cols[x][y] == me
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        k = 1
        for s in (1, -1):
            x, y = c + s * dx, r + s * dy
            while at(x, y):
                k += 1
                x, y = x + s * dx, y + s * dy
        if k >= 4:
            return True
    return False


def after_best(book, n):
    """One move string per mirror pair of positions reached from an n-stone position of
    `book` by the book's optimal column and any legal reply, sorted. From 7 stones on the
    book's own column or the reply can complete four; `tablero solve` refuses a finished game,
    and `go` never needs the book there, so both are skipped."""
    seen = {}
    for line in open(book):
        if line.startswith("#") or not line.strip():
            continue
        moves, _, best = line.split()
        if len(moves) != n:
            continue
        if won(moves + best):
            continue
        for reply in range(1, 8):
            m = moves + best + str(reply)
            if max(m.count(str(c)) for c in range(1, 8)) <= 6 and not won(m):
                seen.setdefault(canon(m), m)
    return sorted(seen.values())


def solve(tablero, moves, hash_mib):
    args = [tablero, "--game", "connect4", "solve", "--threads", "1", "--hash", str(hash_mib)]
    if moves:
        args += ["--moves", moves]
    r = subprocess.run(args, capture_output=True, text=True)
    m = re.search(r"solved score (-?\d+) best (\d+) nodes (\d+) time (\d+)", r.stdout)
    if not m:
        sys.exit(f"book.py: solving '{moves}' failed: {(r.stderr or r.stdout).strip()}")
    return moves, m.group(1), m.group(2), m.group(4)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tablero", required=True, help="a release build of tablero")
    ap.add_argument("--stones", type=int, nargs="+", default=[])
    ap.add_argument(
        "--after-best",
        type=int,
        metavar="N",
        help="also the positions with N+2 stones reached from each N-stone position of the book "
        "by its optimal column and any reply (what `go` meets at its second move when the "
        "first came from the book)",
    )
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--hash", type=int, default=512, help="MiB of table per solve")
    a = ap.parse_args()
    header, done = [], set()
    if os.path.exists(a.out):
        for line in open(a.out):
            if line.startswith("#"):
                header.append(line)
            elif line.strip():
                mv = line.split()[0]
                done.add(canon("" if mv == "-" else mv))
    if not a.stones and a.after_best is None:
        sys.exit("book.py: give --stones N... or --after-best N")
    batches = [(f"{n} stones", positions(n)) for n in a.stones]
    if a.after_best is not None:
        batches.append((f"{a.after_best + 2} stones after the book's move", after_best(a.out, a.after_best)))
    with open(a.out, "a") as f:
        for name, batch in batches:
            todo = [p for p in batch if canon(p) not in done]
            print(f"book.py: {name}: {len(todo)} positions to solve", file=sys.stderr)
            with ThreadPoolExecutor(a.jobs) as ex:
                for moves, score, best, ms in ex.map(
                    lambda p: solve(a.tablero, p, a.hash), todo
                ):
                    f.write(f"{moves or '-'} {score} {best}\n")
                    f.flush()
                    done.add(canon(moves))
    # The header: which stone counts are complete now.
    complete = [n for n in range(7) if all(canon(p) in done for p in positions(n))]
    body = [l for l in open(a.out) if not l.startswith("#")]
    keep = [l for l in header if not l.startswith("# complete:")]
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        f.writelines(keep)
        f.write("# complete: " + " ".join(map(str, complete)) + "\n")
        f.writelines(body)
    os.replace(tmp, a.out)


if __name__ == "__main__":
    main()
