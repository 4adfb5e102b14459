# autodiff in the REPL: the directive echoes the gradient graph's signature, the
# preview computes gradients (2 tanh(x) (1 - tanh(x)^2) at 1 and 2), `:undo` takes the directive back (the gradient graph
# goes, and the stitched output and the call's extra result with it), and a failed
# directive leaves the session as it was.
# RUN: not %pir repl < %s > %t.out 2> %t.err
# RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.out
# RUN: FileCheck %s --check-prefix=ERR < %t.err
graph @f(%x: f32[2]) {
  %t = tanh %x
  %y = mul %t, %t
  return %y
}
# OUT:@f(f32[2]) -> (f32[2])
%c = call @f([1, 2]) as site
# OUT-NEXT:%c: f32[2] = [0.5800257, 0.9293492]  (preview: `run` computes it)
autodiff @f -> @f_grad
# OUT-NEXT:@f_grad(f32[2], f32[2]) -> (f32[2])
%d = call @f_grad([1, 1]) using site
# OUT-NEXT:%d: f32[2] = [0.6397, 0.13621867]  (preview: `run` computes it)
:undo
# OUT-NEXT:undone: %d = call @f_grad([1, 1]) using site
:undo
# OUT-NEXT:undone: autodiff @f -> @f_grad
:print
# OUT-NEXT:graph @f(%x: f32[2]) -> (f32[2]) {
# OUT-NEXT:  %t = tanh %x : f32[2]
# OUT-NEXT:  %y = mul %t, %t : f32[2]
# OUT-NEXT:  return %y
# OUT-NEXT:}
# OUT-EMPTY:
# OUT-NEXT:main {
# OUT-NEXT:  %c = call @f([1, 2]) : f32[2]
# OUT-NEXT:}
autodiff @f -> @f_grad {grads_provided = [%t]}
# ERR:<repl>:[[@LINE-1]]:43: error: autodiff: grads_provided: %t is not an output of @f
:graphs
# OUT-NEXT:@f(f32[2]) -> (f32[2])
