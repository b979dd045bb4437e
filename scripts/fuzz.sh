#!/usr/bin/env bash
# Coverage-guided fuzzing (cargo-fuzz / libFuzzer) of every target in fuzz/fuzz_targets/:
#   scripts/fuzz.sh [SECONDS] [TARGET ...]      (default: 60 s each, every target)
# Installs cargo-fuzz from crates.io when absent (it runs on the nightly toolchain), builds the
# targets once, seeds fuzz/corpus/<target>/ from the golden data (tests/golden/) and quick
# `tablero match` records, then runs each target for SECONDS (as many at once as there are
# cores) and prints per target: executions, exec/s, coverage (libFuzzer's cov:/ft:), corpus
# size and crashes. Exits non-zero on any crash, timeout or out-of-memory; the input that did it
# is in fuzz/artifacts/<target>/ (the path is printed) and its log in fuzz/logs/<target>.log.
# Environment: FUZZ_JOBS (targets at once, default: cores), FUZZ_BUILD (extra `cargo fuzz
# build` flags, e.g. --dev), FUZZ_ARGS (extra libFuzzer flags), FUZZ_TIMEOUT (seconds one input may take, default 60), FUZZ_INSTALL_DEBUG=1 (install
# an unoptimised cargo-fuzz: quicker to build), FUZZ_BUILD_ONLY=1 (install and build, run nothing).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
all=(protocol notation records gui_http)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
case "$secs" in '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a number, got '$secs'" >&2; exit 2 ;; esac

cargo +nightly --version >/dev/null 2>&1 || {
  echo "fuzz.sh: the nightly toolchain is required (rustup toolchain install nightly)" >&2
  exit 1
}
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "fuzz.sh: installing cargo-fuzz from crates.io" >&2
  t0=$(date +%s)
  # cargo-fuzz only drives cargo and libFuzzer: an unoptimised build of it (FUZZ_INSTALL_DEBUG=1)
  # compiles in half the time and runs as well.
  debug=()
  if [ "${FUZZ_INSTALL_DEBUG:-}" = 1 ]; then debug=(--debug); fi
  cargo install cargo-fuzz --locked --quiet "${debug[@]}"
  echo "fuzz.sh: cargo-fuzz installed in $(($(date +%s) - t0)) s" >&2
fi

# No sanitizer: tablero is safe Rust apart from two small, reviewed `unsafe` blocks (madvise,
# the solver's table), so AddressSanitizer would mostly cost build and run time; panics, hangs
# (-timeout) and memory blow-ups (-rss_limit_mb, -malloc_limit_mb) are what is hunted here.
# Debug assertions and overflow checks stay on (cargo-fuzz's default).
build_flags=(-s none ${FUZZ_BUILD:-})
t0=$(date +%s)
cargo +nightly fuzz build "${build_flags[@]}" >&2
echo "fuzz.sh: fuzz targets built in $(($(date +%s) - t0)) s" >&2
if [ "${FUZZ_BUILD_ONLY:-}" = 1 ]; then exit 0; fi
bindir=fuzz/target/x86_64-unknown-linux-gnu/release
for f in ${FUZZ_BUILD:-}; do
  if [ "$f" = --dev ] || [ "$f" = -D ]; then bindir=fuzz/target/x86_64-unknown-linux-gnu/debug; fi
done

# Seeds: state strings replayed by the engine itself, so a tablero binary is needed.
tablero=target/debug/tablero
[ -x "$tablero" ] || { cargo build --quiet --bin tablero; }
golden=tests/golden
[ -d "$golden" ] || { echo "fuzz.sh: no golden data at $golden (seeds come from it)" >&2; exit 1; }
python3 scripts/fuzz_seeds.py "$tablero" "$golden" fuzz/corpus >&2

mkdir -p fuzz/logs
jobs_max=${FUZZ_JOBS:-$(nproc)}
run_one() {
  local t=$1
  mkdir -p "fuzz/artifacts/$t"
  local rc=0
  "$bindir/$t" "fuzz/corpus/$t" -max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-60}" -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/" ${FUZZ_ARGS:-} \
    >"fuzz/logs/$t.log" 2>&1 || rc=$?
  echo "$rc" >"fuzz/logs/$t.rc"
}
running=0
for t in "${targets[@]}"; do
  [ -x "$bindir/$t" ] || { echo "fuzz.sh: unknown target '$t' (known: ${all[*]})" >&2; exit 2; }
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs_max" ]; then wait -n; running=$((running - 1)); fi
done
wait

failed=0
printf '%-10s %12s %8s %9s %7s %8s %7s  %s\n' target executions exec/s slowest_s cov ft corpus crashes
for t in "${targets[@]}"; do
  log=fuzz/logs/$t.log
  rc=$(cat "fuzz/logs/$t.rc")
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  eps=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  # The slowest single input of the run (seed corpus included), against FUZZ_TIMEOUT.
  slowest=$(grep -o 'stat::slowest_unit_time_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
  cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || true)
  ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || true)
  corpus=$(find "fuzz/corpus/$t" -type f | wc -l)
  crashes=0
  if [ "$rc" != 0 ]; then
    crashes=1
    failed=1
  fi
  printf '%-10s %12s %8s %9s %7s %8s %7s  %s\n' "$t" "${execs:-?}" "${eps:-?}" "${slowest:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$crashes"
  if [ "$rc" != 0 ]; then
    grep -E '^(==[0-9]+== ERROR|SUMMARY|thread .* panicked)' "$log" | head -n 3 | sed 's/^/    /'
    grep -o 'Test unit written to .*' "$log" | sed 's/^/    /' || echo "    (exit $rc; see $log)"
  fi
done
exit "$failed"
