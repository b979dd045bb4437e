#!/usr/bin/env bash
# Soak: GAMES games of GAME between two tablero engine processes through the referee, seeded
# random openings, short limits, --concurrency 2, records to a file. Reports illegal moves,
# crashes and time losses (from the referee's JSON), games/s, and the memory of every engine
# process: VmRSS and VmHWM (peak RSS) polled from /proc, first after WARMUP seconds ("start")
# and last before the process ended ("end"). Fails (exit 1) on an illegal move, a crash or a
# peak-RSS growth beyond 10 %.
#
# Usage: scripts/soak.sh GAME GAMES
# Environment: TABLERO (default target/release/tablero), ENGINE1 (default "$TABLERO", the full
# engine), ENGINE2 (default "$TABLERO --player random"), LIMITS (default "--depth 1"),
# OPENINGS (random:8), SEED (1), CONCURRENCY (2), OUT (directory for records and JSON,
# default soak-out), WARMUP (seconds, default 10), EXTRA (more match flags).
set -euo pipefail
GAME=${1:?usage: soak.sh GAME GAMES}
GAMES=${2:?usage: soak.sh GAME GAMES}
TABLERO=${TABLERO:-$(cd "$(dirname "$0")/.." && pwd)/target/release/tablero}
[ -x "$TABLERO" ] || { echo "soak.sh: no tablero binary at $TABLERO: build it with 'cargo build --release' or set TABLERO" >&2; exit 2; }
ENGINE1=${ENGINE1:-$TABLERO}
ENGINE2=${ENGINE2:-$TABLERO --player random}
LIMITS=${LIMITS:---depth 1}
OPENINGS=${OPENINGS:-random:8}
SEED=${SEED:-1}
CONCURRENCY=${CONCURRENCY:-2}
OUT=${OUT:-soak-out}
WARMUP=${WARMUP:-10}
mkdir -p "$OUT"
REC="$OUT/$GAME.jsonl"
rm -f "$REC"

start=$(date +%s.%N)
# shellcheck disable=SC2086
"$TABLERO" match --game "$GAME" --engine1 "$ENGINE1" --engine2 "$ENGINE2" \
  --games "$GAMES" --openings "$OPENINGS" --seed "$SEED" $LIMITS \
  --concurrency "$CONCURRENCY" --records "$REC" --json ${EXTRA:-} >"$OUT/$GAME.json" &
ref=$!

# pid -> "first_rss first_hwm last_rss last_hwm"; a process is sampled once per second.
declare -A first last cmd
t0=$(date +%s)
while kill -0 "$ref" 2>/dev/null; do
  now=$(date +%s)
  for pid in $(pgrep -P "$ref" || true); do
    st=/proc/$pid/status
    [ -r "$st" ] || continue
    rss=$(awk '/^VmRSS:/{print $2}' "$st" 2>/dev/null || true)
    hwm=$(awk '/^VmHWM:/{print $2}' "$st" 2>/dev/null || true)
    [ -n "$rss" ] && [ -n "$hwm" ] || continue
    if [ -z "${first[$pid]:-}" ] && [ $((now - t0)) -ge "$WARMUP" ]; then
      first[$pid]="$rss $hwm"
      cmd[$pid]=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)
    fi
    [ -n "${first[$pid]:-}" ] && last[$pid]="$rss $hwm"
  done
  sleep 1
done
wait "$ref" || { echo "soak: the referee failed (exit $?)"; exit 1; }
end=$(date +%s.%N)

python3 - "$OUT/$GAME.json" "$REC" "$start" "$end" "$GAME" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
recs = [v for v in map(json.loads, open(sys.argv[2])) if v.get("kind") != "match"]  # no header
secs = float(sys.argv[4]) - float(sys.argv[3])
plies = sum(len(r.get("moves", [])) for r in recs)
r = j["reasons"]
print("soak %s: %d games (%d records, %d plies) in %.0f s = %.1f games/s; illegal %d, crash %d, time %d, "
      "max_plies %d, normal %d; engine 1 score %.3f" % (sys.argv[5], j["games"], len(recs), plies, secs,
      j["games"] / secs, r["illegal"], r["crash"], r["time"], r["max_plies"], r["normal"], j["score1"]))
EOF

fail=0
n=0
for pid in "${!first[@]}"; do
  read -r r0 h0 <<<"${first[$pid]}"
  read -r r1 h1 <<<"${last[$pid]}"
  n=$((n + 1))
  growth=$(awk -v a="$h0" -v b="$h1" 'BEGIN{printf "%.1f", (b-a)*100/a}')
  echo "engine pid $pid ($(echo "${cmd[$pid]}" | cut -c1-60)): RSS ${r0} -> ${r1} kB, peak RSS (VmHWM) ${h0} -> ${h1} kB (${growth} %)"
  if awk -v a="$h0" -v b="$h1" 'BEGIN{exit !(b > a*1.10)}'; then
    echo "FAIL: peak RSS of pid $pid grew more than 10 %"
    fail=1
  fi
done
echo "engine processes sampled: $n"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["reasons"]; sys.exit(1 if r["illegal"] or r["crash"] else 0)' "$OUT/$GAME.json" || { echo "FAIL: illegal moves or crashes"; fail=1; }
exit $fail
