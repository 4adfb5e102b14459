// Per-op signature checks, literal typing, and the whole-module re-check.
#include "ir/verifier.h"

#include "ir/number_format.h"
#include "ir/suggest.h"

#include <cmath>
#include <filesystem>
#include <string>
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "ir/infer.h"
#include "ir/op_attrs.h"
#include "ir/rewriter.h"

namespace pir {

namespace {

// Operand roles, callee counts and fixed literal dtypes come from ops.def's
// operands column (OpInfo::operand, OpInfo::callees).
using Role = OperandRole;
Role operandRole(OpCode code, size_t i) { return opInfo(code).operand(i).role; }
size_t expectedCallees(OpCode code) { return opInfo(code).callees; }
std::optional<DType> fixedLiteralDType(OpCode code, size_t i) { return opInfo(code).operand(i).literalDType; }

std::string prefix(const Op& op) { return std::string(op.info().name) + ": "; }

const char* typeWord(const AttrSpec& s) {
  switch (s.type) {
    case AttrType::Int: return "an integer";
    case AttrType::Float: return "a number";
    case AttrType::Bool: return "true or false";
    case AttrType::Str: return "a string";
    case AttrType::DType: return "a dtype";
    case AttrType::Ints: return "a list of integers";
    case AttrType::Floats: return "a list of numbers";
    case AttrType::Axes: return "an integer, a list of integers or all";
    case AttrType::Group: return "a replica grouping (stride, group_size)";
    case AttrType::Graph: return "a graph name @g";
    case AttrType::Values: return "a list of %values";
    case AttrType::Resource: return "a $resource";
    case AttrType::Enum: return "one of";
  }
  return "?";
}

bool attrMatches(const AttrSpec& s, const Attr& a) {
  if (s.presence == AttrPresence::Optional && a.isWord("none")) return true;
  std::vector<int64_t> ints;
  switch (s.type) {
    case AttrType::Int: return a.kind == Attr::Kind::Int;
    case AttrType::Float: return a.isNumber();
    case AttrType::Bool: return a.kind == Attr::Kind::Bool;
    case AttrType::Str: return a.kind == Attr::Kind::String;
    case AttrType::DType: return (a.kind == Attr::Kind::Word || a.kind == Attr::Kind::String) && parseDType(a.s);
    case AttrType::Ints: return attrInts(a, ints);
    case AttrType::Floats:
      if (a.isNumber()) return true;
      if (a.kind != Attr::Kind::List && a.kind != Attr::Kind::Tuple) return false;
      for (auto& item : a.items)
        if (!item.isNumber()) return false;
      return true;
    case AttrType::Axes: return a.isWord("all") || attrInts(a, ints);
    case AttrType::Group:
      return (a.kind == Attr::Kind::Tuple || a.kind == Attr::Kind::List || a.kind == Attr::Kind::Int) &&
             attrInts(a, ints) && !ints.empty() && ints.size() <= 2;
    case AttrType::Graph: return a.kind == Attr::Kind::Graph;
    case AttrType::Values:
      if (a.kind != Attr::Kind::List && a.kind != Attr::Kind::Tuple) return false;
      for (auto& item : a.items)
        if (item.kind != Attr::Kind::Value) return false;
      return true;
    case AttrType::Resource: return a.kind == Attr::Kind::Resource;
    case AttrType::Enum: return a.kind == Attr::Kind::Word && s.enumType && enumIndex(*s.enumType, a.s);
  }
  return false;
}

// Checks one attribute against its spec; `what` prefixes the message.
void checkAttr(const AttrSpec& spec, const Attr& a, const std::string& what, SourceLoc fallback,
               DiagnosticEngine& diags) {
  if (attrMatches(spec, a)) return;
  std::string msg = what + "attribute '" + spec.name + "' must be " + typeWord(spec);
  if (spec.type == AttrType::Enum) {
    for (size_t i = 0; i < spec.enumValues.size(); ++i) msg += (i ? ", " : " ") + spec.enumValues[i];
  }
  diags.fail(a.loc.valid() ? a.loc : fallback, msg);
}

// Range checks of the placement attributes against the IR options.
void checkPlacementValue(const std::string& key, const Attr& a, const std::string& what, SourceLoc fallback,
                         const IrOptions& options, DiagnosticEngine& diags) {
  SourceLoc loc = a.loc.valid() ? a.loc : fallback;
  if (a.isWord("none")) return;
  if (key == "ipu" && (a.i < 0 || a.i >= options.ipus))
    diags.fail(loc, what + "ipu " + std::to_string(a.i) + " is out of range: the IR has " +
                        std::to_string(options.ipus) + " IPU(s) per replica");
  if (key == "tile" && (a.i < 0 || a.i >= options.tilesPerIpu))
    diags.fail(loc, what + "tile " + std::to_string(a.i) + " is out of range [0, " +
                        std::to_string(options.tilesPerIpu) + ")");
  if (key == "tiles") {
    std::vector<int64_t> v;
    attrInts(a, v);
    if (v.size() != 2 || v[0] < 0 || v[0] >= v[1] || v[1] > options.tilesPerIpu)
      diags.fail(loc, what + "tiles must be [LO, HI] with 0 <= LO < HI <= " + std::to_string(options.tilesPerIpu));
  }
}

const AttrSpec* findPlacement(std::string_view key) {
  for (auto& s : placementAttrs())
    if (s.name == key) return &s;
  return nullptr;
}

void checkAttrDict(const AttrDict& attrs, const OpInfo* info, const std::string& what, SourceLoc fallback,
                   const IrOptions& options, DiagnosticEngine& diags) {
  for (size_t i = 0; i < attrs.entries.size(); ++i) {
    auto& [key, value] = attrs.entries[i];
    SourceLoc loc = value.loc.valid() ? value.loc : fallback;
    // A mistake in the key is shown at the key.
    SourceLoc keyLoc = attrs.keyLoc(i).valid() ? attrs.keyLoc(i) : loc;
    for (size_t j = 0; j < i; ++j)
      if (attrs.entries[j].first == key) diags.fail(keyLoc, what + "duplicate attribute '" + key + "'");
    const AttrSpec* spec = info ? info->findAttr(key) : nullptr;
    bool placement = false;
    if (!spec) spec = findPlacement(key), placement = spec != nullptr;
    if (!spec) diags.fail(keyLoc, what + "unknown attribute '" + key + "'" + suggestAttribute(info, key));
    checkAttr(*spec, value, what, fallback, diags);
    if (placement) checkPlacementValue(key, value, what, fallback, options, diags);
  }
  if (info)
    for (auto& spec : info->attrs)
      if (spec.presence == AttrPresence::Required && !attrs.find(spec.name))
        diags.fail(fallback, what + "missing required attribute '" + spec.name + "'");
}

std::string valueText(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  // Whole numbers as written for integers (3000000000), else the shortest text that reads back.
  if (std::trunc(v) == v && std::fabs(v) < 0x1p53) return std::to_string(static_cast<int64_t>(v));
  return formatNumber(v, DType::F64);
}

}  // namespace

void checkPlacementAttrs(const AttrDict& attrs, std::string_view what, const IrOptions& options,
                         DiagnosticEngine& diags, const OpInfo* extra) {
  checkAttrDict(attrs, extra, std::string(what) + ": ", attrs.loc(), options, diags);
}

void checkOpSignature(const Op& op, const IrOptions& options, DiagnosticEngine& diags) {
  const OpInfo& info = op.info();
  int n = static_cast<int>(op.operands.size());
  // Fast path (most statements): arity fine, plain value operands, no attributes.
  if (op.attrs.entries.empty() && op.callees.empty() && !info.has(F_CONTROL) && n >= info.minOperands &&
      (info.maxOperands < 0 || n <= info.maxOperands)) {
    bool plain = true;
    for (size_t i = 0; i < op.operands.size() && plain; ++i)
      plain = op.operands[i].kind() == Operand::Kind::Value && op.operands[i].value() &&
              operandRole(op.code, i) == Role::Tensor;
    bool required = false;
    for (auto& spec : info.attrs) required = required || spec.presence == AttrPresence::Required;
    if (plain && !required) return;
  }
  const std::string what = prefix(op);
  if (n < info.minOperands || (info.maxOperands >= 0 && n > info.maxOperands)) {
    std::string expect;
    if (info.maxOperands < 0) expect = "at least " + std::to_string(info.minOperands);
    else if (info.minOperands == info.maxOperands) expect = std::to_string(info.minOperands);
    else expect = std::to_string(info.minOperands) + " to " + std::to_string(info.maxOperands);
    diags.fail(op.loc, what + "expects " + expect + " operand" + (expect == "1" ? "" : "s") + ", got " +
                           std::to_string(n));
  }
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const Operand& o = op.operands[i];
    SourceLoc loc = o.loc().valid() ? o.loc() : op.loc;
    Role role = operandRole(op.code, i);
    std::string pos = "operand " + std::to_string(i + 1);
    switch (role) {
      case Role::Resource:
        if (o.kind() != Operand::Kind::Resource || !o.resource())
          diags.fail(loc, what + pos + " must be a stream or remote buffer ($name)");
        break;
      case Role::Tensor:
        if (o.kind() == Operand::Kind::Value ? !o.value() : o.kind() != Operand::Kind::Literal || !o.literal())
          diags.fail(loc, what + pos + " must be a tensor (%value or literal)");
        break;
    }
  }
  // Callees: the right number, each a graph, argument ranges tiling the
  // operands after the fixed ones in order (conditional: after the condition).
  const size_t want = expectedCallees(op.code);
  if (op.callees.size() != want)
    diags.fail(op.loc, what + "expects " + std::to_string(want) + " graph call" + (want == 1 ? "" : "s") + " @g(...), got " +
                           std::to_string(op.callees.size()));
  size_t next = op.code == OpCode::Conditional ? 1 : 0;
  for (const CalleeRef& c : op.callees) {
    if (!c.graph) diags.fail(op.loc, what + "graph call of no graph");
    if (c.firstOperand != next || c.firstOperand + size_t(c.numArgs) > op.operands.size())
      diags.fail(op.loc, what + "graph call arguments of @" + c.graph->name + " do not match the operands");
    next = c.firstOperand + c.numArgs;
  }
  if (want && next != op.operands.size()) diags.fail(op.loc, what + "operands left over after the graph calls");
  checkAttrDict(op.attrs, &info, what, op.attrs.loc().valid() ? op.attrs.loc() : op.loc, options, diags);
}

void checkLiteralData(const Literal& lit, const TensorType& type, std::string_view what, DiagnosticEngine& diags) {
  const std::string w = std::string(what) + ": ";
  SourceLoc loc = lit.loc;
  switch (lit.kind) {
    case Literal::Kind::Load: return;  // read (and checked) by the VM at first use
    case Literal::Kind::Zeros:
    case Literal::Kind::Ones: return;
    case Literal::Kind::Uniform:
    case Literal::Kind::Normal: {
      const char* gen = lit.kind == Literal::Kind::Uniform ? "uniform" : "normal";
      if (!isFloat(type.dtype)) diags.fail(loc, w + gen + "(...) needs a float dtype, not " + type.str());
      if (lit.args.size() != 3) diags.fail(loc, w + gen + "(...) takes 3 arguments");
      double seed = lit.args[2];
      if (!(seed >= 0 && seed <= 4294967295.0 && std::floor(seed) == seed))
        diags.fail(loc, w + gen + "(...) seed must be an integer in [0, 4294967295], got " + valueText(seed));
      if (lit.kind == Literal::Kind::Uniform && !(lit.args[0] <= lit.args[1]))
        diags.fail(loc, w + "uniform(low, high, seed) needs low <= high");
      if (lit.kind == Literal::Kind::Normal && !(lit.args[1] >= 0))
        diags.fail(loc, w + "normal(mean, std, seed) needs std >= 0");
      return;
    }
    case Literal::Kind::Data: break;
  }
  if (!lit.shape.empty() && !lit.listFits(type.shape))
    diags.fail(loc, w + "data of shape " + shapeToString(lit.shape) + " does not match " + type.str());
  if (lit.hasBool && type.dtype != DType::Bool)
    diags.fail(loc, w + "true/false is only valid for bool data, not " + type.str());
  if (type.dtype == DType::Bool) {
    for (double v : lit.values)
      if (v != 0 && v != 1) diags.fail(loc, w + "value " + valueText(v) + " is not a bool (true/false)");
    return;
  }
  double lo = dtypeMin(type.dtype), hi = dtypeMax(type.dtype);
  if (isFloat(type.dtype)) {
    // In range when it rounds to a finite value of the dtype: 3.4028235e38 (how
    // FLT_MAX prints) is f32's max, 1e39 is out of range.
    for (double v : lit.values)
      if (std::isfinite(v) && !std::isfinite(roundToDType(v, type.dtype)))
        diags.fail(loc, w + "value " + valueText(v) + " is out of range for " + std::string(dtypeName(type.dtype)));
    return;
  }
  for (size_t i = 0; i < lit.values.size(); ++i) {
    const double v = lit.values[i];
    if (!std::isfinite(v) || std::floor(v) != v)
      diags.fail(loc, w + "value " + valueText(v) + " is not an integer (" + std::string(dtypeName(type.dtype)) + ")");
    if (v < lo || v > hi) {
      // As written when a double does not hold it exactly (every integer dtype is in range of one).
      std::string text = valueText(v);
      for (const auto& [index, written] : lit.inexactIntegers)
        if (index == i) text = written;
      diags.fail(loc, w + "value " + text + " is out of range for " + std::string(dtypeName(type.dtype)));
    }
  }
}

namespace {

// language.md §5: a literal operand takes the dtype of the op's first tensor
// operand; an op with literals and no such operand cannot be typed. Returns
// the location to blame, or nullopt when the literals can be typed.
std::optional<SourceLoc> untypableLiteral(const Op& op) {
  bool reference = false, needsReference = false;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const Operand& o = op.operands[i];
    if (operandRole(op.code, i) != Role::Tensor || fixedLiteralDType(op.code, i) || op.calleeOfOperand(i) >= 0) continue;
    if (o.kind() == Operand::Kind::Value && o.value()) reference = true;
    if (o.kind() == Operand::Kind::Literal) needsReference = true;
  }
  if (!needsReference || reference) return std::nullopt;
  for (auto& o : op.operands)
    if (o.kind() == Operand::Kind::Literal && o.loc().valid()) return o.loc();
  return op.loc;
}

}  // namespace

void typeLiteralOperands(Op& op, DiagnosticEngine& diags) {
  // Most ops have no literal operand, and then there is nothing to type or check.
  bool anyLiteral = false;
  for (const Operand& o : op.operands) anyLiteral = anyLiteral || o.kind() == Operand::Kind::Literal;
  if (!anyLiteral) return;
  const std::string what(op.info().name);
  if (std::optional<SourceLoc> loc = untypableLiteral(op)) diags.fail(*loc, what + ": cannot infer the dtype: declare a const");
  std::optional<DType> reference;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const Operand& o = op.operands[i];
    if (operandRole(op.code, i) != Role::Tensor || fixedLiteralDType(op.code, i) || op.calleeOfOperand(i) >= 0) continue;
    if (o.kind() == Operand::Kind::Value && o.value() && !reference) reference = o.value()->type->dtype;
  }
  for (size_t i = 0; i < op.operands.size(); ++i) {
    Operand& o = op.operands[i];
    const int callee = op.calleeOfOperand(i);
    if (o.kind() == Operand::Kind::Literal && o.literal() && callee >= 0) {
      // A graph-call argument takes the bound parameter's type.
      const Graph& g = *op.callees[callee].graph;
      const size_t k = i - op.callees[callee].firstOperand;
      if (o.literal()->kind != Literal::Kind::Data)
        diags.fail(o.loc().valid() ? o.loc() : op.loc, what + ": only a scalar or list literal can be an argument");
      if (k >= g.params.size()) continue;  // the binding check reports the count
      o.setLiteralType(g.params[k]->type);
      checkLiteralData(*o.literal(), o.literalType(), what + " @" + g.name + " argument " + std::to_string(k + 1), diags);
    } else if (o.kind() == Operand::Kind::Literal && o.literal()) {
      if (o.literal()->kind != Literal::Kind::Data)
        diags.fail(o.loc().valid() ? o.loc() : op.loc, what + ": only a scalar or list literal can be an operand; declare a const");
      auto fixed = fixedLiteralDType(op.code, i);
      o.setLiteralType(TensorType{fixed ? *fixed : *reference, o.literal()->shape});
      checkLiteralData(*o.literal(), o.literalType(), what, diags);
    }
  }
}

void verifyOp(Op& op, const IrOptions& options, std::vector<TensorType>& resultTypes, DiagnosticEngine& diags) {
  checkOpSignature(op, options, diags);
  typeLiteralOperands(op, diags);
  inferResultTypes(op, options, resultTypes, diags);
}

std::string downcastWarning(DType stored) {
  return stored == DType::U32 ? "u64 is stored as u32 (PopXL downcast)" : "i64 is stored as i32 (PopXL downcast)";
}

// ---- IR options ------------------------------------------------------------------

namespace {
constexpr IrOptionKey kIrOptionKeys[] = {
    {"replication", &IrOptions::replication, 1, 1 << 16},
    {"num_host_transfers", &IrOptions::numHostTransfers, 1, 1 << 24},
    {"ipus", &IrOptions::ipus, 1, 1024},
    {"tiles_per_ipu", &IrOptions::tilesPerIpu, 1, 1 << 20},
    {"tile_memory", &IrOptions::tileMemory, 1, int64_t(1) << 40},
    {"io_tiles", &IrOptions::ioTiles, 0, 1 << 20},
    {"seed", &IrOptions::seed, 0, INT64_MAX},
};
static_assert(std::size(kIrOptionKeys) == std::size(IrOptions{}.valueLocs));
}  // namespace

std::span<const IrOptionKey> irOptionKeys() { return kIrOptionKeys; }

void checkIrOptions(const IrOptions& o, DiagnosticEngine& diags) {
  for (size_t k = 0; k < std::size(kIrOptionKeys); ++k) {
    const IrOptionKey& spec = kIrOptionKeys[k];
    const int64_t v = o.*(spec.field);
    if (v < spec.lo || v > spec.hi)
      diags.fail(o.valueLocs[k].valid() ? o.valueLocs[k] : o.loc,
                 "ir: " + std::string(spec.key) + " = " + std::to_string(v) + " is out of range [" +
                     std::to_string(spec.lo) + ", " + std::to_string(spec.hi) + "]");
  }
  if (o.ioTiles >= o.tilesPerIpu)
    diags.fail(o.loc, "ir: io_tiles = " + std::to_string(o.ioTiles) + " leaves no compute tiles (tiles_per_ipu = " +
                          std::to_string(o.tilesPerIpu) + ")");
}

// ---- declarations ------------------------------------------------------------------

namespace {

void checkRemoteHome(const Module& m, const Graph& g, const std::string& name, const AttrDict& attrs,
                     const TensorType& type, const std::string& what, SourceLoc at, DiagnosticEngine& diags) {
  const attrs::Var a{OpCode::Var, attrs, at};
  const std::optional<std::string_view> remote = a.remote();
  const std::optional<int64_t> offset = a.offset();
  if (offset && !remote) diags.fail(a.offsetLoc(), what + ": offset needs remote = $buffer");
  if (!remote) return;
  SourceLoc loc = a.remoteLoc();
  const std::string remoteName(*remote);
  Resource* r = m.findResource(remoteName);
  if (!r) diags.fail(loc, what + ": unknown remote buffer $" + remoteName + suggestResource(m, remoteName));
  std::vector<Note> notes;
  if (r->loc.valid()) notes.push_back({r->loc, "$" + r->name + " is declared here"});
  if (r->kind != Resource::Kind::RemoteBuffer) diags.fail(loc, what + ": $" + r->name + " is not a remote buffer", notes);
  if (!(r->type == type))
    diags.fail(loc, what + ": type " + type.str() + " does not match remote buffer $" + r->name + " : " + r->type.str(),
               notes);
  int64_t k = offset.value_or(0);
  if (k < 0 || k >= r->entries)
    diags.fail(offset ? a.offsetLoc() : loc,
               what + ": offset " + std::to_string(k) + " is out of range: $" + r->name + " has " +
                   std::to_string(r->entries) + " entr" + (r->entries == 1 ? "y" : "ies"),
               notes);
  // One home per entry: two variables there would overwrite each other's value.
  // Only declarations before this one count (the builder has not added it yet;
  // verifyModule meets it in g.ops), so both report the later declaration.
  for (const auto& other : g.ops) {
    if (other->code != OpCode::Var || other->results.size() != 1) continue;
    if (other->results[0]->name == name) break;
    const attrs::Var b{OpCode::Var, other->attrs, other->loc};
    const std::optional<std::string_view> otherRemote = b.remote();
    if (!otherRemote || *otherRemote != r->name || b.offset().value_or(0) != k) continue;
    const Value& v = *other->results[0];
    diags.fail(offset ? a.offsetLoc() : loc,
               what + ": entry " + std::to_string(k) + " of $" + r->name + " is already the home of %" + v.name,
               {{v.loc.valid() ? v.loc : other->loc, "%" + v.name + " is declared here"}});
  }
}

}  // namespace

void checkDeclaration(const Module& m, const Graph& g, bool isConst, const std::string& name, const TensorType& type,
                      const AttrDict& attrs, const Literal* init, SourceLoc loc, DiagnosticEngine& diags,
                      bool loadMayAppear) {
  const std::string what = std::string(isConst ? "const" : "var") + " %" + name;
  if (!isConst && !g.isMain)
    diags.fail(loc, "var: variables are declared in the main graph only; pass %" + name + " to @" + g.name +
                        " as an argument");
  checkPlacementAttrs(attrs, what, m.options, diags, isConst ? nullptr : &opInfo(OpCode::Var));
  if (!init) diags.fail(loc, what + ": missing initial value");
  const Literal& lit = *init;
  if (isConst && lit.isGenerator())
    diags.fail(lit.loc.valid() ? lit.loc : loc, what + ": generators (uniform, normal, zeros, ones) are only for var");
  TensorType dataType = type;
  if (!isConst) {
    const attrs::Var a{OpCode::Var, attrs, loc};
    if (const Attr* grouping = a.replica_grouping()) {
      ReplicaGrouping rg = readGrouping(grouping, m.options.replication);
      if (auto why = groupingError(rg, m.options.replication))
        diags.fail(a.replica_groupingLoc(), what + ": " + *why);
      int64_t groups = rg.numGroups(m.options.replication);
      if (groups > 1) dataType.shape.insert(dataType.shape.begin(), groups);
    }
    checkRemoteHome(m, g, name, attrs, type, what, loc, diags);
  }
  if (lit.kind == Literal::Kind::Load && !loadMayAppear) {
    std::error_code ec;
    const std::string& path = lit.resolvedPath.empty() ? lit.path : lit.resolvedPath;
    if (!std::filesystem::is_regular_file(path, ec))
      diags.fail(lit.loc.valid() ? lit.loc : loc,
                 what + ": cannot open \"" + lit.path + "\"" +
                     (std::filesystem::is_directory(path, ec) ? ": is a directory" : ""));
  }
  checkLiteralData(lit, dataType, what, diags);
}

// ---- in-place writes ------------------------------------------------------------------

namespace {

[[noreturn]] void constWrite(const Op& op, const Operand& o, const Value* root, const std::string& detail,
                             DiagnosticEngine& diags) {
  std::vector<Note> notes;
  if (root && root->loc.valid()) notes.push_back({root->loc, "%" + root->name + " is declared here"});
  diags.fail(o.loc().valid() ? o.loc() : op.loc,
             std::string(op.info().name) + ": cannot write in place to a constant" + detail, std::move(notes));
}

}  // namespace

void checkInplaceWrites(const Op& op, DiagnosticEngine& diags) {
  int w = inplaceOperandIndex(op.code);
  if (w >= 0 && static_cast<size_t>(w) < op.operands.size()) {
    const Operand& o = op.operands[w];
    if (o.kind() == Operand::Kind::Literal) constWrite(op, o, nullptr, " (a literal)", diags);
    const Value* root = o.kind() == Operand::Kind::Value ? aliasRoot(o.value()) : nullptr;
    if (root && root->kind == Value::Kind::Const) constWrite(op, o, root, " %" + root->name, diags);
  }
  // A callee that writes a by-reference input in place must not get a constant there.
  if (op.code != OpCode::Call && op.code != OpCode::Repeat) return;
  const Graph& callee = *op.callees.at(0).graph;
  bool anyRef = false;
  for (const Value* p : callee.params) anyRef = anyRef || p->byRef;
  if (!anyRef) return;
  const std::vector<bool> written = paramsWrittenInPlace(callee);
  auto args = op.args(0);
  for (size_t k = 0; k < args.size() && k < written.size(); ++k) {
    if (!written[k] || !callee.params[k]->byRef) continue;
    const Operand& a = args[k];
    std::string detail = ": @" + callee.name + " writes its by-reference input %" + callee.params[k]->name + " in place";
    if (a.kind() == Operand::Kind::Literal)
      constWrite(op, a, nullptr, detail + " and argument " + std::to_string(k + 1) + " is a literal", diags);
    const Value* root = a.kind() == Operand::Kind::Value ? aliasRoot(a.value()) : nullptr;
    if (root && root->kind == Value::Kind::Const)
      constWrite(op, a, root, detail + " and argument " + std::to_string(k + 1) + " is the constant %" + root->name,
                 diags);
  }
}

void checkRemoteVariableOperands(const Op& op, DiagnosticEngine& diags) {
  for (const Operand& o : op.operands) {
    if (o.kind() != Operand::Kind::Value || o.value()->kind != Value::Kind::Var || !o.value()->def) continue;
    const attrs::Var a{OpCode::Var, o.value()->def->attrs, o.value()->def->loc};
    const std::optional<std::string_view> remote = a.remote();
    if (!remote) continue;
    const Value& v = *o.value();
    const std::string buffer = "$" + std::string(*remote), entry = std::to_string(a.offset().value_or(0));
    std::vector<Note> notes;
    if (v.loc.valid()) notes.push_back({v.loc, "%" + v.name + " is declared here: its home is entry " + entry + " of " + buffer});
    notes.push_back({o.loc().valid() ? o.loc() : op.loc, "load it first: `%" + v.name + "_now = remote_load " + buffer +
                                                         ", " + entry + "`, then use %" + v.name + "_now"});
    diags.fail(o.loc().valid() ? o.loc() : op.loc,
               std::string(op.info().name) + ": %" + v.name + " is a remote variable: its value lives in remote buffer " +
                   buffer + " and is read with remote_load",
               std::move(notes));
  }
}

// ---- exchange blocks, returns, gradient attributes --------------------------------------------

void checkExchangeBlock(const Op& block, const IrOptions& options, DiagnosticEngine& diags) {
  checkPlacementAttrs(block.attrs, "exchange", options, diags);
  std::unordered_set<const Value*> inside;
  for (const auto& op : block.region()) {
    if (!op->info().has(F_IO) || op->info().has(F_REGION))
      diags.fail(op->loc, "exchange: only IO ops (host_load, host_store, remote_load, remote_load_, remote_store) may "
                          "appear in an exchange block, not " + std::string(op->info().name));
    for (const Operand& o : op->operands)
      if (o.kind() == Operand::Kind::Value && inside.count(o.value())) {
        std::vector<Note> notes;
        if (o.value()->loc.valid()) notes.push_back({o.value()->loc, "%" + o.value()->name + " is produced here"});
        diags.fail(o.loc().valid() ? o.loc() : op->loc,
                   "exchange: " + std::string(op->info().name) + " consumes %" + o.value()->name +
                       ", produced inside the same exchange block (a data dependency)",
                   std::move(notes));
      }
    for (const Value* r : op->results) inside.insert(r);
  }
}

void checkReturns(const Graph& g, DiagnosticEngine& diags) {
  if (g.returns.size() != g.outputTypes.size())
    diags.fail(g.returnLoc.valid() ? g.returnLoc : g.loc,
               "return: @" + g.name + " returns " + std::to_string(g.returns.size()) + " value" +
                   (g.returns.size() == 1 ? "" : "s") + ", but its signature declares " +
                   std::to_string(g.outputTypes.size()));
  for (size_t i = 0; i < g.returns.size(); ++i) {
    const Operand& o = g.returns[i];
    SourceLoc loc = o.loc().valid() ? o.loc() : g.returnLoc;
    if (o.kind() == Operand::Kind::Resource) diags.fail(loc, "return: operand must be a tensor");
    if (o.kind() == Operand::Kind::Literal) {
      if (!o.literal() || o.literal()->kind != Literal::Kind::Data)
        diags.fail(loc, "return: only a scalar or list literal can be returned");
      checkLiteralData(*o.literal(), g.outputTypes[i], "return", diags);
    }
    if (!(o.type() == g.outputTypes[i])) {
      std::vector<Note> notes;
      if (o.kind() == Operand::Kind::Value && o.value()->loc.valid())
        notes.push_back({o.value()->loc, "%" + o.value()->name + " is declared here"});
      diags.fail(loc, "return: value " + std::to_string(i + 1) + " has type " + o.type().str() + ", but @" + g.name +
                          " declares " + g.outputTypes[i].str(),
                 std::move(notes));
    }
  }
}

void checkGradientAttributes(const Module& m, const Graph& g, DiagnosticEngine& diags) {
  if (!g.gradOf) {
    if (!g.activations.empty()) diags.fail(g.loc, "@" + g.name + ": attribute 'activations' needs grad_of = @forward");
    return;
  }
  if (g.gradOf == &g || m.findGraph(g.gradOf->name) != g.gradOf)
    diags.fail(g.loc, "@" + g.name + ": grad_of: unknown graph @" + g.gradOf->name);
  for (const Value* a : g.activations)
    if (!a || a->graph != g.gradOf || g.gradOf->lookup(a->name) != a)
      diags.fail(g.loc, "@" + g.name + ": activation %" + (a ? a->name.str() : std::string("?")) + " is not a value of @" +
                            g.gradOf->name);
}

namespace {

// The whole-module check: walks graphs in definition order (callees first).
struct ModuleChecker {
  ModuleChecker(const Module& module, DiagnosticEngine& d) : m(module), diags(d) {}
  const Module& m;
  DiagnosticEngine& diags;
  std::vector<TensorType> types;

  // Recursion: a call from g to c closes a cycle exactly when c is g or both lie in
  // one strongly connected component of the graph-reference graph. The components
  // are found once (iterative Tarjan, linear), where a search from every call
  // site was quadratic in a call chain's depth.
  std::unordered_map<const Graph*, size_t> component;
  bool componentsFound = false;
  bool sameComponent(const Graph& a, const Graph& b) {
    if (!componentsFound) findComponents();
    auto ia = component.find(&a), ib = component.find(&b);
    return ia != component.end() && ib != component.end() && ia->second == ib->second;
  }
  void findComponents() {
    componentsFound = true;
    std::vector<const Graph*> all;
    for (const auto& g : m.graphs) all.push_back(g.get());
    all.push_back(m.main.get());
    std::unordered_map<const Graph*, std::vector<const Graph*>> edges;
    for (const Graph* g : all) {
      std::vector<const Graph*>& out = edges[g];
      for (Graph* c : calleesOf(*g))
        if (m.findGraph(c->name) == c) out.push_back(c);  // graphs of the module only
    }
    std::unordered_map<const Graph*, size_t> index, low;
    std::unordered_set<const Graph*> onStack;
    std::vector<const Graph*> stack;
    size_t next = 0, components = 0;
    struct Frame {
      const Graph* g;
      size_t edge;
    };
    for (const Graph* root : all) {
      if (index.count(root)) continue;
      std::vector<Frame> work{{root, 0}};
      index[root] = low[root] = next++;
      stack.push_back(root);
      onStack.insert(root);
      while (!work.empty()) {
        Frame& f = work.back();
        const std::vector<const Graph*>& out = edges[f.g];
        if (f.edge < out.size()) {
          const Graph* c = out[f.edge++];
          if (!index.count(c)) {
            index[c] = low[c] = next++;
            stack.push_back(c);
            onStack.insert(c);
            work.push_back({c, 0});  // invalidates f
          } else if (onStack.count(c)) {
            low[f.g] = std::min(low[f.g], index[c]);
          }
          continue;
        }
        const Graph* g = f.g;
        work.pop_back();
        if (!work.empty()) low[work.back().g] = std::min(low[work.back().g], low[g]);
        if (low[g] == index[g]) {
          const Graph* member;
          do {
            member = stack.back();
            stack.pop_back();
            onStack.erase(member);
            component[member] = components;
          } while (member != g);
          ++components;
        }
      }
    }
  }

  [[noreturn]] void fail(SourceLoc loc, const std::string& msg) { diags.fail(loc, msg); }

  void checkOperandValue(const Graph& g, const std::vector<bool>& defined, const Operand& o, const Op& op) {
    if (o.kind() == Operand::Kind::Value) {
      if (!o.value() || o.value()->graph != &g || o.value()->id >= defined.size() || !defined[o.value()->id])
        fail(o.loc().valid() ? o.loc() : op.loc, prefix(op) + "operand %" + (o.value() ? o.value()->name : "?") +
                                                 " is not defined before use in @" + g.name);
    } else if (o.kind() == Operand::Kind::Resource) {
      if (!o.resource() || m.findResource(o.resource()->name) != o.resource())
        fail(o.loc().valid() ? o.loc() : op.loc, prefix(op) + "unknown resource");
    }
  }


  void checkOp(const Graph& g, std::vector<bool>& defined, const Op& op, bool inExchange) {
    if (op.code == OpCode::Exchange) {
      if (inExchange) fail(op.loc, "exchange: blocks do not nest");
      checkExchangeBlock(op, m.options, diags);
      for (auto& inner : op.region()) checkOp(g, defined, *inner, true);
      return;
    }
    if (op.info().has(F_DECL)) {
      if (op.results.size() != 1) fail(op.loc, prefix(op) + "a declaration has one result");
      const Value& v = *op.results[0];
      checkDeclaration(m, g, op.code == OpCode::Const, v.name, v.type, op.attrs, op.init().get(), op.loc, diags);
      for (const Value* r : op.results) defined[r->id] = true;
      return;
    }
    for (auto& o : op.operands) checkOperandValue(g, defined, o, op);
    for (const CalleeRef& c : op.callees) {
      if (!c.graph || m.findGraph(c.graph->name) != c.graph) fail(op.loc, prefix(op) + "call of an unknown graph");
      if (c.graph == &g || sameComponent(*c.graph, g))
        fail(c.loc.valid() ? c.loc : op.loc, "recursion: @" + g.name + " calls itself");
    }
    checkOpSignature(op, m.options, diags);
    if (std::optional<SourceLoc> loc = untypableLiteral(op))
      fail(*loc, prefix(op) + "cannot infer the dtype: declare a const");
    for (const Operand& o : op.operands)
      if (o.kind() == Operand::Kind::Literal) {
        if (!o.literal() || o.literal()->kind != Literal::Kind::Data)
          fail(o.loc().valid() ? o.loc() : op.loc, prefix(op) + "only a scalar or list literal can be an operand");
        checkLiteralData(*o.literal(), o.literalType(), op.info().name, diags);
      }
    inferResultTypes(op, m.options, types, diags);
    bool inplace = op.info().has(F_INPLACE);
    if (!(inplace && op.results.empty())) {
      if (op.results.size() != types.size())
        fail(op.loc, prefix(op) + "has " + std::to_string(op.results.size()) + " results, expected " +
                         std::to_string(types.size()));
      for (size_t i = 0; i < types.size(); ++i)
        if (!(op.results[i]->type == types[i]))
          fail(op.loc, prefix(op) + "result type " + op.results[i]->type->str() + " does not match the inferred type " +
                           types[i].str());
    }
    checkInplaceWrites(op, diags);
    checkRemoteVariableOperands(op, diags);
    for (const Value* r : op.results) {
      if (r->graph != &g || r->id >= defined.size()) fail(op.loc, prefix(op) + "result outside its graph");
      defined[r->id] = true;
    }
  }

  void checkGraph(const Graph& g) {
    std::vector<bool> defined(g.values.size(), false);
    for (size_t i = 0; i < g.values.size(); ++i)
      if (g.values[i]->id != i) fail(g.values[i]->loc, "@" + g.name + ": value ids are not dense");
    for (const Value* p : g.params) {
      if (g.isMain) fail(p->loc, "main graph has parameters");
      defined[p->id] = true;
    }
    for (auto& op : g.ops) checkOp(g, defined, *op, false);
    if (g.isMain) {
      if (g.hasReturn) fail(g.returnLoc, "return: the main graph has no return");
      return;
    }
    if (!g.hasReturn) fail(g.loc, "@" + g.name + ": missing return");
    for (const Operand& o : g.returns)
      if (o.kind() == Operand::Kind::Value && (!o.value() || o.value()->graph != &g || !defined[o.value()->id]))
        fail(o.loc().valid() ? o.loc() : g.returnLoc, "return: value is not defined in @" + g.name);
    checkReturns(g, diags);
    checkGradientAttributes(m, g, diags);
  }
};

}  // namespace

LogicalResult verifyModule(const Module& module, DiagnosticEngine& diags) {
  try {
    ModuleChecker checker(module, diags);
    checkIrOptions(module.options, diags);
    for (auto& g : module.graphs) checker.checkGraph(*g);
    checker.checkGraph(*module.main);
  } catch (const CompileError&) {
    return failure();
  }
  return success();
}

}  // namespace pir
