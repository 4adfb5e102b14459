# A subgraph body ends with return.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}missing_return.pir:7:1: error: @g: missing return: a graph body ends with `return`
# CHECK: {{.*}}missing_return.pir:5:7: note: @g is defined here
graph @g(%a: f32[]) -> (f32[]) {
  %b = neg %a
}
