#!/usr/bin/env bash
# A fake tablero for tests/bridge_enraya.rs, written for tablero: it speaks just enough of the
# protocol and disagrees with every position (its `d` shows a state string no core reaches, its
# `moves` and its `bestmove` are the cell 0,0), so the cross-checks must catch it. With
# LIAR_REFUSE=1 it is a tablero that does not know the game. It takes no arguments.
set -euo pipefail
if [ $# -ne 0 ]; then
    echo "usage: [LIAR_REFUSE=1] $0   (a fake tablero on stdin/stdout, for tests/bridge_enraya.rs)" >&2
    exit 2
fi
while read -r line; do
    case "$line" in
        "setoption name UCI_Variant value enraya")
            if [ "${LIAR_REFUSE:-0}" = 1 ]; then echo "info string error: setoption UCI_Variant: unknown game 'enraya' (known: parchis, connect4boom, connect4, mancala)"; fi ;;
        isready) echo readyok ;;
        d) echo "fen: 3/3/3 o 2 9 9" ;;
        moves) echo "moves 0,0" ;;
        go*) echo "bestmove 0,0" ;;
        quit) exit 0 ;;
        *) ;;
    esac
done
