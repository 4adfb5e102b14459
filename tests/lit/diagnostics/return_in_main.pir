# The main graph has no return.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}return_in_main.pir:5:1: error: return: the main graph has no return
const %a : f32[] = 1
return %a
