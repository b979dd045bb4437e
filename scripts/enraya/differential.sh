#!/usr/bin/env bash
# The differential check of 5-en-Raya's rules against the 2025-26 course core on games nobody
# has seen: builds our driver scripts/enraya/core_traces.cpp against the course's Tablero (from
# a checkout you supply, outside this repository), has it play GAMES seeded games (the golden
# file's policies and boards, a seed of your choice), and replays every line through tablero's
# trace test (tests/enraya_traces.rs, ENRAYA_TRACES pointing at the new file): grid, player,
# placements left, phase, turn, end, result and the legal moves in the core's order, each ply.
#
# Usage: scripts/enraya/differential.sh COURSE_CHECKOUT [SEED [GAMES]]
#   COURSE_CHECKOUT  a checkout of github:ugr-ccia-IA/practica3 (include/Tablero.hpp, src/Tablero.cpp)
#   SEED             the games' seed, default the current time (printed, to repeat a run)
#   GAMES            games to play, default 300
set -euo pipefail

die() { echo "differential.sh: $*" >&2; exit 2; }

[ $# -ge 1 ] && [ $# -le 3 ] || die "usage: scripts/enraya/differential.sh COURSE_CHECKOUT [SEED [GAMES]]"
checkout=$1
seed=${2:-$(date +%s)}
games=${3:-300}
[[ $seed =~ ^[0-9]+$ ]] || die "SEED must be a whole number, got '$seed'"
[[ $games =~ ^[1-9][0-9]*$ ]] || die "GAMES must be a whole number from 1, got '$games'"
[ -f "$checkout/include/Tablero.hpp" ] && [ -f "$checkout/src/Tablero.cpp" ] ||
    die "$checkout holds no include/Tablero.hpp and src/Tablero.cpp: give a checkout of the course repository"
command -v g++ >/dev/null || die "g++ is needed to build the core's driver"

repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

g++ -O2 -std=c++17 -I "$checkout/include" "$repo/scripts/enraya/core_traces.cpp" \
    "$checkout/src/Tablero.cpp" -o "$work/core_traces"
"$work/core_traces" "$seed" "$games" >"$work/traces.jsonl"
echo "seed $seed: $games games, $(wc -l <"$work/traces.jsonl") lines from the course core" >&2
(cd "$repo" && ENRAYA_TRACES="$work/traces.jsonl" \
    cargo test --release --quiet --test all enraya_traces:: -- --nocapture 2>&1) |
    grep -v '^$' || die "tablero disagrees with the core on seed $seed (the first difference is above)"
echo "seed $seed: every line agrees" >&2
