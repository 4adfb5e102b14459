# A subgraph sees only its own parameters and values.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}graph_scope.pir:7:10: error: return: unknown value %x in @g: a subgraph sees only its parameters and its own values; pass it as an argument
# CHECK: {{.*}}graph_scope.pir:5:7: note: %x is a main-graph value declared here
const %x : f32[2] = 1
graph @g() -> (f32[2]) {
  return %x
}
