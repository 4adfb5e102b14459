# `[]` is the value of every zero-size shape, wherever the zero dimension is: in
# declarations, feeds and writes (a literal operand has no declared type: its shape is its nesting); what `print` shows reads back.
# RUN: %pir run %s | FileCheck %s
# RUN: %pir run %s | sed -n 's/^%c: f32\[0,3\] = \(.*\)$/const %%e : f32[0,3] = \1/p' > %t.pir && echo 'print %%e' >> %t.pir && %pir run %t.pir | FileCheck %s --check-prefix=BACK
# CHECK: $y: f32[0,3] = []
# CHECK-NEXT: %c: f32[0,3] = []
# CHECK-NEXT: %v: i32[2,0,4] = {{\[\[\], \[\]\]}}
# CHECK-NEXT: %n: f32[2,0] = {{\[\[\], \[\]\]}}
# BACK: %e: f32[0,3] = []
h2d $x : f32[0,3]
d2h $y : f32[0,3]
main {
  const %c : f32[0,3] = []
  var %v : i32[2,0,4] = []
  const %n : f32[2,0] = [[], []]
  %x = host_load $x
  %s = add %x, %c
  host_store $y, %s
}
feed $x = []
write %v = []
run
print $y, %c, %v, %n
