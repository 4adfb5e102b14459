#include "vm/compiler.h"

#include "ir/checked_math.h"
#include "ir/internal_error.h"
#include "ir/infer.h"
#include "ir/op_attrs.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <unordered_map>

#include "ir/number_format.h"
#include "ir/op_work.h"
#include "vm/device.h"
#include "vm/frame_plan.h"
#include "vm/fusion.h"
#include "vm/sliced_group.h"
#include "vm/kernel_rows.h"
#include "vm/npy.h"
#include "vm/random.h"
#include "vm/tensor.h"
#include "vm/write_set.h"

namespace pir::vm {

int inplaceTarget(const Op& op) { return op.info().inplaceOperand; }  // ops.def: the `!` operand

// ---- literals ----------------------------------------------------------------

namespace {

// Checks that v is representable in t (integers: integral and in range) and stores it.
void storeChecked(HostTensor& out, int64_t i, double v, std::string_view what, SourceLoc loc,
                  DiagnosticEngine& diags) {
  DType t = out.type.dtype;
  if (isInteger(t) && !std::isnan(v)) {
    if (v != std::floor(v) || v < dtypeMin(t) || v > dtypeMax(t))
      diags.fail(loc, std::string(what) + ": value " + formatNumber(v, DType::F64) + " is not representable in " +
                          std::string(dtypeName(t)));
  } else if (isInteger(t)) {
    diags.fail(loc, std::string(what) + ": nan is not representable in " + std::string(dtypeName(t)));
  }
  out.set(i, t == DType::Bool ? (v != 0 ? 1.0 : 0.0) : v);
}

// Copies element 0 of `out` over all its elements: a broadcast literal is checked and
// converted once, not once per element.
void repeatFirstElement(HostTensor& out, int64_t n) {
  if (n <= 1) return;
  const size_t size = static_cast<size_t>(dtypeSize(out.type.dtype));
  std::byte* data = static_cast<std::byte*>(out.data());
  size_t done = size;  // doubling copies: log2(n) calls
  const size_t total = static_cast<size_t>(n) * size;
  while (done < total) {
    const size_t chunk = std::min(done, total - done);
    std::memcpy(data + done, data, chunk);
    done += chunk;
  }
}

}  // namespace

HostTensor materialize(const Literal& lit, const TensorType& t, uint32_t baseSeed, std::string_view what,
                       DiagnosticEngine& diags) {
  HostTensor out(t);
  const int64_t n = t.numElements();
  switch (lit.kind) {
    case Literal::Kind::Data: {
      if (lit.shape.empty()) {
        if (lit.values.size() != 1) diags.fail(lit.loc, std::string(what) + ": malformed scalar literal");
        if (n > 0) storeChecked(out, 0, lit.values[0], what, lit.loc, diags);
        repeatFirstElement(out, n);
        return out;
      }
      if (!lit.listFits(t.shape))
        diags.fail(lit.loc, std::string(what) + ": data of shape " + shapeToString(lit.shape) +
                                " does not match " + t.str());
      for (int64_t i = 0; i < n; ++i) storeChecked(out, i, lit.values[static_cast<size_t>(i)], what, lit.loc, diags);
      return out;
    }
    case Literal::Kind::Load: {
      NpyArray arr;
      try {
        arr = readNpy(lit.resolvedPath.empty() ? lit.path : lit.resolvedPath);
      } catch (const NpyError& e) {
        diags.fail(lit.loc, prefixed(what, e.what()));
      }
      const HostTensor& src = arr.tensor;
      if (src.type.shape != t.shape)
        diags.fail(lit.loc, std::string(what) + ": \"" + lit.path + "\" holds shape " +
                                shapeToString(src.type.shape) + ", expected " + t.str());
      if (src.type.dtype == t.dtype) {
        copyBytes(out.data(), src.data(), HostTensor::byteSize(t));
        return out;
      }
      // Another dtype is accepted only when every value converts exactly.
      for (int64_t i = 0; i < n; ++i) {
        double v = src.get(i);
        if (roundToDType(v, t.dtype) != v && !std::isnan(v))
          diags.fail(lit.loc, std::string(what) + ": \"" + lit.path + "\" holds " +
                                  std::string(dtypeName(src.type.dtype)) + " data that does not fit " +
                                  std::string(dtypeName(t.dtype)) + " (element " + std::to_string(i) + " = " +
                                  formatNumber(v, src.type.dtype) + ")");
        out.set(i, v);
      }
      return out;
    }
    case Literal::Kind::Zeros: return out;
    case Literal::Kind::Ones:
      if (n > 0) out.set(0, 1);
      repeatFirstElement(out, n);
      return out;
    case Literal::Kind::Uniform:
    case Literal::Kind::Normal: {
      if (lit.args.size() != 3) diags.fail(lit.loc, std::string(what) + ": a generator takes 3 arguments");
      SeedKey key = initSeedKey(static_cast<int64_t>(lit.args[2]), baseSeed);
      if (lit.kind == Literal::Kind::Uniform)
        fillUniform(t.dtype, out.data(), n, key, 0, lit.args[0], lit.args[1]);
      else {
        if (!isFloat(t.dtype))
          diags.fail(lit.loc, std::string(what) + ": normal(...) needs a float dtype, not " + t.str());
        fillNormal(t.dtype, out.data(), n, key, 0, lit.args[0], lit.args[1]);
      }
      return out;
    }
  }
  return out;
}

// ---- graph compilation -----------------------------------------------------------

namespace {

// The collective of each Collective row of ops.def (`Collective(Fn)`), by OpCode.
struct CollectiveRows {
  static constexpr std::string_view name = "Collective";
  using Kind = CollectiveSpec::Kind;
  struct Functions {
    using AllReduce = std::integral_constant<Kind, Kind::AllReduce>;
    using AllGather = std::integral_constant<Kind, Kind::AllGather>;
    using ReduceScatter = std::integral_constant<Kind, Kind::ReduceScatter>;
    using Slice = std::integral_constant<Kind, Kind::Slice>;
  };
  static constexpr Kind kNone = Kind::AllReduce;
  template <class Fn> static constexpr Kind bind() { return Fn::value; }
};
constexpr auto kCollectiveKindOf = bindRows<CollectiveRows>();

// One graph to bytecode: its ops flattened, slots and arena planned
// (vm/frame_plan.h), then emitted here: one instruction per op by its row's
// emit rule, fused chains (vm/fusion.h) as one instruction, and the copies that
// keep views in sync. (Transposes reach matmuls already folded: the session
// compiles a lowered copy, api/pass_runner.h lowerForCompile.)
class GraphCompiler {
 public:
  // `p`: the compiled subgraphs and variables; new variables are appended when
  // `addVariables` (a whole-program compile), else must exist already.
  GraphCompiler(const Module& m, const Program& p, std::vector<const Value*>* addVariables, DiagnosticEngine& diags,
                WriteAnalysis& writes, const CompileOptions& options = {})
      : m_(m), p_(p), addVariables_(addVariables), diags_(diags), writes_(writes), options_(options) {}

  // `include`: null for the whole graph, else the positions of the top-level
  // ops to compile, ascending (an exchange block's ops go with it). `givens`:
  // values bound as constants instead of computed (a preview's earlier values).
  std::unique_ptr<CompiledGraph> compile(const Graph& g, const std::vector<size_t>* include,
                                         const std::vector<std::pair<const Value*, const HostTensor*>>* givens = nullptr) {
    auto cg = std::make_unique<CompiledGraph>();
    cg_ = cg.get();
    cg->graph = &g;
    cg->name = g.name;
    cg->valueSlot.assign(g.values.size(), kNoSlot);
    FramePlanner plan(m_, p_, addVariables_, diags_, writes_, options_, *cg);
    plan_ = &plan;
    if (givens) plan.bindGivens(*givens);

    std::vector<const Op*> ops;
    auto take = [&](const Op& op) {
      if (op.info().has(F_REGION)) WriteAnalysis::flatten(op.region(), ops);
      else ops.push_back(&op);
    };
    if (include) {
      for (size_t k : *include) take(*g.ops.at(k));
    } else {
      for (const auto& op : g.ops) take(*op);
    }

    // Main reuses buffers only when told which values commands read after the run.
    plan.plan(g, ops, !g.isMain || (options_.keptMainNames && !include));
    emitAll(ops, g.isMain);
    plan.placeArena();  // the values fused instructions keep in scratch take no room

    // Returned views are read by the caller; every main-graph value may be printed
    // after the run, so main refreshes all its stale views.
    for (const Operand& r : g.returns)
      if (r.kind() == Operand::Kind::Value) refreshView(slotOf(r.value()));
    if (g.isMain)
      for (auto& [slot, link] : plan.views())
        if (cg->slots[slot].kept) refreshView(slot);  // a freed view's buffer may hold another value

    for (const Operand& r : g.returns) {
      cg->returnSlots.push_back(operandSlot(r));
      cg->returnTypes.push_back(&r.type());
    }
    for (uint32_t slot : cg->returnSlots)
      cg->returnInPlace.push_back(cg->slots[slot].kind == SlotInfo::Kind::Arena && !plan.views().count(slot) &&
                                  std::count(cg->returnSlots.begin(), cg->returnSlots.end(), slot) == 1);
    // A slot handed over to a return in place shared its arena offset and died where the
    // return was defined, so nothing else lives in that buffer meanwhile: it can live in
    // the caller's buffer as well.
    for (size_t j = 0; j < cg->returnSlots.size(); ++j) {
      if (!cg->returnInPlace[j]) continue;
      for (uint32_t from = plan.handedFrom(cg->returnSlots[j]); from != kNoSlot; from = plan.handedFrom(from))
        cg->returnInPlaceAliases.emplace_back(static_cast<uint32_t>(j), from);
    }
    cg->arenaBytes = plan.arenaBytes();
    markLoadsReadInPlace(*cg);  // once every instruction and return is known
    for (Instr& in : cg->code) in.work = workOf(*cg, in);
    return cg;
  }

  // A host_load whose value nothing writes (no instruction, in place or as a result;
  // no callee through a by-reference parameter), that is no view, not returned and,
  // in main, not a value a later command reads, and whose batch is a whole number of
  // cache lines (so every batch of the stream's 64-byte aligned buffer starts on
  // one), reads the batch where the stream holds it: Instr::b = 1 binds the slot
  // there instead of copying (vm/interpreter.cpp). Any other instruction that names
  // the slot (a repeat's carried values, a remote load, a print) keeps the copy.
  void markLoadsReadInPlace(CompiledGraph& cg) {
    std::unordered_map<uint32_t, Instr*> loads;  // slot -> its host_load
    for (Instr& in : cg.code)
      if (in.opc == Opc::HostLoad && in.nOut == 1) {
        const uint32_t slot = cg.argSlots[in.args];
        const SlotInfo& s = cg.slots[slot];
        if (s.kind == SlotInfo::Kind::Arena && !s.inScratch && !(cg.graph->isMain && s.kept) && s.bytes % 64 == 0 &&
            !plan_->views().count(slot) && !plan_->families().count(slot))
          loads.emplace(slot, &in);
      }
    for (uint32_t slot : cg.returnSlots) loads.erase(slot);
    for (const Instr& in : cg.code) {
      if (loads.empty()) return;
      const uint32_t n = in.nIn + in.nOut;
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t slot = cg.argSlots[in.args + i];
        auto it = loads.find(slot);
        if (it == loads.end() || it->second == &in) continue;
        const bool read = i < in.nIn;
        bool keeps = false;
        switch (in.opc) {
          case Opc::Kernel:
          case Opc::Fused:
          case Opc::HostStore: keeps = read; break;
          case Opc::Call: {
            const std::vector<uint32_t> written = writtenSlots(*in.op);  // by reference, by the callee
            keeps = read && std::find(written.begin(), written.end(), slot) == written.end();
            break;
          }
          default: break;
        }
        if (!keeps) loads.erase(it);
      }
    }
    for (auto& [slot, in] : loads) in->b = 1;
  }

  // Instr::work: one step, plus one per kElementsPerStep elements the instruction
  // reads and writes; a fused chain or sliced group touches its widest operand once
  // per op, and a kernel (or a step of a group) adds the visits its operands do not
  // show (multiply-adds, window cells, topk's comparisons: ir/op_work.h). Saturates (a budget of 2^32
  // steps and more is not one a bounded run sets).
  static uint32_t workOf(const CompiledGraph& cg, const Instr& in) {
    uint64_t elements = 0, widest = 0;
    for (uint32_t i = 0; i < in.nIn + in.nOut; ++i) {
      const uint64_t n = static_cast<uint64_t>(cg.argTypes[in.args + i]->numElements());
      elements = saturatingAdd(elements, n);
      widest = std::max(widest, n);
    }
    if (in.opc == Opc::Fused) {
      elements = saturatingAdd(elements, saturatingMul(widest, cg.fused[in.b].size()));
      for (const Op* op : cg.fused[in.b])  // a sliced group's products
        elements = saturatingAdd(elements, kernelVisitsBeyondOperands(*op));
    }
    if (in.opc == Opc::Kernel && in.op) elements = saturatingAdd(elements, kernelVisitsBeyondOperands(*in.op));
    return static_cast<uint32_t>(std::min<uint64_t>(1 + elements / kElementsPerStep, UINT32_MAX));
  }

 private:
  // ---- the planner's slots (vm/frame_plan.h) -------------------------------------
  uint32_t slotOf(const Value* v) { return plan_->slotOf(v); }
  uint32_t operandSlot(const Operand& o) { return plan_->operandSlot(o); }
  uint32_t scratchSlot(const TensorType& t) { return plan_->scratchSlot(t); }
  void checkIndex(size_t size, const char* what) { plan_->checkIndex(size, what); }

  uint32_t pushArg(uint32_t slot, const TensorType* type) {
    checkIndex(cg_->argSlots.size(), "instruction operands");
    cg_->argSlots.push_back(slot);
    cg_->argTypes.push_back(type);
    return static_cast<uint32_t>(cg_->argSlots.size() - 1);
  }

  // Result slots of op; an unbound result (in-place alias, or a call result the
  // builder left out) gets its target's slot or a scratch buffer.
  void pushResults(const Op& op, const std::vector<const TensorType*>& types, Instr& in) {
    int target = inplaceTarget(op);
    for (size_t r = 0; r < types.size(); ++r) {
      const Value* v = r < op.results.size() ? op.results[r] : nullptr;
      uint32_t slot;
      if (v) slot = slotOf(v);
      else if (r == 0 && target >= 0 && op.operands[target].kind() == Operand::Kind::Value)
        slot = slotOf(op.operands[target].value());
      // An in-place write to a literal (unobservable) must not touch the shared constant.
      else if (r == 0 && target >= 0) slot = scratchSlot(*types[r]);
      else slot = scratchSlot(*types[r]);
      pushArg(slot, types[r]);
      ++in.nOut;
    }
  }

  CollectiveSpec collectiveSpec(const Op& op) {
    CollectiveSpec c;
    c.kind = kCollectiveKindOf[static_cast<size_t>(op.code)];
    const attrs::View<attrs::kernelFamily("Collective")> attr{op};
    if (const std::optional<CollectiveOp> reduce = attr.op()) c.reduce = *reduce;
    if (const std::optional<int64_t> axis = attr.axis()) c.axis = *axis;
    if (const std::optional<GatherShape> shape = attr.output_shape()) c.newAxis = *shape == GatherShape::NewAxis;
    const int64_t R = std::max<int64_t>(1, m_.options.replication);
    const ReplicaGrouping g = readGrouping(attr.group(), R);
    // The verifier rejects these first; a module built by a pass is checked again here.
    if (auto why = groupingError(g, R)) diags_.fail(op.loc, prefixed(op.info().name, *why));
    c.stride = g.stride;
    c.groupSize = g.groupSize;
    return c;
  }

  const CompiledGraph* calleeOf(const Op& op, size_t k) {
    const Graph* g = op.callees.at(k).graph;
    const CompiledGraph* c = p_.find(g);
    if (!c) internalError("@" + g->name + " is not compiled");
    return c;
  }

  // ---- views (docs/decisions.md "Views") ----------------------------------------
  //
  // A view whose element order differs from its operand's (transpose_) has its own
  // slot holding transpose(operand, perm). The operand's storage is the truth:
  //  - after a write to a view slot, it is written back (inverse perm) to its operand,
  //    up the chain to the root, and every other view of that root becomes stale;
  //  - after a write to any other slot of a family, the family's views become stale;
  //  - a stale view is refreshed from its operand just before it is read.
  // Graph code is straight-line (control flow is whole calls), so staleness is known
  // at compile time and costs nothing at run time.
  // One permuted copy between a view and its operand.
  void emitViewSync(ViewLink& link, bool toView) {
    uint32_t& kernel = toView ? link.forward : link.backward;
    const TensorType* from = toView ? link.sourceType : link.viewType;
    const TensorType* to = toView ? link.viewType : link.sourceType;
    if (kernel == kNoSlot) {
      std::vector<int64_t> perm = link.perm;
      if (!toView)
        for (size_t d = 0; d < link.perm.size(); ++d) perm[static_cast<size_t>(link.perm[d])] = static_cast<int64_t>(d);
      kernel = static_cast<uint32_t>(cg_->kernels.size());
      cg_->kernels.push_back(preparePermutedCopy(*from, perm));
    }
    const uint32_t viewSlot = link.view;
    Instr in;
    in.opc = Opc::ViewSync;
    in.op = link.op;
    in.a = kernel;
    in.nIn = 1;
    in.nOut = 1;
    in.args = pushArg(toView ? link.source : viewSlot, from);
    pushArg(toView ? viewSlot : link.source, to);
    cg_->maxOperands = std::max<size_t>(cg_->maxOperands, 2);
    cg_->code.push_back(in);
  }

  void refreshView(uint32_t slot) {
    auto it = plan_->views().find(slot);
    if (it == plan_->views().end() || !stale_.count(slot)) return;
    refreshView(it->second.source);  // the operand may be a stale view too
    emitViewSync(it->second, true);
    stale_.erase(slot);
  }

  // After `slot` was written: write it back up its chain, then mark stale every other
  // view of its root (siblings and the written slot's own views).
  void wroteSlot(uint32_t slot) {
    std::vector<uint32_t> path{slot};
    auto& views = plan_->views();
    for (auto it = views.find(slot); it != views.end(); it = views.find(it->second.source)) {
      emitViewSync(it->second, false);
      path.push_back(it->second.source);
    }
    auto family = plan_->families().find(path.back());
    if (family == plan_->families().end()) return;
    for (uint32_t view : family->second)
      if (std::find(path.begin(), path.end(), view) == path.end()) stale_.insert(view);
  }

  // The slots `op` writes in place: its in-place operand (a view op writes nothing)
  // and the by-reference arguments its callees write.
  std::vector<uint32_t> writtenSlots(const Op& op) {
    std::vector<uint32_t> slots;
    const int target = inplaceTarget(op);
    if (target >= 0 && !op.info().has(F_VIEW) && target < static_cast<int>(op.operands.size()) &&
        op.operands[static_cast<size_t>(target)].kind() == Operand::Kind::Value)
      slots.push_back(slotOf(op.operands[static_cast<size_t>(target)].value()));
    for (size_t k = 0; k < op.callees.size(); ++k) {
      const Graph* callee = op.callees[k].graph;
      const std::vector<bool>& w = writes_.paramsWritten(callee);
      const auto args = op.args(k);
      for (size_t i = 0; i < args.size() && i < callee->params.size(); ++i)
        if (callee->params[i]->byRef && w[i] && args[i].kind() == Operand::Kind::Value)
          slots.push_back(slotOf(args[i].value()));
    }
    return slots;
  }

  void emit(const Op& op) {
    for (const Operand& o : op.operands)
      if (o.kind() == Operand::Kind::Value) refreshView(slotOf(o.value()));
    if (op.info().has(F_VIEW)) {
      // A view that shares its operand's storage (or is unbound) is no code at all.
      const Value* v = op.results.empty() ? nullptr : op.results[0];
      if (!v || !plan_->views().count(slotOf(v))) return;
      stale_.erase(slotOf(v));  // computed here (an earlier write may have marked it)
    }
    emitOp(op);
    if (!plan_->views().empty())
      for (uint32_t slot : writtenSlots(op)) wroteSlot(slot);
  }

  // ---- emission: ops.def's Kernel column picks the rule ---------------------------
  //
  // Each VM-instruction family (vm/kernel_rows.h) has one emit rule below,
  // emit##Family, bound per OpCode at compile time (kEmitRules); every other family
  // is a compute kernel (emitKernel). A rule fills `in` and returns false when the op
  // is no code at all. Within a rule, variants come from the row (its element
  // function, results, in-place operand), not from the opcode, so a new op of an
  // existing family needs no edit here.
  using EmitRule = bool (GraphCompiler::*)(const Op&, Instr&);
  static const EmitRule kEmitRules[kNumOpCodes];  // one per ops.def row (the X-macro below)

  void emitOp(const Op& op) {
    Instr in;
    in.op = &op;
    in.args = static_cast<uint32_t>(cg_->argSlots.size());
    if ((this->*kEmitRules[static_cast<size_t>(op.code)])(op, in)) cg_->code.push_back(in);
  }

  // var / const: storage, not code. exchange: its body is flattened into the op list.
  bool emitDecl(const Op&, Instr&) { return false; }
  bool emitExchange(const Op&, Instr&) { return false; }

  bool emitHostLoad(const Op& op, Instr& in) {
    in.opc = Opc::HostLoad;
    in.a = op.operands.at(0).resource()->index;
    pushResults(op, {&op.operands[0].resource()->type}, in);
    return true;
  }

  bool emitHostStore(const Op& op, Instr& in) {
    in.opc = Opc::HostStore;
    in.a = op.operands.at(0).resource()->index;
    pushArg(operandSlot(op.operands.at(1)), &op.operands[1].type());
    in.nIn = 1;
    return true;
  }

  // remote_load / remote_load_ / remote_store: `$b, offset` then, by the row, a
  // stored operand (`-> ()`), the operand loaded into (`t!`), or a loaded result.
  bool emitRemote(const Op& op, Instr& in) {
    const OpInfo& info = op.info();
    const bool store = info.results.kind == ResultSpec::Kind::Fixed && info.results.count == 0;
    in.opc = store ? Opc::RemoteStore : Opc::RemoteLoad;
    in.a = op.operands.at(0).resource()->index;
    pushArg(operandSlot(op.operands.at(1)), &op.operands[1].type());
    in.nIn = 1;
    if (store) {
      pushArg(operandSlot(op.operands.at(2)), &op.operands[2].type());
      in.nIn = 2;
    } else if (info.inplaceOperand >= 0) {
      const Operand& t = op.operands.at(static_cast<size_t>(info.inplaceOperand));
      pushArg(t.kind() == Operand::Kind::Value ? slotOf(t.value()) : scratchSlot(t.type()), &t.type());
      in.nOut = 1;
    } else {
      pushResults(op, {&op.operands[0].resource()->type}, in);
    }
    return true;
  }

  bool emitPrintTensor(const Op& op, Instr& in) {
    in.opc = Opc::Print;
    in.a = static_cast<uint32_t>(cg_->strings.size());
    // An empty title prints the tensor's name (PopART's default title is the tensor id).
    std::string text(attrs::PrintTensor{op}.title());
    if (text.empty() && op.operands.at(0).kind() == Operand::Kind::Value) text = op.operands[0].value()->name;
    cg_->strings.push_back(text);
    pushArg(operandSlot(op.operands.at(0)), &op.operands[0].type());
    in.nIn = 1;
    pushResults(op, {&op.operands[0].type()}, in);
    return true;
  }

  // call and repeat: the callee's arguments in, its returns out.
  const CompiledGraph* pushCallArgs(const Op& op, Instr& in) {
    const CompiledGraph* callee = calleeOf(op, 0);
    in.a = op.callees[0].graph->index;
    for (const Operand& a : op.args(0)) {
      pushArg(operandSlot(a), &a.type());
      ++in.nIn;
    }
    return callee;
  }

  bool emitCall(const Op& op, Instr& in) {
    in.opc = Opc::Call;
    const CompiledGraph* callee = pushCallArgs(op, in);
    pushResults(op, callee->returnTypes, in);
    return true;
  }

  bool emitRepeat(const Op& op, Instr& in) {
    in.opc = Opc::Repeat;
    const CompiledGraph* callee = pushCallArgs(op, in);
    in.count = std::max<int64_t>(0, attrs::Repeat{op}.count());
    in.c = static_cast<uint32_t>(callee->returnSlots.size());
    pushResults(op, callee->returnTypes, in);
    return true;
  }

  bool emitConditional(const Op& op, Instr& in) {
    in.opc = Opc::Cond;
    pushArg(operandSlot(op.operands.at(0)), &op.operands[0].type());
    in.nIn = 1;
    const CompiledGraph* thenG = calleeOf(op, 0);
    calleeOf(op, 1);
    in.a = op.callees[0].graph->index;
    in.b = op.callees[1].graph->index;
    for (const Operand& a : op.args(0)) {
      pushArg(operandSlot(a), &a.type());
      ++in.nIn;
      ++in.c;
    }
    for (const Operand& a : op.args(1)) {
      pushArg(operandSlot(a), &a.type());
      ++in.nIn;
    }
    pushResults(op, thenG->returnTypes, in);
    return true;
  }

  bool emitCollective(const Op& op, Instr& in) {
    in.opc = Opc::Collective;
    in.a = static_cast<uint32_t>(cg_->collectives.size());
    cg_->collectives.push_back(collectiveSpec(op));
    pushArg(operandSlot(op.operands.at(0)), &op.operands[0].type());
    in.nIn = 1;
    std::vector<const TensorType*> types;
    for (const Value* v : op.results) types.push_back(v ? &v->type.get() : &op.operands[0].type());
    if (types.empty()) types.push_back(&op.operands[0].type());
    pushResults(op, types, in);
    return true;
  }

  bool emitKernel(const Op& op, Instr& in) {
    const OpInfo& info = op.info();
    // Every family without an emit rule has a compute kernel (static_asserts here and
    // in vm/kernels_dispatch.cpp); an op that reached here without one is a compiler bug.
    if (!hasKernel(op.code)) internalError("the VM has no code for '" + std::string(info.name) + "'");
    in.opc = Opc::Kernel;
    std::vector<TensorType> inTypes, outTypes;
    for (const Operand& o : op.operands) {
      if (o.kind() != Operand::Kind::Value && o.kind() != Operand::Kind::Literal) continue;
      pushArg(operandSlot(o), &o.type());
      inTypes.push_back(o.type());
      ++in.nIn;
    }
    std::vector<const TensorType*> resultTypes;
    for (const Value* v : op.results) resultTypes.push_back(v ? &v->type.get() : nullptr);
    // An unbound in-place result still has its kernel output: the written operand's type.
    if (resultTypes.empty() && inplaceTarget(op) >= 0)
      resultTypes.push_back(&op.operands.at(static_cast<size_t>(inplaceTarget(op))).type());
    for (size_t r = 0; r < resultTypes.size(); ++r) {
      if (!resultTypes[r]) internalError(std::string(info.name) + " result without a type");
      outTypes.push_back(*resultTypes[r]);
    }
    pushResults(op, resultTypes, in);
    try {
      in.a = static_cast<uint32_t>(cg_->kernels.size());
      cg_->kernels.push_back(prepareKernel(op, inTypes, outTypes));
    } catch (const KernelError& e) {
      diags_.fail(op.loc, prefixed(info.name, e.what()));
    }
    cg_->maxOperands = std::max<size_t>(cg_->maxOperands, in.nIn + in.nOut);
    return true;
  }


  // ---- fused elementwise chains (vm/fusion.h) ------------------------------------

  // Emits `ops`: each sliced group findSlicedRanges finds (vm/sliced_group.h), then
  // each chain findFusionRanges finds among the other ops, as one Fused instruction.
  void emitAll(const std::vector<const Op*>& ops, bool isMain) {
    std::vector<SlicedRange> groups;
    std::vector<FusionRange> chains;
    if (options_.fuseElementwise) {
      auto eligible = [&](const Op& op) { return !touchesViews(op); };
      groups = findSlicedRanges(ops, eligible);
      std::set<const Op*> grouped;
      for (const SlicedRange& g : groups)
        for (size_t k = g.begin; k < g.end; ++k) grouped.insert(ops[k]);
      chains = findFusionRanges(ops, [&](const Op& op) { return eligible(op) && !grouped.count(&op); });
    }
    size_t nextGroup = 0, nextChain = 0;
    for (size_t k = 0; k < ops.size(); ++k) {
      while (nextChain < chains.size() && chains[nextChain].end <= k) ++nextChain;
      if (nextGroup < groups.size() && groups[nextGroup].begin == k) {
        const SlicedRange g = groups[nextGroup++];
        if (emitGroup(std::span(ops).subspan(g.begin, g.end - g.begin), g, isMain)) {
          k = g.end - 1;
          continue;
        }
      }
      if (nextChain < chains.size() && chains[nextChain].begin == k) {
        const FusionRange r = chains[nextChain++];
        if (emitFused(std::span(ops).subspan(r.begin, r.end - r.begin), r, isMain)) {
          k = r.end - 1;
          continue;
        }
      }
      emit(*ops[k]);
    }
  }

  // Views are synchronised around each op that touches them: their ops stay unfused.
  bool touchesViews(const Op& op) {
    if (plan_->views().empty()) return false;
    auto isView = [&](const Value* v) {
      const uint32_t s = slotOf(v);
      return plan_->views().count(s) || plan_->families().count(s);
    };
    for (const Operand& o : op.operands)
      if (o.kind() == Operand::Kind::Value && isView(o.value())) return true;
    for (const Value* v : op.results)
      if (v && isView(v)) return true;
    return false;
  }

  // One Fused instruction for ops [r.begin, r.end) of the flattened list; false
  // (nothing emitted) if a step has no kernel for its block types, so that the ops
  // are emitted one by one and report as usual.
  bool emitFused(std::span<const Op* const> chainOps, FusionRange r, bool isMain) {
    return emitBuilt(chainOps, r.begin, r.end, isMain, [](std::span<const FusionStep> steps, const auto& keep) {
      return buildFusedChain(steps, keep);
    });
  }

  // One Fused instruction for the sliced group of ops [g.begin, g.end); false as emitFused.
  bool emitGroup(std::span<const Op* const> groupOps, SlicedRange g, bool isMain) {
    return emitBuilt(groupOps, g.begin, g.end, isMain, [&](std::span<const FusionStep> steps, const auto& keep) {
      return buildSlicedGroup(steps, g.leadingDims, keep);
    });
  }

  // A fused chain or sliced group of ops [begin, end) as `build` makes it from their steps.
  template <class Build>
  bool emitBuilt(std::span<const Op* const> runOps, size_t begin, size_t end, bool isMain, Build build) {
    std::vector<FusionStep> steps = chainSteps(
        runOps, [&](const Operand& o) { return operandSlot(o); }, [&](const Value* v) { return slotOf(v); });
    std::vector<const Op*> stepOps;
    for (const FusionStep& st : steps) stepOps.push_back(st.op);
    // A slot a step writes stays in scratch only if it dies within the run
    // (vm/frame_plan.h diesWithin). Main keeps every value (`print`).
    const std::function<bool(uint32_t)> keep = [&](uint32_t slot) {
      return isMain || !plan_->diesWithin(slot, begin, end);
    };
    FusedChain chain;
    try {
      chain = build(std::span<const FusionStep>(steps), keep);
    } catch (const KernelError&) {
      return false;
    }
    Instr in;
    in.opc = Opc::Fused;
    in.op = stepOps.back();
    in.args = static_cast<uint32_t>(cg_->argSlots.size());
    for (const FusionArg& a : chain.ins) pushArg(a.slot, a.type);
    for (const FusionArg& a : chain.outs) pushArg(a.slot, a.type);
    in.nIn = static_cast<uint32_t>(chain.ins.size());
    in.nOut = static_cast<uint32_t>(chain.outs.size());
    checkIndex(cg_->kernels.size(), "kernels");
    in.a = static_cast<uint32_t>(cg_->kernels.size());
    cg_->kernels.push_back(std::move(chain.kernel));
    in.b = static_cast<uint32_t>(cg_->fused.size());
    cg_->fused.push_back(std::move(stepOps));
    // What the steps write and the instruction does not: values only its working
    // memory holds (keep said so of each), given no arena storage.
    std::set<uint32_t> operands;
    for (const FusionArg& a : chain.ins) operands.insert(a.slot);
    for (const FusionArg& a : chain.outs) operands.insert(a.slot);
    for (const FusionStep& st : steps)
      for (const FusionArg& a : st.outs)
        if (!operands.count(a.slot)) plan_->keepInScratch(a.slot);
    cg_->maxOperands = std::max<size_t>(cg_->maxOperands, in.nIn + in.nOut);
    cg_->code.push_back(in);
    return true;
  }

  const Module& m_;
  const Program& p_;
  std::vector<const Value*>* addVariables_;
  DiagnosticEngine& diags_;
  WriteAnalysis& writes_;
  CompileOptions options_;
  CompiledGraph* cg_ = nullptr;
  FramePlanner* plan_ = nullptr;  // the graph being compiled's slots (compile's local)
  std::set<uint32_t> stale_;      // views to refresh before a read
};

// The emit rule of each op, by ops.def's Kernel column (vm/kernel_rows.h).
constexpr GraphCompiler::EmitRule GraphCompiler::kEmitRules[kNumOpCodes] = {
#define PIR_KERNEL(family, fn) &GraphCompiler::emitKernel,
#define PIR_INSTRUCTION(family, fn) &GraphCompiler::emit##family,
#define PIR_OP(id, text, mn, mx, attrs, infer, grad, flags, kernel, operands, cost) PIR_ROW_KERNEL(kernel)
#include "ir/ops.def"
#undef PIR_OP
#undef PIR_INSTRUCTION
#undef PIR_KERNEL
};

// Subgraphs in callee-first order (recursion is rejected by the verifier; a
// cycle here is guarded anyway).
void orderCallees(const Graph* g, std::set<const Graph*>& done, std::set<const Graph*>& active,
                  std::vector<const Graph*>& order) {
  if (done.count(g) || active.count(g)) return;
  active.insert(g);
  std::vector<const Op*> ops;
  WriteAnalysis::flatten(g->ops, ops);
  for (const Op* op : ops)
    for (const CalleeRef& c : op->callees) orderCallees(c.graph, done, active, order);
  active.erase(g);
  done.insert(g);
  order.push_back(g);
}

}  // namespace

namespace {

// compileProgram's body: a failure unwinds as the CompileError diags.fail throws.
std::unique_ptr<Program> compileProgramOrThrow(const Module& m, DiagnosticEngine& diags, const CompileOptions& options) {
  auto p = std::make_unique<Program>();
  WriteAnalysis writes;
  std::set<const Graph*> done, active;
  std::vector<const Graph*> order;
  for (auto& g : m.graphs) orderCallees(g.get(), done, active, order);
  p->graphs.resize(m.graphs.size());
  for (const Graph* g : order) {
    GraphCompiler gc(m, *p, &p->variables, diags, writes, options);
    std::unique_ptr<CompiledGraph> cg = gc.compile(*g, nullptr);
    computeWriteSet(*cg, *p);  // callees first: theirs are known
    p->graphs[g->index] = std::move(cg);
  }
  GraphCompiler gc(m, *p, &p->variables, diags, writes, options);
  std::unique_ptr<CompiledGraph> main = gc.compile(*m.main, nullptr);
  computeWriteSet(*main, *p);
  p->main = std::move(main);
  p->mainOpCount = m.main->ops.size();
  for (auto& g : p->graphs)
    if (g && !g->collectives.empty()) p->hasCollectives = true;
  if (!p->main->collectives.empty()) p->hasCollectives = true;
  p->graphCount = m.graphs.size();
  return p;
}

}  // namespace

FailureOr<std::unique_ptr<Program>> compileProgram(const Module& m, DiagnosticEngine& diags,
                                                   const CompileOptions& options) {
  return catchReported([&] { return compileProgramOrThrow(m, diags, options); });
}

FailureOr<std::unique_ptr<CompiledGraph>> compileMainSubset(
    const Module& m, const Program& p, const std::vector<size_t>& include, DiagnosticEngine& diags,
    const std::vector<std::pair<const Value*, const HostTensor*>>& givens, std::vector<const Value*>* variables,
    const CompileOptions& options) {
  return catchReported([&] {
    WriteAnalysis writes;
    GraphCompiler gc(m, p, variables, diags, writes, options);
    std::unique_ptr<CompiledGraph> sub = gc.compile(*m.main, &include, &givens);
    computeWriteSet(*sub, p);
    return sub;
  });
}

}  // namespace pir::vm
