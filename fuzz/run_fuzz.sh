#!/usr/bin/env bash
# Builds the libFuzzer targets with clang + ASan/UBSan and runs each for a bounded
# time over a seed corpus of every sample and golden test and the hostile seeds of
# fuzz/corpus (NPY: files written by the goldens and a few made here, with huge and
# zero-size dims), with the op-table dictionary fuzz/pir.dict.
# Usage: fuzz/run_fuzz.sh [SECONDS_PER_TARGET] [BUILD_DIR] [TARGET...]
# PIR_FUZZ_FLAGS adds libFuzzer flags (e.g. -entropic=0, see docs/decisions.md).
# PIR_FUZZ_SANITIZE=undefined builds with UBSan alone (about twice the inputs per
# second; no ASan or LeakSanitizer): give that build its own BUILD_DIR.
# PIR_FUZZ_TIMEOUT (seconds, default 25) flags an input as a hang.
# Exit status: non-zero when a target finds a crash, hang, leak or sanitizer report.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
build=$(realpath -m "${2:-$here/build-fuzz}")  # absolute: the targets chdir into a temp dir
shift $(( $# > 2 ? 2 : $# ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(pir_fuzz pir_fuzz_run pir_fuzz_npy pir_fuzz_repl pir_fuzz_roundtrip pir_fuzz_onnx)
case "${PIR_FUZZ_SANITIZE:-address}" in
  address) sanitize="-DPIR_SANITIZE=ON -DPIR_SANITIZE_UNDEFINED=OFF" ;;
  undefined) sanitize="-DPIR_SANITIZE=OFF -DPIR_SANITIZE_UNDEFINED=ON" ;;
  *) echo "PIR_FUZZ_SANITIZE must be address or undefined" >&2; exit 2 ;;
esac
CXX=clang++ CC=clang cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPIR_BUILD_FUZZ=ON -DPIR_BUILD_TESTS=OFF -DPIR_BUILD_BENCH=OFF $sanitize >/dev/null
ninja -C "$build" "${targets[@]}"
# The dictionary: the hand-written keywords plus every op name of ir/ops.def.
dict="$build/pir.dict"
{
  cat "$here/fuzz/pir.dict"
  sed -n 's/^PIR_OP([A-Za-z0-9_]*, *"\([^"]*\)".*/"\1"/p' "$here/ir/ops.def"
} | sort -u > "$dict"
# Each target works in a fresh directory under TMPDIR (fuzz_common.h); a tmpfs keeps
# its file writes (the NPY target writes every input) off the disk.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
status=0
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  if [ "$target" = pir_fuzz_npy ]; then
    python3 - "$corpus" <<'PY' || true
import struct, sys, os
d = sys.argv[1]
def npy(descr, shape, data, version=1):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    pad = (64 - (10 + len(header) + 1) % 64) % 64
    header = header + ' ' * pad + '\n'
    if version == 1:
        return b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode() + data
    return b'\x93NUMPY\x02\x00' + struct.pack('<I', len(header)) + header.encode() + data
seeds = {
  'f4': npy('<f4', '(2,)', struct.pack('<2f', 1.5, -2)),
  'i8': npy('<i8', '(3,)', struct.pack('<3q', 1, -2, 3)),
  'b1': npy('|b1', '(2, 2)', bytes([0, 1, 2, 0])),
  'f2v2': npy('<f2', '(1,)', b'\x00\x3c', 2),
  'empty': npy('<f8', '(0, 5)', b''),
  'giant_empty': npy('<f4', '(4611686018427387904, 4, 0)', b''),
  'zero_giant': npy('<i4', '(0, 9223372036854775807)', b''),
  'giant_claims': npy('<f4', '(4611686018427387904,)', struct.pack('<2f', 1, 2)),
  'wrapping_dims': npy('<u1', '(4294967296, 4294967296)', b'\x00'),
  'scalar': npy('<u2', '()', b'\x07\x00'),
}
for k, v in seeds.items():
    open(os.path.join(d, k + '.npy'), 'wb').write(v)
PY
  elif [ "$target" = pir_fuzz_onnx ]; then
    # Seeds: the ONNX backend node tests' models (libonnx-testdata), when installed.
    for m in /usr/share/libonnx-testdata/data/node/*/model.onnx; do
      [ -f "$m" ] && cp "$m" "$corpus/$(basename "$(dirname "$m")").onnx"
    done
  else
    # fuzz/corpus: hostile seeds (2^62-sized and zero-size dims, strides at the int64 limits).
    find "$here/samples" "$here/tests/lit" "$here/fuzz/corpus" -name '*.pir' -exec cp {} "$corpus/" \;
  fi
  echo "== $target: ${seconds}s"
  # -rss_limit_mb bounds memory; -timeout flags hangs (25 s: a 1.4 s input under ASan
  # passed 10 s while the machine was also building); leaks are reported by LeakSanitizer.
  # A 32 MB quarantine (ASan's default: 256) still holds four inputs' worth of tensors
  # for use-after-free checks, and keeps the allocator's memory warm: 1.5-1.7x the
  # inputs per second (docs/decisions.md).
  # Longest input: a `run` (and a REPL line) executes all of main so far, so an input's
  # cost grows with the square of its statements; the VM targets take shorter inputs
  # for 4-5x the inputs per second (docs/decisions.md). PIR_FUZZ_FLAGS may override.
  case "$target" in
    pir_fuzz_repl) max_len=1024 ;;
    pir_fuzz_run) max_len=2048 ;;
    *) max_len=8192 ;;
  esac
  ( cd "$build" && ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=32 "$build/fuzz/$target" "$corpus" -max_total_time="$seconds" \
      -timeout="${PIR_FUZZ_TIMEOUT:-25}" -rss_limit_mb=2048 -max_len=$max_len -print_final_stats=1 -dict="$dict" \
      -artifact_prefix="$build/crash-$target-" ${PIR_FUZZ_FLAGS:-} ) || status=1
done
exit $status
