// Gradient rules of the differentiable ops (ops.md "Grad" column), used by the
// autodiff transform (passes/autodiff.cpp). Internal to passes/.
//
// One rule per op whose ops.def row has Grad = Diff: `void grad##Id(GradContext&)`,
// collected into a table generated from ops.def, so a differentiable op without
// a rule does not link. Zero-gradient ops (Grad = Zero) have no rule: their
// operands simply receive no contribution.
#pragma once
#include <string>
#include <vector>

#include "ir/attr.h"
#include "ir/ir.h"
#include "ir/op_build.h"
#include "ir/rewriter.h"

namespace pir::ad {

// What a rule sees of one forward op while the gradient graph is being built.
// Every value a rule gets or makes belongs to the gradient graph; forward
// values reach it as activations (created on first use).
class GradContext {
 public:
  virtual ~GradContext() = default;
  OpBuilder& b;
  const Op& op;

  // Forward operand i as a gradient-graph operand (an activation, or the literal).
  virtual Operand in(size_t i) = 0;
  // Forward operand i as a value (a literal becomes a constant).
  Value* inValue(size_t i);
  // Forward result k (an activation).
  virtual Value* out(size_t k) = 0;
  // The gradient flowing into result k, or nullptr when none does.
  virtual Value* grad(size_t k) = 0;
  // Operand i needs a gradient (it is reached from a required input and differentiable).
  virtual bool wants(size_t i) const = 0;
  // Adds `g` (exactly operand i's type) to operand i's gradient.
  virtual void give(size_t i, Value* g) = 0;
  // call: the gradient graph of the callee (differentiated first) and what it needs.
  struct CalleeGrad {
    Graph* grad = nullptr;
    std::vector<size_t> providedOutputs;  // callee output index of each %grad input
    std::vector<size_t> requiredParams;   // callee parameter index of each gradient output
  };
  virtual const CalleeGrad& calleeGrad(const Graph& callee) = 0;
  // conditional: one gradient branch per forward branch, both taking the
  // gradients of `outputs` (result indices), then every argument of the
  // forward conditional, and returning the gradients of `operands`.
  struct ConditionalGrad {
    Graph* branch[2] = {nullptr, nullptr};
    std::vector<size_t> outputs;
    std::vector<size_t> operands;
  };
  virtual const ConditionalGrad& conditionalGrad(const Op& op) = 0;
  // The forward graph value an activation of a gradient graph stands for,
  // mapped to this call site: operand (for callee params) or result (outputs).
  virtual Operand callSiteActivation(const Op& call, size_t calleeIndex, const Value* calleeValue) = 0;

  const TensorType& inType(size_t i) const { return op.operands[i].type(); }
  const TensorType& outType(size_t k) const { return op.results[k]->type; }
  // The gradient of result k, or zeros of its type.
  Value* gradOrZeros(size_t k);

  // ---- emission helpers (all in the gradient graph) ----
  // An op without attributes (or with its row's defaults).
  Value* emit(OpCode code, std::vector<Operand> operands);
  Value* emit(OpCode code, std::initializer_list<Value*> operands);
  Value* emitLit(OpCode code, Value* x, double literal);  // op x, literal
  // An op with typed attributes (ir/op_build.h): c.emit({g}, build::Sum{}.axis(0).keepdims(true)).
  template <OpCode Code>
  Value* emit(std::vector<Operand> operands, build::Attrs<Code> a) {
    return b.create1(std::move(operands), std::move(a));
  }
  template <OpCode Code>
  Value* emit(std::initializer_list<Value*> operands, build::Attrs<Code> a) {
    return b.create1(operands, std::move(a));
  }
  Value* zeros(const TensorType& t);
  Value* scalar(DType dtype, double v);
  Value* cast(Value* v, DType dtype);
  // Sums `g` (broadcast from `target`'s shape, NumPy rules) back to `target`.
  Value* sumTo(Value* g, const Shape& target);
  Value* reshape(Value* v, const Shape& shape);
  // `g`, of a reduction's result, reshaped with size-1 reduced axes and broadcast to `shape`.
  Value* expandReduced(Value* g, const std::vector<bool>& reduced, const Shape& shape);

  // ---- attributes ----
  // A rule reads the forward op's attributes through the typed accessors of
  // ir/op_attrs.h (pir::attrs::Softmax{c.op}.axis()): each rule serves one row.
  // The reduced axes of a reduction's `axis` (int, list, or all) for rank r.
  std::vector<bool> reducedAxes(size_t rank) const;
  int64_t normAxis(int64_t axis, size_t rank) const { return axis < 0 ? axis + static_cast<int64_t>(rank) : axis; }

 protected:
  GradContext(OpBuilder& builder, const Op& forwardOp) : b(builder), op(forwardOp) {}
};

using GradRule = void (*)(GradContext&);

// The rule of `code`, or nullptr (Zero / NoGrad / NA ops).
GradRule gradRule(OpCode code);
// Whether this op instance has a gradient: its row says Diff and its attributes
// allow one (replicated_all_reduce: add/mean; reduce_scatter: add). Zero ops
// count as differentiable (their gradient is zero).
bool hasGradient(const Op& op);
// Whether operand i of a differentiable op carries a gradient (fmod's y, the
// statistics of batch_norm_inference and a conditional's condition do not;
// non-float operands never do).
bool operandDifferentiable(const Op& op, size_t i);

}  // namespace pir::ad
