#!/usr/bin/env bash
# Mock engine that plays legally but prints junk: a real engine (the tablero binary given as
# $1, run as `--player random`) with garbage lines mixed into its output.
"$1" --player random | while IFS= read -r line; do
  echo "garbage: ###"
  echo ""
  echo "$line"
done
