# An integral float attribute prints as an integer (`a = 2`), except where the
# integer would not read back: beyond int64 it keeps its point, or the reparse
# fails with "integer ... is out of range" (found by pir_fuzz_roundtrip). Inside
# int64 the integer spelling reads back as the same float.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: FileCheck %s < %t1
main {
  const %x : f32[2] = [1, 2]
  %a = scaled_add %x, %x {a = 22222222222222222222.0, b = -1e19}
  %b = scaled_add %x, %x {a = 9223372036854775808.0, b = -9223372036854775808.0}
  %c = scaled_add %x, %x {a = 9223372036854774784.0, b = 2.0}
  %r = resize %x {shape = [4], scales = [22222222222222222222.0]}
}
# CHECK:      %a = scaled_add %x, %x {a = 22222222222222221312.0, b = -1e+19} : f32[2]
# CHECK-NEXT: %b = scaled_add %x, %x {a = 9223372036854775808.0, b = -9223372036854775808.0} : f32[2]
# CHECK-NEXT: %c = scaled_add %x, %x {a = 9223372036854774784, b = 2} : f32[2]
# CHECK-NEXT: %r = resize %x {shape = [4], scales = [22222222222222221312.0]} : f32[4]
