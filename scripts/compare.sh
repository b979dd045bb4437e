#!/usr/bin/env bash
# Plays a match between two engines with sensible defaults and prints the result table.
#
#   scripts/compare.sh ENGINE_A ENGINE_B [GAME] [GAMES]
#
# ENGINE_* are referee engine specs: a command line ("path/to/engine --flag"), builtin:<player>
# or tcp:HOST:PORT. GAME defaults to connect4, GAMES to 100. Environment overrides:
#   TABLERO       the tablero binary (default: target/release/tablero, built if missing)
#   TC            clock per player BASE+INC in seconds (default 10+0.1)
#   OPENINGS      random:P or a file (default random:4)
#   SEED          seed of the openings (default 1)
#   CONCURRENCY   games in parallel (default: number of CPUs)
#   EXTRA         more `tablero match` flags, e.g. "--sprt elo0=0 elo1=10 --records r.jsonl"
set -euo pipefail
if [ $# -lt 2 ] || [ $# -gt 4 ]; then
  echo "usage: $0 ENGINE_A ENGINE_B [GAME] [GAMES]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
tablero="${TABLERO:-$root/target/release/tablero}"
if [ ! -x "$tablero" ]; then
  (cd "$root" && cargo build --release --quiet)
fi
cpus="$(nproc 2>/dev/null || echo 2)"
# shellcheck disable=SC2086  # EXTRA is a list of flags on purpose
exec "$tablero" match --game "${3:-connect4}" --games "${4:-100}" \
  --engine1 "$1" --engine2 "$2" \
  --tc "${TC:-10+0.1}" --openings "${OPENINGS:-random:4}" --seed "${SEED:-1}" \
  --concurrency "${CONCURRENCY:-$cpus}" ${EXTRA:-}
