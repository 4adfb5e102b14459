// Programs quoted from the spec (../shared/spec/), shared by the unit tests so
// that every layer is tested on the same text.
#pragma once

namespace pir::test {

// The example at the top of language.md, verbatim.
inline constexpr const char* kLanguageExample = R"(# linear.pir: one step of y = x @ W + b
ir {num_host_transfers = 1}

h2d $x : f32[2,3]
d2h $y : f32[2,2]

graph @linear(%x: f32[2,3], %W: f32[3,2], %b: f32[2]) -> (f32[2,2]) {
  %xw = matmul %x, %W
  %y = add %xw, %b
  return %y
}

main {
  var %W : f32[3,2] = [[1, 0], [0, 1], [1, 1]]
  var %b : f32[2] = 0.5
  %x = host_load $x
  %y = call @linear(%x, %W, %b)
  host_store $y, %y
}

feed $x = [[1, 2, 3], [4, 5, 6]]
run
print $y        # $y: f32[2,2] = [[4.5, 5.5], [10.5, 11.5]]
)";

}  // namespace pir::test
