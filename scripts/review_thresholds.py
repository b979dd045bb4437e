#!/usr/bin/env python3
"""Choosing a game's review thresholds from data (docs/review.md, "Thresholds").

Usage: review_thresholds.py SHALLOW.jsonl DEEP.jsonl

SHALLOW and DEEP are the same records annotated by `tablero analyse` at the review's depth and
two plies deeper (DEEP may hold only some of the games). A mark is a *false alarm* when the
deeper review finds the move played as good as its best move (loss 0): the shallow review's loss
was its own error. For each candidate inaccuracy threshold t (mistake 2t, blunder 3t: lichess's
proportions) the table gives how many judged moves get each mark, the share of the moves the
deeper review finds best that get a mark anyway (false alarms), and the share of each mark the
deeper review confirms (it finds the move losing at least half the mark's threshold). The chosen
t is the smallest whose false alarms stay under 5 %: a mark is then rarely the review's own
noise, and every larger loss is still marked.
"""
import json
import sys

CANDIDATES = [0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.10, 0.12, 0.15]
FALSE_ALARMS = 0.05


def losses(path):
    out = {}
    with open(path) as f:
        for line in f:
            v = json.loads(line)
            if "moves" not in v or "players" not in v.get("review", {}):
                continue
            for k, m in enumerate(v["moves"]):
                r = m.get("review")
                if r and not r.get("forced"):
                    out[(v["game"], k)] = r["loss"]
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    shallow, deep = losses(sys.argv[1]), losses(sys.argv[2])
    keys = [k for k in shallow if k in deep]
    best = [k for k in keys if deep[k] == 0]
    print(f"{len(keys)} judged moves in both reviews, {len(best)} of them best for the deeper one")
    print("   t  false alarms   ?! marked confirmed   ? marked confirmed  ?? marked confirmed")
    chosen = None
    for t in CANDIDATES:
        alarms = sum(1 for k in best if shallow[k] >= t) / len(best) if best else float("nan")
        row = []
        for level in (t, 2 * t, 3 * t):
            marked = [k for k in keys if shallow[k] >= level]
            ok = [k for k in marked if deep[k] >= level / 2]
            share = len(ok) / len(marked) if marked else float("nan")
            row.append((len(marked), share))
        print(f"{t:4.2f}  {alarms:11.1%}" + "".join(f"  {n:9d}  {p:7.1%}" for n, p in row))
        if chosen is None and alarms <= FALSE_ALARMS:
            chosen = t
    print(f"chosen: {chosen} (the smallest t whose false alarms stay under {FALSE_ALARMS:.0%})")


if __name__ == "__main__":
    main()
