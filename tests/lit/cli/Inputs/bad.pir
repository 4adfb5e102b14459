const %a : f32[2] = [1, 2]
%b = add %a, %nope
