const %x : f32[4611686018427387904,4,0] = 0
const %g : f32[4] = 1
const %i : i32[2] = [1, 0]
%bn = batch_norm_inference %x, %g, %g, %g, %g
%gn = group_norm %x, %g, %g {groups = 2}
%cs = cumsum %x {axis = 2}
%t, %ti = topk %x {k = 0}
%c = concat %x, %x {axis = 2}
%a, %b = split %x {splits = [1, 3], axis = 1}
%ga = gather %x, %i {axis = 0}
%s = sum %x {axis = [0, 2]}
%sm = softmax %x {axis = 0}
%tr = transpose %x {perm = [2, 1, 0]}
run
print %bn, %cs, %t, %s, %tr
