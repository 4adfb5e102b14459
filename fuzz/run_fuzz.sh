#!/usr/bin/env bash
# Builds the libFuzzer target with clang + ASan/UBSan and runs it for a bounded
# time over a seed corpus of every sample and golden test.
# Usage: fuzz/run_fuzz.sh [SECONDS] [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
build=${2:-"$here/build-fuzz"}
CXX=clang++ CC=clang cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPIR_BUILD_FUZZ=ON -DPIR_BUILD_TESTS=OFF -DPIR_BUILD_BENCH=OFF -DPIR_SANITIZE=ON >/dev/null
ninja -C "$build" pir_fuzz
corpus="$build/corpus"
mkdir -p "$corpus"
find "$here/samples" "$here/tests/lit" -name '*.pir' -exec cp {} "$corpus/" \;
# -rss_limit_mb bounds memory; -timeout flags hangs; leaks are reported by LeakSanitizer.
"$build/fuzz/pir_fuzz" "$corpus" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
  -print_final_stats=1 -dict="$here/fuzz/pir.dict"
