# split_random_seed makes n results, n from 1 to 2^20: the message gives the range.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}split_random_seed_count.pir:7:39: error: split_random_seed: n must be from 1 to 1048576, got 1048577
# CHECK: {{.*}}split_random_seed_count.pir:8:39: error: split_random_seed: n must be from 1 to 1048576, got 0
const %seed : u32[2] = [10, 20]
%ok = split_random_seed %seed {n = 1}
%a, %b = split_random_seed %seed {n = 1048577}
%c, %d = split_random_seed %seed {n = 0}
