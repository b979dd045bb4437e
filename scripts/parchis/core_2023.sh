#!/usr/bin/env bash
# Traces and perft counts of Parchís 2023-24 ("Parchís BOOM", the power-bar year) from the course
# core: builds our driver scripts/parchis/core_2023.cpp against the core of a checkout you supply
# (outside this repository; src/Parchis.cpp, Board.cpp, BoardTrap.cpp, Dice.cpp, Piece.cpp,
# Player.cpp, PowerBar.cpp, AIPlayer.cpp and include/, with the SFML-free stub of
# scripts/bridge/parchis/stub/GUIPlayer.h in place of include/GUIPlayer.h) and runs it.
#
# Usage: scripts/parchis/core_2023.sh CORE_DIR traces [SEED [GAMES [MAX_PLIES]]]
#        scripts/parchis/core_2023.sh CORE_DIR perft < positions
#   CORE_DIR   the 2023-24 simulator, e.g. a checkout of github:rbnuria/ParchisBoom at 2a235f7
#   SEED       default 2023; GAMES default 400; MAX_PLIES default 2000
# tests/traces/parchis/core_traces_2023.jsonl.gz and perft_2023.txt were made with
#   scripts/parchis/core_2023.sh "$CORE" traces 2023 400 | gzip -9n > tests/traces/parchis/core_traces_2023.jsonl.gz
#   cut -f1 tests/traces/parchis/perft_2023.txt | scripts/parchis/core_2023.sh "$CORE" perft > tests/traces/parchis/perft_2023.txt
set -euo pipefail

die() { echo "core_2023.sh: $*" >&2; exit 2; }

[ $# -ge 2 ] || die "usage: scripts/parchis/core_2023.sh CORE_DIR traces [SEED [GAMES [MAX_PLIES]]] | CORE_DIR perft < positions"
core=$1
mode=$2
shift 2
model=(Parchis Board BoardTrap Dice Piece Player PowerBar AIPlayer)
for f in include/Parchis.h include/PowerBar.h include/AIPlayer.h; do
    [ -f "$core/$f" ] || die "$core has no $f: give the 2023-24 Parchís simulator's folder"
done
for f in "${model[@]}"; do
    [ -f "$core/src/$f.cpp" ] || die "$core has no src/$f.cpp: give the 2023-24 Parchís simulator's folder"
done
grep -q catapumchimpum "$core/include/Attributes.h" || die "$core has no power-bar effects: give the 2023-24 simulator"
command -v g++ >/dev/null || die "g++ is needed to build the core's driver"

repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A scratch copy of include/ with the SFML-free stub in place of the GUI chain.
mkdir -p "$work/include"
cp -r "$core/include/." "$work/include/"
cp "$repo/scripts/bridge/parchis/stub/GUIPlayer.h" "$work/include/GUIPlayer.h"
flags=(-O2 -std=c++14 -w -I "$work/include")
objs=()
for f in "${model[@]}"; do
    g++ "${flags[@]}" -c "$core/src/$f.cpp" -o "$work/$f.o"
    objs+=("$work/$f.o")
done
g++ "${flags[@]}" -c "$repo/scripts/parchis/core_2023.cpp" -o "$work/driver.o"
g++ "$work/driver.o" "${objs[@]}" -o "$work/core_2023" -pthread
case "$mode" in
    traces) "$work/core_2023" traces "${1:-2023}" "${2:-400}" "${3:-2000}" ;;
    perft) "$work/core_2023" perft ;;
    *) die "mode must be traces or perft" ;;
esac
