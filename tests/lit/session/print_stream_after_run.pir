# A d2h stream prints once a run has written it; a stream of no elements has
# only one value and prints at any time.
# RUN: %pir run %s | FileCheck %s
# CHECK: $e: f32[0,3] = []
# CHECK-NEXT: $y: f32[2] = [1, 2]
d2h $y : f32[2]
d2h $e : f32[0,3]
main {
  const %c : f32[2] = [1, 2]
  host_store $y, %c
}
print $e
run
print $y
