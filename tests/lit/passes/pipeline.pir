# The pipeline of tools.md: `--passes=a,b` runs in order; --print-after-each
# prints "# -- after PASS --" and the IR after every pass (each section is a
# valid program), then the result; the output is the same with and without.
# RUN: %pir opt %s --passes=inline,fold-constants,decompose-sum,dce --print-after-each --verify-each | FileCheck %s
# RUN: %pir run %s > %t.plain
# RUN: %pir run %s --passes=inline,fold-constants,decompose-sum,dce > %t.all
# RUN: diff %t.plain %t.all
# RUN: %pir opt %s --passes=inline,fold-constants,dce > %t.opt.pir
# RUN: %pir check %t.opt.pir
graph @affine(%x: f32[2], %w: f32[2]) -> (f32[2]) {
  const %one : f32[] = 1
  %b = add %one, 1
  %y = mul %x, %w
  %z = add %y, %b
  return %z
}
main {
  var %w : f32[2] = [2, 3]
  %y = call @affine([1, 2], %w)
}
run
print %y
# CHECK:      # -- after inline --
# CHECK:      main {
# CHECK:        %b = add %one, 1 : f32[]
# CHECK:      # -- after fold-constants --
# CHECK:        const %b : f32[] = 2
# CHECK:      # -- after decompose-sum --
# CHECK:      # -- after dce --
# CHECK-NOT:  graph @affine
# CHECK:      main {
# CHECK-NEXT:   var %w : f32[2] = [2, 3]
# CHECK-NEXT:   const [[X:%[0-9a-z.]+]] : f32[2] = [1, 2]
# CHECK-NEXT:   const %b : f32[] = 2
# CHECK-NEXT:   [[M:%[0-9a-z.]+]] = mul [[X]], %w : f32[2]
# CHECK-NEXT:   %y = add [[M]], %b : f32[2]
# CHECK-NEXT: }
# The result once more, after the last section.
# CHECK:      main {
