// Fused elementwise chains (vm/fusion.h): random chains of every fusible op,
// with broadcasts, scalar and literal operands, in-place updates and casts, on
// f32/f64/i32 and lengths that hit SIMD tails and partial blocks, run fused
// and unfused (CompileOptions::fuseElementwise off); results equal bit for bit.
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ir/context.h"
#include "tests/unit/text_program.h"
#include "vm/fusion.h"
#include "vm/host_memory.h"
#include "vm/simd_kernels.h"

namespace pir::vm {
namespace {

using Program = FusedProgram;

// A random program: @g computes a chain over chain-shaped params, a by-reference
// param it may update in place, a row ([last dim]), a column (last dim 1) and a
// scalar; main calls it and runs a second chain on its results (main keeps
// every value, so that chain writes everything).
class ChainGen {
 public:
  explicit ChainGen(uint32_t seed) : rng_(seed) {}

  std::string program() {
    static const char* kDtypes[] = {"f32", "f64", "i32"};
    dt_ = kDtypes[pick(3)];
    isFloat_ = dt_ != "i32";
    static const std::vector<std::vector<int64_t>> kShapes = {
        {1},     {7},        {33},      {1024},     {1029},  {2100},    {3, 5},   {5, 67},
        {4, 256}, {3, 700},  {2, 3, 7}, {2, 9, 65}, {1, 1100}, {17, 1},  {64, 33}, {3, 1, 347}};
    shape_ = kShapes[pick(kShapes.size())];
    const std::string T = dt_ + shapeText(shape_);
    std::vector<int64_t> row{shape_.back()}, col = shape_;
    col.back() = 1;
    const std::string R = dt_ + shapeText(row), C = dt_ + shapeText(col);
    values_ = {"%p0", "%p1"};
    body_.clear();
    counter_ = 0;
    const int n = 3 + pick(6);
    for (int i = 0; i < n; ++i) step(i == 0);
    const std::string mid = values_[pick(values_.size())];
    std::ostringstream s;
    s << "graph @g(%p0: " << T << ", %p1: " << T << ", %w: &" << T << ", %row: " << R << ", %col: " << C
      << ", %s: " << dt_ << "[]) -> (" << T << ", " << T << ") {\n"
      << body_ << "  return " << values_.back() << ", " << mid << "\n}\n"
      << "main {\n" << input("%p0", T, 1) << input("%p1", T, 2) << input("%w", T, 3) << input("%row", R, 4)
      << input("%col", C, 5) << input("%s", dt_ + "[]", 6)
      << "  %r0, %r1 = call @g(%p0, %p1, %w, %row, %col, %s)\n"
      << "  %m0 = mul %r0, %r1\n"
      << "  %m1 = maximum %m0, %row\n"
      << "  %m2 = sub %m1, %r0\n"
      << "}\nrun\n";
    return s.str();
  }

 private:
  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  static std::string shapeText(const std::vector<int64_t>& s) {
    std::string t = "[";
    for (size_t i = 0; i < s.size(); ++i) t += (i ? "," : "") + std::to_string(s[i]);
    return t + "]";
  }
  // A main-graph variable of type t with random values (integers: from f32 by
  // cast, as uniform(...) needs a float dtype).
  std::string input(const std::string& name, const std::string& t, int seed) const {
    const std::string init = "uniform(" + std::string(isFloat_ ? "-2, 2, " : "-9, 9, ") + std::to_string(seed) + ")";
    if (isFloat_) return "  var " + name + " : " + t + " = " + init + "\n";
    const std::string f = "f32" + t.substr(dt_.size());
    return "  var " + name + " : " + t + " = zeros\n  var " + name + "f : " + f + " = " + init + "\n  " + name +
           "i = cast " + name + "f {dtype = " + dt_ + "}\n  add_ " + name + ", " + name + "i\n";
  }
  std::string fresh() { return "%v" + std::to_string(counter_++); }
  std::string cur() const { return values_.back(); }
  std::string anyValue() { return values_[pick(values_.size())]; }
  std::string literal() { return isFloat_ ? (pick(2) ? "0.75" : "-1.5") : (pick(2) ? "3" : "-2"); }
  // A second operand: a chain value, a param, a broadcast, the scalar or a literal.
  std::string other() {
    switch (pick(7)) {
      case 0: return anyValue();
      case 1: return "%p1";
      case 2: return "%row";
      case 3: return "%col";
      case 4: return "%s";
      case 5: return literal();
      default: return "%w";
    }
  }
  void emit(const std::string& line) { body_ += "  " + line + "\n"; }
  void define(const std::string& rhs) {
    const std::string v = fresh();
    emit(v + " = " + rhs);
    values_.push_back(v);
  }

  void step(bool first) {
    const std::string x = first ? "%p0" : cur();
    static const char* kFloatUnary[] = {"abs",  "neg",     "sign",  "exp",      "log",   "sqrt",    "rsqrt",
                                        "reciprocal", "square", "sin", "cos", "tanh", "sigmoid", "relu",
                                        "gelu", "gelu_erf", "swish", "softplus", "ceil", "floor", "round", "log2"};
    static const char* kIntUnary[] = {"abs", "neg", "sign", "relu", "ceil", "floor", "round"};
    static const char* kFloatBinary[] = {"add", "sub", "mul", "div", "pow", "fmod", "maximum", "minimum"};
    static const char* kIntBinary[] = {"add", "sub", "mul", "maximum", "minimum"};
    static const char* kCompare[] = {"equal", "not_equal", "greater", "greater_equal", "less", "less_equal"};
    static const char* kLogical[] = {"logical_and", "logical_or", "logical_xor"};
    static const char* kFloatInplace[] = {"abs_", "neg_", "exp_", "relu_", "tanh_", "sigmoid_", "sqrt_"};
    switch (pick(first ? 8 : 11)) {
      case 0:
      case 1:
        if (isFloat_) define(std::string(kFloatUnary[pick(std::size(kFloatUnary))]) + " " + x);
        else define(std::string(kIntUnary[pick(std::size(kIntUnary))]) + " " + x);
        break;
      case 2:
      case 3: {
        const std::string op = isFloat_ ? kFloatBinary[pick(std::size(kFloatBinary))] : kIntBinary[pick(std::size(kIntBinary))];
        if ((op == "maximum" || op == "minimum") && pick(2)) define(op + " " + x + ", " + other() + ", " + other());
        else if (pick(4) == 0) define(op + " " + other() + ", " + x);  // the chain value second
        else define(op + " " + x + ", " + other());
        break;
      }
      case 4: {  // a mask, maybe combined with another, consumed by where or cast
        std::string mask = fresh();
        emit(mask + " = " + kCompare[pick(std::size(kCompare))] + " " + x + ", " + other());
        if (pick(2)) {
          const std::string m2 = fresh();
          emit(m2 + " = " + kCompare[pick(std::size(kCompare))] + " " + other() + ", " + x);
          const std::string m3 = fresh();
          emit(m3 + " = " + kLogical[pick(std::size(kLogical))] + " " + mask + ", " + m2);
          mask = m3;
        }
        if (pick(4) == 0) define("cast " + mask + " {dtype = " + dt_ + "}");
        else if (pick(2)) define("where " + mask + ", " + x + ", " + other());
        else define("where " + mask + ", " + other() + ", " + x);
        break;
      }
      case 5:
        if (pick(2)) define("scaled_add " + x + ", " + other() + " {a = 0.5, b = -0.25}");
        else define("scaled_add " + x + ", " + other() + ", %s, " + literal());
        break;
      case 6: {  // through another dtype and back
        static const char* kVia[] = {"f32", "f64", "i32", "f16", "i8"};
        const std::string t = fresh();
        emit(t + " = cast " + x + " {dtype = " + kVia[pick(std::size(kVia))] + "}");
        if (pick(2)) {
          const std::string u = fresh();
          emit(u + " = " + (pick(2) ? "relu " : "neg ") + t);
          define("cast " + u + " {dtype = " + dt_ + "}");
        } else {
          define("cast " + t + " {dtype = " + dt_ + "}");
        }
        break;
      }
      case 7:
        define(std::string("clip ") + x + " {min = " + (isFloat_ ? "-0.5, max = 0.7}" : "-3, max = 4}"));
        break;
      case 8:  // in place on the chain value (it stays the current value)
        if (isFloat_ && pick(2)) emit(std::string(kFloatInplace[pick(std::size(kFloatInplace))]) + " " + x);
        else emit(std::string(pick(2) ? "add_ " : "mul_ ") + x + ", " + other());
        break;
      case 9:  // an SGD-like update of the caller's variable from the chain value
        emit("scaled_add_ %w, " + x + " {b = -0.1}");
        define("add %w, " + x);
        break;
      default:  // integer division is never fused: the chain splits around it
        if (isFloat_) define("div " + x + ", " + other());
        else define("div " + x + ", 3");
        break;
    }
  }

  std::mt19937 rng_;
  std::string dt_;
  bool isFloat_ = true;
  std::vector<int64_t> shape_;
  std::vector<std::string> values_;
  std::string body_;
  int counter_ = 0;
};

TEST(Fusion, RandomChainsEqualTheUnfusedOpsBitForBit) {
  int fusedPrograms = 0;
  constexpr int kPrograms = 300;
  for (int i = 0; i < kPrograms; ++i) {
    ChainGen gen(static_cast<uint32_t>(1000 + i));
    const std::string text = gen.program();
    Program fused(text, true), plain(text, false);
    ASSERT_TRUE(fused.ok) << fused.err.str() << text;
    ASSERT_TRUE(plain.ok) << plain.err.str() << text;
    if (fused.disassembly().find("fused ") != std::string::npos) ++fusedPrograms;
    EXPECT_EQ(plain.disassembly().find("fused "), std::string::npos);
    for (const char* name : {"%r0", "%r1", "%w", "%m0", "%m1", "%m2"})
      ASSERT_EQ(fused.bytes(name), plain.bytes(name)) << name << " differs in\n" << text;
  }
  // Nearly every program has a chain (both graphs); the comparison above is only
  // meaningful if fusion happened.
  EXPECT_GE(fusedPrograms, kPrograms * 9 / 10);
}

TEST(Fusion, IntermediatesOnlyTheChainReadsAreNotWritten) {
  // %m and %t are read only inside the chain: scratch, not instruction results;
  // %hb is read after it, so it is written.
  const std::string text = R"(
graph @g(%h: f32[4,300], %b: f32[300], %da: f32[4,300]) -> (f32[4,300], f32[4,300]) {
  %hb = add %h, %b
  %t = relu %hb
  %a = mul %t, 2
  const %zero : f32[] = 0
  %m = greater %hb, %zero
  %d = where %m, %da, %zero
  return %a, %d
}
main {
  var %h : f32[4,300] = uniform(-1, 1, 1)
  var %b : f32[300] = uniform(-1, 1, 2)
  var %da : f32[4,300] = uniform(-1, 1, 3)
  %r, %s = call @g(%h, %b, %da)
}
run
)";
  Program fused(text, true), plain(text, false);
  ASSERT_TRUE(fused.ok) << fused.err.str();
  expectInstruction(fused, "fused        [add, relu, mul, greater, where] k0 s0(%h), s1(%b), s9(literal), s6(%zero), "
                           "s2(%da) -> s5(%a), s8(%d)");
  expectSameValues(fused, plain, {"%r", "%s"});
}

TEST(Fusion, LargeChainsSplitOverThreadsGiveTheSameBits) {
  // 300k elements: over the thread split threshold (2 x 64k), so with two kernel
  // threads the blocks run on both; results equal the unfused single pass.
  const std::string text = R"(
graph @g(%x: f32[300001], %y: f32[300001]) -> (f32[300001]) {
  %a = tanh %x
  %b = mul %a, %y
  %c = sub %b, 0.5
  return %c
}
main {
  var %x : f32[300001] = uniform(-3, 3, 1)
  var %y : f32[300001] = uniform(-3, 3, 2)
  %r = call @g(%x, %y)
}
run
)";
  Program plain(text, false);
  ASSERT_TRUE(plain.ok) << plain.err.str();
  simd::setKernelThreads(2);
  Program fused(text, true);
  simd::setKernelThreads(1);
  ASSERT_TRUE(fused.ok) << fused.err.str();
  EXPECT_NE(fused.disassembly().find("[tanh, mul, sub]"), std::string::npos);
  EXPECT_EQ(fused.bytes("%r"), plain.bytes("%r"));
}

// A fused instruction's working memory counts against the budget of the context it
// runs in while it is held: a part beyond the budget is refused before anything is
// allocated, and everything is given back when the scratch goes.
TEST(FusionScratch, IsChargedWhileHeldAndRefusedBeyondTheBudget) {
  Context context;
  ContextScope scope(context);
  context.memory().setLimit(uint64_t(4) << 20);
  const uint64_t before = hostMemoryInUse();
  {
    FusionScratch scratch;
    scratch.reserve(2, 1 << 20, 3, 4);
    EXPECT_GE(hostMemoryInUse() - before, uint64_t(2) << 20);
    EXPECT_EQ(scratch.scratchBytesHeld(), size_t(2) << 20);
    // Two parts, each its own 64-byte aligned area.
    ThreadArea a = scratch.part(0), b = scratch.part(1);
    EXPECT_EQ(b.scratch - a.scratch, 1 << 20);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a.scratch) % 64, 0u);
    EXPECT_NE(a.ptr, b.ptr);
    EXPECT_NE(a.refs, b.refs);
    const uint64_t held = hostMemoryInUse();
    EXPECT_THROW(scratch.reserve(2, 3 << 20, 3, 4), HostMemoryExhausted);
    EXPECT_EQ(hostMemoryInUse(), held);  // refused: the old areas kept, nothing more charged
    EXPECT_EQ(scratch.scratchBytesHeld(), size_t(2) << 20);
    scratch.reserve(1, 1000, 1, 1);  // smaller: reuses what it holds
    EXPECT_EQ(hostMemoryInUse(), held);
  }
  EXPECT_EQ(hostMemoryInUse(), before);
}

// A sliced group's slice buffers are charged while it runs: under the smallest budget
// the program runs in, one byte less fails at the group, whose scratch is the last
// thing charged on the way to the run's peak (uncharged, the peak would be the frame
// the run starts with).
TEST(FusionScratch, ASlicedGroupsBuffersCountAgainstTheBudget) {
  // Each head's scores (192 x 192 f32, 144 KiB) and their softmax live only in the
  // group's slice buffers (main keeps every value, a called graph does not).
  const std::string text = R"(graph @attend(%q: f32[16,192,32], %k: f32[16,32,192], %v: f32[16,192,64]) -> (f32[16,192,64]) {
  %s = matmul %q, %k
  %p = softmax %s {axis = 2}
  %o = matmul %p, %v
  return %o
}
main {
  var %q : f32[16,192,32] = uniform(-1, 1, 3)
  var %k : f32[16,32,192] = uniform(-1, 1, 4)
  var %v : f32[16,192,64] = uniform(-1, 1, 5)
  %o = call @attend(%q, %k, %v)
}
run
)";
  auto runsWithin = [&](uint64_t limit, std::string* error) {
    Context context;
    ContextScope scope(context);
    context.memory().setLimit(limit);
    try {
      Program p(text, true);
      if (error) *error = p.err.str();
      if (p.ok) {
        EXPECT_NE(p.disassembly().find("[matmul, softmax, matmul]"), std::string::npos);
      }
      return p.ok;
    } catch (const HostMemoryExhausted& e) {  // the test's own session, before the program
      if (error) *error = e.what();
      return false;
    }
  };
  uint64_t low = 1 << 20, high = uint64_t(64) << 20;  // fails at low, runs at high
  ASSERT_FALSE(runsWithin(low, nullptr));
  ASSERT_TRUE(runsWithin(high, nullptr));
  while (high - low > 1) {
    const uint64_t mid = low + (high - low) / 2;
    (runsWithin(mid, nullptr) ? high : low) = mid;
  }
  std::string error;
  ASSERT_FALSE(runsWithin(low, &error));
  // The group is one instruction, located at its last op.
  EXPECT_NE(error.find("program.pir:4:8: error: matmul: out of host memory"), std::string::npos) << error;
}

}  // namespace
}  // namespace pir::vm
