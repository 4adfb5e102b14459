# Float literals must be finite and in range of their dtype (decisions.md): a
# numeral beyond f64 is an error, not inf; beyond the dtype's range too; what
# rounds to the dtype's largest value (how f32's max prints) is in range.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# RUN: %pir run %S/Inputs/float_max.pir | FileCheck %s --check-prefix=MAX
const %ok : f32[2] = [3.4028235e38, -3.4028235e38]
const %inf : f32[] = inf
const %big : f32[] = 1e39
# CHECK: float_literal_range.pir:8:22: error: const %big: value 1e+39 is out of range for f32
# MAX: %m: f32[2] = [3.4028235e+38, 65504]
