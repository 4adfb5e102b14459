// Random ops (ops.md "Random", runtime.md §6): random_uniform, random_normal,
// dropout, split_random_seed. Every value is drawn through vm/random.h, so it is a
// pure function of (seed tensor, replica index, element index, op stream): the
// same on any thread count and any replica schedule, and a gradient that reruns
// dropout with the same seed gets the same mask.
#include "vm/kernel_util.h"
#include "vm/random.h"

namespace pir::vm::detail {
namespace {

// The seed operand: a u32[2] tensor read at run time (it may come from a stream,
// a variable or split_random_seed).
SeedKey seedOf(const TensorRef& t) {
  const uint32_t* s = t.as<const uint32_t>();
  return {s[0], s[1]};
}

void requireSeed(const TensorType& t, const std::string& what) {
  if (!(t == TensorType{DType::U32, {2}})) throw KernelError(what + ": seed must be u32[2], got " + t.str());
}

void requireFloat(const TensorType& t, const std::string& what) {
  if (!isFloat(t.dtype)) throw KernelError(what + ": needs a float dtype, got " + t.str());
}

struct FillState {
  bool normal = false;
  DType dtype = DType::F32;
  int64_t n = 0;
  double a = 0, b = 1;  // uniform: low, high; normal: mean, std
};

void runFill(const FillState& s, const TensorRef* ins, TensorRef* outs, KernelContext& ctx) {
  const SeedKey seed = seedOf(ins[0]);
  const auto replica = static_cast<uint32_t>(ctx.replica);
  if (s.normal) fillNormal(s.dtype, outs[0].data, s.n, seed, replica, s.a, s.b);
  else fillUniform(s.dtype, outs[0].data, s.n, seed, replica, s.a, s.b);
}

struct DropoutState {
  DType dtype = DType::F32;
  int64_t n = 0;
  double p = 0;
};

void runDropout(const DropoutState& s, const TensorRef* ins, TensorRef* outs, KernelContext& ctx) {
  applyDropout(s.dtype, ins[0].data, outs[0].data, s.n, seedOf(ins[1]), static_cast<uint32_t>(ctx.replica), s.p);
}

struct SplitState {
  int64_t n = 0;
};

void runSplit(const SplitState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const std::vector<SeedKey> seeds = splitSeed(seedOf(ins[0]), s.n);
  for (int64_t k = 0; k < s.n; ++k) {
    uint32_t* out = outs[k].as<uint32_t>();
    out[0] = seeds[static_cast<size_t>(k)][0];
    out[1] = seeds[static_cast<size_t>(k)][1];
  }
}

// The distributions of the Random rows of ops.def (`Random(Fn)`), each its own
// preparer.
struct RandomFunctions {
  static constexpr std::string_view family = "Random";
  template <class Fn> static PreparedKernel prepare(const Op& op, InTypes in, InTypes out) {
    const std::string name(op.info().name);
    if (in.empty()) throw KernelError(name + ": missing operands");
    return Fn::prepare(op, name, in, out);
  }

  // random_uniform / random_normal: a fill of the result.
  template <bool Normal> struct Fill {
    static PreparedKernel prepare(const Op& op, const std::string& name, InTypes in, InTypes out) {
      requireSeed(in[0], name);
      if (out.size() != 1) throw KernelError(name + ": expects one result");
      requireFloat(out[0], name);
      FillState s;
      s.normal = Normal;
      s.dtype = out[0].dtype;
      s.n = out[0].numElements();
      if constexpr (Normal) {
        const attrs::RandomNormal attr{op};
        s.a = attr.mean();
        s.b = attr.std();
      } else {
        const attrs::RandomUniform attr{op};
        s.a = attr.low();
        s.b = attr.high();
      }
      return makeKernel<FillState, runFill>(s);
    }
  };
  using Uniform = Fill<false>;
  using Normal = Fill<true>;
  struct Dropout {
    static PreparedKernel prepare(const Op& op, const std::string& name, InTypes in, InTypes out) {
      if (in.size() != 2 || out.size() != 1 || !(out[0] == in[0]))
        throw KernelError("dropout: expects x, seed and one result of x's type");
      requireFloat(in[0], name);
      requireSeed(in[1], name);
      DropoutState s;
      s.dtype = in[0].dtype;
      s.n = in[0].numElements();
      s.p = attrs::Dropout{op}.p();
      // The verifier's rule, kept here so that a transformed module cannot divide by 0.
      if (!(s.p >= 0 && s.p < 1)) throw KernelError("dropout: p must be in [0, 1), got " + std::to_string(s.p));
      return makeKernel<DropoutState, runDropout>(s);
    }
  };
  struct SplitSeed {
    static PreparedKernel prepare(const Op&, const std::string& name, InTypes in, InTypes out) {
      requireSeed(in[0], name);
      for (const TensorType& t : out) requireSeed(t, name);
      if (out.empty()) throw KernelError("split_random_seed: expects at least one result");
      return makeKernel<SplitState, runSplit>(SplitState{static_cast<int64_t>(out.size())});
    }
  };
};

}  // namespace

PreparedKernel prepareRandom(const Op& op, InTypes in, InTypes out) { return prepareBound<RandomFunctions>(op, in, out); }

}  // namespace pir::vm::detail
