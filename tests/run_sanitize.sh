#!/usr/bin/env bash
# The sanitizer run (CTest label `sanitize`): configures a second build with
# -DPIR_SANITIZE=ON (AddressSanitizer + UBSan, no mimalloc), builds pir and the
# unit tests, and runs the unit tests, the goldens (lit, roundtrip, the pass
# corpora) and the MPI replica comparison there.
# Any sanitizer report fails the run (UBSan is made fatal).
# Usage: tests/run_sanitize.sh SOURCE_DIR BUILD_DIR [ctest -L/-R arguments...]
set -euo pipefail
src=$1
build=$2
shift 2
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPIR_SANITIZE=ON \
  -DPIR_BUILD_BENCH=OFF -DPIR_BUILD_FUZZ=OFF ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >/dev/null
ninja -C "$build"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export LSAN_OPTIONS=suppressions=$src/tests/lsan.supp
# The tmux terminal tests are left out: they time keystrokes, which ASan slows.
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(-L "unit|golden|mpi")
ctest --test-dir "$build" --output-on-failure -j2 -LE "fuzz|sanitize|tmux" "${args[@]}"
