#!/usr/bin/env bash
# Mock engine: the tablero binary given as $1, told `setoption name Columns value 5` after every
# `isready` it is sent, so it plays a 5-column board whatever the referee set (a refused
# position, tests/refusals.rs).
while IFS= read -r line; do
  printf '%s\n' "$line"
  if [ "$line" = isready ]; then printf 'setoption name Columns value 5\n'; fi
done | exec "$1"
