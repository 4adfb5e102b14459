# :undo removes the last input that changed the program or the session (and
# says which); :reset puts variables back to their initial values.
# RUN: %pir repl < %s 2>&1 | FileCheck %s --match-full-lines
var %acc : f32[1] = 5
const %one : f32[1] = 1
# CHECK:%acc: f32[1] = [5]
# CHECK-NEXT:%one: f32[1] = [1]
accumulate_ %acc, %one
run
run
print %acc
# CHECK-NEXT:%acc: f32[1] = [7]
:undo
# CHECK-NEXT:undone: run
print %acc
# CHECK-NEXT:%acc: f32[1] = [6]
:reset
print %acc
# CHECK-NEXT:%acc: f32[1] = [5]
%two = add %one, %one
# CHECK-NEXT:%two: f32[1] = [2]  (preview: `run` computes it)
run
print %acc
# CHECK-NEXT:%acc: f32[1] = [6]
:undo
# CHECK-NEXT:undone: run
:undo
# CHECK-NEXT:undone: %two = add %one, %one
:undo
# CHECK-NEXT:undone: :reset
print %acc
# CHECK-NEXT:%acc: f32[1] = [6]
%two = add %one, %one
# CHECK-NEXT:%two: f32[1] = [2]  (preview: `run` computes it)
:u
# CHECK-NEXT:undone: %two = add %one, %one
%two = mul %one, 2
# CHECK-NEXT:%two: f32[1] = [2]  (preview: `run` computes it)
graph @g(%a: f32[1]) {
  return %a
}
# CHECK-NEXT:@g(f32[1]) -> (f32[1])
:undo
# CHECK-NEXT:undone: graph @g(%a: f32[1]) { ...
:graphs
# CHECK-NEXT:(no subgraphs: only the main graph, which takes no inputs)
graph @g(%a: f32[1], %b: f32[1]) {
  return %b
}
# CHECK-NEXT:@g(f32[1], f32[1]) -> (f32[1])
