#!/usr/bin/env bash
# Compares the standard headers that the course simulator's real GUI include chain provides with
# the ones the bridge's GLUT stub (stub/GL/glut.h) provides.
#
#   scripts/bridge/enraya/check_stub_headers.sh COURSE_CHECKOUT
#
# Needs g++ and freeglut's headers (Debian: freeglut3-dev). Preprocesses `#include "GUI.hpp"`
# (the deepest chain a student's file can include: GUI.hpp includes <GL/glut.h> and
# ControladorJuego.hpp) twice with `g++ -H`: once with the system's GL headers and once with the
# stub first on the include path, and lists every header outside the checkout and outside GL/KHR
# that only one of them reaches. Exit 0 when both sets are equal, 1 otherwise (the differences are
# printed), 2 on bad usage.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ $# -ne 1 ]; then
    echo "usage: $0 COURSE_CHECKOUT" >&2
    exit 2
fi
checkout="$1"
if [ ! -f "$checkout/include/GUI.hpp" ] || [ ! -f "$checkout/include/Tablero.hpp" ]; then
    echo "error: $checkout does not look like a checkout of the course's 5-en-Raya simulator (missing include/GUI.hpp or include/Tablero.hpp)" >&2
    exit 2
fi
cxx="${CXX:-g++}"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/tablero-stubcheck.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
printf '#include "GUI.hpp"\n' > "$scratch/tu.cpp"
inc=(-I"$checkout/include" -I"$checkout/Comportamiento_Agente")

# Headers reached, minus the course's own and GL's: what a student's file gets for free.
reached() {
    local name="$1"; shift
    if ! "$cxx" -std=gnu++17 -H -fsyntax-only "$@" "${inc[@]}" "$scratch/tu.cpp" 2> "$scratch/$name.err" >/dev/null; then
        echo "error: the $name include chain does not compile (are freeglut's headers installed?):" >&2
        grep -v '^\.' "$scratch/$name.err" | head -n 5 >&2
        exit 2
    fi
    sed -n 's/^\.\+ //p' "$scratch/$name.err" | grep -v "^$checkout/" | grep -v "^$here/" \
        | grep -v '/GL/' | grep -v '/KHR/' | sort -u > "$scratch/$name.txt"
}
reached real
reached stub -I"$here/stub"
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
