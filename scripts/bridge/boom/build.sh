#!/usr/bin/env bash
# Builds a course Conecta-4 BOOM player (the 2020-21 simulator's Player) into a tablero protocol
# engine for the game connect4boom.
#
#   scripts/bridge/boom/build.sh COURSE_CHECKOUT [PLAYER_CPP] -o ENGINE [--depth-var NAME]
#
# Compiles, from a scratch directory (the checkout is only read): the checkout's game core
# (environment.h / environment.cpp, class Environment), the student's player.cpp (default: the
# checkout's; a player.h next to it is used too, else the checkout's) and tablero's adapter.
# Other headers next to the player file that the checkout does not have (the student's own) are
# used too. The scratch copy changes the course code in two places, and says so:
# - environment.cpp includes "include/GL/glui.h" for Environment::Show(), which draws with
#   OpenGL; stub/include/GL/glui.h takes its place (GL calls that do nothing, and the standard
#   headers the real glui.h includes);
# - Environment::operator= falls off its end without `return *this;` (undefined behaviour: an
#   optimising compiler may emit anything after the last statement); the copy adds the return.
# If the player has `const int NAME = N;` (inside Think() or global) for NAME = --depth-var
# (default PROFUNDIDAD_ALFABETA), the copy makes NAME a reference to a variable of the adapter,
# so the engine exposes it as the `Depth` option (default N) and `go depth D` sets it.
# CXX (default g++) and CXXFLAGS (default -O3 -flto=auto) are honoured; the course compiled
# with g++'s defaults of the time, so the language is gnu++14.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() {
    echo "usage: $0 COURSE_CHECKOUT [PLAYER_CPP] -o ENGINE [--depth-var NAME] [--year 2020-21|2018-19]" >&2
    exit 2
}

checkout="" player="" out="" depth_var="PROFUNDIDAD_ALFABETA" year="2020-21"
while [ $# -gt 0 ]; do
    case "$1" in
        -o) [ $# -ge 2 ] || usage; out="$2"; shift 2 ;;
        --depth-var) [ $# -ge 2 ] || usage; depth_var="$2"; shift 2 ;;
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
case "$year" in
    2020-21|2018-19) ;;
    *) echo "error: --year '$year' is not a course year of Conecta-4 BOOM (2020-21, 2018-19)" >&2; exit 2 ;;
esac
[ -n "$player" ] || player="$checkout/player.cpp"

for f in environment.h environment.cpp player.h; do
    if [ ! -f "$checkout/$f" ]; then
        echo "error: $checkout does not look like a course Conecta-4 BOOM checkout (missing $f)" >&2
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

scratch="$(mktemp -d "${TMPDIR:-/tmp}/tablero-boom-bridge.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/include/GL"
cp "$checkout/environment.h" "$checkout/environment.cpp" "$scratch/"
cp "$here/stub/include/GL/glui.h" "$scratch/include/GL/glui.h"
# A player kept outside the checkout may come with its own player.h next to it, and with other
# headers of its own (a whole copy of the simulator is one folder): those the checkout does not
# have are used too; the core's environment.h stays the course's.
if [ -f "$(dirname "$player")/player.h" ]; then
    cp "$(dirname "$player")/player.h" "$scratch/player.h"
else
    cp "$checkout/player.h" "$scratch/player.h"
fi
if [ "$(cd "$(dirname "$player")" && pwd)" != "$(cd "$checkout" && pwd)" ]; then
    for f in "$(dirname "$player")"/*.h; do
        [ -f "$f" ] || continue
        name="$(basename "$f")"
        if [ "$name" != player.h ] && [ ! -f "$checkout/$name" ]; then
            cp "$f" "$scratch/$name"
            echo "build.sh: the player's own $name is used ($f)" >&2
        fi
    done
fi
cp "$player" "$scratch/player.cpp"

# Environment::operator=: add `return *this;` before the closing brace when the body does not
# end with it. Braces are counted from the line that names the operator.
awk '
    function count(s, c,   n) { n = gsub(c, "", s); return n }
    !done && !inside && /Environment::operator=[[:space:]]*\(/ { inside = 1; depth = 0; opened = 0 }
    inside {
        o = count($0, "{"); c = count($0, "}")
        if (depth + o - c == 0 && opened + o > 0 && $0 ~ /^[[:space:]]*}[[:space:]]*$/) {
            if (last !~ /return[[:space:]]*\*this[[:space:]]*;/) {
                print "    return *this;  // added by tablero'"'"'s bridge: the course code falls off the end here"
                fixed = 1
            }
            inside = 0; done = 1
        }
        depth += o - c; opened += o
        if ($0 !~ /^[[:space:]]*$/) last = $0
    }
    { print }
    END { print (fixed ? "fixed" : done ? "ok" : "unknown") > "/dev/stderr" }
' "$checkout/environment.cpp" > "$scratch/environment.cpp" 2> "$scratch/opassign.txt"
case "$(cat "$scratch/opassign.txt")" in
    fixed) echo "build.sh: environment.cpp: Environment::operator= ends without 'return *this;' (undefined behaviour); the scratch copy adds it" >&2 ;;
    ok) echo "build.sh: environment.cpp: Environment::operator= already ends with 'return *this;'" >&2 ;;
    *) echo "build.sh: warning: environment.cpp: could not find the end of Environment::operator= (left as it is)" >&2 ;;
esac

# The early 2018-19 core's copy constructor does not copy the bomb period `n_veces` (left
# uninitialised: undefined behaviour, a state built by GenerateNextMove has an arbitrary bomb
# schedule), and its operator= keeps the target's. The course's later core copies it in both;
# the scratch copy does the same.
if grep -Eq '\bn_veces\b' "$scratch/environment.h" &&
    ! grep -Eq 'n_veces[[:space:]]*=[[:space:]]*env\.n_veces' "$scratch/environment.cpp"; then
    sed -E -i 's/^([[:space:]]*)n_jugada[[:space:]]*=[[:space:]]*env\.n_jugada[[:space:]]*;/&\n\1n_veces = env.n_veces;  \/\/ added by tablero'"'"'s bridge, as in the course'"'"'s later core/' "$scratch/environment.cpp"
    echo "build.sh: environment.cpp: the copy constructor and operator= do not copy n_veces (the bomb period; undefined behaviour in a copy); the scratch copy copies it, as the course's later core does" >&2
fi

defs=("-DTABLERO_BRIDGE_YEAR=\"${year}\"")
pattern="^([[:space:]]*)(static[[:space:]]+)?const[[:space:]]+int[[:space:]]+${depth_var}[[:space:]]*=[[:space:]]*([0-9]+)[[:space:]]*;"
# (grep finds nothing in a player without the constant: not an error under pipefail.)
values="$({ grep -Eo "$pattern" "$scratch/player.cpp" || true; } | sed -E "s/${pattern}/\\3/" | sort -u)"
if [ -n "$values" ]; then
    default="$(grep -Eo "$pattern" "$scratch/player.cpp" | head -n 1 | sed -E "s/${pattern}/\\3/")"
    if [ "$(echo "$values" | wc -l)" -gt 1 ]; then
        echo "build.sh: warning: '${depth_var}' is declared with several values ($(echo $values)); the Depth option sets all of them (default ${default})" >&2
    fi
    sed -E -i "s/${pattern}/\\1extern int tablero_bridge_depth; \\2const int \\&${depth_var} = tablero_bridge_depth;/" "$scratch/player.cpp"
    defs+=("-DTABLERO_BRIDGE_DEPTH_VAR=${depth_var}" "-DTABLERO_BRIDGE_DEPTH_DEFAULT=${default}")
    echo "build.sh: '${depth_var}' of the player (${default}) is exposed as the Depth option (and go depth)" >&2
else
    echo "build.sh: no 'const int ${depth_var} = N;' in the player: no Depth option (the player's own depth is used; --depth-var NAME picks another constant)" >&2
fi

cxx="${CXX:-g++}"
flags=(${CXXFLAGS:--O3 -flto=auto} -std=gnu++14 -w)
mkdir -p "$(dirname "$out")"
objs=() fail=0
for src in "$scratch/environment.cpp" "$scratch/player.cpp" "$here/frontend.cpp" "$here/main.cpp"; do
    obj="$scratch/$(basename "$src" .cpp).o"
    "$cxx" "${flags[@]}" "${defs[@]}" -I"$scratch" -I"$here" -I"$here/../common" -c "$src" -o "$obj" &
    objs+=("$obj")
done
for job in $(jobs -p); do wait "$job" || fail=1; done
[ $fail -eq 0 ] || { echo "error: compilation failed (messages above)" >&2; exit 1; }
"$cxx" "${flags[@]}" "${objs[@]}" -o "$out"
echo "build.sh: built $out" >&2
