# Variables live in the main graph.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}var_in_subgraph.pir:5:3: error: var: variables are declared in the main graph only; pass %w to @g as an argument
graph @g() -> () {
  var %w : f32[] = 1
  return
}
