# pir run FILE --feed NAME=DATA.npy --save NAME=OUT.npy (repeatable): the feeds
# act just before the file's first `run` (overriding the file's own feed), the
# saves after its last command. Inputs/batch2.npy holds f32 [0.5, -1].
# RUN: %pir run %s --feed x=%S/Inputs/batch2.npy --save '$y=%t.y.npy' --save %%w=%t.w.npy | FileCheck %s
# RUN: %python -c "import struct, sys; d = open(sys.argv[1], 'rb').read(); print(struct.unpack('<2f', d[-8:]))" %t.y.npy | FileCheck %s --check-prefix=RAWY
# RUN: %python -c "import struct, sys; d = open(sys.argv[1], 'rb').read(); print(struct.unpack('<2f', d[-8:]))" %t.w.npy | FileCheck %s --check-prefix=RAWW
#
# Errors: a malformed option is a usage error (2); a stream that does not exist
# or has the wrong direction, and data of the wrong shape, are errors of the run (1).
# RUN: not %pir run %s --feed x 2>&1 | FileCheck %s --check-prefix=MALFORMED
# RUN: not %pir run %s --feed xx=%S/Inputs/batch2.npy 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# RUN: not %pir run %s --feed y=%S/Inputs/batch2.npy 2>&1 | FileCheck %s --check-prefix=DIRECTION
# RUN: not %pir run %s --feed z=%S/Inputs/batch2.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
# RUN: not %pir run %s --save q=%t.q.npy 2>&1 | FileCheck %s --check-prefix=SAVE
# RUN: %python %S/Inputs/status.py 2 %pir run %s --feed x
# RUN: %python %S/Inputs/status.py 1 %pir run %s --feed xx=%S/Inputs/batch2.npy
h2d $x : f32[2]
h2d $z : f32[3]
d2h $y : f32[2]
main {
  var %w : f32[2] = [1, 2]
  %x = host_load $x
  %y = mul %x, %w
  host_store $y, %y
  accumulate_ %w, %x
}
feed $x = [100, 100]
feed $z = [0, 0, 0]
run
print $y, %w
# CHECK: $y: f32[2] = [0.5, -2]
# CHECK-NEXT: %w: f32[2] = [1.5, 1]
# RAWY: (0.5, -2.0)
# RAWW: (1.5, 1.0)
# MALFORMED: pir: error: --feed x: expected NAME=FILE.npy, got 'x'
# UNKNOWN: pir: error: --feed xx={{.*}}batch2.npy: unknown stream $xx; did you mean '$x'?
# DIRECTION: pir: error: --feed y={{.*}}batch2.npy: $y is not an h2d stream
# DIRECTION-NEXT: feed_save.pir:19:5: note: $y is declared here
# SHAPE: error: feed $z
# SAVE: pir: error: --save q={{.*}}: no stream $q and no main-graph value %q
