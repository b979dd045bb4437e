#!/usr/bin/env bash
# Crash consistency of `tablero tune`'s iteration file (docs/reliability.md, "Killed referees
# lose nothing"):
#   scripts/killtest_tune.sh [KILLS] [DIR]     (TABLERO=path/to/tablero, default target/release/tablero)
# Runs a small connect4 tune once uninterrupted (DIR/ref.jsonl), then again with SIGKILL every
# 0.3-2.0 s (seeded) followed by `--resume`, KILLS times, and lets the last resume finish. The
# final file must equal the uninterrupted one byte for byte (exit 1 otherwise).
set -euo pipefail
kills_max=${1:-20}
dir=${2:-$(mktemp -d)}
TABLERO=${TABLERO:-$(cd "$(dirname "$0")/.." && pwd)/target/release/tablero}
[ -x "$TABLERO" ] || { echo "killtest_tune.sh: no tablero binary at $TABLERO: build it with 'cargo build --release' or set TABLERO" >&2; exit 2; }
T=$(realpath "$TABLERO")
mkdir -p "$dir" && cd "$dir" && rm -f ref.jsonl k.jsonl resume.err
ARGS=(tune --game connect4 --engine "$T" --param Connect4W_centre=3,0,40,2,0.05
  --param Connect4W_threat=25,0,200,8,0.01 --iterations 30 --pairs-per-iteration 2 --depth 2
  --openings random:4 --seed 7)
"$T" "${ARGS[@]}" --out ref.jsonl >/dev/null 2>&1
echo "killtest_tune: reference $(wc -l <ref.jsonl) lines in $dir/ref.jsonl"
RANDOM=2026
kills=0
"$T" "${ARGS[@]}" --out k.jsonl >/dev/null 2>&1 &
pid=$!
while [ "$kills" -lt "$kills_max" ]; do
  sleep "$(awk -v r="$RANDOM" 'BEGIN { printf "%.3f", 0.3 + (r % 1000) * 0.0017 }')"
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid"
    wait "$pid" 2>/dev/null || true
    kills=$((kills + 1))
    echo "killtest_tune: kill $kills at $(wc -l <k.jsonl) lines"
  else
    wait "$pid" 2>/dev/null || true
    # Finished before the next kill: nothing left to interrupt.
    if [ "$(wc -l <k.jsonl)" -ge "$(wc -l <ref.jsonl)" ]; then
      break
    fi
  fi
  "$T" "${ARGS[@]}" --resume k.jsonl >/dev/null 2>>resume.err &
  pid=$!
done
wait "$pid" || true
echo "killtest_tune: final $(wc -l <k.jsonl) lines; torn-line notices $(grep -c torn resume.err || true)"
if cmp -s ref.jsonl k.jsonl; then
  echo "killtest_tune: PASS: identical to the uninterrupted run after $kills kills"
else
  echo "killtest_tune: FAIL: the resumed file differs from the uninterrupted run" >&2
  exit 1
fi
