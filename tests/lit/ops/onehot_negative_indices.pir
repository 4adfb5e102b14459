# onehot counts an index in [-num_classes, 0) from the end (ONNX OneHot, as
# gather and scatter do); an index outside [-num_classes, num_classes) gives an
# all-off row.
# RUN: %pir run %s | FileCheck %s
# CHECK: $y: f32[6,3] = {{\[\[0, 0, 1\], \[1, 0, 0\], \[0, 1, 0\], \[0, 0, 1\], \[0, 0, 0\], \[0, 0, 0\]\]}}
d2h $y : f32[6,3]
main {
  const %i : i32[6] = [-1, -3, 1, 2, 3, -4]
  %y = onehot %i {num_classes = 3}
  host_store $y, %y
}
