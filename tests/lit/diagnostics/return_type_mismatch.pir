# Returned values must match the declared output types.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}return_type_mismatch.pir:6:10: error: return: value 1 has type f32[2], but @g declares i32[2]
# CHECK: {{.*}}return_type_mismatch.pir:5:10: note: %a is declared here
graph @g(%a: f32[2]) -> (i32[2]) {
  return %a
}
