# feed names a declared h2d stream.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}feed_unknown.pir:4:6: error: feed: unknown stream $nope
feed $nope = 1
