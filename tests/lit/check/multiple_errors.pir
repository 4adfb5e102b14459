# `pir check` reports every independent error of a file in one run, as compilers
# do; the first error reads as it would alone. A statement that failed leaves its
# result names poisoned: later statements that use them are skipped, not reported
# again. A graph with an error in its body is dropped, and calls to it are
# skipped. After a syntax error, reading resumes at the next top-level item.
# RUN: not %pir check %s 2>&1 | FileCheck %s --implicit-check-not=error:
const %a : f32[2] = [1, 2]
const %m : f32[3] = [1, 2, 3]
%bad = add %a, %m
# CHECK: multiple_errors.pir:9:16: error: add: operand types f32[2] and f32[3] do not broadcast
%uses_bad = mul %bad, 2
%more = add %uses_bad, %a
graph @broken(%x: f32[2]) -> (f32[2]) {
  %y = exp %nope
# CHECK: multiple_errors.pir:14:12: error: exp: unknown value %nope
  return %y
}
%r = call @broken(%a)
%r2 = neg %r
%ok = add %a, 1
%also_bad = sum %ok {axis = 5}
# CHECK: multiple_errors.pir:21:29: error: sum: axis 5 is out of range for f32[2] (rank 1)
const %x : f32[2] = [1, 2
# CHECK: multiple_errors.pir:25:1: error: expected ']' to close the list opened at 23:21
%after = add %a, %a
%last = div %after, %m
# CHECK: multiple_errors.pir:[[@LINE-1]]:{{[0-9]+}}: error: div: operand types f32[2] and f32[3] do not broadcast
print %more, %r2, %ok
h2d $s : f32[2]
exchange {
  %l1 = host_load $s
  %l2 = exp %l1
}
%use = add %l1, 1
# CHECK: multiple_errors.pir:[[@LINE-3]]:9: error: exchange: only IO ops
