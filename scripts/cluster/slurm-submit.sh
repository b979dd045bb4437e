#!/usr/bin/env bash
# Submits a sharded tournament to Slurm: an array job of SHARDS tasks (tournament.sbatch, one
# shard each) and the merge (tournament-merge.sbatch) with --dependency=afterok on the whole
# array, so the ranking is written once every shard has finished.
#
#   scripts/cluster/slurm-submit.sh SHARDS [sbatch flags…]
#   e.g. TOURNAMENT_ROUNDS=2 scripts/cluster/slurm-submit.sh 3 --partition=short --time=1:00:00
#
# Run it from the repository checkout (the jobs run there; TABLERO defaults to
# target/release/tablero). Settings come from the TOURNAMENT_* environment described in
# tournament.sbatch; sbatch exports them to every task. The sbatch flags apply to both jobs.
# Job logs go to $TOURNAMENT_DIR/slurm-*.out. Prints the two job ids on stdout (array, merge).
set -euo pipefail
if [ $# -lt 1 ] || ! [[ "$1" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 SHARDS [sbatch flags…]" >&2
  exit 2
fi
shards="$1"
shift
here="$(cd "$(dirname "$0")" && pwd)"
dir="${TOURNAMENT_DIR:-tournament-out}"
mkdir -p "$dir"
export TOURNAMENT_SCRIPTS="${TOURNAMENT_SCRIPTS:-$here}"
array=$(sbatch --parsable --array="1-$shards" --output="$dir/slurm-%A_%a.out" "$@" \
  "$here/tournament.sbatch")
array="${array%%;*}"
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --export="ALL,TOURNAMENT_SHARDS=$shards" --output="$dir/slurm-merge-%j.out" "$@" \
  "$here/tournament-merge.sbatch")
merge="${merge%%;*}"
echo "slurm-submit: array job $array ($shards shards), merge job $merge -> $dir/standings.txt" >&2
echo "$array $merge"
