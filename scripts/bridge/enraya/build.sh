#!/usr/bin/env bash
# Builds a student's 5-en-Raya Táctico agent (the 2025-26 simulator's AgenteEstudiante) into a
# tablero protocol engine for the game enraya.
#
#   scripts/bridge/enraya/build.sh COURSE_CHECKOUT [STUDENT] -o ENGINE
#
# COURSE_CHECKOUT is a checkout of the course repository (ugr-ccia-IA/practica3): its game core
# (include/*.hpp, src/Tablero.cpp) is what every student is built with. STUDENT is one of
#   - a folder holding the student's AgenteEstudiante.cpp and AgenteEstudiante.hpp,
#   - a whole copy of the course repository (its Comportamiento_Agente/ is the student's),
#   - the AgenteEstudiante.cpp file itself (an AgenteEstudiante.hpp next to it is used too);
# default: the checkout's own Comportamiento_Agente/ (the course template).
#
# The student's own files are the AgenteEstudiante.cpp, the headers next to it, and, in a whole
# copy, the headers of its include/ that the course does not have. Everything else is the
# course's: a header or src/Tablero.cpp of a whole copy that differs from the checkout's is not
# used (build.sh says so), because the course evaluates every agent with its own core.
#
# Compiled, from a scratch directory (the checkout and the student's folder are only read): the
# checkout's src/Tablero.cpp, the student's AgenteEstudiante.cpp and tablero's adapter
# (frontend.cpp, main.cpp), with the include path of the course's CMakeLists (include/ then
# Comportamiento_Agente/), the course's language (gnu++17), its release defines (NDEBUG, and
# USE_THREADS of the threaded n_en_raya) and stub/GL/glut.h instead of GLUT (the GUI is never
# built). CXX (default g++) and CXXFLAGS (default -O3) are honoured.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() {
    echo "usage: $0 COURSE_CHECKOUT [STUDENT_DIR | STUDENT_COPY | AgenteEstudiante.cpp] -o ENGINE" >&2
    exit 2
}

checkout="" student="" out=""
while [ $# -gt 0 ]; do
    case "$1" in
        -o) [ $# -ge 2 ] || usage; out="$2"; shift 2 ;;
        -h|--help) usage ;;
        -*) echo "error: unknown flag '$1'" >&2; usage ;;
        *)
            if [ -z "$checkout" ]; then checkout="$1"
            elif [ -z "$student" ]; then student="$1"
            else echo "error: unexpected argument '$1'" >&2; usage
            fi
            shift ;;
    esac
done
[ -n "$checkout" ] && [ -n "$out" ] || usage

for f in include/Tablero.hpp include/Agente.hpp src/Tablero.cpp Comportamiento_Agente/AgenteEstudiante.hpp; do
    if [ ! -f "$checkout/$f" ]; then
        echo "error: $checkout does not look like a checkout of the course's 5-en-Raya simulator (missing $f); give a checkout of ugr-ccia-IA/practica3" >&2
        exit 2
    fi
done

# The student's AgenteEstudiante.cpp and its folder.
[ -n "$student" ] || student="$checkout/Comportamiento_Agente"
if [ -f "$student" ]; then
    agent_cpp="$student"
elif [ -f "$student/AgenteEstudiante.cpp" ]; then
    agent_cpp="$student/AgenteEstudiante.cpp"
elif [ -f "$student/Comportamiento_Agente/AgenteEstudiante.cpp" ]; then
    agent_cpp="$student/Comportamiento_Agente/AgenteEstudiante.cpp"
elif [ -e "$student" ]; then
    echo "error: no AgenteEstudiante.cpp in $student (nor in $student/Comportamiento_Agente)" >&2
    exit 2
else
    echo "error: student source '$student' not found" >&2
    exit 2
fi
agent_dir="$(cd "$(dirname "$agent_cpp")" && pwd)"
# A whole copy of the course repository: the agent sits in its Comportamiento_Agente/.
copy=""
if [ "$(basename "$agent_dir")" = "Comportamiento_Agente" ] && [ -f "$agent_dir/../include/Tablero.hpp" ]; then
    copy="$(cd "$agent_dir/.." && pwd)"
    [ "$copy" = "$(cd "$checkout" && pwd)" ] && copy=""
fi

scratch="$(mktemp -d "${TMPDIR:-/tmp}/tablero-enraya-bridge.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/include" "$scratch/agent" "$scratch/src"

is_header() { case "$1" in *.h|*.hpp|*.hh|*.hxx) return 0 ;; *) return 1 ;; esac; }

# The course's headers and core.
for f in "$checkout"/include/*; do
    if [ -f "$f" ] && is_header "$f"; then cp "$f" "$scratch/include/"; fi
done
for f in "$checkout"/Comportamiento_Agente/*; do
    if [ -f "$f" ] && is_header "$f"; then cp "$f" "$scratch/agent/"; fi
done
cp "$checkout/src/Tablero.cpp" "$scratch/src/Tablero.cpp"

# The student's headers: next to the agent; a header the course's include/ has stays the course's.
for f in "$agent_dir"/*; do
    [ -f "$f" ] && is_header "$f" || continue
    name="$(basename "$f")"
    if [ -f "$checkout/include/$name" ]; then
        if ! cmp -s "$f" "$checkout/include/$name"; then
            echo "build.sh: note: the student's $name differs from the course's include/$name; the course's is used (the core is the course's)" >&2
        fi
        continue
    fi
    cp "$f" "$scratch/agent/$name"
done
if [ -n "$copy" ]; then
    echo "build.sh: $copy is a whole copy of the course repository: its Comportamiento_Agente/ is the student's, the core is $checkout's" >&2
    for f in "$copy"/include/*; do
        [ -f "$f" ] && is_header "$f" || continue
        name="$(basename "$f")"
        if [ -f "$checkout/include/$name" ]; then
            cmp -s "$f" "$checkout/include/$name" \
                || echo "build.sh: note: the copy's include/$name differs from the course's; the course's is used" >&2
        else
            cp "$f" "$scratch/include/$name"
            echo "build.sh: the copy's own include/$name is used" >&2
        fi
    done
    if [ -f "$copy/src/Tablero.cpp" ] && ! cmp -s "$copy/src/Tablero.cpp" "$checkout/src/Tablero.cpp"; then
        echo "build.sh: note: the copy's src/Tablero.cpp differs from the course's; the course's is used" >&2
    fi
fi
cp "$agent_cpp" "$scratch/agent/AgenteEstudiante.cpp"
echo "build.sh: the agent is $agent_cpp" >&2
[ -f "$agent_dir/AgenteEstudiante.hpp" ] \
    || echo "build.sh: note: no AgenteEstudiante.hpp next to the agent: the course's is used" >&2

cxx="${CXX:-g++}"
flags=(${CXXFLAGS:--O3} -std=gnu++17 -pthread -DNDEBUG -DUSE_THREADS -w)
incs=(-I"$scratch/include" -I"$scratch/agent" -I"$here/stub" -I"$here" -I"$here/../common")
mkdir -p "$(dirname "$out")"
objs=() fail=0
for src in "$scratch/src/Tablero.cpp" "$scratch/agent/AgenteEstudiante.cpp" "$here/frontend.cpp" "$here/main.cpp"; do
    obj="$scratch/$(basename "$src" .cpp).o"
    "$cxx" "${flags[@]}" "${incs[@]}" -c "$src" -o "$obj" &
    objs+=("$obj")
done
for job in $(jobs -p); do wait "$job" || fail=1; done
[ $fail -eq 0 ] || { echo "error: compilation failed (messages above)" >&2; exit 1; }
"$cxx" "${flags[@]}" "${objs[@]}" -o "$out"
echo "build.sh: built $out" >&2
