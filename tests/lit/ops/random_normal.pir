# random_normal: Box-Muller on Philox4x32-10 words (docs/decisions.md "Random ops").
# The f64 values were computed by an independent implementation.
# RUN: %pir run %s | FileCheck %s
const %seed : u32[2] = [7, 8]
%z = random_normal %seed {shape = [2, 3], dtype = f64}
%s = random_normal %seed {shape = [2], mean = 10, std = 0.5, dtype = f64}
%h = random_normal %seed {shape = [3], dtype = f16}
run
print %z, %s, %h
# CHECK: %z: f64[2,3] = {{\[\[}}-1.366054062164956, 0.649876888837758, -0.7815656920602244], [-0.05198284192459779, -0.9338441431060486, 1.0874252056095617]]
# CHECK-NEXT: %s: f64[2] = [9.316972968917522, 10.32493844441888]
# CHECK-NEXT: %h: f16[3] = [-1.366, 0.65, -0.7817]
