#!/usr/bin/env bash
# Renders the README's pictures (scripts/pictures/positions.txt) with `tablero render` into
# scripts/pictures/. Run it after changing a picture; tests/readme_pictures.rs fails until the
# committed files match what render draws.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
while read -r game file moves; do
  case "$game" in ''|'#'*) continue ;; esac
  # shellcheck disable=SC2086 # the moves are words
  target/release/tablero --game "$game" render --size 600 --moves $moves -o "scripts/pictures/$file"
  echo "scripts/pictures/$file"
done < scripts/pictures/positions.txt
