// The gradient rules of ops.md, one per differentiable row of ir/ops.def.
//
// Each rule reads the forward op through GradContext and emits ordinary ops of
// the language into the gradient graph, so the gradient graph prints, parses
// back and runs like any other graph. Conventions: `g` is the gradient of the
// (first) result, `x`, `y` the forward operands, results of the forward op are
// activations. Broadcasting operands get their gradient summed back to their
// shape (sumTo). conv, the pools, the norms and gather have gradient ops of their own
// (conv_grad_input, conv_grad_weight, max_pool_grad, average_pool_grad, layer_norm_grad,
// group_norm_grad, gather_grad). Index manipulations (slice, subsample)
// use one idiom, `spread`: gather along an axis from the gradient with one zero
// slab appended, with a constant index that points at the zero slab wherever
// nothing lands.
#include "passes/grad_rules.h"

#include <cmath>
#include <numeric>
#include <stdexcept>

#include "ir/einsum_spec.h"
#include "ir/infer.h"
#include "ir/matmul_operands.h"
#include "ir/op_attrs.h"
#include "ir/window.h"
#include "passes/passes.h"

namespace pir::ad {

// ---- context helpers -------------------------------------------------------------

namespace {
Operand literal(double v) {
  auto lit = std::make_shared<Literal>();
  lit->kind = Literal::Kind::Data;
  lit->values = {v};
  lit->hasNumber = true;
  Operand o;
  o.setKind(Operand::Kind::Literal);
  o.setLiteral(std::move(lit));
  return o;
}
Operand val(Value* v) { return Operand::of(v); }
}  // namespace

Value* GradContext::inValue(size_t i) {
  Operand o = in(i);
  if (o.kind() == Operand::Kind::Value) return o.value();
  return b.constant(op.operands[i].literalType(), o.literal()->values);
}

Value* GradContext::gradOrZeros(size_t k) {
  Value* g = grad(k);
  return g ? g : zeros(outType(k));
}

Value* GradContext::emit(OpCode code, std::vector<Operand> operands) { return b.create1(code, std::move(operands)); }
Value* GradContext::emit(OpCode code, std::initializer_list<Value*> operands) {
  std::vector<Operand> ops;
  for (Value* v : operands) ops.push_back(val(v));
  return emit(code, std::move(ops));
}
Value* GradContext::emitLit(OpCode code, Value* x, double v) { return emit(code, {val(x), literal(v)}); }
Value* GradContext::zeros(const TensorType& t) { return b.constant(t, {0.0}); }
Value* GradContext::scalar(DType dtype, double v) { return b.scalarConstant(dtype, v); }
Value* GradContext::cast(Value* v, DType dtype) {
  if (v->type->dtype == dtype) return v;
  return emit({v}, build::Cast{}.dtype(dtype));
}
Value* GradContext::reshape(Value* v, const Shape& shape) {
  if (v->type->shape == shape) return v;
  return emit({v}, build::Reshape{}.shape(shape));
}

Value* GradContext::sumTo(Value* g, const Shape& target) {
  const Shape& s = g->type->shape;
  if (s == target) return g;
  const size_t off = s.size() - target.size();
  std::vector<int64_t> axes;
  for (size_t i = 0; i < s.size(); ++i)
    if (i < off || (target[i - off] == 1 && s[i] != 1)) axes.push_back(static_cast<int64_t>(i));
  Value* r = g;
  if (!axes.empty()) r = emit({g}, build::Sum{}.axis(axes));
  return reshape(r, target);
}

Value* GradContext::expandReduced(Value* g, const std::vector<bool>& reduced, const Shape& shape) {
  Shape kept = shape;
  for (size_t i = 0; i < shape.size(); ++i)
    if (reduced[i]) kept[i] = 1;
  Value* r = reshape(g, kept);
  if (kept != shape) r = emit({r}, build::Broadcast{}.shape(shape));
  return r;
}

std::vector<bool> GradContext::reducedAxes(size_t rank) const {
  std::vector<bool> reduced(rank, false);
  const pir::attrs::AxesValue axes = pir::attrs::View<pir::attrs::kernelFamily("Reduce")>{op}.axis();
  if (axes.all) {
    reduced.assign(rank, true);
    return reduced;
  }
  for (int64_t ax : axes.axes) reduced[static_cast<size_t>(normAxis(ax, rank))] = true;
  return reduced;
}

namespace {

// ---- shared pieces -------------------------------------------------------------------

// Gathers along `axis` of `v` with a constant index: out[.., q, ..] = v[.., index[q], ..],
// where index[q] == v's length on the axis selects zero.
Value* spread(GradContext& c, Value* v, int64_t axis, const std::vector<int64_t>& index) {
  Shape slab = v->type->shape;
  const int64_t len = slab[static_cast<size_t>(axis)];
  bool identity = static_cast<int64_t>(index.size()) == len;
  for (size_t q = 0; identity && q < index.size(); ++q) identity = index[q] == static_cast<int64_t>(q);
  if (identity) return v;
  slab[static_cast<size_t>(axis)] = 1;
  Value* z = c.zeros(TensorType{v->type->dtype, slab});
  Value* padded = c.emit({v, z}, build::Concat{}.axis(axis));
  std::vector<double> idx(index.begin(), index.end());
  Value* ic = c.b.constant(TensorType{DType::I32, {static_cast<int64_t>(index.size())}}, std::move(idx));
  return c.emit({padded, ic}, build::Gather{}.axis(axis));
}

// The inverse of a strided selection along one axis: `v` holds, at position j,
// element start + j*step of an axis of length `dim`; returns that axis of length
// `dim` with zeros where nothing was selected.
Value* unselect(GradContext& c, Value* v, int64_t axis, int64_t dim, int64_t start, int64_t step) {
  const int64_t count = v->type->shape[static_cast<size_t>(axis)];
  std::vector<int64_t> index(static_cast<size_t>(dim), count);
  for (int64_t j = 0; j < count; ++j) index[static_cast<size_t>(start + j * step)] = j;
  return spread(c, v, axis, index);
}

Value* mulBy(GradContext& c, Value* g, Value* m) { return c.emit(OpCode::Mul, {g, m}); }
Value* maskOf(GradContext& c, Value* boolean, DType dtype) { return c.cast(boolean, dtype); }

void giveSummed(GradContext& c, size_t i, Value* g) {
  if (c.wants(i)) c.give(i, c.sumTo(g, c.inType(i).shape));
}

// Moves the axes marked in `reduced` to the end (stable), returns the permutation.
std::vector<int64_t> reducedLastPerm(const std::vector<bool>& reduced) {
  std::vector<int64_t> perm;
  for (size_t i = 0; i < reduced.size(); ++i)
    if (!reduced[i]) perm.push_back(static_cast<int64_t>(i));
  for (size_t i = 0; i < reduced.size(); ++i)
    if (reduced[i]) perm.push_back(static_cast<int64_t>(i));
  return perm;
}
std::vector<int64_t> inversePerm(const std::vector<int64_t>& perm) {
  std::vector<int64_t> inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inv[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  return inv;
}
bool isIdentityPerm(const std::vector<int64_t>& p) {
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] != static_cast<int64_t>(i)) return false;
  return true;
}
Value* transpose(GradContext& c, Value* v, const std::vector<int64_t>& perm) {
  if (isIdentityPerm(perm)) return v;
  return c.emit({v}, build::Transpose{}.perm(perm));
}

// A 0/1 mask (dtype of x) of the first element, in row-major order over the
// reduced axes, where `hit` (bool, x's shape) is true.
Value* firstHit(GradContext& c, Value* hit, const std::vector<bool>& reduced, DType dtype) {
  const Shape& shape = hit->type->shape;
  std::vector<int64_t> perm = reducedLastPerm(reduced);
  Value* h = transpose(c, maskOf(c, hit, dtype), perm);
  Shape moved = h->type->shape;
  Shape flat;
  int64_t r = 1;
  for (size_t i = 0; i < shape.size(); ++i)
    if (!reduced[i]) flat.push_back(shape[i]);
    else r *= shape[i];
  flat.push_back(r);
  Value* f = c.reshape(h, flat);
  Value* cum = c.emit({f}, build::CumSum{}.axis(static_cast<int64_t>(flat.size()) - 1));
  Value* once = maskOf(c, c.emitLit(OpCode::Equal, cum, 1), dtype);
  Value* first = c.emit(OpCode::Mul, {f, once});
  return transpose(c, c.reshape(first, moved), inversePerm(perm));
}

// ---- elementwise unary -------------------------------------------------------------

void unaryGive(GradContext& c, Value* d) { c.give(0, d); }

}  // namespace

#define RULE(Id) void grad##Id(GradContext& c)

// Which operands of a differentiable row carry a gradient: every one, unless
// the row's rule says otherwise beside it (GRAD_OPERANDS(Fmod, i == 0)).
template <OpCode>
struct GradOperands {
  static constexpr bool carries(size_t) { return true; }
};
#define GRAD_OPERANDS(Id, carriesOperandI)                                     \
  template <>                                                                  \
  struct GradOperands<OpCode::Id> {                                            \
    static constexpr bool carries([[maybe_unused]] size_t i) { return carriesOperandI; } \
  };

RULE(Abs) {
  Value* g = c.grad(0);
  unaryGive(c, mulBy(c, g, c.emit(OpCode::Sign, {c.inValue(0)})));
}
RULE(Neg) { unaryGive(c, c.emit(OpCode::Neg, {c.grad(0)})); }
RULE(Exp) { unaryGive(c, mulBy(c, c.grad(0), c.out(0))); }
RULE(Log) { unaryGive(c, c.emit(OpCode::Div, {c.grad(0), c.inValue(0)})); }
RULE(Log2) {
  Value* scaled = c.emitLit(OpCode::Mul, c.inValue(0), std::log(2.0));
  unaryGive(c, c.emit(OpCode::Div, {c.grad(0), scaled}));
}
RULE(Sqrt) { unaryGive(c, c.emit(OpCode::Div, {c.grad(0), c.emitLit(OpCode::Mul, c.out(0), 2)})); }
RULE(Rsqrt) {
  // d/dx x^-1/2 = -1/2 x^-3/2 = -1/2 * y / x
  Value* r = c.emit(OpCode::Div, {c.out(0), c.inValue(0)});
  unaryGive(c, mulBy(c, c.grad(0), c.emitLit(OpCode::Mul, r, -0.5)));
}
RULE(Reciprocal) {
  Value* y = c.out(0);
  unaryGive(c, c.emit(OpCode::Neg, {mulBy(c, c.grad(0), c.emit(OpCode::Mul, {y, y}))}));
}
RULE(Square) { unaryGive(c, mulBy(c, c.grad(0), c.emitLit(OpCode::Mul, c.inValue(0), 2))); }
RULE(Sin) { unaryGive(c, mulBy(c, c.grad(0), c.emit(OpCode::Cos, {c.inValue(0)}))); }
RULE(Cos) { unaryGive(c, c.emit(OpCode::Neg, {mulBy(c, c.grad(0), c.emit(OpCode::Sin, {c.inValue(0)}))})); }
RULE(Tanh) {
  Value* y = c.out(0);
  Value* d = c.emit(OpCode::Sub, {literal(1), val(c.emit(OpCode::Mul, {y, y}))});
  unaryGive(c, mulBy(c, c.grad(0), d));
}
RULE(Sigmoid) {
  Value* y = c.out(0);
  Value* d = c.emit(OpCode::Mul, {y, c.emit(OpCode::Sub, {literal(1), val(y)})});
  unaryGive(c, mulBy(c, c.grad(0), d));
}
RULE(Relu) {
  // The mask from the result: y > 0 exactly where x > 0 (relu keeps a NaN, which is
  // not > 0, and maps -0 to -0), and the forward pass need not keep x, only y, which
  // the next op reads anyway (a bias add fused with relu no longer writes its sum).
  Value* y = c.out(0);
  unaryGive(c, mulBy(c, c.grad(0), maskOf(c, c.emitLit(OpCode::Greater, y, 0), y->type->dtype)));
}
RULE(Gelu) {
  // One gelu_grad: g * dy/dx, y = x/2 (1 + tanh(u)), u = k (x + 0.044715 x^3), k = sqrt(2/pi)
  // (the formula and its order of operations are the kernel's, vm/simd_impl.h vgeluGrad).
  unaryGive(c, c.emit(OpCode::GeluGrad, {c.inValue(0), c.grad(0)}));
}
RULE(GeluErf) {
  // y = x Phi(x): dy/dx = Phi(x) + x phi(x). Phi(x) = y / x, and 1/2 at x = 0 (the
  // division's nan at 0 is not selected): the forward's result reused, one division
  // rather than an erf over the tensor again; relative to Phi for negative x too, as y
  // is (0 where y underflows, where x phi(x) is as small).
  Value* x = c.inValue(0);
  const DType dt = x->type->dtype;
  Value* isZero = c.emitLit(OpCode::Equal, x, 0);
  Value* cdf = c.emit(OpCode::Where, {isZero, c.scalar(dt, 0.5), c.emit(OpCode::Div, {c.out(0), x})});
  Value* x2 = c.emit(OpCode::Mul, {x, x});
  Value* pdf = c.emitLit(OpCode::Mul, c.emit(OpCode::Exp, {c.emitLit(OpCode::Mul, x2, -0.5)}), 1.0 / std::sqrt(2 * M_PI));
  Value* d = c.emit(OpCode::Add, {cdf, c.emit(OpCode::Mul, {x, pdf})});
  unaryGive(c, mulBy(c, c.grad(0), d));
}
RULE(Erf) {
  // d/dx erf(x) = 2/sqrt(pi) exp(-x^2)
  Value* x = c.inValue(0);
  Value* e = c.emit(OpCode::Exp, {c.emitLit(OpCode::Mul, c.emit(OpCode::Mul, {x, x}), -1)});
  unaryGive(c, mulBy(c, c.grad(0), c.emitLit(OpCode::Mul, e, 2.0 / std::sqrt(M_PI))));
}
RULE(Swish) {
  // y = x s(x): dy/dx = s (1 + x (1 - s))
  Value* x = c.inValue(0);
  Value* s = c.emit(OpCode::Sigmoid, {x});
  Value* oneMinus = c.emit(OpCode::Sub, {literal(1), val(s)});
  Value* d = c.emit(OpCode::Mul, {s, c.emitLit(OpCode::Add, c.emit(OpCode::Mul, {x, oneMinus}), 1)});
  unaryGive(c, mulBy(c, c.grad(0), d));
}
RULE(Softplus) { unaryGive(c, mulBy(c, c.grad(0), c.emit(OpCode::Sigmoid, {c.inValue(0)}))); }
RULE(Cast) { unaryGive(c, c.cast(c.grad(0), c.inType(0).dtype)); }
RULE(Identity) { unaryGive(c, c.grad(0)); }
RULE(IpuCopy) { unaryGive(c, c.grad(0)); }
RULE(IoTileCopy) { unaryGive(c, c.grad(0)); }
RULE(Clip) {
  // The gradient passes where min <= x <= max (PyTorch clamp's convention).
  Value* x = c.inValue(0);
  const pir::attrs::Clip clip{c.op};
  Value* lo = c.emitLit(OpCode::GreaterEqual, x, clip.min());
  Value* hi = c.emitLit(OpCode::LessEqual, x, clip.max());
  Value* inside = c.emit(OpCode::LogicalAnd, {lo, hi});
  unaryGive(c, mulBy(c, c.grad(0), maskOf(c, inside, x->type->dtype)));
}
RULE(PrintTensor) {
  Value* g = c.emit({c.grad(0)}, build::PrintTensor{}.title(std::string(pir::attrs::PrintTensor{c.op}.title()) + "_gradient"));
  unaryGive(c, g);
}

// ---- elementwise binary ------------------------------------------------------------------

RULE(Add) {
  Value* g = c.grad(0);
  giveSummed(c, 0, g);
  giveSummed(c, 1, g);
}
RULE(Sub) {
  Value* g = c.grad(0);
  giveSummed(c, 0, g);
  if (c.wants(1)) giveSummed(c, 1, c.emit(OpCode::Neg, {g}));
}
RULE(Mul) {
  Value* g = c.grad(0);
  // x * x: both contributions are g x, so one product is given twice (their sum is the
  // same bits as two products'), not computed again (a squared error's gradient).
  const Operand& a = c.op.operands[0];
  const Operand& b = c.op.operands[1];
  const bool square = a.kind() == Operand::Kind::Value && b.kind() == Operand::Kind::Value && a.value() == b.value();
  Value* first = nullptr;
  if (c.wants(0)) giveSummed(c, 0, first = c.emit(OpCode::Mul, {val(g), c.in(1)}));
  if (c.wants(1)) giveSummed(c, 1, square && first ? first : c.emit(OpCode::Mul, {val(g), c.in(0)}));
}
RULE(Div) {
  Value* g = c.grad(0);
  if (c.wants(0)) giveSummed(c, 0, c.emit(OpCode::Div, {val(g), c.in(1)}));
  if (c.wants(1)) {
    // d(x/y)/dy = -(x/y)/y
    Value* q = c.emit(OpCode::Div, {val(c.emit(OpCode::Mul, {g, c.out(0)})), c.in(1)});
    giveSummed(c, 1, c.emit(OpCode::Neg, {q}));
  }
}
RULE(Pow) {
  Value* g = c.grad(0);
  // Either operand may be a literal (`pow %x, 3`): take both as values.
  if (c.wants(0)) {
    // y * x^(y-1); a constant y gives a constant y - 1 (which reduce-powers can turn
    // into the product it stands for).
    const std::optional<double> y = passes::scalarConstant(c.op.operands[1]);
    Value* p = y ? c.emitLit(OpCode::Pow, c.inValue(0), *y - 1)
                 : c.emit(OpCode::Pow, {c.inValue(0), c.emitLit(OpCode::Sub, c.inValue(1), 1)});
    giveSummed(c, 0, c.emit(OpCode::Mul, {val(c.emit(OpCode::Mul, {g, p})), c.in(1)}));
  }
  if (c.wants(1)) {
    Value* lx = c.emit(OpCode::Log, {c.inValue(0)});
    giveSummed(c, 1, c.emit(OpCode::Mul, {c.emit(OpCode::Mul, {g, c.out(0)}), lx}));
  }
}
GRAD_OPERANDS(Fmod, i == 0)  // y: a step function of y, no gradient taken
RULE(Fmod) { giveSummed(c, 0, c.grad(0)); }

// maximum/minimum: operand k gets the gradient where it is the first operand
// holding the result (ties go to the earliest).
void extremeGrad(GradContext& c, OpCode strictlyBetter, OpCode pairwise) {
  Value* g = c.grad(0);
  const size_t n = c.op.operands.size();
  const DType dt = g->type->dtype;
  // better[k]: operand k beats the running extreme of operands 0..k-1.
  std::vector<Value*> better(n, nullptr);
  Value* best = c.inValue(0);
  for (size_t k = 1; k < n; ++k) {
    Value* xk = c.inValue(k);
    better[k] = c.emit(strictlyBetter, {xk, best});
    if (k + 1 < n) best = c.emit(pairwise, {best, xk});
  }
  // Operand k owns an element when it beats all before it and none after it does.
  Value* noneLater = nullptr;  // bool: no operand after k beats its predecessors
  for (size_t k = n; k-- > 0;) {
    Value* owns = k == 0 ? noneLater : (noneLater ? c.emit(OpCode::LogicalAnd, {better[k], noneLater}) : better[k]);
    if (c.wants(k)) {
      Value* part = owns ? mulBy(c, g, maskOf(c, owns, dt)) : g;
      giveSummed(c, k, part);
    }
    if (k > 0) {
      Value* notBetter = c.emit(OpCode::LogicalNot, {better[k]});
      noneLater = noneLater ? c.emit(OpCode::LogicalAnd, {noneLater, notBetter}) : notBetter;
    }
  }
}
RULE(Maximum) { extremeGrad(c, OpCode::Greater, OpCode::Maximum); }
RULE(Minimum) { extremeGrad(c, OpCode::Less, OpCode::Minimum); }
GRAD_OPERANDS(Where, i != 0)  // the condition
RULE(Where) {
  Value* g = c.grad(0);
  Value* cond = c.inValue(0);
  const DType dt = g->type->dtype;
  if (c.wants(1)) giveSummed(c, 1, mulBy(c, g, maskOf(c, cond, dt)));
  if (c.wants(2)) giveSummed(c, 2, mulBy(c, g, maskOf(c, c.emit(OpCode::LogicalNot, {cond}), dt)));
}

// ---- reductions ---------------------------------------------------------------------------

namespace {
int64_t reducedCount(const Shape& s, const std::vector<bool>& reduced) {
  int64_t n = 1;
  for (size_t i = 0; i < s.size(); ++i)
    if (reduced[i]) n *= s[i];
  return n;
}
// The forward result, reshaped/broadcast back to the input's shape.
Value* expandedOut(GradContext& c, const std::vector<bool>& reduced) {
  return c.expandReduced(c.out(0), reduced, c.inType(0).shape);
}
}  // namespace

RULE(Sum) {
  auto reduced = c.reducedAxes(c.inType(0).shape.size());
  c.give(0, c.expandReduced(c.grad(0), reduced, c.inType(0).shape));
}
RULE(Mean) {
  const Shape& s = c.inType(0).shape;
  auto reduced = c.reducedAxes(s.size());
  Value* g = c.emitLit(OpCode::Mul, c.grad(0), 1.0 / static_cast<double>(std::max<int64_t>(1, reducedCount(s, reduced))));
  c.give(0, c.expandReduced(g, reduced, s));
}
RULE(Prod) {
  // d prod / dx_i = product of the others. With z zeros among the reduced
  // elements: z = 0 -> y / x_i; z = 1 -> the product of the non-zeros at the
  // zero, 0 elsewhere; z > 1 -> 0. Computed without dividing by zero.
  const Shape& s = c.inType(0).shape;
  auto reduced = c.reducedAxes(s.size());
  Value* x = c.inValue(0);
  const DType dt = x->type->dtype;
  std::vector<int64_t> axes;
  for (size_t i = 0; i < s.size(); ++i)
    if (reduced[i]) axes.push_back(static_cast<int64_t>(i));
  Value* isZero = maskOf(c, c.emitLit(OpCode::Equal, x, 0), dt);
  Value* xNonZero = c.emit(OpCode::Add, {x, isZero});  // zeros replaced by ones
  Value* pNonZero = c.emit({xNonZero}, build::Prod{}.axis(axes).keepdims(true));
  Value* zeros = c.emit({isZero}, build::Sum{}.axis(axes).keepdims(true));
  Value* noZero = maskOf(c, c.emitLit(OpCode::Equal, zeros, 0), dt);
  Value* oneZero = maskOf(c, c.emitLit(OpCode::Equal, zeros, 1), dt);
  Value* atNonZero = c.emit(OpCode::Div, {c.emit(OpCode::Mul, {pNonZero, noZero}), xNonZero});
  Value* atZero = c.emit(OpCode::Mul, {c.emit(OpCode::Mul, {pNonZero, oneZero}), isZero});
  Value* d = c.emit(OpCode::Add, {c.emit(OpCode::Mul, {atNonZero, c.emit(OpCode::Sub, {literal(1), val(isZero)})}), atZero});
  c.give(0, mulBy(c, c.expandReduced(c.grad(0), reduced, s), d));
}
void extremeReduceGrad(GradContext& c) {
  const Shape& s = c.inType(0).shape;
  auto reduced = c.reducedAxes(s.size());
  Value* x = c.inValue(0);
  Value* hit = c.emit(OpCode::Equal, {x, expandedOut(c, reduced)});
  Value* first = firstHit(c, hit, reduced, x->type->dtype);
  c.give(0, mulBy(c, c.expandReduced(c.grad(0), reduced, s), first));
}
RULE(Max) { extremeReduceGrad(c); }
RULE(Min) { extremeReduceGrad(c); }
RULE(SumSquare) {
  const Shape& s = c.inType(0).shape;
  auto reduced = c.reducedAxes(s.size());
  Value* twoX = c.emitLit(OpCode::Mul, c.inValue(0), 2);
  c.give(0, mulBy(c, c.expandReduced(c.grad(0), reduced, s), twoX));
}
RULE(LogSumExp) {
  const Shape& s = c.inType(0).shape;
  auto reduced = c.reducedAxes(s.size());
  Value* w = c.emit(OpCode::Exp, {c.emit(OpCode::Sub, {c.inValue(0), expandedOut(c, reduced)})});
  c.give(0, mulBy(c, c.expandReduced(c.grad(0), reduced, s), w));
}
RULE(L1) {
  const Shape& s = c.inType(0).shape;
  auto reduced = c.reducedAxes(s.size());
  c.give(0, mulBy(c, c.expandReduced(c.grad(0), reduced, s), c.emit(OpCode::Sign, {c.inValue(0)})));
}
RULE(L2) {
  // d |x| / dx = x / |x|, and 0 where |x| = 0 (PyTorch's subgradient at the zero
  // vector), computed without dividing by zero.
  const Shape& s = c.inType(0).shape;
  auto reduced = c.reducedAxes(s.size());
  Value* x = c.inValue(0);
  Value* norm = expandedOut(c, reduced);
  Value* isZero = maskOf(c, c.emitLit(OpCode::Equal, norm, 0), x->type->dtype);
  Value* w = c.emit(OpCode::Div, {x, c.emit(OpCode::Add, {norm, isZero})});
  w = c.emit(OpCode::Mul, {w, c.emit(OpCode::Sub, {literal(1), val(isZero)})});
  c.give(0, mulBy(c, c.expandReduced(c.grad(0), reduced, s), w));
}
RULE(CumSum) {
  // y = M x along the axis, M the triangle of ones (strictly so when exclusive):
  // the gradient M^T g is the cumsum of g in the other direction, exclusive alike.
  Value* g = c.grad(0);
  const pir::attrs::CumSum attr{c.op};
  c.give(0, c.emit({g}, build::CumSum{}.axis(attr.axis()).exclusive(attr.exclusive()).reverse(!attr.reverse())));
}
RULE(TopK) {
  Value* g = c.grad(0);
  if (!g) return;
  const size_t rank = c.inType(0).shape.size();
  const int64_t axis = c.normAxis(pir::attrs::TopK{c.op}.axis(), rank);
  Value* z = c.zeros(c.inType(0));
  c.give(0, c.emit({z, c.out(1), g}, build::Scatter{}.axis(axis)));
}
// f32 and f64 take the one-kernel gradients (the same bits as the chains below);
// other float types keep the chains, whose roundings to that type after every op
// the kernels do not repeat.
bool oneKernelSoftmaxGrad(const TensorType& y) { return y.dtype == DType::F32 || y.dtype == DType::F64; }
RULE(Softmax) {
  const int64_t axis = pir::attrs::Softmax{c.op}.axis();
  Value* y = c.out(0);
  if (oneKernelSoftmaxGrad(y->type)) {
    c.give(0, c.emit({y, c.grad(0)}, build::SoftmaxGrad{}.axis(axis)));
    return;
  }
  Value* gy = c.emit(OpCode::Mul, {c.grad(0), y});
  Value* s = c.emit({gy}, build::Sum{}.axis(axis).keepdims(true));
  c.give(0, c.emit(OpCode::Sub, {gy, c.emit(OpCode::Mul, {y, s})}));
}
RULE(LogSoftmax) {
  const int64_t axis = pir::attrs::LogSoftmax{c.op}.axis();
  Value* g = c.grad(0);
  if (oneKernelSoftmaxGrad(c.out(0)->type)) {
    c.give(0, c.emit({c.out(0), g}, build::LogSoftmaxGrad{}.axis(axis)));
    return;
  }
  Value* s = c.emit({g}, build::Sum{}.axis(axis).keepdims(true));
  Value* p = c.emit(OpCode::Exp, {c.out(0)});
  c.give(0, c.emit(OpCode::Sub, {g, c.emit(OpCode::Mul, {p, s})}));
}
GRAD_OPERANDS(NllLoss, i == 0)  // the labels
RULE(NllLoss) {
  // loss_r = -w[t_r] * p[r, t_r] (log_prob) or -w[t_r] * log p[r, t_r], for rows whose
  // label is not ignored, w the class weights (1 without them); mean divides by
  // the sum of those rows' w[t_r].
  const TensorType& pt = c.inType(0);
  const DType dt = pt.dtype;
  const int64_t classes = pt.shape.back();
  Value* labels = c.inValue(1);
  Value* g = c.grad(0);
  const pir::attrs::NllLoss attr{c.op};
  const LossReduction reduction = attr.reduction();
  Value* kept = nullptr;  // bool per row (labels' shape), when ignore_index is given
  if (const std::optional<int64_t> ignore = attr.ignore_index())
    kept = c.emitLit(OpCode::NotEqual, labels, static_cast<double>(*ignore));
  Value* keep = kept ? maskOf(c, kept, dt) : nullptr;  // 0/1
  // Each counted row's weight (labels' shape): its label's class weight, 0 when ignored.
  Value* counted = keep;
  if (c.op.operands.size() > 2) {
    // An ignored label may lie outside [0, C): its row reads class 0's weight, masked off.
    Value* safe = kept ? c.emit(OpCode::Where, {kept, labels, c.scalar(labels->type->dtype, 0)}) : labels;
    Value* w = c.emit({c.inValue(2), safe}, build::Gather{}.axis(0));
    counted = keep ? c.emit(OpCode::Mul, {w, keep}) : w;
  }
  Value* rowWeight;  // labels' shape
  if (reduction == LossReduction::None) {
    rowWeight = counted ? c.emit(OpCode::Mul, {g, counted}) : g;
  } else {
    Value* scale = g;
    if (reduction == LossReduction::Mean) {
      Value* total = counted ? c.emit(OpCode::Sum, {counted})
                             : c.scalar(dt, static_cast<double>(numElements(c.inType(1).shape)));
      scale = c.emit(OpCode::Div, {g, total});
    }
    rowWeight = counted ? c.emit(OpCode::Mul, {counted, scale})
                        : c.emit({scale}, build::Broadcast{}.shape(c.inType(1).shape));
  }
  Shape column = c.inType(1).shape;
  column.push_back(1);
  Value* w = c.reshape(rowWeight, column);
  Value* onehot = c.emit({labels}, build::OneHot{}.num_classes(classes).dtype(dt));
  Value* d = c.emit(OpCode::Mul, {onehot, w});
  if (!attr.log_prob()) d = c.emit(OpCode::Div, {d, c.inValue(0)});
  c.give(0, c.emit(OpCode::Neg, {d}));
}

namespace {
// Per-channel parameter (shape [C]) as [C, 1, ..., 1] for channels on axis 1 of `rank`.
Value* channelColumn(GradContext& c, Value* p, size_t rank) {
  Shape s(rank - 1, 1);
  s[0] = p->type->shape[0];
  return c.reshape(p, s);
}
std::vector<int64_t> allBut(size_t rank, size_t keep) {
  std::vector<int64_t> axes;
  for (size_t i = 0; i < rank; ++i)
    if (i != keep) axes.push_back(static_cast<int64_t>(i));
  return axes;
}
}  // namespace

// A norm's gradient op (x, gamma, g) -> dx, dgamma, dbeta gives all three; beta does
// not enter it.
template <class GradOp> void giveNormGrads(GradContext& c, const GradOp& grad) {
  Op* grads = c.b.create({val(c.inValue(0)), val(c.inValue(1)), val(c.grad(0))}, grad);
  for (size_t i = 0; i < 3; ++i)
    if (c.wants(i)) c.give(i, grads->results[i]);
}
RULE(LayerNorm) {
  const pir::attrs::LayerNorm attr{c.op};
  giveNormGrads(c, build::LayerNormGrad{}.epsilon(attr.epsilon()).axis(attr.axis()));
}
RULE(GroupNorm) {
  const pir::attrs::GroupNorm attr{c.op};
  giveNormGrads(c, build::GroupNormGrad{}.groups(attr.groups()).epsilon(attr.epsilon()));
}
GRAD_OPERANDS(BatchNormInference, i == 0)  // the statistics
RULE(BatchNormInference) {
  Value* g = c.grad(0);
  const size_t rank = g->type->shape.size();
  Value* rstd = c.emit(OpCode::Rsqrt, {c.emitLit(OpCode::Add, c.inValue(4), pir::attrs::BatchNormInference{c.op}.epsilon())});
  Value* factor = c.emit(OpCode::Mul, {c.inValue(1), rstd});
  c.give(0, c.emit(OpCode::Mul, {g, channelColumn(c, factor, rank)}));
}

// ---- linear algebra ------------------------------------------------------------------------

namespace {
Value* swapLast2(GradContext& c, Value* v) {
  const size_t r = v->type->shape.size();
  std::vector<int64_t> perm(r);
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[r - 1], perm[r - 2]);
  return transpose(c, v, perm);
}
}  // namespace

RULE(MatMul) {
  // NumPy matmul: a 1-D operand is promoted ([k] -> [1,k] on the left, [k,1] on
  // the right); batch dimensions broadcast. Work on the promoted forms, then
  // sum the broadcast batch dimensions away and undo the promotion. An operand
  // read transposed (ir/matmul_operands.h) is worked on as multiplied, and its
  // gradient transposed back to the stored layout.
  const bool ta = matmulReadsTransposed(c.op, 0), tb = matmulReadsTransposed(c.op, 1);
  const Shape sa = matmulOperandShape(c.op, 0), sb = matmulOperandShape(c.op, 1);
  Shape pa = sa, pb = sb;
  if (sa.size() == 1) pa.insert(pa.begin(), 1);
  if (sb.size() == 1) pb.push_back(1);
  // Each gradient needs only the other operand: take activations lazily.
  auto a = [&] { return c.reshape(ta ? swapLast2(c, c.inValue(0)) : c.inValue(0), pa); };
  auto b = [&] { return c.reshape(tb ? swapLast2(c, c.inValue(1)) : c.inValue(1), pb); };
  auto stored = [&](bool transposed, Value* v) { return transposed ? swapLast2(c, v) : v; };
  Value* g = c.grad(0);
  Shape pg = g->type->shape;
  if (sb.size() == 1) pg.push_back(1);
  if (sa.size() == 1) pg.insert(pg.end() - 1, 1);
  g = c.reshape(g, pg);
  if (c.wants(0)) c.give(0, stored(ta, c.reshape(c.sumTo(c.emit(OpCode::MatMul, {g, swapLast2(c, b())}), pa), sa)));
  if (c.wants(1)) c.give(1, stored(tb, c.reshape(c.sumTo(c.emit(OpCode::MatMul, {swapLast2(c, a()), g}), pb), sb)));
}

namespace {
Value* sliceAxes(GradContext& c, Value* v, const std::vector<int64_t>& start, const std::vector<int64_t>& stop,
                 const std::vector<int64_t>& step, const std::vector<int64_t>& axes) {
  return c.emit({v}, build::Slice{}.start(start).stop(stop).step(step).axes(axes));
}
// The forward op's window (ir/window.h), resolved: a conv's kernel is its
// weights' spatial shape. The gradient ops are given it written out in full.
Window forwardWindow(GradContext& c, const std::vector<int64_t>* convKernel) {
  std::optional<WindowFault> fault;  // none: the forward op verified
  return resolveWindow(c.op, c.inType(0).shape.size() - 2, convKernel, fault);
}
}  // namespace

RULE(Conv) {
  // conv_grad_weight and conv_grad_input: the forward conv's window, and the shape
  // of the gradient they produce.
  const Shape xs = c.inType(0).shape, ws = c.inType(1).shape;
  const std::vector<int64_t> kernel(ws.begin() + 2, ws.end());
  const Window w = forwardWindow(c, &kernel);
  const int64_t groups = pir::attrs::Conv{c.op}.groups();
  Value* g = c.grad(0);
  if (c.wants(1))
    c.give(1, c.emit({c.inValue(0), g}, build::ConvGradWeight{}
                                            .shape(ws)
                                            .stride(w.stride)
                                            .padding(w.padding())
                                            .dilation(w.dilation)
                                            .groups(groups)));
  if (c.op.operands.size() > 2 && c.wants(2)) c.give(2, c.emit({g}, build::Sum{}.axis(allBut(xs.size(), 1))));
  if (c.wants(0))
    c.give(0, c.emit({g, c.inValue(1)}, build::ConvGradInput{}
                                            .shape(xs)
                                            .stride(w.stride)
                                            .padding(w.padding())
                                            .dilation(w.dilation)
                                            .groups(groups)));
}

RULE(ConvTranspose) {
  // conv_transpose is the input gradient of a conv with the same window and
  // weights, so its gradients are that conv (for x) and that conv's weight
  // gradient with the roles of its input and output swapped (for w).
  const Shape ws = c.inType(1).shape;
  const std::vector<int64_t> kernel(ws.begin() + 2, ws.end());
  const Window w = forwardWindow(c, &kernel);
  const int64_t groups = pir::attrs::ConvTranspose{c.op}.groups();
  Value* g = c.grad(0);
  if (c.wants(0))
    c.give(0, c.emit({g, c.inValue(1)},
                     build::Conv{}.stride(w.stride).padding(w.padding()).dilation(w.dilation).groups(groups)));
  if (c.op.operands.size() > 2 && c.wants(2)) c.give(2, c.emit({g}, build::Sum{}.axis(allBut(g->type->shape.size(), 1))));
  if (c.wants(1))
    c.give(1, c.emit({g, c.inValue(0)}, build::ConvGradWeight{}
                                            .shape(ws)
                                            .stride(w.stride)
                                            .padding(w.padding())
                                            .dilation(w.dilation)
                                            .groups(groups)));
}
RULE(Einsum) {
  // Each operand's gradient is an einsum of the output gradient and the other
  // operand onto the letters it shares with them; letters the operand alone
  // has were summed, so their gradient is that einsum broadcast along them.
  std::string problem;
  const std::optional<einsum::Plan> p =
      einsum::plan(pir::attrs::Einsum{c.op}.equation(), c.inType(0).shape, c.inType(1).shape, problem);
  Value* g = c.grad(0);
  for (int which = 0; which < 2; ++which) {
    if (!c.wants(static_cast<size_t>(which))) continue;
    const std::string& self = which == 0 ? p->a : p->b;
    const std::string& other = which == 0 ? p->b : p->a;
    const Shape& shape = c.inType(static_cast<size_t>(which)).shape;
    std::string shared;
    Shape kept = shape;
    for (size_t d = 0; d < self.size(); ++d) {
      if (other.find(self[d]) != std::string::npos || p->out.find(self[d]) != std::string::npos) shared += self[d];
      else kept[d] = 1;
    }
    Value* otherValue = c.inValue(static_cast<size_t>(1 - which));
    const std::string equation = which == 0 ? p->out + "," + other + "->" + shared : other + "," + p->out + "->" + shared;
    Value* d = which == 0 ? c.emit({g, otherValue}, build::Einsum{}.equation(equation))
                          : c.emit({otherValue, g}, build::Einsum{}.equation(equation));
    d = c.reshape(d, kept);
    c.give(static_cast<size_t>(which), kept == shape ? d : c.emit({d}, build::Broadcast{}.shape(shape)));
  }
}

// The window attributes a pool gradient op repeats from its forward pool (only
// those not at their defaults, so the gradient prints as written).
template <class Build> Build& poolWindow(Build& b, const Window& w) {
  b.kernel(w.kernel).stride(w.stride).padding(w.padding());
  if (std::any_of(w.dilation.begin(), w.dilation.end(), [](int64_t d) { return d != 1; })) b.dilation(w.dilation);
  if (w.ceilMode) b.ceil_mode(true);
  return b;
}
void maxPoolGrad(GradContext& c) {
  // Each output's gradient goes to the first window element (row-major) equal to
  // the maximum; padding cells are never chosen (max_pool_grad).
  Value* g = c.grad(0);
  if (!g) return;  // max_pool_with_indices: only the indices are used
  build::MaxPoolGrad b;
  c.give(0, c.emit({c.inValue(0), g}, poolWindow(b, forwardWindow(c, nullptr))));
}
RULE(MaxPool) { maxPoolGrad(c); }
// The indices carry no gradient; the values' is max_pool's.
RULE(MaxPoolWithIndices) { maxPoolGrad(c); }
RULE(AveragePool) {
  // Each output averages its real (non-padding) cells, or with count_include_pad
  // every cell inside the padded input: they get g / count (average_pool_grad).
  build::AveragePoolGrad b;
  b.shape(c.inType(0).shape);
  poolWindow(b, forwardWindow(c, nullptr));
  if (pir::attrs::AveragePool{c.op}.count_include_pad()) b.count_include_pad(true);
  c.give(0, c.emit({c.grad(0)}, b));
}

// ---- shapes ------------------------------------------------------------------------------------

RULE(Reshape) { c.give(0, c.reshape(c.grad(0), c.inType(0).shape)); }
RULE(Flatten) { c.give(0, c.reshape(c.grad(0), c.inType(0).shape)); }
RULE(Squeeze) { c.give(0, c.reshape(c.grad(0), c.inType(0).shape)); }
RULE(Unsqueeze) { c.give(0, c.reshape(c.grad(0), c.inType(0).shape)); }
RULE(Transpose) {
  const size_t rank = c.inType(0).shape.size();
  std::vector<int64_t> perm = pir::attrs::Transpose{c.op}.perm().value_or(std::vector<int64_t>{});
  if (perm.empty())
    for (size_t i = 0; i < rank; ++i) perm.push_back(static_cast<int64_t>(rank - 1 - i));
  for (auto& p : perm) p = c.normAxis(p, rank);
  c.give(0, transpose(c, c.grad(0), inversePerm(perm)));
}
RULE(Broadcast) { c.give(0, c.sumTo(c.grad(0), c.inType(0).shape)); }
RULE(Pad) {
  // Each x element gets the gradient of every output it fed (pad_grad).
  const pir::attrs::Pad attr{c.op};
  c.give(0, c.emit({c.grad(0)}, build::PadGrad{}.pads(attr.pads()).mode(attr.mode())));
}
RULE(Tile) {
  // g viewed as [r0, d0, r1, d1, ...]: x's gradient is its sum over the repeats.
  const Shape& xs = c.inType(0).shape;
  const std::vector<int64_t> repeats = pir::attrs::Tile{c.op}.repeats();
  Shape split;
  std::vector<int64_t> axes;
  for (size_t d = 0; d < xs.size(); ++d) {
    axes.push_back(static_cast<int64_t>(split.size()));
    split.push_back(repeats[d]);
    split.push_back(xs[d]);
  }
  Value* g = c.reshape(c.grad(0), split);
  c.give(0, c.reshape(axes.empty() ? g : c.emit({g}, build::Sum{}.axis(axes)), xs));
}
RULE(Trilu) {
  const pir::attrs::Trilu attr{c.op};
  c.give(0, c.emit({c.grad(0)}, build::Trilu{}.upper(attr.upper()).k(attr.k())));
}
RULE(Resize) {
  // Each x element gets g times the weight with which each output read it.
  const pir::attrs::Resize a{c.op};
  build::ResizeGrad r = build::ResizeGrad{}
                            .shape(c.inType(0).shape)
                            .mode(a.mode())
                            .coordinate_transformation_mode(a.coordinate_transformation_mode())
                            .nearest_mode(a.nearest_mode())
                            .extrapolation_value(a.extrapolation_value())
                            .cubic_coeff_a(a.cubic_coeff_a())
                            .exclude_outside(a.exclude_outside());
  if (const std::optional<std::vector<double>> scales = a.scales()) r.scales(*scales);
  if (const std::optional<std::vector<double>> roi = a.roi()) r.roi(*roi);
  c.give(0, c.emit({c.grad(0)}, std::move(r)));
}
RULE(Lrn) {
  const pir::attrs::Lrn a{c.op};
  c.give(0, c.emit({c.inValue(0), c.grad(0)}, build::LrnGrad{}.size(a.size()).alpha(a.alpha()).beta(a.beta()).bias(a.bias())));
}
GRAD_OPERANDS(GatherElements, i == 0)  // the indices
RULE(GatherElements) {
  // Each gathered element's gradient adds into the x element it was read from.
  const int64_t axis = c.normAxis(pir::attrs::GatherElements{c.op}.axis(), c.inType(0).shape.size());
  c.give(0, c.emit({val(c.zeros(c.inType(0))), c.in(1), val(c.grad(0))},
                   build::ScatterElements{}.axis(axis).reduction(ScatterReduction::Add)));
}
GRAD_OPERANDS(ScatterElements, i != 1)  // the indices
RULE(ScatterElements) {
  // none: x keeps g where nothing was written, an update gets g at its target
  // when it is the one that stays (the last of duplicates);
  // add: both get g; mul: x gets g times the product of its updates, an update
  // g * y / update; min, max: the gradient goes to x and to the updates equal
  // to the result (all of them on ties).
  const pir::attrs::ScatterElements a{c.op};
  const int64_t axis = c.normAxis(a.axis(), c.inType(0).shape.size());
  const ScatterReduction reduction = a.reduction();
  Value* g = c.grad(0);
  auto gatherAt = [&](Value* v) { return c.emit({val(v), c.in(1)}, build::GatherElements{}.axis(axis)); };
  const DType dt = c.inType(0).dtype;
  switch (reduction) {
    case ScatterReduction::None:
      if (c.wants(0)) c.give(0, c.emit({val(g), c.in(1), val(c.zeros(c.inType(2)))}, build::ScatterElements{}.axis(axis)));
      if (c.wants(2)) {
        // Only the update that stays (the last of duplicates) gets g: each
        // update's position id, scattered the same way, reads back its own id.
        const Shape& is = c.inType(1).shape;
        Value* ids = c.reshape(c.emit(std::vector<Operand>{}, build::Range{}.start(0).limit(static_cast<double>(numElements(is))).dtype(DType::I32)), is);
        Value* kept = c.emit({val(c.zeros(TensorType{DType::I32, c.inType(0).shape})), c.in(1), val(ids)},
                             build::ScatterElements{}.axis(axis));
        Value* stays = maskOf(c, c.emit(OpCode::Equal, {gatherAt(kept), ids}), dt);
        c.give(2, c.emit(OpCode::Mul, {gatherAt(g), stays}));
      }
      break;
    case ScatterReduction::Add:
      if (c.wants(0)) c.give(0, g);
      if (c.wants(2)) c.give(2, gatherAt(g));
      break;
    case ScatterReduction::Mul:
      if (c.wants(0))
        c.give(0, c.emit({val(g), c.in(1), val(c.inValue(2))}, build::ScatterElements{}.axis(axis).reduction(ScatterReduction::Mul)));
      if (c.wants(2)) c.give(2, c.emit(OpCode::Div, {gatherAt(c.emit(OpCode::Mul, {g, c.out(0)})), c.inValue(2)}));
      break;
    case ScatterReduction::Min:
    case ScatterReduction::Max:
      if (c.wants(0)) c.give(0, c.emit(OpCode::Mul, {g, maskOf(c, c.emit(OpCode::Equal, {c.out(0), c.inValue(0)}), dt)}));
      if (c.wants(2))
        c.give(2, c.emit(OpCode::Mul, {gatherAt(g), maskOf(c, c.emit(OpCode::Equal, {gatherAt(c.out(0)), c.inValue(2)}), dt)}));
      break;
  }
}
RULE(Concat) {
  Value* g = c.grad(0);
  const size_t rank = g->type->shape.size();
  const int64_t axis = c.normAxis(pir::attrs::Concat{c.op}.axis(), rank);
  std::vector<int64_t> sizes;
  for (size_t i = 0; i < c.op.operands.size(); ++i) sizes.push_back(c.inType(i).shape[static_cast<size_t>(axis)]);
  if (sizes.size() == 1) return c.give(0, g);
  Op* split = c.b.create({val(g)}, build::Split{}.splits(sizes).axis(axis));
  for (size_t i = 0; i < sizes.size(); ++i)
    if (c.wants(i)) c.give(i, split->results[i]);
}
RULE(Split) {
  const size_t rank = c.inType(0).shape.size();
  const int64_t axis = c.normAxis(pir::attrs::Split{c.op}.axis(), rank);
  std::vector<Operand> parts;
  for (size_t k = 0; k < c.op.results.size(); ++k) parts.push_back(val(c.gradOrZeros(k)));
  c.give(0, parts.size() == 1 ? parts[0].value() : c.emit(std::move(parts), build::Concat{}.axis(axis)));
}
RULE(Slice) {
  // Per sliced axis, the NumPy-normalised start and step place the gradient back.
  const Shape& xs = c.inType(0).shape;
  const pir::attrs::Slice attr{c.op};
  std::vector<int64_t> start = attr.start(), stop = attr.stop(), step = attr.step().value_or(std::vector<int64_t>{}),
                       axes = attr.axes().value_or(std::vector<int64_t>{});
  const size_t n = start.size();
  if (step.empty()) step.assign(n, 1);
  if (axes.empty())
    for (size_t i = 0; i < n; ++i) axes.push_back(static_cast<int64_t>(i));
  // Axes of step 1 are placed back by one zero `pad` (a copy of g into zeros), the others
  // one axis at a time.
  Value* g = c.grad(0);
  const size_t rank = xs.size();
  std::vector<int64_t> pads(2 * rank, 0);
  bool padded = false;
  for (size_t i = 0; i < n; ++i) {
    const int64_t ax = c.normAxis(axes[i], rank);
    const int64_t dim = xs[static_cast<size_t>(ax)];
    int64_t s = start[i];
    if (s < 0) s += dim;
    s = step[i] > 0 ? std::clamp<int64_t>(s, 0, dim) : std::clamp<int64_t>(s, -1, dim - 1);
    if (step[i] == 1 && pads[static_cast<size_t>(ax)] == 0 && pads[rank + static_cast<size_t>(ax)] == 0) {
      const int64_t count = g->type->shape[static_cast<size_t>(ax)];
      pads[static_cast<size_t>(ax)] = s;
      pads[rank + static_cast<size_t>(ax)] = dim - s - count;
      padded = padded || count != dim;
      continue;
    }
    g = unselect(c, g, ax, dim, s, step[i]);
  }
  c.give(0, padded ? c.emit({g}, build::Pad{}.pads(pads)) : g);
}
RULE(Subsample) {
  const Shape& xs = c.inType(0).shape;
  std::vector<int64_t> strides = pir::attrs::Subsample{c.op}.strides();
  Value* g = c.grad(0);
  for (size_t i = 0; i < strides.size(); ++i) g = unselect(c, g, static_cast<int64_t>(i), xs[i], 0, strides[i]);
  c.give(0, g);
}
GRAD_OPERANDS(DynamicSlice, i == 0)  // the index
RULE(DynamicSlice) {
  // dynamic_update clamps its index exactly as dynamic_slice does.
  Value* z = c.zeros(c.inType(0));
  c.give(0, c.emit({val(z), c.in(1), val(c.grad(0))},
                   build::DynamicUpdate{}.axes(pir::attrs::DynamicSlice{c.op}.axes()).sizes(pir::attrs::DynamicSlice{c.op}.sizes())));
}
GRAD_OPERANDS(DynamicUpdate, i != 1)  // the index
RULE(DynamicUpdate) {
  Value* g = c.grad(0);
  const pir::attrs::DynamicUpdate attr{c.op};
  if (c.wants(0))
    c.give(0, c.emit({val(g), c.in(1), val(c.zeros(c.inType(2)))}, build::DynamicUpdate{}.axes(attr.axes()).sizes(attr.sizes())));
  if (c.wants(2)) c.give(2, c.emit({val(g), c.in(1)}, build::DynamicSlice{}.axes(attr.axes()).sizes(attr.sizes())));
}
GRAD_OPERANDS(Gather, i == 0)  // the indices
RULE(Gather) {
  // out = x taken at `indices` along `axis`: gather_grad adds each slab of g at its
  // index (repeated indices add up), one pass over g.
  const Shape& xs = c.inType(0).shape;
  const int64_t axis = c.normAxis(pir::attrs::Gather{c.op}.axis(), xs.size());
  c.give(0, c.emit({val(c.grad(0)), c.in(1)}, build::GatherGrad{}.size(xs[static_cast<size_t>(axis)]).axis(axis)));
}
GRAD_OPERANDS(GatherGrad, i == 0)  // the indices
RULE(GatherGrad) {
  // gather_grad is linear in g and gather is its transpose.
  c.give(0, c.emit({val(c.grad(0)), c.in(1)}, build::Gather{}.axis(pir::attrs::GatherGrad{c.op}.axis())));
}
GRAD_OPERANDS(Scatter, i != 1)  // the indices
RULE(Scatter) {
  // y = x with values written at indices (along axis): x keeps the gradient
  // where nothing was written; values[p] gets g at its target.
  const Shape& xs = c.inType(0).shape;
  const Shape& is = c.inType(1).shape;
  const int64_t axis = c.normAxis(pir::attrs::Scatter{c.op}.axis(), xs.size());
  const int64_t D = xs[static_cast<size_t>(axis)];
  Value* g = c.grad(0);
  if (c.wants(0)) c.give(0, c.emit({val(g), c.in(1), val(c.zeros(c.inType(2)))}, build::Scatter{}.axis(axis)));
  if (c.wants(2)) {
    // values[i] went to g's element at indices[i] along the axis: gather_elements of g
    // cut to the index shape off the axis.
    std::vector<int64_t> start(xs.size(), 0), stop(is.begin(), is.end()), step(xs.size(), 1), axes(xs.size());
    std::iota(axes.begin(), axes.end(), 0);
    stop[static_cast<size_t>(axis)] = D;
    Value* gs = sliceAxes(c, g, start, stop, step, axes);
    c.give(2, c.emit({val(gs), c.in(1)}, build::GatherElements{}.axis(axis)));
  }
}

// ---- random ---------------------------------------------------------------------------------

GRAD_OPERANDS(Dropout, i == 0)  // the seed
RULE(Dropout) {
  // The same seed gives the same mask: the gradient is dropout of the gradient.
  c.give(0, c.emit({val(c.grad(0)), c.in(1)}, build::Dropout{}.p(pir::attrs::Dropout{c.op}.p())));
}

// ---- control flow -----------------------------------------------------------------------------

RULE(Call) {
  const Graph& callee = *c.op.callees[0].graph;
  const auto& info = c.calleeGrad(callee);
  std::vector<Operand> args;
  for (size_t k : info.providedOutputs) args.push_back(val(c.gradOrZeros(k)));
  for (const Value* a : info.grad->activations) args.push_back(c.callSiteActivation(c.op, 0, a));
  Op* call = c.b.createCall(*info.grad, std::move(args));
  for (size_t j = 0; j < info.requiredParams.size(); ++j) {
    const size_t operand = c.op.callees[0].firstOperand + info.requiredParams[j];
    if (c.wants(operand)) c.give(operand, call->results[j]);
  }
}
GRAD_OPERANDS(Conditional, i != 0)  // the condition
RULE(Conditional) {
  // Each gradient branch recomputes its forward branch (a differentiated copy)
  // and runs that copy's gradient: branches keep their common signature.
  const auto& info = c.conditionalGrad(c.op);
  std::vector<Operand> args;
  for (size_t k : info.outputs) args.push_back(val(c.gradOrZeros(k)));
  for (size_t i = 1; i < c.op.operands.size(); ++i) args.push_back(c.in(i));
  Op* r = c.b.createConditional(c.in(0), *info.branch[0], args, *info.branch[1], args);
  for (size_t j = 0; j < info.operands.size(); ++j)
    if (c.wants(info.operands[j])) c.give(info.operands[j], r->results[j]);
}

// ---- collectives -----------------------------------------------------------------------------

namespace {
// The forward collective's replica group, on the gradient's collective.
template <OpCode Code>
build::Attrs<Code> withGroup(GradContext& c, build::Attrs<Code> a) {
  using Collectives = pir::attrs::View<pir::attrs::ops(OpCode::AllReduce, OpCode::AllGather, OpCode::ReduceScatter,
                                                       OpCode::ReplicatedSlice)>;
  if (const Attr* g = Collectives{c.op}.group()) a.group(*g);
  return a;
}
}  // namespace

RULE(AllReduce) {
  c.give(0, c.emit({c.grad(0)}, withGroup(c, build::AllReduce{}.op(pir::attrs::AllReduce{c.op}.op()))));
}
RULE(AllGather) {
  Value* g = c.grad(0);
  const pir::attrs::AllGather attr{c.op};
  if (attr.output_shape() == GatherShape::Concat) {
    c.give(0, c.emit({g}, withGroup(c, build::ReplicatedSlice{}.axis(attr.axis()))));
    return;
  }
  Value* s = c.emit({g}, withGroup(c, build::ReplicatedSlice{}.axis(0)));
  c.give(0, c.reshape(s, c.inType(0).shape));
}
RULE(ReduceScatter) {
  Value* all = c.emit({c.grad(0)}, withGroup(c, build::AllGather{}.axis(0).output_shape(GatherShape::Concat)));
  const int64_t n = c.inType(0).numElements();
  if (all->type->shape[0] != n) all = sliceAxes(c, all, {0}, {n}, {1}, {0});
  c.give(0, c.reshape(all, c.inType(0).shape));
}
RULE(ReplicatedSlice) {
  c.give(0, c.emit({c.grad(0)}, withGroup(c, build::AllGather{}
                                                .axis(pir::attrs::ReplicatedSlice{c.op}.axis())
                                                .output_shape(GatherShape::Concat))));
}

#undef GRAD_OPERANDS
#undef RULE

// ---- the table ------------------------------------------------------------------------------

namespace {
// One entry per op: the rule for Grad = Diff rows (a missing definition does
// not link), nullptr otherwise.
#define PIR_GRAD_ENTRY_Diff(id) &grad##id
#define PIR_GRAD_ENTRY_Zero(id) nullptr
#define PIR_GRAD_ENTRY_NoGrad(id) nullptr
#define PIR_GRAD_ENTRY_NA(id) nullptr
#define PIR_OP(id, text, mn, mx, attrs, infer, grad, flags, kernel, operands, cost) PIR_GRAD_ENTRY_##grad(id),
const GradRule kRules[] = {
#include "ir/ops.def"
};
#undef PIR_OP
static_assert(sizeof(kRules) / sizeof(kRules[0]) == kNumOpCodes);

#define PIR_OP(id, text, mn, mx, attrs, infer, grad, flags, kernel, operands, cost) &GradOperands<OpCode::id>::carries,
constexpr bool (*kCarriesGradient[])(size_t) = {
#include "ir/ops.def"
};
#undef PIR_OP
}  // namespace

GradRule gradRule(OpCode code) { return kRules[static_cast<size_t>(code)]; }

bool hasGradient(const Op& op) {
  const GradKind k = op.info().grad;
  if (k == GradKind::Zero) return true;
  if (k != GradKind::Diff) return false;
  if (op.code == OpCode::AllReduce) {
    const CollectiveOp reduce = pir::attrs::AllReduce{op}.op();
    return reduce == CollectiveOp::Add || reduce == CollectiveOp::Mean;
  }
  if (op.code == OpCode::ReduceScatter) return pir::attrs::ReduceScatter{op}.op() == CollectiveOp::Add;
  return true;
}

bool operandDifferentiable(const Op& op, size_t i) { return kCarriesGradient[static_cast<size_t>(op.code)](i); }

}  // namespace pir::ad
