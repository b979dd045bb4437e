#!/usr/bin/env bash
# Proves the ssh path (ssh-hosts.sh, GNU parallel) on one machine: starts a private sshd on
# 127.0.0.1 (its own host and user keys, all under $SELFTEST_DIR; installs Debian's parallel,
# rsync and openssh-server when missing), runs a 3-shard tournament over the hosts file
# ":" (this machine) and "root@127.0.0.1" (over ssh: the binary and shard.sh copied as
# basefiles, records returned), plays the same tournament unsharded, requires the merged
# standings to equal it byte for byte, checks that a shard really ran over ssh and that the
# copies on the ssh side were cleaned up, and stops its sshd. Needs root. Not part of CI.
#
#   scripts/cluster/ssh-selftest.sh
#
# Environment: TABLERO (default target/release/tablero), SELFTEST_DIR (default
# /tmp/tablero-ssh-selftest), SELFTEST_SSH_PORT (default 22222).
set -euo pipefail
say() { printf '[ssh-selftest %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
die() { say "FAIL: $*"; exit 1; }
root="$(cd "$(dirname "$0")/../.." && pwd)"
[ "$(id -u)" = 0 ] || die "run as root (starts an sshd that accepts root's test key)"
dir="${SELFTEST_DIR:-/tmp/tablero-ssh-selftest}"
port="${SELFTEST_SSH_PORT:-22222}"
tablero="${TABLERO:-$root/target/release/tablero}"
[ -x "$tablero" ] || die "$tablero not found (cargo build --release)"
need=()
command -v parallel >/dev/null || need+=(parallel)
command -v rsync >/dev/null || need+=(rsync)
[ -x /usr/sbin/sshd ] || need+=(openssh-server)
if [ ${#need[@]} -gt 0 ]; then
  say "installing ${need[*]} (apt-get)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ -s "$dir/sshd.pid" ] && kill -0 "$(cat "$dir/sshd.pid")" 2>/dev/null; then
  kill "$(cat "$dir/sshd.pid")"
fi
rm -rf "$dir"
mkdir -p "$dir" /run/sshd
chmod 700 "$dir"
cleanup() {
  local rc=$?
  if [ -s "$dir/sshd.pid" ]; then kill "$(cat "$dir/sshd.pid")" 2>/dev/null || true; fi
  say "sshd stopped"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
ssh-keygen -q -t ed25519 -N '' -f "$dir/hostkey"
ssh-keygen -q -t ed25519 -N '' -f "$dir/userkey"
cp "$dir/userkey.pub" "$dir/authorized_keys"
cat >"$dir/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/hostkey
AuthorizedKeysFile $dir/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile $dir/sshd.pid
CONF
/usr/sbin/sshd -f "$dir/sshd_config" -E "$dir/sshd.log"
export PARALLEL_SSH="ssh -p $port -i $dir/userkey -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes"
for _ in $(seq 50); do $PARALLEL_SSH root@127.0.0.1 true 2>/dev/null && break; sleep 0.1; done
$PARALLEL_SSH root@127.0.0.1 true || die "cannot log in to the test sshd (see $dir/sshd.log)"
say "sshd on 127.0.0.1:$port (pid $(cat "$dir/sshd.pid")), key login ok"
printf '1/:\n1/root@127.0.0.1\n' >"$dir/hosts"

export TOURNAMENT_DIR="$dir/out" TOURNAMENT_ROUNDS=2 TOURNAMENT_OPENINGS=random:4 TOURNAMENT_NICE=19
export TOURNAMENT_ENGINES="random=builtin:random
greedy=builtin:greedy
ninja1=builtin:ninja1
ninja2=builtin:ninja2
tablero=TABLERO
tablero-test=TABLERO option.Heuristic=test"
t0=$(date +%s)
(cd "$dir" && TABLERO="$tablero" "$root/scripts/cluster/ssh-hosts.sh" hosts 3) 2>&1 | tee "$dir/ssh-hosts.log"
say "ssh-hosts.sh: 3 shards over ':' and root@127.0.0.1 in $(($(date +%s) - t0)) s"
grep -q '(over ssh)' "$dir/ssh-hosts.log" || die "no shard ran over ssh"
say "$(grep -c '(over ssh)' "$dir/ssh-hosts.log") shard(s) ran over ssh, $(grep -c 'shard.sh: .* on [^(]* -> ' "$dir/ssh-hosts.log") here; $(grep -c 'Accepted publickey' "$dir/sshd.log") ssh logins"
if $PARALLEL_SSH root@127.0.0.1 'ls -d tablero-run-* 2>/dev/null' | grep -q .; then
  die "copies left on the ssh side: $($PARALLEL_SSH root@127.0.0.1 'ls -d tablero-run-*')"
fi
args=(tournament --game connect4 --rounds 2 --openings random:4 --depth 2 --seed 1 --concurrency 2)
while IFS= read -r engine; do args+=(--engine "${engine//TABLERO/$tablero}"); done <<<"$TOURNAMENT_ENGINES"
nice -n 19 "$tablero" "${args[@]}" --records "$dir/unsharded.jsonl" >"$dir/unsharded.txt"
cmp "$dir/out/standings.txt" "$dir/unsharded.txt" || { diff "$dir/out/standings.txt" "$dir/unsharded.txt" || true; die "merged standings differ from the unsharded run"; }
say "PASS: merged standings over ssh hosts == unsharded run, byte for byte ($(wc -c <"$dir/unsharded.txt") bytes); nothing left on the ssh side"
