main {
  const %x : f32[] = 1
  %p = print_tensor %x {title = "a
bc"}
}
