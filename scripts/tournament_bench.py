#!/usr/bin/env python3
"""Throughput figures of `tablero tournament` and `tablero report` (docs/tournaments.md, "Throughput").

    scripts/tournament_bench.py [TABLERO] [WORKDIR]

1. games per second, connect4, `builtin:random` vs `builtin:random` (in-process) and two
   `tablero --player random` processes, --concurrency 1 and 2 (wall and CPU seconds);
2. the schedule of a 100-engine round-robin (2 rounds, 19,800 games) built and cut into 10
   shards: `tablero tournament --schedule --shard K/10` for every K;
3. `tablero report` merging 4 shard files of a 101-engine round-robin of 10 rounds (101,000
   games). Their header is the one `tablero tournament` writes (a real one-pair shard run); the
   game lines reuse the moves of that real game with results drawn from known ratings
   (engine i: 8 * (i - 50) Elo), so the merge, the schedule check and the rating fit do the work
   they would do on played games. The report's ratings are compared with the known ones.
"""

import json
import os
import random
import resource
import subprocess
import sys
import time

def default_tablero():
    """The release binary of the checkout this script belongs to, wherever it is run from."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "target", "release", "tablero")


def require_binary(path, script):
    """One clear line instead of a traceback when the binary is missing."""
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        sys.exit(f"{script}: no tablero binary at {path}: build it with `cargo build --release` "
                 "or give its path (first argument)")


T = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else default_tablero())
require_binary(T, "tournament_bench.py")
W = sys.argv[2] if len(sys.argv) > 2 else "/tmp/tablero-tournament-bench"
os.makedirs(W, exist_ok=True)


def timed(args, **kw):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(args, check=True, capture_output=True, text=True, **kw)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, wall, cpu


def throughput():
    for label, a, b, rounds in [
        ("builtin:random vs builtin:random", "builtin:random", "builtin:random option.Seed=2", 1000),
        ("tablero --player random x2 (processes)", f"{T} --player random",
         f"{T} --player random option.Seed=2", 500),
    ]:
        for c in (1, 2):
            _, wall, cpu = timed([T, "--game", "connect4", "tournament", "--engine", f"a={a}",
                                  "--engine", f"b={b}", "--rounds", str(rounds),
                                  "--openings", "random:2", "--concurrency", str(c)])
            g = 2 * rounds
            print(f"{label}, concurrency {c}: {g} games in {wall:.2f} s = {g / wall:.0f} games/s "
                  f"({cpu:.2f} CPU s, {1000 * cpu / g:.2f} CPU ms per game)")


def engines_file(n, name):
    path = os.path.join(W, name)
    with open(path, "w") as f:
        for i in range(n):
            f.write(f"e{i:03} builtin:random option.Seed={i}\n")
    return path


def schedule():
    path = engines_file(100, "engines100.txt")
    total_wall, games = 0.0, 0
    for k in range(1, 11):
        out, wall, _ = timed([T, "--game", "connect4", "tournament", "--engines", path,
                              "--rounds", "2", "--shard", f"{k}/10", "--schedule"])
        total_wall += wall
        games += len(out.stdout.splitlines()) - 1
    print(f"100-engine round-robin, 2 rounds: {games} games scheduled in 10 shards, "
          f"{total_wall:.3f} s for all 10 processes ({total_wall / 10 * 1000:.1f} ms each)")


def merge():
    n, rounds, shards = 101, 10, 4
    path = engines_file(n, "engines101.txt")
    probe = os.path.join(W, "probe.jsonl")
    if os.path.exists(probe):
        os.remove(probe)  # tablero refuses to overwrite records
    pairs = n * (n - 1) // 2 * rounds
    subprocess.run([T, "--game", "connect4", "tournament", "--engines", path, "--rounds",
                    str(rounds), "--openings", "random:2", "--shard", f"1/{pairs}",
                    "--records", probe], check=True, capture_output=True)
    lines = open(probe).read().splitlines()
    header = json.loads(lines[0])
    template = json.loads(lines[1])
    names = [e["name"] for e in header["settings"]["engines"]]
    elo = [8.0 * (i - 50) for i in range(n)]
    rng = random.Random(2026)
    files = []
    t0 = time.perf_counter()
    outs = []
    for k in range(1, shards + 1):
        p = os.path.join(W, f"big{k}.jsonl")
        files.append(p)
        h = dict(header)
        h["shard"] = f"{k}/{shards}"
        f = open(p, "w")
        f.write(json.dumps(h) + "\n")
        outs.append(f)
    per_round = n * (n - 1) // 2
    pairings = [(a, b) for a in range(n) for b in range(a + 1, n)]
    for p in range(pairs):
        a, b = pairings[p % per_round]
        for g in (2 * p, 2 * p + 1):
            first = g % 2
            e = 1 / (1 + 10 ** ((elo[b] - elo[a]) / 400))
            u = rng.random()
            draw = 0.2 * min(e, 1 - e) * 2
            if u < e - draw / 2:
                winner = 1
            elif u < e + draw / 2:
                winner = None
            else:
                winner = 2
            r = dict(template)
            r["game"], r["pair"], r["round"] = g, p, p // per_round
            r["first_engine"] = first + 1
            r["first"], r["second"] = (names[a], names[b]) if first == 0 else (names[b], names[a])
            r["winner"] = winner
            seat_first_won = winner is not None and (winner - 1) == first
            r["result"] = "1/2-1/2" if winner is None else ("1-0" if seat_first_won else "0-1")
            outs[p % shards].write(json.dumps(r, separators=(",", ":")) + "\n")
    for f in outs:
        f.close()
    size = sum(os.path.getsize(p) for p in files)
    print(f"wrote {2 * pairs} game lines in {shards} files ({size / 1e6:.0f} MB) in "
          f"{time.perf_counter() - t0:.1f} s")
    out, wall, cpu = timed([T, "report", "--json", *files])
    print(f"tablero report of {2 * pairs} games in {shards} files: {wall:.2f} s wall, "
          f"{cpu:.2f} CPU s; {out.stderr.strip().splitlines()[0]}")
    v = json.loads(out.stdout)
    inside = 0
    for s in v["standings"]:
        i = names.index(s["name"])
        if abs(s["elo"] - (elo[i] - sum(elo) / n)) <= s["error"]:
            inside += 1
    print(f"known ratings inside the reported 95% intervals: {inside} of {n}")


if __name__ == "__main__":
    what = set(sys.argv[3:]) or {"throughput", "schedule", "merge"}
    if "throughput" in what:
        throughput()
    if "schedule" in what:
        schedule()
    if "merge" in what:
        merge()
