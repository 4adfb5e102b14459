# Steps and strides at the int64 limits take NumPy's elements: the kernel uses
# the verifier's overflow-free length arithmetic (ir/checked_math.h), so the
# result is the inferred shape and every element of it is written, also in a
# subgraph (whose arena would otherwise show a stale value).
# NumPy: a[::2**63-1] = [0], a[1::2**63-1] = [1], a[::-2**63] = [5],
#        m[::2**63-1, ::2**63-1] = [[1]], m[:, ::2**63-1] = [[1], [4]].
# RUN: %pir run %s | FileCheck %s
const %a : i32[6] = [0, 1, 2, 3, 4, 5]
const %m : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
%s1 = slice %a {start = [0], stop = [6], step = [9223372036854775807]}
%s2 = slice %a {start = [1], stop = [6], step = [9223372036854775807]}
%s3 = slice %a {start = [-1], stop = [-7], step = [-9223372036854775808]}
%s4 = slice %m {start = [0, 0], stop = [2, 3], step = [9223372036854775807, 9223372036854775807]}
%u1 = subsample %a {strides = [9223372036854775807]}
%u2 = subsample %m {strides = [1, 9223372036854775807]}
graph @sub(%x: i32[6]) -> (i32[1]) {
  %junk = add %x, 7
  %y = subsample %x {strides = [9223372036854775807]}
  return %y
}
%u3 = call @sub(%a)
run
print %s1, %s2, %s3, %s4, %u1, %u2, %u3
# CHECK: %s1: i32[1] = [0]
# CHECK-NEXT: %s2: i32[1] = [1]
# CHECK-NEXT: %s3: i32[1] = [5]
# CHECK-NEXT: %s4: f32[1,1] = {{\[\[}}1]]
# CHECK-NEXT: %u1: i32[1] = [0]
# CHECK-NEXT: %u2: f32[2,1] = {{\[\[}}1], [4]]
# CHECK-NEXT: %u3: i32[1] = [0]
