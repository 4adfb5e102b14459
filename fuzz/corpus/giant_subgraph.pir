graph @b(%x: f32[4611686018427387904,0], %y: f32[]) -> (f32[4611686018427387904,0], f32[]) {
  %x2 = add %x, 1
  %y2 = add %y, 1
  return %x2, %y2
}
const %x : f32[4611686018427387904,0] = 0
%r, %s = repeat @b(%x, 1.0) {count = 3}
%k = cumsum %r {axis = 0}
run
print %r, %s, %k
