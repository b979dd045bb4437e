#!/usr/bin/env bash
# Builds a course Parchís player (the 2022-23 simulator's AIPlayer) into a tablero protocol engine.
#
#   scripts/bridge/parchis/build.sh COURSE_CHECKOUT [AIPLAYER_CPP] -o ENGINE [--depth-var NAME]
#
# Compiles, from a scratch directory (the checkout is only read): the checkout's game core
# (Parchis, Board, Dice, Piece, Player; no SFML: stub/GUIPlayer.h replaces the GUI include chain),
# the student's AIPlayer.cpp (default: the checkout's src/AIPlayer.cpp) and tablero's adapter.
# If the player's file has `const int NAME = N;` for NAME = --depth-var (default
# PROFUNDIDAD_ALFABETA), the scratch copy makes it a plain global so the engine exposes it as the
# `Depth` option and `go depth N` sets it. CXX (default g++) and CXXFLAGS (default -O2) are honoured.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() {
    echo "usage: $0 COURSE_CHECKOUT [AIPLAYER_CPP] -o ENGINE [--depth-var NAME]" >&2
    exit 2
}

checkout="" player="" out="" depth_var="PROFUNDIDAD_ALFABETA"
while [ $# -gt 0 ]; do
    case "$1" in
        -o) [ $# -ge 2 ] || usage; out="$2"; shift 2 ;;
        --depth-var) [ $# -ge 2 ] || usage; depth_var="$2"; shift 2 ;;
        -h|--help) usage ;;
        -*) echo "error: unknown flag '$1'" >&2; usage ;;
        *)
            if [ -z "$checkout" ]; then checkout="$1"
            elif [ -z "$player" ]; then player="$1"
            else echo "error: unexpected argument '$1'" >&2; usage
            fi
            shift ;;
    esac
done
[ -n "$checkout" ] && [ -n "$out" ] || usage
[ -n "$player" ] || player="$checkout/src/AIPlayer.cpp"

for f in include/Parchis.h include/AIPlayer.h src/Parchis.cpp src/Board.cpp src/Dice.cpp src/Piece.cpp src/Player.cpp; do
    if [ ! -f "$checkout/$f" ]; then
        echo "error: $checkout does not look like a course Parchís checkout (missing $f)" >&2
        exit 2
    fi
done
if [ ! -f "$player" ]; then
    echo "error: player source '$player' not found" >&2
    exit 2
fi
if ! [[ "$depth_var" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
    echo "error: --depth-var '$depth_var' is not a C++ identifier" >&2
    exit 2
fi

scratch="$(mktemp -d "${TMPDIR:-/tmp}/tablero-bridge.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/include" "$scratch/src"
cp "$checkout"/include/*.h "$scratch/include/"
# A player kept outside the checkout may come with its own AIPlayer.h next to it.
if [ -f "$(dirname "$player")/AIPlayer.h" ] && [ "$(dirname "$player")" != "$checkout/src" ]; then
    cp "$(dirname "$player")/AIPlayer.h" "$scratch/include/AIPlayer.h"
fi
cp "$here/stub/GUIPlayer.h" "$scratch/include/GUIPlayer.h"
for f in Parchis Board Dice Piece Player; do
    cp "$checkout/src/$f.cpp" "$scratch/src/"
done
cp "$player" "$scratch/src/AIPlayer.cpp"

defs=()
pattern="^([[:space:]]*)(static[[:space:]]+)?const[[:space:]]+int[[:space:]]+${depth_var}[[:space:]]*="
if grep -Eq "$pattern" "$scratch/src/AIPlayer.cpp"; then
    sed -E -i "s/${pattern}/\\1int ${depth_var} =/" "$scratch/src/AIPlayer.cpp"
    defs+=("-DTABLERO_BRIDGE_DEPTH_VAR=${depth_var}")
    echo "build.sh: '${depth_var}' of the player is exposed as the Depth option (and go depth)" >&2
else
    echo "build.sh: no 'const int ${depth_var} = …;' in the player: no Depth option (the player's own depth is used; --depth-var NAME picks another variable)" >&2
fi

cxx="${CXX:-g++}"
flags=(${CXXFLAGS:--O2} -std=c++14 -pthread -w)
mkdir -p "$(dirname "$out")"
objs=()
for src in "$scratch"/src/*.cpp "$here"/notation.cpp "$here"/frontend.cpp "$here"/state_dump.cpp "$here"/main.cpp; do
    obj="$scratch/$(basename "$src" .cpp).o"
    "$cxx" "${flags[@]}" "${defs[@]}" -I"$scratch/include" -I"$here" -c "$src" -o "$obj" &
    objs+=("$obj")
done
fail=0
for job in $(jobs -p); do wait "$job" || fail=1; done
[ $fail -eq 0 ] || { echo "error: compilation failed (messages above)" >&2; exit 1; }
"$cxx" "${flags[@]}" "${objs[@]}" -o "$out"
echo "build.sh: built $out" >&2
