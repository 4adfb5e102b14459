# Only IO ops go in an exchange block.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}exchange_non_io.pir:8:8: error: exchange: only IO ops (host_load, host_store, remote_load, remote_load_, remote_store) may appear in an exchange block, not neg
h2d $x : f32[2]
const %c : f32[2] = 1
exchange {
  %a = host_load $x
  %b = neg %c
}
