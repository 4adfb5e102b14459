// The op table built from ir/ops.def. Each row's attribute spec is read by the
// grammar of ir/attr_spec.h (the one the compile-time accessors use; a malformed
// spec fails the static_assert below); its default texts become values here,
// once, on first use. A bad default is a programmer error: an internalError
// (ir/internal_error.h) naming the row, and tests/unit/infer_test.cpp walks every row.
#include "ir/op_info.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <unordered_map>

#include "ir/attr_spec.h"
#include "ir/internal_error.h"
#include "ir/name_hash.h"

namespace pir {

namespace {

[[noreturn]] void specError(std::string_view op, std::string_view spec, const std::string& why) {
  internalError("ops.def row '" + std::string(op) + "': bad attribute spec \"" + std::string(spec) + "\": " + why);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// Splits at top-level commas (commas inside [], () or "" do not split), with
// the spec reader's own rule (ir/attr_spec.h): the table's texts have no empty items.
std::vector<std::string_view> splitTopLevel(std::string_view s) {
  std::vector<std::string_view> parts;
  attrspec::forEachEntry(s, [&](int, std::string_view entry) { parts.push_back(entry); });
  return parts;
}

bool parseNumber(std::string_view t, double& out) {
  if (t == "inf") return out = std::numeric_limits<double>::infinity(), true;
  if (t == "-inf") return out = -std::numeric_limits<double>::infinity(), true;
  if (t == "nan") return out = std::numeric_limits<double>::quiet_NaN(), true;
  std::string s(t);
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

bool parseInteger(std::string_view t, int64_t& out) {
  std::string s(t);
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  out = v;
  return !s.empty() && end == s.c_str() + s.size();
}

// Parses a default value written in a spec into an Attr of the spec's type.
Attr parseDefault(std::string_view op, std::string_view spec, AttrSpec& a, std::string_view text) {
  auto fail = [&](const char* why) -> Attr { specError(op, spec, std::string(why) + " for '" + a.name + "'"); };
  switch (a.type) {
    case AttrType::Int: {
      int64_t v;
      if (!parseInteger(text, v)) return fail("default is not an integer");
      return Attr::integer(v);
    }
    case AttrType::Float: {
      double v;
      if (!parseNumber(text, v)) return fail("default is not a number");
      return Attr::real(v);
    }
    case AttrType::Bool:
      if (text == "true") return Attr::boolean(true);
      if (text == "false") return Attr::boolean(false);
      return fail("default is not a bool");
    case AttrType::Str:
      if (text.size() < 2 || text.front() != '"' || text.back() != '"') return fail("default is not a string");
      return Attr::string(std::string(text.substr(1, text.size() - 2)));
    case AttrType::DType:
      if (!parseDType(text)) return fail("default is not a dtype");
      return Attr::word(std::string(text));
    case AttrType::Enum:
      for (auto& v : a.enumValues)
        if (v == text) return Attr::word(std::string(text));
      return fail("default is not one of the enum values");
    case AttrType::Axes:
      if (text == "all") return Attr::word("all");
      [[fallthrough]];
    case AttrType::Ints:
    case AttrType::Floats: {
      int64_t iv;
      if (parseInteger(text, iv)) return Attr::integer(iv);
      if (text.size() < 2 || text.front() != '[' || text.back() != ']') return fail("default is not a list");
      std::vector<Attr> items;
      for (auto item : splitTopLevel(text.substr(1, text.size() - 2))) {
        double v;
        if (a.type == AttrType::Floats) {
          if (!parseNumber(item, v)) return fail("list item is not a number");
          items.push_back(Attr::real(v));
        } else {
          if (!parseInteger(item, iv)) return fail("list item is not an integer");
          items.push_back(Attr::integer(iv));
        }
      }
      return Attr::list(std::move(items));
    }
    default:
      return fail("this attribute type takes no default");
  }
}

// Builds a row's AttrSpecs from its entries as ir/attr_spec.h read them at
// compile time (checked below), converting each default text into its value.
std::vector<AttrSpec> attrSpecs(std::string_view op, std::string_view spec, std::span<const attrspec::Entry> entries) {
  std::vector<AttrSpec> out;
  for (const attrspec::Entry& e : entries) {
    AttrSpec a;
    a.name = std::string(e.name);
    a.type = e.type;
    a.presence = e.presence;
    a.enumType = e.enumType;
    if (e.enumType)
      for (std::string_view word : enumDesc(*e.enumType).words) a.enumValues.emplace_back(word);
    if (a.presence == AttrPresence::Defaulted) a.defaultValue = parseDefault(op, spec, a, e.defaultText);
    out.push_back(std::move(a));
  }
  return out;
}

// Every spec of the table reads without error (so attrSpecs never meets a bad entry).
consteval bool everySpecReads() {
  for (std::string_view s : attrspec::kRowSpecs)
    if (attrspec::specError(s)) return false;
  return !attrspec::specError(attrspec::kPlacementSpec);
}
static_assert(everySpecReads(), "ir/ops.def: a malformed attribute spec (attrspec::specError names the fault)");

[[noreturn]] void operandsError(std::string_view op, std::string_view text, const std::string& why) {
  internalError("ops.def row '" + std::string(op) + "': bad operands \"" + std::string(text) + "\": " + why);
}

// Reads ops.def's operands column (its grammar is in the header of ops.def)
// into the operand specs, the result spec and the annotation-free text people read.
void parseOperands(OpInfo& info, std::string_view text) {
  std::string_view args = text, results;
  if (size_t arrow = text.find(" -> "); arrow != std::string_view::npos) {
    args = text.substr(0, arrow);
    results = trim(text.substr(arrow + 4));
  }
  // Positions: top-level items with the optional-tail brackets dropped.
  std::string flat;
  for (char c : args)
    if (c != '[' && c != ']') flat += c;
  for (std::string_view item : splitTopLevel(flat)) {
    if (item.empty()) continue;
    if (item == "...") continue;  // a variadic tail: positions past the listed ones are plain tensors
    if (item.front() == '@') { ++info.callees; continue; }
    OperandSpec spec;
    if (item.front() == '$') { spec.role = OperandRole::Resource; item.remove_prefix(1); }
    if (size_t colon = item.find(':'); colon != std::string_view::npos) {
      auto dt = parseDType(trim(item.substr(colon + 1)));
      if (!dt) operandsError(info.name, text, "unknown dtype in '" + std::string(item) + "'");
      spec.literalDType = dt->dtype;
      item = trim(item.substr(0, colon));
    }
    if (!item.empty() && item.back() == '!') {
      if (info.inplaceOperand >= 0) operandsError(info.name, text, "two operands marked '!'");
      info.inplaceOperand = static_cast<int>(info.operands.size());
      item.remove_suffix(1);
    }
    spec.name = std::string(item);
    info.operands.push_back(std::move(spec));
  }
  if (info.has(F_INPLACE) != (info.inplaceOperand >= 0))
    operandsError(info.name, text, "F_INPLACE rows mark exactly one operand with '!', other rows none");
  // For people: the text without annotations.
  for (size_t i = 0; i < args.size(); ++i) {
    char c = args[i];
    if (c == '$' || c == '!') continue;
    if (c == ':') {  // skip ": dtype"
      ++i;
      while (i < args.size() && args[i] == ' ') ++i;
      while (i < args.size() && (std::isalnum(static_cast<unsigned char>(args[i])))) ++i;
      --i;
      continue;
    }
    info.operandNames += c;
  }
  if (results.empty()) return;
  ResultSpec& r = info.results;
  if (results == "()") {
    r.count = 0;
  } else if (results == "@outputs") {
    r.kind = ResultSpec::Kind::CalleeOutputs;
  } else if (size_t open = results.find('['); open != std::string_view::npos && results.back() == ']') {
    r.attr = std::string(results.substr(open + 1, results.size() - open - 2));
    const AttrSpec* a = info.findAttr(r.attr);
    if (!a || (a->type != AttrType::Ints && a->type != AttrType::Int))
      operandsError(info.name, text, "result count names '" + r.attr + "', not an int or ints attribute");
    r.kind = a->type == AttrType::Ints ? ResultSpec::Kind::PerListElement : ResultSpec::Kind::AttrCount;
  } else {
    r.count = splitTopLevel(results).size();
  }
}

struct OpTable {
  std::vector<OpInfo> infos;
  // Op-statement names (and aliases) -> code: open addressing on hashName, at
  // most half full, an empty name marking a free slot. The parser looks up
  // every statement's op name here.
  std::vector<std::pair<std::string_view, OpCode>> byName;

  // The slot holding `name`, or the free slot where it would go.
  size_t slotOf(std::string_view name) const {
    const size_t mask = byName.size() - 1;
    size_t i = hashName(name) & mask;
    while (!byName[i].first.empty() && byName[i].first != name) i = (i + 1) & mask;
    return i;
  }
  // False when `name` is there already.
  bool addName(std::string_view name, OpCode code) {
    auto& slot = byName[slotOf(name)];
    if (!slot.first.empty()) return false;
    slot = {name, code};
    return true;
  }

  void addRow(OpCode code, std::string_view name, int minOperands, int maxOperands, std::string_view attrSpec,
              GradKind grad, uint32_t flags, std::string_view inferRule, std::string_view operandText,
              CostClass costClass) {
    OpInfo& info = infos.emplace_back();
    info.code = code;
    info.name = name;
    info.minOperands = minOperands;
    info.maxOperands = maxOperands;
    info.attrSpecText = attrSpec;
    info.grad = grad;
    info.flags = flags;
    info.attrs = attrSpecs(name, attrSpec, attrspec::rowEntries(code));
    info.inferRule = inferRule;
    info.costClass = costClass;
    parseOperands(info, operandText);
  }

  OpTable() {
    infos.reserve(kNumOpCodes);
#define PIR_OP(id, text, mn, mx, attrSpec, infer, gradKind, flagBits, kernel, operandText, cost)               \
  addRow(OpCode::id, text, mn, mx, attrSpec, GradKind::gradKind, static_cast<uint32_t>(flagBits), #infer, operandText, \
         CostClass::cost);
#include "ir/ops.def"
#undef PIR_OP
    size_t slots = 16;
    while (slots < 2 * (infos.size() + opAliases().size())) slots *= 2;
    byName.assign(slots, {std::string_view{}, OpCode{}});
    for (auto& info : infos) {
      if (info.has(F_DECL) || info.has(F_REGION)) continue;
      if (!addName(info.name, info.code))
        internalError("duplicate op name '" + std::string(info.name) + "' in ops.def");
    }
    for (const OpAlias& a : opAliases()) addName(a.alias, a.code);
  }
};

const OpTable& table() {
  static const OpTable t;
  return t;
}

}  // namespace

const OpInfo& opInfo(OpCode c) { return table().infos[static_cast<size_t>(c)]; }

const OperandSpec& OpInfo::operand(size_t i) const {
  static const OperandSpec kPlainTensor;
  return i < operands.size() ? operands[i] : kPlainTensor;
}

std::optional<OpCode> lookupOp(std::string_view name) {
  if (name.empty()) return std::nullopt;
  const OpTable& t = table();
  const auto& slot = t.byName[t.slotOf(name)];
  if (slot.first.empty()) return std::nullopt;
  return slot.second;
}

std::vector<std::string_view> allOpNames() {
  std::vector<std::string_view> names;
  for (auto& info : table().infos)
    if (!info.has(F_DECL) && !info.has(F_REGION)) names.push_back(info.name);
  for (const OpAlias& a : opAliases()) names.push_back(a.alias);
  return names;
}

std::span<const OpAlias> opAliases() {
  static constexpr OpAlias kAliases[] = {{"negate", OpCode::Neg}};  // ops.md: "`negate` is an alias of `neg`"
  return kAliases;
}

const std::vector<AttrSpec>& placementAttrs() {
  static const std::vector<AttrSpec> specs = attrSpecs("<placement>", attrspec::kPlacementSpec, attrspec::kPlacementEntries);
  return specs;
}

}  // namespace pir
