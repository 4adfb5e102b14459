# A row whose max is +inf, NaN, or -inf everywhere is NaN everywhere under softmax
# and log_softmax (PyTorch: x - max has a NaN); other rows are unaffected.
# torch.softmax(torch.tensor([inf, 1, 2, 3]), 0) = [nan, nan, nan, nan].
# RUN: %pir run %s | FileCheck %s
const %x : f32[4,4] = [[inf, 1, 2, 3], [1, nan, 2, 3], [-inf, -inf, -inf, -inf], [-inf, 0, 0, -inf]]
%s = softmax %x
%l = log_softmax %x
const %y : f32[2,2] = [[inf, 1], [0, 1]]
%c = softmax %y {axis = 0}
run
print %s, %l, %c
# CHECK: %s: f32[4,4] = {{\[\[}}nan, nan, nan, nan], [nan, nan, nan, nan], [nan, nan, nan, nan], [0, 0.5, 0.5, 0]]
# CHECK-NEXT: %l: f32[4,4] = {{\[\[}}nan, nan, nan, nan], [nan, nan, nan, nan], [nan, nan, nan, nan], [-inf, -0.6931472, -0.6931472, -inf]]
# CHECK-NEXT: %c: f32[2,2] = {{\[\[}}nan, 0.5], [nan, 0.5]]
