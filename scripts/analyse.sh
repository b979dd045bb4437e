#!/usr/bin/env bash
# Analyses positions with the engine: one position per line of FILE (a move list from the start
# position, or `fen <state> [moves …]`; blank lines and `#` comments are skipped) and prints for
# each: the position, the best move, the score and the depth, tab-separated.
#
#   scripts/analyse.sh GAME FILE
#
# Environment: TABLERO (default target/release/tablero, built if missing), DEPTH (default 8).
# One engine process analyses every line (the protocol queues `go` after `go`).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 GAME FILE" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
tablero="${TABLERO:-$root/target/release/tablero}"
if [ ! -x "$tablero" ]; then
  (cd "$root" && cargo build --release --quiet)
fi
game="$1"
file="$2"
[ -r "$file" ] || { echo "$0: cannot read '$file'" >&2; exit 2; }
depth="${DEPTH:-8}"
mapfile -t positions < <(grep -v -e '^[[:space:]]*$' -e '^[[:space:]]*#' "$file")
for p in "${positions[@]}"; do
  case "$p" in
    fen\ *) echo "position $p" ;;
    startpos*) echo "position $p" ;;
    *) echo "position startpos moves $p" ;;
  esac
  echo "go depth $depth"
done | "$tablero" --game "$game" | awk -v depth="$depth" '
  BEGIN { i = 0; score = "-"; d = "-"; err = "" }
  # A refused position is one error, and its `go` a second one ("no position: …") instead of a
  # bestmove: that closes the position.
  /^info string error: no position:/ {
    print i "\terror: " err
    i++; score = "-"; d = "-"; err = ""
    next
  }
  /^info string error:/ {
    sub(/^info string error: /, ""); sub(/; no position until a legal .*$/, ""); err = $0; next
  }
  /^info depth/ {
    for (k = 1; k <= NF; k++) {
      if ($k == "depth") d = $(k + 1)
      if ($k == "score") score = $(k + 1) " " $(k + 2)
    }
    next
  }
  # A searched position ends with its bestmove.
  /^bestmove/ {
    print i "\tbestmove " $2 "\tscore " score "\tdepth " d
    i++; score = "-"; d = "-"; err = ""
  }
' | while IFS=$'\t' read -r idx rest; do
  printf '%s\t%s\n' "${positions[$idx]}" "$rest"
done
