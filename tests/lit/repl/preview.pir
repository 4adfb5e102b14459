# Previews: values computable from constants and variables alone are shown;
# values that depend on a stream are not. A preview changes nothing on the device.
# RUN: %pir repl < %s 2>&1 | FileCheck %s --match-full-lines
const %c : f32[2] = [10, 20]
# CHECK:%c: f32[2] = [10, 20]
var %v : f32[2] = 1
# CHECK-NEXT:%v: f32[2] = [1, 1]
%s = add %c, %v
# CHECK-NEXT:%s: f32[2] = [11, 21]  (preview: `run` computes it)
%m = mul %s, 2
# CHECK-NEXT:%m: f32[2] = [22, 42]  (preview: `run` computes it)
var %flag : bool[2] = [true, false]
# CHECK-NEXT:%flag: bool[2] = [true, false]
h2d $x : f32[2]
%x = host_load $x
# CHECK-NEXT:%x: f32[2]
%t = add %x, %s
# CHECK-NEXT:%t: f32[2]
%n = neg %v
# CHECK-NEXT:%n: f32[2] = [-1, -1]  (preview: `run` computes it)
print %v
# CHECK-NEXT:%v: f32[2] = [1, 1]
