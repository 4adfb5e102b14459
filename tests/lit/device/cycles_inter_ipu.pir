# Copies between IPUs go over the IPU-Links: 240 bytes per cycle per IPU, a
# lower rate than 1472 tiles exchanging 4 bytes each per cycle. An f32[147200]
# is 100 elements (400 bytes) per tile; the copy moves 588800 bytes out of
# IPU 0: ceil(588800 / 240) = 2454 cycles (per tile it would be 400 / 4 = 100).
# The sync spans two IPUs: 1500 cycles. ipu_copy has no compute phase.
# RUN: %pir profile %s | FileCheck %s
ir {ipus = 2}
main {
  %a = init {shape = [147200], dtype = f32}
  %b = ipu_copy %a {ipu = 1}
}
# CHECK:       3954      1         0      2454     1500         0  %b = ipu_copy
