# Random ops depend on the replica index: each replica draws its own values from
# the same seed, the same on every thread count (runtime.md §6).
# RUN: %pir run %s | FileCheck %s
# RUN: %pir run --threads=1 %s | FileCheck %s
ir {replication = 2}
const %seed : u32[2] = [3, 9]
%u = random_uniform %seed {shape = [5], dtype = f64}
%n = random_normal %seed {shape = [2, 3], dtype = f64}
run
print %u
# CHECK: %u: f64[2,5] = {{\[\[}}0.48039640055503696, 0.2276788892922923, 0.31996718246955425, 0.3930056350072846, 0.7934852618491277], [0.9525049134390429, 0.08648339274805039, 0.7659938099095598, 0.10967763687949628, 0.3915914277313277]]
