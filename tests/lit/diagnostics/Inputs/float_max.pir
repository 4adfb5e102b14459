var %m : f32[2] = [3.4028235e38, 65504]
main {}
print %m
