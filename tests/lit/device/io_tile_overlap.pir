# With io tiles, a host_load on the io tile set overlaps the compute phases that
# follow it up to the first op that reads what it loaded (runtime.md §7): only
# compute hides it; exchange and sync phases (every tile takes part) pause it, and
# the load's own sync is on the clock.
# 8 tiles, 4 of them io: compute tiles 0-3, io tiles 4-7.
#   host_load: sync 0-150 on the clock; its 2016 IO cycles queue on the io tiles
#   %b = exp: sync 150-300 (IO paused), compute 300-440 (140 of the IO done)
#   %c = exp: sync 440-590, compute 590-730 (280 done, 1736 left)
#   %d = add %c, %x waits, idle, for the rest of the load: 730 + 1736 = 2466; %x
#   is on tiles 4-7, so each compute tile receives 64 bytes: exchange 16, sync
#   150, compute 68 -> 2700.
# Hidden: the two exps' compute, 280 cycles.
# The same program on 4 tiles without io tiles takes the sum of all phases:
# 2166 + 290 + 290 + 218 (no exchange now) + 2166 = 5130.
# RUN: %pir profile %s | FileCheck %s --check-prefix=IO
# RUN: sed -e 's/tiles_per_ipu = 8, io_tiles = 4/tiles_per_ipu = 4/' -e 's/ {tile_set = io}//' %s > %t.pir && %pir profile %t.pir | FileCheck %s --check-prefix=SERIAL
# RUN: %pir profile %s --timeline=%t.json > /dev/null && %python -c "import json,sys; d=json.load(open(sys.argv[1])); ev=[e for e in d['traceEvents'] if e['ph']=='X']; print(sorted((e['name'], e['cat'], e['args']['start_cycle'], e['args']['cycles']) for e in ev))" %t.json | FileCheck %s --check-prefix=TRACE
ir {tiles_per_ipu = 8, io_tiles = 4}
h2d $x : f32[64]
d2h $y : f32[64]
main {
  const %a : f32[64] = 1
  %x = host_load $x {tile_set = io}
  %b = exp %a
  %c = exp %b
  %d = add %c, %x
  host_store $y, %d
}
feed $x = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
run
# The host_store (compute tiles) follows at 2700: 150 + 2016 -> 4866.
# IO: cycles per run: 4866
# IO-NEXT: compute{{ +}}348
# IO-NEXT: exchange{{ +}}16
# IO-NEXT: sync{{ +}}750 {{.*}}(5 syncs)
# IO-NEXT: host IO{{ +}}4032
# IO-NEXT: overlap{{ +}}280 {{.*}}(IO on io tiles hidden behind compute)
# SERIAL: cycles per run: 5130
# SERIAL-NOT: {{^}}  overlap
# TRACE: ('%b = exp', 'compute', 300, 140), ('%b = exp', 'sync', 150, 150)
# TRACE-SAME: ('%d = add', 'compute', 2632, 68), ('%d = add', 'exchange', 2466, 16)
# TRACE-SAME: ('%x = host_load', 'host IO (io tiles)', 150, 2016), ('%x = host_load', 'sync', 0, 150)
