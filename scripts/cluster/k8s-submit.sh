#!/usr/bin/env bash
# Runs the Kubernetes tournament end to end with kubectl (current context and namespace):
# creates the shared volume and the loader pod (tournament-volume.yaml), copies the tablero
# binary and the shard/merge scripts to /data/bin, starts the Indexed Job (tournament-job.yaml),
# waits for it, runs the merge Job (tournament-merge-job.yaml), prints its log and copies
# standings.txt and standings.json to $TOURNAMENT_DIR (default tournament-out) here.
#
#   scripts/cluster/k8s-submit.sh            # settings: edit the ConfigMap in tournament-job.yaml
#
# Environment: TABLERO (default target/release/tablero), TOURNAMENT_DIR, K8S_TIMEOUT (how long
# to wait for the shards, default 24h). Rerunning it replaces the two Jobs; records already on
# the volume are resumed, not replayed (delete /data/out through the loader pod to start over).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tablero="${TABLERO:-$root/target/release/tablero}"
dir="${TOURNAMENT_DIR:-tournament-out}"
[ -x "$tablero" ] || { echo "k8s-submit: $tablero not found (cargo build --release)" >&2; exit 2; }
kubectl apply -f "$here/tournament-volume.yaml"
kubectl wait --for=condition=Ready pod/tablero-loader --timeout=10m
kubectl exec tablero-loader -- mkdir -p /data/bin /data/out
kubectl cp "$tablero" tablero-loader:/data/bin/tablero
kubectl cp "$here/shard.sh" tablero-loader:/data/bin/shard.sh
kubectl cp "$here/tournament-merge.sbatch" tablero-loader:/data/bin/tournament-merge.sbatch
kubectl exec tablero-loader -- chmod +x /data/bin/tablero /data/bin/shard.sh /data/bin/tournament-merge.sbatch
kubectl delete job tablero-tournament tablero-tournament-merge --ignore-not-found
kubectl apply -f "$here/tournament-job.yaml"
kubectl wait --for=condition=complete job/tablero-tournament --timeout="${K8S_TIMEOUT:-24h}"
kubectl apply -f "$here/tournament-merge-job.yaml"
kubectl wait --for=condition=complete job/tablero-tournament-merge --timeout=1h
kubectl logs job/tablero-tournament-merge
mkdir -p "$dir"
kubectl cp tablero-loader:/data/out/standings.txt "$dir/standings.txt"
kubectl cp tablero-loader:/data/out/standings.json "$dir/standings.json"
echo "k8s-submit: standings in $dir/standings.txt and $dir/standings.json" >&2
