# random_normal: Box-Muller on Philox4x32-10 words (docs/decisions.md "Random ops").
# The f64 values were computed by an independent implementation (with the C library's
# log, cos and sin); pir's own log and sin/cos agree with them to 14 digits and more.
# RUN: %pir run %s | FileCheck %s
const %seed : u32[2] = [7, 8]
%z = random_normal %seed {shape = [2, 3], dtype = f64}
%s = random_normal %seed {shape = [2], mean = 10, std = 0.5, dtype = f64}
%h = random_normal %seed {shape = [3], dtype = f16}
run
print %z, %s, %h
# CHECK: %z: f64[2,3] = {{\[\[}}-1.3660540621649{{[0-9]*}}, 0.64987688883775{{[0-9]*}}, -0.78156569206022{{[0-9]*}}], [-0.051982841924597{{[0-9]*}}, -0.93384414310604{{[0-9]*}}, 1.0874252056095{{[0-9]*}}]]
# CHECK-NEXT: %s: f64[2] = [9.3169729689175{{[0-9]*}}, 10.324938444418{{[0-9]*}}]
# CHECK-NEXT: %h: f16[3] = [-1.366, 0.65, -0.7817]
