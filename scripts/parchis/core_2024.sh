#!/usr/bin/env bash
# Traces and perft counts of Parchís 2024-25 (the yin-yang year) from the course core: builds our
# driver scripts/parchis/core_2024.cpp against the core of a checkout you supply (outside this
# repository; src/model/Parchis.cpp, Board.cpp, Dice.cpp, Piece.cpp, Player.cpp, PowerBar.cpp,
# NodeCounter.cpp, Heuristic.cpp, src/personal/AIPlayer.cpp and include/, with the SFML-free stub
# of scripts/bridge/parchis/stub/GUIPlayer.h in place of include/model/GUIPlayer.h) and runs it.
#
# Usage: scripts/parchis/core_2024.sh CORE_DIR traces [SEED [GAMES [MAX_PLIES]]]
#        scripts/parchis/core_2024.sh CORE_DIR perft < positions
#   CORE_DIR   the 2024-25 simulator (ugr-ccia-IA/practica3 of 2025), e.g. a checkout of
#              github:sechedUGR/practica3 at its "First commit 24/25"
#   SEED       default 2024; GAMES default 300; MAX_PLIES default 2000
# tests/traces/parchis/core_traces_2024.jsonl.gz and perft_2024.txt were made with
#   scripts/parchis/core_2024.sh "$CORE" traces 2024 300 | gzip -9n > tests/traces/parchis/core_traces_2024.jsonl.gz
#   cut -f1 tests/traces/parchis/perft_2024.txt | scripts/parchis/core_2024.sh "$CORE" perft > tests/traces/parchis/perft_2024.txt
set -euo pipefail

die() { echo "core_2024.sh: $*" >&2; exit 2; }

[ $# -ge 2 ] || die "usage: scripts/parchis/core_2024.sh CORE_DIR traces [SEED [GAMES [MAX_PLIES]]] | CORE_DIR perft < positions"
core=$1
mode=$2
shift 2
model=(Parchis Board Dice Piece Player PowerBar NodeCounter Heuristic)
for f in include/model/Parchis.h include/model/NodeCounter.h src/personal/AIPlayer.cpp src/personal/AIPlayer.h; do
    [ -f "$core/$f" ] || die "$core has no $f: give the 2024-25 Parchís simulator's folder"
done
for f in "${model[@]}"; do
    [ -f "$core/src/model/$f.cpp" ] || die "$core has no src/model/$f.cpp: give the 2024-25 Parchís simulator's folder"
done
grep -q yinyang "$core/include/model/Attributes.h" || die "$core has no yin-yang die: give the 2024-25 simulator"
command -v g++ >/dev/null || die "g++ is needed to build the core's driver"

repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The core's headers include each other by relative paths (../../src/personal/AIPlayer.h): copy
# the two trees as they are, then put the SFML-free stub in place of the GUI chain.
mkdir -p "$work/include" "$work/src"
cp -r "$core/include/." "$work/include/"
cp -r "$core/src/model" "$core/src/personal" "$work/src/"
cp "$repo/scripts/bridge/parchis/stub/GUIPlayer.h" "$work/include/model/GUIPlayer.h"
flags=(-O2 -std=c++14 -w -I "$work/include" -I "$work/include/model" -I "$work/src/personal")
objs=()
for f in "${model[@]}"; do
    g++ "${flags[@]}" -c "$work/src/model/$f.cpp" -o "$work/$f.o"
    objs+=("$work/$f.o")
done
g++ "${flags[@]}" -c "$work/src/personal/AIPlayer.cpp" -o "$work/AIPlayer.o"
g++ "${flags[@]}" -c "$repo/scripts/parchis/core_2024.cpp" -o "$work/driver.o"
g++ "$work/driver.o" "${objs[@]}" "$work/AIPlayer.o" -o "$work/core_2024" -pthread
case "$mode" in
    traces) "$work/core_2024" traces "${1:-2024}" "${2:-300}" "${3:-2000}" ;;
    perft) "$work/core_2024" perft ;;
    *) die "mode must be traces or perft" ;;
esac
