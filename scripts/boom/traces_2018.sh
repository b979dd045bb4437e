#!/usr/bin/env bash
# Golden games of DesConecta-4 BOOM (2018-19) from the course core: builds our driver
# scripts/boom/core_traces_2018.cpp against the course's environment.cpp (from a checkout you
# supply, outside this repository; compiled with the course Makefile's `g++ -g`, which the core
# needs: its operator= returns nothing) and prints its traces on stdout.
#
# Usage: scripts/boom/traces_2018.sh CORE_DIR [SEED [GAMES [MAX_PLIES]]]
#   CORE_DIR   the course's Desconecta4Boom_linux folder (environment.h, environment.cpp,
#              include/GL/glui.h), e.g. Practica3/Desconecta4Boom_linux of github:imm98/IA or
#              Practica3 of github:corderop/PracticasIA
#   SEED       default 2018; GAMES default 600; MAX_PLIES default 300
# tests/traces/boom/core_traces_2018.jsonl.gz was made with
#   scripts/boom/traces_2018.sh "$CORE" 2018 600 | gzip -9n > tests/traces/boom/core_traces_2018.jsonl.gz
set -euo pipefail

die() { echo "traces_2018.sh: $*" >&2; exit 2; }

[ $# -ge 1 ] && [ $# -le 4 ] || die "usage: scripts/boom/traces_2018.sh CORE_DIR [SEED [GAMES [MAX_PLIES]]]"
core=$1
seed=${2:-2018}
games=${3:-600}
max_plies=${4:-300}
[ -f "$core/environment.h" ] && [ -f "$core/environment.cpp" ] ||
    die "$core holds no environment.h and environment.cpp: give the course's Desconecta4Boom_linux folder"
command -v g++ >/dev/null || die "g++ is needed to build the core's driver"

repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The core draws its board with OpenGL (Environment::Show), hence -lGL; nothing here calls it.
g++ -g -w -c "$core/environment.cpp" -o "$work/environment.o"
g++ -g -O2 -I "$core" -c "$repo/scripts/boom/core_traces_2018.cpp" -o "$work/driver.o"
g++ "$work/driver.o" "$work/environment.o" -o "$work/core_traces_2018" -lGL
"$work/core_traces_2018" "$seed" "$games" "$max_plies"
