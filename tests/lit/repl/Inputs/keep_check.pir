# Prints what keep.npy holds (tests/lit/repl/failed_input_writes_nothing.pir).
const %k : f32[] = load("keep.npy")
print %k
