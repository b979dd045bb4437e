#!/bin/sh
# A fake tablero for tests/bridge_enraya.rs, written for tablero: it speaks just enough of the
# protocol and disagrees with every position (its `d` shows a state string no core reaches, its
# `moves` and its `bestmove` are the cell 0,0), so the cross-checks must catch it.
while read -r line; do
    case "$line" in
        isready) echo readyok ;;
        d) echo "fen: 3/3/3 o 2 9 9" ;;
        moves) echo "moves 0,0" ;;
        go*) echo "bestmove 0,0" ;;
        quit) exit 0 ;;
    esac
done
