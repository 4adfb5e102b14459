# NPY files in and out (tools.md §4): `load("...")` in declarations and feeds
# reads a file relative to the program's folder; `--save NAME=OUT.npy` on the
# command line writes one relative to the working directory, so running the
# sample in place writes nothing into samples/:
#   pir run samples/npy_files.pir --save y=y.npy
# (`save $y "y.npy"` in the file would write samples/y.npy, next to the file.)
# Inputs/weights.npy holds f32 [[1, 2], [3, 4]], Inputs/batch.npy f32 [0.5, -1].
#
# RUN: %pir run %s --save y=%t.y.npy | FileCheck %s
# RUN: %python -c "import struct, sys; d = open(sys.argv[1], 'rb').read(); print(struct.unpack('<2f', d[-8:]))" %t.y.npy | FileCheck %s --check-prefix=RAW
h2d $x : f32[2]
d2h $y : f32[2]

main {
  const %w : f32[2,2] = load("Inputs/weights.npy")
  %x = host_load $x
  %y = matmul %x, %w
  host_store $y, %y
}

feed $x = load("Inputs/batch.npy")
run
print $y
# [0.5, -1] @ [[1, 2], [3, 4]] = [0.5*1 - 1*3, 0.5*2 - 1*4] = [-2.5, -3].
# CHECK: $y: f32[2] = [-2.5, -3]
# RAW: (-2.5, -3.0)
