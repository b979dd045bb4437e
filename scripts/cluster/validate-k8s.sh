#!/usr/bin/env bash
# Checks the Kubernetes manifests of scripts/cluster offline: each file parses as YAML and every
# resource passes `kubernetes-validate --strict` (the official OpenAPI schemas, bundled in that
# PyPI package, unknown fields rejected) for the oldest and newest Kubernetes it knows, then the
# manifests are checked for what the API server or a run would refuse: Jobs restart OnFailure or
# Never, the shard Job is Indexed, its completions equal the ConfigMap's TOURNAMENT_SHARDS,
# every volume claim and ConfigMap named is defined, and the ConfigMap's settings make a
# tournament command that `tablero tournament --schedule` accepts for every shard.
#
#   scripts/cluster/validate-k8s.sh
#
# kubernetes-validate is installed into a venv at $K8S_VALIDATE_VENV (default
# ~/.cache/tablero/k8s-venv) on first use. TABLERO (default target/release/tablero) is used for
# the last check, which is skipped with a note when that binary does not exist.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${K8S_VALIDATE_VENV:-$HOME/.cache/tablero/k8s-venv}"
if [ ! -x "$venv/bin/kubernetes-validate" ]; then
  echo "validate-k8s: installing kubernetes-validate into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet kubernetes-validate pyyaml
fi
files=("$here/tournament-volume.yaml" "$here/tournament-job.yaml" "$here/tournament-merge-job.yaml")
versions=$("$venv/bin/python" -c '
import kubernetes_validate, os
d = os.path.join(os.path.dirname(kubernetes_validate.__file__), "kubernetes-json-schema")
for n in os.listdir(d):
    if n.startswith("v") and n.endswith("-local-strict"):
        print(n[1:-len("-local-strict")])' | sort -V)
oldest=$(head -n 1 <<<"$versions")
newest=$(tail -n 1 <<<"$versions")
for v in "$oldest" "$newest"; do
  "$venv/bin/kubernetes-validate" --strict --quiet -k "$v" "${files[@]}"
  echo "validate-k8s: schemas of Kubernetes $v (strict): ok"
done

TABLERO="${TABLERO:-$root/target/release/tablero}" SHARD_SH="$here/shard.sh" \
  "$venv/bin/python" - "${files[@]}" <<'PY'
import os, subprocess, sys, tempfile, yaml

docs = {}
for path in sys.argv[1:]:
    with open(path) as f:
        for doc in yaml.safe_load_all(f):
            if doc:
                docs[(doc["kind"], doc["metadata"]["name"])] = (doc, os.path.basename(path))

def fail(msg):
    sys.exit(f"validate-k8s: {msg}")

claims = {n for (k, n) in docs if k == "PersistentVolumeClaim"}
configmaps = {n: d for (k, n), (d, _) in docs.items() if k == "ConfigMap"}
for (kind, name), (doc, path) in docs.items():
    spec = doc["spec"]["template"]["spec"] if kind == "Job" else doc["spec"] if kind == "Pod" else None
    if spec is None:
        continue
    if kind == "Job" and spec.get("restartPolicy") not in ("OnFailure", "Never"):
        fail(f"{path}: Job {name} needs restartPolicy OnFailure or Never")
    for vol in spec.get("volumes", []):
        claim = vol.get("persistentVolumeClaim", {}).get("claimName")
        if claim is not None and claim not in claims:
            fail(f"{path}: {kind} {name} mounts claim {claim}, which no manifest defines")
    for c in spec["containers"]:
        for src in c.get("envFrom", []):
            ref = src.get("configMapRef", {}).get("name")
            if ref is not None and ref not in configmaps:
                fail(f"{path}: {kind} {name} reads ConfigMap {ref}, which no manifest defines")

job, path = docs.get(("Job", "tablero-tournament"), (None, None))
if job is None:
    fail("no Job tablero-tournament")
spec = job["spec"]
if spec.get("completionMode") != "Indexed":
    fail(f"{path}: the shard Job must have completionMode: Indexed")
cm_name = spec["template"]["spec"]["containers"][0]["envFrom"][0]["configMapRef"]["name"]
env = configmaps[cm_name]["data"]
shards = int(env["TOURNAMENT_SHARDS"])
if spec["completions"] != shards:
    fail(f"{path}: completions {spec['completions']} != TOURNAMENT_SHARDS {shards} of ConfigMap {cm_name}")
if spec.get("parallelism", 1) > spec["completions"]:
    fail(f"{path}: parallelism exceeds completions")
if "JOB_COMPLETION_INDEX" not in " ".join(spec["template"]["spec"]["containers"][0]["command"]):
    fail(f"{path}: the shard's command does not use JOB_COMPLETION_INDEX")
print(f"validate-k8s: Indexed Job, {shards} completions = TOURNAMENT_SHARDS, claims and ConfigMaps resolve: ok")

tablero = os.environ["TABLERO"]
if not os.access(tablero, os.X_OK):
    print(f"validate-k8s: {tablero} not built, settings not tried (cargo build --release)")
    sys.exit(0)
with tempfile.TemporaryDirectory() as tmp:
    run_env = dict(os.environ, **env)
    run_env.update(TABLERO=tablero, TOURNAMENT_DIR=tmp,
                   TOURNAMENT_EXTRA=(env.get("TOURNAMENT_EXTRA", "") + " --schedule").strip())
    for k in range(1, shards + 1):
        r = subprocess.run(["bash", os.environ["SHARD_SH"], str(k), str(shards)], env=run_env,
                           capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"ConfigMap {cm_name}: shard {k}/{shards} refused: {r.stderr.strip().splitlines()[-1]}")
print(f"validate-k8s: ConfigMap {cm_name} settings accepted by `tablero tournament --schedule` for all {shards} shards: ok")
PY
