# split_random_seed: result k is words 0-1 of philox({k, 0, 0, 3}, seed), the same on
# every replica; a derived seed feeds other random ops.
# RUN: %pir run %s | FileCheck %s
const %seed : u32[2] = [10, 20]
%a, %b, %c = split_random_seed %seed {n = 3}
%u = random_uniform %b {shape = [3], dtype = f64}
%p, %q = split_random_seed %seed
run
print %a, %b, %c, %u, %p, %q
# CHECK: %a: u32[2] = [3846757227, 2744097750]
# CHECK-NEXT: %b: u32[2] = [3418065653, 1976070404]
# CHECK-NEXT: %c: u32[2] = [3472830215, 2681723491]
# CHECK-NEXT: %u: f64[3] = [0.8214749320177361, 0.4328025419963524, 0.0639021802926436]
# CHECK-NEXT: %p: u32[2] = [3846757227, 2744097750]
# CHECK-NEXT: %q: u32[2] = [3418065653, 1976070404]
