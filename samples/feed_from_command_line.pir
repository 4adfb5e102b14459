# `pir run FILE --feed NAME=DATA.npy --save NAME=OUT.npy`: the data comes from
# the command line, so the program holds none. The feed happens before the
# file's first `run` (here: before the default run, since the file has no
# session command) and the save after the last, as if written in the file.
# Command-line paths are relative to the working directory.
#
# RUN: %pir run %s --feed x=%S/Inputs/batch.npy --save y=%t.npy | FileCheck %s
# RUN: %python -c "import struct, sys; d = open(sys.argv[1], 'rb').read(); print(struct.unpack('<2f', d[-8:]))" %t.npy | FileCheck %s --check-prefix=RAW
h2d $x : f32[2]
d2h $y : f32[2]

main {
  var %w : f32[2] = [10, 100]
  %x = host_load $x
  %y = mul %x, %w
  host_store $y, %y
}
# [0.5, -1] * [10, 100] = [5, -100]; the default run prints every d2h stream.
# CHECK: $y: f32[2] = [5, -100]
# RAW: (5.0, -100.0)
