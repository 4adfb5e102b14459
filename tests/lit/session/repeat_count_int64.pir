# Repeat counts are int64 end to end (2^32 + 1 was cut to 1, 2^32 to 0).
# corpus: check-only (running main loops 2^63 times; the whole-corpus scripts skip it)
# RUN: %pir disasm %s | FileCheck %s
graph @b(%x: f32[]) -> (f32[]) {
  %y = add %x, 1
  return %y
}
var %v : f32[] = 0
main {
  %r = repeat @b(%v) {count = 4294967296}
  %s = repeat @b(%v) {count = 9223372036854775807}
}
# CHECK: repeat @b count=4294967296 carried=1
# CHECK: repeat @b count=9223372036854775807 carried=1
