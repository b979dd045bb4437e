#!/usr/bin/env bash
# Mock engine that crashes in the middle of a game, once: usage `crash_mid.sh COUNTER TABLERO`.
# Each start appends a line to the COUNTER file. The first life is a real engine
# (`TABLERO --player random`, proxied) for two `go`s and exits with status 3 on its third; every
# later life is the real engine. Proves that `tablero gui` restarts a crashed engine and the
# game goes on.
n=$(wc -l < "$1" 2>/dev/null || echo 0)
echo start >> "$1"
if [ "$n" -ge 1 ]; then
  exec "$2" --player random
fi
coproc E { exec "$2" --player random; }
cat <&"${E[0]}" &
CAT=$!
gos=0
while IFS= read -r line; do
  case "$line" in
    go*)
      gos=$((gos + 1))
      if [ "$gos" -ge 3 ]; then
        kill "$CAT" "$E_PID" 2>/dev/null
        exit 3
      fi
      ;;
  esac
  printf '%s\n' "$line" >&"${E[1]}"
done
kill "$CAT" "$E_PID" 2>/dev/null
