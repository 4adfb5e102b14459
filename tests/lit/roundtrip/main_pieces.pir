# The main graph is every `main {}` block and bare statement, in order; comments
# and session commands are not printed.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
h2d $x : f32[2]
%a = host_load $x          # bare statement
main { %b = add %a, 1; %c = mul %b, %b }
feed $x = [1, 2]
run
print %c
d2h $y : f32[2]
main {
  host_store $y, %c
}
%d = neg %c
run 2
# CHECK:      h2d $x : f32[2]
# CHECK-NEXT: d2h $y : f32[2]
# CHECK-EMPTY:
# CHECK-NEXT: main {
# CHECK-NEXT:   %a = host_load $x : f32[2]
# CHECK-NEXT:   %b = add %a, 1 : f32[2]
# CHECK-NEXT:   %c = mul %b, %b : f32[2]
# CHECK-NEXT:   host_store $y, %c
# CHECK-NEXT:   %d = neg %c : f32[2]
# CHECK-NEXT: }
# CHECK-NOT: {{feed|run|print|#}}
