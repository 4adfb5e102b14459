#include "ir/printer.h"

#include <charconv>
#include <cmath>

#include "ir/number_format.h"

namespace pir {
namespace {

// Everything appends into one string: printing a million ops must not allocate
// per token.

void appendInt(std::string& out, int64_t v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

void appendIndent(std::string& out, int depth) { out.append(static_cast<size_t>(depth) * 2, ' '); }

void appendType(std::string& out, const TensorType& type) {
  out += dtypeName(type.dtype);
  out += '[';
  for (size_t i = 0; i < type.shape.size(); ++i) {
    if (i) out += ',';
    appendInt(out, type.shape[i]);
  }
  out += ']';
}

void appendQuoted(std::string& out, const std::string& s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;  // a raw CR would read back as a line end
      default: out += c;
    }
  }
  out += '"';
}

void appendElement(std::string& out, double v, DType dtype) { appendNumber(out, roundToDType(v, dtype), dtype); }

// Row-major `values` as lists nested like `shape`; `next` walks the values.
void appendNested(std::string& out, const std::vector<double>& values, const Shape& shape, size_t dim,
                  size_t& next, DType dtype) {
  out += '[';
  for (int64_t i = 0; i < shape[dim]; ++i) {
    if (i) out += ", ";
    if (dim + 1 < shape.size()) {
      appendNested(out, values, shape, dim + 1, next, dtype);
    } else {
      appendElement(out, next < values.size() ? values[next] : 0.0, dtype);
      ++next;
    }
  }
  out += ']';
}

// A generator argument: not tied to the tensor's dtype (the generator computes
// in double and rounds), so shortest-for-double keeps it exact.
void appendGeneratorArgs(std::string& out, const char* name, const std::vector<double>& args) {
  out += name;
  out += '(';
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) out += ", ";
    appendNumber(out, args[i], DType::F64);
  }
  out += ')';
}

const char* resourceKeyword(Resource::Kind k) {
  switch (k) {
    case Resource::Kind::H2D: return "h2d";
    case Resource::Kind::D2H: return "d2h";
    case Resource::Kind::RemoteBuffer: return "remote_buffer";
  }
  return "h2d";
}

// An attribute as the spec of its key wants it: dtype words in canonical
// spelling (`float` prints as `f32`), everything else as stored.
void appendAttrValue(std::string& out, const Attr& attr, const AttrSpec* spec) {
  if (spec && spec->type == AttrType::DType && attr.kind == Attr::Kind::Word) {
    if (auto parsed = parseDType(attr.s)) {
      out += dtypeName(parsed->dtype);
      return;
    }
  }
  appendAttr(out, attr);
}

const AttrSpec* findSpec(const std::vector<AttrSpec>& specs, std::string_view key) {
  for (auto& s : specs)
    if (s.name == key) return &s;
  return nullptr;
}

bool isDefault(const Attr& attr, const AttrSpec* spec) {
  return spec && spec->presence == AttrPresence::Defaulted && attr.equals(spec->defaultValue);
}

// ` {k = v, ...}` in a canonical key order: the op's own attributes in table
// order, then placement attributes, then anything else in written order (the
// verifier rejects unknown keys, so the last group is normally empty).
// Attributes equal to their default are omitted; nothing is printed if none remain.
void appendAttrDict(std::string& out, const AttrDict& dict, const std::vector<AttrSpec>* opSpecs) {
  if (dict.empty()) return;
  const std::vector<AttrSpec>& placement = placementAttrs();
  bool first = true;
  auto emit = [&](const std::string& key, const Attr& attr, const AttrSpec* spec) {
    if (isDefault(attr, spec)) return;
    out += first ? " {" : ", ";
    first = false;
    out += key;
    out += " = ";
    appendAttrValue(out, attr, spec);
  };
  if (opSpecs) {
    for (const AttrSpec& spec : *opSpecs)
      if (const Attr* a = dict.find(spec.name)) emit(spec.name, *a, &spec);
  }
  for (const AttrSpec& spec : placement)
    if (!(opSpecs && findSpec(*opSpecs, spec.name)))
      if (const Attr* a = dict.find(spec.name)) emit(spec.name, *a, &spec);
  for (auto& [key, attr] : dict.entries) {
    if (opSpecs && findSpec(*opSpecs, key)) continue;
    if (findSpec(placement, key)) continue;
    emit(key, attr, nullptr);
  }
  if (!first) out += '}';
}

void appendOperand(std::string& out, const Operand& operand);

void appendOperands(std::string& out, const std::vector<Operand>& operands) {
  for (size_t i = 0; i < operands.size(); ++i) {
    if (i) out += ", ";
    appendOperand(out, operands[i]);
  }
}

void appendOperand(std::string& out, const Operand& operand) {
  switch (operand.kind()) {
    case Operand::Kind::Value:
      out += '%';
      out += operand.value() ? operand.value()->name.view() : std::string_view("?");
      break;
    case Operand::Kind::Resource:
      out += '$';
      out += operand.resource() ? operand.resource()->name : std::string("?");
      break;
    case Operand::Kind::Literal:
      if (operand.literal()) appendLiteral(out, *operand.literal(), operand.literalType().dtype);
      break;
  }
}

// An op's operands, its callees' arguments grouped as `@g(ARGS)`.
void appendOpOperands(std::string& out, const Op& op) {
  size_t i = 0;
  bool first = true;
  auto sep = [&] {
    if (!first) out += ", ";
    first = false;
  };
  for (const CalleeRef& c : op.callees) {
    for (; i < c.firstOperand && i < op.operands.size(); ++i) {
      sep();
      appendOperand(out, op.operands[i]);
    }
    sep();
    out += '@';
    out += c.graph ? c.graph->name : std::string("?");
    out += '(';
    for (size_t k = 0; k < c.numArgs && i < op.operands.size(); ++k, ++i) {
      if (k) out += ", ";
      appendOperand(out, op.operands[i]);
    }
    out += ')';
  }
  for (; i < op.operands.size(); ++i) {
    sep();
    appendOperand(out, op.operands[i]);
  }
}

void appendOps(std::string& out, const std::vector<std::unique_ptr<Op>>& ops, int depth);

void appendOp(std::string& out, const Op& op, int depth) {
  appendIndent(out, depth);
  const OpInfo& info = op.info();
  if (op.code == OpCode::Var || op.code == OpCode::Const) {
    // `var %W : T = INIT {attrs}`; the declared value is the op's only result.
    out += info.name;
    out += " %";
    const Value* v = op.results.empty() ? nullptr : op.results[0];
    out += v ? v->name.view() : std::string_view("?");
    out += " : ";
    if (v) appendType(out, v->type);
    out += " = ";
    if (op.init() && v) appendLiteral(out, *op.init(), v->type->dtype);
    appendAttrDict(out, op.attrs, &info.attrs);
    out += '\n';
    return;
  }
  if (op.code == OpCode::Exchange) {
    // The block's attributes sit between the keyword and the body:
    // `exchange {tile_set = io} {`.
    out += "exchange";
    appendAttrDict(out, op.attrs, &info.attrs);
    out += " {\n";
    appendOps(out, op.region(), depth + 1);
    appendIndent(out, depth);
    out += "}\n";
    return;
  }
  for (size_t i = 0; i < op.results.size(); ++i) {
    out += i ? ", %" : "%";
    out += op.results[i]->name;
  }
  if (!op.results.empty()) out += " = ";
  out += info.name;
  if (!op.operands.empty() || !op.callees.empty()) {
    out += ' ';
    appendOpOperands(out, op);
  }
  appendAttrDict(out, op.attrs, &info.attrs);
  for (size_t i = 0; i < op.results.size(); ++i) {
    out += i ? ", " : " : ";
    appendType(out, op.results[i]->type);
  }
  out += '\n';
}

void appendOps(std::string& out, const std::vector<std::unique_ptr<Op>>& ops, int depth) {
  for (const auto& op : ops) appendOp(out, *op, depth);
}

void appendGraph(std::string& out, const Graph& g) {
  if (g.isMain) {
    out += "main {\n";
    appendOps(out, g.ops, 1);
    out += "}\n";
    return;
  }
  out += "graph @";
  out += g.name;
  out += '(';
  for (size_t i = 0; i < g.params.size(); ++i) {
    if (i) out += ", ";
    out += '%';
    out += g.params[i]->name;
    out += ": ";
    if (g.params[i]->byRef) out += '&';
    appendType(out, g.params[i]->type);
  }
  out += ") -> (";
  for (size_t i = 0; i < g.outputTypes.size(); ++i) {
    if (i) out += ", ";
    appendType(out, g.outputTypes[i]);
  }
  out += ')';
  if (!g.attrs.empty() || g.gradOf) {
    // grad_of / activations first (references printed by name), then the rest.
    AttrDict all;
    if (g.gradOf) {
      Attr gradOf;
      gradOf.kind = Attr::Kind::Graph;
      gradOf.s = g.gradOf->name;
      all.entries.emplace_back("grad_of", std::move(gradOf));
      std::vector<Attr> acts;
      for (const Value* v : g.activations) {
        Attr a;
        a.kind = Attr::Kind::Value;
        a.s = v->name;
        acts.push_back(std::move(a));
      }
      all.entries.emplace_back("activations", Attr::list(std::move(acts)));
    }
    for (const auto& e : g.attrs.entries) all.entries.push_back(e);
    out += " attributes";
    appendAttrDict(out, all, nullptr);
  }
  out += " {\n";
  appendOps(out, g.ops, 1);
  out += "  return";
  if (!g.returns.empty()) {
    out += ' ';
    appendOperands(out, g.returns);
  }
  out += "\n}\n";
}

// `ir {...}` with the keys that differ from runtime.md §1's defaults, in the
// table's order; nothing when all are defaults.
void appendIrOptions(std::string& out, const IrOptions& o) {
  const IrOptions defaults;
  std::pair<const char*, std::pair<int64_t, int64_t>> keys[] = {
      {"replication", {o.replication, defaults.replication}},
      {"num_host_transfers", {o.numHostTransfers, defaults.numHostTransfers}},
      {"ipus", {o.ipus, defaults.ipus}},
      {"tiles_per_ipu", {o.tilesPerIpu, defaults.tilesPerIpu}},
      {"tile_memory", {o.tileMemory, defaults.tileMemory}},
      {"io_tiles", {o.ioTiles, defaults.ioTiles}},
      {"seed", {o.seed, defaults.seed}},
  };
  bool first = true;
  for (auto& [key, values] : keys) {
    if (values.first == values.second) continue;
    out += first ? "ir {" : ", ";
    first = false;
    out += key;
    out += " = ";
    appendInt(out, values.first);
  }
  if (!first) out += "}\n";
}

// Nested lists of a zero-size shape longer than this print as `[]` (the value of
// every zero-size shape, language.md section 5): the lists before the first zero dim
// number the product of the dims before it, which a pass or an importer can make
// astronomical (fold-constants on f32[2^40,3,0]), while text a user wrote stays short.
constexpr int64_t kMaxEmptyLists = 1000;

// Whether `shape` holds no element and its nested lists exceed kMaxEmptyLists.
bool longEmptyNesting(const Shape& shape) {
  int64_t lists = 1;
  for (int64_t d : shape) {
    if (d == 0) return lists > kMaxEmptyLists;
    lists = d > kMaxEmptyLists || lists > kMaxEmptyLists / d ? kMaxEmptyLists + 1 : lists * d;
  }
  return false;
}

size_t estimateSize(const Module& m) {
  size_t ops = m.main->ops.size();
  for (auto& g : m.graphs) ops += g->ops.size();
  return 256 + ops * 48;
}

}  // namespace

void appendLiteral(std::string& out, const Literal& lit, DType dtype) {
  switch (lit.kind) {
    case Literal::Kind::Data:
      if (longEmptyNesting(lit.shape)) {
        out += "[]";
      } else if (lit.shape.empty()) {
        appendElement(out, lit.values.empty() ? 0.0 : lit.values[0], dtype);
      } else {
        size_t next = 0;
        appendNested(out, lit.values, lit.shape, 0, next, dtype);
      }
      break;
    case Literal::Kind::Load:
      out += "load(";
      appendQuoted(out, lit.path);
      out += ')';
      break;
    case Literal::Kind::Uniform: appendGeneratorArgs(out, "uniform", lit.args); break;
    case Literal::Kind::Normal: appendGeneratorArgs(out, "normal", lit.args); break;
    case Literal::Kind::Zeros: out += "zeros"; break;
    case Literal::Kind::Ones: out += "ones"; break;
  }
}

void appendAttr(std::string& out, const Attr& attr) {
  switch (attr.kind) {
    case Attr::Kind::Int: appendInt(out, attr.i); break;
    case Attr::Kind::Float:
      // An integral float prints as an integer (`2`), which reads back as the same
      // number; negative zero would read back as the integer 0, and an integral
      // float beyond int64 (`22222222222222221312`) as an integer out of range, so
      // those keep a point.
      if (attr.f == 0 && std::signbit(attr.f)) {
        out += "-0.0";
      } else {
        const size_t start = out.size();
        appendNumber(out, attr.f, DType::F64);
        const bool integerSpelling = out.find_first_not_of("-0123456789", start) == std::string::npos;
        if (integerSpelling && std::fabs(attr.f) >= 0x1p63) out += ".0";
      }
      break;
    case Attr::Kind::Bool: out += attr.b ? "true" : "false"; break;
    case Attr::Kind::String: appendQuoted(out, attr.s); break;
    case Attr::Kind::Word: out += attr.s; break;
    case Attr::Kind::Graph: out += '@'; out += attr.s; break;
    case Attr::Kind::Value: out += '%'; out += attr.s; break;
    case Attr::Kind::Resource: out += '$'; out += attr.s; break;
    case Attr::Kind::List:
    case Attr::Kind::Tuple: {
      const bool list = attr.kind == Attr::Kind::List;
      out += list ? '[' : '(';
      for (size_t i = 0; i < attr.items.size(); ++i) {
        if (i) out += ", ";
        appendAttr(out, attr.items[i]);
      }
      out += list ? ']' : ')';
      break;
    }
  }
}

std::string printOp(const Op& op) {
  std::string out;
  appendOp(out, op, 0);
  return out;
}

std::string printGraph(const Module&, const Graph& graph) {
  std::string out;
  out.reserve(128 + graph.ops.size() * 48);
  appendGraph(out, graph);
  return out;
}

std::string printModule(const Module& m) {
  std::string out;
  out.reserve(estimateSize(m));
  appendIrOptions(out, m.options);
  // One blank line between sections: options, declarations, each graph, main.
  auto separate = [&out] {
    if (!out.empty()) out += '\n';
  };
  if (!m.resources.empty()) {
    separate();
    for (const auto& r : m.resources) {
      out += resourceKeyword(r->kind);
      out += " $";
      out += r->name;
      out += " : ";
      appendType(out, r->type);
      if (r->kind == Resource::Kind::RemoteBuffer && r->entries != 1) {
        out += " {entries = ";
        appendInt(out, r->entries);
        out += '}';
      }
      out += '\n';
    }
  }
  for (const auto& g : m.graphs) {
    separate();
    appendGraph(out, *g);
  }
  separate();
  appendGraph(out, *m.main);
  return out;
}

}  // namespace pir
