# `save` writes what `print` shows: a grouped variable as [groups] + S (under
# MPI the processes gather it first and rank 0 writes the file); `write` reads
# it back into the same groups.
# RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.pir
# RUN: %pir run %t/prog.pir | FileCheck %s
# RUN: test -f %t/g.npy
ir {replication = 4}
main {
  var %g : f32[2] = [[1, 2], [3, 4]] {replica_grouping = (2, 2)}
  %s = replicated_all_reduce %g {op = add}
  accumulate_ %g, %s
}
run
save %g "g.npy"
write %g = [[0, 0], [0, 0]]
print %g
write %g = load("g.npy")
print %g
# Groups {0, 2} and {1, 3}: the sum over all four replicas is [8, 12].
# CHECK: %g: f32[2,2] = {{\[\[}}0, 0], [0, 0]]
# CHECK-NEXT: %g: f32[2,2] = {{\[\[}}9, 14], [11, 16]]
