// The profile's simulation (device/simulator.h): the program walked in order,
// calls expanded, each op's phases from the model placed on a clock.
#include "device/simulator.h"

#include "device/tile_model.h"

namespace pir::device {

uint64_t PhaseCycles::total() const { return satAdd(satAdd(compute, exchange), satAdd(sync, hostIo)); }

void PhaseCycles::add(const PhaseCycles& o, uint64_t times) {
  compute = satAdd(compute, satMul(o.compute, times));
  exchange = satAdd(exchange, satMul(o.exchange, times));
  sync = satAdd(sync, satMul(o.sync, times));
  hostIo = satAdd(hostIo, satMul(o.hostIo, times));
  syncs = satAdd(syncs, satMul(o.syncs, times));
}

std::string_view phaseKindName(PhaseKind k) {
  switch (k) {
    case PhaseKind::Compute: return "compute";
    case PhaseKind::Exchange: return "exchange";
    case PhaseKind::Sync: return "sync";
    case PhaseKind::HostIo: return "host IO";
    case PhaseKind::HostIoOnIoTiles: return "host IO (io tiles)";
    case PhaseKind::Repeat: return "repeat";
  }
  return "?";
}

namespace {
using namespace detail;

class Simulator {
  static constexpr int kMaxSimulatedDepth = 1000;
  int depth_ = 0;

 public:
  Simulator(Model& model, Profile& profile, const BranchExecutions* branches)
      : model_(model), p_(profile), branches_(branches) {}

  void run() {
    Layout& main = model_.mainLayout();
    graph(main, 1, true);
    p_.elapsedCycles = satAdd(now_, ioQueued_ - ioDone_);
  }

 public:
  struct Budget : std::exception {};

 private:

  void slice(int64_t ipu, PhaseKind kind, const std::string& name, uint64_t start, uint64_t duration, bool emit) {
    if (!emit || duration == 0) return;
    if (p_.timeline.size() >= cost::kMaxTimelineSlices) {
      p_.timelineTruncated = true;
      return;
    }
    p_.timeline.push_back({ipu, kind, name, start, duration});
  }

  OpProfile& record(const Layout& l, const Op* op) {
    auto it = index_.find(op);
    if (it != index_.end()) return p_.ops[it->second];
    index_[op] = p_.ops.size();
    OpProfile rec;
    rec.op = op;
    rec.graph = l.graph->name;
    p_.ops.push_back(rec);
    return p_.ops.back();
  }

  static std::string opTitle(const Op& op) {
    std::string s(op.info().name);
    if (op.code == OpCode::Exchange) return "exchange";
    if (!op.results.empty() && op.results[0]) s = "%" + op.results[0]->name + " = " + s;
    return s;
  }

  uint64_t readyOf(const Layout& l, const Operand& a) const {
    if (a.kind() != Operand::Kind::Value || a.value()->id >= l.root.size()) return 0;
    auto it = ready_.find(l.graph->values[l.root[a.value()->id]].get());
    return it == ready_.end() ? 0 : it->second;
  }

  // The io-tile IO progress (ioDone_ units) `op`'s operands need.
  uint64_t dependencies(const Layout& l, const Op& op) const {
    uint64_t t = 0;
    for (const Operand& a : op.operands) t = std::max(t, readyOf(l, a));  // graph-call arguments included
    return t;
  }

  void markLoaded(const Layout& l, const Op& op, uint64_t end) {
    for (const Value* v : op.results)
      if (v && v->id < l.root.size()) ready_[l.graph->values[l.root[v->id]].get()] = end;
    int t = isLoad(op) ? inplaceTarget(op) : -1;
    if (t >= 0 && static_cast<size_t>(t) < op.operands.size() && op.operands[t].kind() == Operand::Kind::Value &&
        op.operands[t].value()->id < l.root.size())
      ready_[l.graph->values[l.root[op.operands[t].value()->id]].get()] = end;
  }

  // IO on io tiles progresses only while the compute tiles compute (runtime.md
  // §7: it overlaps the compute phases that follow it): exchange and sync phases
  // involve every tile and pause it. An op that needs loaded data first waits,
  // idle, for the IO up to `target` (cumulative IO cycles).
  void waitForIo(uint64_t target) {
    if (target <= ioDone_) return;
    now_ = satAdd(now_, target - ioDone_);
    ioDone_ = target;
  }
  void computeFor(uint64_t cycles) { ioDone_ = std::min(ioQueued_, satAdd(ioDone_, cycles)); }
  // Queues an IO phase on the io tiles; returns where the timeline draws it (its
  // earliest start, as one block).
  uint64_t queueIo(uint64_t cycles) {
    const uint64_t start = satAdd(now_, ioQueued_ - ioDone_);
    ioQueued_ = satAdd(ioQueued_, cycles);
    return start;
  }

  void graph(Layout& l, uint64_t mult, bool emit) {
    // The timeline walks calls recursively: past this depth it gives up the
    // way it does past its op budget (the figures come from the static model).
    struct Depth {
      int& d;
      explicit Depth(int& x) : d(x) { ++d; }
      ~Depth() { --d; }
    } depth(depth_);
    if (depth_ > kMaxSimulatedDepth) throw Budget{};
    for (LayoutOp& lop : l.ops) {
      if (lop.block) continue;  // costed with its exchange block
      const Op& op = *lop.op;
      CostClass cls = costClassOf(op.code);
      if ((cls == CostClass::None && op.code != OpCode::Exchange) || cls == CostClass::View) continue;
      if (++simulated_ > cost::kMaxSimulatedOps) throw Budget{};
      const OpCost& c = model_.costOf(l, lop);
      OpProfile& rec = record(l, &op);
      rec.executions = satAdd(rec.executions, mult);
      rec.cycles.add(c.phases, mult);
      p_.totals.add(c.phases, mult);
      const std::string title = opTitle(op);
      const uint64_t dep = dependencies(l, op);
      if (c.io) {
        const uint64_t perSync = c.phases.syncs ? c.phases.sync / c.phases.syncs : 0;
        waitForIo(dep);
        if (c.onIoTiles) {
          // The op's syncs are on the clock (a sync is not hidden); its IO phases queue on the io tiles.
          if (c.segments.empty()) {
            slice(c.ipu, PhaseKind::Sync, title, now_, c.phases.sync, emit);
            now_ = satAdd(now_, c.phases.sync);
            slice(c.ipu, PhaseKind::HostIoOnIoTiles, title, queueIo(c.phases.hostIo), c.phases.hostIo, emit);
          }
          for (size_t s = 0; s < c.segments.size(); ++s) {
            std::string name = title + " segment " + std::to_string(s + 1);
            slice(c.ipu, PhaseKind::Sync, name, now_, perSync, emit);
            now_ = satAdd(now_, perSync);
            slice(c.ipu, PhaseKind::HostIoOnIoTiles, name, queueIo(c.segments[s]), c.segments[s], emit);
          }
          markLoaded(l, op, ioQueued_);
          if (op.code == OpCode::Exchange)
            for (auto& inner : op.region()) markLoaded(l, *inner, ioQueued_);
        } else {
          if (c.segments.empty()) {
            slice(c.ipu, PhaseKind::Sync, title, now_, c.phases.sync, emit);
            now_ += c.phases.sync;
            slice(c.ipu, PhaseKind::HostIo, title, now_, c.phases.hostIo, emit);
            now_ += c.phases.hostIo;
          }
          for (size_t s = 0; s < c.segments.size(); ++s) {
            std::string name = title + " segment " + std::to_string(s + 1);
            slice(c.ipu, PhaseKind::Sync, name, now_, perSync, emit);
            now_ += perSync;
            slice(c.ipu, PhaseKind::HostIo, name, now_, c.segments[s], emit);
            now_ += c.segments[s];
          }
        }
        continue;
      }
      waitForIo(dep);
      slice(c.ipu, PhaseKind::Exchange, title, now_, c.phases.exchange, emit);
      now_ += c.phases.exchange;
      slice(c.ipu, PhaseKind::Sync, title, now_, c.phases.sync, emit);
      now_ += c.phases.sync;
      slice(c.ipu, PhaseKind::Compute, title, now_, c.phases.compute, emit);
      now_ += c.phases.compute;
      computeFor(c.phases.compute);
      if (cls != CostClass::Control) continue;
      std::vector<Callee> callees = calleesOf(op);
      PlacementContext ctx = model_.calleeContext(lop);
      if (op.code == OpCode::Conditional) {
        conditional(op, callees, ctx, mult, emit);
        continue;
      }
      if (callees.empty()) continue;
      Layout& body = model_.layout(callees[0].graph, ctx);
      const uint64_t count = Model::repeatCount(op);
      if (count == 0) continue;
      graph(body, mult, emit);
      if (count == 1) continue;
      const uint64_t start = now_, queuedBefore = ioQueued_, doneBefore = ioDone_;
      graph(body, satMul(mult, count - 1), emit);
      const uint64_t delta = now_ - start;
      if (count > 2 && (delta > 0 || ioQueued_ > queuedBefore)) {
        // The remaining iterations as the second: its clock, its queued IO and
        // its IO progress, count - 2 more times (load targets move along).
        const uint64_t shift = satMul(delta, count - 2);
        const uint64_t queuedShift = satMul(ioQueued_ - queuedBefore, count - 2);
        slice(c.ipu, PhaseKind::Repeat, "@" + callees[0].graph->name + " x " + std::to_string(count - 2) + " more iterations",
              now_, shift, emit);
        now_ = satAdd(now_, shift);
        ioQueued_ = satAdd(ioQueued_, queuedShift);
        ioDone_ = std::min(ioQueued_, satAdd(ioDone_, satMul(ioDone_ - doneBefore, count - 2)));
        for (auto& [v, t] : ready_)
          if (t > queuedBefore) t = satAdd(t, queuedShift);
      }
    }
  }

  // A conditional executed `mult` times: the branches that ran, each with its
  // share of `mult` (the shares sum to `mult`); the clock follows the larger share
  // and the other branch is recorded without moving it. Not run: the costlier branch.
  void conditional(const Op& op, const std::vector<Callee>& callees, const PlacementContext& ctx, uint64_t mult,
                   bool emit) {
    if (callees.size() != 2) return;
    const auto ran = branches_ ? branches_->find(op.uid) : BranchExecutions::const_iterator{};
    const uint64_t total = branches_ && ran != branches_->end() ? ran->second[0] + ran->second[1] : 0;
    if (total == 0) {
      Layout* best = nullptr;
      uint64_t bestCost = 0;
      for (const Callee& cr : callees) {
        Layout& b = model_.layout(cr.graph, ctx);
        uint64_t sc = model_.staticCost(b);
        if (!best || sc > bestCost) best = &b, bestCost = sc;
      }
      if (best) graph(*best, mult, emit);
      return;
    }
    // mult * then / total, rounded to nearest, in 128 bits (both may be large).
    const unsigned __int128 scaled = static_cast<unsigned __int128>(mult) * ran->second[0] + total / 2;
    const uint64_t thenShare = static_cast<uint64_t>(scaled / total);
    const uint64_t share[2] = {thenShare, mult - thenShare};
    const size_t major = share[0] >= share[1] ? 0 : 1, minor = 1 - major;
    if (share[minor] > 0) {
      const uint64_t now = now_, queued = ioQueued_, done = ioDone_;
      const auto ready = ready_;
      graph(model_.layout(callees[minor].graph, ctx), share[minor], false);
      now_ = now, ioQueued_ = queued, ioDone_ = done;
      ready_ = ready;
    }
    if (share[major] > 0) graph(model_.layout(callees[major].graph, ctx), share[major], emit);
  }

  Model& model_;
  Profile& p_;
  const BranchExecutions* branches_ = nullptr;
  uint64_t now_ = 0, simulated_ = 0;
  uint64_t ioQueued_ = 0, ioDone_ = 0;  // IO cycles queued on / done by the io tiles, cumulative
  std::unordered_map<const Value*, uint64_t> ready_;
  std::unordered_map<const Op*, size_t> index_;
};

}  // namespace

namespace {

// profileModule's body: reports and throws CompileError (diags.fail).
Profile profileModuleOrThrow(const Module& m, DiagnosticEngine& diags, int64_t runs, const BranchExecutions* branches) {
  Profile p;
  p.options = m.options;
  p.runs = runs;
  Model model(m, diags);
  p.memory = memoryOf(model);
  p.mappings = tensorMappings(m, diags);
  Simulator sim(model, p, branches);
  try {
    sim.run();
  } catch (const Simulator::Budget&) {
    diags.fail(m.main->ops.empty() ? SourceLoc{} : m.main->ops.front()->loc,
               "profile: the program expands to more than " + std::to_string(cost::kMaxSimulatedOps) +
                   " op executions (calls nested too deeply to simulate)");
  }
  return p;
}

}  // namespace

FailureOr<Profile> profileModule(const Module& m, DiagnosticEngine& diags, int64_t runs,
                                 const BranchExecutions* branches) {
  return catchReported([&] { return profileModuleOrThrow(m, diags, runs, branches); });
}

}  // namespace pir::device
