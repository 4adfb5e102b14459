# A file with no session command runs once and prints every d2h stream in
# declaration order.
# RUN: %pir run %s | FileCheck %s
d2h $a : f32[2]
d2h $b : i32[]
main {
  const %x : f32[2] = [1, 2]
  %y = mul %x, %x
  host_store $a, %y
  const %n : i32[] = 7
  host_store $b, %n
}
# CHECK: $a: f32[2] = [1, 4]
# CHECK-NEXT: $b: i32[] = 7
# CHECK-NOT: {{.}}
