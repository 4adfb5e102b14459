h2d $x : f32[2]
d2h $y : f32[2]
%x = host_load $x
%y = add %x, 1   # a comment
host_store $y, %y
