#!/usr/bin/env bash
# Compares the standard headers that the course simulator's real GUI include chain provides with
# the ones the bridge's stub (stub/GUIPlayer.h) provides.
#
#   scripts/bridge/parchis/check_stub_headers.sh COURSE_CHECKOUT
#
# Needs g++ and the SFML headers the simulator builds with (Debian: libsfml-dev). Preprocesses
# `#include "GUIPlayer.h"` twice with `g++ -H`: once against the checkout's include/ (the real
# chain: ParchisGUI.h, the sprites, SFML) and once with the stub in its place, and lists every
# header outside the checkout and outside SFML that only one of them reaches. Exit 0 when both
# sets are equal, 1 otherwise (the differences are printed), 2 on bad usage.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ $# -ne 1 ]; then
    echo "usage: $0 COURSE_CHECKOUT" >&2
    exit 2
fi
checkout="$1"
if [ ! -f "$checkout/include/GUIPlayer.h" ] || [ ! -f "$checkout/include/ParchisGUI.h" ]; then
    echo "error: $checkout does not look like a course Parchís checkout (missing include/GUIPlayer.h or include/ParchisGUI.h)" >&2
    exit 2
fi
cxx="${CXX:-g++}"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/tablero-stubcheck.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/real" "$scratch/stub"
cp "$checkout"/include/*.h "$scratch/real/"
cp "$checkout"/include/*.h "$scratch/stub/"
cp "$here/stub/GUIPlayer.h" "$scratch/stub/GUIPlayer.h"
printf '#include "GUIPlayer.h"\n' > "$scratch/tu.cpp"

# Headers reached, minus the course's own and SFML's: what a player file gets for free.
reached() {
    if ! "$cxx" -std=c++14 -H -fsyntax-only -I"$scratch/$1" "$scratch/tu.cpp" 2> "$scratch/$1.err" >/dev/null; then
        echo "error: the $1 include chain does not compile (is SFML installed?):" >&2
        grep -v '^\.' "$scratch/$1.err" | head -n 5 >&2
        exit 2
    fi
    sed -n 's/^\.\+ //p' "$scratch/$1.err" | grep -v "^$scratch/" | grep -v '/SFML/' | sort -u > "$scratch/$1.txt"
}
reached real
reached stub
only_real="$(comm -23 "$scratch/real.txt" "$scratch/stub.txt")"
only_stub="$(comm -13 "$scratch/real.txt" "$scratch/stub.txt")"
echo "real chain: $(wc -l < "$scratch/real.txt") headers; stub: $(wc -l < "$scratch/stub.txt") headers"
if [ -z "$only_real" ] && [ -z "$only_stub" ]; then
    echo "same set of headers"
    exit 0
fi
[ -z "$only_real" ] || { echo "only in the real chain:"; echo "$only_real" | sed 's/^/  /'; }
[ -z "$only_stub" ] || { echo "only in the stub:"; echo "$only_stub" | sed 's/^/  /'; }
exit 1
