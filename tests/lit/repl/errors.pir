# An error prints a located diagnostic (LINE counts the session's input lines)
# and leaves the session exactly as before that input; later inputs use the
# state before it. Any failed input makes the exit status 1.
# RUN: not %pir repl < %s > %t.out 2> %t.err
# RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.out
# RUN: FileCheck %s --check-prefix=ERR --match-full-lines --strict-whitespace < %t.err
var %w : f32[2] = [1, 2]
# OUT:%w: f32[2] = [1, 2]
%y = add %w, %nope
# ERR:<repl>:9:14: error: {{.*}}nope{{.*}}
# ERR-NEXT:  %y = add %w, %nope
# ERR-NEXT:               ^
%y = add %w, %w
# OUT-NEXT:%y: f32[2] = [2, 4]  (preview: `run` computes it)
var %a : f32[1] = 1; %b = add %a, %undefined
# ERR:<repl>:15:35: error: {{.*}}
var %a : f32[2] = [5, 6]
# OUT-NEXT:%a: f32[2] = [5, 6]
graph @g(%p: f32[2]) {
  %q = neg %p
  %r = add %q, %missing
  return %r
}
# ERR:<repl>:21:16: error: {{.*}}
# ERR-NEXT:    %r = add %q, %missing
graph @g(%p: f32[2]) {
  return %p
}
# OUT-NEXT:@g(f32[2]) -> (f32[2])
%z = frobnicate %w
# ERR:<repl>:30:6: error: {{.*}}frobnicate{{.*}}
%z = call @g(%w)
# OUT-NEXT:%z: f32[2] = [1, 2]  (preview: `run` computes it)
var %w : f32[2] = [7, 7]
# ERR:<repl>:34:5: error: {{.*}}%w{{.*}}
# ERR-NEXT:  var %w : f32[2] = [7, 7]
# ERR-NEXT:      ^
# ERR-NEXT:<repl>:7:5: note: {{.*}}
print %w
# OUT-NEXT:%w: f32[2] = [1, 2]
