// Result-type rules of ops.md, one function per `Infer` name of ir/ops.def.
#include "ir/infer.h"
#include "ir/matmul_operands.h"

#include "ir/checked_math.h"
#include "ir/einsum_spec.h"
#include "ir/op_attrs.h"
#include "ir/window.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace pir {

namespace {

std::string intsToString(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(v[i]);
  }
  return s + "]";
}

// Everything a rule needs, with error helpers that prefix the op name.
struct Ctx {
  const Op& op;
  const IrOptions& options;
  std::vector<TensorType>& out;
  DiagnosticEngine& diags;

  std::string_view name() const { return op.info().name; }

  [[noreturn]] void fail(SourceLoc loc, const std::string& msg, std::vector<Note> notes = {}) const {
    diags.fail(loc.valid() ? loc : op.loc, prefixed(name(), msg), std::move(notes));
  }
  [[noreturn]] void fail(const std::string& msg) const { fail(op.loc, msg); }

  // Location of operand i (falls back to the op).
  SourceLoc at(size_t i) const { return i < op.operands.size() && op.operands[i].loc().valid() ? op.operands[i].loc() : op.loc; }
  // "%b is declared here" for a value operand with a known declaration.
  std::vector<Note> declNote(size_t i) const {
    std::vector<Note> notes;
    if (i < op.operands.size()) {
      const Operand& o = op.operands[i];
      if (o.kind() == Operand::Kind::Value && o.value() && o.value()->loc.valid())
        notes.push_back({o.value()->loc, "%" + o.value()->name + " is declared here"});
    }
    return notes;
  }
  [[noreturn]] void failOperand(size_t i, const std::string& msg) const { fail(at(i), msg, declNote(i)); }

  const TensorType& t(size_t i) const { return op.operands[i].type(); }
  size_t n() const { return op.operands.size(); }
  // Normalises an axis against `rank`, failing with the type in the message.
  int64_t axis(int64_t a, const TensorType& type, SourceLoc loc, int64_t rank = -1) const {
    if (rank < 0) rank = type.rank();
    if (a < -rank || a >= rank)
      fail(loc, "axis " + std::to_string(a) + " is out of range for " + type.str() + " (rank " + std::to_string(rank) + ")");
    return a < 0 ? a + rank : a;
  }

  void requireFloat(size_t i) const {
    if (!isFloat(t(i).dtype)) failOperand(i, "expects a float operand, got " + t(i).str());
  }
  void requireNumeric(size_t i) const {
    if (t(i).dtype == DType::Bool) failOperand(i, "expects a numeric operand, got " + t(i).str());
  }
  void requireBool(size_t i) const {
    if (t(i).dtype != DType::Bool) failOperand(i, "expects a bool operand, got " + t(i).str());
  }
  void requireInteger(size_t i, const char* what) const {
    if (!isInteger(t(i).dtype)) failOperand(i, std::string(what) + " must be an integer tensor, got " + t(i).str());
  }
  void requireIndexType(size_t i, const char* what) const {
    DType d = t(i).dtype;
    if (d != DType::I32 && d != DType::U32) failOperand(i, std::string(what) + " must be i32 or u32, got " + t(i).str());
  }
  void requireScalar(size_t i, const char* what) const {
    if (t(i).numElements() != 1 || t(i).rank() > 1)
      failOperand(i, std::string(what) + " must be a scalar, got " + t(i).str());
  }
  void requireSeed(size_t i) const {
    if (!(t(i) == TensorType{DType::U32, {2}})) failOperand(i, "seed must be u32[2], got " + t(i).str());
  }
  void requireSameDType(size_t a, size_t b) const {
    if (t(a).dtype != t(b).dtype)
      failOperand(b, "operand types " + t(a).str() + " and " + t(b).str() + " have different dtypes");
  }
  // Broadcast of operands [first, last), equal dtypes required.
  Shape broadcastOperands(size_t first, size_t last, bool sameDType = true) const {
    Shape s = t(first).shape;
    for (size_t i = first + 1; i < last; ++i) {
      if (sameDType) requireSameDType(first, i);
      if (t(i).shape == s) continue;  // the common case: no new shape
      auto b = broadcastShapes(s, t(i).shape);
      if (!b) {
        TensorType acc{t(first).dtype, s};
        failOperand(i, "operand types " + acc.str() + " and " + t(i).str() + " do not broadcast");
      }
      s = std::move(*b);
    }
    return s;
  }
  // Operand i must broadcast to the shape of operand 0 (in-place ops keep operand 0's shape).
  void requireBroadcastsTo(size_t i, const TensorType& target) const {
    auto b = broadcastShapes(target.shape, t(i).shape);
    if (!b || *b != target.shape)
      failOperand(i, "operand type " + t(i).str() + " does not broadcast to " + target.str() + " (in place)");
  }
  const CalleeRef& call(size_t k) const { return op.callees[k]; }
  // For a gradient graph: ": 1 gradient (%grad.y) + 2 activations (%x, %W); add
  // `using LABEL` ...", what a PopXL user must learn to call one; "" otherwise.
  static std::string gradientArguments(const Graph& g, size_t given) {
    if (!g.gradOf || g.activations.size() > g.params.size()) return "";
    const size_t gradients = g.params.size() - g.activations.size();
    auto part = [&](size_t from, size_t to, const char* what) {
      std::string s = std::to_string(to - from) + " " + what + (to - from == 1 ? "" : "s");
      for (size_t i = from; i < to; ++i) s += (i == from ? " (%" : ", %") + g.params[i]->name;
      return s + (to > from ? ")" : "");
    };
    std::string s = ": " + part(0, gradients, "gradient") + " + " + part(gradients, g.params.size(), "activation");
    // Exactly the gradients given: the activations are what is missing.
    if (!g.activations.empty() && given == gradients)
      s += "; add `using LABEL` to bind the activations from a call of @" + g.gradOf->name + " written `... as LABEL`";
    return s;
  }
  // Graph-call arguments bind the callee's parameters: count and exact types.
  void checkBinding(size_t calleeIndex) const {
    const CalleeRef& c = call(calleeIndex);
    const Graph& g = *c.graph;
    auto args = op.args(calleeIndex);
    if (args.size() != g.params.size())
      fail(c.loc, "@" + g.name + " takes " + std::to_string(g.params.size()) + " argument" +
                      (g.params.size() == 1 ? "" : "s") + ", got " + std::to_string(args.size()) + gradientArguments(g, args.size()),
           g.loc.valid() ? std::vector<Note>{{g.loc, "@" + g.name + " is defined here"}} : std::vector<Note>{});
    for (size_t k = 0; k < args.size(); ++k) {
      const Operand& a = args[k];
      const Value& p = *g.params[k];
      if (a.kind() != Operand::Kind::Value && a.kind() != Operand::Kind::Literal)
        fail(a.loc().valid() ? a.loc() : c.loc, "argument " + std::to_string(k + 1) + " of @" + g.name + " must be a tensor");
      if (!(a.type() == p.type)) {
        std::vector<Note> notes;
        if (p.loc.valid()) notes.push_back({p.loc, "parameter %" + p.name + " is declared here"});
        fail(a.loc().valid() ? a.loc() : c.loc,
             "argument " + std::to_string(k + 1) + " of @" + g.name + " has type " + a.type().str() +
                 ", but parameter %" + p.name + " is " + p.type->str(),
             std::move(notes));
      }
    }
  }
  // The replica group size of a collective (its `group` attribute).
  int64_t groupSize() const {
    const attrs::View<attrs::kernelFamily("Collective")> a{op};
    ReplicaGrouping g = readGrouping(a.group(), options.replication);
    if (auto why = groupingError(g, options.replication)) fail(a.groupLoc(), *why);
    return g.groupSize;
  }
  void result(TensorType tt) {
    roomForResult();
    out.push_back(std::move(tt));
  }
  void result(DType d, Shape s) {
    roomForResult();
    out.push_back(TensorType{d, std::move(s)});
  }
  // An op's results become IR values: every 4,096 results (a count may come from
  // an attribute), they are checked against the host-memory budget before more
  // are made, so an op that asks for more than fits stops early, at the op.
  void roomForResult() const {
    constexpr size_t kCheckEvery = 4096;
    if (out.size() % kCheckEvery != kCheckEvery - 1) return;
    try {
      requireHostMemory(saturatingMul(static_cast<uint64_t>(out.size() + 1), valueHostBytes() + sizeof(TensorType)));
    } catch (const HostMemoryExhausted& e) {
      fail(e.what());
    }
  }
};

// The typed attributes of the rows whose Infer column is `Rule` (ir/op_attrs.h):
// a rule reads only what every row it serves declares, checked at compile time.
template <attrs::Name Rule>
using RuleAttrs = attrs::View<attrs::inferRule(Rule.view())>;

// ---- elementwise -------------------------------------------------------------

// The operand of a collective that reduces with its `op` (every row with an `op`
// attribute: all_reduce, all_reduce_, reduce_scatter): `and` and `or` are logical
// and take bool, the others are arithmetic and take numbers.
void requireReductionOperand(Ctx& c) {
  using Reducing = attrs::View<attrs::ops(OpCode::AllReduce, OpCode::AllReduceInplace, OpCode::ReduceScatter)>;
  const CollectiveOp o = Reducing{c.op}.op();
  if (o == CollectiveOp::And || o == CollectiveOp::Or) {
    if (c.t(0).dtype != DType::Bool)
      c.failOperand(0, "op = " + std::string(enumWord(o)) + " expects a bool operand, got " + c.t(0).str());
  } else {
    c.requireNumeric(0);
  }
}

void inferUnary(Ctx& c) { c.requireNumeric(0); c.result(c.t(0)); }
void inferUnarySigned(Ctx& c) { c.requireNumeric(0); c.result(c.t(0)); }
void inferUnaryNumeric(Ctx& c) { c.requireNumeric(0); c.result(c.t(0)); }
void inferUnaryFloat(Ctx& c) { c.requireFloat(0); c.result(c.t(0)); }
void inferUnaryPredicate(Ctx& c) { c.requireNumeric(0); c.result(DType::Bool, c.t(0).shape); }
void inferUnaryBool(Ctx& c) { c.requireBool(0); c.result(c.t(0)); }
void inferSame(Ctx& c) {
  if (c.op.code == OpCode::IpuCopy) {
    const attrs::IpuCopy a{c.op};
    int64_t ipu = a.ipu();
    if (ipu < 0 || ipu >= c.options.ipus)
      c.fail(a.ipuLoc(), "ipu " + std::to_string(ipu) + " is out of range: the IR has " +
                                   std::to_string(c.options.ipus) + " IPU(s) per replica");
  }
  if (c.op.info().has(F_COLLECTIVE)) {
    c.groupSize();
    requireReductionOperand(c);
  }
  c.result(c.t(0));
}
void inferSameInplace(Ctx& c) { c.requireNumeric(0); c.result(c.t(0)); }
void inferCast(Ctx& c) {
  c.result(RuleAttrs<"Cast">{c.op}.dtype(), c.t(0).shape);
}

void inferBinary(Ctx& c) {
  Shape s = c.broadcastOperands(0, c.n());
  if (c.t(0).dtype == DType::Bool) c.failOperand(0, "expects numeric operands, got " + c.t(0).str());
  c.result(c.t(0).dtype, std::move(s));
}
void inferBinaryFloat(Ctx& c) {
  Shape s = c.broadcastOperands(0, c.n());
  c.requireFloat(0);
  c.result(c.t(0).dtype, std::move(s));
}
void inferCompare(Ctx& c) {
  Shape s = c.broadcastOperands(0, 2);
  if (c.t(0).dtype == DType::Bool && c.op.code != OpCode::Equal && c.op.code != OpCode::NotEqual)
    c.failOperand(0, "expects numeric operands, got " + c.t(0).str());
  c.result(DType::Bool, std::move(s));
}
void inferBinaryBool(Ctx& c) {
  c.requireBool(0);
  c.requireBool(1);
  c.result(DType::Bool, c.broadcastOperands(0, 2));
}
void inferWhere(Ctx& c) {
  c.requireBool(0);
  c.requireSameDType(1, 2);
  Shape s = c.broadcastOperands(0, 3, /*sameDType=*/false);
  c.result(c.t(1).dtype, std::move(s));
}
// Operands 2 and 3 of scaled_add are the optional tensor forms of `a` and `b`.
void checkScaleOperands(Ctx& c) {
  static const char* keys[] = {"a", "b"};
  const attrs::View<attrs::inferRule("ScaledAdd") | attrs::inferRule("ScaledAddInplace")> a{c.op};
  const bool written[] = {a.written<"a">(), a.written<"b">()};
  const SourceLoc locs[] = {a.aLoc(), a.bLoc()};
  for (size_t i = 2; i < c.n(); ++i) {
    c.requireScalar(i, keys[i - 2]);
    c.requireNumeric(i);
    if (written[i - 2])
      c.fail(locs[i - 2], std::string("'") + keys[i - 2] + "' is given both as an operand and as an attribute");
  }
}
void inferScaledAdd(Ctx& c) {
  Shape s = c.broadcastOperands(0, 2);
  c.requireNumeric(0);
  checkScaleOperands(c);
  c.result(c.t(0).dtype, std::move(s));
}
void inferBinaryInplace(Ctx& c) {
  c.requireSameDType(0, 1);
  if (c.op.code == OpCode::PowInplace) c.requireFloat(0);
  else c.requireNumeric(0);
  c.requireBroadcastsTo(1, c.t(0));
  c.result(c.t(0));
}
void inferScaledAddInplace(Ctx& c) {
  c.requireSameDType(0, 1);
  c.requireNumeric(0);
  c.requireBroadcastsTo(1, c.t(0));
  checkScaleOperands(c);
  c.result(c.t(0));
}

// ---- reductions --------------------------------------------------------------

// The reduced axes of a reduction (`axis`: int, list or `all`), sorted, unique.
using ReduceAttrs = attrs::View<attrs::inferRule("Reduce") | attrs::inferRule("ReduceFloat")>;
std::vector<bool> reducedAxes(Ctx& c, const TensorType& type) {
  std::vector<bool> reduced(type.shape.size(), false);
  const ReduceAttrs a{c.op};
  const attrs::AxesValue written = a.axis();
  if (written.all) {
    std::fill(reduced.begin(), reduced.end(), true);
    return reduced;
  }
  const std::vector<int64_t>& axes = written.axes;
  for (int64_t ax : axes) {
    int64_t k = c.axis(ax, type, a.axisLoc());
    if (reduced[k]) c.fail(a.axisLoc(), "duplicate axis " + std::to_string(ax) + " in " + intsToString(axes));
    reduced[k] = true;
  }
  return reduced;
}
Shape reducedShape(const Shape& in, const std::vector<bool>& reduced, bool keepdims) {
  Shape s;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!reduced[i]) s.push_back(in[i]);
    else if (keepdims) s.push_back(1);
  }
  return s;
}
void inferReduce(Ctx& c) {
  c.requireNumeric(0);
  auto reduced = reducedAxes(c, c.t(0));
  c.result(c.t(0).dtype, reducedShape(c.t(0).shape, reduced, ReduceAttrs{c.op}.keepdims()));
}
void inferReduceFloat(Ctx& c) {
  c.requireFloat(0);
  auto reduced = reducedAxes(c, c.t(0));
  c.result(c.t(0).dtype, reducedShape(c.t(0).shape, reduced, ReduceAttrs{c.op}.keepdims()));
}
void inferArgReduce(Ctx& c) {
  c.requireNumeric(0);
  const RuleAttrs<"ArgReduce"> a{c.op};
  int64_t ax = c.axis(a.axis(), c.t(0), a.axisLoc());
  std::vector<bool> reduced(c.t(0).shape.size(), false);
  reduced[ax] = true;
  if (c.t(0).shape[ax] == 0) c.failOperand(0, "cannot reduce an empty axis of " + c.t(0).str());
  c.result(DType::I32, reducedShape(c.t(0).shape, reduced, a.keepdims()));
}
void inferSameAxis(Ctx& c) {
  c.requireNumeric(0);
  const RuleAttrs<"SameAxis"> a{c.op};
  c.axis(a.axis(), c.t(0), a.axisLoc());
  c.result(c.t(0));
}
void inferSameAxisFloat(Ctx& c) {
  c.requireFloat(0);
  const RuleAttrs<"SameAxisFloat"> a{c.op};
  c.axis(a.axis(), c.t(0), a.axisLoc());
  c.result(c.t(0));
}
void inferSoftmaxGrad(Ctx& c) {  // y, g
  c.requireFloat(0);
  const RuleAttrs<"SoftmaxGrad"> a{c.op};
  c.axis(a.axis(), c.t(0), a.axisLoc());
  if (!(c.t(1) == c.t(0))) c.failOperand(1, "the gradient " + c.t(1).str() + " must have the type of y " + c.t(0).str());
  c.result(c.t(0));
}
void inferTopK(Ctx& c) {
  c.requireNumeric(0);
  const RuleAttrs<"TopK"> a{c.op};
  int64_t ax = c.axis(a.axis(), c.t(0), a.axisLoc());
  int64_t k = a.k();
  if (k < 0 || k > c.t(0).shape[ax])
    c.fail(a.kLoc(), "k = " + std::to_string(k) + " is out of range for axis " + std::to_string(ax) + " of " +
                               c.t(0).str());
  Shape s = c.t(0).shape;
  s[ax] = k;
  c.result(c.t(0).dtype, s);
  c.result(DType::I32, std::move(s));
}
void inferNllLoss(Ctx& c) {
  const TensorType& probs = c.t(0);
  const TensorType& labels = c.t(1);
  c.requireFloat(0);
  c.requireInteger(1, "labels");
  if (probs.rank() < 1) c.failOperand(0, "probs must have a class axis, got " + probs.str());
  Shape expect(probs.shape.begin(), probs.shape.end() - 1);
  if (labels.shape != expect)
    c.failOperand(1, "labels " + labels.str() + " do not match probs " + probs.str() + " (expected shape " +
                         shapeToString(expect) + ")");
  if (c.n() > 2 && (c.t(2).dtype != probs.dtype || c.t(2).shape != Shape{probs.shape.back()}))
    c.failOperand(2, "weight " + c.t(2).str() + " must hold one weight per class of probs " + probs.str() + ": " +
                         TensorType{probs.dtype, {probs.shape.back()}}.str());
  if (RuleAttrs<"NllLoss">{c.op}.reduction() == LossReduction::None) c.result(probs.dtype, expect);
  else c.result(probs.dtype, {});
}
void requireParamShape(Ctx& c, size_t i, const TensorType& x, const Shape& shape, const char* what) {
  if (c.t(i).dtype != x.dtype || c.t(i).shape != shape)
    c.failOperand(i, std::string(what) + " must be " + TensorType{x.dtype, shape}.str() + ", got " + c.t(i).str());
}
void requireParamShape(Ctx& c, size_t i, const TensorType& x, int64_t channels, const char* what) {
  requireParamShape(c, i, x, Shape{channels}, what);
}
// layer_norm's normalised dims, x.shape[axis:] (ONNX LayerNormalization): the shape
// of gamma and beta; the kernels see them as one flattened inner dim.
template <class Attrs> Shape layerNormShape(Ctx& c, const TensorType& x, const Attrs& a) {
  if (x.rank() < 1) c.failOperand(0, "expects at least one axis, got " + x.str());
  const int64_t axis = c.axis(a.axis(), x, a.axisLoc());
  return Shape(x.shape.begin() + axis, x.shape.end());
}
void inferLayerNorm(Ctx& c) {
  c.requireFloat(0);
  const TensorType& x = c.t(0);
  const Shape normalised = layerNormShape(c, x, RuleAttrs<"LayerNorm">{c.op});
  requireParamShape(c, 1, x, normalised, "gamma");
  requireParamShape(c, 2, x, normalised, "beta");
  c.result(x);
}
void inferLayerNormGrad(Ctx& c) {  // x, gamma, g
  c.requireFloat(0);
  const TensorType& x = c.t(0);
  requireParamShape(c, 1, x, layerNormShape(c, x, RuleAttrs<"LayerNormGrad">{c.op}), "gamma");
  if (c.t(2) != x) c.failOperand(2, "the gradient must be " + x.str() + ", got " + c.t(2).str());
  c.result(x);
  c.result(c.t(1));
  c.result(c.t(1));
}
// x with channels on axis 1 that `groups` divides.
template <class Attrs> void requireChannelGroups(Ctx& c, const TensorType& x, const Attrs& a) {
  if (x.rank() < 2) c.failOperand(0, "expects channels on axis 1, got " + x.str());
  const int64_t groups = a.groups();
  if (groups <= 0 || x.shape[1] % groups != 0)
    c.fail(a.groupsLoc(), "groups = " + std::to_string(groups) + " does not divide the " +
                                    std::to_string(x.shape[1]) + " channels of " + x.str());
}
void inferGroupNorm(Ctx& c) {
  c.requireFloat(0);
  const TensorType& x = c.t(0);
  requireChannelGroups(c, x, RuleAttrs<"GroupNorm">{c.op});
  requireParamShape(c, 1, x, x.shape[1], "gamma");
  requireParamShape(c, 2, x, x.shape[1], "beta");
  c.result(x);
}
void inferGroupNormGrad(Ctx& c) {  // x, gamma, g
  c.requireFloat(0);
  const TensorType& x = c.t(0);
  requireChannelGroups(c, x, RuleAttrs<"GroupNormGrad">{c.op});
  requireParamShape(c, 1, x, x.shape[1], "gamma");
  if (c.t(2) != x) c.failOperand(2, "the gradient must be " + x.str() + ", got " + c.t(2).str());
  c.result(x);
  c.result(c.t(1));
  c.result(c.t(1));
}
void inferBatchNorm(Ctx& c) {
  c.requireFloat(0);
  const TensorType& x = c.t(0);
  if (x.rank() < 2) c.failOperand(0, "expects channels on axis 1, got " + x.str());
  static const char* names[] = {"scale", "bias", "mean", "var"};
  for (size_t i = 1; i < 5; ++i) requireParamShape(c, i, x, x.shape[1], names[i - 1]);
  c.result(x);
}

// ---- linear algebra ----------------------------------------------------------

// The shape of the product of operands 0 and 1 (matmul, matmul_scaled_add_).
Shape matmulProductShape(Ctx& c) {
  const TensorType& a = c.t(0);
  const TensorType& b = c.t(1);
  if (a.rank() == 0) c.failOperand(0, "operand must have at least one dimension, got " + a.str());
  if (b.rank() == 0) c.failOperand(1, "operand must have at least one dimension, got " + b.str());
  const attrs::View<attrs::inferRule("MatMul") | attrs::inferRule("MatMulScaledAddInplace")> flags{c.op};
  if (flags.transpose_a() && a.rank() < 2)
    c.fail(flags.transpose_aLoc(), "transpose_a needs an operand of rank 2 or more, got " + a.str());
  if (flags.transpose_b() && b.rank() < 2)
    c.fail(flags.transpose_bLoc(), "transpose_b needs an operand of rank 2 or more, got " + b.str());
  // The operands as multiplied (ir/matmul_operands.h).
  Shape sa = matmulOperandShape(c.op, 0), sb = matmulOperandShape(c.op, 1);
  bool promoteA = sa.size() == 1, promoteB = sb.size() == 1;
  if (promoteA) sa.insert(sa.begin(), 1);
  if (promoteB) sb.push_back(1);
  int64_t m = sa[sa.size() - 2], k = sa.back(), k2 = sb[sb.size() - 2], n = sb.back();
  if (k != k2)
    c.failOperand(1, "inner dimensions of " + a.str() + " and " + b.str() + " do not match (" + std::to_string(k) +
                         " vs " + std::to_string(k2) + ")");
  Shape batchA(sa.begin(), sa.end() - 2), batchB(sb.begin(), sb.end() - 2);
  auto batch = broadcastShapes(batchA, batchB);
  if (!batch) c.failOperand(1, "batch dimensions of " + a.str() + " and " + b.str() + " do not broadcast");
  Shape s = *batch;
  if (!promoteA) s.push_back(m);
  if (!promoteB) s.push_back(n);
  return s;
}
void inferMatMul(Ctx& c) {
  const TensorType& a = c.t(0);
  c.requireSameDType(0, 1);
  if (!isFloat(a.dtype) && a.dtype != DType::I32) c.failOperand(0, "expects float or i32 operands, got " + a.str());
  c.result(a.dtype, matmulProductShape(c));
}
void inferMatMulScaledAddInplace(Ctx& c) {
  c.requireSameDType(0, 1);
  c.requireSameDType(0, 2);
  c.requireFloat(0);
  const Shape product = matmulProductShape(c);
  const TensorType& acc = c.t(2);
  if (acc.shape != product)
    c.failOperand(2, "must have the shape of the product " + TensorType{acc.dtype, product}.str() + ", got " + acc.str());
  c.result(acc);
}

// The window of conv/pools (ir/window.h), its faults reported at the attribute.
Window windowOf(Ctx& c, size_t spatial, const std::vector<int64_t>* convKernel) {
  std::optional<WindowFault> fault;
  Window w = resolveWindow(c.op, spatial, convKernel, fault);
  if (fault) c.fail(fault->loc, fault->message);
  return w;
}
// The output length of the window over axis i of the input type x. Sizes near
// int64's limits are errors blaming the attribute that made them so (padding,
// or the window's: dilation for conv), never overflow.
int64_t windowOutput(Ctx& c, const Window& w, size_t i, const TensorType& x, SourceLoc paddingLoc, SourceLoc extentLoc,
                     const std::string& extentWhat) {
  const Window::Axis r = w.axis(i, x.shape[2 + i]);
  switch (r.fit) {
    case Window::Fit::Fits: break;
    case Window::Fit::ExtentOverflow: c.fail(extentLoc, extentWhat);
    case Window::Fit::PaddingOverflow:
      c.fail(paddingLoc, "padding " + std::to_string(w.padBegin[i]) + " + " + std::to_string(w.padEnd[i]) +
                             " of an axis of " + x.str() + " makes it longer than int64");
    case Window::Fit::TooLarge:
      c.failOperand(0, "window of size " + std::to_string(r.extent) + " is larger than the padded input " + x.str());
  }
  return r.length;
}
// The output shape of conv over input type x and weights w with the attributes a
// (conv's, or a conv gradient's: they describe the forward conv).
template <class Attrs> Shape convOutputShape(Ctx& c, const TensorType& x, const TensorType& w, const Attrs& a) {
  if (x.rank() < 3 || x.rank() > 5) c.failOperand(0, "input must be N,C plus 1 to 3 spatial dims, got " + x.str());
  if (w.rank() != x.rank()) c.failOperand(1, "weights " + w.str() + " must have the rank of the input " + x.str());
  size_t spatial = x.shape.size() - 2;
  int64_t groups = a.groups();
  int64_t channels = x.shape[1];
  if (groups <= 0 || channels % groups != 0 || w.shape[0] % groups != 0)
    c.fail(a.groupsLoc(), "groups = " + std::to_string(groups) + " must divide the input channels (" +
                                    std::to_string(channels) + ") and output channels (" + std::to_string(w.shape[0]) + ")");
  if (w.shape[1] != channels / groups)
    c.failOperand(1, "weights " + w.str() + " expect " + std::to_string(w.shape[1]) + " × " + std::to_string(groups) +
                         " input channels, got " + x.str());
  const std::vector<int64_t> kernel(w.shape.begin() + 2, w.shape.end());
  const Window win = windowOf(c, spatial, &kernel);
  Shape s{x.shape[0], w.shape[0]};
  for (size_t i = 0; i < spatial; ++i)
    s.push_back(windowOutput(c, win, i, x, a.paddingLoc(), a.dilationLoc(),
                             "dilation " + std::to_string(win.dilation[i]) + " makes the window of weights " + w.str() +
                                 " longer than int64"));
  return s;
}
// The output shape of a pool over input type x with the attributes a.
template <class Attrs> Shape poolOutputShape(Ctx& c, const TensorType& x, const Attrs& a) {
  if (x.rank() < 3 || x.rank() > 5) c.failOperand(0, "input must be N,C plus 1 to 3 spatial dims, got " + x.str());
  size_t spatial = x.shape.size() - 2;
  const Window win = windowOf(c, spatial, nullptr);
  Shape s{x.shape[0], x.shape[1]};
  const bool dilated = a.dilation().has_value();
  for (size_t i = 0; i < spatial; ++i)
    s.push_back(windowOutput(c, win, i, x, a.paddingLoc(), dilated ? a.dilationLoc() : a.kernelLoc(),
                             dilated ? "dilation " + std::to_string(win.dilation[i]) + " makes the kernel longer than int64"
                                     : std::string("the kernel is longer than int64")));
  return s;
}
// A gradient op's `shape` attribute: the forward tensor's type (dtype of operand i).
template <class Attrs> TensorType forwardType(Ctx& c, const Attrs& a, size_t i) {
  const std::vector<int64_t> shape = a.shape();
  for (int64_t d : shape)
    if (d < 0) c.fail(a.shapeLoc(), "attribute 'shape' needs sizes >= 0, got " + intsToString(shape));
  return TensorType{c.t(i).dtype, Shape(shape.begin(), shape.end())};
}
// The gradient operand g must have the forward op's output shape.
void requireGradShape(Ctx& c, size_t i, const Shape& forwardOut, const std::string& forward) {
  if (c.t(i).shape != forwardOut)
    c.failOperand(i, "the gradient " + c.t(i).str() + " is not shaped as the output " + shapeToString(forwardOut) + " of " +
                         forward);
}

void inferConv(Ctx& c) {
  c.requireFloat(0);
  c.requireSameDType(0, 1);
  if (c.n() > 2) {
    c.requireSameDType(0, 2);
    const TensorType& w = c.t(1);
    if (w.rank() < 1 || c.t(2).shape != Shape{w.shape[0]})
      c.failOperand(2, "bias " + c.t(2).str() + " must have one value per output channel of the weights " + w.str());
  }
  c.result(c.t(0).dtype, convOutputShape(c, c.t(0), c.t(1), RuleAttrs<"Conv">{c.op}));
}
void inferConvGradInput(Ctx& c) {  // g, w
  c.requireFloat(0);
  c.requireSameDType(0, 1);
  const RuleAttrs<"ConvGradInput"> a{c.op};
  const TensorType x = forwardType(c, a, 0);
  requireGradShape(c, 0, convOutputShape(c, x, c.t(1), a), "conv over " + x.str() + " and " + c.t(1).str());
  c.result(x);
}
void inferConvGradWeight(Ctx& c) {  // x, g
  c.requireFloat(0);
  c.requireSameDType(0, 1);
  const RuleAttrs<"ConvGradWeight"> a{c.op};
  const TensorType w = forwardType(c, a, 0);
  requireGradShape(c, 1, convOutputShape(c, c.t(0), w, a), "conv over " + c.t(0).str() + " and " + w.str());
  c.result(w);
}
void inferPool(Ctx& c) {
  c.requireNumeric(0);
  c.result(c.t(0).dtype, poolOutputShape(c, c.t(0), RuleAttrs<"Pool">{c.op}));
}
void inferPoolWithIndices(Ctx& c) {  // x -> y, indices
  c.requireNumeric(0);
  const TensorType& x = c.t(0);
  Shape s = poolOutputShape(c, x, RuleAttrs<"PoolWithIndices">{c.op});
  // The indices are i32, pir's index type: every flat index of x must fit.
  if (x.numElements() - 1 > INT32_MAX)
    c.failOperand(0, "the flat indices of " + x.str() + " do not fit in i32");
  c.result(x.dtype, s);
  c.result(DType::I32, std::move(s));
}
void inferMaxPoolGrad(Ctx& c) {  // x, g
  c.requireFloat(0);
  c.requireSameDType(0, 1);
  requireGradShape(c, 1, poolOutputShape(c, c.t(0), RuleAttrs<"MaxPoolGrad">{c.op}), "max_pool over " + c.t(0).str());
  c.result(c.t(0));
}
void inferAveragePoolGrad(Ctx& c) {  // g
  c.requireFloat(0);
  const RuleAttrs<"AveragePoolGrad"> a{c.op};
  const TensorType x = forwardType(c, a, 0);
  requireGradShape(c, 0, poolOutputShape(c, x, a), "average_pool over " + x.str());
  c.result(x);
}

// ---- shapes ------------------------------------------------------------------

void requireNonNegativeShape(Ctx& c, SourceLoc loc, const char* key, const std::vector<int64_t>& s) {
  for (int64_t d : s)
    if (d < 0) c.fail(loc, std::string("attribute '") + key + "' has a negative dimension: " + intsToString(s));
}
void inferReshape(Ctx& c) {
  const TensorType& x = c.t(0);
  const RuleAttrs<"Reshape"> a{c.op};
  std::vector<int64_t> shape = a.shape();
  int inferred = -1;
  int64_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (inferred >= 0) c.fail(a.shapeLoc(), "only one -1 is allowed in shape " + intsToString(shape));
      inferred = static_cast<int>(i);
    } else if (shape[i] < 0) {
      c.fail(a.shapeLoc(), "bad dimension " + std::to_string(shape[i]) + " in shape " + intsToString(shape));
    } else {
      known = numElements(Shape{known, shape[i]});
    }
  }
  int64_t total = x.numElements();
  if (inferred >= 0) {
    if (known == 0 || total % known != 0)
      c.fail(a.shapeLoc(), "cannot reshape " + x.str() + " (" + std::to_string(total) + " elements) to " +
                                     intsToString(shape));
    shape[inferred] = total / known;
  } else if (known != total) {
    c.fail(a.shapeLoc(), "cannot reshape " + x.str() + " (" + std::to_string(total) + " elements) to " +
                                   intsToString(shape) + " (" + std::to_string(known) + " elements)");
  }
  c.result(x.dtype, Shape(shape.begin(), shape.end()));
}
// Without `axis` all elements in one dim; with it ONNX Flatten's
// [prod(dims before axis), prod(dims from axis)], axis in [-r, r].
void inferFlatten(Ctx& c) {
  const TensorType& x = c.t(0);
  const RuleAttrs<"Flatten"> a{c.op};
  if (!a.axis()) {
    c.result(x.dtype, {x.numElements()});
    return;
  }
  const int64_t rank = x.rank();
  int64_t axis = *a.axis();
  if (axis < -rank || axis > rank)
    c.fail(a.axisLoc(), "axis " + std::to_string(axis) + " is out of range for " + x.str() + " (in [" +
                            std::to_string(-rank) + ", " + std::to_string(rank) + "])");
  if (axis < 0) axis += rank;
  c.result(x.dtype, {numElements(Shape(x.shape.begin(), x.shape.begin() + axis)),
                     numElements(Shape(x.shape.begin() + axis, x.shape.end()))});
}
void inferTranspose(Ctx& c) {
  const TensorType& x = c.t(0);
  const RuleAttrs<"Transpose"> a{c.op};
  const std::optional<std::vector<int64_t>> perm = transposePerm(c.op, x.rank());
  if (!perm) c.fail(a.permLoc(), "perm " + intsToString(*a.perm()) + " is not a permutation of the axes of " + x.str());
  Shape s;
  for (int64_t p : *perm) s.push_back(x.shape[p]);
  c.result(x.dtype, std::move(s));
}
void inferSqueeze(Ctx& c) {
  const TensorType& x = c.t(0);
  std::vector<bool> drop(x.shape.size(), false);
  const RuleAttrs<"Squeeze"> attr{c.op};
  if (auto axes = attr.axes()) {
    for (int64_t a : *axes) {
      int64_t k = c.axis(a, x, attr.axesLoc());
      if (drop[k]) c.fail(attr.axesLoc(), "duplicate axis " + std::to_string(a) + " in " + intsToString(*axes));
      if (x.shape[k] != 1)
        c.fail(attr.axesLoc(), "cannot squeeze axis " + std::to_string(a) + " of " + x.str() + ": its size is " +
                                      std::to_string(x.shape[k]) + ", not 1");
      drop[k] = true;
    }
  } else {
    for (size_t i = 0; i < drop.size(); ++i) drop[i] = x.shape[i] == 1;
  }
  Shape s;
  for (size_t i = 0; i < drop.size(); ++i)
    if (!drop[i]) s.push_back(x.shape[i]);
  c.result(x.dtype, std::move(s));
}
void inferUnsqueeze(Ctx& c) {
  const TensorType& x = c.t(0);
  const RuleAttrs<"Unsqueeze"> attr{c.op};
  std::vector<int64_t> axes = attr.axes();
  int64_t outRank = x.rank() + static_cast<int64_t>(axes.size());
  std::vector<bool> inserted(outRank, false);
  for (int64_t a : axes) {
    int64_t k = c.axis(a, x, attr.axesLoc(), outRank);
    if (inserted[k]) c.fail(attr.axesLoc(), "duplicate axis " + std::to_string(a) + " in " + intsToString(axes));
    inserted[k] = true;
  }
  Shape s;
  size_t next = 0;
  for (int64_t i = 0; i < outRank; ++i) s.push_back(inserted[i] ? 1 : x.shape[next++]);
  c.result(x.dtype, std::move(s));
}
void inferBroadcast(Ctx& c) {
  const RuleAttrs<"Broadcast"> a{c.op};
  std::vector<int64_t> shape = a.shape();
  requireNonNegativeShape(c, a.shapeLoc(), "shape", shape);
  Shape target(shape.begin(), shape.end());
  auto b = broadcastShapes(target, c.t(0).shape);
  if (!b || *b != target) c.failOperand(0, c.t(0).str() + " does not broadcast to shape " + intsToString(shape));
  c.result(c.t(0).dtype, std::move(target));
}
// pad's and pad_grad's `pads`: the begin of every axis, then the end. The padded
// shape of `x` (pad_grad: the shape whose padding `x` is); reflect and edge read
// the axis, so they need it non-empty.
Shape paddedShape(Ctx& c, const TensorType& x, const std::vector<int64_t>& pads, SourceLoc loc, PadMode mode, int sign) {
  const size_t rank = x.shape.size();
  if (pads.size() != 2 * rank)
    c.fail(loc, "pads " + intsToString(pads) + " needs " + std::to_string(2 * rank) + " values (the begin of every axis, then the end) for " + x.str());
  Shape s = x.shape;
  for (size_t d = 0; d < rank; ++d) {
    const std::optional<int64_t> grown = checkedAdd(pads[d], pads[d + rank]);
    const std::optional<int64_t> n = grown ? checkedAdd(x.shape[d], sign * *grown) : std::nullopt;
    if (!n || *n < 0)
      c.fail(loc, "pads " + intsToString(pads) + " crop axis " + std::to_string(d) + " of " + x.str() + " below size 0");
    const int64_t source = sign > 0 ? x.shape[d] : *n;
    if (mode != PadMode::Constant && source == 0 && *grown != 0)
      c.fail(loc, "pads " + intsToString(pads) + ": " + std::string(enumWord(mode)) + " padding of empty axis " + std::to_string(d));
    s[d] = *n;
  }
  return s;
}
void inferPad(Ctx& c) {
  const RuleAttrs<"Pad"> a{c.op};
  c.result(c.t(0).dtype, paddedShape(c, c.t(0), a.pads(), a.padsLoc(), a.mode(), 1));
}
void inferPadGrad(Ctx& c) {
  c.requireFloat(0);
  const RuleAttrs<"PadGrad"> a{c.op};
  c.result(c.t(0).dtype, paddedShape(c, c.t(0), a.pads(), a.padsLoc(), a.mode(), -1));
}
void inferTile(Ctx& c) {
  const RuleAttrs<"Tile"> a{c.op};
  const std::vector<int64_t> repeats = a.repeats();
  const TensorType& x = c.t(0);
  if (repeats.size() != x.shape.size())
    c.fail(a.repeatsLoc(), "repeats " + intsToString(repeats) + " needs one value per axis of " + x.str());
  Shape s = x.shape;
  for (size_t d = 0; d < s.size(); ++d) {
    const std::optional<int64_t> n = repeats[d] < 0 ? std::nullopt : checkedMul(s[d], repeats[d]);
    if (!n) c.fail(a.repeatsLoc(), "repeats " + intsToString(repeats) + ": axis " + std::to_string(d) + " must repeat 0 or more times (and fit int64)");
    s[d] = *n;
  }
  c.result(x.dtype, std::move(s));
}
void inferTrilu(Ctx& c) {
  if (c.t(0).rank() < 2) c.failOperand(0, "trilu needs a matrix or a batch of them, got " + c.t(0).str());
  c.result(c.t(0));
}
void inferConcat(Ctx& c) {
  const TensorType& x = c.t(0);
  const RuleAttrs<"Concat"> a{c.op};
  int64_t ax = c.axis(a.axis(), x, a.axisLoc());
  Shape s = x.shape;
  for (size_t i = 1; i < c.n(); ++i) {
    c.requireSameDType(0, i);
    const TensorType& y = c.t(i);
    bool ok = y.rank() == x.rank();
    for (int64_t d = 0; ok && d < x.rank(); ++d)
      if (d != ax && y.shape[d] != x.shape[d]) ok = false;
    if (!ok)
      c.failOperand(i, "operand types " + x.str() + " and " + y.str() + " cannot be concatenated on axis " +
                           std::to_string(ax));
    std::optional<int64_t> sum = checkedAdd(s[ax], y.shape[ax]);
    if (!sum) c.failOperand(i, "the concatenated axis " + std::to_string(ax) + " would be longer than int64");
    s[ax] = *sum;
  }
  c.result(x.dtype, std::move(s));
}
void inferSplit(Ctx& c) {
  const TensorType& x = c.t(0);
  const RuleAttrs<"Split"> a{c.op};
  int64_t ax = c.axis(a.axis(), x, a.axisLoc());
  std::vector<int64_t> splits = a.splits();
  int64_t sum = 0;
  for (int64_t v : splits) {
    if (v < 0) c.fail(a.splitsLoc(), "negative size in splits " + intsToString(splits));
    std::optional<int64_t> next = checkedAdd(sum, v);
    if (!next || *next > x.shape[ax])
      c.fail(a.splitsLoc(), "splits " + intsToString(splits) + " add up to more than axis " + std::to_string(ax) +
                                      " of " + x.str() + " (size " + std::to_string(x.shape[ax]) + ")");
    sum = *next;
  }
  if (sum != x.shape[ax])
    c.fail(a.splitsLoc(), "splits " + intsToString(splits) + " add up to " + std::to_string(sum) + ", but axis " +
                                    std::to_string(ax) + " of " + x.str() + " has size " + std::to_string(x.shape[ax]));
  for (int64_t v : splits) {
    Shape s = x.shape;
    s[ax] = v;
    c.result(x.dtype, std::move(s));
  }
}
void inferSlice(Ctx& c) {
  const TensorType& x = c.t(0);
  const RuleAttrs<"Slice"> a{c.op};
  std::vector<int64_t> start = a.start(), stop = a.stop();
  size_t n = start.size();
  if (stop.size() != n)
    c.fail(a.stopLoc(), "start " + intsToString(start) + " and stop " + intsToString(stop) + " differ in length");
  std::vector<int64_t> step(n, 1), axes(n);
  std::iota(axes.begin(), axes.end(), 0);
  if (auto written = a.step()) step = *written;
  if (auto written = a.axes()) axes = *written;
  if (step.size() != n) c.fail(a.stepLoc(), "step " + intsToString(step) + " needs " + std::to_string(n) + " values");
  if (axes.size() != n) c.fail(a.axesLoc(), "axes " + intsToString(axes) + " needs " + std::to_string(n) + " values");
  Shape s = x.shape;
  std::vector<bool> seen(x.shape.size(), false);
  for (size_t i = 0; i < n; ++i) {
    int64_t ax = c.axis(axes[i], x, a.written<"axes">() ? a.axesLoc() : a.startLoc());
    if (seen[ax]) c.fail(a.axesLoc(), "duplicate axis " + std::to_string(axes[i]) + " in " + intsToString(axes));
    seen[ax] = true;
    if (step[i] == 0) c.fail(a.stepLoc(), "step must not be 0");
    s[ax] = sliceRange(x.shape[ax], start[i], stop[i], step[i]).count;
  }
  c.result(x.dtype, std::move(s));
}
void inferSubsample(Ctx& c) {
  const TensorType& x = c.t(0);
  const RuleAttrs<"Subsample"> a{c.op};
  std::vector<int64_t> strides = a.strides();
  if (static_cast<int64_t>(strides.size()) != x.rank())
    c.fail(a.stridesLoc(), "strides " + intsToString(strides) + " needs one value per axis of " + x.str());
  Shape s = x.shape;
  for (size_t i = 0; i < strides.size(); ++i) {
    if (strides[i] < 1) c.fail(a.stridesLoc(), "strides must be >= 1, got " + intsToString(strides));
    s[i] = stridedLength(s[i], strides[i]);
  }
  c.result(x.dtype, std::move(s));
}
// Shared by dynamic_slice/update: the slice shape on `axes` with `sizes`.
Shape dynamicSliceShape(Ctx& c) {
  const TensorType& x = c.t(0);
  const attrs::View<attrs::inferRule("DynamicSlice") | attrs::inferRule("DynamicUpdate")> a{c.op};
  std::vector<int64_t> axes = a.axes(), sizes = a.sizes();
  if (axes.size() != sizes.size())
    c.fail(a.sizesLoc(), "axes " + intsToString(axes) + " and sizes " + intsToString(sizes) + " differ in length");
  c.requireIndexType(1, "index");
  if (c.t(1).numElements() != static_cast<int64_t>(axes.size()) || c.t(1).rank() > 1)
    c.failOperand(1, "index " + c.t(1).str() + " needs one element per axis in " + intsToString(axes));
  Shape s = x.shape;
  std::vector<bool> seen(x.shape.size(), false);
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t ax = c.axis(axes[i], x, a.axesLoc());
    if (seen[ax]) c.fail(a.axesLoc(), "duplicate axis " + std::to_string(axes[i]) + " in " + intsToString(axes));
    seen[ax] = true;
    if (sizes[i] < 0 || sizes[i] > x.shape[ax])
      c.fail(a.sizesLoc(), "size " + std::to_string(sizes[i]) + " is out of range for axis " + std::to_string(ax) +
                                     " of " + x.str());
    s[ax] = sizes[i];
  }
  return s;
}
void inferDynamicSlice(Ctx& c) { c.result(c.t(0).dtype, dynamicSliceShape(c)); }
void inferDynamicUpdate(Ctx& c) {
  Shape s = dynamicSliceShape(c);
  c.requireSameDType(0, 2);
  if (c.t(2).shape != s)
    c.failOperand(2, "update " + c.t(2).str() + " must have the slice type " + TensorType{c.t(0).dtype, s}.str());
  c.result(c.t(0));
}
void inferGather(Ctx& c) {
  const TensorType& x = c.t(0);
  const RuleAttrs<"Gather"> a{c.op};
  int64_t ax = c.axis(a.axis(), x, a.axisLoc());
  c.requireInteger(1, "indices");
  Shape s(x.shape.begin(), x.shape.begin() + ax);
  s.insert(s.end(), c.t(1).shape.begin(), c.t(1).shape.end());
  s.insert(s.end(), x.shape.begin() + ax + 1, x.shape.end());
  c.result(x.dtype, std::move(s));
}
// g is gather's result for an x of `size` along `axis`: x.shape[:axis] + indices.shape +
// x.shape[axis+1:]; the result is x's type.
void inferGatherGrad(Ctx& c) {
  c.requireFloat(0);
  c.requireInteger(1, "indices");
  const TensorType& g = c.t(0);
  const TensorType& idx = c.t(1);
  const RuleAttrs<"GatherGrad"> a{c.op};
  if (g.rank() < idx.rank())
    c.failOperand(0, "gradient " + g.str() + " has fewer axes than the indices " + idx.str() + " it was gathered with");
  const int64_t ax = c.axis(a.axis(), g, a.axisLoc(), g.rank() - idx.rank() + 1);
  const size_t first = static_cast<size_t>(ax);
  if (!std::equal(idx.shape.begin(), idx.shape.end(), g.shape.begin() + static_cast<ptrdiff_t>(first)))
    c.failOperand(0, "gradient " + g.str() + " must hold the indices' shape " + idx.str() + " from axis " +
                         std::to_string(ax));
  if (a.size() < 0) c.fail(a.sizeLoc(), "size must be >= 0, got " + std::to_string(a.size()));
  Shape s(g.shape.begin(), g.shape.begin() + static_cast<ptrdiff_t>(first));
  s.push_back(a.size());
  s.insert(s.end(), g.shape.begin() + static_cast<ptrdiff_t>(first + idx.shape.size()), g.shape.end());
  c.result(g.dtype, std::move(s));
}
void inferScatter(Ctx& c) {
  const TensorType& x = c.t(0);
  const RuleAttrs<"Scatter"> a{c.op};
  c.axis(a.axis(), x, a.axisLoc());
  c.requireInteger(1, "indices");
  c.requireSameDType(0, 2);
  if (c.t(1).shape != c.t(2).shape)
    c.failOperand(2, "values " + c.t(2).str() + " must have the shape of indices " + c.t(1).str());
  if (c.t(1).rank() != x.rank()) c.failOperand(1, "indices " + c.t(1).str() + " must have the rank of " + x.str());
  c.result(x);
}
void inferOneHot(Ctx& c) {
  c.requireInteger(0, "indices");
  const RuleAttrs<"OneHot"> a{c.op};
  int64_t classes = a.num_classes();
  if (classes < 1) c.fail(a.num_classesLoc(), "num_classes must be >= 1, got " + std::to_string(classes));
  if (a.values().size() != 2) c.fail(a.valuesLoc(), "values must list [off, on]");
  // The class axis goes at `axis` of the result (rank r + 1), in [-(r + 1), r].
  const int64_t rank = c.t(0).rank();
  int64_t axis = a.axis();
  if (axis < -(rank + 1) || axis > rank)
    c.fail(a.axisLoc(), "axis " + std::to_string(axis) + " is out of range for the classes of " + c.t(0).str() +
                            " (in [" + std::to_string(-(rank + 1)) + ", " + std::to_string(rank) + "])");
  if (axis < 0) axis += rank + 1;
  Shape s = c.t(0).shape;
  s.insert(s.begin() + axis, classes);
  c.result(a.dtype(), std::move(s));
}
// ---- the ONNX layout ops, resize, lrn, conv_transpose, einsum ----------------

// gather_elements' and scatter_elements' indices: x's rank, and off the axis no
// longer than x (the index positions off the axis address x directly).
void requireElementIndices(Ctx& c, const TensorType& x, int64_t axis) {
  c.requireInteger(1, "indices");
  const TensorType& i = c.t(1);
  if (i.rank() != x.rank()) c.failOperand(1, "indices " + i.str() + " must have the rank of " + x.str());
  for (size_t d = 0; d < i.shape.size(); ++d)
    if (static_cast<int64_t>(d) != axis && i.shape[d] > x.shape[d])
      c.failOperand(1, "indices " + i.str() + " are longer than " + x.str() + " on axis " + std::to_string(d));
}
void inferGatherElements(Ctx& c) {
  const TensorType& x = c.t(0);
  const RuleAttrs<"GatherElements"> a{c.op};
  requireElementIndices(c, x, c.axis(a.axis(), x, a.axisLoc()));
  c.result(x.dtype, c.t(1).shape);
}
void inferScatterElements(Ctx& c) {
  const TensorType& x = c.t(0);
  const RuleAttrs<"ScatterElements"> a{c.op};
  requireElementIndices(c, x, c.axis(a.axis(), x, a.axisLoc()));
  c.requireSameDType(0, 2);
  if (c.t(2).shape != c.t(1).shape)
    c.failOperand(2, "updates " + c.t(2).str() + " must have the shape of indices " + c.t(1).str());
  if (x.dtype == DType::Bool && a.reduction() != ScatterReduction::None)
    c.fail(a.reductionLoc(), "reduction " + std::string(enumWord(a.reduction())) + " needs a numeric operand, got " + x.str());
  c.result(x);
}

using ResizeAttrs = attrs::View<attrs::inferRule("Resize") | attrs::inferRule("ResizeGrad")>;
// resize from `in` to `out` (resize_grad: back): one size and scale per axis,
// a region of interest of a begin and an end per axis.
void checkResize(Ctx& c, const ResizeAttrs& a, const Shape& in, const Shape& out) {
  if (out.size() != in.size())
    c.fail(a.shapeLoc(), "shape " + intsToString(out) + " needs one size per axis of " + shapeToString(in));
  for (size_t d = 0; d < in.size(); ++d)
    if (out[d] < 0 || (in[d] == 0 && out[d] != 0))
      c.fail(a.shapeLoc(), "shape " + intsToString(out) + ": axis " + std::to_string(d) + " of " + shapeToString(in) +
                               " cannot resize to " + std::to_string(out[d]));
  if (const std::optional<std::vector<double>> scales = a.scales()) {
    if (scales->size() != in.size()) c.fail(a.scalesLoc(), "scales needs one value per axis of " + shapeToString(in));
    for (double s : *scales)
      if (!(s > 0) || !std::isfinite(s)) c.fail(a.scalesLoc(), "scales must be positive and finite");
  }
  if (const std::optional<std::vector<double>> roi = a.roi())
    if (roi->size() != 2 * in.size())
      c.fail(a.roiLoc(), "roi needs the begin of every axis, then the end: " + std::to_string(2 * in.size()) + " values");
}
Shape shapeAttr(const std::vector<int64_t>& v) { return Shape(v.begin(), v.end()); }
void inferResize(Ctx& c) {
  c.requireNumeric(0);
  const ResizeAttrs a{c.op};
  const Shape out = shapeAttr(a.shape());
  checkResize(c, a, c.t(0).shape, out);
  c.result(c.t(0).dtype, out);
}
void inferResizeGrad(Ctx& c) {  // g (resize's output) -> x's shape
  c.requireFloat(0);
  const ResizeAttrs a{c.op};
  const Shape x = shapeAttr(a.shape());
  checkResize(c, a, x, c.t(0).shape);
  c.result(c.t(0).dtype, x);
}

void inferRange(Ctx& c) {
  const RuleAttrs<"Range"> a{c.op};
  if (a.dtype() == DType::Bool) c.fail(a.dtypeLoc(), "dtype must be numeric, got bool");
  const double start = a.start(), limit = a.limit(), delta = a.delta();
  if (!std::isfinite(start) || !std::isfinite(limit)) c.fail("start and limit must be finite");
  if (delta == 0 || !std::isfinite(delta)) c.fail(a.deltaLoc(), "delta must be finite and non-zero");
  const double n = std::ceil((limit - start) / delta);
  // 2^40 elements are far past any host's memory; the budget refuses far less.
  if (n > 1099511627776.0) c.fail(a.limitLoc(), "range of " + std::to_string(n) + " elements is too long");
  c.result(a.dtype(), {n > 0 ? static_cast<int64_t>(n) : 0});
}

using LrnAttrs = attrs::View<attrs::inferRule("Lrn") | attrs::inferRule("LrnGrad")>;
void checkLrn(Ctx& c) {
  c.requireFloat(0);
  if (c.t(0).rank() < 2) c.failOperand(0, "lrn needs N, C and any further axes, got " + c.t(0).str());
  const LrnAttrs a{c.op};
  if (a.size() < 1) c.fail(a.sizeLoc(), "size must be >= 1, got " + std::to_string(a.size()));
}
void inferLrn(Ctx& c) {
  checkLrn(c);
  c.result(c.t(0));
}
void inferLrnGrad(Ctx& c) {  // x, g
  checkLrn(c);
  if (!(c.t(1) == c.t(0))) c.failOperand(1, "the gradient " + c.t(1).str() + " must have the type of x " + c.t(0).str());
  c.result(c.t(0));
}

void inferConvTranspose(Ctx& c) {  // x [N, C_in, ...], w [C_in, C_out / groups, k...]
  c.requireFloat(0);
  c.requireSameDType(0, 1);
  const RuleAttrs<"ConvTranspose"> a{c.op};
  const TensorType& x = c.t(0);
  const TensorType& w = c.t(1);
  if (x.rank() < 3 || x.rank() > 5) c.failOperand(0, "input must be N,C plus 1 to 3 spatial dims, got " + x.str());
  if (w.rank() != x.rank()) c.failOperand(1, "weights " + w.str() + " must have the rank of the input " + x.str());
  const int64_t groups = a.groups();
  if (w.shape[0] != x.shape[1])
    c.failOperand(1, "weights " + w.str() + " take " + std::to_string(w.shape[0]) + " input channels, got " + x.str());
  if (groups <= 0 || x.shape[1] % groups != 0)
    c.fail(a.groupsLoc(), "groups = " + std::to_string(groups) + " must divide the input channels (" + std::to_string(x.shape[1]) + ")");
  const size_t spatial = x.shape.size() - 2;
  const std::vector<int64_t> kernel(w.shape.begin() + 2, w.shape.end());
  const Window win = windowOf(c, spatial, &kernel);
  std::vector<int64_t> extra = a.output_padding().value_or(std::vector<int64_t>(spatial, 0));
  if (extra.size() == 1 && spatial > 1) extra.assign(spatial, extra[0]);
  if (extra.size() != spatial) c.fail(a.output_paddingLoc(), "output_padding needs " + std::to_string(spatial) + " values");
  const std::optional<int64_t> outChannels = checkedMul(w.shape[1], groups);
  if (!outChannels) c.failOperand(1, "weights " + w.str() + " times groups overflow int64");
  Shape s{x.shape[0], *outChannels};
  for (size_t i = 0; i < spatial; ++i) {
    // (in - 1) * stride + dilated kernel - the pads + output_padding
    if (extra[i] < 0 || extra[i] >= std::max(win.stride[i], win.dilation[i]))
      c.fail(a.output_paddingLoc(), "output_padding " + std::to_string(extra[i]) + " must be in [0, max(stride, dilation))");
    std::optional<int64_t> n = checkedMul(std::max<int64_t>(x.shape[2 + i] - 1, 0), win.stride[i]);
    const std::optional<int64_t> reach = checkedMul(win.dilation[i], kernel[i] - 1);
    if (n && reach) n = checkedAdd(*n, *reach + 1 + extra[i]);
    if (n) n = checkedAdd(*n, -win.padBegin[i]);
    if (n) n = checkedAdd(*n, -win.padEnd[i]);
    if (!n || *n < 1)
      c.fail(a.paddingLoc(), "padding " + intsToString(win.padding()) + " leaves no output on spatial axis " + std::to_string(i) + " of " + x.str());
    s.push_back(*n);
  }
  // The conv whose input gradient this is maps the result back onto x.
  requireGradShape(c, 0, convOutputShape(c, TensorType{x.dtype, s}, w, a), "the conv whose input gradient conv_transpose is");
  if (c.n() > 2 && (c.t(2).dtype != x.dtype || c.t(2).shape != Shape{*outChannels}))
    c.failOperand(2, "bias " + c.t(2).str() + " must have one value per output channel: " +
                         TensorType{x.dtype, {*outChannels}}.str());
  c.result(x.dtype, std::move(s));
}

void inferEinsum(Ctx& c) {
  c.requireNumeric(0);
  c.requireSameDType(0, 1);
  const RuleAttrs<"Einsum"> a{c.op};
  std::string problem;
  const std::optional<einsum::Plan> p = einsum::plan(a.equation(), c.t(0).shape, c.t(1).shape, problem);
  if (!p) c.fail(a.equationLoc(), "equation '" + std::string(a.equation()) + "': " + problem);
  c.result(c.t(0).dtype, Shape(p->outShape.begin(), p->outShape.end()));
}
using ShapeAndDTypeAttrs = attrs::View<attrs::inferRule("Init") | attrs::inferRule("Random")>;
TensorType shapeAndDType(Ctx& c) {
  const ShapeAndDTypeAttrs a{c.op};
  std::vector<int64_t> shape = a.shape();
  requireNonNegativeShape(c, a.shapeLoc(), "shape", shape);
  return TensorType{a.dtype(), Shape(shape.begin(), shape.end())};
}
void inferInit(Ctx& c) { c.result(shapeAndDType(c)); }

// ---- random ------------------------------------------------------------------

void inferRandom(Ctx& c) {
  c.requireSeed(0);
  TensorType t = shapeAndDType(c);
  if (!isFloat(t.dtype)) c.fail(ShapeAndDTypeAttrs{c.op}.dtypeLoc(), "dtype must be a float dtype, got " + std::string(dtypeName(t.dtype)));
  c.result(std::move(t));
}
void inferDropout(Ctx& c) {
  c.requireFloat(0);
  c.requireSeed(1);
  const RuleAttrs<"Dropout"> a{c.op};
  double p = a.p();
  if (!(p >= 0 && p < 1)) c.fail(a.pLoc(), "p must be in [0, 1), got " + std::to_string(p));
  c.result(c.t(0));
}
void inferSplitRandomSeed(Ctx& c) {
  c.requireSeed(0);
  const RuleAttrs<"SplitRandomSeed"> a{c.op};
  int64_t n = a.n();
  // At most 2^20 results: a value costs the IR about 250 bytes, so 256 MB at the cap.
  constexpr int64_t kMaxSeeds = int64_t(1) << 20;
  if (n < 1 || n > kMaxSeeds)
    c.fail(a.nLoc(), "n must be from 1 to " + std::to_string(kMaxSeeds) + ", got " + std::to_string(n));
  for (int64_t i = 0; i < n; ++i) c.result(DType::U32, {2});
}

// ---- control flow ------------------------------------------------------------

void inferCall(Ctx& c) {
  c.checkBinding(0);
  for (auto& t : c.call(0).graph->outputTypes) c.result(t);
}
void inferRepeat(Ctx& c) {
  c.checkBinding(0);
  const Graph& g = *c.call(0).graph;
  const RuleAttrs<"Repeat"> a{c.op};
  int64_t count = a.count();
  if (count < 0) c.fail(a.countLoc(), "count must be >= 0, got " + std::to_string(count));
  if (g.outputTypes.size() > g.params.size())
    c.fail(c.call(0).loc, "body @" + g.name + " has " + std::to_string(g.outputTypes.size()) + " outputs but only " +
                              std::to_string(g.params.size()) + " inputs; outputs are carried into the first inputs");
  for (size_t i = 0; i < g.outputTypes.size(); ++i)
    if (!(g.outputTypes[i] == g.params[i]->type))
      c.fail(c.call(0).loc, "body @" + g.name + " output " + std::to_string(i + 1) + " has type " +
                                g.outputTypes[i].str() + ", but the input %" + g.params[i]->name + " it carries into is " +
                                g.params[i]->type->str());
  for (auto& t : g.outputTypes) c.result(t);
}
void inferConditional(Ctx& c) {
  const TensorType& cond = c.t(0);
  if (!(cond == TensorType{DType::Bool, {}} || cond == TensorType{DType::Bool, {1}}))
    c.failOperand(0, "condition must be bool[] or bool[1], got " + cond.str());
  for (size_t i = 0; i < 2; ++i) {
    c.checkBinding(i);
    const Graph& g = *c.call(i).graph;
    for (const Value* p : g.params)
      if (p->byRef)
        c.fail(c.call(i).loc, "branch @" + g.name + " has a by-reference input %" + p->name +
                                  "; conditional branches take inputs by value");
  }
  const Graph& th = *c.call(0).graph;
  const Graph& el = *c.call(1).graph;
  if (th.outputTypes != el.outputTypes) {
    auto list = [](const Graph& g) {
      std::string s = "(";
      for (size_t i = 0; i < g.outputTypes.size(); ++i) s += (i ? ", " : "") + g.outputTypes[i].str();
      return s + ")";
    };
    c.fail(c.call(1).loc, "branches have different output types: @" + th.name + " -> " + list(th) + ", @" + el.name +
                              " -> " + list(el));
  }
  for (auto& t : th.outputTypes) c.result(t);
}

// ---- collectives ---------------------------------------------------------------

void inferAllGather(Ctx& c) {
  c.requireNumeric(0);
  int64_t g = c.groupSize();
  const TensorType& x = c.t(0);
  Shape s;
  const RuleAttrs<"AllGather"> a{c.op};
  if (a.output_shape() == GatherShape::Concat) {
    int64_t ax = c.axis(a.axis(), x, a.axisLoc());
    s = x.shape;
    std::optional<int64_t> gathered = checkedMul(s[ax], g);
    if (!gathered) c.failOperand(0, "gathering " + x.str() + " from " + std::to_string(g) + " replicas overflows int64");
    s[ax] = *gathered;
  } else {
    s.push_back(g);
    s.insert(s.end(), x.shape.begin(), x.shape.end());
  }
  c.result(x.dtype, std::move(s));
}
void inferReduceScatter(Ctx& c) {
  requireReductionOperand(c);
  int64_t g = c.groupSize();
  int64_t n = c.t(0).numElements();
  c.result(c.t(0).dtype, {(n + g - 1) / g});
}
void inferReplicatedSlice(Ctx& c) {
  int64_t g = c.groupSize();
  const TensorType& x = c.t(0);
  const RuleAttrs<"ReplicatedSlice"> a{c.op};
  int64_t ax = c.axis(a.axis(), x, a.axisLoc());
  if (x.shape[ax] % g != 0)
    c.failOperand(0, "axis " + std::to_string(ax) + " of " + x.str() + " does not divide evenly over " +
                         std::to_string(g) + " replicas");
  Shape s = x.shape;
  s[ax] /= g;
  c.result(x.dtype, std::move(s));
}

// ---- variable updates ------------------------------------------------------------

void inferAccumulate(Ctx& c) {
  c.requireNumeric(0);
  c.requireSameDType(0, 1);
  c.requireBroadcastsTo(1, c.t(0));
  if (c.n() > 2) {
    // accumulate_'s factor `f` / accumulate_mean_'s `step`: a scalar tensor.
    const char* what = c.op.code == OpCode::AccumulateMean ? "step" : "f";
    c.requireScalar(2, what);
    if (c.op.code == OpCode::Accumulate && attrs::Accumulate{c.op}.written<"f">())
      c.fail(attrs::Accumulate{c.op}.fLoc(), "'f' is given both as an operand and as an attribute");
  }
  c.result(c.t(0));
}
void inferAdamUpdater(Ctx& c) {
  c.requireFloat(0);
  if (!(c.t(1) == c.t(0))) c.failOperand(1, "operand types " + c.t(0).str() + " and " + c.t(1).str() + " must be equal");
  const RuleAttrs<"AdamUpdater"> a{c.op};
  if (c.n() > 2) {
    c.requireScalar(2, "step");
    if (a.written<"step">()) c.fail(a.stepLoc(), "'step' is given both as an operand and as an attribute");
  } else if (!a.step()) {
    c.fail("'step' is required, as a third operand or an attribute");
  }
  c.result(c.t(0));
}

// ---- IO ------------------------------------------------------------------------

const Resource& resourceOperand(Ctx& c, Resource::Kind kind) {
  const Resource& r = *c.op.operands[0].resource();
  if (r.kind != kind) {
    static const char* names[] = {"an h2d stream", "a d2h stream", "a remote buffer"};
    std::vector<Note> notes;
    if (r.loc.valid()) notes.push_back({r.loc, "$" + r.name + " is declared here"});
    c.fail(c.at(0), "$" + r.name + " is " + names[static_cast<int>(r.kind)] + ", expected " +
                        names[static_cast<int>(kind)],
           std::move(notes));
  }
  return r;
}
void requireSameAsResource(Ctx& c, size_t i, const Resource& r) {
  if (!(c.t(i) == r.type)) {
    std::vector<Note> notes = c.declNote(i);
    if (r.loc.valid()) notes.push_back({r.loc, "$" + r.name + " is declared here"});
    c.fail(c.at(i), "value type " + c.t(i).str() + " does not match $" + r.name + " : " + r.type.str(), std::move(notes));
  }
}
void checkOffset(Ctx& c) {
  c.requireIndexType(1, "offset");
  c.requireScalar(1, "offset");
}
void inferHostLoad(Ctx& c) { c.result(resourceOperand(c, Resource::Kind::H2D).type); }
void inferHostStore(Ctx& c) { requireSameAsResource(c, 1, resourceOperand(c, Resource::Kind::D2H)); }
void inferRemoteLoad(Ctx& c) {
  const Resource& r = resourceOperand(c, Resource::Kind::RemoteBuffer);
  checkOffset(c);
  c.result(r.type);
}
void inferRemoteLoadInplace(Ctx& c) {
  const Resource& r = resourceOperand(c, Resource::Kind::RemoteBuffer);
  checkOffset(c);
  requireSameAsResource(c, 2, r);
  c.result(r.type);
}
void inferRemoteStore(Ctx& c) {
  const Resource& r = resourceOperand(c, Resource::Kind::RemoteBuffer);
  checkOffset(c);
  requireSameAsResource(c, 2, r);
}

void inferDecl(Ctx&) {}      // var/const: the builder types them from the declaration
void inferExchange(Ctx&) {}  // the block's ops carry their own results

using InferFn = void (*)(Ctx&);
constexpr InferFn kInferTable[] = {
#define PIR_OP(id, text, mn, mx, attrs, rule, grad, flags, kernel, operands, cost) &infer##rule,
#include "ir/ops.def"
#undef PIR_OP
};

}  // namespace

void inferResultTypes(const Op& op, const IrOptions& options, std::vector<TensorType>& out, DiagnosticEngine& diags) {
  out.clear();
  Ctx c{op, options, out, diags};
  kInferTable[static_cast<size_t>(op.code)](c);
}

size_t resultCount(const Op& op) {
  const OpInfo& info = op.info();
  if (info.has(F_DECL) || info.has(F_REGION)) return 0;
  const ResultSpec& r = info.results;
  switch (r.kind) {
    case ResultSpec::Kind::Fixed: return r.count;
    case ResultSpec::Kind::PerListElement: {
      std::vector<int64_t> v;
      const Attr* a = findAttrOrDefault(op, r.attr);
      return a && attrInts(*a, v) ? v.size() : 0;
    }
    case ResultSpec::Kind::AttrCount: {
      const Attr* a = findAttrOrDefault(op, r.attr);
      return a && a->kind == Attr::Kind::Int && a->i > 0 && a->i <= 1 << 20 ? static_cast<size_t>(a->i) : 0;
    }
    case ResultSpec::Kind::CalleeOutputs:
      return op.callees.empty() || !op.callees[0].graph ? 0 : op.callees[0].graph->outputTypes.size();
  }
  return 0;
}

const Attr* findAttrOrDefault(const Op& op, std::string_view key) { return attrs::detail::lookup(op.code, op.attrs, key); }

int inplaceOperandIndex(OpCode code) { return opInfo(code).inplaceOperand; }

const Value* aliasRoot(const Value* v) {
  while (v && v->kind == Value::Kind::Result && v->def) {
    int idx = inplaceOperandIndex(v->def->code);
    if (idx < 0 || static_cast<size_t>(idx) >= v->def->operands.size()) break;
    const Operand& o = v->def->operands[idx];
    if (o.kind() != Operand::Kind::Value) break;
    v = o.value();
  }
  return v;
}

std::optional<Shape> broadcastShapes(const Shape& a, const Shape& b) {
  const Shape& longer = a.size() >= b.size() ? a : b;
  const Shape& shorter = a.size() >= b.size() ? b : a;
  Shape s = longer;
  size_t off = longer.size() - shorter.size();
  for (size_t i = 0; i < shorter.size(); ++i) {
    int64_t x = longer[off + i], y = shorter[i];
    if (x == y) continue;
    if (x == 1) s[off + i] = y;
    else if (y != 1) return std::nullopt;
  }
  return s;
}

std::optional<std::vector<int64_t>> transposePerm(const Op& op, int64_t rank) {
  const std::optional<std::vector<int64_t>> written = attrs::View<attrs::inferRule("Transpose")>{op}.perm();
  std::vector<int64_t> perm;
  if (written) perm = *written;
  else
    for (int64_t i = rank - 1; i >= 0; --i) perm.push_back(i);
  if (static_cast<int64_t>(perm.size()) != rank) return std::nullopt;
  std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(rank, 0)), false);
  for (int64_t& p : perm) {
    if (p < 0) p += rank;
    if (p < 0 || p >= rank || seen[static_cast<size_t>(p)]) return std::nullopt;
    seen[static_cast<size_t>(p)] = true;
  }
  return perm;
}

bool attrInts(const Attr& a, std::vector<int64_t>& out) {
  out.clear();
  if (a.kind == Attr::Kind::Int) {
    out.push_back(a.i);
    return true;
  }
  if (a.kind != Attr::Kind::List && a.kind != Attr::Kind::Tuple) return false;
  out.reserve(a.items.size());
  for (const Attr& item : a.items) {
    if (item.kind != Attr::Kind::Int) return false;
    out.push_back(item.i);
  }
  return true;
}

}  // namespace pir
