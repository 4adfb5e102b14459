# REPL `:passes LIST` transforms the program so far; a misspelt pass is an
# error that suggests the closest name and changes nothing; `:undo` takes the
# passes back (the call and its callee return).
# RUN: not %pir repl < %s > %t.out 2> %t.err
# RUN: FileCheck %s < %t.out
# RUN: FileCheck %s --check-prefix=ERR < %t.err
graph @sq(%a: f32[2]) -> (f32[2]) {
  %b = mul %a, %a
  return %b
}
var %w : f32[2] = [1, 2]
%y = call @sq(%w)
:passes inlin
:passes inline, dce
:print
run
print %y
:undo
:undo
:print
# ERR: error: unknown pass 'inlin' (did you mean 'inline'?); available passes: dce, decompose-sum, fold-broadcasts, fold-constants, fold-transposes, fuse-matmul-updates, inline, merge-exchange
# CHECK:      main {
# CHECK-NEXT:   var %w : f32[2] = [1, 2]
# CHECK-NEXT:   %y = mul %w, %w : f32[2]
# CHECK-NEXT: }
# CHECK:      %y: f32[2] = [1, 4]
# CHECK:      undone: run
# CHECK:      undone: :passes inline,dce
# CHECK:      graph @sq(%a: f32[2]) -> (f32[2]) {
# CHECK:        %y = call @sq(%w) : f32[2]
