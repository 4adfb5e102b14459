# Generators take three numbers.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_generator_arity.pir:4:31: error: expected ',' (a generator takes three numbers)
var %w : f32[2] = uniform(0, 1)
