# Every small tensor lands on tile 0 by the linear rule, and so does the code
# of every op that writes one: this program does not fit in 1200 bytes per tile.
# Moving %b (and with it the code of tanh and host_store) to tile 1 makes it fit.
# RUN: not %pir run %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
# RUN: sed -e 's/%b = tanh %a$/%b = tanh %a {tile = 1}/' %s > %t.pir
# RUN: %pir run %t.pir | FileCheck %s --check-prefix=OVERRIDE
# RUN: %pir profile %t.pir | FileCheck %s --check-prefix=PROFILE
ir {tiles_per_ipu = 4, tile_memory = 1200}
d2h $y : f32[4]
main {
  var %w : f32[4] = 1
  %a = exp %w
  %b = tanh %a
  host_store $y, %b
}
run
print $y
# DEFAULT: error: out of memory on tile 0: 1696 bytes needed at its peak, 1200 available (tile_memory)
# OVERRIDE: $y: f32[4] = [0.9913289, 0.9913289, 0.9913289, 0.9913289]
# Tile 0: %w 16, $y's landing area 16, exp's code 544, %a 16 = 592 (tanh(e) = 0.9913289, correctly rounded).
# Tile 1: tanh and host_store code 1088, %b 16 = 1104.
# PROFILE:      0       1       1104          1088    92.00%
# PROFILE-NEXT: 0       0        592           576    49.33%
