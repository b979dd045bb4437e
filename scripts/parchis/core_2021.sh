#!/usr/bin/env bash
# Traces and perft counts of Parchís 2021-22 from the course core: builds our driver
# scripts/parchis/core_2021.cpp against the core of a checkout you supply (outside this
# repository; src/Parchis.cpp, Board.cpp, Dice.cpp, Player.cpp, AIPlayer.cpp and include/, with
# the SFML-free stub of scripts/bridge/parchis/stub/GUIPlayer.h in place of the GUI headers,
# compiled with the course Makefile's -O2 -std=c++14) and runs it.
#
# Usage: scripts/parchis/core_2021.sh CORE_DIR traces [SEED [GAMES [MAX_PLIES]]]
#        scripts/parchis/core_2021.sh CORE_DIR perft < positions
#   CORE_DIR   the 2021-22 simulator (ugr-ccia-IA/practica3), e.g. a checkout of
#              github:pabloxeo/practica3 or github:jorgelerre/IA_practica3
#   SEED       default 2021; GAMES default 400; MAX_PLIES default 2000
# tests/traces/parchis/core_traces_2021.jsonl.gz and perft_2021.txt were made with
#   scripts/parchis/core_2021.sh "$CORE" traces 2021 400 | gzip -9n > tests/traces/parchis/core_traces_2021.jsonl.gz
#   cut -f1 tests/traces/parchis/perft_2021.txt | scripts/parchis/core_2021.sh "$CORE" perft > tests/traces/parchis/perft_2021.txt
set -euo pipefail

die() { echo "core_2021.sh: $*" >&2; exit 2; }

[ $# -ge 2 ] || die "usage: scripts/parchis/core_2021.sh CORE_DIR traces [SEED [GAMES [MAX_PLIES]]] | CORE_DIR perft < positions"
core=$1
mode=$2
shift 2
for f in include/Parchis.h include/Dice.h src/Parchis.cpp src/Board.cpp src/Dice.cpp src/Player.cpp src/AIPlayer.cpp; do
    [ -f "$core/$f" ] || die "$core has no $f: give the 2021-22 Parchís simulator's folder"
done
# The 2022-23 core has Piece.cpp and items; this driver reads the 2021-22 API only.
[ ! -f "$core/src/Piece.cpp" ] || die "$core looks like a later simulator (it has src/Piece.cpp): give the 2021-22 one"
command -v g++ >/dev/null || die "g++ is needed to build the core's driver"

repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/include"
cp "$core"/include/*.h "$work/include/"
cp "$repo/scripts/bridge/parchis/stub/GUIPlayer.h" "$work/include/GUIPlayer.h"
flags=(-O2 -std=c++14 -w -I "$work/include")
objs=()
for f in Parchis Board Dice Player AIPlayer; do
    g++ "${flags[@]}" -c "$core/src/$f.cpp" -o "$work/$f.o"
    objs+=("$work/$f.o")
done
g++ "${flags[@]}" -c "$repo/scripts/parchis/core_2021.cpp" -o "$work/driver.o"
g++ "$work/driver.o" "${objs[@]}" -o "$work/core_2021" -pthread
case "$mode" in
    traces) "$work/core_2021" traces "${1:-2021}" "${2:-400}" "${3:-2000}" ;;
    perft) "$work/core_2021" perft ;;
    *) die "mode must be traces or perft" ;;
esac
