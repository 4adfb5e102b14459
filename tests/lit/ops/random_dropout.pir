# dropout: element i is kept when its Philox uniform (dropout stream) is >= p, and
# kept values are scaled by 1/(1-p); the mask is a pure function of the seed, so a
# rerun with the same seed (a gradient) drops the same elements.
# RUN: %pir run %s | FileCheck %s
const %x : f64[8] = [1, 2, 3, 4, 5, 6, 7, 8]
const %seed : u32[2] = [5, 6]
%d = dropout %x, %seed {p = 0.5}
%same = dropout %x, %seed {p = 0.5}
%none = dropout %x, %seed {p = 0}
const %ones : f32[2,2] = 1
%f = dropout %ones, %seed {p = 0.75}
run
print %d, %same, %none, %f
# CHECK: %d: f64[8] = [0, 0, 0, 8, 10, 12, 0, 16]
# CHECK-NEXT: %same: f64[8] = [0, 0, 0, 8, 10, 12, 0, 16]
# CHECK-NEXT: %none: f64[8] = [1, 2, 3, 4, 5, 6, 7, 8]
# CHECK-NEXT: %f: f32[2,2] = {{\[\[}}{{(0|4)}}, {{(0|4)}}], [{{(0|4)}}, {{(0|4)}}]]
