# Host and remote IO phases, hand-computed: each IO op is one sync (150) and
# latency + bytes / rate (host: 2000 + bytes/16; remote: 1000 + bytes/8).
#   host_load $x (f32[64], 256 bytes): 2000 + 16 = 2016
#   remote_load $rb (256 bytes): 1000 + 32 = 1032
#   host_store $y (256 bytes): 2016
#   remote_store $rb: 1032
# RUN: %pir profile %s | FileCheck %s
ir {tiles_per_ipu = 4}
h2d $x : f32[64]
d2h $y : f32[64]
remote_buffer $rb : f32[64] {entries = 2}
main {
  %x = host_load $x
  %r = remote_load $rb, 1
  host_store $y, %x
  remote_store $rb, 0, %r
}
feed $x = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
run
# CHECK: cycles per run: 6696
# CHECK-NEXT: compute{{ +}}0
# CHECK-NEXT: exchange{{ +}}0
# CHECK-NEXT: sync{{ +}}600 {{.*}}(4 syncs)
# CHECK-NEXT: host IO{{ +}}6096
# CHECK:       2166      1         0         0      150      2016  %x = host_load
# CHECK-NEXT:  2166      1         0         0      150      2016  host_store
# CHECK-NEXT:  1182      1         0         0      150      1032  %r = remote_load
# CHECK-NEXT:  1182      1         0         0      150      1032  remote_store
