# A graph may not call itself.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}recursion.pir:5:13: error: recursion: @g calls itself
graph @g(%a: f32[]) -> (f32[]) {
  %b = call @g(%a)
  return %b
}
