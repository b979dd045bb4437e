#!/usr/bin/env bash
# The README's test command: everything `cargo test` needs on a fresh Debian machine, then
# `cargo test`. The page tests drive a real headless Chromium (Debian's `chromium`; fonts from
# `fonts-dejavu-core` so pictures render the same everywhere); it is installed when absent.
# The golden data is in the repository (tests/golden/, large files gzip-compressed).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo is required (rustup toolchain)" >&2; exit 1; }
need=()
command -v chromium >/dev/null || command -v chromium-browser >/dev/null || need+=(chromium)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
# tests/bridge_parchis.rs and tests/bridge_boom.rs compile the course-simulator bridges (C++) against their mocks.
command -v g++ >/dev/null || need+=(g++)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
    echo "scripts/test.sh: missing ${need[*]}; install them (apt-get install ${need[*]}) and rerun" >&2
    exit 1
  fi
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "scripts/test.sh: installing ${need[*]} (Debian packages) for the browser and bridge tests" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
cargo test "$@"
# A short coverage-guided fuzz run of every target (scripts/fuzz.sh; docs/reliability.md, "Fuzzing"): cargo-fuzz
# installed when absent, an unoptimised fuzz build (about half the cold build time of an optimised
# one), then FUZZ_SECONDS (default 15) per target, two targets at a time. Any crash, hang or
# memory blow-up fails the run and names the input. TABLERO_SKIP_FUZZ=1 skips it locally (CI
# never sets it).
if [ "${TABLERO_SKIP_FUZZ:-}" != 1 ]; then
  FUZZ_BUILD="${FUZZ_BUILD:---dev}" FUZZ_INSTALL_DEBUG=1 scripts/fuzz.sh "${FUZZ_SECONDS:-15}"
fi
