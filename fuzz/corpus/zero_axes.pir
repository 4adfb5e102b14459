const %z : f32[0,3] = 0
const %w : f32[3,0] = 0
const %e : i32[0] = 0
%m = matmul %z, %w
%n = matmul %w, %z
%s = sum %z {axis = 0}
%p = prod %w {axis = 1}
%mx = max %w {axis = 1}
%mn = mean %z {axis = 0}
%o = onehot %e {num_classes = 4}
%l = layer_norm %w, [], []
%r = reshape %z {shape = [3, 0]}
%d = dynamic_slice %z, [0, 1] {axes = [0, 1], sizes = [0, 2]}
run
print %m, %n, %s, %p, %mx, %mn, %o, %r, %d
