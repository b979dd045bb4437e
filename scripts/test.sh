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
# A short coverage-guided fuzz run of every target follows the tests (scripts/fuzz.sh;
# docs/reliability.md, "Fuzzing"): cargo-fuzz installed when absent, an unoptimised fuzz build
# (about half the cold build time of an optimised one), then FUZZ_SECONDS (default 15) per
# target, two targets at a time. Any crash, hang or memory blow-up fails the run and names the
# input. TABLERO_SKIP_FUZZ=1 skips it locally (CI never sets it).
#
# The install and the build start now, beside `cargo test`, at the lowest priority (nice 19):
# they get the CPU the tests leave idle (the integration tests wait on engines, browsers and
# timeouts for about a quarter of their time) and next to none the tests want. In a process
# group of their own (job control, `set -m`), so that a failing `cargo test` stops them too;
# not in a session of their own (`setsid`): the kernel's autogroups share the CPU equally
# between sessions whatever their nice, which made the test build 7 min instead of 4 1/2.
fuzz_prep=""
if [ "${TABLERO_SKIP_FUZZ:-}" != 1 ]; then
  mkdir -p fuzz/logs
  set -m
  FUZZ_BUILD="${FUZZ_BUILD:---dev}" FUZZ_INSTALL_DEBUG=1 FUZZ_BUILD_ONLY=1 \
    nice -n 19 scripts/fuzz.sh >fuzz/logs/build.log 2>&1 &
  fuzz_prep=$!
  set +m
  trap '[ -z "$fuzz_prep" ] || kill -- -"$fuzz_prep" 2>/dev/null || true' EXIT
fi
cargo test "$@"
if [ -n "$fuzz_prep" ]; then
  t0=$(date +%s)
  rc=0
  wait "$fuzz_prep" || rc=$?
  fuzz_prep=""
  if [ "$rc" != 0 ]; then
    cat fuzz/logs/build.log >&2
    echo "scripts/test.sh: the fuzz build failed (exit $rc; its log is above and in fuzz/logs/build.log)" >&2
    exit 1
  fi
  grep '^fuzz.sh:' fuzz/logs/build.log >&2 || true
  echo "scripts/test.sh: waited $(($(date +%s) - t0)) s for the fuzz build after the tests" >&2
  FUZZ_BUILD="${FUZZ_BUILD:---dev}" FUZZ_INSTALL_DEBUG=1 scripts/fuzz.sh "${FUZZ_SECONDS:-15}"
fi
