# Tutorial step 1: a first addition (docs/tutorial.md).
#
# RUN: %pir run %s | FileCheck %s
# RUN: %pir opt %s | FileCheck %s --check-prefix=IR
main {
  const %a : f32[2] = [1, 2]
  const %b : f32[2] = [10, 20]
  %c = add %a, %b
}
run
print %c
# CHECK: %c: f32[2] = [11, 22]

# The canonical form prints every result type.
# IR: main {
# IR-NEXT:   const %a : f32[2] = [1, 2]
# IR-NEXT:   const %b : f32[2] = [10, 20]
# IR-NEXT:   %c = add %a, %b : f32[2]
# IR-NEXT: }
