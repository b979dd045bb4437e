#!/usr/bin/env python3
"""Does the review's accuracy order engines as their ratings do? (docs/review.md, "Accuracy")

Usage: review_accuracy.py [--tablero BIN] [--svg FILE [--update]] GAME:RECORDS:ANNOTATED[:DEEPER] ...

For each game, RECORDS is a tournament's records file, ANNOTATED the same games reviewed by
`tablero analyse` at the review's depth and DEEPER (optional) a review two plies deeper, of all
the games or of some of them. The ratings are `tablero report RECORDS`'s (maximum likelihood,
every game); an engine's accuracy is the mean of its games' accuracies, with a 95 % interval
(1.96 standard errors). Prints a Markdown table per game and Spearman's rank correlation of
accuracy with rating; with --svg draws accuracy against rating, one panel per game (GAME is
the panel's title). With --update the figure FILE keeps its other panels where they are and
only the games given are drawn again (in their own places; a new game gets the next one): one
game's measurement redone does not need the hours of records of the others.
"""
import json
import math
import re
import subprocess
import sys


def ratings(tablero, records):
    try:
        run = subprocess.run([tablero, "report", records], capture_output=True, text=True)
    except OSError as e:
        sys.exit(f"review_accuracy.py: cannot run {tablero!r} ({e.strerror}): put tablero on PATH or pass --tablero BIN")
    if run.returncode != 0:
        why = (run.stderr.strip().splitlines() or ["no message"])[-1]
        sys.exit(f"review_accuracy.py: `{tablero} report {records}` failed: {why}")
    out = run.stdout
    r = {}
    for line in out.splitlines():
        t = line.split()
        if len(t) > 3 and t[0].isdigit() and (t[2][0] in "+-" or t[2] == "0.0"):
            r[t[1]] = float(t[2].rstrip("*"))
    return r


def accuracy(path):
    """Per engine: (mean accuracy, 95 % half-width, games, mean loss in points)."""
    acc, loss, moves = {}, {}, {}
    with open(path) as f:
        for line in f:
            v = json.loads(line)
            for p in v.get("review", {}).get("players", []) if "moves" in v else []:
                if p.get("accuracy") is None:
                    continue
                acc.setdefault(p["name"], []).append(p["accuracy"])
                loss[p["name"]] = loss.get(p["name"], 0.0) + p["loss_sum"]
                moves[p["name"]] = moves.get(p["name"], 0) + p["moves"]
    out = {}
    for n, xs in acc.items():
        m = sum(xs) / len(xs)
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else 0.0
        out[n] = (m, 1.96 * sd / math.sqrt(len(xs)), len(xs), 100 * loss[n] / max(1, moves[n]))
    return out


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = math.sqrt(sum((x - ma) ** 2 for x in ra))
    vb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    return cov / (va * vb) if va and vb else float("nan")


COLORS = ["#0072B2", "#D55E00"]


def panel(x0, y0, w, h, title, series):
    """One game: accuracy (y, 0..100) against Elo (x); series = [(label, [(elo, acc, ci, name)])]."""
    L, R, T, B = 40, 48, 22, 30
    elos = [p[0] for _, pts in series for p in pts]
    lo, hi = min(elos) - 60, max(elos) + 60
    # The accuracy axis from a multiple of 10 below the lowest interval to 100.
    bottom = max(0, math.floor(min(p[1] - p[2] for _, pts in series for p in pts) / 10) * 10 - 10)
    X = lambda e: x0 + L + (e - lo) / (hi - lo) * (w - L - R)
    Y = lambda a: y0 + T + (100 - a) / (100 - bottom) * (h - T - B)
    s = [f'<g class="panel" data-title="{title}">',
         f'<rect x="{x0 + L}" y="{y0 + T}" width="{w - L - R}" height="{h - T - B}" fill="#fafafa" stroke="#bbb"/>']
    s.append(f'<text x="{x0 + L}" y="{y0 + 15}" font-weight="bold">{title}</text>')
    for a in range(bottom, 101, 10 if 100 - bottom <= 50 else 20):
        s.append(f'<line x1="{x0 + L}" x2="{x0 + w - R}" y1="{Y(a):.1f}" y2="{Y(a):.1f}" stroke="#e4e4e4"/>')
        s.append(f'<text x="{x0 + L - 4}" y="{Y(a) + 3:.1f}" text-anchor="end" fill="#555">{a}</text>')
    step = 200 if hi - lo > 800 else 100
    e = math.ceil(lo / step) * step
    while e <= hi:
        s.append(f'<text x="{X(e):.1f}" y="{y0 + h - B + 13}" text-anchor="middle" fill="#555">{e:+d}</text>'.replace("+0<", "0<"))
        e += step
    s.append(f'<text x="{x0 + L + (w - L - R) / 2}" y="{y0 + h - 4}" text-anchor="middle" fill="#333">rating (Elo)</text>')
    for i, (_, pts) in enumerate(series):
        pts = sorted(pts)
        # A label goes below its point, or above it where the point is the highest of those
        # closer than 60 px; where that would overlap a label already placed (highest points
        # first), it takes the next free place of above, below, further below, further still.
        dys = {}
        boxes = []
        for k in sorted(range(len(pts)), key=lambda k: -pts[k][1]):
            elo, a = pts[k][0], pts[k][1]
            near = [j for j in range(len(pts)) if j != k and abs(X(pts[j][0]) - X(elo)) < 60]
            order = [-7, 13, 24, 35] if near and all(a >= pts[j][1] for j in near) else [13, 24, 35, -7]
            width = 5.6 * len(pts[k][3].split("+")[0])
            box = lambda dy: (X(elo) + 4, Y(a) + dy - 8, X(elo) + 4 + width, Y(a) + dy + 2)
            free = lambda b: all(b[2] <= o[0] or o[2] <= b[0] or b[3] <= o[1] or o[3] <= b[1] for o in boxes)
            dys[k] = next((dy for dy in order if free(box(dy))), order[0])
            boxes.append(box(dys[k]))
        c = COLORS[i]
        s.append('<polyline fill="none" stroke="%s" stroke-width="1.2" points="%s"/>' % (c, " ".join(f"{X(p[0]):.1f},{Y(p[1]):.1f}" for p in pts)))
        for k, (elo, a, ci, name) in enumerate(pts):
            s.append(f'<line x1="{X(elo):.1f}" x2="{X(elo):.1f}" y1="{Y(min(100, a + ci)):.1f}" y2="{Y(max(0, a - ci)):.1f}" stroke="{c}"/>')
            fill = c if i == 0 else "#fff"
            s.append(f'<circle cx="{X(elo):.1f}" cy="{Y(a):.1f}" r="3.5" fill="{fill}" stroke="{c}" stroke-width="1.5"><title>{name}: {a:.1f}</title></circle>')
            if i == 0:
                dy = dys[k]
                s.append(f'<text x="{X(elo) + 4:.1f}" y="{Y(a) + dy:.1f}" fill="#222" font-size="9">{name.split("+")[0]}</text>')
    s.append("</g>")
    return s


def old_panels(path):
    """The panels of a figure this script drew, in their order: [(title, lines, two series)]."""
    out, cur = [], None
    with open(path) as f:
        for line in f.read().splitlines():
            m = re.match(r'<g class="panel" data-title="([^"]*)">$', line)
            if m:
                cur = (m.group(1), [line])
            elif cur is not None:
                cur[1].append(line)
                if line == "</g>":
                    out.append((cur[0], cur[1], any(COLORS[1] in x for x in cur[1])))
                    cur = None
    if not out:
        sys.exit(f"{path}: no panels drawn by this script to keep (draw it without --update)")
    return out


def main():
    args = sys.argv[1:]
    tablero, svg, update = "tablero", None, False
    while args and args[0].startswith("--"):
        if args[0] == "--tablero":
            tablero, args = args[1], args[2:]
        elif args[0] == "--svg":
            svg, args = args[1], args[2:]
        elif args[0] == "--update":
            update, args = True, args[1:]
        else:
            sys.exit(__doc__)
    if not args or (update and not svg):
        sys.exit(__doc__)
    kept = old_panels(svg) if update else []
    panels = []
    for spec in args:
        parts = spec.split(":")
        if len(parts) not in (3, 4):
            sys.exit(f"bad argument '{spec}': GAME:RECORDS:ANNOTATED[:DEEPER]")
        game, records, ann = parts[:3]
        deep = parts[3] if len(parts) == 4 else None
        elo = ratings(tablero, records)
        a = accuracy(ann)
        d = accuracy(deep) if deep else {}
        names = sorted(elo, key=lambda n: -elo[n])
        print(f"\n{game}\n")
        print("| engine | rating | accuracy (games) | mean loss | deeper: accuracy (games) | mean loss |")
        print("|---|---:|---:|---:|---:|---:|")
        for n in names:
            x = a.get(n)
            y = d.get(n)
            fa = f"{x[0]:.1f} ± {x[1]:.1f} ({x[2]}) | {x[3]:.2f}" if x else "- | -"
            fd = f"{y[0]:.1f} ± {y[1]:.1f} ({y[2]}) | {y[3]:.2f}" if y else "- | -"
            print(f"| {n} | {elo[n]:+.0f} | {fa} | {fd} |")
        both = [n for n in names if n in a]
        rho = spearman([elo[n] for n in both], [a[n][0] for n in both])
        line = f"\nSpearman's rho, accuracy vs rating: {rho:.2f} ({len(both)} engines)"
        if d:
            bd = [n for n in names if n in d]
            line += f"; deeper review: {spearman([elo[n] for n in bd], [d[n][0] for n in bd]):.2f}"
        print(line)
        series = [("review depth", [(elo[n], a[n][0], a[n][1], n) for n in both])]
        if d:
            series.append(("two plies deeper", [(elo[n], d[n][0], d[n][1], n) for n in names if n in d]))
        panels.append((game, series))
    if svg:
        W, H, cols = 360, 240, 2
        # Each slot holds a kept panel (its lines) or a game drawn now (its series).
        slots = [(t, lines, two) for t, lines, two in kept]
        for g, series in panels:
            i = next((k for k, x in enumerate(slots) if x[0] == g), None)
            if i is None:
                slots.append((g, series, len(series) > 1))
            else:
                slots[i] = (g, series, len(series) > 1)
        rows = (len(slots) + cols - 1) // cols
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W * cols}" height="{H * rows + 24}" viewBox="0 0 {W * cols} {H * rows + 24}" font-family="DejaVu Sans, sans-serif" font-size="10">',
               f'<rect width="100%" height="100%" fill="#fff"/>']
        for i, (g, body, _) in enumerate(slots):
            out += body if isinstance(body[0], str) else panel((i % cols) * W, (i // cols) * H, W, H, g, body)
        y = H * rows + 14
        out.append(f'<circle cx="50" cy="{y - 3}" r="3.5" fill="{COLORS[0]}"/><text x="58" y="{y}">accuracy, review at the default depth (mean of games, 95 % interval)</text>')
        if any(two for _, _, two in slots):
            out.append(f'<circle cx="430" cy="{y - 3}" r="3.5" fill="#fff" stroke="{COLORS[1]}" stroke-width="1.5"/><text x="438" y="{y}">two plies deeper</text>')
        out.append("</svg>")
        with open(svg, "w") as f:
            f.write("\n".join(out) + "\n")

if __name__ == "__main__":
    main()
