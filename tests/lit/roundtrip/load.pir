# load("file.npy") prints as written: the path stays relative to the file
# that names it, so the printed program is kept next to its data here.
# RUN: mkdir -p %T/Inputs && cp %S/Inputs/vec.npy %T/Inputs/vec.npy
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
main {
  const %v : f32[3] = load("Inputs/vec.npy")
  var %w : f32[3] = load("Inputs/vec.npy") {tile = 1}
}
# CHECK:      const %v : f32[3] = load("Inputs/vec.npy")
# CHECK-NEXT: var %w : f32[3] = load("Inputs/vec.npy") {tile = 1}
