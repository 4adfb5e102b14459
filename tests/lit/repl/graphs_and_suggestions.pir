# :graphs says so when there are no subgraphs; a misspelt meta-command gets a
# suggestion.
# RUN: not %pir repl < %s > %t.out 2> %t.err
# RUN: FileCheck %s --match-full-lines < %t.out
# RUN: FileCheck %s --check-prefix=ERR --match-full-lines < %t.err
:graphs
# CHECK:(no subgraphs: only the main graph, which takes no inputs)
:grpahs
# ERR:<repl>:8:1: error: unknown command ':grpahs'; did you mean ':graphs'? (type :help for the list)
graph @g(%a: f32[2]) -> (f32[2]) {
  return %a
}
# CHECK-NEXT:@g(f32[2]) -> (f32[2])
:graphs
# CHECK-NEXT:@g(f32[2]) -> (f32[2])
:frobnicate
# ERR:<repl>:16:1: error: unknown command ':frobnicate' (type :help for the list)
