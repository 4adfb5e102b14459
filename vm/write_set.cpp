#include "vm/write_set.h"

#include <algorithm>
#include <set>
#include <vector>

namespace pir::vm {

void computeWriteSet(CompiledGraph& g, const Program& p) {
  std::vector<bool> slots(g.slots.size(), false);  // written slots (linear in the code)
  std::set<uint32_t> remote, streams;
  auto write = [&](uint32_t s) {
    if (s < slots.size()) slots[s] = true;
  };
  auto throughCallee = [&](const CompiledGraph* callee, const uint32_t* argSlots, unsigned first, unsigned count,
                           unsigned paramBase) {
    if (!callee) return;
    for (unsigned i = 0; i < count; ++i)
      if (paramBase + i < callee->paramWritten.size() && callee->paramWritten[paramBase + i])
        write(argSlots[first + i]);
    remote.insert(callee->writtenRemote.begin(), callee->writtenRemote.end());
    streams.insert(callee->writtenStreams.begin(), callee->writtenStreams.end());
  };
  auto graph = [&](uint32_t index) -> const CompiledGraph* {
    return index < p.graphs.size() ? p.graphs[index].get() : nullptr;
  };
  for (const Instr& in : g.code) {
    const uint32_t* args = g.argSlots.data() + in.args;
    for (unsigned j = 0; j < in.nOut; ++j) write(args[in.nIn + j]);
    switch (in.opc) {
      case Opc::RemoteStore: remote.insert(in.a); break;
      case Opc::HostStore: streams.insert(in.a); break;
      case Opc::Call: throughCallee(graph(in.a), args, 0, in.nIn, 0); break;
      case Opc::Repeat:
        // Params [0, c) are bound to the results (written anyway), [c, nIn) to the operands.
        throughCallee(graph(in.a), args, in.c, in.nIn - std::min(in.c, in.nIn), in.c);
        break;
      case Opc::Cond:
        throughCallee(graph(in.a), args, 1, in.c, 0);
        throughCallee(graph(in.b), args, 1 + in.c, in.nIn - std::min(in.nIn, 1 + in.c), 0);
        break;
      default: break;
    }
  }
  std::set<uint32_t> vars;
  g.paramWritten.assign(g.paramSlots.size(), false);
  for (uint32_t s = 0; s < slots.size(); ++s) {
    if (!slots[s]) continue;
    const SlotInfo& info = g.slots[s];
    if (info.kind == SlotInfo::Kind::Var) vars.insert(info.index);
    // A copied param is the callee's own buffer: the caller's tensor is untouched.
    if (info.kind == SlotInfo::Kind::Param && !info.copied && info.index < g.paramWritten.size())
      g.paramWritten[info.index] = true;
  }
  g.writtenVars.assign(vars.begin(), vars.end());
  g.writtenRemote.assign(remote.begin(), remote.end());
  g.writtenStreams.assign(streams.begin(), streams.end());
}

}  // namespace pir::vm
