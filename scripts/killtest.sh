#!/usr/bin/env bash
# Crash consistency of records: runs CMD once uninterrupted (the reference), then again with
# SIGKILL at KILLS random moments, each followed by a resume, and a last resume to the end.
# Checks that the final records hold every game exactly once (same game numbers as the
# reference, none duplicated, none missing, every line whole), that each game's moves and result
# equal the reference's (deterministic engines: depth or node limits), and that
# `tablero report` prints the same table for both.
#
# Usage: scripts/killtest.sh KILLS DIR CMD...
#   CMD is the referee command line without its records flag, e.g.
#     target/release/tablero match --game connect4 --engine1 target/release/tablero
#       --engine2 "target/release/tablero --player ninja1" --games 200 --depth 3 --concurrency 2
#   The script appends `$RECORDS_FLAG DIR/<file>` to the first run and `$RESUME_FLAG DIR/<file>`
#   to the resumed ones (defaults --records and --resume), so it wraps any command with those
#   flags (a match, a tournament or one shard of it: a tournament's header line is skipped).
# Environment: TABLERO (for `report`, default target/release/tablero), SEED (of the kill
#   moments, default 1), RECORDS_FLAG, RESUME_FLAG, MAXWAIT (longest wait before a kill, s;
#   default: 4 × the reference run's time / KILLS, as a (re)start costs time too).
set -uo pipefail
KILLS=${1:?usage: killtest.sh KILLS DIR CMD...}
DIR=${2:?usage: killtest.sh KILLS DIR CMD...}
shift 2
[ $# -gt 0 ] || { echo "usage: killtest.sh KILLS DIR CMD..."; exit 2; }
TABLERO=${TABLERO:-$(cd "$(dirname "$0")/.." && pwd)/target/release/tablero}
[ -x "$TABLERO" ] || { echo "killtest.sh: no tablero binary at $TABLERO: build it with 'cargo build --release' or set TABLERO" >&2; exit 2; }
RECORDS_FLAG=${RECORDS_FLAG:---records}
RESUME_FLAG=${RESUME_FLAG:---resume}
mkdir -p "$DIR"
REF="$DIR/reference.jsonl"
REC="$DIR/killed.jsonl"
rm -f "$REF" "$REC"

t0=$(date +%s.%N)
"$@" "$RECORDS_FLAG" "$REF" >"$DIR/reference.out" 2>"$DIR/reference.err" || {
  echo "killtest: the reference run failed:"; cat "$DIR/reference.err"; exit 1; }
t1=$(date +%s.%N)
ref_secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')
MAXWAIT=${MAXWAIT:-$(awk -v t="$ref_secs" -v k="$KILLS" 'BEGIN{printf "%.3f", 4*t/k}')}
echo "reference: $(($(wc -l <"$REF") - 1)) games (and the header line) in ${ref_secs} s; kills at random moments in 0..${MAXWAIT} s after each (re)start"

RANDOM=${SEED:-1}
killed=0
finished_early=0
for k in $(seq 1 "$KILLS"); do
  if [ "$k" = 1 ]; then flag=$RECORDS_FLAG; else flag=$RESUME_FLAG; fi
  "$@" "$flag" "$REC" >"$DIR/run$k.out" 2>"$DIR/run$k.err" &
  pid=$!
  wait_s=$(awk -v r="$RANDOM" -v m="$MAXWAIT" 'BEGIN{printf "%.3f", r/32767*m}')
  sleep "$wait_s"
  if kill -9 "$pid" 2>/dev/null; then
    wait "$pid" 2>/dev/null
    killed=$((killed + 1))
    # The engines of a killed referee see end of input and exit by themselves.
    n=$(cat "$REC" 2>/dev/null | wc -l)
    tail_ok=yes
    [ -s "$REC" ] && [ "$(tail -c1 "$REC" | od -An -c | tr -d ' ')" != '\n' ] && tail_ok=torn
    echo "kill $k after ${wait_s} s: $n lines in the records (last line: $tail_ok)"
  else
    wait "$pid"
    finished_early=$((finished_early + 1))
    echo "kill $k after ${wait_s} s: the run had already ended (exit $?)"
  fi
  grep -h 'resume' "$DIR/run$k.err" 2>/dev/null | sed 's/^/  notice: /'
done
"$@" "$RESUME_FLAG" "$REC" >"$DIR/final.out" 2>"$DIR/final.err" || {
  echo "killtest: the final resume failed:"; cat "$DIR/final.err"; exit 1; }
grep -h 'resume' "$DIR/final.err" | sed 's/^/  notice: /'
echo "$killed kills, $finished_early runs ended before their kill moment"

python3 - "$REF" "$REC" <<'EOF' || exit 1
import json, sys
def load(p):
    games = {}
    dup = 0
    for n, line in enumerate(open(p, encoding="utf-8"), 1):
        if not line.endswith("\n"):
            sys.exit(f"FAIL: {p} line {n} is torn (no newline)")
        try:
            v = json.loads(line)
        except ValueError as e:
            sys.exit(f"FAIL: {p} line {n} is not JSON: {e}")
        if v.get("kind") in ("tournament", "match"):
            continue  # the records' header line: settings, no game
        g = v["game"]
        if g in games:
            dup += 1
        # What a deterministic engine pair must reproduce: the moves (not their times), result
        # and how the game ended.
        games[g] = ([m["move"] if isinstance(m, dict) else m for m in v["moves"]],
                    v.get("result"), v.get("reason"), v.get("winner"))
    return games, dup
ref, d0 = load(sys.argv[1])
got, dup = load(sys.argv[2])
missing = sorted(set(ref) - set(got))
extra = sorted(set(got) - set(ref))
differ = [g for g in ref if g in got and ref[g] != got[g]]
print(f"records: {len(got)} games (reference {len(ref)}), duplicated {dup}, missing {len(missing)}, "
      f"unexpected {len(extra)}, different from the reference {len(differ)}")
if dup or missing or extra or differ or d0:
    print("FAIL:", "missing", missing[:10], "extra", extra[:10], "differ", differ[:10])
    sys.exit(1)
EOF
"$TABLERO" report "$REF" >"$DIR/reference.table" 2>&1
"$TABLERO" report "$REC" >"$DIR/killed.table" 2>&1
if diff "$DIR/reference.table" "$DIR/killed.table" >"$DIR/table.diff"; then
  echo "report tables: identical"
else
  echo "FAIL: report tables differ:"; cat "$DIR/table.diff"; exit 1
fi
echo "killtest: OK"
