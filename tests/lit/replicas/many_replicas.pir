# 4096 replicas meet at a collective on a bounded pool of threads: a replica
# costs its state, not a thread stack, so the run fits in 300 MB of address
# space (one thread per replica would reserve 4096 stacks).
# UNSUPPORTED: asan
# (the sanitizers reserve terabytes of address space, so the cap cannot apply)
# RUN: prlimit --as=300000000 %pir run %s | FileCheck %s
# RUN: prlimit --as=300000000 %pir run --threads=1 %s | FileCheck %s
ir {replication = 4096}
main {
  var %w : i32[2] = [1, 3]
  %s = replicated_all_reduce %w {op = add}
  replicated_all_reduce_ %w {op = max, group = (1, 2)}
  %g = replicated_all_gather %w {group = (2048, 2)}
}
run
print %s, %g
# CHECK: %s: i32[4096,2] = {{\[\[}}4096, 12288], [4096, 12288], [4096, 12288], ..., [4096, 12288], [4096, 12288], [4096, 12288]]
# CHECK-NEXT: %g: i32[4096,2,2] = {{\[\[\[}}1, 3], [1, 3]], {{.*}}
