# pad, tile and trilu check their attributes against the operand, at the attribute.
# RUN: not %pir check %s 2>&1 | FileCheck %s
const %x : f32[2] = [1, 2]
const %e : f32[0] = 0
%a = pad %x {pads = [1]}
# CHECK: {{.*}}pad_tile_trilu_attributes.pir:5:21: error: pad: pads [1] needs 2 values (the begin of every axis, then the end) for f32[2]
%b = pad %x {pads = [-2, -1]}
# CHECK: {{.*}}pad_tile_trilu_attributes.pir:7:21: error: pad: pads [-2,-1] crop axis 0 of f32[2] below size 0
%c = pad %e {pads = [1, 0], mode = edge}
# CHECK: {{.*}}pad_tile_trilu_attributes.pir:9:21: error: pad: pads [1,0]: edge padding of empty axis 0
%d = tile %x {repeats = [-1]}
# CHECK: {{.*}}pad_tile_trilu_attributes.pir:11:25: error: tile: repeats [-1]: axis 0 must repeat 0 or more times (and fit int64)
%f = trilu %x
# CHECK: {{.*}}pad_tile_trilu_attributes.pir:13:12: error: trilu: trilu needs a matrix or a batch of them, got f32[2]
