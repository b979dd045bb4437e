#!/usr/bin/env bash
# Mock engine that answers every `go` with a move no game accepts.
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name illegal"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo "info depth 1 score cp 5"; echo "bestmove zz9" ;;
    quit) exit 0 ;;
  esac
done
