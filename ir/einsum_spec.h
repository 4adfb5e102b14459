// einsum's equation for the common two-operand forms ("bij,bjk->bik",
// "ij,kj->ik", "bhqd,bhkd->bhqk", "i,i->", an implicit output "ij,jk"), as a
// plan that a batched matrix product carries out:
//   A transposed to [batch..., left..., contracted...] and reshaped [B, M, K],
//   B transposed to [batch..., contracted..., right...] and reshaped [B, K, N],
//   the product [B, M, N] reshaped to [batch..., left..., right...] and
//   transposed to the equation's output order.
// Letters that appear in one operand only and not in the output are summed
// first (`sumA`/`sumB`). Not supported (an error naming the letter): a letter
// repeated within one operand (a diagonal), ellipses, more than two operands.
// The gradient of each operand is an einsum of the output gradient and the other
// operand (gradientEquation).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pir::einsum {

struct Plan {
  std::string a, b, out;  // the letters of each operand and of the output
  std::vector<int64_t> sumA, sumB;     // axes of A / B summed away first (in A's / B's order)
  std::vector<int64_t> permA, permB;   // after the sums: to [batch, left, contracted] / [batch, contracted, right]
  std::vector<int64_t> permOut;        // from [batch, left, right] to the output order
  std::vector<int64_t> batchDims, leftDims, rightDims, contractedDims;
  int64_t batch = 1, m = 1, n = 1, k = 1;
  std::vector<int64_t> outShape;
};

// Parses `equation` against the operand shapes. Returns the plan, or nullopt with
// `problem` set (a located message is the caller's).
std::optional<Plan> plan(std::string_view equation, const std::vector<int64_t>& aShape,
                         const std::vector<int64_t>& bShape, std::string& problem);

// The equation whose result is the gradient of operand `which` (0 or 1) given the
// output gradient: "out,b->a" or "a,out->b"... ; nullopt when a letter is summed
// within one operand (its gradient is a broadcast, not an einsum of two).
std::optional<std::string> gradientEquation(const Plan& p, int which);

}  // namespace pir::einsum
