#!/usr/bin/env bash
# Mock analysing engine that crashes once: usage `crash_after.sh COUNTER N TABLERO`. Each start
# appends a line to the COUNTER file. The first life proxies the real engine (`TABLERO`) for
# N-1 `go`s and exits with status 3 on the N-th; every later life is the real engine. Proves
# that `tablero analyse` stops on a broken engine and that `--resume` (same engine spec)
# continues.
n=$( (wc -l < "$1") 2>/dev/null || echo 0)
echo start >> "$1"
if [ "$n" -ge 1 ]; then
  exec "$3"
fi
coproc E { exec "$3"; }
# The coprocess' descriptors are not inherited by subshells: copied to plain ones first.
exec 3<&"${E[0]}" 4>&"${E[1]}"
cat <&3 &
CAT=$!
gos=0
while IFS= read -r line; do
  case "$line" in
    go*)
      gos=$((gos + 1))
      if [ "$gos" -ge "$2" ]; then
        kill "$CAT" "$E_PID" 2>/dev/null
        exit 3
      fi
      ;;
  esac
  printf '%s\n' "$line" >&4
done
kill "$CAT" "$E_PID" 2>/dev/null
