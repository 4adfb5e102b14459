# A run that loads a stream that was never fed is an error naming the stream
# and where it was declared; nothing of that run is kept.
# RUN: not %pir run %s 2>&1 | FileCheck %s
h2d $x : f32[2]
var %v : f32[] = 1
add_ %v, 1
%x = host_load $x
run
# CHECK: stream_never_fed.pir:7:{{[0-9]+}}: error: {{.*}}$x{{.*}}never fed
# CHECK: stream_never_fed.pir:4:{{[0-9]+}}: note: {{.*}}$x{{.*}}declared here
