# Negative zero reads back as negative zero wherever it is written. In an
# attribute it prints with its point (`-0.0`): `-0` reads back as the integer 0
# (found by pir_fuzz_roundtrip). In tensor and operand literals, whose dtype is
# known, `-0` is enough.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: FileCheck %s < %t1
# RUN: %pir run %s | FileCheck %s --check-prefix=VALUES
main {
  const %z : f32[2] = [-0, 1]
  const %y : f32[2] = [2, 3]
  %s = scaled_add %z, %y {a = 1, b = -0.0}
  %c = clip %z {min = -0.0}
  %x = add %z, -0
  %q = div 1, %s
}
run
print %q
# CHECK:      const %z : f32[2] = [-0, 1]
# CHECK:      %s = scaled_add %z, %y {b = -0.0} : f32[2]
# CHECK-NEXT: %c = clip %z {min = -0.0} : f32[2]
# CHECK-NEXT: %x = add %z, -0 : f32[2]
# -0 * 1 + 2 * -0 is -0 (with b = 0 it would be +0, and 1/x +inf).
# VALUES: %q: f32[2] = [-inf, 1]
