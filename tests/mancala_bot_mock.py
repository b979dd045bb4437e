#!/usr/bin/env python3
"""A course Mancala bot of our own, for tests/mancala_bot*.rs (and the recorder of the session
files in tests/mancala_bot_session/). It speaks the line protocol of the course's simulator
(MancalaNoGUI.jar) the way the course's C++ SimulatorLink does: words read one by one, one line
answered per request, the previous answer repeated after TIMEOUT.

  mancala_bot_mock.py play [--name N] [--fault KIND] [--at K]
      Plays the lowest non-empty pit. A fault strikes at the K-th GETMOVE of the process
      (default 1): crash (exits without answering), hang (never answers), junk (answers
      'banana'), spaced (answers ' <pit>'), empty (plays an empty pit, at the first GETMOVE
      from the K-th on that has one), range (plays 7),
      chatty (prints 'hello' before its move), stderr (5000 stderr lines, then the move),
      leave (exits after answering), flood (5000 lines after answering);
      badping (answers PING with PANG) and badsetplayer (answers SETPLAYER with NO) strike at
      once.
  mancala_bot_mock.py replay TRANSCRIPT
      Plays the bot side of a recorded session: every line received must be the next line the
      recorded referee sent (in one of the recorded processes), and the recorded answers are
      printed. Any difference: a message on stderr and exit status 3.
  mancala_bot_mock.py record LOG -- BOT [ARGS]
      Runs BOT, relaying stdin and stdout, and appends both directions to LOG ('> ' referee to
      bot, '< ' bot to referee), one '== process' line per run.
"""

import subprocess
import sys
import threading
import time


def words(stream):
    for line in stream:
        for w in line.split():
            yield w


def play(args):
    name, fault, at = "mockbot", None, 1
    i = 0
    while i < len(args):
        if args[i] == "--name":
            name = args[i + 1]
        elif args[i] == "--fault":
            fault = args[i + 1]
        elif args[i] == "--at":
            at = int(args[i + 1])
        else:
            sys.exit(f"mock: unknown argument {args[i]}")
        i += 2
    out = sys.stdout
    answer = ""
    moves_asked = 0
    w = words(sys.stdin)
    for cmd in w:
        if cmd == "END":
            print("OK", file=out, flush=True)
            return
        if cmd == "PING":
            answer = "PANG" if fault == "badping" else "PONG"
        elif cmd == "GETNAME":
            answer = name
        elif cmd == "SETPLAYER":
            next(w)
            answer = "NO" if fault == "badsetplayer" else "OK"
        elif cmd == "TIMEOUT":
            next(w)  # the C++ link prints its previous answer again
        elif cmd == "GETMOVE":
            n = int(next(w))
            for _ in range(n):
                next(w)
            turn = int(next(w))
            board = [[int(next(w)) for _ in range(7)] for _ in range(2)]
            mine = board[turn]
            pit = next(k for k in range(1, 7) if mine[k] > 0)
            answer = str(pit)
            moves_asked += 1
            empty = [k for k in range(1, 7) if mine[k] == 0]
            if fault == "empty" and moves_asked >= at and empty:
                answer = str(empty[0])
            if moves_asked == at:
                if fault == "crash":
                    sys.exit(1)
                if fault == "hang":
                    time.sleep(3600)
                if fault == "junk":
                    answer = "banana"
                if fault == "spaced":
                    answer = " " + answer
                if fault == "range":
                    answer = "7"
                if fault == "chatty":
                    print("hello", file=out, flush=True)
                if fault == "stderr":
                    for j in range(5000):
                        print(f"thinking {j}", file=sys.stderr)
                    sys.stderr.flush()
        print(answer, file=out, flush=True)
        if fault == "leave" and cmd == "GETMOVE" and moves_asked == at:
            return
        if fault == "flood" and cmd == "GETMOVE" and moves_asked == at:
            for j in range(5000):
                print(f"spam {j}", file=out)
            out.flush()


def load_transcript(path):
    """The recorded processes: lists of ('>' or '<', line)."""
    procs = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.startswith("== process"):
                procs.append([])
            elif line[:2] in ("> ", "< ") and procs:
                procs[-1].append((line[0], line[2:]))
            elif line in (">", "<") and procs:
                procs[-1].append((line, ""))
    return procs


def replay(args):
    procs = load_transcript(args[0])
    # Every recorded process is a candidate until the referee's lines tell them apart.
    cands = [(p, 0) for p in procs]
    for raw in sys.stdin:
        got = raw.rstrip("\n")
        nxt = []
        for p, i in cands:
            if i < len(p) and p[i] == (">", got):
                nxt.append((p, i + 1))
        if not nxt:
            wanted = sorted({p[i][1] for p, i in cands if i < len(p) and p[i][0] == ">"})
            print(f"mock: got '{got}', the recorded referee sent {wanted}", file=sys.stderr, flush=True)
            sys.exit(3)
        cands = nxt
        p, i = cands[0]
        replies = []
        while i < len(p) and p[i][0] == "<":
            replies.append(p[i][1])
            i += 1
        for q, j in cands[1:]:
            other = []
            while j < len(q) and q[j][0] == "<":
                other.append(q[j][1])
                j += 1
            if other != replies:
                print("mock: the recorded processes answer differently here", file=sys.stderr, flush=True)
                sys.exit(3)
        cands = [(q, j + len(replies)) for q, j in cands]
        for r in replies:
            print(r, flush=True)
        if got == "END":
            return


def record(args):
    log, sep, cmd = args[0], args[1], args[2:]
    if sep != "--" or not cmd:
        sys.exit("mock: record LOG -- BOT [ARGS]")
    lock = threading.Lock()
    f = open(log, "a", encoding="utf-8")
    with lock:
        f.write("== process\n")
        f.flush()
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def note(d, data):
        with lock:
            f.write(d + " " + data.decode("utf-8", "replace").rstrip("\n") + "\n")
            f.flush()

    def pump_in():
        for line in sys.stdin.buffer:
            note(">", line)
            try:
                child.stdin.write(line)
                child.stdin.flush()
            except OSError:
                break
        try:
            child.stdin.close()
        except OSError:
            pass

    threading.Thread(target=pump_in, daemon=True).start()
    for line in child.stdout:
        note("<", line)
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()
    sys.exit(child.wait())


if __name__ == "__main__":
    mode, rest = sys.argv[1], sys.argv[2:]
    {"play": play, "replay": replay, "record": record}[mode](rest)
