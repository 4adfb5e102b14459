// The ONNX op table: one mapping per op_type onto pir's ops (docs/importing.md).
// A mapping reads the node's inputs and attributes through NodeContext and
// emits .pir statements; pir infers and verifies every result. Ops whose
// inputs are all known at import time are folded (fold.h) where listed.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>

#include "importers/onnx/fold.h"
#include "importers/onnx/node_context.h"

namespace pir::onnx_import {

// An axis of a tensor of rank `rank`, in [0, rank): a scalar has none (its
// callers index the shape with the result).
int64_t normAxis(const NodeContext& ctx, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

std::string intsText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t k = 0; k < v.size(); ++k) {
    if (k) s += ", ";
    s += std::to_string(v[k]);
  }
  return s + "]";
}

std::string floatText(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(v));
  std::string s(buf, r.ptr);
  return s;
}

namespace {

using Handler = void (*)(NodeContext&);

// a * b, or nothing where it leaves int64_t: dims and attributes from a file can be
// anything.
std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// The product of v[from..to), saturated at INT64_MAX: a saturated product never equals
// a real one, nor fits a later check.
int64_t product(const std::vector<int64_t>& v, size_t from = 0, size_t to = SIZE_MAX) {
  int64_t p = 1;
  for (size_t k = from; k < std::min(to, v.size()); ++k) p = checkedMul(p, v[k]).value_or(INT64_MAX);
  return p;
}

bool smallEnough(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || (d > 0 && n > kMaxFoldElements / d)) return false;
    n *= d;
  }
  return n <= kMaxFoldElements;
}

ConstTensor scalarOf(Elem e, double v) {
  ConstTensor c;
  c.elem = e;
  if (elemIsFloat(e)) c.f = {v};
  else c.i = {static_cast<int64_t>(v)};
  return c;
}

ConstTensor intVector(const std::vector<int64_t>& v) {
  ConstTensor c;
  c.elem = Elem::I32;
  c.shape = {static_cast<int64_t>(v.size())};
  c.i = v;
  return c;
}

// A scalar constant of dtype `e` (for operands pir would otherwise type from
// the first operand, as in `where %c, %x, 0`). `v` may come from a float
// attribute: for an integer `e` it must be a number within int64 (the constant's
// own narrowing then checks e's range).
std::string scalarConst(NodeContext& c, Elem e, double v) {
  if (!elemIsFloat(e) && !(v >= -0x1p63 && v < 0x1p63))
    c.fail("the value " + std::to_string(v) + " does not fit the input's integer type " + elemName(e));
  return c.constant(scalarOf(e, v));
}

std::string elemText(Elem e) { return elemName(e); }

// ---- elementwise -------------------------------------------------------------

template <const char* Op>
void unary(NodeContext& c) {
  c.result(0, std::string(Op) + " " + c.in(0));
}

#define PIR_UNARY(Name, op) constexpr char k##Name[] = op;
PIR_UNARY(Abs, "abs")
PIR_UNARY(Neg, "neg")
PIR_UNARY(Sign, "sign")
PIR_UNARY(Exp, "exp")
PIR_UNARY(Log, "log")
PIR_UNARY(Sqrt, "sqrt")
PIR_UNARY(Reciprocal, "reciprocal")
PIR_UNARY(Sin, "sin")
PIR_UNARY(Cos, "cos")
PIR_UNARY(Tanh, "tanh")
PIR_UNARY(Sigmoid, "sigmoid")
PIR_UNARY(Relu, "relu")
PIR_UNARY(Ceil, "ceil")
PIR_UNARY(Floor, "floor")
PIR_UNARY(Round, "round")
PIR_UNARY(IsNaN, "isnan")
PIR_UNARY(Not, "logical_not")
PIR_UNARY(Softplus, "softplus")
PIR_UNARY(Erf, "erf")
#undef PIR_UNARY

void foldOrUnary(NodeContext& c, const char* op, double (*f)(double), int64_t (*fi)(int64_t)) {
  if (const ConstTensor* k = c.known(0); k && k->size() <= kMaxFoldElements) {
    c.define(0, foldUnary(*k, f, fi));
    return;
  }
  c.result(0, std::string(op) + " " + c.in(0));
}

void mapNeg(NodeContext& c) {
  foldOrUnary(c, "neg", [](double v) { return -v; }, [](int64_t v) { return -v; });
}
void mapAbs(NodeContext& c) {
  foldOrUnary(c, "abs", [](double v) { return std::fabs(v); }, [](int64_t v) { return v < 0 ? -v : v; });
}

void mapIdentity(NodeContext& c) {
  if (const ConstTensor* k = c.known(0)) c.define(0, *k);
  else c.alias(0, c.in(0));
}

// Binary ops with NumPy broadcasting; folded when both operands are known.
struct BinarySpec {
  const char* op;
  bool boolResult;
  double (*f)(double, double);
  int64_t (*fi)(int64_t, int64_t);
};

// The second operand of a binary op. Before opset 7, `broadcast = 1` with
// `axis` aligns B's dims at A's axis `axis` (later opsets: NumPy rules, which
// the same reshape with trailing 1s expresses).
std::string secondOperand(NodeContext& c) {
  std::string b = c.in(1);
  if (c.opset() >= 7 || !c.attrInt("broadcast", 0) || !c.hasAttr("axis")) return b;
  std::vector<int64_t> bs = c.shape(1);
  int64_t ra = c.rank(0);
  int64_t axis = normAxis(c, c.attrInt("axis", 0), ra);
  if (axis + int64_t(bs.size()) > ra) c.fail("B does not fit A at axis " + std::to_string(axis));
  std::vector<int64_t> shape = bs;
  shape.resize(ra - axis, 1);
  if (shape == bs) return b;
  return c.temp("reshape " + b + " {shape = " + intsText(shape) + "}");
}

void binary(NodeContext& c, const BinarySpec& s) {
  const ConstTensor* a = c.known(0);
  const ConstTensor* b = c.known(1);
  if (a && b && s.f && a->size() <= kMaxFoldElements && b->size() <= kMaxFoldElements) {
    std::vector<int64_t> shape;
    if (broadcastShapes(a->shape, b->shape, shape) && smallEnough(shape)) {
      c.define(0, foldBinary(*a, *b, s.boolResult ? Elem::Bool : a->elem, s.f, s.fi));
      return;
    }
  }
  std::string x = c.in(0);
  c.result(0, std::string(s.op) + " " + x + ", " + secondOperand(c));
}

int64_t idiv(int64_t a, int64_t b) {
  if (b == 0) throw ImportError("integer division by zero in a folded constant");
  return a / b;
}

void mapAdd(NodeContext& c) { binary(c, {"add", false, [](double a, double b) { return a + b; }, [](int64_t a, int64_t b) { return a + b; }}); }
void mapSub(NodeContext& c) { binary(c, {"sub", false, [](double a, double b) { return a - b; }, [](int64_t a, int64_t b) { return a - b; }}); }
void mapMul(NodeContext& c) { binary(c, {"mul", false, [](double a, double b) { return a * b; }, [](int64_t a, int64_t b) { return a * b; }}); }
void mapDiv(NodeContext& c) { binary(c, {"div", false, [](double a, double b) { return a / b; }, idiv}); }
void mapEqual(NodeContext& c) { binary(c, {"equal", true, [](double a, double b) { return double(a == b); }, [](int64_t a, int64_t b) { return int64_t(a == b); }}); }
void mapGreater(NodeContext& c) { binary(c, {"greater", true, [](double a, double b) { return double(a > b); }, [](int64_t a, int64_t b) { return int64_t(a > b); }}); }
void mapLess(NodeContext& c) { binary(c, {"less", true, [](double a, double b) { return double(a < b); }, [](int64_t a, int64_t b) { return int64_t(a < b); }}); }
void mapGreaterOrEqual(NodeContext& c) { binary(c, {"greater_equal", true, [](double a, double b) { return double(a >= b); }, [](int64_t a, int64_t b) { return int64_t(a >= b); }}); }
void mapLessOrEqual(NodeContext& c) { binary(c, {"less_equal", true, [](double a, double b) { return double(a <= b); }, [](int64_t a, int64_t b) { return int64_t(a <= b); }}); }
void mapAnd(NodeContext& c) { binary(c, {"logical_and", true, nullptr, nullptr}); }
void mapOr(NodeContext& c) { binary(c, {"logical_or", true, nullptr, nullptr}); }
void mapXor(NodeContext& c) { binary(c, {"logical_xor", true, nullptr, nullptr}); }

void mapPow(NodeContext& c) {
  Elem ex = c.elem(0), ey = c.elem(1);
  std::string x = c.in(0), y = secondOperand(c);
  if (!elemIsFloat(ex)) {
    // pir's pow is float only: integers go through f64 (exact for the results
    // that fit) and back.
    std::string xf = c.temp("cast " + x + " {dtype = f64}");
    std::string yf = ey == Elem::F64 ? y : c.temp("cast " + y + " {dtype = f64}");
    std::string p = c.temp("pow " + xf + ", " + yf);
    c.result(0, "cast " + p + " {dtype = " + elemText(ex) + "}");
    return;
  }
  if (ey != ex) y = c.temp("cast " + y + " {dtype = " + elemText(ex) + "}");
  c.result(0, "pow " + x + ", " + y);
}

void mapMod(NodeContext& c) {
  bool fmod = c.attrInt("fmod", 0) != 0;
  std::string x = c.in(0), y = c.in(1);
  if (fmod || elemIsFloat(c.elem(0))) {
    c.result(0, "fmod " + x + ", " + y);
    return;
  }
  // Python's modulo: the truncated remainder, moved by y when its sign differs.
  Elem e = c.elem(0);
  std::string zero = scalarConst(c, e, 0);
  std::string r = c.temp("fmod " + x + ", " + y);
  std::string nz = c.temp("not_equal " + r + ", " + zero);
  std::string rneg = c.temp("less " + r + ", " + zero);
  std::string yneg = c.temp("less " + y + ", " + zero);
  std::string differ = c.temp("logical_xor " + rneg + ", " + yneg);
  std::string fix = c.temp("logical_and " + nz + ", " + differ);
  std::string moved = c.temp("add " + r + ", " + y);
  c.result(0, "where " + fix + ", " + moved + ", " + r);
}

// Max, Min: variadic in pir. Sum, Mean: a chain of adds.
void mapMax(NodeContext& c) {
  if (c.numInputs() == 1) return mapIdentity(c);
  std::string ops;
  for (int i = 0; i < c.numInputs(); ++i) ops += (i ? ", " : "") + c.in(i);
  c.result(0, "maximum " + ops);
}
void mapMin(NodeContext& c) {
  if (c.numInputs() == 1) return mapIdentity(c);
  std::string ops;
  for (int i = 0; i < c.numInputs(); ++i) ops += (i ? ", " : "") + c.in(i);
  c.result(0, "minimum " + ops);
}
std::string sumOf(NodeContext& c) {
  std::string acc = c.in(0);
  for (int i = 1; i < c.numInputs(); ++i) acc = c.temp("add " + acc + ", " + c.in(i));
  return acc;
}
void mapSum(NodeContext& c) {
  if (c.numInputs() == 1) return mapIdentity(c);
  std::string acc = c.in(0);
  for (int i = 1; i + 1 < c.numInputs(); ++i) acc = c.temp("add " + acc + ", " + c.in(i));
  c.result(0, "add " + acc + ", " + c.in(c.numInputs() - 1));
}
void mapMean(NodeContext& c) {
  std::string s = sumOf(c);
  c.result(0, "div " + s + ", " + std::to_string(c.numInputs()));
}

void mapWhere(NodeContext& c) {
  const ConstTensor *k0 = c.known(0), *k1 = c.known(1), *k2 = c.known(2);
  std::vector<int64_t> s01, shape;
  if (k0 && k1 && k2 && k0->size() <= kMaxFoldElements && k1->size() <= kMaxFoldElements &&
      k2->size() <= kMaxFoldElements && broadcastShapes(k0->shape, k1->shape, s01) &&
      broadcastShapes(s01, k2->shape, shape) && smallEnough(shape)) {
    c.define(0, foldWhere(*k0, *k1, *k2));
    return;
  }
  c.result(0, "where " + c.in(0) + ", " + c.in(1) + ", " + c.in(2));
}

void mapIsInf(NodeContext& c) {
  bool neg = c.attrInt("detect_negative", 1) != 0, pos = c.attrInt("detect_positive", 1) != 0;
  std::string x = c.in(0);
  if (neg && pos) return (void)c.result(0, "isinf " + x);
  if (!neg && !pos) return (void)c.result(0, "logical_and " + c.temp("isinf " + x) + ", false");
  std::string inf = c.temp("isinf " + x);
  std::string side = c.temp(std::string(pos ? "greater " : "less ") + x + ", 0");
  c.result(0, "logical_and " + inf + ", " + side);
}

void mapClip(NodeContext& c) {
  std::string x = c.in(0);
  if (c.opset() < 11) {
    std::string attrs = "{min = " + floatText(c.attrFloat("min", -INFINITY)) + ", max = " +
                        floatText(c.attrFloat("max", INFINITY)) + "}";
    c.result(0, "clip " + x + " " + attrs);
    return;
  }
  // opset 11: min and max are optional scalar inputs.
  std::string lo = "-inf", hi = "inf";
  bool dynamic = false;
  for (int i : {1, 2}) {
    if (!c.has(i)) continue;
    if (const ConstTensor* k = c.known(i)) (i == 1 ? lo : hi) = floatText(k->at(0));
    else dynamic = true;
  }
  bool isInt = !elemIsFloat(c.elem(0));
  if (!dynamic && !isInt) {
    c.result(0, "clip " + x + " {min = " + lo + ", max = " + hi + "}");
    return;
  }
  // Tensor bounds (or integer data, where a float attribute could round): max then min.
  std::string v = x;
  if (c.has(1) && c.has(2)) {
    v = c.temp("maximum " + v + ", " + c.in(1));
    c.result(0, "minimum " + v + ", " + c.in(2));
  } else if (c.has(1)) {
    c.result(0, "maximum " + v + ", " + c.in(1));
  } else if (c.has(2)) {
    c.result(0, "minimum " + v + ", " + c.in(2));
  } else {
    c.alias(0, x);
  }
}

// ---- activations composed of pir ops -------------------------------------------

void mapLeakyRelu(NodeContext& c) {
  std::string x = c.in(0);
  std::string neg = c.temp("less " + x + ", 0");
  std::string scaled = c.temp("mul " + x + ", " + floatText(c.attrFloat("alpha", 0.01)));
  c.result(0, "where " + neg + ", " + scaled + ", " + x);
}

void mapPRelu(NodeContext& c) {
  std::string x = c.in(0), slope = c.in(1);
  // Before opset 7 a 1-D slope of C values is per channel (axis 1).
  std::vector<int64_t> xs = c.shape(0), ss = c.shape(1);
  if (c.opset() < 7 && ss.size() == 1 && xs.size() > 2 && ss[0] == xs[1] && ss[0] != 1) {
    std::vector<int64_t> shape(xs.size() - 1, 1);
    shape[0] = ss[0];
    slope = c.temp("reshape " + slope + " {shape = " + intsText(shape) + "}");
  }
  std::string neg = c.temp("less " + x + ", 0");
  std::string scaled = c.temp("mul " + x + ", " + slope);
  c.result(0, "where " + neg + ", " + scaled + ", " + x);
}

void mapElu(NodeContext& c) {
  std::string x = c.in(0);
  std::string neg = c.temp("less " + x + ", 0");
  std::string e = c.temp("exp " + x);
  std::string em1 = c.temp("sub " + e + ", 1");
  std::string scaled = c.temp("mul " + em1 + ", " + floatText(c.attrFloat("alpha", 1.0)));
  c.result(0, "where " + neg + ", " + scaled + ", " + x);
}

void mapSelu(NodeContext& c) {
  std::string x = c.in(0);
  std::string neg = c.temp("less_equal " + x + ", 0");
  std::string e = c.temp("exp " + x);
  std::string em1 = c.temp("sub " + e + ", 1");
  std::string scaled = c.temp("mul " + em1 + ", " + floatText(c.attrFloat("alpha", 1.67326319217681884765625)));
  std::string w = c.temp("where " + neg + ", " + scaled + ", " + x);
  c.result(0, "mul " + w + ", " + floatText(c.attrFloat("gamma", 1.05070102214813232421875)));
}

void mapCelu(NodeContext& c) {
  std::string x = c.in(0);
  double alpha = c.attrFloat("alpha", 1.0);
  std::string pos = c.temp("relu " + x);
  std::string d = c.temp("div " + x + ", " + floatText(alpha));
  std::string e = c.temp("exp " + d);
  std::string em1 = c.temp("sub " + e + ", 1");
  std::string s = c.temp("mul " + em1 + ", " + floatText(alpha));
  std::string neg = c.temp("minimum " + s + ", " + scalarConst(c, c.elem(0), 0));
  c.result(0, "add " + pos + ", " + neg);
}

void mapHardSigmoid(NodeContext& c) {
  std::string x = c.in(0);
  std::string a = c.temp("mul " + x + ", " + floatText(c.attrFloat("alpha", 0.2)));
  std::string b = c.temp("add " + a + ", " + floatText(c.attrFloat("beta", 0.5)));
  c.result(0, "clip " + b + " {min = 0, max = 1}");
}

void mapHardSwish(NodeContext& c) {
  std::string x = c.in(0);
  std::string a = c.temp("div " + x + ", 6");
  std::string b = c.temp("add " + a + ", 0.5");
  std::string h = c.temp("clip " + b + " {min = 0, max = 1}");
  c.result(0, "mul " + x + ", " + h);
}

void mapSoftsign(NodeContext& c) {
  std::string x = c.in(0);
  std::string a = c.temp("abs " + x);
  std::string d = c.temp("add " + a + ", 1");
  c.result(0, "div " + x + ", " + d);
}

void mapThresholdedRelu(NodeContext& c) {
  std::string x = c.in(0);
  std::string m = c.temp("greater " + x + ", " + floatText(c.attrFloat("alpha", 1.0)));
  c.result(0, "where " + m + ", " + x + ", " + scalarConst(c, c.elem(0), 0));
}

// Hyperbolic and inverse hyperbolic functions, and tan, from exp/log/sqrt/sin/cos.
void mapSinh(NodeContext& c) {
  std::string x = c.in(0);
  std::string a = c.temp("exp " + x), b = c.temp("exp " + c.temp("neg " + x));
  c.result(0, "mul " + c.temp("sub " + a + ", " + b) + ", 0.5");
}
void mapCosh(NodeContext& c) {
  std::string x = c.in(0);
  std::string a = c.temp("exp " + x), b = c.temp("exp " + c.temp("neg " + x));
  c.result(0, "mul " + c.temp("add " + a + ", " + b) + ", 0.5");
}
void mapTan(NodeContext& c) {
  std::string x = c.in(0);
  c.result(0, "div " + c.temp("sin " + x) + ", " + c.temp("cos " + x));
}
void mapAsinh(NodeContext& c) {  // log(x + sqrt(x^2 + 1))
  std::string x = c.in(0);
  std::string r = c.temp("sqrt " + c.temp("add " + c.temp("mul " + x + ", " + x) + ", 1"));
  c.result(0, "log " + c.temp("add " + x + ", " + r));
}
void mapAcosh(NodeContext& c) {  // log(x + sqrt(x^2 - 1))
  std::string x = c.in(0);
  std::string r = c.temp("sqrt " + c.temp("sub " + c.temp("mul " + x + ", " + x) + ", 1"));
  c.result(0, "log " + c.temp("add " + x + ", " + r));
}
void mapAtanh(NodeContext& c) {  // log((1 + x) / (1 - x)) / 2
  std::string x = c.in(0);
  std::string one = scalarConst(c, c.elem(0), 1);
  std::string q = c.temp("div " + c.temp("add " + one + ", " + x) + ", " + c.temp("sub " + one + ", " + x));
  c.result(0, "mul " + c.temp("log " + q) + ", 0.5");
}

void mapMish(NodeContext& c) {
  std::string x = c.in(0);
  std::string sp = c.temp("softplus " + x);
  std::string t = c.temp("tanh " + sp);
  c.result(0, "mul " + x + ", " + t);
}

void mapShrink(NodeContext& c) {
  std::string x = c.in(0);
  double bias = c.attrFloat("bias", 0.0), lambd = c.attrFloat("lambd", 0.5);
  Elem e = c.elem(0);
  std::string lo = c.temp("less " + x + ", " + scalarConst(c, e, -lambd));
  std::string hi = c.temp("greater " + x + ", " + scalarConst(c, e, lambd));
  std::string plus = c.temp("add " + x + ", " + scalarConst(c, e, bias));
  std::string minus = c.temp("sub " + x + ", " + scalarConst(c, e, bias));
  std::string inner = c.temp("where " + hi + ", " + minus + ", " + scalarConst(c, e, 0));
  c.result(0, "where " + lo + ", " + plus + ", " + inner);
}

// ---- type conversion --------------------------------------------------------------

void castTo(NodeContext& c, Elem to) {
  if (const ConstTensor* k = c.known(0); k && k->size() <= kMaxFoldElements) {
    c.define(0, castTensor(*k, to));
    return;
  }
  std::string x = c.in(0);
  if (c.elem(0) == to) return c.alias(0, x);
  c.result(0, "cast " + x + " {dtype = " + elemText(to) + "}");
}

void mapCast(NodeContext& c) {
  if (!c.hasAttr("to")) c.fail("attribute 'to' is missing");
  castTo(c, elemOfOnnxType(static_cast<int>(c.attrInt("to", 0)), "attribute 'to'"));
}

void mapCastLike(NodeContext& c) { castTo(c, c.elem(1)); }

// ---- constants and shape computations (folded) -----------------------------

void mapConstant(NodeContext& c) {
  const onnx::NodeProto& n = c.node();
  if (n.attribute_size() != 1) c.fail("expected exactly one value attribute");
  const onnx::AttributeProto& a = n.attribute(0);
  ConstTensor v;
  if (a.name() == "value") {
    v = decodeTensor(a.t(), "attribute 'value'");
  } else if (a.name() == "value_float") {
    v = scalarOf(Elem::F32, a.f());
  } else if (a.name() == "value_floats") {
    v.elem = Elem::F32;
    v.f.assign(a.floats().begin(), a.floats().end());
    v.shape = {static_cast<int64_t>(v.f.size())};
  } else if (a.name() == "value_int") {
    v = scalarOf(Elem::I32, 0);
    v.i = {a.i()};
  } else if (a.name() == "value_ints") {
    v = intVector(std::vector<int64_t>(a.ints().begin(), a.ints().end()));
  } else {
    c.fail("attribute '" + a.name() + "' is not supported (strings and sparse tensors are not)");
  }
  c.define(0, std::move(v));
}

void mapShape(NodeContext& c) {
  std::vector<int64_t> s = c.shape(0);
  int64_t r = static_cast<int64_t>(s.size());
  int64_t start = c.attrInt("start", 0), end = c.attrInt("end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = std::clamp<int64_t>(start, 0, r);
  end = std::clamp<int64_t>(end, start, r);
  c.define(0, intVector(std::vector<int64_t>(s.begin() + start, s.begin() + end)));
}

void mapSize(NodeContext& c) {
  ConstTensor v = scalarOf(Elem::I32, 0);
  v.i = {product(c.shape(0))};
  c.define(0, v);
}

void defineOrDeclare(NodeContext& c, const ConstTensor& value) {
  if (value.size() <= kMaxFoldElements) c.define(0, value);
  else c.alias(0, c.constant(value));
}

void mapConstantOfShape(NodeContext& c) {
  std::vector<int64_t> shape = c.requireInts(0, "the shape");
  checkedElementCount(shape, "the shape");
  ConstTensor fill = scalarOf(Elem::F32, 0);
  if (const onnx::AttributeProto* a = c.attr("value")) fill = decodeTensor(a->t(), "attribute 'value'");
  if (fill.size() != 1) c.fail("attribute 'value' must hold one element");
  if (smallEnough(shape)) {
    c.define(0, foldBroadcastTo(ConstTensor{fill.elem, {}, fill.f, fill.i}, shape));
    return;
  }
  // Too large to fold: a const with a broadcast scalar literal, the tensor never made.
  c.alias(0, c.uniformConstant(ConstTensor{fill.elem, {}, fill.f, fill.i}, shape));
}

void mapRange(NodeContext& c) {
  const ConstTensor& s = c.requireKnown(0, "start");
  const ConstTensor& l = c.requireKnown(1, "limit");
  const ConstTensor& d = c.requireKnown(2, "delta");
  double start = s.at(0), limit = l.at(0), delta = d.at(0);
  if (delta == 0) c.fail("delta is zero");
  double count = std::ceil((limit - start) / delta);
  if (!(count < double(kMaxFoldElements) * 64)) c.fail("the range has too many elements");
  const int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;  // count < 2^k here, or NaN: fails above
  ConstTensor r;
  r.elem = s.elem;
  r.shape = {n};
  for (int64_t k = 0; k < n; ++k) {
    if (elemIsFloat(r.elem)) r.f.push_back(start + k * delta);
    else r.i.push_back(s.intAt(0) + k * d.intAt(0));
  }
  defineOrDeclare(c, r);
}

void mapEyeLike(NodeContext& c) {
  std::vector<int64_t> shape = c.shape(0);
  if (shape.size() != 2) c.fail("EyeLike needs a 2-D input");
  Elem e = c.hasAttr("dtype") ? elemOfOnnxType(static_cast<int>(c.attrInt("dtype", 1)), "attribute 'dtype'") : c.elem(0);
  int64_t k = c.attrInt("k", 0);
  checkedElementCount(shape, "the shape");
  ConstTensor r = foldBroadcastTo(scalarOf(e, 0), shape);
  for (int64_t i = 0; i < shape[0]; ++i) {
    int64_t j = i + k;
    if (j < 0 || j >= shape[1]) continue;
    if (elemIsFloat(e)) r.f[i * shape[1] + j] = 1;
    else r.i[i * shape[1] + j] = 1;
  }
  defineOrDeclare(c, r);
}

// ---- shape ops ----------------------------------------------------------------------

void emitReshape(NodeContext& c, const std::vector<int64_t>& shape) {
  if (const ConstTensor* k = c.known(0); k && k->size() <= kMaxFoldElements) {
    ConstTensor r = *k;
    r.shape = shape;
    c.define(0, r);
    return;
  }
  std::string x = c.in(0);
  if (c.shape(0) == shape) return c.alias(0, x);
  c.result(0, "reshape " + x + " {shape = " + intsText(shape) + "}");
}

void mapReshape(NodeContext& c) {
  std::vector<int64_t> want = c.opset() < 5 ? c.attrInts("shape").value_or(std::vector<int64_t>{})
                                            : c.requireInts(1, "the target shape");
  std::vector<int64_t> in = c.shape(0);
  bool allowZero = c.attrInt("allowzero", 0) != 0;
  int64_t known = 1, inferAt = -1;
  for (size_t k = 0; k < want.size(); ++k) {
    if (want[k] == 0 && !allowZero) {
      if (k >= in.size()) c.fail("shape entry " + std::to_string(k) + " is 0 (copy) but the input has rank " + std::to_string(in.size()));
      want[k] = in[k];
    }
    if (want[k] == -1) {
      if (inferAt >= 0) c.fail("the target shape has more than one -1");
      inferAt = static_cast<int64_t>(k);
    } else if (want[k] < 0) {
      c.fail("the target shape has a negative entry " + std::to_string(want[k]));
    } else {
      known *= want[k];
    }
  }
  int64_t total = product(in);
  if (inferAt >= 0) {
    if (known == 0 || total % known != 0) c.fail("cannot infer -1: " + std::to_string(total) + " elements into " + intsText(want));
    want[inferAt] = total / known;
  }
  if (product(want) != total)
    c.fail("cannot reshape " + std::to_string(total) + " elements into " + intsText(want));
  emitReshape(c, want);
}

void mapFlatten(NodeContext& c) {
  std::vector<int64_t> in = c.shape(0);
  int64_t r = static_cast<int64_t>(in.size());
  int64_t axis = c.attrInt("axis", 1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis > r) c.fail("axis " + std::to_string(c.attrInt("axis", 1)) + " is out of range");
  const std::vector<int64_t> shape{product(in, 0, axis), product(in, axis)};
  if (const ConstTensor* k = c.known(0); (k && k->size() <= kMaxFoldElements) || in == shape)
    return emitReshape(c, shape);  // folded, or the identity
  c.result(0, "flatten " + c.in(0) + " {axis = " + std::to_string(axis) + "}");
}

void mapTranspose(NodeContext& c) {
  int64_t r = c.rank(0);
  std::vector<int64_t> perm = c.attrInts("perm").value_or(std::vector<int64_t>{});
  if (perm.empty())
    for (int64_t k = r - 1; k >= 0; --k) perm.push_back(k);
  if (const ConstTensor* k = c.known(0); k && k->size() <= kMaxFoldElements && int64_t(perm.size()) == r) {
    for (int64_t& p : perm) p = normAxis(c, p, r);
    c.define(0, foldTranspose(*k, perm));
    return;
  }
  c.result(0, "transpose " + c.in(0) + " {perm = " + intsText(perm) + "}");
}

std::optional<std::vector<int64_t>> axesInputOrAttr(NodeContext& c, int inputFrom13, int opsetSwitch = 13) {
  if (c.opset() >= opsetSwitch) {
    if (!c.has(inputFrom13)) return std::nullopt;
    return c.requireInts(inputFrom13, "axes");
  }
  return c.attrInts("axes");
}

void mapSqueeze(NodeContext& c) {
  std::vector<int64_t> in = c.shape(0);
  std::optional<std::vector<int64_t>> axes = axesInputOrAttr(c, 1);
  std::vector<int64_t> out;
  std::vector<bool> drop(in.size(), false);
  if (axes && !axes->empty()) {
    for (int64_t a : *axes) {
      int64_t k = normAxis(c, a, static_cast<int64_t>(in.size()));
      if (in[k] != 1) c.fail("cannot squeeze axis " + std::to_string(a) + " of size " + std::to_string(in[k]));
      drop[k] = true;
    }
  } else {
    for (size_t k = 0; k < in.size(); ++k) drop[k] = in[k] == 1;
  }
  for (size_t k = 0; k < in.size(); ++k)
    if (!drop[k]) out.push_back(in[k]);
  emitReshape(c, out);
}

void mapUnsqueeze(NodeContext& c) {
  std::vector<int64_t> in = c.shape(0);
  std::optional<std::vector<int64_t>> axes = axesInputOrAttr(c, 1);
  if (!axes) c.fail("axes are missing");
  int64_t outRank = static_cast<int64_t>(in.size() + axes->size());
  std::vector<bool> inserted(outRank, false);
  for (int64_t a : *axes) {
    int64_t k = normAxis(c, a, outRank);
    if (inserted[k]) c.fail("axis " + std::to_string(a) + " is repeated");
    inserted[k] = true;
  }
  std::vector<int64_t> out;
  size_t next = 0;
  for (int64_t k = 0; k < outRank; ++k) out.push_back(inserted[k] ? 1 : in[next++]);
  emitReshape(c, out);
}

void mapConcat(NodeContext& c) {
  if (!c.hasAttr("axis") && c.opset() < 4) c.fail("attribute 'axis' is missing");
  int64_t rank = c.rank(0);
  if (rank == 0) c.fail("Concat needs inputs of rank >= 1; input 0 is a scalar");
  int64_t axis = normAxis(c, c.attrInt("axis", 1), rank);
  bool folded = true;
  std::vector<const ConstTensor*> parts;
  int64_t total = 0;
  for (int i = 0; i < c.numInputs(); ++i) {
    const ConstTensor* k = c.known(i);
    folded = folded && k;
    if (k) total += k->size();
    parts.push_back(k);
  }
  if (folded && total <= kMaxFoldElements) {
    c.define(0, foldConcat(parts, axis));
    return;
  }
  // Empty operands add nothing (and pir need not see them).
  std::string ops;
  int count = 0;
  std::string only;
  for (int i = 0; i < c.numInputs(); ++i) {
    std::vector<int64_t> s = c.shape(i);
    if (int64_t(s.size()) == rank && s[axis] == 0 && c.numInputs() > 1) continue;
    only = c.in(i);
    ops += (count++ ? ", " : "") + only;
  }
  if (count == 0) ops = c.in(0), count = 1, only = ops;
  if (count == 1) return c.alias(0, only);
  c.result(0, "concat " + ops + " {axis = " + std::to_string(axis) + "}");
}

void mapSplit(NodeContext& c) {
  std::vector<int64_t> in = c.shape(0);
  int64_t axis = normAxis(c, c.attrInt("axis", 0), static_cast<int64_t>(in.size()));
  std::vector<int64_t> splits;
  if (c.opset() >= 13) {
    if (c.has(1)) splits = c.requireInts(1, "split");
  } else {
    splits = c.attrInts("split").value_or(std::vector<int64_t>{});
  }
  int n = c.numOutputs();
  if (splits.empty()) {
    if (n == 0 || in[axis] % n != 0)
      c.fail("axis " + std::to_string(axis) + " of size " + std::to_string(in[axis]) + " does not split into " +
             std::to_string(n) + " equal parts");
    splits.assign(n, in[axis] / n);
  }
  if (int(splits.size()) != n) c.fail("split has " + std::to_string(splits.size()) + " entries for " + std::to_string(n) + " outputs");
  if (n == 1) return c.alias(0, c.in(0));
  c.results(n, "split " + c.in(0) + " {splits = " + intsText(splits) + ", axis = " + std::to_string(axis) + "}");
}

// ONNX slice parameters, clamped, as pir/NumPy start/stop/step per axis.
struct SliceSpec {
  std::vector<int64_t> axes, starts, stops, steps;
  std::vector<int64_t> begin, step, count;  // per axis of the input (for folding)
};

SliceSpec sliceSpec(NodeContext& c) {
  std::vector<int64_t> in = c.shape(0);
  int64_t r = static_cast<int64_t>(in.size());
  std::vector<int64_t> starts, ends, axes, steps;
  if (c.opset() < 10) {
    starts = c.attrInts("starts").value_or(std::vector<int64_t>{});
    ends = c.attrInts("ends").value_or(std::vector<int64_t>{});
    axes = c.attrInts("axes").value_or(std::vector<int64_t>{});
  } else {
    starts = c.requireInts(1, "starts");
    ends = c.requireInts(2, "ends");
    if (c.has(3)) axes = c.requireInts(3, "axes");
    if (c.has(4)) steps = c.requireInts(4, "steps");
  }
  if (axes.empty())
    for (size_t k = 0; k < starts.size(); ++k) axes.push_back(static_cast<int64_t>(k));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (starts.size() != ends.size() || axes.size() != starts.size() || steps.size() != starts.size())
    c.fail("starts, ends, axes and steps differ in length");
  SliceSpec s;
  s.begin.assign(r, 0);
  s.step.assign(r, 1);
  s.count = in;
  for (size_t k = 0; k < starts.size(); ++k) {
    int64_t a = normAxis(c, axes[k], r);
    int64_t dim = in[a], st = steps[k];
    if (st == 0) c.fail("a slice step is 0");
    int64_t b = starts[k], e = ends[k];
    if (b < 0) b += dim;
    if (e < 0) e += dim;
    if (st > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
    } else {
      b = std::clamp<int64_t>(b, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
    }
    int64_t n = st > 0 ? (e > b ? (e - b + st - 1) / st : 0) : (b > e ? (b - e + (-st) - 1) / (-st) : 0);
    s.begin[a] = b;
    s.step[a] = st;
    s.count[a] = n;
    s.axes.push_back(a);
    s.starts.push_back(b);
    // NumPy stop for a negative step that runs through index 0: below -dim.
    s.stops.push_back(st < 0 && e == -1 ? -dim - 1 : e);
    s.steps.push_back(st);
  }
  return s;
}

void mapSlice(NodeContext& c) {
  SliceSpec s = sliceSpec(c);
  if (const ConstTensor* k = c.known(0); k && k->size() <= kMaxFoldElements) {
    c.define(0, foldSlice(*k, s.begin, s.step, s.count));
    return;
  }
  std::string x = c.in(0);
  if (s.axes.empty()) return c.alias(0, x);
  c.result(0, "slice " + x + " {start = " + intsText(s.starts) + ", stop = " + intsText(s.stops) + ", step = " +
                  intsText(s.steps) + ", axes = " + intsText(s.axes) + "}");
}

// Indices with negative entries counted from the end of `dim` (ONNX) made
// non-negative: folded when known, a where() at run time otherwise.
std::string nonNegativeIndices(NodeContext& c, int input, int64_t dim) {
  if (const ConstTensor* k = c.known(input)) {
    ConstTensor v = *k;
    for (int64_t& i : v.i)
      if (i < 0) i += dim;
    return c.constant(v);
  }
  std::string idx = c.in(input);
  Elem e = c.elem(input);
  if (!elemIsFloat(e) && e != Elem::U8 && e != Elem::U16 && e != Elem::U32) {
    std::string neg = c.temp("less " + idx + ", 0");
    std::string moved = c.temp("add " + idx + ", " + std::to_string(dim));
    return c.temp("where " + neg + ", " + moved + ", " + idx);
  }
  return idx;
}

void mapGather(NodeContext& c) {
  std::vector<int64_t> in = c.shape(0);
  int64_t axis = normAxis(c, c.attrInt("axis", 0), static_cast<int64_t>(in.size()));
  const ConstTensor* data = c.known(0);
  const ConstTensor* idx = c.known(1);
  std::vector<int64_t> gathered(in.begin(), in.begin() + axis);  // the result's shape
  if (idx) gathered.insert(gathered.end(), idx->shape.begin(), idx->shape.end());
  gathered.insert(gathered.end(), in.begin() + axis + 1, in.end());
  if (data && idx && data->size() <= kMaxFoldElements && idx->size() <= kMaxFoldElements && smallEnough(gathered)) {
    ConstTensor norm = *idx;
    for (int64_t& i : norm.i)
      if (i < 0) i += in[axis];
    c.define(0, foldGather(*data, norm, axis));
    return;
  }
  std::string x = c.in(0);
  std::string i = nonNegativeIndices(c, 1, in[axis]);
  c.result(0, "gather " + x + ", " + i + " {axis = " + std::to_string(axis) + "}");
}

void mapScatterElements(NodeContext& c) {
  const std::string reduction = c.attrString("reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "mul" && reduction != "min" && reduction != "max")
    c.fail("reduction '" + reduction + "' is not supported");
  const int64_t axis = normAxis(c, c.attrInt("axis", 0), c.rank(0));
  std::string rhs = "scatter_elements " + c.in(0) + ", " + c.in(1) + ", " + c.in(2) + " {axis = " + std::to_string(axis);
  if (reduction != "none") rhs += ", reduction = " + reduction;
  c.result(0, rhs + "}");
}

void mapExpand(NodeContext& c) {
  std::vector<int64_t> want = c.requireInts(1, "the shape");
  std::vector<int64_t> in = c.shape(0), out;
  if (!broadcastShapes(in, want, out)) c.fail("shape " + intsText(in) + " does not broadcast to " + intsText(want));
  checkedElementCount(out, "the expanded shape");
  if (const ConstTensor* k = c.known(0); k && smallEnough(out)) {
    c.define(0, foldBroadcastTo(*k, out));
    return;
  }
  std::string x = c.in(0);
  if (out == in) return c.alias(0, x);
  c.result(0, "broadcast " + x + " {shape = " + intsText(out) + "}");
}

void mapTile(NodeContext& c) {
  std::vector<int64_t> reps = c.requireInts(1, "repeats");
  std::vector<int64_t> in = c.shape(0);
  if (reps.size() != in.size()) c.fail("repeats has " + std::to_string(reps.size()) + " entries for rank " + std::to_string(in.size()));
  std::vector<int64_t> out = in;
  for (size_t k = 0; k < in.size(); ++k) {
    if (reps[k] < 0) c.fail("a repeat count is negative");
    out[k] = in[k] * reps[k];
  }
  checkedElementCount(out, "the tiled shape");
  c.result(0, "tile " + c.in(0) + " {repeats = " + intsText(reps) + "}");
}

// Pads `x` along every axis: pads = [begin..., end...]; mode constant/reflect/edge.
std::string padValue(NodeContext& c, std::string x, const std::vector<int64_t>& pads, const std::string& mode,
                     double value, bool lastIsResult) {
  std::vector<int64_t> shape = c.typeOf(x).shape;
  size_t r = shape.size();
  if (pads.size() != 2 * r) c.fail("pads has " + std::to_string(pads.size()) + " entries for rank " + std::to_string(r));
  bool any = false;
  for (int64_t p : pads) any = any || p != 0;
  if (!any) {
    if (lastIsResult) c.alias(0, x);
    return x;
  }
  std::string rhs = "pad " + x + " {pads = " + intsText(pads);
  if (mode != "constant") rhs += ", mode = " + mode;
  if (value != 0) rhs += ", value = " + floatText(value);
  rhs += "}";
  return lastIsResult ? c.result(0, rhs) : c.temp(rhs);
}

void mapPad(NodeContext& c) {
  std::string mode = c.attrString("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge") c.fail("mode '" + mode + "' is not supported");
  std::vector<int64_t> pads;
  double value = 0;
  int64_t r = c.rank(0);
  if (c.opset() < 11) {
    pads = c.attrInts(c.opset() < 2 ? "paddings" : "pads").value_or(std::vector<int64_t>{});
    value = c.attrFloat("value", 0.0);
  } else {
    pads = c.requireInts(1, "pads");
    if (c.has(2)) value = c.requireKnown(2, "the constant value").at(0);
    if (c.has(3)) {
      std::vector<int64_t> axes = c.requireInts(3, "axes");
      std::vector<int64_t> full(2 * r, 0);
      if (pads.size() != 2 * axes.size()) c.fail("pads and axes differ in length");
      for (size_t k = 0; k < axes.size(); ++k) {
        int64_t a = normAxis(c, axes[k], r);
        full[a] = pads[k];
        full[a + r] = pads[k + axes.size()];
      }
      pads = full;
    }
  }
  padValue(c, c.in(0), pads, mode, value, true);
}

void mapTrilu(NodeContext& c) {
  if (c.rank(0) < 2) c.fail("the input must be at least 2-D");
  int64_t k = c.has(1) ? c.requireKnown(1, "k").intAt(0) : 0;
  bool upper = c.attrInt("upper", 1) != 0;
  c.result(0, "trilu " + c.in(0) + " {upper = " + (upper ? "true" : "false") + ", k = " + std::to_string(k) + "}");
}

void mapGatherElements(NodeContext& c) {
  const int64_t r = c.rank(0);
  if (c.rank(1) != r) c.fail("data and indices differ in rank");
  const int64_t axis = normAxis(c, c.attrInt("axis", 0), r);
  c.result(0, "gather_elements " + c.in(0) + ", " + c.in(1) + " {axis = " + std::to_string(axis) + "}");
}

// a * b for the dims a block size makes; a located error where it leaves int64_t (a
// block size from the file can be anything).
int64_t blockProduct(NodeContext& c, int64_t a, int64_t b) {
  const std::optional<int64_t> p = checkedMul(a, b);
  if (!p) c.fail("blocksize " + std::to_string(b) + " makes a dim beyond 2^63");
  return *p;
}

void mapDepthToSpace(NodeContext& c) {
  std::vector<int64_t> s = c.shape(0);
  if (s.size() != 4) c.fail("the input must be 4-D");
  int64_t b = c.attrInt("blocksize", 0);
  if (b <= 0) c.fail("blocksize " + std::to_string(b) + " must be positive");
  const int64_t bb = blockProduct(c, b, b);
  if (s[1] % bb != 0) c.fail("blocksize " + std::to_string(b) + " does not divide the channels");
  int64_t n = s[0], ch = s[1], h = s[2], w = s[3];
  blockProduct(c, h, b), blockProduct(c, w, b);
  bool crd = c.attrString("mode", "DCR") == "CRD";
  std::string x = c.in(0);
  std::string r1 = crd ? c.temp("reshape " + x + " {shape = " + intsText({n, ch / (b * b), b, b, h, w}) + "}")
                       : c.temp("reshape " + x + " {shape = " + intsText({n, b, b, ch / (b * b), h, w}) + "}");
  std::string t = crd ? c.temp("transpose " + r1 + " {perm = [0, 1, 4, 2, 5, 3]}")
                      : c.temp("transpose " + r1 + " {perm = [0, 3, 4, 1, 5, 2]}");
  c.result(0, "reshape " + t + " {shape = " + intsText({n, ch / (b * b), h * b, w * b}) + "}");
}

void mapSpaceToDepth(NodeContext& c) {
  std::vector<int64_t> s = c.shape(0);
  if (s.size() != 4) c.fail("the input must be 4-D");
  int64_t b = c.attrInt("blocksize", 0);
  if (b <= 0 || s[2] % b != 0 || s[3] % b != 0) c.fail("blocksize " + std::to_string(b) + " does not divide the spatial dims");
  int64_t n = s[0], ch = s[1], h = s[2], w = s[3];
  blockProduct(c, blockProduct(c, ch, b), b);
  std::string r1 = c.temp("reshape " + c.in(0) + " {shape = " + intsText({n, ch, h / b, b, w / b, b}) + "}");
  std::string t = c.temp("transpose " + r1 + " {perm = [0, 3, 5, 1, 2, 4]}");
  c.result(0, "reshape " + t + " {shape = " + intsText({n, ch * b * b, h / b, w / b}) + "}");
}

// ---- reductions ---------------------------------------------------------------------

std::string reduceAttrs(NodeContext& c, int axesInput, int opsetSwitch, bool& noop) {
  int64_t r = c.rank(0);
  std::optional<std::vector<int64_t>> axes = axesInputOrAttr(c, axesInput, opsetSwitch);
  bool keep = c.attrInt("keepdims", 1) != 0;
  noop = false;
  std::string attrs = "{axis = ";
  if (!axes || axes->empty()) {
    if (c.attrInt("noop_with_empty_axes", 0) != 0) noop = true;
    attrs += "all";
  } else {
    std::vector<int64_t> a;
    for (int64_t v : *axes) a.push_back(normAxis(c, v, r));
    attrs += intsText(a);
  }
  attrs += keep ? ", keepdims = true}" : "}";
  return attrs;
}

template <const char* Op, int Switch>
void reduce(NodeContext& c) {
  bool noop = false;
  std::string attrs = reduceAttrs(c, 1, Switch, noop);
  std::string x = c.in(0);
  if (noop) return c.alias(0, x);
  c.result(0, std::string(Op) + " " + x + " " + attrs);
}

constexpr char kSum[] = "sum", kMean[] = "mean", kMaxR[] = "max", kMinR[] = "min", kProd[] = "prod",
               kSumSquare[] = "sumsquare", kL1[] = "l1", kL2[] = "l2", kLogSumExp[] = "logsumexp";

void mapReduceLogSum(NodeContext& c) {
  bool noop = false;
  std::string attrs = reduceAttrs(c, 1, 18, noop);
  std::string x = c.in(0);
  if (noop) return c.alias(0, x);
  c.result(0, "log " + c.temp("sum " + x + " " + attrs));
}

void argReduce(NodeContext& c, const char* op) {
  int64_t axis = normAxis(c, c.attrInt("axis", 0), c.rank(0));
  c.result(0, std::string(op) + " " + c.in(0) + " {axis = " + std::to_string(axis) +
                  (c.attrInt("keepdims", 1) ? ", keepdims = true" : "") +
                  (c.attrInt("select_last_index", 0) ? ", select_last_index = true}" : "}"));
}
void mapArgMax(NodeContext& c) { argReduce(c, "argmax"); }
void mapArgMin(NodeContext& c) { argReduce(c, "argmin"); }

void mapTopK(NodeContext& c) {
  int64_t k = c.opset() < 10 ? c.attrInt("k", -1) : c.requireInts(1, "k").at(0);
  if (c.attrInt("sorted", 1) == 0) c.fail("sorted = 0 is not supported");
  int64_t axis = normAxis(c, c.attrInt("axis", -1), c.rank(0));
  bool largest = c.attrInt("largest", 1) != 0;
  c.results(2, "topk " + c.in(0) + " {k = " + std::to_string(k) + ", axis = " + std::to_string(axis) +
                   (largest ? "" : ", largest = false") + "}");
}

void mapCumSum(NodeContext& c) {
  int64_t axis = normAxis(c, c.requireInts(1, "axis").at(0), c.rank(0));
  c.result(0, "cumsum " + c.in(0) + " {axis = " + std::to_string(axis) +
                  (c.attrInt("exclusive", 0) ? ", exclusive = true" : "") +
                  (c.attrInt("reverse", 0) ? ", reverse = true}" : "}"));
}

// ---- softmax family (opset < 13 coerces to 2-D at axis) -----------------------------

void softmaxLike(NodeContext& c, const char* op) {
  std::vector<int64_t> s = c.shape(0);
  int64_t r = static_cast<int64_t>(s.size());
  std::string x = c.in(0);
  if (c.opset() >= 13) {
    int64_t axis = normAxis(c, c.attrInt("axis", -1), r);
    c.result(0, std::string(op) + " " + x + " {axis = " + std::to_string(axis) + "}");
    return;
  }
  int64_t axis = c.attrInt("axis", 1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis > r) c.fail("axis out of range");
  if (axis == r - 1) {
    c.result(0, std::string(op) + " " + x + " {axis = -1}");
    return;
  }
  std::string flat = c.temp("reshape " + x + " {shape = " + intsText({product(s, 0, axis), product(s, axis)}) + "}");
  std::string y = c.temp(std::string(op) + " " + flat + " {axis = -1}");
  c.result(0, "reshape " + y + " {shape = " + intsText(s) + "}");
}
void mapSoftmax(NodeContext& c) { softmaxLike(c, "softmax"); }
void mapLogSoftmax(NodeContext& c) { softmaxLike(c, "log_softmax"); }

void mapHardmax(NodeContext& c) {
  std::vector<int64_t> s = c.shape(0);
  int64_t r = static_cast<int64_t>(s.size());
  std::string x = c.in(0);
  if (c.opset() < 13) {  // coerced to 2-D at `axis`
    int64_t axis = c.attrInt("axis", 1);
    if (axis < 0) axis += r;
    std::vector<int64_t> flatShape = {product(s, 0, axis), product(s, axis)};
    std::string flat = c.temp("reshape " + x + " {shape = " + intsText(flatShape) + "}");
    std::string h = c.temp("hardmax " + flat + " {axis = 1}");
    c.result(0, "reshape " + h + " {shape = " + intsText(s) + "}");
    return;
  }
  int64_t axis = normAxis(c, c.attrInt("axis", -1), r);
  c.result(0, "hardmax " + x + " {axis = " + std::to_string(axis) + "}");
}

// ---- linear algebra, convolution, pooling ---------------------------------------------

void mapMatMul(NodeContext& c) { c.result(0, "matmul " + c.in(0) + ", " + c.in(1)); }

void mapGemm(NodeContext& c) {
  const std::string a = c.in(0), b = c.in(1);
  // transA / transB are matmul's flags: the product reads the stored operand transposed
  // (a main graph keeps a `transpose` op's copy, made on every run: a classifier's
  // 1280x1000 weight took a fifth of mobilenet_v2's inference).
  const bool ta = c.attrInt("transA", 0) != 0, tb = c.attrInt("transB", 0) != 0;
  std::string flags;
  if (ta || tb)
    flags = std::string(" {") + (ta ? "transpose_a = true" : "") + (ta && tb ? ", " : "") + (tb ? "transpose_b = true" : "") + "}";
  const std::string product = "matmul " + a + ", " + b + flags;
  double alpha = c.attrFloat("alpha", 1.0), beta = c.attrFloat("beta", 1.0);
  bool hasC = c.has(2) && beta != 0;
  bool last = alpha == 1 && !hasC;
  std::string y = last ? c.result(0, product) : c.temp(product);
  if (last) return;
  if (alpha != 1) y = hasC ? c.temp("mul " + y + ", " + floatText(alpha)) : c.result(0, "mul " + y + ", " + floatText(alpha));
  if (!hasC) return;
  std::string cv = c.in(2);
  if (beta != 1) cv = c.temp("mul " + cv + ", " + floatText(beta));
  c.result(0, "add " + y + ", " + cv);
}

struct Window {
  std::vector<int64_t> kernel, strides, pads, dilations;
};

// kernel_shape / strides / pads / dilations / auto_pad of Conv and the pools,
// with SAME_* resolved to explicit pads.
Window windowAttrs(NodeContext& c, const std::vector<int64_t>& in, std::vector<int64_t> kernel) {
  size_t n = in.size() - 2;
  Window w;
  w.kernel = c.attrInts("kernel_shape").value_or(kernel);
  if (w.kernel.size() != n) c.fail("kernel_shape has " + std::to_string(w.kernel.size()) + " entries for " + std::to_string(n) + " spatial dims");
  w.strides = c.attrInts("strides").value_or(std::vector<int64_t>(n, 1));
  w.dilations = c.attrInts("dilations").value_or(std::vector<int64_t>(n, 1));
  w.pads = c.attrInts("pads").value_or(std::vector<int64_t>(2 * n, 0));
  if (w.strides.size() != n || w.dilations.size() != n || w.pads.size() != 2 * n)
    c.fail("strides, dilations or pads do not match the spatial rank " + std::to_string(n));
  for (size_t k = 0; k < n; ++k)
    if (w.strides[k] <= 0 || w.dilations[k] <= 0 || w.kernel[k] <= 0) c.fail("kernel, strides and dilations must be positive");
  std::string autoPad = c.attrString("auto_pad", "NOTSET");
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (size_t k = 0; k < n; ++k) {
      int64_t size = in[k + 2];
      int64_t out = (size + w.strides[k] - 1) / w.strides[k];
      int64_t eff = (w.kernel[k] - 1) * w.dilations[k] + 1;
      int64_t total = std::max<int64_t>(0, (out - 1) * w.strides[k] + eff - size);
      int64_t small = total / 2;
      w.pads[k] = autoPad == "SAME_UPPER" ? small : total - small;
      w.pads[k + n] = total - w.pads[k];
    }
  } else if (autoPad == "VALID") {
    std::fill(w.pads.begin(), w.pads.end(), 0);
  } else if (autoPad != "NOTSET") {
    c.fail("auto_pad '" + autoPad + "' is not supported");
  }
  return w;
}

void mapConv(NodeContext& c) {
  std::vector<int64_t> in = c.shape(0), ws = c.shape(1);
  if (in.size() < 3 || in.size() > 5) c.fail("Conv needs 1 to 3 spatial dims");
  // The kernel is W's dims after the first two: W must have X's rank.
  if (ws.size() != in.size())
    c.fail("the weight W has rank " + std::to_string(ws.size()) + "; it must have the input's rank " + std::to_string(in.size()));
  Window w = windowAttrs(c, in, std::vector<int64_t>(ws.begin() + 2, ws.end()));
  std::string attrs = "{stride = " + intsText(w.strides) + ", padding = " + intsText(w.pads) + ", dilation = " +
                      intsText(w.dilations) + ", groups = " + std::to_string(c.attrInt("group", 1)) + "}";
  std::string x = c.in(0), wt = c.in(1);
  c.result(0, "conv " + x + ", " + wt + (c.has(2) ? ", " + c.in(2) : std::string()) + " " + attrs);
}

// `[0.5, 2]`, a .pir float list.
std::string floatsText(const std::vector<double>& v) {
  std::string s = "[";
  for (size_t k = 0; k < v.size(); ++k) s += (k ? ", " : "") + floatText(v[k]);
  return s + "]";
}

// Resize (opsets 10 to 17) and Upsample: the output sizes are resolved here from
// `sizes` or `scales` (floor(in * scale)); `scales` is kept when given, since the
// coordinate modes divide by it rather than by the size ratio.
void resizeTo(NodeContext& c, std::vector<double> scales, std::vector<int64_t> sizes, std::vector<double> roi,
              const std::string& coordinates, const std::string& nearest) {
  const std::vector<int64_t> in = c.shape(0);
  const size_t r = in.size();
  std::string mode = c.attrString("mode", "nearest");
  if (mode != "nearest" && mode != "linear" && mode != "cubic") c.fail("mode '" + mode + "' is not supported");
  if (coordinates != "half_pixel" && coordinates != "pytorch_half_pixel" && coordinates != "align_corners" &&
      coordinates != "asymmetric" && coordinates != "tf_crop_and_resize" && coordinates != "tf_half_pixel_for_nn")
    c.fail("coordinate_transformation_mode '" + coordinates + "' is not supported");
  if (!sizes.empty()) {
    if (sizes.size() != r) c.fail("sizes has " + std::to_string(sizes.size()) + " entries for rank " + std::to_string(r));
    scales.clear();
  } else {
    if (scales.size() != r) c.fail("scales has " + std::to_string(scales.size()) + " entries for rank " + std::to_string(r));
    for (size_t d = 0; d < r; ++d) {
      if (!(scales[d] > 0) || !std::isfinite(scales[d])) c.fail("scales must be positive and finite");
      // ONNX computes the size in float; tf_crop_and_resize scales the region.
      double extent = static_cast<double>(in[d]);
      if (coordinates == "tf_crop_and_resize" && roi.size() == 2 * r) extent *= roi[r + d] - roi[d];
      const double size = std::floor(static_cast<double>(static_cast<float>(extent * scales[d])));
      if (!(size >= 0 && size < 0x1p62))
        c.fail("the resized size of dim " + std::to_string(d) + " (" + std::to_string(size) + ") is out of range");
      sizes.push_back(static_cast<int64_t>(size));
    }
  }
  checkedElementCount(sizes, "the resized shape");
  std::string rhs = "resize " + c.in(0) + " {shape = " + intsText(sizes) + ", mode = " + mode +
                    ", coordinate_transformation_mode = " + coordinates;
  if (mode == "nearest") rhs += ", nearest_mode = " + nearest;
  if (mode == "cubic") {
    if (double a = c.attrFloat("cubic_coeff_a", -0.75); a != -0.75) rhs += ", cubic_coeff_a = " + floatText(a);
    if (c.attrInt("exclude_outside", 0) != 0) rhs += ", exclude_outside = true";
  }
  if (!scales.empty()) rhs += ", scales = " + floatsText(scales);
  if (coordinates == "tf_crop_and_resize") {
    if (roi.size() != 2 * r) c.fail("tf_crop_and_resize needs roi: the begin of every axis, then the end");
    rhs += ", roi = " + floatsText(roi);
    if (double e = c.attrFloat("extrapolation_value", 0.0); e != 0) rhs += ", extrapolation_value = " + floatText(e);
  }
  c.result(0, rhs + "}");
}

std::vector<double> knownFloats(NodeContext& c, int input, const char* what) {
  if (!c.has(input)) return {};
  const ConstTensor& t = c.requireKnown(input, what);
  std::vector<double> v;
  for (int64_t k = 0; k < t.size(); ++k) v.push_back(t.at(k));
  return v;
}

void mapResize(NodeContext& c) {
  if (c.opset() < 11) {  // X, scales; asymmetric coordinates
    resizeTo(c, knownFloats(c, 1, "scales"), {}, {}, "asymmetric", "floor");
    return;
  }
  std::vector<int64_t> sizes;
  if (c.has(3)) sizes = c.requireInts(3, "sizes");
  std::vector<double> scales = knownFloats(c, 2, "scales");
  if (!sizes.empty()) scales.clear();
  resizeTo(c, scales, sizes, knownFloats(c, 1, "roi"), c.attrString("coordinate_transformation_mode", "half_pixel"),
           c.attrString("nearest_mode", "round_prefer_floor"));
}

void mapUpsample(NodeContext& c) {
  // Upsample: asymmetric coordinates, the nearest input at or before (floor).
  std::vector<double> scales = c.opset() < 9 ? c.attrFloats("scales").value_or(std::vector<double>{}) : knownFloats(c, 1, "scales");
  resizeTo(c, scales, {}, {}, "asymmetric", "floor");
}

void mapLRN(NodeContext& c) {
  const int64_t size = c.attrInt("size", 0);
  if (size < 1) c.fail("size must be >= 1");
  c.result(0, "lrn " + c.in(0) + " {size = " + std::to_string(size) + ", alpha = " + floatText(c.attrFloat("alpha", 1e-4)) +
                  ", beta = " + floatText(c.attrFloat("beta", 0.75)) + ", bias = " + floatText(c.attrFloat("bias", 1.0)) + "}");
}

// ConvTranspose: `conv_transpose` with pads resolved (output_shape and auto_pad
// give the total padding, which ONNX splits); a negative pad, which ONNX allows
// when output_shape asks for more than the full output, becomes zeros around the
// result (`pad`), and the bias (conv_transpose's operand otherwise) is added after it.
void mapConvTranspose(NodeContext& c) {
  std::vector<int64_t> in = c.shape(0), ws = c.shape(1);
  if (in.size() < 3 || in.size() > 5) c.fail("ConvTranspose needs 1 to 3 spatial dims");
  if (ws.size() != in.size())
    c.fail("the weight W has rank " + std::to_string(ws.size()) + "; it must have the input's rank " + std::to_string(in.size()));
  const size_t n = in.size() - 2;
  std::vector<int64_t> kernel = c.attrInts("kernel_shape").value_or(std::vector<int64_t>(ws.begin() + 2, ws.end()));
  std::vector<int64_t> strides = c.attrInts("strides").value_or(std::vector<int64_t>(n, 1));
  std::vector<int64_t> dilations = c.attrInts("dilations").value_or(std::vector<int64_t>(n, 1));
  std::vector<int64_t> extra = c.attrInts("output_padding").value_or(std::vector<int64_t>(n, 0));
  std::vector<int64_t> pads = c.attrInts("pads").value_or(std::vector<int64_t>(2 * n, 0));
  if (kernel.size() != n || strides.size() != n || dilations.size() != n || extra.size() != n || pads.size() != 2 * n)
    c.fail("kernel_shape, strides, dilations, output_padding or pads do not match the spatial rank " + std::to_string(n));
  for (size_t k = 0; k < n; ++k)
    if (strides[k] <= 0 || dilations[k] <= 0 || kernel[k] != ws[k + 2]) c.fail("strides and dilations must be positive, kernel_shape W's");
  const std::string autoPad = c.attrString("auto_pad", "NOTSET");
  std::optional<std::vector<int64_t>> outShape = c.attrInts("output_shape");
  if (!outShape && (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")) {
    outShape = std::vector<int64_t>(n);
    for (size_t k = 0; k < n; ++k) (*outShape)[k] = in[k + 2] * strides[k];
  } else if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER") {
    c.fail("auto_pad '" + autoPad + "' is not supported");
  }
  if (autoPad == "VALID") std::fill(pads.begin(), pads.end(), 0);
  if (outShape) {
    if (outShape->size() == n + 2) outShape->erase(outShape->begin(), outShape->begin() + 2);
    if (outShape->size() != n) c.fail("output_shape has " + std::to_string(outShape->size()) + " entries for " + std::to_string(n) + " spatial dims");
    for (size_t k = 0; k < n; ++k) {
      const int64_t total = strides[k] * (in[k + 2] - 1) + extra[k] + (kernel[k] - 1) * dilations[k] + 1 - (*outShape)[k];
      // ONNX's split, with Python's floor division for a negative total.
      const int64_t half = total >= 0 ? total / 2 : -((1 - total) / 2);
      pads[k] = autoPad == "SAME_UPPER" ? half : total - half;
      pads[k + n] = total - pads[k];
    }
  }
  std::vector<int64_t> cut(2 * n), grow(in.size() * 2, 0);
  bool grows = false;
  for (size_t k = 0; k < 2 * n; ++k) {
    cut[k] = std::max<int64_t>(pads[k], 0);
    const size_t axis = 2 + k % n + (k < n ? 0 : in.size());
    grow[axis] = std::max<int64_t>(-pads[k], 0);
    grows = grows || grow[axis] != 0;
  }
  std::string attrs = "{stride = " + intsText(strides) + ", padding = " + intsText(cut) + ", dilation = " +
                      intsText(dilations) + ", groups = " + std::to_string(c.attrInt("group", 1));
  bool anyExtra = false;
  for (int64_t e : extra) anyExtra = anyExtra || e != 0;
  if (anyExtra) attrs += ", output_padding = " + intsText(extra);
  attrs += "}";
  const std::string bias = c.has(2) ? ", " + c.in(2) : std::string();
  if (!grows) return (void)c.result(0, "conv_transpose " + c.in(0) + ", " + c.in(1) + bias + " " + attrs);
  // The grown border holds the bias too, so it is added after the padding.
  std::string y = c.temp("conv_transpose " + c.in(0) + ", " + c.in(1) + " " + attrs);
  y = padValue(c, y, grow, "constant", 0.0, !c.has(2));
  if (!c.has(2)) return;
  std::vector<int64_t> bshape(in.size() - 1, 1);
  bshape[0] = c.typeOf(y).shape[1];
  std::string b = c.temp("reshape " + c.in(2) + " {shape = " + intsText(bshape) + "}");
  c.result(0, "add " + y + ", " + b);
}

// Einsum: two operands onto `einsum`; one operand (a transpose, a sum) onto
// `sum` and `transpose`. Repeated letters within an operand (a diagonal) and
// ellipses are not supported.
void mapEinsum(NodeContext& c) {
  std::string eq;
  for (char ch : c.attrString("equation", "")) if (ch != ' ') eq += ch;
  if (eq.find("...") != std::string::npos) c.fail("an ellipsis in the equation is not supported");
  const int inputs = c.numInputs();
  if (inputs == 2) return (void)c.result(0, "einsum " + c.in(0) + ", " + c.in(1) + " {equation = \"" + eq + "\"}");
  if (inputs != 1) c.fail("einsum of " + std::to_string(inputs) + " operands is not supported (one or two are)");
  const size_t arrow = eq.find("->");
  const std::string a = eq.substr(0, arrow);
  for (char ch : a)
    if (!std::isalpha(static_cast<unsigned char>(ch))) c.fail("equation '" + eq + "' is not letters");
    else if (std::count(a.begin(), a.end(), ch) > 1) c.fail(std::string("letter '") + ch + "' repeats in an operand (a diagonal): not supported");
  if (static_cast<int64_t>(a.size()) != c.rank(0)) c.fail("equation '" + eq + "' does not match the input's rank");
  std::string out;
  if (arrow == std::string::npos) {
    out = a;
    std::sort(out.begin(), out.end());
  } else {
    out = eq.substr(arrow + 2);
  }
  std::string kept;
  std::vector<int64_t> summed;
  for (size_t d = 0; d < a.size(); ++d)
    if (out.find(a[d]) == std::string::npos) summed.push_back(static_cast<int64_t>(d));
    else kept += a[d];
  std::vector<int64_t> perm;
  for (char ch : out) {
    const size_t at = kept.find(ch);
    if (at == std::string::npos || std::count(out.begin(), out.end(), ch) > 1) c.fail(std::string("output letter '") + ch + "' is not an input letter once");
    perm.push_back(static_cast<int64_t>(at));
  }
  std::string x = c.in(0);
  bool identity = true;
  for (size_t k = 0; k < perm.size(); ++k) identity = identity && perm[k] == static_cast<int64_t>(k);
  if (!summed.empty()) {
    const std::string rhs = "sum " + x + " {axis = " + intsText(summed) + "}";
    x = identity ? c.result(0, rhs) : c.temp(rhs);
  }
  if (!identity) return (void)c.result(0, "transpose " + x + " {perm = " + intsText(perm) + "}");
  if (summed.empty()) c.alias(0, x);
}

// MaxPool / AveragePool: ceil_mode, dilations and count_include_pad are the pool
// ops' own attributes; MaxPool's Indices output is max_pool_with_indices' second
// result (i32, as pir's other indices), storage_order its own.
void pool(NodeContext& c, bool isMax) {
  std::vector<int64_t> in = c.shape(0);
  if (in.size() < 3 || in.size() > 5) c.fail("pooling needs 1 to 3 spatial dims");
  Window w = windowAttrs(c, in, {});
  const bool indices = isMax && c.wantsOutput(1);
  const int64_t storageOrder = c.attrInt("storage_order", 0);
  if (indices && storageOrder != 0 && storageOrder != 1)
    c.fail("storage_order must be 0 or 1, got " + std::to_string(storageOrder));
  std::string attrs = "{kernel = " + intsText(w.kernel) + ", stride = " + intsText(w.strides) + ", padding = " +
                      intsText(w.pads);
  if (std::any_of(w.dilations.begin(), w.dilations.end(), [](int64_t d) { return d != 1; }))
    attrs += ", dilation = " + intsText(w.dilations);
  if (c.attrInt("ceil_mode", 0) != 0) attrs += ", ceil_mode = true";
  if (!isMax && c.attrInt("count_include_pad", 0) != 0) attrs += ", count_include_pad = true";
  if (indices && storageOrder == 1) attrs += ", storage_order = column_major";
  attrs += "}";
  if (indices) return c.results(2, "max_pool_with_indices " + c.in(0) + " " + attrs);
  c.result(0, std::string(isMax ? "max_pool " : "average_pool ") + c.in(0) + " " + attrs);
}
void mapMaxPool(NodeContext& c) { pool(c, true); }
void mapAveragePool(NodeContext& c) { pool(c, false); }

void globalPool(NodeContext& c, const char* op) {
  std::vector<int64_t> axes;
  for (int64_t k = 2; k < c.rank(0); ++k) axes.push_back(k);
  c.result(0, std::string(op) + " " + c.in(0) + " {axis = " + intsText(axes) + ", keepdims = true}");
}
void mapGlobalAveragePool(NodeContext& c) { globalPool(c, "mean"); }
void mapGlobalMaxPool(NodeContext& c) { globalPool(c, "max"); }

// ---- normalisation ------------------------------------------------------------------------

// Training mode (opset 14): normalises with the batch statistics and returns
// the updated running statistics (ONNX's biased variance).
void batchNormTraining(NodeContext& c) {
  std::vector<int64_t> s = c.shape(0);
  if (s.size() < 2) c.fail("the input needs a channel dim (rank 2 or more)");
  std::vector<int64_t> axes = {0}, cshape(s.size(), 1);
  for (size_t k = 2; k < s.size(); ++k) axes.push_back(static_cast<int64_t>(k));
  cshape[1] = s[1];
  std::string red = "{axis = " + intsText(axes) + ", keepdims = true}";
  std::string x = c.in(0);
  std::string mu = c.temp("mean " + x + " " + red);
  std::string d = c.temp("sub " + x + ", " + mu);
  std::string d2 = c.temp("mul " + d + ", " + d);
  std::string var = c.temp("mean " + d2 + " " + red);
  std::string ve = c.temp("add " + var + ", " + floatText(c.attrFloat("epsilon", 1e-5)));
  std::string inv = c.temp("rsqrt " + ve);
  std::string n = c.temp("mul " + d + ", " + inv);
  std::string sc = c.temp("reshape " + c.in(1) + " {shape = " + intsText(cshape) + "}");
  std::string bs = c.temp("reshape " + c.in(2) + " {shape = " + intsText(cshape) + "}");
  std::string y = c.temp("mul " + n + ", " + sc);
  c.result(0, "add " + y + ", " + bs);
  double momentum = c.attrFloat("momentum", 0.9);
  for (int out : {1, 2}) {
    if (!c.wantsOutput(out)) continue;
    std::string batch = c.temp("reshape " + (out == 1 ? mu : var) + " {shape = [" + std::to_string(s[1]) + "]}");
    std::string old = c.temp("mul " + c.in(out + 2) + ", " + floatText(momentum));
    std::string now = c.temp("mul " + batch + ", " + floatText(1 - momentum));
    c.result(out, "add " + old + ", " + now);
  }
}

void mapBatchNormalization(NodeContext& c) {
  if (c.attrInt("training_mode", 0) != 0) return batchNormTraining(c);
  if (c.wantsOutput(1) || c.wantsOutput(2))
    c.fail("running statistics as outputs need training_mode = 1");
  if (c.opset() < 7 && c.attrInt("is_test", 0) == 0) c.fail("training mode is not supported");
  if (c.opset() < 9 && c.attrInt("spatial", 1) == 0) c.fail("spatial = 0 is not supported");
  std::string eps = floatText(c.attrFloat("epsilon", 1e-5));
  c.result(0, "batch_norm_inference " + c.in(0) + ", " + c.in(1) + ", " + c.in(2) + ", " + c.in(3) + ", " + c.in(4) +
                  " {epsilon = " + eps + "}");
}

void mapInstanceNormalization(NodeContext& c) {
  std::vector<int64_t> s = c.shape(0);
  if (s.size() < 3) c.fail("the input needs a spatial dim");
  c.result(0, "group_norm " + c.in(0) + ", " + c.in(1) + ", " + c.in(2) + " {groups = " + std::to_string(s[1]) +
                  ", epsilon = " + floatText(c.attrFloat("epsilon", 1e-5)) + "}");
}

void mapLayerNormalization(NodeContext& c) {
  std::vector<int64_t> s = c.shape(0);
  int64_t r = static_cast<int64_t>(s.size());
  int64_t axis = normAxis(c, c.attrInt("axis", -1), r);
  double eps = c.attrFloat("epsilon", 1e-5);
  if (c.attrInt("stash_type", 1) != 1) c.fail("stash_type other than 1 (float) is not supported");
  std::string x = c.in(0), scale = c.in(1);
  std::vector<int64_t> normShape(s.begin() + axis, s.end());
  bool stats = c.wantsOutput(1) || c.wantsOutput(2);
  // layer_norm takes gamma and beta of the normalised shape; broadcasting ones and
  // the Mean / InvStdDev outputs take the composition below.
  if (!stats && c.shape(1) == normShape && (!c.has(2) || c.shape(2) == normShape)) {
    std::string bias = c.has(2) ? c.in(2) : c.constant(foldBroadcastTo(scalarOf(c.elem(0), 0), normShape));
    std::string attrs = "{epsilon = " + floatText(eps);
    if (axis != r - 1) attrs += ", axis = " + std::to_string(axis);
    c.result(0, "layer_norm " + x + ", " + scale + ", " + bias + " " + attrs + "}");
    return;
  }
  std::vector<int64_t> axes;
  for (int64_t k = axis; k < r; ++k) axes.push_back(k);
  std::string red = "{axis = " + intsText(axes) + ", keepdims = true}";
  std::string mu = c.wantsOutput(1) ? c.result(1, "mean " + x + " " + red) : c.temp("mean " + x + " " + red);
  std::string d = c.temp("sub " + x + ", " + mu);
  std::string d2 = c.temp("mul " + d + ", " + d);
  std::string var = c.temp("mean " + d2 + " " + red);
  std::string ve = c.temp("add " + var + ", " + floatText(eps));
  std::string inv = c.wantsOutput(2) ? c.result(2, "rsqrt " + ve) : c.temp("rsqrt " + ve);
  std::string n = c.temp("mul " + d + ", " + inv);
  if (!c.has(2)) return (void)c.result(0, "mul " + n + ", " + scale);
  std::string sc = c.temp("mul " + n + ", " + scale);
  c.result(0, "add " + sc + ", " + c.in(2));
}

void mapLpNormalization(NodeContext& c) {
  int64_t p = c.attrInt("p", 2);
  int64_t axis = normAxis(c, c.attrInt("axis", -1), c.rank(0));
  if (p != 1 && p != 2) c.fail("p must be 1 or 2");
  std::string x = c.in(0);
  std::string nrm = c.temp(std::string(p == 1 ? "l1 " : "l2 ") + x + " {axis = " + std::to_string(axis) + ", keepdims = true}");
  c.result(0, "div " + x + ", " + nrm);
}

// ---- other ----------------------------------------------------------------------------------

void mapDropout(NodeContext& c) {
  // Inference: the identity (training_mode must be false or absent).
  if (c.opset() >= 12 && c.has(2)) {
    const ConstTensor& t = c.requireKnown(2, "training_mode");
    if (t.intAt(0) != 0 && c.requireKnown(1, "the ratio (in training mode)").at(0) != 0)
      c.fail("training_mode = true is not supported (pir's dropout draws other random numbers than ONNX's)");
  }
  if (c.opset() < 7 && c.attrInt("is_test", 0) == 0) c.fail("training mode is not supported");
  if (const ConstTensor* k = c.known(0)) c.define(0, *k);
  else c.alias(0, c.in(0));
  if (c.wantsOutput(1)) {
    std::string on = c.constant(scalarOf(Elem::Bool, 1));
    c.result(1, "broadcast " + on + " {shape = " + intsText(c.shape(0)) + "}");
  }
}

void mapOneHot(NodeContext& c) {
  int64_t depth = c.requireKnown(1, "depth").intAt(0);
  const ConstTensor& values = c.requireKnown(2, "values");
  if (values.size() != 2) c.fail("values must hold [off, on]");
  if (depth <= 0) c.fail("depth must be positive");
  int64_t r = c.rank(0);
  int64_t axis = c.attrInt("axis", -1);
  if (axis < -(r + 1) || axis > r) c.fail("axis out of range");
  if (axis < 0) axis += r + 1;
  // onehot counts an index in [-depth, 0) from the end, as ONNX does; float indices
  // are cast first (toward zero).
  std::string idx = elemIsFloat(c.elem(0)) ? c.temp("cast " + c.in(0) + " {dtype = i32}") : c.in(0);
  std::string attrs = "{num_classes = " + std::to_string(depth) + ", values = [" + floatText(values.at(0)) + ", " +
                      floatText(values.at(1)) + "], dtype = " + elemText(values.elem);
  if (axis != r) attrs += ", axis = " + std::to_string(axis);
  c.result(0, "onehot " + idx + " " + attrs + "}");
}

// NegativeLogLikelihoodLoss over `logp` [N, C, d...] (input 0, or SoftmaxCrossEntropyLoss's
// log_softmax): `nll_loss` takes the classes last, so d... moves before them; the
// labels are input 1 and the class weights, when given, input 2.
void nllLoss(NodeContext& c, std::string logp) {
  const int64_t r = c.typeOf(logp).rank();
  if (r < 2) c.fail("the input must be [N, C, d...], got rank " + std::to_string(r));
  if (r > 2) {  // [N, C, d...] -> [N, d..., C]
    std::vector<int64_t> perm = {0};
    for (int64_t k = 2; k < r; ++k) perm.push_back(k);
    perm.push_back(1);
    logp = c.temp("transpose " + logp + " {perm = " + intsText(perm) + "}");
  }
  const std::string reduction = c.attrString("reduction", "mean");
  if (reduction != "mean" && reduction != "sum" && reduction != "none") c.fail("reduction '" + reduction + "' is not supported");
  std::string attrs = "{reduction = " + reduction + ", log_prob = true";
  if (c.hasAttr("ignore_index")) attrs += ", ignore_index = " + std::to_string(c.attrInt("ignore_index", 0));
  c.result(0, "nll_loss " + logp + ", " + c.in(1) + (c.has(2) ? ", " + c.in(2) : std::string()) + " " + attrs + "}");
}

void mapSoftmaxCrossEntropyLoss(NodeContext& c) {
  std::string scores = c.in(0);
  nllLoss(c, c.wantsOutput(1) ? c.result(1, "log_softmax " + scores + " {axis = 1}")
                              : c.temp("log_softmax " + scores + " {axis = 1}"));
}

void mapNegativeLogLikelihoodLoss(NodeContext& c) { nllLoss(c, c.in(0)); }

const std::unordered_map<std::string, Handler>& table() {
  static const std::unordered_map<std::string, Handler> kTable = {
      {"Abs", mapAbs},
      {"Neg", mapNeg},
      {"Sign", unary<kSign>},
      {"Exp", unary<kExp>},
      {"Log", unary<kLog>},
      {"Sqrt", unary<kSqrt>},
      {"Reciprocal", unary<kReciprocal>},
      {"Sin", unary<kSin>},
      {"Cos", unary<kCos>},
      {"Tanh", unary<kTanh>},
      {"Sigmoid", unary<kSigmoid>},
      {"Relu", unary<kRelu>},
      {"Ceil", unary<kCeil>},
      {"Floor", unary<kFloor>},
      {"Round", unary<kRound>},
      {"IsNaN", unary<kIsNaN>},
      {"IsInf", mapIsInf},
      {"Not", unary<kNot>},
      {"Softplus", unary<kSoftplus>},
      {"Erf", unary<kErf>},
      {"Identity", mapIdentity},
      {"Add", mapAdd},
      {"Sub", mapSub},
      {"Mul", mapMul},
      {"Div", mapDiv},
      {"Pow", mapPow},
      {"Mod", mapMod},
      {"Equal", mapEqual},
      {"Greater", mapGreater},
      {"Less", mapLess},
      {"GreaterOrEqual", mapGreaterOrEqual},
      {"LessOrEqual", mapLessOrEqual},
      {"And", mapAnd},
      {"Or", mapOr},
      {"Xor", mapXor},
      {"Max", mapMax},
      {"Min", mapMin},
      {"Sum", mapSum},
      {"Mean", mapMean},
      {"Where", mapWhere},
      {"Clip", mapClip},
      {"LeakyRelu", mapLeakyRelu},
      {"PRelu", mapPRelu},
      {"Elu", mapElu},
      {"Selu", mapSelu},
      {"Celu", mapCelu},
      {"HardSigmoid", mapHardSigmoid},
      {"HardSwish", mapHardSwish},
      {"Softsign", mapSoftsign},
      {"ThresholdedRelu", mapThresholdedRelu},
      {"Mish", mapMish},
      {"Sinh", mapSinh},
      {"Cosh", mapCosh},
      {"Tan", mapTan},
      {"Asinh", mapAsinh},
      {"Acosh", mapAcosh},
      {"Atanh", mapAtanh},
      {"Trilu", mapTrilu},
      {"GatherElements", mapGatherElements},
      {"Shrink", mapShrink},
      {"Cast", mapCast},
      {"CastLike", mapCastLike},
      {"Constant", mapConstant},
      {"Shape", mapShape},
      {"Size", mapSize},
      {"ConstantOfShape", mapConstantOfShape},
      {"Range", mapRange},
      {"EyeLike", mapEyeLike},
      {"Reshape", mapReshape},
      {"Flatten", mapFlatten},
      {"Transpose", mapTranspose},
      {"Squeeze", mapSqueeze},
      {"Unsqueeze", mapUnsqueeze},
      {"Concat", mapConcat},
      {"Split", mapSplit},
      {"Slice", mapSlice},
      {"Gather", mapGather},
      {"ScatterElements", mapScatterElements},
      {"Scatter", mapScatterElements},
      {"Expand", mapExpand},
      {"Tile", mapTile},
      {"Pad", mapPad},
      {"DepthToSpace", mapDepthToSpace},
      {"SpaceToDepth", mapSpaceToDepth},
      {"ReduceSum", reduce<kSum, 13>},
      {"ReduceMean", reduce<kMean, 18>},
      {"ReduceMax", reduce<kMaxR, 18>},
      {"ReduceMin", reduce<kMinR, 18>},
      {"ReduceProd", reduce<kProd, 18>},
      {"ReduceSumSquare", reduce<kSumSquare, 18>},
      {"ReduceL1", reduce<kL1, 18>},
      {"ReduceL2", reduce<kL2, 18>},
      {"ReduceLogSumExp", reduce<kLogSumExp, 18>},
      {"ReduceLogSum", mapReduceLogSum},
      {"ArgMax", mapArgMax},
      {"ArgMin", mapArgMin},
      {"TopK", mapTopK},
      {"CumSum", mapCumSum},
      {"Softmax", mapSoftmax},
      {"LogSoftmax", mapLogSoftmax},
      {"Hardmax", mapHardmax},
      {"MatMul", mapMatMul},
      {"Gemm", mapGemm},
      {"Conv", mapConv},
      {"ConvTranspose", mapConvTranspose},
      {"Resize", mapResize},
      {"Upsample", mapUpsample},
      {"LRN", mapLRN},
      {"Einsum", mapEinsum},
      {"MaxPool", mapMaxPool},
      {"AveragePool", mapAveragePool},
      {"GlobalAveragePool", mapGlobalAveragePool},
      {"GlobalMaxPool", mapGlobalMaxPool},
      {"BatchNormalization", mapBatchNormalization},
      {"InstanceNormalization", mapInstanceNormalization},
      {"LayerNormalization", mapLayerNormalization},
      {"LpNormalization", mapLpNormalization},
      {"Dropout", mapDropout},
      {"OneHot", mapOneHot},
      {"NegativeLogLikelihoodLoss", mapNegativeLogLikelihoodLoss},
      {"SoftmaxCrossEntropyLoss", mapSoftmaxCrossEntropyLoss},
  };
  return kTable;
}

}  // namespace

bool mapNode(NodeContext& ctx, const std::string& opType) {
  auto it = table().find(opType);
  if (it == table().end()) return false;
  it->second(ctx);
  return true;
}

std::vector<std::string> supportedOpTypes() {
  std::vector<std::string> names;
  for (const auto& [name, handler] : table()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace pir::onnx_import
