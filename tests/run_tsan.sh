#!/usr/bin/env bash
# The ThreadSanitizer run (CTest `sanitize_thread`, label `sanitize`): configures a
# build with -DPIR_SANITIZE_THREAD=ON, builds the unit tests that run threads (the
# replica pool, pir's kernel-thread splits, sessions, fused chains, sliced groups
# and the numerics tests' split kernels, convolutions among them) and pir, runs those tests, then runs every replicated golden and sample
# under `pir run --threads=4 --trace` (replicas on four threads, each tracing); any
# race report fails the run.
# OpenBLAS runs on one thread here: its own worker threads synchronise in code
# TSan does not instrument, so every product it splits would be reported. pir's
# kernel threads still split (they are pir's, and instrumented).
# Usage: tests/run_tsan.sh SOURCE_DIR BUILD_DIR [unit test names...]
set -euo pipefail
src=$1
build=$2
shift 2
tests=("$@")
[ ${#tests[@]} -gt 0 ] ||
  tests=(replicas_test session_test suggest_test context_test fusion_test sliced_group_test random_test kernels_test
    numerics_test)
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPIR_SANITIZE_THREAD=ON \
  -DPIR_BUILD_BENCH=OFF -DPIR_BUILD_FUZZ=OFF -DPIR_BUILD_PYTHON=OFF \
  ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >/dev/null
ninja -C "$build" pir "${tests[@]}"
export OPENBLAS_NUM_THREADS=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:exitcode=66
failed=0
for t in "${tests[@]}"; do
  if "$build/tests/$t" --gtest_brief=1; then echo "$t: no race"; else echo "$t: FAILED"; failed=1; fi
done
# A golden may fail on purpose (a diagnostic test): only TSan's exit code counts.
# Each runs from a copy in the build tree, so that what it saves lands there.
pir=$build/repl/pir
work=$build/tsan_programs
programs=0
while IFS= read -r file; do
  programs=$((programs + 1))
  rm -rf "$work" && mkdir -p "$work" && cp "$file" "$work/prog.pir"
  rc=0
  (cd "$work" && "$pir" run prog.pir --threads=4 --trace >/dev/null 2>"$build/tsan_last.err") || rc=$?
  if [ $rc -eq 66 ]; then echo "$file: RACE"; cat "$build/tsan_last.err"; failed=1; fi
done < <(grep -l 'replication' "$src"/samples/*.pir "$src"/tests/lit/*/*.pir)
echo "replicated programs under --threads=4 --trace: $programs"
exit $failed
