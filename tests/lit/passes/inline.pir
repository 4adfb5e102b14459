# inline: every `call` is replaced by the callee's body (callees first, so
# nested calls disappear too); `repeat` and `conditional` stay. By-value
# semantics are kept: a by-value input the callee writes in place is copied
# (identity) first, a by-reference input is the caller's tensor, and a result
# that is an input (or a constant) of the callee is copied so that the caller
# never aliases it. A callee left without callers is removed.
# RUN: %pir opt %s --passes=inline | FileCheck %s
# RUN: %pir run %s > %t.plain
# RUN: %pir run %s --passes=inline --verify-each > %t.inlined
# RUN: diff %t.plain %t.inlined
# RUN: FileCheck %s --check-prefix=VALUES < %t.inlined

graph @inc(%t: f32[2]) -> (f32[2]) {
  %u = add_ %t, 1
  return %u
}
graph @inc_ref(%t: &f32[2]) -> () {
  add_ %t, 1
  return
}
graph @pass_through(%t: f32[2]) -> (f32[2], f32[2]) {
  const %k : f32[2] = [10, 20]
  return %t, %k
}
graph @twice(%t: f32[2]) -> (f32[2]) {
  %y = call @inc(%t)
  %z = call @inc(%y)
  return %z
}
graph @body(%acc: f32[2]) -> (f32[2]) {
  %next = call @inc(%acc)
  return %next
}
main {
  var %a : f32[2] = [1, 2]
  var %b : f32[2] = [1, 2]
  %r = call @inc(%a)
  call @inc_ref(%b)
  %p, %k = call @pass_through(%a)
  add_ %p, 100
  add_ %k, 1
  %w = call @twice(%a)
  %loop = repeat @body(%a) {count = 3}
  %lit = call @inc([5, 6])
  %c = add %a, 0
}
run
print %a, %r, %b, %p, %k, %w, %loop, %lit, %c
run
print %b

# Callees left without callers are gone; @body is still the body of a repeat.
# CHECK-NOT: graph @inc
# CHECK-NOT: graph @pass_through
# CHECK-NOT: graph @twice
# CHECK: graph @body(%acc: f32[2]) -> (f32[2]) {
# CHECK-NEXT:   [[C0:%[0-9a-z.]+]] = identity %acc : f32[2]
# CHECK-NEXT:   %next = add_ [[C0]], 1 : f32[2]
# CHECK-NEXT:   return %next
# CHECK: main {
# CHECK:        var %b : f32[2] = [1, 2]
# CHECK-NEXT:   [[C1:%[0-9a-z.]+]] = identity %a : f32[2]
# CHECK-NEXT:   %r = add_ [[C1]], 1 : f32[2]
# CHECK-NEXT:   add_ %b, 1
# CHECK-NEXT:   const [[K:%[0-9a-z.]+]] : f32[2] = [10, 20]
# CHECK-NEXT:   %p = identity %a : f32[2]
# CHECK-NEXT:   %k = identity [[K]] : f32[2]
# CHECK-NEXT:   add_ %p, 100
# CHECK-NEXT:   add_ %k, 1
# CHECK-NEXT:   [[C2:%[0-9a-z.]+]] = identity %a : f32[2]
# CHECK-NEXT:   [[Y:%[0-9a-z.]+]] = add_ [[C2]], 1 : f32[2]
# CHECK-NEXT:   [[C3:%[0-9a-z.]+]] = identity [[Y]] : f32[2]
# CHECK-NEXT:   %w = add_ [[C3]], 1 : f32[2]
# CHECK-NEXT:   %loop = repeat @body(%a) {count = 3} : f32[2]
# CHECK-NEXT:   const [[L:%[0-9a-z.]+]] : f32[2] = [5, 6]
# CHECK-NEXT:   [[C4:%[0-9a-z.]+]] = identity [[L]] : f32[2]
# CHECK-NEXT:   %lit = add_ [[C4]], 1 : f32[2]
# CHECK-NEXT:   %c = add %a, 0 : f32[2]
# CHECK-NEXT: }

# VALUES: %a: f32[2] = [1, 2]
# VALUES-NEXT: %r: f32[2] = [2, 3]
# VALUES-NEXT: %b: f32[2] = [2, 3]
# VALUES-NEXT: %p: f32[2] = [101, 102]
# VALUES-NEXT: %k: f32[2] = [11, 21]
# VALUES-NEXT: %w: f32[2] = [3, 4]
# VALUES-NEXT: %loop: f32[2] = [4, 5]
# VALUES-NEXT: %lit: f32[2] = [6, 7]
# VALUES-NEXT: %c: f32[2] = [1, 2]
# VALUES-NEXT: %b: f32[2] = [3, 4]
