# random_uniform: a pure function of (seed, replica, element index) through
# Philox4x32-10 (runtime.md §6; counter layout in docs/decisions.md "Random ops").
# The f64 values below were computed by an independent Philox implementation.
# RUN: %pir run %s | FileCheck %s
const %seed : u32[2] = [12, 34]
%u = random_uniform %seed {shape = [2, 3], low = -1, high = 3, dtype = f64}
# f32: the same draws, rounded once to f32.
%f = random_uniform %seed {shape = [2, 3], low = -1, high = 3}
# The same seed gives the same values; a prefix of a longer draw is the shorter draw.
%again = random_uniform %seed {shape = [4], low = -1, high = 3, dtype = f64}
run
print %u, %f, %again
# CHECK: %u: f64[2,3] = {{\[\[}}-0.27502881130203605, -0.2706490405835211, 0.9955960814841092], [-0.06178945815190673, -0.8416181015782058, 2.7608466339297593]]
# CHECK-NEXT: %f: f32[2,3] = {{\[\[}}-0.27502{{[0-9]*}}, -0.27064{{[0-9]*}}, 0.99559{{[0-9]*}}], [-0.06178{{[0-9]*}}, -0.84161{{[0-9]*}}, 2.76084{{[0-9]*}}]]
# CHECK-NEXT: %again: f64[4] = [-0.27502881130203605, -0.2706490405835211, 0.9955960814841092, -0.06178945815190673]
