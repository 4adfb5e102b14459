// `pir disasm`: the bytecode of every graph, one instruction a line.
//
//   @linear  (3 params, 2 slots in a 32-byte arena)
//     slot s3  arena+0     %xw: f32[2,2]
//     0000  kernel       matmul   s0(%x), s1(%W) -> s3(%xw)        ; lin.pir:7:9
#include <cstdio>
#include <sstream>

#include "vm/bytecode.h"
#include "vm/fusion.h"
#include "ir/matmul_operands.h"

namespace pir::vm {

const char* opcName(Opc o) {
  switch (o) {
#define PIR_INSN(id, text, sem) \
  case Opc::id:                 \
    return text;
#include "vm/bytecode.def"
#undef PIR_INSN
  }
  return "?";
}

std::string locationText(const SourceManager& sm, SourceLoc loc) {
  if (!loc.valid() || loc.file > sm.size()) return "<unknown>";
  const SourceBuffer& buffer = sm.buffer(loc.file);
  const std::string& name = buffer.name;
  // displayLine: REPL inputs are buffers of their own, numbered over the session.
  return (name == "-" ? std::string("<stdin>") : name) + ":" + std::to_string(buffer.displayLine(loc.line)) + ":" +
         std::to_string(buffer.displayColumn(loc.line, loc.col));
}

namespace {

std::string slotText(const CompiledGraph& g, uint32_t slot) {
  std::string s = "s" + std::to_string(slot);
  if (slot < g.slots.size() && g.slots[slot].value) s += "(%" + g.slots[slot].value->name + ")";
  else if (slot < g.slots.size() && g.slots[slot].kind == SlotInfo::Kind::Const) s += "(literal)";
  return s;
}

const char* kindName(SlotInfo::Kind k) {
  switch (k) {
    case SlotInfo::Kind::Arena: return "arena";
    case SlotInfo::Kind::Param: return "param";
    case SlotInfo::Kind::Const: return "const";
    case SlotInfo::Kind::Var: return "var";
  }
  return "?";
}

std::string graphName(const Program& p, uint32_t index) {
  return index < p.graphs.size() && p.graphs[index] ? "@" + p.graphs[index]->name : "@?";
}

}  // namespace

std::string disassemble(const CompiledGraph& g, const Program& p, const SourceManager& sm) {
  std::ostringstream out;
  out << "@" << g.name << "  (" << g.paramSlots.size() << " params, " << g.slots.size() << " slots, "
      << g.arenaBytes << "-byte arena, " << g.code.size() << " instructions)\n";
  for (size_t s = 0; s < g.slots.size(); ++s) {
    const SlotInfo& info = g.slots[s];
    out << "  slot s" << s << "  " << kindName(info.kind);
    if (info.kind == SlotInfo::Kind::Arena && info.inScratch) out << " (in a fused instruction's scratch)";
    else if (info.kind == SlotInfo::Kind::Arena || (info.kind == SlotInfo::Kind::Param && info.copied))
      out << "+" << info.offset;
    if (info.kind == SlotInfo::Kind::Param) out << (info.copied ? " (copied: written in place)" : " (bound)");
    if (info.kind == SlotInfo::Kind::Const || info.kind == SlotInfo::Kind::Var) out << " #" << info.index;
    if (info.value) out << "  %" << info.value->name << ": " << info.value->type->str();
    out << "  " << info.bytes << " bytes";
    // A call computes these directly in its result buffer (CompiledGraph::returnInPlace).
    for (size_t j = 0; j < g.returnSlots.size(); ++j)
      if (g.returnInPlace[j] && g.returnSlots[j] == s) out << "  (a call's result " << j << ")";
    for (const auto& [j, alias] : g.returnInPlaceAliases)
      if (alias == s) out << "  (in a call's result " << j << ")";
    out << "\n";
  }
  for (size_t pc = 0; pc < g.code.size(); ++pc) {
    const Instr& in = g.code[pc];
    char head[64];
    std::snprintf(head, sizeof head, "  %04zu  %-12s ", pc, opcName(in.opc));
    std::string line = head;
    if (in.opc == Opc::Fused) line += "[" + fusedOpNames(g.fused.at(in.b)) + "] ";
    else if (in.op) line += std::string(in.op->info().name) + " ";
    switch (in.opc) {
      case Opc::HostLoad:
      case Opc::HostStore:
      case Opc::RemoteLoad:
      case Opc::RemoteStore:
        if (in.op && !in.op->operands.empty() && in.op->operands[0].resource())
          line += "$" + in.op->operands[0].resource()->name + " ";
        if (in.opc == Opc::HostLoad && in.b) line += "(read where fed) ";
        break;
      case Opc::Call: line += graphName(p, in.a) + " "; break;
      case Opc::Repeat:
        line += graphName(p, in.a) + " count=" + std::to_string(in.count) + " carried=" + std::to_string(in.c) + " ";
        break;
      case Opc::Cond: line += "then " + graphName(p, in.a) + " else " + graphName(p, in.b) + " "; break;
      case Opc::Print: line += "title=\"" + g.strings[in.a] + "\" "; break;
      case Opc::Kernel:
      case Opc::Fused:
      case Opc::ViewSync:
        line += "k" + std::to_string(in.a) + " ";
        for (unsigned i = 0; in.opc == Opc::Kernel && in.op && i < 2; ++i)
          if (matmulReadsTransposed(*in.op, i)) line += "in" + std::to_string(i) + "^T ";  // in i read transposed
        break;
      case Opc::Collective: {
        const CollectiveSpec& c = g.collectives.at(in.a);
        line += "group=(" + std::to_string(c.stride) + ", " + std::to_string(c.groupSize) + ") ";
        break;
      }
    }
    for (unsigned i = 0; i < in.nIn; ++i) line += (i ? ", " : "") + slotText(g, g.argSlots[in.args + i]);
    if (in.nOut) {
      line += " -> ";
      for (unsigned i = 0; i < in.nOut; ++i) line += (i ? ", " : "") + slotText(g, g.argSlots[in.args + in.nIn + i]);
    }
    if (line.size() < 72) line.resize(72, ' ');
    line += "  ; " + (in.op ? locationText(sm, in.op->loc) : std::string("<generated>"));
    out << line << "\n";
  }
  if (!g.returnSlots.empty()) {
    out << "  return ";
    for (size_t i = 0; i < g.returnSlots.size(); ++i) out << (i ? ", " : "") << slotText(g, g.returnSlots[i]);
    out << "\n";
  }
  return out.str();
}

std::string disassemble(const Program& p, const SourceManager& sm) {
  std::string out;
  for (auto& g : p.graphs)
    if (g) out += disassemble(*g, p, sm) + "\n";
  if (p.main) out += disassemble(*p.main, p, sm);
  return out;
}

}  // namespace pir::vm
