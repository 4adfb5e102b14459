main {
  const %s : u32[2] = [1, 2]
  %a = split_random_seed %s {n = 20000}
}
