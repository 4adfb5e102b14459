// The device model's working state (device/tile_model.h): layouts, memory
// peaks and witnesses, the static tensors, and each op's phase costs.
#include "device/tile_model.h"
#include "ir/matmul_operands.h"

namespace pir::device::detail {

Layout& Model::layout(const Graph* g, PlacementContext ctx) {
  auto key = std::make_tuple(g, ctx.ipu, static_cast<int>(ctx.set));
  auto it = layouts_.find(key);
  if (it != layouts_.end()) return *it->second;
  auto l = std::make_unique<Layout>();
  Layout& ref = *l;
  layouts_.emplace(key, std::move(l));
  build(ref, g, ctx);
  return ref;
}

PlacementContext Model::calleeContext(const LayoutOp& lop) const {
  Placement p = placementOf(lop.op->attrs, lop.ctx);
  return {p.ipu, p.set};
}

std::vector<Layout*> Model::calleesFirst() {
  std::vector<Layout*> order;
  std::set<Layout*> seen;
  std::vector<std::pair<Layout*, bool>> stack{{&mainLayout(), false}};
  while (!stack.empty()) {
    auto [l, expanded] = stack.back();
    stack.pop_back();
    if (expanded) {
      order.push_back(l);
      continue;
    }
    if (!seen.insert(l).second) continue;
    stack.push_back({l, true});
    for (LayoutOp& lop : l->ops)
      for (const Callee& c : calleesOf(*lop.op)) {
        Layout* callee = &layout(c.graph, calleeContext(lop));
        if (!seen.count(callee)) stack.push_back({callee, false});
      }
  }
  return order;
}

void Model::computePeaks() {
  for (Layout* l : calleesFirst()) peakOf(*l);
}

void Model::computeWitnesses(int64_t t) {
  for (Layout* l : calleesFirst()) witnessOf(*l, t);
}

std::vector<Layout*> Model::reachable() {
  std::vector<Layout*> order;
  std::set<Layout*> seen;
  std::vector<Layout*> stack{&mainLayout()};
  while (!stack.empty()) {
    Layout* l = stack.back();
    stack.pop_back();
    if (!seen.insert(l).second) continue;
    order.push_back(l);
    for (LayoutOp& lop : l->ops)
      for (const Callee& c : calleesOf(*lop.op)) stack.push_back(&layout(c.graph, calleeContext(lop)));
  }
  return order;
}

void Model::collectStatic() {
  if (staticDone_) return;
  staticDone_ = true;
  std::unordered_set<uint64_t> codelets;  // (global tile, op code)
  std::set<const Resource*> landed;
  for (Layout* l : reachable()) {
    const std::string gname = l->graph->name;
    for (LayoutOp& lop : l->ops) {
      const Op& op = *lop.op;
      if (op.code == OpCode::Const || (op.code == OpCode::Var && !isRemoteVar(op))) {
        const Value* v = op.results.at(0);
        statics_.push_back({gname, valueLabel(v), v->type, l->map[v->id], v->loc});
      }
      for (const Operand& a : op.operands)
        if (a.kind() == Operand::Kind::Literal) {
          Placement p{lop.ctx.ipu, lop.ctx.set};
          statics_.push_back({gname, "literal", a.literalType(), mapTensor(a.literalType(), p, o_), a.loc().valid() ? a.loc() : op.loc});
        }
      // Landing areas: one per resource, where its first IO op puts data.
      for (const Operand& a : op.operands)
        if (a.kind() == Operand::Kind::Resource && a.resource() && landed.insert(a.resource()).second) {
          Placement p = ioPlacement(lop);
          statics_.push_back({gname, "$" + a.resource()->name + " landing area", a.resource()->type,
                              mapTensor(a.resource()->type, p, o_), a.resource()->loc});
        }
      // Code on the op's compute set.
      CostClass cls = costClassOf(op.code);
      if (cls == CostClass::None || cls == CostClass::Control || cls == CostClass::View) continue;
      for (const TileMapping* tm : outputMappings(*l, lop)) {
        for (int64_t k = 0; k < tm->tileCount; ++k) {
          int64_t t = globalTile(o_, tm->ipu, tm->firstTile + k);
          uint64_t add = cost::kVertexBytesPerOp;
          if (codelets.insert(static_cast<uint64_t>(t) * kNumOpCodes + static_cast<uint64_t>(op.code)).second)
            add += cost::kCodeletBytes;
          code_[t] = satAdd(code_[t], add);
          codeOps_[t] += 1;
        }
        break;  // one compute set: the first output's tiles (outputs share them by the linear rule)
      }
    }
  }
  for (const StaticTensor& s : statics_) addMapping(alwaysLive_, s.mapping, true);
  for (auto& [t, b] : code_) alwaysLive_[t] = satAdd(alwaysLive_[t], b);
}

const std::unordered_map<int64_t, uint64_t>& Model::peakOf(Layout& l) {
  if (l.peakDone || l.peakActive) return l.peak;  // active: recursion, rejected by the verifier
  l.peakActive = true;
  std::unordered_map<int64_t, int64_t> cur;
  for (LayoutOp& lop : l.ops) {
    for (unsigned id : lop.owned) {
      const TileMapping& tm = l.map[id];
      for (int64_t k = 0; k < tm.tileCount; ++k) {
        int64_t t = globalTile(o_, tm.ipu, tm.firstTile + k);
        int64_t& c = cur[t];
        c += static_cast<int64_t>(tm.bytesOn(k));
        uint64_t& p = l.peak[t];
        p = std::max<uint64_t>(p, static_cast<uint64_t>(c));
      }
    }
    for (const Callee& c : calleesOf(*lop.op)) {
      Layout& callee = layout(c.graph, calleeContext(lop));
      for (auto& [t, bytes] : peakOf(callee)) {
        auto it = cur.find(t);
        uint64_t here = it == cur.end() ? 0 : static_cast<uint64_t>(it->second);
        uint64_t& p = l.peak[t];
        p = std::max(p, satAdd(here, bytes));
      }
    }
    for (unsigned id : lop.dying) {
      const TileMapping& tm = l.map[id];
      for (int64_t k = 0; k < tm.tileCount; ++k) cur[globalTile(o_, tm.ipu, tm.firstTile + k)] -= static_cast<int64_t>(tm.bytesOn(k));
    }
  }
  l.peakActive = false;
  l.peakDone = true;
  return l.peak;
}

const Witness& Model::witnessOf(Layout& l, int64_t t) {
  if (l.witness.done) return l.witness;
  l.witness.done = true;  // also guards recursion
  struct Peak {
    uint64_t bytes = 0;
    size_t op = 0, event = 0;  // op index; event: an owned value's position, or owned.size() + callee index
    const Witness* callee = nullptr;
    const Op* at = nullptr;
  } best;
  uint64_t cur = 0;
  for (size_t k = 0; k < l.ops.size(); ++k) {
    LayoutOp& lop = l.ops[k];
    for (size_t e = 0; e < lop.owned.size(); ++e) {
      uint64_t b = bytesOnGlobal(l.map[lop.owned[e]], t);
      if (b == 0) continue;
      cur += b;
      if (cur > best.bytes || !best.at) best = Peak{cur, k, e, nullptr, lop.op};
    }
    const std::vector<Callee> callees = calleesOf(*lop.op);
    for (size_t c = 0; c < callees.size(); ++c) {
      const Witness& w = witnessOf(layout(callees[c].graph, calleeContext(lop)), t);
      if (w.at && (cur + w.bytes > best.bytes || !best.at)) best = Peak{cur + w.bytes, k, lop.owned.size() + c, &w, w.at};
    }
    for (unsigned id : lop.dying) cur -= bytesOnGlobal(l.map[id], t);
  }
  Witness result;
  if (best.at) {
    // Replay to the peak. Values die in any order: a dead one is cleared in place
    // (by its position) and the list compacted once at the end.
    std::vector<std::pair<const Value*, uint64_t>> live;
    std::unordered_map<unsigned, size_t> position;  // live value id -> index in `live`
    for (size_t k = 0; k <= best.op; ++k) {
      const LayoutOp& lop = l.ops[k];
      const size_t lastOwned = k == best.op ? std::min(best.event + 1, lop.owned.size()) : lop.owned.size();
      for (size_t e = 0; e < lastOwned; ++e) {
        const unsigned id = lop.owned[e];
        uint64_t b = bytesOnGlobal(l.map[id], t);
        if (b == 0) continue;
        position[id] = live.size();
        live.push_back({l.graph->values[id].get(), b});
      }
      if (k == best.op) break;
      for (unsigned id : lop.dying)
        if (auto it = position.find(id); it != position.end()) {
          live[it->second].first = nullptr;
          position.erase(it);
        }
    }
    for (const auto& item : live)
      if (item.first) result.own.push_back(item);
    result.bytes = best.bytes;
    result.callee = best.callee;
    result.at = best.at;
  }
  l.witness = std::move(result);
  l.witness.done = true;
  return l.witness;
}

uint64_t Model::bytesOnGlobal(const TileMapping& tm, int64_t t) const {
  if (tm.ipu != t / std::max<int64_t>(o_.tilesPerIpu, 1)) return 0;
  return tm.bytesOn(t % std::max<int64_t>(o_.tilesPerIpu, 1) - tm.firstTile);
}

const OpCost& Model::costOf(Layout& l, LayoutOp& lop) {
  if (lop.costed) return lop.cost;
  lop.costed = true;
  OpCost& c = lop.cost;
  const Op& op = *lop.op;
  const uint64_t syncCycles = o_.ipus > 1 ? cost::kMultiIpuSyncCycles : cost::kSyncCycles;
  const CostClass cls = costClassOf(op.code);
  c.ipu = lop.ctx.ipu;
  if (op.code == OpCode::Exchange) {
    c.io = true;
    c.onIoTiles = o_.ioTiles > 0;
    // Segments: a new one where a (resource, direction) pair repeats.
    std::set<std::pair<const Resource*, bool>> seen;
    uint64_t latency = 0, hostBytes = 0, remoteBytes = 0;
    bool open = false;
    auto close = [&] {
      if (!open) return;
      c.segments.push_back(satAdd(latency, satAdd(ceilDiv(hostBytes, cost::kHostBytesPerCycle),
                                                  ceilDiv(remoteBytes, cost::kRemoteBytesPerCycle))));
      latency = hostBytes = remoteBytes = 0;
      seen.clear();
      open = false;
    };
    for (auto& innerPtr : op.region()) {
      const Op& inner = *innerPtr;
      const Resource* r = ioResource(inner);
      bool load = isLoad(inner);
      if (seen.count({r, load})) close();
      seen.insert({r, load});
      open = true;
      bool remote = r && r->kind == Resource::Kind::RemoteBuffer;
      latency = std::max(latency, remote ? cost::kRemoteLatencyCycles : cost::kHostLatencyCycles);
      (remote ? remoteBytes : hostBytes) += ioBytes(inner);
      Placement p = placementOf(inner.attrs, placementContextOfBlock(op, lop.ctx));
      if (!(p.set == TileSet::Io)) c.onIoTiles = false;
      c.ipu = p.ipu;
    }
    close();
    for (uint64_t s : c.segments) c.phases.hostIo = satAdd(c.phases.hostIo, s);
    c.phases.syncs = c.segments.size();
    c.phases.sync = satMul(syncCycles, c.segments.size());
    if (c.segments.empty()) c.onIoTiles = false;
    return c;
  }
  if (lop.block) return c;  // costed with its block
  switch (cls) {
    case CostClass::None:
    case CostClass::View: return c;
    case CostClass::Io: {
      c.io = true;
      const Resource* r = ioResource(op);
      bool remote = r && r->kind == Resource::Kind::RemoteBuffer;
      uint64_t bytes = ioBytes(op);
      c.phases.hostIo = remote ? satAdd(cost::kRemoteLatencyCycles, ceilDiv(bytes, cost::kRemoteBytesPerCycle))
                               : satAdd(cost::kHostLatencyCycles, ceilDiv(bytes, cost::kHostBytesPerCycle));
      c.phases.sync = syncCycles;
      c.phases.syncs = 1;
      Placement p = ioPlacement(lop);
      c.onIoTiles = p.set == TileSet::Io && o_.ioTiles > 0 && p.lo < 0;
      c.ipu = p.ipu;
      return c;
    }
    case CostClass::Control: {
      // Arguments mapped elsewhere than the callee's parameters are copied in.
      ExchangeAccount ex(o_);
      for (const Callee& cr : calleesOf(op)) {
        Layout& callee = layout(cr.graph, calleeContext(lop));
        for (size_t i = 0; i < cr.args.size() && i < cr.graph->params.size(); ++i) {
          const TileMapping* from = operandMapping(l, lop, cr.args[i]);
          const TileMapping& to = callee.map[cr.graph->params[i]->id];
          if (from && !(*from == to)) ex.aligned(*from, to);
        }
      }
      c.phases.exchange = ex.cycles();
      if (c.phases.exchange > 0) {
        c.phases.sync = syncCycles;
        c.phases.syncs = 1;
      }
      return c;
    }
    default: break;
  }
  std::vector<const TileMapping*> outs = outputMappings(l, lop);
  if (outs.empty()) return c;
  const TileMapping& out = *outs[0];
  c.ipu = out.ipu;
  // Exchange.
  ExchangeAccount ex(o_);
  std::vector<const TileMapping*> ins;
  std::vector<TileMapping> literalMaps;
  literalMaps.reserve(op.operands.size());
  for (const Operand& a : op.operands) {
    if (a.kind() == Operand::Kind::Literal) {
      literalMaps.push_back(mapTensor(a.literalType(), Placement{lop.ctx.ipu, lop.ctx.set}, o_));
      ins.push_back(&literalMaps.back());
    } else if (a.kind() == Operand::Kind::Value) {
      ins.push_back(&l.map[a.value()->id]);
    }
  }
  const int target = inplaceTarget(op);
  for (size_t i = 0; i < ins.size(); ++i) {
    const TileMapping& x = *ins[i];
    if (static_cast<int>(i) == target && x == out) continue;  // written where it is
    if (cls == CostClass::MatMul && i < 2 && out.elements > 0) {
      const Shape ta = matmulOperandShape(op, 0), tb = matmulOperandShape(op, 1);
      const uint64_t n = !tb.empty() ? static_cast<uint64_t>(std::max<int64_t>(tb.back(), 1)) : 1;
      const uint64_t kdim = !ta.empty() ? static_cast<uint64_t>(std::max<int64_t>(ta.back(), 1)) : 1;
      ex.gathered(x, out, [&](int64_t k) -> uint64_t {
        uint64_t s = static_cast<uint64_t>(k * out.chunk), e = s + static_cast<uint64_t>(out.elementsOn(k));
        uint64_t need = i == 0 ? ((e - 1) / n - s / n + 1) * kdim : std::min<uint64_t>(n, e - s) * kdim;
        return std::min<uint64_t>(need, static_cast<uint64_t>(x.elements));
      });
    } else if (x.elements == out.elements) {
      ex.aligned(x, out);
    } else {
      const uint64_t xn = static_cast<uint64_t>(x.elements), on = static_cast<uint64_t>(out.elements);
      ex.gathered(x, out, [&](int64_t k) -> uint64_t {
        uint64_t o = static_cast<uint64_t>(out.elementsOn(k));
        return xn <= on ? std::min(xn, o) : mulDivCeil(xn, o, on);
      });
    }
  }
  c.phases.exchange = ex.cycles();
  if (cls == CostClass::Collective && o_.replication > 1) {
    // A ring over the replicas: each sends 2(R-1)/R of the tensor over its links.
    const uint64_t r = static_cast<uint64_t>(o_.replication);
    uint64_t bytes = mulDivCeil(out.totalBytes(), 2 * (r - 1), r);
    c.phases.exchange = satAdd(c.phases.exchange, ceilDiv(bytes, cost::kIpuLinkBytesPerCycle));
  }
  // Compute.
  if (cls != CostClass::ExchangeOnly) {
    uint64_t busiest = 0;
    const uint64_t inElements = ins.empty() ? 0 : static_cast<uint64_t>(ins[0]->elements);
    const uint64_t outElements = static_cast<uint64_t>(out.elements);
    for (int64_t k = 0; k < out.tileCount; ++k) {
      uint64_t elems = static_cast<uint64_t>(out.elementsOn(k));
      for (size_t j = 1; j < outs.size(); ++j)
        if (outs[j]->ipu == out.ipu) elems += static_cast<uint64_t>(outs[j]->elementsOnTile(out.firstTile + k));
      uint64_t cycles;
      if (cls == CostClass::MatMul || cls == CostClass::Conv) {
        cycles = ceilDiv(satMul(elems, multiplyAddsPerResultElement(op)),
                         macsPerCycle(op.results.empty() ? DType::F32 : op.results[0]->type->dtype));
      } else {
        uint64_t work = elems;
        if ((cls == CostClass::Reduce || cls == CostClass::Normalise) && inElements > outElements)
          work = mulDivCeil(elems, inElements, std::max<uint64_t>(outElements, 1));
        cycles = satMul(ceilDiv(work, cost::kWorkerThreads), cyclesPerElement(cls));
      }
      busiest = std::max(busiest, satAdd(cost::kComputeSetOverheadCycles, cycles));
    }
    c.phases.compute = busiest;
  }
  c.phases.sync = syncCycles;
  c.phases.syncs = 1;
  return c;
}

uint64_t Model::staticCost(Layout& l) {
  if (l.staticCostDone || l.staticCostActive) return l.staticCost;
  l.staticCostActive = true;
  uint64_t total = 0;
  for (LayoutOp& lop : l.ops) {
    total = satAdd(total, costOf(l, lop).phases.total());
    std::vector<Callee> cs = calleesOf(*lop.op);
    if (lop.op->code == OpCode::Conditional) {
      uint64_t best = 0;
      for (const Callee& c : cs) best = std::max(best, staticCost(layout(c.graph, calleeContext(lop))));
      total = satAdd(total, best);
    } else {
      for (const Callee& c : cs)
        total = satAdd(total, satMul(staticCost(layout(c.graph, calleeContext(lop))), repeatCount(*lop.op)));
    }
  }
  l.staticCost = total;
  l.staticCostDone = true;
  l.staticCostActive = false;
  return total;
}

uint64_t Model::repeatCount(const Op& op) {
  if (op.code != OpCode::Repeat) return 1;
  const int64_t n = attrs::Repeat{op}.count();
  return n <= 0 ? 0 : static_cast<uint64_t>(n);
}

std::vector<const TileMapping*> Model::outputMappings(Layout& l, const LayoutOp& lop) {
  std::vector<const TileMapping*> outs;
  const Op& op = *lop.op;
  for (const Value* v : op.results)
    if (v) outs.push_back(&l.map[v->id]);
  if (!outs.empty()) return outs;
  int t = inplaceTarget(op);
  int stored = isStore(op) ? static_cast<int>(op.operands.size()) - 1 : t;
  if (stored >= 0 && static_cast<size_t>(stored) < op.operands.size() && op.operands[stored].kind() == Operand::Kind::Value)
    outs.push_back(&l.map[op.operands[stored].value()->id]);
  return outs;
}

const TileMapping* Model::operandMapping(Layout& l, const LayoutOp&, const Operand& a) {
  if (a.kind() == Operand::Kind::Value) return &l.map[a.value()->id];
  return nullptr;
}

bool Model::isRemoteVar(const Op& op) {
  return op.code == OpCode::Var && attrs::Var{op}.remote().has_value();
}

uint64_t Model::typeBytes(const TensorType& t) {
  return satMul(static_cast<uint64_t>(std::max<int64_t>(t.numElements(), 0)), static_cast<uint64_t>(dtypeSize(t.dtype)));
}

uint64_t Model::ioBytes(const Op& op) {
  if (isLoad(op)) return typeBytes(ioResource(op)->type);
  return op.operands.empty() ? 0 : typeBytes(op.operands.back().type());
}

PlacementContext Model::placementContextOfBlock(const Op& block, PlacementContext ctx) {
  Placement p = placementOf(block.attrs, ctx);
  return {p.ipu, p.set};
}

void Model::addMapping(std::unordered_map<int64_t, uint64_t>& into, const TileMapping& tm, bool) {
  for (int64_t k = 0; k < tm.tileCount; ++k) {
    uint64_t& b = into[globalTile(o_, tm.ipu, tm.firstTile + k)];
    b = satAdd(b, tm.bytesOn(k));
  }
}

void Model::build(Layout& l, const Graph* g, PlacementContext ctx) {
  l.graph = g;
  l.ctx = ctx;
  const size_t nv = g->values.size();
  l.map.assign(nv, TileMapping{});
  l.root.resize(nv);
  for (unsigned i = 0; i < nv; ++i) l.root[i] = i;
  std::vector<bool> owns(nv, false);
  for (const Value* p : g->params)
    if (p->id < nv) l.map[p->id] = mapTensor(p->type, Placement{ctx.ipu, ctx.set}, o_);
  // Flatten: a block op, then its region.
  for (auto& opPtr : g->ops) {
    LayoutOp lop;
    lop.op = opPtr.get();
    lop.ctx = ctx;
    l.ops.push_back(lop);
    if (opPtr->code == OpCode::Exchange) {
      PlacementContext inner = placementContextOfBlock(*opPtr, ctx);
      for (auto& in : opPtr->region()) {
        LayoutOp ilop;
        ilop.op = in.get();
        ilop.block = opPtr.get();
        ilop.ctx = inner;
        l.ops.push_back(ilop);
      }
    }
  }
  // Result mappings and memory owners.
  for (size_t k = 0; k < l.ops.size(); ++k) {
    LayoutOp& lop = l.ops[k];
    const Op& op = *lop.op;
    const int target = inplaceTarget(op);
    for (size_t r = 0; r < op.results.size(); ++r) {
      const Value* v = op.results[r];
      if (!v || v->id >= nv) continue;
      if (r == 0 && target >= 0 && static_cast<size_t>(target) < op.operands.size() &&
          op.operands[target].kind() == Operand::Kind::Value) {
        const Value* t = op.operands[target].value();
        if (t->id < nv) {
          l.root[v->id] = l.root[t->id];
          l.map[v->id] = l.map[t->id];
          continue;
        }
      }
      Placement p = placementOf(op.attrs, lop.ctx);
      if (op.code == OpCode::IoTileCopy && !op.attrs.find("tile_set") && !op.operands.empty() &&
          op.operands[0].kind() == Operand::Kind::Value && op.operands[0].value()->id < nv) {
        const TileMapping& from = l.map[op.operands[0].value()->id];
        p.set = from.set == TileSet::Io ? TileSet::Compute : TileSet::Io;
        if (!op.attrs.find("ipu")) p.ipu = from.ipu;
      }
      l.map[v->id] = mapTensor(v->type, p, o_);
      if (!op.info().has(F_DECL)) {  // var and const are storage, owned by no op
        owns[v->id] = true;
        lop.owned.push_back(v->id);
      }
    }
  }
  // Last use of each owner: reads and in-place writes; returned values live to the end.
  std::vector<size_t> last(nv, SIZE_MAX);
  std::vector<size_t> def(nv, SIZE_MAX);
  for (size_t k = 0; k < l.ops.size(); ++k)
    for (unsigned id : l.ops[k].owned) def[id] = k, last[id] = k;
  auto use = [&](const Operand& a, size_t k) {
    if (a.kind() != Operand::Kind::Value || a.value()->id >= nv) return;
    unsigned r = l.root[a.value()->id];
    if (owns[r] && last[r] != SIZE_MAX) last[r] = std::max(last[r], k);
  };
  for (size_t k = 0; k < l.ops.size(); ++k) {
    for (const Operand& a : l.ops[k].op->operands) use(a, k);  // graph-call arguments included
  }
  for (const Operand& r : g->returns)
    if (r.kind() == Operand::Kind::Value && r.value()->id < nv) last[l.root[r.value()->id]] = SIZE_MAX - 1;
  for (unsigned id = 0; id < nv; ++id)
    if (owns[id] && last[id] < l.ops.size()) l.ops[last[id]].dying.push_back(id);
}

}  // namespace pir::device::detail
