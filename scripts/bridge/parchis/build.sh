#!/usr/bin/env bash
# Builds a course Parchís player (the 2022-23 simulator's AIPlayer) into a tablero protocol engine.
#
#   scripts/bridge/parchis/build.sh COURSE_CHECKOUT [AIPLAYER_CPP] -o ENGINE [--depth-var NAME] [--pgo]
#                                   [--year 2022-23|2021-22|2023-24|2024-25]
#
# Compiles, from a scratch directory (the checkout is only read): the checkout's game core
# (Parchis, Board, Dice, Piece, Player; no SFML: stub/GUIPlayer.h replaces the GUI include chain),
# the student's AIPlayer.cpp (default: the checkout's src/AIPlayer.cpp) with the student's own
# headers (next to it, or the include/ of a whole copy of the simulator whose src/ holds it: its
# AIPlayer.h and the headers the course does not have) and tablero's adapter.
# If the player's file has `const int NAME = N;` for NAME = --depth-var (default
# PROFUNDIDAD_ALFABETA), the scratch copy makes it a plain global so the engine exposes it as the
# `Depth` option and `go depth N` sets it. CXX (default g++) and CXXFLAGS (default -O3 -flto=auto: the
# course core's small accessors live in other files than their callers, so link-time inlining
# alone makes a depth-6 `think()` about 1.3x faster, with the same moves) are honoured.
# --pgo (g++ only): profile-guided build — an instrumented engine first searches the start
# position (`go depth 5`, about a second), then the engine is rebuilt with that profile
# (about 1.4x faster again on the course's alpha-beta; same moves).
# --year 2021-22: the checkout is the 2021-22 simulator (ugr-ccia-IA/practica3: no items, no
# Piece.cpp; docs/parchis-2021-22.md); the engine then plays tablero's `Year` 2021-22, lists that
# as its only `Year` value and has no `d` state dump.
# --year 2023-24: the checkout is the 2023-24 ("Parchís BOOM", power-bar) simulator, flat like
# 2022-23 with its PowerBar (docs/parchis-2023-24.md); the engine plays tablero's `Year` 2023-24
# (the special die `power`, no items, no playground, no `d` state dump).
# --year 2024-25: the checkout is the 2024-25 (yin-yang) simulator, whose core lives in
# src/model/ and include/model/ and the player in src/personal/ (docs/parchis-2024-25.md); the
# engine plays tablero's `Year` 2024-25 (no items, no playground, no `d` state dump), resets the
# course's NodeCounter before every think() as the simulator does, and reports its count.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() {
    echo "usage: $0 COURSE_CHECKOUT [AIPLAYER_CPP] -o ENGINE [--depth-var NAME] [--pgo] [--year 2022-23|2021-22|2023-24|2024-25]" >&2
    exit 2
}

checkout="" player="" out="" depth_var="PROFUNDIDAD_ALFABETA" pgo=0 year="2022-23"
while [ $# -gt 0 ]; do
    case "$1" in
        -o) [ $# -ge 2 ] || usage; out="$2"; shift 2 ;;
        --depth-var) [ $# -ge 2 ] || usage; depth_var="$2"; shift 2 ;;
        --pgo) pgo=1; shift ;;
        --year) [ $# -ge 2 ] || usage; year="$2"; shift 2 ;;
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
# Where the core and the player live: flat include/ and src/ until 2022-23; include/model/,
# src/model/ and src/personal/ in 2024-25.
inc=include src=src personal=src player_h=include
case "$year" in
    2022-23) core_units="Parchis Board Dice Piece Player" ;;
    2021-22) core_units="Parchis Board Dice Player" ;;
    2023-24) core_units="Parchis Board BoardTrap Dice Piece Player PowerBar" ;;
    2024-25) core_units="Parchis Board Dice Piece Player PowerBar NodeCounter Heuristic"
             inc=include/model src=src/model personal=src/personal player_h=src/personal ;;
    *) echo "error: --year '$year' is not a course year of Parchís (2022-23, 2021-22, 2023-24, 2024-25)" >&2; exit 2 ;;
esac
[ -n "$player" ] || player="$checkout/$personal/AIPlayer.cpp"
if [ "$year" != 2024-25 ] && [ -f "$checkout/include/model/Parchis.h" ]; then
    echo "error: $checkout has include/model/Parchis.h: the 2024-25 simulator (--year 2024-25)" >&2
    exit 2
fi
# The 2023-24 core is 2022-23's file layout with a power bar (include/PowerBar.h).
if [ "$year" = 2023-24 ] && [ ! -f "$checkout/include/PowerBar.h" ]; then
    echo "error: $checkout has no include/PowerBar.h: not the 2023-24 simulator (drop --year 2023-24)" >&2
    exit 2
fi
if [ "$year" = 2022-23 ] && [ -f "$checkout/include/PowerBar.h" ] && [ -f "$checkout/src/PowerBar.cpp" ]; then
    echo "error: $checkout has include/PowerBar.h: the 2023-24 simulator (--year 2023-24)" >&2
    exit 2
fi
for f in "$inc/Parchis.h" "$player_h/AIPlayer.h" $(for u in $core_units; do echo "$src/$u.cpp"; done); do
    if [ ! -f "$checkout/$f" ]; then
        hint=""
        [ "$f" = src/Piece.cpp ] && hint="; the 2021-22 simulator has none: --year 2021-22?"
        echo "error: $checkout does not look like a course Parchís checkout (missing $f$hint)" >&2
        exit 2
    fi
done
if [ "$year" = 2021-22 ] && [ -f "$checkout/src/Piece.cpp" ]; then
    echo "error: $checkout has src/Piece.cpp: a later simulator than 2021-22 (drop --year 2021-22)" >&2
    exit 2
fi
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
if [ "$year" = 2024-25 ]; then
    # The 2024-25 headers include each other by relative paths (../../src/personal/AIPlayer.h):
    # keep the checkout's layout.
    cp -r "$checkout/include/." "$scratch/include/"
    mkdir -p "$scratch/$src" "$scratch/$personal"
    cp "$checkout/$personal"/*.h "$scratch/$personal/"
else
    cp "$checkout"/include/*.h "$scratch/include/"
fi
# The player's own headers: those next to the player file and, when the player sits in the src/
# of a whole copy of the simulator (an include/ beside that src/, as students hand it in), the
# copy's include/. Its AIPlayer.h replaces the course's, and headers the course does not have
# are added; the course's own headers (Parchis.h, …) stay the course's: every player is built
# with the course's core.
player_dir="$(cd "$(dirname "$player")" && pwd)"
own_dirs=()
if [ "$(basename "$player_dir")" = src ] && [ -d "$player_dir/../include" ]; then
    own_dirs+=("$(cd "$player_dir/../include" && pwd)")
fi
own_dirs+=("$player_dir")
course_dirs=" $(cd "$checkout/$inc" && pwd) $(cd "$checkout/$src" && pwd) $(cd "$checkout/$personal" && pwd) "
# The player's headers go where the course's AIPlayer.h is (include/, or src/personal/ in 2024-25).
own_to="$scratch/include"
[ "$year" != 2024-25 ] || own_to="$scratch/$personal"
for d in "${own_dirs[@]}"; do
    case "$course_dirs" in *" $d "*) continue ;; esac  # the checkout's own files
    for f in "$d"/*.h; do
        [ -f "$f" ] || continue
        name="$(basename "$f")"
        if [ "$name" = AIPlayer.h ] || { [ ! -f "$checkout/$inc/$name" ] && [ ! -f "$checkout/$personal/$name" ]; }; then
            cp "$f" "$own_to/$name"
            echo "build.sh: the player's own $name is used ($f)" >&2
        fi
    done
done
cp "$here/stub/GUIPlayer.h" "$scratch/$inc/GUIPlayer.h"
mkdir -p "$scratch/$src" "$scratch/$personal"
for f in $core_units; do
    cp "$checkout/$src/$f.cpp" "$scratch/$src/"
done
player_copy="$scratch/$personal/AIPlayer.cpp"
cp "$player" "$player_copy"
sources=("$scratch/$src"/*.cpp)
[ "$src" = "$personal" ] || sources+=("$player_copy")
# The course's include path: include/ (2024-25's CMakeLists has include_directories("include"),
# and players write "model/Heuristic.h"); nothing more, so what does not compile there does not
# compile here.
includes=(-I"$scratch/include")

defs=()
adapter=("$here"/notation.cpp "$here"/frontend.cpp "$here"/state_dump.cpp "$here"/main.cpp)
if [ "$year" = 2021-22 ]; then
    defs+=("-DTABLERO_BRIDGE_2021")
    # The state dump reads 2022-23's items and piece types.
    adapter=("$here"/notation.cpp "$here"/frontend.cpp "$here"/main.cpp)
elif [ "$year" = 2023-24 ]; then
    # The state dump reads 2022-23's items, which the 2023-24 core no longer has.
    defs+=("-DTABLERO_BRIDGE_2023")
    adapter=("$here"/notation.cpp "$here"/frontend.cpp "$here"/main.cpp)
elif [ "$year" = 2024-25 ]; then
    defs+=("-DTABLERO_BRIDGE_2024")
    adapter=("$here"/notation.cpp "$here"/frontend.cpp "$here"/main.cpp)
fi
pattern="^([[:space:]]*)(static[[:space:]]+)?const[[:space:]]+int[[:space:]]+${depth_var}[[:space:]]*="
if grep -Eq "$pattern" "$player_copy"; then
    sed -E -i "s/${pattern}/\\1int ${depth_var} =/" "$player_copy"
    defs+=("-DTABLERO_BRIDGE_DEPTH_VAR=${depth_var}")
    echo "build.sh: '${depth_var}' of the player is exposed as the Depth option (and go depth)" >&2
else
    echo "build.sh: no 'const int ${depth_var} = …;' in the player: no Depth option (the player's own depth is used; --depth-var NAME picks another variable)" >&2
fi

cxx="${CXX:-g++}"
base_flags=(${CXXFLAGS:--O3 -flto=auto} -std=c++14 -pthread -w)
mkdir -p "$(dirname "$out")"

# compile OUTPUT EXTRA_FLAGS...: every source in parallel, then the link.
compile() {
    local target="$1"; shift
    local flags=("${base_flags[@]}" "$@") objs=() fail=0 src obj job
    for unit in "${sources[@]}" "${adapter[@]}"; do
        obj="$scratch/$(basename "$unit" .cpp).o"
        "$cxx" "${flags[@]}" "${defs[@]}" "${includes[@]}" -I"$here" -I"$here/../common" -c "$unit" -o "$obj" &
        objs+=("$obj")
    done
    for job in $(jobs -p); do wait "$job" || fail=1; done
    [ $fail -eq 0 ] || { echo "error: compilation failed (messages above)" >&2; exit 1; }
    "$cxx" "${flags[@]}" "${objs[@]}" -o "$target"
}

if [ $pgo -eq 1 ]; then
    # Object paths stay the same between the two builds (the same scratch directory), so the
    # profile files of the instrumented run match the second build's objects.
    prof="$scratch/profile"
    compile "$scratch/instrumented" -fprofile-generate="$prof" -fprofile-update=single
    printf 'uci\nsetoption name UCI_Variant value parchis\nisready\nposition startpos\ngo depth 5\nisready\nquit\n' \
        | "$scratch/instrumented" > "$scratch/train.out" 2> "$scratch/train.err" \
        || { echo "error: the instrumented engine failed on its training search (stderr: $(tail -n 3 "$scratch/train.err"))" >&2; exit 1; }
    grep -q '^bestmove ' "$scratch/train.out" \
        || { echo "error: the instrumented engine gave no bestmove on its training search" >&2; exit 1; }
    compile "$out" -fprofile-use="$prof" -fprofile-partial-training -Wno-missing-profile
    echo "build.sh: built $out (profile-guided)" >&2
else
    compile "$out"
    echo "build.sh: built $out" >&2
fi
