# Passes never change what a program prints: a generated name a command prints
# (%0) survives dce, and print_tensor's default title (its operand's name as
# written) survives inlining and every pipeline. tests/passes_same_output.sh
# compares this file's stdout and stderr under each pipeline too.
# RUN: %pir run %s > %t.plain 2>&1
# RUN: FileCheck %s < %t.plain
# RUN: %pir run %s --passes=dce --verify-each > %t.dce 2>&1
# RUN: diff %t.plain %t.dce
# RUN: %pir run %s --passes=inline --verify-each > %t.inline 2>&1
# RUN: diff %t.plain %t.inline
# RUN: %pir run %s --passes=inline,fold-constants,decompose-sum,dce --verify-each > %t.all 2>&1
# RUN: diff %t.plain %t.all
# The inlined print_tensor keeps its title explicitly; an untouched one stays implicit.
# RUN: %pir opt %s --passes=inline,dce | FileCheck %s --check-prefix=IR
graph @show(%a: f32[2]) -> (f32[2]) {
  %shown = print_tensor %a
  %twice = add %shown, %shown
  return %twice
}
main {
  var %p : f32[2] = [1, 2]
  %q = call @show(%p)
  add %p, %p
  print_tensor %q
  %r = add %q, 1
  print_tensor %r
}
run
print %0, %r
# CHECK:      a: [1, 2]
# CHECK-NEXT: q: [2, 4]
# CHECK-NEXT: r: [3, 5]
# CHECK-NEXT: %0: f32[2] = [2, 4]
# CHECK-NEXT: %r: f32[2] = [3, 5]
# IR:      main {
# IR-NEXT:   var %p
# IR-NEXT:   %shown = print_tensor %p {title = "a"} : f32[2]
# IR-NEXT:   %q = add %shown, %shown
# IR-NEXT:   %0 = add %p, %p
# IR-NEXT:   %1 = print_tensor %q : f32[2]
# IR-NEXT:   %r = add %q, 1
# IR-NEXT:   %2 = print_tensor %r : f32[2]
