#!/usr/bin/env bash
# Mock engine that crashes in its second life only: usage `crash_once.sh COUNTER TABLERO`. Each
# start appends a line to the COUNTER file. The first start (the referee's pre-flight check) and
# every start after the second are a real engine (`TABLERO --player random`); the second start
# answers the handshake and exits on its first `go`. Proves that the referee restarts a crashed
# engine for the next game.
n=$(wc -l < "$1" 2>/dev/null || echo 0)
echo start >> "$1"
if [ "$n" -eq 1 ]; then
  while IFS= read -r line; do
    case "$line" in
      uci) echo "uciok" ;;
      isready) echo "readyok" ;;
      go*) exit 3 ;;
      quit) exit 0 ;;
    esac
  done
  exit 0
fi
exec "$2" --player random
