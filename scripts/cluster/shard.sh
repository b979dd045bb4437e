#!/usr/bin/env bash
# Runs shard K of N of a `tablero tournament`: the one body behind every scheduler here
# (tournament.sbatch for Slurm, tournament-job.yaml for Kubernetes, ssh-hosts.sh for GNU
# parallel over ssh).
#
#   scripts/cluster/shard.sh K N
#
# Writes $TOURNAMENT_DIR/shard-K-of-N.jsonl and, when that file already has games (a rerun,
# a requeued task, a restarted pod), continues it with --resume. Every shard must run with the
# same settings; the records carry them, so `tablero report` refuses a mix. The tournament's
# table for the shard goes to stdout.
#
# Environment (the defaults make a small Connect Four round-robin of cheap engines):
#   TABLERO                 tablero binary (default: target/release/tablero of this checkout,
#                           else `tablero` on PATH)
#   TOURNAMENT_DIR          directory of the record files (default: tournament-out)
#   TOURNAMENT_ENGINES_FILE engines file passed as --engines (takes precedence over the list)
#   TOURNAMENT_ENGINES      engines, one NAME=SPEC per line (each becomes --engine NAME=SPEC;
#                           words option.NAME=VALUE in SPEC are that engine's setoptions);
#                           the word TABLERO in a SPEC stands for the binary's path
#   TOURNAMENT_GAME         game (default connect4)
#   TOURNAMENT_FORMAT       round-robin or gauntlet (default round-robin)
#   TOURNAMENT_ROUNDS       rounds (default 1)
#   TOURNAMENT_LIMITS       per-move limits (default "--depth 2"; "" for none)
#   TOURNAMENT_OPENINGS     --openings value (default none: every game from the start position)
#   TOURNAMENT_SEED         seed (default 1)
#   TOURNAMENT_CONCURRENCY  games at once in this shard (default: SLURM_CPUS_PER_TASK, else 1)
#   TOURNAMENT_EXTRA        more `tablero tournament` flags (e.g. "--max-plies 400")
#   TOURNAMENT_NICE         nice level of the games (default 0)
set -euo pipefail
if [ $# -ne 2 ] || ! [[ "$1" =~ ^[1-9][0-9]*$ && "$2" =~ ^[1-9][0-9]*$ ]] || [ "$1" -gt "$2" ]; then
  echo "usage: $0 K N   (shard K of N, 1 <= K <= N)" >&2
  exit 2
fi
shard="$1"
count="$2"
root="$(cd "$(dirname "$0")/../.." && pwd)"
tablero="${TABLERO:-}"
if [ -z "$tablero" ]; then
  tablero="$root/target/release/tablero"
  [ -x "$tablero" ] || tablero="$(command -v tablero || echo tablero)"
fi
dir="${TOURNAMENT_DIR:-tournament-out}"
mkdir -p "$dir"
default_engines="random=builtin:random
greedy=builtin:greedy
ninja1=builtin:ninja1
ninja2=builtin:ninja2
tablero=TABLERO
tablero-test=TABLERO option.Heuristic=test"

args=(tournament --game "${TOURNAMENT_GAME:-connect4}"
  --format "${TOURNAMENT_FORMAT:-round-robin}" --rounds "${TOURNAMENT_ROUNDS:-1}"
  --seed "${TOURNAMENT_SEED:-1}"
  --concurrency "${TOURNAMENT_CONCURRENCY:-${SLURM_CPUS_PER_TASK:-1}}")
if [ -n "${TOURNAMENT_ENGINES_FILE:-}" ]; then
  args+=(--engines "$TOURNAMENT_ENGINES_FILE")
else
  while IFS= read -r engine; do
    [ -n "$engine" ] && args+=(--engine "${engine//TABLERO/$tablero}")
  done <<<"${TOURNAMENT_ENGINES:-$default_engines}"
fi
if [ -n "${TOURNAMENT_OPENINGS:-}" ]; then args+=(--openings "$TOURNAMENT_OPENINGS"); fi
limits="--depth 2"
[ -n "${TOURNAMENT_LIMITS+set}" ] && limits="$TOURNAMENT_LIMITS"
# shellcheck disable=SC2206  # limits and extra flags are lists of words on purpose
args+=($limits ${TOURNAMENT_EXTRA:-})

records="$dir/shard-$shard-of-$count.jsonl"
args+=(--shard "$shard/$count")
how="new"
if [ -e "$records" ]; then
  args+=(--resume "$records")
  how="resuming its $(grep -c '"kind":"tournament-game"' "$records" || true) recorded games"
else
  args+=(--records "$records")
fi
echo "shard.sh: shard $shard/$count on $(hostname)${SSH_CONNECTION:+ (over ssh)} -> $records ($how)" >&2
exec nice -n "${TOURNAMENT_NICE:-0}" "$tablero" "${args[@]}"
