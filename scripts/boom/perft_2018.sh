#!/usr/bin/env bash
# Perft counts of DesConecta-4 BOOM (2018-19) by the course core: builds our driver
# scripts/boom/core_perft_2018.cpp against the course's environment.cpp (from a checkout you
# supply, outside this repository; compiled with the course Makefile's `g++ -g`) and answers
# each line `DEPTH [MOVE …]` of stdin with that line, a tab and the leaf count.
#
# Usage: scripts/boom/perft_2018.sh CORE_DIR < positions
#   CORE_DIR   the course's Desconecta4Boom_linux folder (environment.h, environment.cpp,
#              include/GL/glui.h), e.g. Practica3/Desconecta4Boom_linux of github:imm98/IA
set -euo pipefail

die() { echo "perft_2018.sh: $*" >&2; exit 2; }

[ $# -eq 1 ] || die "usage: scripts/boom/perft_2018.sh CORE_DIR < positions"
core=$1
[ -f "$core/environment.h" ] && [ -f "$core/environment.cpp" ] ||
    die "$core holds no environment.h and environment.cpp: give the course's Desconecta4Boom_linux folder"
command -v g++ >/dev/null || die "g++ is needed to build the core's driver"

repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

g++ -g -w -c "$core/environment.cpp" -o "$work/environment.o"
g++ -g -O2 -I "$core" -c "$repo/scripts/boom/core_perft_2018.cpp" -o "$work/driver.o"
g++ "$work/driver.o" "$work/environment.o" -o "$work/core_perft_2018" -lGL
"$work/core_perft_2018"
