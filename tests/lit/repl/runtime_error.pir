# A run that fails (a stream never fed) is undone: variables keep their values
# from before that run, and the session goes on.
# RUN: not %pir repl < %s > %t.out 2> %t.err
# RUN: FileCheck %s --match-full-lines < %t.out
# RUN: FileCheck %s --check-prefix=ERR < %t.err
h2d $x : f32[2]
d2h $y : f32[2]
var %acc : f32[2] = 0
const %one : f32[2] = 1
# CHECK:%acc: f32[2] = [0, 0]
# CHECK-NEXT:%one: f32[2] = [1, 1]
accumulate_ %acc, %one
%x = host_load $x
# CHECK-NEXT:%x: f32[2]
accumulate_ %acc, %x
host_store $y, %acc
run
# ERR:error: {{.*}}$x
print %acc
# CHECK-NEXT:%acc: f32[2] = [0, 0]
feed $x = [10, 20]
run
# CHECK-NEXT:$y: f32[2] = [11, 21]
run
# CHECK-NEXT:$y: f32[2] = [22, 42]
print %acc
# CHECK-NEXT:%acc: f32[2] = [22, 42]
