// Single-kernel speed on the shapes of ../shared/perf/op_kernels.py: each pir
// kernel (prepareKernel, as the VM calls it) against a straightforward
// reference (an Eigen expression or a plain loop, what the kernel was before)
// measured in the same run. The pir run reports `ref_over_pir` (reference time
// / pir time, higher is better) and `isa` (the vector table chosen).
//
//   OPENBLAS_NUM_THREADS=1 build/bench/kernels_bench
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "vm/kernels.h"
#include "vm/simd_kernels.h"

namespace {

using namespace pir;
using namespace pir::vm;
using ArrF = Eigen::Array<float, Eigen::Dynamic, 1>;
using MatF = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

std::vector<float> uniform(int64_t n, unsigned seed) {
  std::vector<float> v(static_cast<size_t>(n));
  uint32_t s = seed * 2654435761u + 1;
  for (float& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<float>(s >> 8) / 8388608.0f - 1.0f;  // [-1, 1)
  }
  return v;
}

struct Case {
  std::string name;
  OpCode code;
  std::vector<std::pair<std::string, Attr>> attrs;
  std::vector<TensorType> ins;
  TensorType out;
  bool inplace = false;
};

std::vector<Case> cases() {
  const TensorType m1{DType::F32, {1048576}}, s{DType::F32, {}}, t64k{DType::F32, {65536}},
      m{DType::F32, {64, 256}}, tr{DType::F32, {64, 784}}, trOut{DType::F32, {784, 64}}, sm{DType::F32, {64, 10}},
      big{DType::F32, {784, 256}}, mask{DType::Bool, {64, 256}}, lead{DType::F32, {64, 16384}},
      rows64{DType::F32, {16384, 64}}, heads{DType::F32, {8, 64, 4, 32}}, headsOut{DType::F32, {8, 4, 64, 32}},
      keysOut{DType::F32, {8, 4, 32, 64}}, images{DType::F32, {32, 1, 28, 28}}, firstW{DType::F32, {8, 1, 3, 3}},
      firstOut{DType::F32, {32, 8, 28, 28}}, rows64x{DType::F32, {64, 256, 64}}, perHead{DType::F32, {32, 64, 32}},
      scores{DType::F32, {32, 64, 64}};
  auto perm = [](std::vector<int64_t> p) {
    std::vector<Attr> items;
    for (int64_t v : p) items.push_back(Attr::integer(v));
    return std::vector<std::pair<std::string, Attr>>{{"perm", Attr::list(std::move(items))}};
  };
  return {
      {"add_1M", OpCode::Add, {}, {m1, m1}, m1},
      {"add_scalar_1M", OpCode::Add, {}, {m1, s}, m1},
      {"tanh_64K", OpCode::Tanh, {}, {t64k}, t64k},
      {"relu_64x256", OpCode::Relu, {}, {m}, m},
      {"where_64x256", OpCode::Where, {}, {mask, m, s}, m},
      {"transpose_64x784", OpCode::Transpose, {}, {tr}, trOut},
      // Attention's head split: [batch, seq, heads, dim] -> [batch, heads, seq, dim]
      // (runs of 32 elements), and the keys' [batch, heads, dim, seq].
      {"transpose_heads_8x64x4x32", OpCode::Transpose, perm({0, 2, 1, 3}), {heads}, headsOut},
      {"transpose_keys_8x64x4x32", OpCode::Transpose, perm({0, 2, 3, 1}), {heads}, keysOut},
      // Attention's backward: a gradient [heads, seq, dim] times the values read
      // transposed (transpose_b), 32 products of 64x64x32.
      {"matmul_heads_bt_32x64x64x32", OpCode::MatMul, {{"transpose_b", Attr::boolean(true)}}, {perHead, perHead}, scores},
      // A CNN's first layer (1 channel, 3x3, padding 1: a GEMM of depth 9 over im2col).
      {"conv_first_32x1x28x28", OpCode::Conv, {{"padding", Attr::list({Attr::integer(1), Attr::integer(1), Attr::integer(1), Attr::integer(1)})}},
       {images, firstW}, firstOut},
      // log_softmax along rows of 64 (a logarithm per row).
      {"log_softmax_rows_64x256x64", OpCode::LogSoftmax, {{"axis", Attr::integer(-1)}}, {rows64x}, rows64x},
      {"softmax_64x10", OpCode::Softmax, {{"axis", Attr::integer(1)}}, {sm}, sm},
      {"sum_axis0_64x256", OpCode::Sum, {{"axis", Attr::integer(0)}}, {m}, {DType::F32, {256}}},
      {"sum_axis1_64x256", OpCode::Sum, {{"axis", Attr::integer(1)}}, {m}, {DType::F32, {64}}},
      {"scaled_add_784x256", OpCode::ScaledAddInplace, {{"b", Attr::real(-0.1)}}, {big, big}, big, true},
      // The elementwise math of bench/math_peers.py (NumPy beside it): inputs in
      // [-1, 1), log's in (0, 2], sin's and cos's in [-100, 100).
      {"tanh_1M", OpCode::Tanh, {}, {m1}, m1},
      {"exp_1M", OpCode::Exp, {}, {m1}, m1},
      {"log_1M", OpCode::Log, {}, {m1}, m1},
      {"sigmoid_1M", OpCode::Sigmoid, {}, {m1}, m1},
      {"gelu_1M", OpCode::Gelu, {}, {m1}, m1},
      {"sin_1M", OpCode::Sin, {}, {m1}, m1},
      {"cos_1M", OpCode::Cos, {}, {m1}, m1},
      // erf and the exact GELU, inputs in [-1, 1) too (NumPy has no erf to compare with).
      {"erf_1M", OpCode::Erf, {}, {m1}, m1},
      {"gelu_erf_1M", OpCode::GeluErf, {}, {m1}, m1},
      // A layer's pre-activations spread wider: inputs in [-3, 3), where most vectors
      // hold lanes on both sides of tanh's split.
      {"gelu_wide_1M", OpCode::Gelu, {}, {m1}, m1},
      {"gelu_grad_wide_1M", OpCode::GeluGrad, {}, {m1, m1}, m1},
      {"gelu_erf_wide_1M", OpCode::GeluErf, {}, {m1}, m1},
      // gelu_erf's worst case: inputs in [-6, 2), nearly every vector holding lanes below
      // -3.5, which take its tail form as well as the polynomial.
      {"gelu_erf_tail_1M", OpCode::GeluErf, {}, {m1}, m1},
      // Reductions other than sum over a leading axis and along rows of 64.
      {"max_axis0_64x16384", OpCode::Max, {{"axis", Attr::integer(0)}}, {lead}, {DType::F32, {16384}}},
      {"logsumexp_axis0_64x16384", OpCode::LogSumExp, {{"axis", Attr::integer(0)}}, {lead}, {DType::F32, {16384}}},
      {"argmax_axis1_16384x64", OpCode::ArgMax, {{"axis", Attr::integer(1)}}, {rows64}, {DType::I32, {16384}}},
  };
}

// The reference computation of each case, on the same buffers.
void reference(const std::string& name, std::vector<std::vector<float>>& in, std::vector<float>& out,
               const std::vector<unsigned char>& maskBytes) {
  if (name == "add_1M") {
    Eigen::Map<ArrF>(out.data(), 1048576) = Eigen::Map<const ArrF>(in[0].data(), 1048576) + Eigen::Map<const ArrF>(in[1].data(), 1048576);
  } else if (name == "add_scalar_1M") {
    Eigen::Map<ArrF>(out.data(), 1048576) = Eigen::Map<const ArrF>(in[0].data(), 1048576) + in[1][0];
  } else if (name == "tanh_64K") {
    for (int i = 0; i < 65536; ++i) out[i] = std::tanh(in[0][i]);  // libm, correctly rounded or nearly
  } else if (name == "relu_64x256") {
    Eigen::Map<ArrF>(out.data(), 16384) = Eigen::Map<const ArrF>(in[0].data(), 16384).max(0.0f);
  } else if (name == "where_64x256") {
    const bool* c = reinterpret_cast<const bool*>(maskBytes.data());
    for (int i = 0; i < 16384; ++i) out[i] = c[i] ? in[1][i] : in[2][0];
  } else if (name == "transpose_64x784") {
    Eigen::Map<MatF>(out.data(), 784, 64) = Eigen::Map<const MatF>(in[0].data(), 64, 784).transpose();
  } else if (name == "transpose_heads_8x64x4x32" || name == "transpose_keys_8x64x4x32") {
    const bool keys = name == "transpose_keys_8x64x4x32";
    for (int b = 0; b < 8; ++b)
      for (int s = 0; s < 64; ++s)
        for (int h = 0; h < 4; ++h)
          for (int d = 0; d < 32; ++d) {
            const float v = in[0][((b * 64 + s) * 4 + h) * 32 + d];
            if (keys) out[((b * 4 + h) * 32 + d) * 64 + s] = v;
            else out[((b * 4 + h) * 64 + s) * 32 + d] = v;
          }
  } else if (name == "matmul_heads_bt_32x64x64x32") {
    for (int h = 0; h < 32; ++h)
      Eigen::Map<MatF>(out.data() + h * 64 * 64, 64, 64).matrix().noalias() =
          Eigen::Map<const MatF>(in[0].data() + h * 64 * 32, 64, 32).matrix() *
          Eigen::Map<const MatF>(in[1].data() + h * 64 * 32, 64, 32).matrix().transpose();
  } else if (name == "conv_first_32x1x28x28") {
    for (int n = 0; n < 32; ++n)
      for (int o = 0; o < 8; ++o)
        for (int i = 0; i < 28; ++i)
          for (int j = 0; j < 28; ++j) {
            float acc = 0;
            for (int a = 0; a < 3; ++a)
              for (int b = 0; b < 3; ++b) {
                const int r = i + a - 1, c = j + b - 1;
                if (r >= 0 && r < 28 && c >= 0 && c < 28) acc += in[1][o * 9 + a * 3 + b] * in[0][(n * 28 + r) * 28 + c];
              }
            out[((n * 8 + o) * 28 + i) * 28 + j] = acc;
          }
  } else if (name == "log_softmax_rows_64x256x64") {
    for (int r = 0; r < 64 * 256; ++r) {
      const float* x = in[0].data() + r * 64;
      float* y = out.data() + r * 64;
      const float m = *std::max_element(x, x + 64);
      float sum = 0;
      for (int c = 0; c < 64; ++c) sum += std::exp(x[c] - m);
      const float l = std::log(sum);
      for (int c = 0; c < 64; ++c) y[c] = x[c] - m - l;
    }
  } else if (name == "softmax_64x10") {
    const Eigen::Map<const MatF> x(in[0].data(), 64, 10);
    const MatF e = (x.colwise() - x.rowwise().maxCoeff()).exp();
    Eigen::Map<MatF>(out.data(), 64, 10) = e.colwise() / e.rowwise().sum();
  } else if (name == "sum_axis0_64x256") {
    Eigen::Map<ArrF>(out.data(), 256) = Eigen::Map<const MatF>(in[0].data(), 64, 256).colwise().sum().transpose();
  } else if (name == "sum_axis1_64x256") {
    Eigen::Map<ArrF>(out.data(), 64) = Eigen::Map<const MatF>(in[0].data(), 64, 256).rowwise().sum();
  } else if (name == "tanh_1M" || name == "exp_1M" || name == "log_1M" || name == "sigmoid_1M" ||
             name == "gelu_1M" || name == "gelu_wide_1M" || name == "sin_1M" || name == "cos_1M" ||
             name == "erf_1M" || name == "gelu_erf_1M" || name == "gelu_erf_wide_1M" || name == "gelu_erf_tail_1M") {
    const float* x = in[0].data();
    float* y = out.data();
    for (int i = 0; i < 1048576; ++i) {  // libm, one element at a time
      const float v = x[i];
      if (name == "tanh_1M") y[i] = std::tanh(v);
      else if (name == "exp_1M") y[i] = std::exp(v);
      else if (name == "log_1M") y[i] = std::log(v);
      else if (name == "sigmoid_1M") y[i] = 1.0f / (1.0f + std::exp(-v));
      else if (name == "sin_1M") y[i] = std::sin(v);
      else if (name == "cos_1M") y[i] = std::cos(v);
      else if (name == "erf_1M") y[i] = std::erf(v);
      else if (name.starts_with("gelu_erf")) y[i] = 0.5f * v * (1.0f + std::erf(v * 0.70710678f));
      else y[i] = 0.5f * v * (1.0f + std::tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
    }
  } else if (name == "gelu_grad_wide_1M") {
    const float* x = in[0].data();
    const float* g = in[1].data();
    float* y = out.data();
    for (int i = 0; i < 1048576; ++i) {  // libm, one element at a time
      const float v = x[i], k = 0.7978845608f, a = 0.044715f;
      const float t = std::tanh(k * (v + a * v * v * v));
      y[i] = g[i] * (0.5f * (1.0f + t) + 0.5f * v * (1.0f - t * t) * k * (1.0f + 3.0f * a * v * v));
    }
  } else if (name == "max_axis0_64x16384" || name == "logsumexp_axis0_64x16384") {
    const float* x = in[0].data();
    float* y = out.data();
    for (int c = 0; c < 16384; ++c) {  // one column at a time, as a plain loop would
      float m = x[c];
      for (int r = 1; r < 64; ++r) m = std::max(m, x[r * 16384 + c]);
      if (name == "max_axis0_64x16384") {
        y[c] = m;
      } else {
        float s = 0;
        for (int r = 0; r < 64; ++r) s += std::exp(x[r * 16384 + c] - m);
        y[c] = std::log(s) + m;
      }
    }
  } else if (name == "argmax_axis1_16384x64") {
    const float* x = in[0].data();
    int32_t* y = reinterpret_cast<int32_t*>(out.data());
    for (int r = 0; r < 16384; ++r) y[r] = static_cast<int32_t>(std::max_element(x + r * 64, x + r * 64 + 64) - (x + r * 64));
  } else if (name == "scaled_add_784x256") {
    Eigen::Map<ArrF> x(in[0].data(), 200704);
    x = x + (-0.1f) * Eigen::Map<const ArrF>(in[1].data(), 200704);
  }
}

struct Buffers {
  std::vector<std::vector<float>> in;
  std::vector<unsigned char> mask;
  std::vector<float> out;
  explicit Buffers(const Case& c) {
    unsigned seed = 1;
    for (const TensorType& t : c.ins) in.push_back(uniform(std::max<int64_t>(t.numElements(), 1), seed++));
    mask.resize(16384);
    for (size_t i = 0; i < mask.size(); ++i) mask[i] = in[0][i % in[0].size()] > 0;
    if (c.name == "add_scalar_1M") in[1][0] = 1.0f;
    if (c.name == "log_1M")
      for (float& v : in[0]) v = v + 1.0001f;  // (0, 2]
    if (c.name == "where_64x256") in[2][0] = 0.0f;
    if (c.name == "gelu_wide_1M" || c.name == "gelu_grad_wide_1M" || c.name == "gelu_erf_wide_1M")
      for (float& v : in[0]) v *= 3.0f;  // [-3, 3)
    if (c.name == "gelu_erf_tail_1M")
      for (float& v : in[0]) v = v * 4.0f - 2.0f;  // [-6, 2)
    if (c.name == "sin_1M" || c.name == "cos_1M")
      for (float& v : in[0]) v *= 100.0f;  // [-100, 100): angles over many periods
    out.resize(static_cast<size_t>(c.out.numElements()));
  }
};

void BM_Reference(benchmark::State& state, const Case& c) {
  Buffers b(c);
  for (auto _ : state) {
    reference(c.name, b.in, b.out, b.mask);
    benchmark::DoNotOptimize(b.out.data());
    benchmark::ClobberMemory();
  }
}

void BM_Pir(benchmark::State& state, const Case& c) {
  Buffers b(c);
  Op op;
  op.code = c.code;
  for (auto& [k, v] : c.attrs) op.attrs.set(k, v);
  const TensorType outs[1] = {c.out};
  PreparedKernel k = prepareKernel(op, c.ins, outs);
  std::vector<TensorRef> refs;
  for (size_t i = 0; i < c.ins.size(); ++i)
    refs.push_back(TensorRef{c.ins[i].dtype == DType::Bool ? static_cast<void*>(b.mask.data()) : b.in[i].data(), &c.ins[i]});
  TensorRef out{c.inplace ? refs[0].data : b.out.data(), &c.out};
  KernelContext ctx;
  for (auto _ : state) {
    k(refs.data(), &out, ctx);
    benchmark::DoNotOptimize(out.data);
    benchmark::ClobberMemory();
  }
  state.SetLabel(simd::table().isa);
}

// Measures the reference and pir in alternation (so both see the same machine
// load) and reports their ratio.
void BM_Ratio(benchmark::State& state, const Case& c) {
  Buffers b(c), r(c);
  Op op;
  op.code = c.code;
  for (auto& [k, v] : c.attrs) op.attrs.set(k, v);
  const TensorType outs[1] = {c.out};
  PreparedKernel k = prepareKernel(op, c.ins, outs);
  std::vector<TensorRef> refs;
  for (size_t i = 0; i < c.ins.size(); ++i)
    refs.push_back(TensorRef{c.ins[i].dtype == DType::Bool ? static_cast<void*>(b.mask.data()) : b.in[i].data(), &c.ins[i]});
  TensorRef out{c.inplace ? refs[0].data : b.out.data(), &c.out};
  KernelContext ctx;
  using Clock = std::chrono::steady_clock;
  double pirNs = 0, refNs = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    k(refs.data(), &out, ctx);
    benchmark::ClobberMemory();
    const auto t1 = Clock::now();
    reference(c.name, r.in, r.out, r.mask);
    benchmark::ClobberMemory();
    const auto t2 = Clock::now();
    pirNs += std::chrono::duration<double, std::nano>(t1 - t0).count();
    refNs += std::chrono::duration<double, std::nano>(t2 - t1).count();
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["pir_ns"] = pirNs / n;
  state.counters["ref_ns"] = refNs / n;
  state.counters["ref_over_pir"] = refNs / pirNs;
  state.SetLabel(simd::table().isa);
}

const bool kRegistered = [] {
  static const std::vector<Case> all = cases();
  for (const Case& c : all) benchmark::RegisterBenchmark(("kernel/" + c.name).c_str(), BM_Ratio, c);
  for (const Case& c : all) benchmark::RegisterBenchmark(("pir_only/" + c.name).c_str(), BM_Pir, c);
  for (const Case& c : all) benchmark::RegisterBenchmark(("ref_only/" + c.name).c_str(), BM_Reference, c);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
