#!/usr/bin/env bash
# Perft of 5-en-Raya, tablero against the 2025-26 course core, side by side: builds our driver
# scripts/enraya/core_perft.cpp against the course's Tablero (from a checkout you supply,
# outside this repository) with g++ -O2, and tablero's perft (the release build of
# `tablero perft --game enraya`, the command users run); checks that both
# count the same leaves from the 9x9 start, then times whole runs of each, alternating, and
# prints the minimum, median and maximum wall time of each and the ratio of the medians.
#
# Usage: scripts/enraya/perft_vs_core.sh COURSE_CHECKOUT [DEPTH [RUNS]]
#   COURSE_CHECKOUT  a checkout of github:ugr-ccia-IA/practica3 (include/Tablero.hpp, src/Tablero.cpp)
#   DEPTH            perft depth, default 7 (4,801,748 leaves)
#   RUNS             timed runs of each program after one warm-up, default 5
# A checkout, for instance:
#   git clone https://github.com/ugr-ccia-IA/practica3 /tmp/practica3
set -euo pipefail

die() { echo "perft_vs_core.sh: $*" >&2; exit 2; }

[ $# -ge 1 ] && [ $# -le 3 ] || die "usage: scripts/enraya/perft_vs_core.sh COURSE_CHECKOUT [DEPTH [RUNS]]"
checkout=$1
depth=${2:-7}
runs=${3:-5}
[[ $depth =~ ^[0-9]+$ ]] || die "DEPTH must be a whole number, got '$depth'"
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a whole number from 1, got '$runs'"
[ -f "$checkout/include/Tablero.hpp" ] && [ -f "$checkout/src/Tablero.cpp" ] ||
    die "$checkout holds no include/Tablero.hpp and src/Tablero.cpp: give a checkout of the course repository"
command -v g++ >/dev/null || die "g++ is needed to build the core's driver"

repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

g++ -O2 -std=c++17 -I "$checkout/include" "$repo/scripts/enraya/core_perft.cpp" \
    "$checkout/src/Tablero.cpp" -o "$work/core_perft"
(cd "$repo" && cargo build --release --quiet --bin tablero)
tablero="${CARGO_TARGET_DIR:-$repo/target}/release/tablero"
ours() { "$tablero" perft --game enraya --depth "$1" 2>/dev/null; }

core_leaves=$("$work/core_perft" "$depth")
our_leaves=$(ours "$depth" | awk '$1 == "nodes" { print $2 }')
echo "perft $depth from the 9x9 start: core $core_leaves, tablero $our_leaves leaves"
[ "$core_leaves" = "$our_leaves" ] || die "the leaf counts differ"

# Wall time of one run in milliseconds.
run_ms() {
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000))e-3
}

"$work/core_perft" "$depth" >/dev/null
ours "$depth" >/dev/null
: >"$work/core.ms"
: >"$work/ours.ms"
for _ in $(seq "$runs"); do
    run_ms "$work/core_perft" "$depth" >>"$work/core.ms"
    run_ms ours "$depth" >>"$work/ours.ms"
done

# min median max of a file of numbers.
stats() { sort -g "$1" | awk '{v[NR] = $1} END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.1f %.1f %.1f\n", v[1], m, v[NR] }'; }
read -r cmin cmed cmax < <(stats "$work/core.ms")
read -r omin omed omax < <(stats "$work/ours.ms")
printf '%-8s %10s %10s %10s   (wall ms, %d runs each)\n' "" min median max "$runs"
printf '%-8s %10s %10s %10s\n' core "$cmin" "$cmed" "$cmax" tablero "$omin" "$omed" "$omax"
awk -v c="$cmed" -v o="$omed" 'BEGIN { printf "tablero is %.0fx faster (ratio of the medians)\n", c / o }'
