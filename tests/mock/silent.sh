#!/usr/bin/env bash
# Mock engine that never answers `go` (but is otherwise alive).
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name silent"; echo "uciok" ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
  esac
done
