# Misspelt names get a suggestion when a known name is close (at most a third of
# the name's length in edits): ops, %values, @graphs, $streams and buffers,
# attribute keys. Names with nothing close get none. `check` reports them all.
# RUN: not %pir check %s 2>&1 | FileCheck %s
h2d $input : f32[2]
remote_buffer $weights : f32[2] {entries = 2}
graph @double(%v: f32[2]) -> (f32[2]) {
  %r = add %v, %v
  return %r
}
main {
  const %weight : f32[2] = [1, 2]
  %a = ad %weight, %weight
  %b = mul %wieght, %weight
  %c = call @doubel(%weight)
  %d = host_load $inptu
  %e = remote_load $weigths, 0
  %f = sum %weight {axes = 0}
  %g = sum %weight {tile_sett = io}
  %h = mul %zzzzzz, %weight
  %i = frobnicate %weight
}
print %weigth
# CHECK: did_you_mean.pir:13:8: error: unknown op 'ad'; did you mean 'add'?
# CHECK: did_you_mean.pir:14:12: error: mul: unknown value %wieght; did you mean '%weight'?
# CHECK: did_you_mean.pir:15:13: error: call: unknown graph @doubel; did you mean '@double'?
# CHECK: did_you_mean.pir:16:18: error: host_load: unknown stream or remote buffer $inptu; did you mean '$input'?
# CHECK: did_you_mean.pir:17:20: error: remote_load: unknown stream or remote buffer $weigths; did you mean '$weights'?
# CHECK: did_you_mean.pir:18:21: error: sum: unknown attribute 'axes'; did you mean 'axis'?
# CHECK: did_you_mean.pir:19:21: error: sum: unknown attribute 'tile_sett'; did you mean 'tile_set'?
# CHECK: did_you_mean.pir:20:12: error: mul: unknown value %zzzzzz{{$}}
# CHECK: did_you_mean.pir:21:8: error: unknown op 'frobnicate'{{$}}
# CHECK: did_you_mean.pir:23:7: error: print: unknown value %weigth in the main graph; did you mean '%weight'?
