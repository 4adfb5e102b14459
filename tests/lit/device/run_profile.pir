# `pir run --profile` runs as usual (the values on standard output) and writes
# the profile to standard error (repl_profile.pir: the REPL's :profile).
# RUN: %pir run --profile %s > %t.out 2> %t.err
# RUN: FileCheck %s --check-prefix=OUT < %t.out
# RUN: FileCheck %s --check-prefix=ERR < %t.err
ir {tiles_per_ipu = 4}
d2h $y : f32[4]
main {
  const %a : f32[4] = [1, 2, 3, 4]
  %b = mul %a, %a
  host_store $y, %b
}
# OUT: $y: f32[4] = [1, 4, 9, 16]
# OUT-NOT: cycles
# ERR: cycles per run: 2357
