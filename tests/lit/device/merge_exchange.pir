# merge-exchange (PopXL merge_exchange): consecutive IO ops with no compute op
# and no data dependency between them become exchange blocks; results are
# unchanged and the estimate drops by one sync and one IO latency per merged op.
# RUN: %pir opt --passes=merge-exchange %s | FileCheck %s --check-prefix=IR
# RUN: %pir run %s > %t.before && %pir run --passes=merge-exchange %s > %t.after && diff %t.before %t.after
# RUN: %pir profile %s | FileCheck %s --check-prefix=BEFORE
# RUN: %pir profile --passes=merge-exchange %s | FileCheck %s --check-prefix=AFTER
# RUN: %pir opt --passes=merge-exchange %s > %t.pir && %pir opt --passes=merge-exchange %t.pir | diff - %t.pir
ir {tiles_per_ipu = 4}
h2d $x : f32[64]
h2d $z : f32[64]
d2h $y : f32[64]
remote_buffer $rb : f32[64] {entries = 2}
main {
  const %k : f32[64] = 3
  # Two loads and a remote load, independent: one block, one segment.
  %x = host_load $x
  %z = host_load $z
  %r = remote_load $rb, 0
  %s = add %x, %z
  %t = add %s, %r
  # Stores of values computed before, then an unrelated in-place load.
  host_store $y, %t
  remote_store $rb, 1, %t
  # remote_load_ writes %s in place and the next store reads %s: a data
  # dependency, so the store starts a new block.
  remote_load_ $rb, 1, %s
  host_store $y, %s
  # The same stream twice: a new segment in that block.
  %x2 = host_load $x
  %x3 = host_load $x
  %u = add %x2, %x3
  %v = add %u, %k
  host_store $y, %v
}
feed $x = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]
feed $z = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]
run
print $y
# IR:      main {
# IR-NEXT:   const %k : f32[64] = 3
# IR-NEXT:   exchange {
# IR-NEXT:     %x = host_load $x : f32[64]
# IR-NEXT:     %z = host_load $z : f32[64]
# IR-NEXT:     %r = remote_load $rb, 0 : f32[64]
# IR-NEXT:   }
# IR-NEXT:   %s = add %x, %z : f32[64]
# IR-NEXT:   %t = add %s, %r : f32[64]
# IR-NEXT:   exchange {
# IR-NEXT:     host_store $y, %t
# IR-NEXT:     remote_store $rb, 1, %t
# IR-NEXT:     remote_load_ $rb, 1, %s
# IR-NEXT:   }
# IR-NEXT:   exchange {
# IR-NEXT:     host_store $y, %s
# IR-NEXT:     %x2 = host_load $x : f32[64]
# IR-NEXT:     %x3 = host_load $x : f32[64]
# IR-NEXT:   }
# IR-NEXT:   %u = add %x2, %x3 : f32[64]
# IR-NEXT:   %v = add %u, %k : f32[64]
# IR-NEXT:   host_store $y, %v
# IR-NEXT: }
#
# Before: 10 IO ops, each a sync (150) and its phase: host (256 bytes)
# 2000 + 16 = 2016, 7 of them; remote 1000 + 32 = 1032, 3 of them: 17208.
# 4 adds: 68 compute + 150 sync each.
# BEFORE: cycles per run: 19580
# BEFORE-NEXT: compute{{ +}}272
# BEFORE-NEXT: exchange{{ +}}0
# BEFORE-NEXT: sync{{ +}}2100 {{.*}}(14 syncs)
# BEFORE-NEXT: host IO{{ +}}17208
# After: a segment costs its largest latency plus each link's bytes / rate.
#   block 1: 2000 + 512/16 + 256/8 = 2064
#   block 2 (one segment): 2000 + 256/16 + 512/8 = 2080
#   block 3: ($x, load) repeats: 2000 + 512/16 = 2032, then 2000 + 16 = 2016
#   the last host_store 2016; syncs: one per segment and op, 1 + 1 + 2 + 1 + 4 adds = 9.
# AFTER: cycles per run: 11830
# AFTER-NEXT: compute{{ +}}272
# AFTER-NEXT: exchange{{ +}}0
# AFTER-NEXT: sync{{ +}}1350 {{.*}}(9 syncs)
# AFTER-NEXT: host IO{{ +}}10208
# AFTER:        4348      1         0         0      300      4048  exchange {3 ops}
# AFTER-NEXT:   2230      1         0         0      150      2080  exchange {3 ops}
# AFTER-NEXT:   2214      1         0         0      150      2064  exchange {3 ops}
