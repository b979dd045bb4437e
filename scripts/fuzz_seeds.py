#!/usr/bin/env python3
"""Seed corpora for the fuzz targets (fuzz/fuzz_targets/), written into fuzz/corpus/<target>/.

Usage: fuzz_seeds.py TABLERO GOLDEN_DIR CORPUS_DIR

State strings come from the golden data replayed by the engine itself (`position … moves …` then
`d`): Parchís traces, Connect Four lines, Kalah positions, 5-en-Raya's core games. Records come from quick
`tablero match` runs. Nothing here is committed. GOLDEN_DIR is the repository's tests/golden/,
whose large files are gzip-compressed (NAME.gz): `golden_open` reads either form.
"""
import gzip
import hashlib
import json
import os
import subprocess
import sys
import tempfile

TABLERO, GOLDEN, CORPUS = sys.argv[1:4]
# Byte 0 of a seed: the game's number n as the targets read it (bits 0-1 = n & 3, bits 5-7 = n >> 2).
GAME_BYTE = {g: (n & 3) | (n >> 2) << 5 for n, g in enumerate(["parchis", "connect4boom", "connect4", "mancala", "enraya"])}


def golden_open(*parts):
    """A golden file as text: PATH itself, else PATH.gz decompressed."""
    path = os.path.join(GOLDEN, *parts)
    if os.path.exists(path):
        return open(path)
    return gzip.open(path + ".gz", "rt")


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def session(game, script):
    """Runs a protocol script; returns the output lines."""
    r = subprocess.run([TABLERO, "--game", game], input=script, capture_output=True,
                       text=True, timeout=120)
    return r.stdout.splitlines()


def fens_after(game, move_lists):
    """The state string after each move list (one `d` per list)."""
    script = "".join(f"position startpos moves {' '.join(ms)}\nd\n" if ms else "position startpos\nd\n"
                     for ms in move_lists)
    return [l[5:] for l in session(game, script) if l.startswith("fen: ")]


def notation_seed(game, fen, moves):
    return bytes([GAME_BYTE[game], 0, 0, 0, 0]) + (fen + "\n" + "\n".join(moves)).encode()


def protocol_seed(game, lines):
    return bytes([GAME_BYTE[game]]) + ("\n".join(lines) + "\n").encode()


def parchis():
    lists, games, cur = [], [], None
    with golden_open("parchis", "traces.jsonl") as f:
        for line in f:
            v = json.loads(line)
            if v["ply"] == 0:
                if len(games) >= 24:
                    break
                cur = []
                games.append(cur)
            else:
                cur.append(v["move"])
    for g in games:
        for k in (0, 1, 5, 20, 60, len(g) // 2, len(g) - 1):
            lists.append(g[:max(0, min(k, len(g)))])
    fens = fens_after("parchis", lists)
    for ms, fen in zip(lists, fens):
        nxt = []
        put("notation", notation_seed("parchis", fen, [m for m in ms[-3:]]))
        put("protocol", protocol_seed("parchis", [
            f"position fen {fen}", "isready", "go depth 2", "isready", "moves", "d", "eval",
            "perft 2", "stop"]))
        put("protocol", protocol_seed("parchis", [
            "position startpos moves " + " ".join(ms), "go nodes 500", "stop", "isready",
            "go infinite", "isready", "stop", "ucinewgame", "go movetime 10"]))
    put("notation", notation_seed("parchis", "", ["y1:2", "r0:6", "b2:1", "pass", "y0:star"]))


def connect4():
    lists = []
    for name in sorted(os.listdir(os.path.join(GOLDEN, "connect4"))):
        if name.endswith(".md"):
            continue
        with golden_open("connect4", name) as f:
            for i, line in enumerate(f):
                if i >= 12:
                    break
                lists.append(list(line.split()[0]))
    fens = fens_after("connect4", lists)
    for ms, fen in zip(lists, fens):
        put("notation", notation_seed("connect4", fen, ms[:3]))
        put("protocol", protocol_seed("connect4", [
            f"position fen {fen}", "isready", "go depth 3", "solve", "stop", "isready", "moves"]))
    put("protocol", protocol_seed("connect4", [
        "setoption name Rows value 4", "setoption name Columns value 4", "position startpos moves 1 2 1",
        "solve", "isready", "go depth 2", "perft 3", "setoption name Solver value always", "go nodes 300"]))
    # BOOM: the start and a few moves in.
    bl = [[], ["4"], ["4", "4", "3"], ["1", "2", "3", "4", "5"]]
    for ms, fen in zip(bl, fens_after("connect4boom", bl)):
        put("notation", notation_seed("connect4boom", fen, ms))
        put("protocol", protocol_seed("connect4boom", [
            f"position fen {fen}", "go depth 2", "isready", "d", "eval", "perft 2"]))


def mancala():
    with golden_open("kalah", "kalah64_positions.txt") as f:
        rows = [l.split() for l in f if l.strip()][:40]
    for r in rows:
        if len(r) < 15:
            continue
        s, n = r[0:7], r[7:14]
        fen = f"{','.join(s[:6])}:{s[6]}/{','.join(n[:6])}:{n[6]} {r[14]}"
        put("notation", notation_seed("mancala", fen, ["1", "3", "6"]))
        put("protocol", protocol_seed("mancala", [
            f"position fen {fen}", "isready", "solve", "isready", "go depth 3", "moves"]))
    put("protocol", protocol_seed("mancala", [
        "setoption name Pits value 3", "setoption name Seeds value 2", "position startpos",
        "solve", "go nodes 200", "perft 3", "uci"]))


def enraya():
    # Game starts from the core's own games: a few plies in, and deeper, on every board size.
    games = {}
    with golden_open("enraya", "core_traces.jsonl") as f:
        for line in f:
            v = json.loads(line)
            g = games.setdefault(v["game"], {"size": v["size"], "moves": []})
            if v["move"] is not None:
                g["moves"].append(v["move"])
    picked = [g for i, g in sorted(games.items()) if i % 10 in (0, 1, 3)][:12]
    for g in picked:
        rows, cols, n = g["size"]
        opts = [f"setoption name Rows value {rows}", f"setoption name Columns value {cols}",
                f"setoption name InARow value {n}"]
        for plies in (4, 25):
            ms = g["moves"][:plies]
            script = "".join(o + "\n" for o in opts) + f"position startpos moves {' '.join(ms)}\nd\n"
            fens = [l[5:] for l in session("enraya", script) if l.startswith("fen: ")]
            if not fens:
                continue
            put("notation", notation_seed("enraya", fens[0], g["moves"][plies:plies + 3]))
            put("protocol", protocol_seed("enraya", opts + [
                f"position fen {fens[0]}", "isready", "go depth 3", "moves", "file", "eval",
                "perft 2", "d"]))
    put("protocol", protocol_seed("enraya", [
        "position startpos moves 0,5 5,7 pass", "position file /nonexistent/board.txt",
        "setoption name Rows value 19", "setoption name Columns value 19",
        "position startpos", "go nodes 300", "file", "uci"]))


def records():
    with tempfile.TemporaryDirectory() as d:
        made = []
        for game, e1, e2, extra in [
            ("connect4", "builtin:random", "builtin:greedy", []),
            ("mancala", "builtin:greedy", "builtin:random", ["--option", "Pits=4"]),
            ("connect4boom", "builtin:random", "builtin:random", []),
            ("parchis", "builtin:random", "builtin:greedy", ["--max-plies", "60"]),
            ("enraya", "builtin:greedy", "builtin:random", []),
        ]:
            p = os.path.join(d, f"{game}.jsonl")
            subprocess.run([TABLERO, "match", "--game", game, "--engine1", e1, "--engine2", e2,
                            "--games", "4", "--records", p] + extra,
                           capture_output=True, timeout=300, check=False)
            if os.path.exists(p):
                data = open(p, "rb").read()
                made.append(data)
                put("records", data)
                lines = data.splitlines(keepends=True)
                put("records", b"".join(lines[:2]) + b"\xff" + b"".join(lines[1:]))
                put("records", data[: len(data) * 2 // 3])
    if not made:
        sys.exit("fuzz_seeds.py: tablero match wrote no records")


def gui():
    h = "Host: 127.0.0.1:8080\r\n"
    post = lambda path, body: (f"POST {path} HTTP/1.1\r\n{h}Content-Type: application/json\r\n"
                               f"Sec-Fetch-Site: same-origin\r\nContent-Length: {len(body)}\r\n\r\n{body}")
    for req in [
        f"GET / HTTP/1.1\r\n{h}\r\n",
        f"GET /api/state?since=0&board=1 HTTP/1.1\r\n{h}\r\n",
        f"GET /api/record HTTP/1.1\r\n{h}\r\n",
        f"GET /page.js HTTP/1.1\r\nHost: localhost:8080\r\n\r\n",
        post("/api/new", '{"game":"connect4"}'),
        post("/api/new", '{"game":"mancala","position":"startpos moves 1 2"}'),
        post("/api/new", '{"game":"enraya","position":"startpos moves 0,5 5,7"}'),
        post("/api/position", '{"position":"fen 7/7/7/7/3o3/2xx3 o"}'),
        post("/api/move", '{"move":"4"}'),
        post("/api/undo", ""),
        post("/api/settings", '{"seats":[null,0],"limit":{"depth":2},"pace":0,"paused":true}'),
        post("/api/analysis", '{"on":true}'),
        post("/api/stop", "{}"),
    ]:
        put("gui_http", req)


if __name__ == "__main__":
    parchis()
    connect4()
    mancala()
    enraya()
    records()
    gui()
    for t in sorted(os.listdir(CORPUS)):
        print(f"seeds: {t}: {len(os.listdir(os.path.join(CORPUS, t)))} files")
