// einsum's kernel (vm/kernels_einsum.cpp) against the element definition, written here
// letter by letter: out[output letters] = the sum over every other letter of a[its
// letters] * b[its letters], in double. Random equations whose letters play every role
// (batch: in both operands and the output; rows / columns: in one operand and the
// output; contracted: in both operands only; summed: in one operand only), in random
// orders within each operand and the output, so that operands are read in place
// (plain or transposed), copied into order, and products written straight, transposed
// or reordered. The bits must be equal at 1, 2 and 3 kernel threads, and an einsum
// that is a matmul must give that matmul's bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "ir/einsum_spec.h"
#include "ir/half.h"
#include "ir/ir.h"
#include "vm/kernels.h"
#include "vm/simd_kernels.h"

namespace pir::vm {
namespace {

Op einsumOp(const std::string& equation) {
  Op op;
  op.code = OpCode::Einsum;
  op.attrs.set("equation", Attr::string(equation));
  return op;
}

// Values stored in `dt` (f16 as its bits), read back as doubles.
struct Tensor {
  TensorType type;
  std::vector<unsigned char> bytes;
  Tensor(DType dt, Shape shape) : type{dt, std::move(shape)} {
    bytes.assign(static_cast<size_t>(type.numElements() * dtypeSize(dt)), 0);
  }
  void set(int64_t i, double v) {
    unsigned char* p = bytes.data() + i * dtypeSize(type.dtype);
    if (type.dtype == DType::F16) {
      const uint16_t h = floatToHalf(static_cast<float>(v));
      std::memcpy(p, &h, 2);
    } else if (type.dtype == DType::F32) {
      const float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
    } else {
      std::memcpy(p, &v, 8);
    }
  }
  double get(int64_t i) const {
    const unsigned char* p = bytes.data() + i * dtypeSize(type.dtype);
    if (type.dtype == DType::F16) {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return halfToFloat(h);
    }
    if (type.dtype == DType::F32) {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
};

Tensor runEinsum(const std::string& equation, Tensor& a, Tensor& b, const TensorType& outType) {
  const std::vector<TensorType> ins = {a.type, b.type}, outs = {outType};
  PreparedKernel k = prepareKernel(einsumOp(equation), ins, outs);
  Tensor y(outType.dtype, outType.shape);
  std::fill(y.bytes.begin(), y.bytes.end(), 0xAB);  // the kernel must write every element
  TensorRef inRefs[2] = {{a.bytes.data(), &a.type}, {b.bytes.data(), &b.type}};
  TensorRef outRef{y.bytes.data(), &y.type};
  KernelContext ctx;
  k(inRefs, &outRef, ctx);
  return y;
}

// The element definition: every assignment of the letters, in double.
struct Reference {
  std::vector<double> value, magnitude;  // the sum, and the sum of |terms| (the error's scale)
};
Reference reference(const std::string& aLetters, const std::string& bLetters, const std::string& outLetters,
                    const std::map<char, int64_t>& size, const Tensor& a, const Tensor& b, int64_t outElements) {
  Reference r{std::vector<double>(static_cast<size_t>(outElements), 0.0),
              std::vector<double>(static_cast<size_t>(outElements), 0.0)};
  std::vector<char> letters;
  for (const auto& [c, n] : size) letters.push_back(c);
  std::map<char, int64_t> at;
  for (char c : letters) at[c] = 0;
  auto flat = [&](const std::string& ls) {
    int64_t f = 0;
    for (char c : ls) f = f * size.at(c) + at[c];
    return f;
  };
  while (true) {
    const double term = a.get(flat(aLetters)) * b.get(flat(bLetters));
    const size_t o = static_cast<size_t>(flat(outLetters));
    r.value[o] += term;
    r.magnitude[o] += std::abs(term);
    size_t d = letters.size();
    while (d > 0 && ++at[letters[d - 1]] == size.at(letters[d - 1])) at[letters[--d]] = 0;
    if (d == 0) break;
  }
  return r;
}

std::string shuffled(std::string s, std::mt19937& rng) {
  std::shuffle(s.begin(), s.end(), rng);
  return s;
}

// A random equation: up to two letters of each role, shuffled within each operand.
struct Equation {
  std::string a, b, out;
  std::map<char, int64_t> size;
  std::string text() const { return a + "," + b + "->" + out; }
};
Equation randomEquation(std::mt19937& rng, bool withSummed) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Equation e;
  std::string batch, rows, cols, contracted, summedA, summedB;
  char next = 'a';
  auto letters = [&](std::string& role, int count) {
    for (int i = 0; i < count; ++i) {
      e.size[next] = pick(1, 5);
      role += next++;
    }
  };
  letters(batch, pick(0, 2));
  letters(rows, pick(0, 2));
  letters(cols, pick(0, 2));
  letters(contracted, pick(0, 2));
  if (withSummed) {
    letters(summedA, pick(0, 1));
    letters(summedB, pick(0, 1));
  }
  // Orders that read in place, and any order: half the operands keep their roles in blocks.
  auto blocks = [&](std::vector<std::string> parts) {
    std::string s;
    for (const std::string& p : parts) s += p;
    return pick(0, 1) ? s : shuffled(s, rng);
  };
  e.a = pick(0, 1) ? blocks({batch, rows, contracted, summedA}) : blocks({batch, contracted, rows, summedA});
  e.b = pick(0, 1) ? blocks({batch, contracted, cols, summedB}) : blocks({batch, cols, contracted, summedB});
  e.out = pick(0, 2) == 0 ? blocks({batch, cols, rows}) : blocks({batch, rows, cols});
  int64_t assignments = 1;  // the reference's work
  for (const auto& [c, n] : e.size) assignments *= n;
  if (e.a.empty() || e.b.empty() || assignments > 20000) return randomEquation(rng, withSummed);
  return e;
}

// Every random equation on f32, f64 and f16 against the definition, and its bits at
// 1, 2 and 3 kernel threads.
TEST(EinsumKernel, EqualsTheLetterDefinitionAtAnyThreadCount) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> value(-2.0, 2.0);
  const int before = simd::kernelThreads();
  for (int trial = 0; trial < 300; ++trial) {
    const Equation e = randomEquation(rng, trial % 3 == 0);
    const DType dt = trial % 5 == 0 ? DType::F64 : trial % 7 == 0 ? DType::F16 : DType::F32;
    auto shapeOf = [&](const std::string& ls) {
      Shape s;
      for (char c : ls) s.push_back(e.size.at(c));
      return s;
    };
    Tensor a(dt, shapeOf(e.a)), b(dt, shapeOf(e.b));
    for (int64_t i = 0; i < a.type.numElements(); ++i) a.set(i, value(rng));
    for (int64_t i = 0; i < b.type.numElements(); ++i) b.set(i, value(rng));
    const TensorType outType{dt, shapeOf(e.out)};
    SCOPED_TRACE(e.text() + " " + a.type.str() + ", " + b.type.str());
    simd::setKernelThreads(1);
    const Tensor y = runEinsum(e.text(), a, b, outType);
    const Reference want = reference(e.a, e.b, e.out, e.size, a, b, outType.numElements());
    const double eps = dt == DType::F64 ? 1e-15 : dt == DType::F32 ? 1e-6 : 1e-3;
    for (int64_t i = 0; i < outType.numElements(); ++i)
      ASSERT_NEAR(y.get(i), want.value[static_cast<size_t>(i)], 4 * eps * (want.magnitude[static_cast<size_t>(i)] + 1))
          << "element " << i;
    for (int threads : {2, 3}) {
      simd::setKernelThreads(threads);
      EXPECT_EQ(runEinsum(e.text(), a, b, outType).bytes, y.bytes) << threads << " threads";
    }
  }
  simd::setKernelThreads(before);
}

// Attention's einsums and their gradients' (rows and columns of 64 and more, large
// enough for the GEMM library and the batch split) give the bits of the batched matmul
// they amount to, at 1, 2 and 3 threads: a transposed operand is read in place or
// copied, a transposed output computed as Bᵀ Aᵀ, never a different sum.
TEST(EinsumKernel, AttentionEinsumsGiveTheirMatMulsBits) {
  const int64_t q = 96, kv = 80, d = 64;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  auto tensor = [&](Shape shape) {
    Tensor t(DType::F32, std::move(shape));
    for (int64_t i = 0; i < t.type.numElements(); ++i) t.set(i, value(rng));
    return t;
  };
  Tensor qs = tensor({2, 3, q, d}), ks = tensor({2, 3, kv, d}), scores = tensor({2, 3, q, kv});
  // "bhqd,bhkd->bhqk" is matmul(q, kᵀ); "bhqk,bhqd->bhkd" is matmul(sᵀ, q);
  // "bhqd,bhkd->bhkq" is matmul(k, qᵀ) (its output transposed).
  struct Case {
    std::string equation;
    Tensor *a, *b;
    Tensor *x, *y;  // the matmul's operands as stored
    bool transX, transY;
    Shape out;
  };
  const std::vector<Case> cases = {
      {"bhqd,bhkd->bhqk", &qs, &ks, &qs, &ks, false, true, {2, 3, q, kv}},
      {"bhqk,bhqd->bhkd", &scores, &qs, &scores, &qs, true, false, {2, 3, kv, d}},
      {"bhqd,bhkd->bhkq", &qs, &ks, &ks, &qs, false, true, {2, 3, kv, q}},
  };
  const int before = simd::kernelThreads();
  for (const Case& c : cases) {
    SCOPED_TRACE(c.equation);
    const TensorType outType{DType::F32, c.out};
    std::vector<std::vector<unsigned char>> results;
    for (int threads : {1, 2, 3}) {
      simd::setKernelThreads(threads);
      results.push_back(runEinsum(c.equation, *c.a, *c.b, outType).bytes);
    }
    EXPECT_EQ(results[0], results[1]);
    EXPECT_EQ(results[0], results[2]);
    simd::setKernelThreads(1);
    PreparedKernel mm = prepareMatMulTransposed(c.x->type, c.transX, c.y->type, c.transY, outType);
    Tensor y(DType::F32, c.out);
    TensorRef ins[2] = {{c.x->bytes.data(), &c.x->type}, {c.y->bytes.data(), &c.y->type}};
    TensorRef out{y.bytes.data(), &y.type};
    KernelContext ctx;
    mm(ins, &out, ctx);
    EXPECT_EQ(results[0], y.bytes);
  }
  simd::setKernelThreads(before);
}

}  // namespace
}  // namespace pir::vm
