// What an op mapping (onnx_ops.cpp) sees of the import in progress: the node,
// its inputs' types and known values, and the means to emit .pir statements
// or to define an output as a known (folded) value.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "importers/onnx/tensor_data.h"

namespace onnx {
class NodeProto;
class AttributeProto;
class GraphProto;
}  // namespace onnx

namespace pir::onnx_import {

class GraphImporter;

struct TypeInfo {
  Elem elem = Elem::F32;
  std::vector<int64_t> shape;
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
};

class NodeContext {
 public:
  NodeContext(GraphImporter& importer, const onnx::NodeProto& node, int opset)
      : importer_(importer), node_(node), opset_(opset) {}

  int opset() const { return opset_; }
  const onnx::NodeProto& node() const { return node_; }

  // ---- inputs (an empty name is an absent optional input)
  int numInputs() const;
  bool has(int i) const;
  TypeInfo type(int i) const;
  Elem elem(int i) const { return type(i).elem; }
  std::vector<int64_t> shape(int i) const { return type(i).shape; }
  int64_t rank(int i) const { return type(i).rank(); }
  // The known value of input i, or nullptr.
  const ConstTensor* known(int i) const;
  // The known value, or an error saying that `what` must be static.
  const ConstTensor& requireKnown(int i, const char* what) const;
  std::vector<int64_t> requireInts(int i, const char* what) const;
  // The pir value of input i ("%name"), declaring a var/const for a known value.
  std::string in(int i);

  // ---- attributes
  const onnx::AttributeProto* attr(const char* name) const;
  bool hasAttr(const char* name) const { return attr(name) != nullptr; }
  int64_t attrInt(const char* name, int64_t def) const;
  double attrFloat(const char* name, double def) const;
  std::string attrString(const char* name, const std::string& def) const;
  std::optional<std::vector<int64_t>> attrInts(const char* name) const;
  std::optional<std::vector<double>> attrFloats(const char* name) const;

  // ---- outputs
  int numOutputs() const;
  bool wantsOutput(int i) const;  // present and named
  // Emits `%out_i = RHS` and returns "%out_i".
  std::string result(int i, const std::string& rhs);
  // Emits `%o0, %o1, ... = RHS` for outputs 0..n-1 (absent ones get throwaway names).
  void results(int n, const std::string& rhs);
  // Emits `%tmp = RHS` (a fresh name) and returns it.
  std::string temp(const std::string& rhs);
  // The type pir inferred for a value this node emitted ("%name").
  TypeInfo typeOf(const std::string& value) const;
  // Output i is the existing pir value `value` (no statement).
  void alias(int i, const std::string& value);
  // Output i is a known value (folded); no statement unless a later op needs it.
  void define(int i, ConstTensor value);
  // Declares a constant for `value` and returns its pir name.
  std::string constant(const ConstTensor& value);
  // Declares a constant of `shape` whose every element is the one element of
  // `scalar`, without making the tensor (its size comes from a shape, not the file).
  std::string uniformConstant(const ConstTensor& scalar, const std::vector<int64_t>& shape);

  [[noreturn]] void fail(const std::string& message) const;

 private:
  // The name a constant declared for this node is claimed from: its first output's, or its op type's.
  std::string constantBase() const;

  GraphImporter& importer_;
  const onnx::NodeProto& node_;
  int opset_;
};

// Normalises a possibly negative axis against `rank`; errors when out of range.
int64_t normAxis(const NodeContext& ctx, int64_t axis, int64_t rank);
// `[1, 2, 3]` as a .pir attribute list.
std::string intsText(const std::vector<int64_t>& v);
// A float as .pir reads it back exactly (f32 precision).
std::string floatText(double v);

// Maps one node; false when op_type has no mapping (the caller reports it).
bool mapNode(NodeContext& ctx, const std::string& opType);
// The op types with a mapping (for docs and the coverage report).
std::vector<std::string> supportedOpTypes();

}  // namespace pir::onnx_import
