#!/usr/bin/env bash
# Runs a sharded tournament on plain ssh hosts with GNU parallel, then merges it here.
#
#   scripts/cluster/ssh-hosts.sh HOSTS_FILE SHARDS
#
# HOSTS_FILE is a GNU parallel --sshloginfile: one host per line (`user@host`, `8/host` to run
# up to 8 shards there at once, `:` for this machine). Each shard runs on some host as
# `./shard.sh K N` in a directory tablero-run-* of the login's home: the tablero binary and
# shard.sh are copied to every host first (--basefile; the hosts need rsync and a glibc as new
# as the build machine's), the TOURNAMENT_* settings travel with each job (--env), the shard's
# records come back (--return) and the copies are removed (--cleanup). A failed shard is retried on
# another host (--retries). Once all are back, tournament-merge.sbatch ranks them:
# $TOURNAMENT_DIR/standings.txt and standings.json. The core of it is one line:
#
#   parallel --sshloginfile HOSTS --basefile run/tablero --basefile run/shard.sh \
#     --env TOURNAMENT_ENGINES --return run/out/shard-{}-of-3.jsonl --cleanup \
#     'cd run && TABLERO=./tablero TOURNAMENT_DIR=out ./shard.sh {} 3' ::: 1 2 3
#
# Environment: TABLERO (default target/release/tablero), TOURNAMENT_DIR (default
# tournament-out), the TOURNAMENT_* settings of shard.sh, SSH_JOBS (shards at once per host when
# the hosts file gives no count, default 1), SSH_RETRIES (default 2), PARALLEL_SSH (the ssh
# command, e.g. "ssh -p 2222").
set -euo pipefail
if [ $# -ne 2 ] || [ ! -r "$1" ] || ! [[ "$2" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 HOSTS_FILE SHARDS   (HOSTS_FILE: one ssh login per line, ':' = this machine)" >&2
  exit 2
fi
command -v parallel >/dev/null || { echo "ssh-hosts: GNU parallel is required (apt-get install parallel)" >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
hosts="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shards="$2"
tablero="${TABLERO:-$root/target/release/tablero}"
[ -x "$tablero" ] || { echo "ssh-hosts: $tablero not found (cargo build --release)" >&2; exit 2; }
dir="${TOURNAMENT_DIR:-tournament-out}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

# Files go to the hosts under the same relative path (a run-unique directory in the login's
# home); for ':' (this machine) the job runs right here, where that path is too.
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
run="tablero-run-$(basename "$stage")"
mkdir "$stage/$run"
cp "$tablero" "$stage/$run/tablero"
cp "$here/shard.sh" "$stage/$run/shard.sh"
envs=()
for v in $(compgen -e | grep '^TOURNAMENT_' || true); do
  case "$v" in TOURNAMENT_DIR | TOURNAMENT_SCRIPTS) ;; *) envs+=(--env "$v") ;; esac
done
cd "$stage"
parallel --sshloginfile "$hosts" --jobs "${SSH_JOBS:-1}" --retries "${SSH_RETRIES:-2}" \
  --basefile "$run/tablero" --basefile "$run/shard.sh" --cleanup "${envs[@]}" \
  --return "$run/out/shard-{}-of-$shards.jsonl" --tagstring "shard {}/$shards" \
  "cd $run && TABLERO=./tablero TOURNAMENT_DIR=out ./shard.sh {} $shards >/dev/null" ::: $(seq "$shards")
mv "$run"/out/shard-*-of-"$shards".jsonl "$dir/"
cd "$root"
TABLERO="$tablero" TOURNAMENT_DIR="$dir" TOURNAMENT_SHARDS="$shards" "$here/tournament-merge.sbatch"
echo "ssh-hosts: standings in $dir/standings.txt and $dir/standings.json" >&2
