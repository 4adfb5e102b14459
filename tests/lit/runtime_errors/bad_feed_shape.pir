# A feed must have the full buffer shape [nht][R] + S.
# RUN: not %pir run %s 2>&1 | FileCheck %s
ir {num_host_transfers = 2}
h2d $x : f32[3]
feed $x = [1, 2, 3]
# CHECK: bad_feed_shape.pir:5:{{[0-9]+}}: error: feed $x: {{.*}}[3]{{.*}}[2,3]
