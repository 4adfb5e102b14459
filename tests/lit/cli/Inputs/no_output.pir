# A program with no d2h stream and no session command.
main {
  const %a : f32[2] = [1, 2]
  %b = add %a, %a
}
