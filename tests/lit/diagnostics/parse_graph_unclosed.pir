# A graph body left open at the end of input.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_graph_unclosed.pir:6:12: error: expected '}' to close the graph body opened at 5:34
# CHECK: {{.*}}parse_graph_unclosed.pir:5:34: note: the graph body opened here
graph @g(%a: f32[2]) -> (f32[2]) {
  return %a
