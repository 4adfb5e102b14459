# var/const data and initialisers: nested lists follow the shape, a scalar that
# is broadcast stays a scalar, numbers print in the shortest form that reads
# back to the same value in the tensor's dtype.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
main {
  const %s : f32[2,2] = 0.5
  const %m : f32[2,2] = [[1.0, 2.50], [-3, 4e2]]
  const %tenth32 : f32[] = 0.1
  const %tenth64 : f64[] = 0.1
  const %tenth16 : f16[] = 0.1
  const %third32 : f32[] = 0.333333333333333333
  const %tiny : f32[] = 1e-8
  const %special : f32[4] = [nan, inf, -inf, -0.0]
  const %ints : i32[3] = [-2, 0, 2147483647]
  const %bytes : u8[2] = [0, 255]
  const %flags : bool[3] = [true, false, true]
  const %empty : f32[0] = []
  const %empty2 : f32[2,0] = [[], []]
  const %cube : i16[2,1,2] = [[[1, 2]], [[3, 4]]]
  var %z : f32[3] = zeros
  var %o : f16[3] = ones
  var %u : f32[2,2] = uniform(-1, 1, 42)
  var %g : f32[4] = normal(0, 0.02, 7)
}
# CHECK:      main {
# CHECK-NEXT:   const %s : f32[2,2] = 0.5
# CHECK-NEXT:   const %m : f32[2,2] = {{\[\[}}1, 2.5], [-3, 400]]
# CHECK-NEXT:   const %tenth32 : f32[] = 0.1
# CHECK-NEXT:   const %tenth64 : f64[] = 0.1
# CHECK-NEXT:   const %tenth16 : f16[] = 0.1
# CHECK-NEXT:   const %third32 : f32[] = 0.33333334
# CHECK-NEXT:   const %tiny : f32[] = 1e-08
# CHECK-NEXT:   const %special : f32[4] = [nan, inf, -inf, -0]
# CHECK-NEXT:   const %ints : i32[3] = [-2, 0, 2147483647]
# CHECK-NEXT:   const %bytes : u8[2] = [0, 255]
# CHECK-NEXT:   const %flags : bool[3] = [true, false, true]
# CHECK-NEXT:   const %empty : f32[0] = []
# CHECK-NEXT:   const %empty2 : f32[2,0] = {{\[\[}}], []]
# CHECK-NEXT:   const %cube : i16[2,1,2] = {{\[\[\[}}1, 2]], {{\[\[}}3, 4]]]
# CHECK-NEXT:   var %z : f32[3] = zeros
# CHECK-NEXT:   var %o : f16[3] = ones
# CHECK-NEXT:   var %u : f32[2,2] = uniform(-1, 1, 42)
# CHECK-NEXT:   var %g : f32[4] = normal(0, 0.02, 7)
# CHECK-NEXT: }
