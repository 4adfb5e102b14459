# RUN: %pir run %s | FileCheck %s
# conv_transpose (ONNX ConvTranspose: w is [C_in, C_out/groups, k...]; stride
# spreads the copies, output_padding adds at the end, padding crops) and einsum
# of two operands (a product, a transposed output, a batched row-wise dot, letters
# summed in one operand only).
const %x : f32[1,1,2,2] = [[[[1, 2], [3, 4]]]]
const %w : f32[1,2,2,2] = 1
%y = conv_transpose %x, %w
%ys = conv_transpose %x, %w {stride = [2, 2], output_padding = [1, 0]}
%yp = conv_transpose %x, %w {padding = [1, 1, 0, 0]}
const %a : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
const %b : f32[3,2] = [[1, 0], [0, 1], [1, 1]]
%e = einsum %a, %b {equation = "ij,jk->ik"}
%et = einsum %a, %b {equation = "ij,jk->ki"}
%ed = einsum %a, %a {equation = "ij,ij->i"}
%es = einsum %a, %b {equation = "ij,kl->il"}
%ei = einsum %a, %b {equation = "ij,jk"}
run
print %y, %ys, %yp, %e, %et, %ed, %es, %ei
# CHECK: %y: f32[1,2,3,3] = {{\[\[\[\[}}1, 3, 2], [4, 10, 6], [3, 7, 4]], {{\[\[}}1, 3, 2], [4, 10, 6], [3, 7, 4]]]]
# CHECK-NEXT: %ys: f32[1,2,5,4] = {{\[\[\[\[}}1, 1, 2, 2], [1, 1, 2, 2], [3, 3, 4, 4], [3, 3, 4, 4], [0, 0, 0, 0]], {{\[\[}}1, 1, 2, 2], [1, 1, 2, 2], [3, 3, 4, 4], [3, 3, 4, 4], [0, 0, 0, 0]]]]
# CHECK-NEXT: %yp: f32[1,2,2,2] = {{\[\[\[\[}}10, 6], [7, 4]], {{\[\[}}10, 6], [7, 4]]]]
# CHECK-NEXT: %e: f32[2,2] = {{\[\[}}4, 5], [10, 11]]
# CHECK-NEXT: %et: f32[2,2] = {{\[\[}}4, 10], [5, 11]]
# CHECK-NEXT: %ed: f32[2] = [14, 77]
# CHECK-NEXT: %es: f32[2,2] = {{\[\[}}12, 12], [30, 30]]
# CHECK-NEXT: %ei: f32[2,2] = {{\[\[}}4, 5], [10, 11]]
