# Meta-commands: :help, :type, :print [@g], :graphs, :disasm, abbreviations.
# RUN: %pir repl < %s > %t.out 2> %t.err
# RUN: FileCheck %s --match-full-lines < %t.out
# RUN: count 0 < %t.err
:help
# CHECK:  :help{{ +}}show this help
# CHECK:  :undo{{ +}}undo the last input (or :reset) that changed the program or the session
h2d $x : f32[2]
remote_buffer $rb : f32[2] {entries = 3}
var %w : f32[2] = [1, 2]
# CHECK:%w: f32[2] = [1, 2]
graph @sq(%a: f32[2]) {
  %b = mul %a, %a
  return %b
}
# CHECK-NEXT:@sq(f32[2]) -> (f32[2])
graph @acc(%t: &f32[2], %d: f32[2]) {
  accumulate_ %t, %d
  return
}
# CHECK-NEXT:@acc(&f32[2], f32[2]) -> ()
:type %w
# CHECK-NEXT:%w: f32[2]
:t @sq
# CHECK-NEXT:@sq(f32[2]) -> (f32[2])
:ty $x
# CHECK-NEXT:$x: f32[2] (h2d)
:type $rb
# CHECK-NEXT:$rb: f32[2] (remote_buffer, entries = 3)
:graphs
# CHECK-NEXT:@sq(f32[2]) -> (f32[2])
# CHECK-NEXT:@acc(&f32[2], f32[2]) -> ()
:print @sq
# CHECK-NEXT:graph @sq(%a: f32[2]) -> (f32[2]) {
# CHECK-NEXT:  %b = mul %a, %a{{( : f32\[2\])?}}
# CHECK-NEXT:  return %b
# CHECK-NEXT:}
:pri
# CHECK-NEXT:h2d $x : f32[2]
# CHECK:graph @sq(%a: f32[2]) -> (f32[2]) {
# CHECK:main {
# CHECK-NEXT:  var %w : f32[2] = [1, 2]
# CHECK-NEXT:}
:print @main
# CHECK-NEXT:main {
# CHECK-NEXT:  var %w : f32[2] = [1, 2]
# CHECK-NEXT:}
:disasm @sq
# CHECK-NEXT:{{.*}}sq{{.*}}
:quit
this line is never read: the session ended at :quit
