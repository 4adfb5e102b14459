graph @f(%x: f32[3]) -> (f32[3]) {
  %y = sin %x
  return %y
}
# grads_provided names a value @f does not have
autodiff @f -> @f_grad {grads_provided = [%z]}
