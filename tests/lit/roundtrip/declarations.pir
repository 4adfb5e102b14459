# Streams and remote buffers print in declaration order with canonical dtype
# names; `entries` is omitted when it is the default 1.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s 2>/dev/null | FileCheck %s
h2d $x : float[2,3]
d2h $y : float32[2]
remote_buffer $rb : half[4] {entries = 3}
remote_buffer $one : double[] {entries = 1}
h2d $n : int32[]
h2d $u : uint8[0]
d2h $flags : bool[2,2]
h2d $big : int64[3]      # stored as i32 (PopXL's downcast), with a warning
# CHECK:      h2d $x : f32[2,3]
# CHECK-NEXT: d2h $y : f32[2]
# CHECK-NEXT: remote_buffer $rb : f16[4] {entries = 3}
# CHECK-NEXT: remote_buffer $one : f64[]
# CHECK-NEXT: h2d $n : i32[]
# CHECK-NEXT: h2d $u : u8[0]
# CHECK-NEXT: d2h $flags : bool[2,2]
# CHECK-NEXT: h2d $big : i32[3]
# CHECK-EMPTY:
# CHECK-NEXT: main {
# CHECK-NEXT: }
