#!/usr/bin/env bash
# Exact-solver checks and timings that are too slow for `cargo test` (see README, "Exact
# solving"). Every line of output is a solver report; the script exits non-zero on any
# mismatch with the golden data or the published Kalah values.
#
#   scripts/solve_bench.sh            # Pons' six sets, the 7x7 file, Kalah values, golden Kalah
#   scripts/solve_bench.sh --empty    # also the empty 7x6 board (expected +1; ~45 s on 2 cores)
#   scripts/solve_bench.sh --standard # also Kalah(6,4) under Irving's empty-capture rule (+10)
#   scripts/solve_bench.sh --kalah65  # also Kalah(6,5), course rules, from the start (new value;
#                                     # K65_SEEDS=28: its database size, about 5.6 GB)
#   THREADS=1 HASH=1024 DB_DIR=/tmp/kdb scripts/solve_bench.sh
# Kalah(6,4) and the golden file use the endgame database of `--db-seeds` (default: the
# solver's choice), loaded from the cache in DB_DIR (default $XDG_CACHE_HOME/tablero or
# ~/.cache/tablero) or built there on first use; the build's progress goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BIN=target/release/tablero
G=../shared/golden
THREADS=${THREADS:-2}
HASH=${HASH:-1024}
DBARGS=()
[[ -n "${DB_DIR:-}" ]] && DBARGS+=(--db-dir "$DB_DIR")
[[ -n "${DB_SEEDS:-}" ]] && DBARGS+=(--db-seeds "$DB_SEEDS")
fail=0

batch() { # name, extra args...
  local f=$1; shift
  echo "== connect4 $f"
  local out
  out=$("$BIN" --game connect4 solve --batch "$G/connect4/$f" --threads "$THREADS" --hash "$HASH" "$@" | grep -v '^info positions')
  echo "$out"
  echo "$out" | grep -q '^batch .* mismatches 0 ' || fail=1
}

for f in Test_L3_R1 Test_L2_R1 Test_L2_R2 Test_L1_R1 Test_L1_R2 Test_L1_R3; do batch "$f"; done
# The table kept from one position to the next (c4's benchmark mode).
for f in Test_L3_R1 Test_L2_R1 Test_L2_R2 Test_L1_R1 Test_L1_R2; do batch "$f" --keep-table; done
batch 7x7_positions.txt --set Rows=7

# Kalah(m, n) first-player margins, course rules (issue 5).
for spec in "1 1 0" "2 2 -2" "3 3 2" "4 3 6" "4 4 2" "4 6 0" "5 3 6" "5 4 10" "6 2 6" "6 3 2" "6 4 8"; do
  set -- $spec
  echo "== kalah($1,$2) expected $3"
  out=$("$BIN" --game mancala solve --set "Pits=$1" --set "Seeds=$2" --threads "$THREADS" --hash "$HASH" "${DBARGS[@]}" | tail -n 1)
  echo "$out"
  [[ "$out" == "solved score $3 "* ]] || fail=1
done

echo "== kalah golden kalah64_positions.txt"
out=$("$BIN" --game mancala solve --batch "$G/kalah/kalah64_positions.txt" --threads "$THREADS" --hash "$HASH" "${DBARGS[@]}")
echo "$out"
echo "$out" | grep -q '^batch .* mismatches 0 ' || fail=1

for arg in "$@"; do
  case $arg in
    --standard)
      echo "== kalah(6,4) empty-capture rule (Irving, Donkers & Uiterwijk), expected 10"
      out=$("$BIN" --game mancala solve --set Pits=6 --set Seeds=4 --set EmptyCapture=1 --threads "$THREADS" --hash "$HASH" "${DBARGS[@]}" | tail -n 1)
      echo "$out"
      [[ "$out" == "solved score 10 "* ]] || fail=1
      ;;
    --kalah65)
      echo "== kalah(6,5) course rules (no published value)"
      k65=(--db-seeds "${K65_SEEDS:-28}")
      [[ -n "${DB_DIR:-}" ]] && k65+=(--db-dir "$DB_DIR")
      nice -n 19 "$BIN" --game mancala solve --set Pits=6 --set Seeds=5 --threads "$THREADS" --hash "$HASH" "${k65[@]}" | tail -n 1
      ;;
  esac
done

if [[ " $* " == *" --empty "* ]]; then
  echo "== connect4 empty 7x6 board, expected +1"
  out=$("$BIN" --game connect4 solve --threads "$THREADS" --hash "${EMPTY_HASH:-$HASH}" | tail -n 1)
  echo "$out"
  [[ "$out" == "solved score 1 "* ]] || fail=1
fi
exit $fail
