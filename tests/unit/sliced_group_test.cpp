// Sliced groups (vm/sliced_group.h): random attention-like runs of batched matmuls
// (transposed operands, broadcast and rank-2 weights), scales, biases, softmax and
// log_softmax along either matrix axis and their gradients, on f32/f64 and batch dims
// of several sizes, run grouped and unfused (CompileOptions::fuseElementwise off),
// on one kernel thread and on two; results equal bit for bit.
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/unit/text_program.h"
#include "vm/simd_kernels.h"

namespace pir::vm {
namespace {

using Program = FusedProgram;

std::string shapeText(const std::vector<int64_t>& s) {
  std::string t = "[";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? "," : "") + std::to_string(s[i]);
  return t + "]";
}

// A random program: @g runs scores = a·b (maybe scaled, maybe biased), a softmax or
// log_softmax of them, its gradient against g, and a product with v, all over batch
// dims [B, H]; main calls it with random values and keeps every result.
class GroupGen {
 public:
  explicit GroupGen(uint32_t seed) : rng_(seed) {}

  std::string program() {
    // Groups need several slices of about 64 KiB: most shapes here are that large.
    static const int64_t kBatch[] = {1, 2, 3, 5, 8};
    static const int64_t kDim[] = {1, 3, 16, 33, 64, 100};
    const std::string dt = pick(2) ? "f32" : "f64";
    const int64_t B = kBatch[pick(5)], H = kBatch[1 + pick(4)], M = kDim[2 + pick(4)], K = kDim[pick(6)],
                  N = kDim[2 + pick(4)], P = kDim[pick(6)];
    const bool transA = pick(3) == 0, transB = pick(3) == 0;
    params_.clear();
    body_.clear();
    // b is sometimes rank 3 ([H, K, N]: it broadcasts along B, so no group may slice it)
    // or rank 2 (a weight every index reads whole).
    const int bRank = pick(5) == 0 ? 3 : pick(4) == 0 ? 2 : 4;
    std::vector<int64_t> aShape{B, H, transA ? K : M, transA ? M : K};
    std::vector<int64_t> bShape{B, H, transB ? N : K, transB ? K : N};
    bShape.erase(bShape.begin(), bShape.begin() + (4 - bRank));
    param("%a", dt + shapeText(aShape));
    param("%b", dt + shapeText(bShape));
    line("%s0 = matmul %a, %b {transpose_a = " + std::string(transA ? "true" : "false") +
         ", transpose_b = " + (transB ? "true" : "false") + "}");
    std::string s = "%s0";
    switch (pick(3)) {
      case 0: line("%s1 = mul %s0, 0.125"); s = "%s1"; break;
      case 1:
        param("%bias", dt + shapeText({N}));
        line("%s1 = add %s0, %bias");
        s = "%s1";
        break;
      default: break;
    }
    const bool log = pick(2);
    const int axis = pick(3) == 0 ? 2 : -1;
    const std::string sm = log ? "log_softmax" : "softmax";
    line("%p = " + sm + " " + s + " {axis = " + std::to_string(axis) + "}");
    param("%g", dt + shapeText({B, H, M, N}));
    line("%dp = " + sm + "_grad %p, %g {axis = " + std::to_string(axis) + "}");
    line("%ds = mul %dp, 0.125");
    if (pick(3) == 0) {
      param("%w", dt + shapeText({N, P}));
      line("%c = matmul %p, %w");
    } else {
      param("%v", dt + shapeText({B, H, N, P}));
      line("%c = matmul %p, %v");
    }
    line("%da = matmul %ds, %b {transpose_b = " + std::string(transB ? "false" : "true") + "}");
    std::ostringstream t;
    t << "graph @g(" << signature_ << ") -> (" << dt << shapeText({B, H, M, P}) << ", " << dt
      << shapeText({B, H, M, N}) << ", " << dt << shapeText({B, H, M, K}) << ") {\n"
      << body_ << "  return %c, %p, %da\n}\nmain {\n" << vars_ << "  %rc, %rp, %rda = call @g(" << args_ << ")\n}\nrun\n";
    return t.str();
  }

 private:
  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  void line(const std::string& l) { body_ += "  " + l + "\n"; }
  void param(const std::string& name, const std::string& type) {
    if (params_.empty()) signature_.clear(), vars_.clear(), args_.clear();
    params_.push_back(name);
    signature_ += (signature_.empty() ? "" : ", ") + name + ": " + type;
    vars_ += "  var " + name + " : " + type + " = uniform(-2, 2, " + std::to_string(params_.size()) + ")\n";
    args_ += (args_.empty() ? "" : ", ") + name;
  }

  std::mt19937 rng_;
  std::vector<std::string> params_;
  std::string signature_, vars_, args_, body_;
};

TEST(SlicedGroup, RandomAttentionRunsEqualTheUnfusedOpsBitForBit) {
  int grouped = 0;
  constexpr int kPrograms = 160;
  for (int i = 0; i < kPrograms; ++i) {
    GroupGen gen(static_cast<uint32_t>(7000 + i));
    const std::string text = gen.program();
    Program plain(text, false);
    ASSERT_TRUE(plain.ok) << plain.err.str() << text;
    EXPECT_EQ(plain.disassembly().find("fused "), std::string::npos);
    for (int threads : {1, 2}) {
      simd::setKernelThreads(threads);
      Program fused(text, true);
      simd::setKernelThreads(1);
      ASSERT_TRUE(fused.ok) << fused.err.str() << text;
      if (threads == 1 && fused.disassembly().find("fused        [matmul") != std::string::npos) ++grouped;
      for (const char* name : {"%rc", "%rp", "%rda"})
        ASSERT_EQ(fused.bytes(name), plain.bytes(name)) << name << " differs at " << threads << " threads in\n" << text;
    }
  }
  // Most programs are large enough, with a b without a broadcast batch dim: the
  // comparison is only meaningful if they were grouped.
  EXPECT_GE(grouped, kPrograms / 2);
}

const char* const kAttention = R"(
graph @att(%q: f32[2,4,64,32], %k: f32[2,4,64,32], %v: f32[2,4,64,32]) -> (f32[2,4,64,64], f32[2,4,64,32]) {
  %s0 = matmul %q, %k {transpose_b = true}
  %s = mul %s0, 0.17677669529663687
  %p = softmax %s {axis = -1}
  %c = matmul %p, %v
  return %p, %c
}
main {
  var %q : f32[2,4,64,32] = uniform(-1, 1, 1)
  var %k : f32[2,4,64,32] = uniform(-1, 1, 2)
  var %v : f32[2,4,64,32] = uniform(-1, 1, 3)
  %p, %c = call @att(%q, %k, %v)
}
run
)";

TEST(SlicedGroup, AttentionIsOneInstructionWhoseScoresStayInSliceBuffers) {
  Program fused(kAttention, true), plain(kAttention, false);
  ASSERT_TRUE(fused.ok) << fused.err.str();
  ASSERT_TRUE(plain.ok) << plain.err.str();
  // %s0 and %s die within the group: neither is an operand of the instruction.
  expectInstruction(fused, "fused        [matmul, mul, softmax, matmul] k0 s0(%q), s1(%k), s7(literal), s2(%v) -> "
                           "s5(%p), s6(%c)");
  expectSameValues(fused, plain, {"%p", "%c"});
}

// softmax(q · k) over f32 operands of the given shapes, run once.
std::string scoresProgram(const std::string& q, const std::string& k, const std::string& p) {
  return "graph @att(%q: f32" + q + ", %k: f32" + k + ") -> (f32" + p + ") {\n"
         "  %s = matmul %q, %k\n  %p = softmax %s {axis = -1}\n  return %p\n}\n"
         "main {\n  var %q : f32" + q + " = uniform(-1, 1, 1)\n  var %k : f32" + k +
         " = uniform(-1, 1, 2)\n  %p = call @att(%q, %k)\n}\nrun\n";
}

// Both runs are large enough for a group, and neither may form one: their ops run one
// by one, with the unfused values.
TEST(SlicedGroup, RunsThatCannotBeSlicedWellRunOpByOp) {
  const std::string programs[] = {
      // %k has batch dims [1, 4]: every index of the first batch dim reads all of it
      // along the second, so the product cannot be cut along both.
      scoresProgram("[2,4,64,64]", "[1,4,64,64]", "[2,4,64,64]"),
      // Four heads of 128 x 128 scores: four slices would split over the kernel threads
      // less evenly than the ops' own splits.
      scoresProgram("[1,4,128,64]", "[1,4,64,128]", "[1,4,128,128]"),
  };
  for (const std::string& text : programs) {
    Program fused(text, true), plain(text, false);
    ASSERT_TRUE(fused.ok) << fused.err.str() << text;
    EXPECT_EQ(fused.disassembly().find("fused "), std::string::npos) << fused.disassembly();
    expectSameValues(fused, plain, {"%p"});
  }
  // The same run with eight heads is a group.
  Program eight(scoresProgram("[1,8,128,64]", "[1,8,64,128]", "[1,8,128,128]"), true);
  ASSERT_TRUE(eight.ok) << eight.err.str();
  expectInstruction(eight, "fused        [matmul, softmax]");
}

}  // namespace
}  // namespace pir::vm
