# The device cost model is a later issue: `run --profile` refuses (exit 2)
# rather than silently ignoring the option.
# RUN: not %pir run --profile %s 2>&1 | FileCheck %s
# CHECK: pir: error: --profile is not available in this build
d2h $y : f32[]
const %c : f32[] = 1
host_store $y, %c
