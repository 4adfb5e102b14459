# repeat with counts 0, 1, 4 and 10; count 0 returns the carried arguments.
# RUN: %pir run %s | FileCheck %s
graph @double(%x: f32[], %k: f32[]) -> (f32[]) {
  %y = mul %x, %k
  return %y
}
main {
  const %one : f32[] = 1
  const %two : f32[] = 2
  %r0 = repeat @double(%one, %two) {count = 0}
  %r1 = repeat @double(%one, %two) {count = 1}
  %r4 = repeat @double(%one, %two) {count = 4}
  %r10 = repeat @double(%one, %two) {count = 10}
}
run
print %r0, %r1, %r4, %r10
# CHECK: %r0: f32[] = 1
# CHECK-NEXT: %r1: f32[] = 2
# CHECK-NEXT: %r4: f32[] = 16
# CHECK-NEXT: %r10: f32[] = 1024
