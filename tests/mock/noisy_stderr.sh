#!/usr/bin/env bash
# Mock engine that writes a lot to stderr, which the referee must log and never parse.
"$1" --player greedy 2> >(cat >&2) | while IFS= read -r line; do
  echo "bestmove zz9 (on stderr, must be ignored)" >&2
  echo "$line"
done
