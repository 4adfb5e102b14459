# remote_load with an offset outside [0, entries) is a runtime error.
# RUN: not %pir run %s 2>&1 | FileCheck %s
remote_buffer $rb : f32[2] {entries = 2}
h2d $i : i32[]
main {
  %i = host_load $i
  %v = remote_load $rb, %i
}
feed $i = 2
run
# CHECK: remote_offset_out_of_range.pir:7:{{[0-9]+}}: error: remote_load: {{.*}}2{{.*}}
