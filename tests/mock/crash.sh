#!/usr/bin/env bash
# Mock engine that crashes: answers the handshake, then exits with status 3 on its first `go`.
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name crash"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) exit 3 ;;
    quit) exit 0 ;;
  esac
done
