# When the system refuses memory below the budget, the error is located and the
# exit status 1: never a bare abort (mimalloc aborted with exit 134, no message).
# UNSUPPORTED: asan
# RUN: not %python %S/Inputs/limit_memory.py 1200000000 %pir run --max-memory=100G %s 2>&1 | FileCheck %s
ir {tile_memory = 4000000}
var %a : f32[200000000] = zeros
var %b : f32[200000000] = zeros
main {}
run
# CHECK: out_of_memory.pir:9:1: error: out of host memory (the system refused an allocation
