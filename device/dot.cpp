#include "device/dot.h"

#include <unordered_map>
#include <vector>

#include "device/model.h"
#include "device/io_ops.h"
#include "ir/number_format.h"
#include "ir/op_attrs.h"

namespace pir::device {
namespace {

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string typed(const Value* v) { return "%" + v->name + ": " + v->type->str(); }

class DotWriter {
 public:
  DotWriter(const Module& m, const Graph* only) : m_(m), only_(only) {}

  std::string write() {
    out_ = "digraph pir {\n  compound=true;\n  node [fontname=\"monospace\", fontsize=10];\n"
           "  edge [fontname=\"monospace\", fontsize=9];\n";
    std::vector<const Graph*> graphs;
    if (only_) graphs.push_back(only_);
    else {
      for (auto& g : m_.graphs) graphs.push_back(g.get());
      graphs.push_back(m_.main.get());
    }
    for (const Graph* g : graphs) cluster(*g);
    out_ += resourceNodes_;
    out_ += edges_;
    out_ += "}\n";
    return out_;
  }

 private:
  std::string id(const Graph& g) const { return g.isMain ? "main" : "g_" + g.name; }

  std::string opNode(const Graph& g, const Op* op) {
    auto it = opIds_.find(op);
    if (it != opIds_.end()) return it->second;
    std::string n = quoted(id(g) + ":op" + std::to_string(opIds_.size()));
    opIds_[op] = n;
    return n;
  }

  std::string resourceNode(const Resource* r) {
    std::string n = quoted("$" + r->name);
    if (resourcesSeen_.insert({r, true}).second) {
      const char* kind = r->kind == Resource::Kind::H2D ? "h2d" : r->kind == Resource::Kind::D2H ? "d2h" : "remote_buffer";
      resourceNodes_ += "  " + n + " [shape=cds, label=" + quoted(std::string(kind) + " $" + r->name + "\n" + r->type.str()) + "];\n";
    }
    return n;
  }

  // The node a value comes from in graph g.
  std::string source(const Graph& g, const Value* v) {
    if (v->def) return opNode(g, v->def);
    return quoted(id(g) + ":in" + std::to_string(paramIndex(g, v)));
  }
  static size_t paramIndex(const Graph& g, const Value* v) {
    for (size_t i = 0; i < g.params.size(); ++i)
      if (g.params[i] == v) return i;
    return 0;
  }

  void edge(const std::string& from, const std::string& to, const std::string& label, const std::string& extra = "") {
    edges_ += "  " + from + " -> " + to + " [label=" + quoted(label) + extra + "];\n";
  }

  void operandEdges(const Graph& g, const Operand& a, const std::string& to, const std::string& indent) {
    switch (a.kind()) {
      case Operand::Kind::Value: edge(source(g, a.value()), to, typed(a.value())); break;
      case Operand::Kind::Literal: {
        std::string lit = quoted(id(g) + ":lit" + std::to_string(literals_++));
        std::string text = a.literal() && a.literal()->isScalar() && !a.literal()->values.empty()
                               ? formatNumber(roundToDType(a.literal()->values[0], a.literalType().dtype), a.literalType().dtype)
                               : "literal";
        out_ += indent + lit + " [shape=plaintext, label=" + quoted(text) + "];\n";
        edge(lit, to, a.literalType().str());
        break;
      }
      case Operand::Kind::Resource:
        if (a.resource()) edge(resourceNode(a.resource()), to, "$" + a.resource()->name + ": " + a.resource()->type.str());
        break;
    }
  }

  void opStatement(const Graph& g, const Op& op, const std::string& indent) {
    const std::string n = opNode(g, &op);
    std::string label;
    const char* shape = "box";
    if (op.code == OpCode::Var || op.code == OpCode::Const) {
      shape = op.code == OpCode::Var ? "cylinder" : "note";
      label = std::string(op.code == OpCode::Var ? "var " : "const ") + "%" + op.results.at(0)->name;
    } else {
      label = std::string(op.info().name);
      if (!op.label().empty()) label += " as " + op.label().str();
      if (op.code == OpCode::Repeat)
        label += " x" + formatNumber(static_cast<double>(attrs::Repeat{op}.count()), DType::I32);
    }
    out_ += indent + n + " [shape=" + shape + ", label=" + quoted(label) + "];\n";
    const bool storesTo = isStore(op);
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const Operand& a = op.operands[i];
      if (storesTo && a.kind() == Operand::Kind::Resource) {
        // The data flows out to the stream or buffer.
        const Operand& data = op.operands.back();
        edge(n, resourceNode(a.resource()), data.kind() == Operand::Kind::Value ? typed(data.value()) : "$" + a.resource()->name);
        continue;
      }
      operandEdges(g, a, n, indent);
    }
    // Calls: the arguments (operands) feed the op; a dashed edge enters the callee.
    const char* roles[] = {"then", "else"};
    std::vector<Callee> callees = calleesOf(op);
    for (size_t c = 0; c < callees.size(); ++c) {
      const Callee& cr = callees[c];
      std::string role = op.code == OpCode::Conditional ? roles[c % 2] : op.code == OpCode::Repeat ? "body" : "call";
      if (only_) {
        std::string target = quoted("@" + cr.graph->name);
        if (calleeNodes_.insert({cr.graph, true}).second)
          out_ += "  " + target + " [shape=component, label=" + quoted("@" + cr.graph->name) + "];\n";
        edge(n, target, role, ", style=dashed");
      } else {
        edge(n, quoted(id(*cr.graph) + ":anchor"), role, ", style=dashed, lhead=" + quoted("cluster_" + id(*cr.graph)));
      }
    }
  }

  void cluster(const Graph& g) {
    const std::string gid = id(g);
    std::string title = g.isMain ? "main" : "@" + g.name;
    out_ += "  subgraph " + quoted("cluster_" + gid) + " {\n    label=" + quoted(title) + ";\n";
    out_ += "    " + quoted(gid + ":anchor") + " [shape=point, style=invis];\n";
    for (size_t i = 0; i < g.params.size(); ++i) {
      const Value* p = g.params[i];
      out_ += "    " + quoted(gid + ":in" + std::to_string(i)) + " [shape=ellipse, label=" +
              quoted(std::string(p->byRef ? "&" : "") + typed(p)) + "];\n";
    }
    for (auto& opPtr : g.ops) {
      const Op& op = *opPtr;
      if (op.code == OpCode::Exchange) {
        std::string cid = quoted("cluster_" + gid + ":ex" + std::to_string(blocks_++));
        out_ += "    subgraph " + cid + " {\n      label=\"exchange\";\n      style=dashed;\n";
        for (auto& inner : op.region()) opStatement(g, *inner, "      ");
        out_ += "    }\n";
        continue;
      }
      opStatement(g, op, "    ");
    }
    if (!g.isMain) {
      std::string ret = quoted(gid + ":return");
      out_ += "    " + ret + " [shape=ellipse, label=\"return\"];\n";
      for (const Operand& r : g.returns) operandEdges(g, r, ret, "    ");
    }
    out_ += "  }\n";
  }

  const Module& m_;
  const Graph* only_;
  std::string out_, edges_, resourceNodes_;
  std::unordered_map<const Op*, std::string> opIds_;
  std::unordered_map<const Resource*, bool> resourcesSeen_;
  std::unordered_map<const Graph*, bool> calleeNodes_;
  size_t literals_ = 0, blocks_ = 0;
};

}  // namespace

std::string dotOfModule(const Module& m, const Graph* only) { return DotWriter(m, only).write(); }

}  // namespace pir::device
