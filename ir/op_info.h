// The op table (ir/ops.def) as data: OpCode, arity, attribute specs, flags.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/attr.h"
#include "ir/dtype.h"
#include "ir/op_enums.h"

namespace pir {

enum class OpCode : uint16_t {
#define PIR_OP(id, text, mn, mx, attrs, infer, grad, flags, kernel, operands, cost) id,
#include "ir/ops.def"
#undef PIR_OP
};

inline constexpr int kNumOpCodes = 0
#define PIR_OP(id, text, mn, mx, attrs, infer, grad, flags, kernel, operands, cost) +1
#include "ir/ops.def"
#undef PIR_OP
    ;

enum class GradKind : uint8_t { Diff, Zero, NoGrad, NA };

// What an op costs on the emulated device (ops.def's Cost column; the cycles of
// each class are in device/cost_model.h).
enum class CostClass : uint8_t {
  None,            // declarations, exchange blocks
  Control,         // call, repeat, conditional: their bodies cost
  View,            // reshape_, transpose_: a view, no phases
  Copy,            // data movement: one pass over the elements
  Simple,          // cheap elementwise arithmetic
  Transcendental,  // exp, log, tanh, div, ...: several cycles an element
  Reduce,          // work = input elements
  Normalise,       // softmax, norms: work = input elements, several passes
  Random,
  MatMul,
  Conv,
  Collective,
  ExchangeOnly,    // ipu_copy, io_tile_copy: moved by the exchange, no compute
  Io,              // host/remote IO and print_tensor
};

enum OpFlag : uint32_t {
  F_DECL = 1u << 0,         // `var` / `const` declaration, not an op statement
  F_REGION = 1u << 1,       // has a nested op list (exchange block)
  F_ELEMENTWISE = 1u << 2,  // elementwise (broadcasting where binary)
  F_INPLACE = 1u << 3,      // overwrites operand 0; its result (if bound) aliases operand 0
  F_VIEW = 1u << 4,         // in-place op that changes the view's shape (reshape_, transpose_)
  F_IO = 1u << 5,           // an exchange op: may appear in `exchange {}`
  F_SIDE_EFFECT = 1u << 6,  // must not be removed by dce even if unused
  F_CONTROL = 1u << 7,      // takes graph-call operands
  F_RANDOM = 1u << 8,       // consumes a seed
  F_COLLECTIVE = 1u << 9,   // replica collective
  F_EXTENSION = 1u << 10,   // not in ops.md: a pir extension (docs/ops.md says so)
};

// Attribute value types of the spec strings in ops.def.
enum class AttrType : uint8_t {
  Int,       // an integer
  Float,     // a number (int or float literal, nan, inf)
  Bool,      // true / false
  Str,       // "string"
  DType,     // a dtype word (aliases accepted)
  Ints,      // a list of integers [1, 2] (a single integer is accepted as [n] where noted by the rule)
  Floats,    // a list of numbers
  Axes,      // an integer, a list of integers, or the word `all`
  Group,     // a tuple (stride, group_size) or (stride)
  Graph,     // @name
  Values,    // a list of %names
  Resource,  // $name
  Enum,      // one of the words of an ir/op_enums.def type (`enum(CollectiveOp)`)
};

enum class AttrPresence : uint8_t { Required, Optional, Defaulted };

struct AttrSpec {
  std::string name;
  AttrType type;
  AttrPresence presence;
  std::optional<EnumId> enumType;       // when Enum
  std::vector<std::string> enumValues;  // when Enum: its words, in order
  Attr defaultValue;  // when Defaulted
};

// One operand position of ops.def's operands column (see the header of ops.def).
enum class OperandRole : uint8_t {
  Tensor,    // a value or a literal
  Resource,  // `$s`: a stream or remote buffer name
};
struct OperandSpec {
  std::string name;                    // as ops.md writes it
  OperandRole role = OperandRole::Tensor;
  std::optional<DType> literalDType;   // `index: i32`: a literal here has this dtype
};

// How many results an op has (ops.def's `-> ...` part of the operands column).
struct ResultSpec {
  enum class Kind : uint8_t {
    Fixed,           // `-> ()` is 0, `-> a, b` is 2; no `->` is 1
    PerListElement,  // `-> parts[splits]`: one per element of the ints attribute
    AttrCount,       // `-> seeds[n]`: the int attribute's value
    CalleeOutputs,   // `-> @outputs`: the outputs of the (first) callee
  } kind = Kind::Fixed;
  size_t count = 1;
  std::string attr;
};

struct OpInfo {
  OpCode code{};
  std::string_view name;
  int minOperands = 0;
  int maxOperands = 0;  // -1: variadic
  std::string_view attrSpecText;
  GradKind grad = GradKind::NA;
  uint32_t flags = 0;
  std::vector<AttrSpec> attrs;  // parsed from attrSpecText once, at start-up
  std::string_view inferRule;     // the Infer column's name (Binary, Reduce, ...), for the docs
  CostClass costClass = CostClass::Simple;
  // Parsed from ops.def's operands column once, at start-up:
  std::string operandNames;           // for people: "x, y", "t, x[, f]", "@g(args...)" (no annotations)
  std::vector<OperandSpec> operands;  // the named positions, in order ("[", "]" dropped)
  size_t callees = 0;                 // graph-call operands (`@g(args...)`)
  int inplaceOperand = -1;            // the `!` position (`t!`: the op overwrites it), or -1
  ResultSpec results;

  // The spec of operand position i (a plain tensor past the listed positions).
  const OperandSpec& operand(size_t i) const;

  bool has(OpFlag f) const { return (flags & f) != 0; }
  const AttrSpec* findAttr(std::string_view key) const {
    for (auto& a : attrs)
      if (a.name == key) return &a;
    return nullptr;
  }
};

const OpInfo& opInfo(OpCode c);
inline std::string_view opName(OpCode c) { return opInfo(c).name; }
// Op-statement names, including the alias `negate`; declarations (var, const,
// exchange) are not op names and are not found.
std::optional<OpCode> lookupOp(std::string_view name);
// All op-statement names, for completion and docs.
std::vector<std::string_view> allOpNames();

// Other names of ops (`negate` for `neg`), accepted by lookupOp.
struct OpAlias {
  std::string_view alias;
  OpCode code{};
};
std::span<const OpAlias> opAliases();

// Attributes every op accepts (runtime.md §7 placement).
const std::vector<AttrSpec>& placementAttrs();

}  // namespace pir
