# NPY files in and out (tools.md §4): load("...") in declarations and feeds,
# `save X "file.npy"`. Paths are relative to the file that names them, so the
# test runs a copy in lit's temporary directory (next to a copy of Inputs/):
# nothing is written into the source tree.
# Inputs/weights.npy holds f32 [[1, 2], [3, 4]], Inputs/batch.npy f32 [0.5, -1].
#
# RUN: rm -rf %t && mkdir -p %t && cp %s %t/npy_files.pir && cp -r %S/Inputs %t/Inputs
# RUN: %pir run %t/npy_files.pir | FileCheck %s
# RUN: %python -c "import struct, sys; d = open(sys.argv[1], 'rb').read(); print(struct.unpack('<2f', d[-8:]))" %t/y.npy | FileCheck %s --check-prefix=RAW
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
save $y "y.npy"
# [0.5, -1] @ [[1, 2], [3, 4]] = [0.5*1 - 1*3, 0.5*2 - 1*4] = [-2.5, -3].
# RAW: (-2.5, -3.0)

# What was saved reads back.
const %back : f32[2] = load("y.npy")
run
print $y, %back
# CHECK: $y: f32[2] = [-2.5, -3]
# CHECK-NEXT: %back: f32[2] = [-2.5, -3]
