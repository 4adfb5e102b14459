# A numeral beyond f64 (1e309) is an error at the number, in data and attributes.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# RUN: %python -c "print('const %%x : f32[] = 1\nmain {\n  %%y = clip %%x {min = -1e400}\n}')" > %t.pir
# RUN: not %pir check %t.pir 2>&1 | FileCheck %s --check-prefix=ATTR
const %c : f64[2] = [1, 1e309]
# CHECK: float_literal_overflow.pir:5:25: error: number '1e309' is out of range (beyond f64; write inf for infinity)
# ATTR: :3:{{[0-9]+}}: error: number '-1e400' is out of range
