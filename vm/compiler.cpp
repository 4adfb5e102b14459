#include "vm/compiler.h"

#include "ir/checked_math.h"
#include "ir/infer.h"
#include "ir/op_attrs.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "ir/number_format.h"
#include "ir/op_work.h"
#include "ir/rewriter.h"
#include "vm/device.h"
#include "vm/fusion.h"
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

}  // namespace

HostTensor materialize(const Literal& lit, const TensorType& t, uint32_t baseSeed, std::string_view what,
                       DiagnosticEngine& diags) {
  HostTensor out(t);
  const int64_t n = t.numElements();
  switch (lit.kind) {
    case Literal::Kind::Data: {
      if (lit.shape.empty()) {
        if (lit.values.size() != 1) diags.fail(lit.loc, std::string(what) + ": malformed scalar literal");
        for (int64_t i = 0; i < n; ++i) storeChecked(out, i, lit.values[0], what, lit.loc, diags);
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
      for (int64_t i = 0; i < n; ++i) out.set(i, 1);
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

// Which params each graph writes in place (ir/rewriter.h), memoised per compile.
class WriteAnalysis {
 public:
  const std::vector<bool>& paramsWritten(const Graph* g) {
    auto it = memo_.find(g);
    if (it != memo_.end()) return it->second;
    return memo_[g] = paramsWrittenInPlace(*g);
  }

  // The ops of `ops` in program order, exchange blocks replaced by their bodies.
  static void flatten(const std::vector<std::unique_ptr<Op>>& ops, std::vector<const Op*>& out) {
    for (auto& op : ops) {
      if (op->info().has(F_REGION)) flatten(op->region, out);
      else out.push_back(op.get());
    }
  }

 private:
  std::unordered_map<const Graph*, std::vector<bool>> memo_;
};

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
    // Main reuses buffers only when told which values commands read after the run.
    reuse_ = !g.isMain || (options_.keptMainNames && !include);
    if (givens)
      for (const auto& [v, t] : *givens) cg->valueSlot[v->id] = constSlot(*t, v);

    std::vector<const Op*> ops;
    auto take = [&](const Op& op) {
      if (op.info().has(F_REGION)) WriteAnalysis::flatten(op.region, ops);
      else ops.push_back(&op);
    };
    if (include) {
      for (size_t k : *include) take(*g.ops.at(k));
    } else {
      for (const auto& op : g.ops) take(*op);
    }

    foldTransposesIntoMatMuls(g, ops);

    // Params: bound by the caller; a written by-value param gets an arena copy.
    const std::vector<bool>& written = g.isMain ? noWrites_ : writes_.paramsWritten(&g);
    for (size_t i = 0; i < g.params.size(); ++i) {
      const Value* v = g.params[i];
      checkSize(v->type, "%" + v->name, v->loc);
      SlotInfo s;
      s.kind = SlotInfo::Kind::Param;
      s.index = static_cast<uint32_t>(i);
      s.bytes = HostTensor::byteSize(v->type);
      s.value = v;
      s.copied = !v->byRef && written[i];
      uint32_t slot = addSlot(s);
      if (s.copied) cg->slots[slot].offset = allocPermanent(s.bytes);
      cg->valueSlot[v->id] = slot;
      cg->paramSlots.push_back(slot);
    }

    // Slot assignment and liveness (positions are indices into `ops`).
    const size_t kEnd = ops.size();
    for (size_t k = 0; k < ops.size(); ++k) assignResults(*ops[k], k);
    // Returned values live to the end.
    for (const Operand& r : g.returns)
      if (r.kind == Operand::Kind::Value) extendThroughViews(slotOf(r.value), kEnd);
    // So do the main values a later `print` / `save` may read (by the name it resolves).
    if (g.isMain && reuse_)
      for (const std::string& name : *options_.keptMainNames)
        if (const Value* v = g.lookup(name); v && v->graph == &g && v->id < cg->valueSlot.size() &&
                                             cg->valueSlot[v->id] != kNoSlot)
          extendThroughViews(cg->valueSlot[v->id], kEnd);

    // Last use of every arena slot (reads and in-place writes). A use of a view is a
    // use of its operand too: it may be refreshed from it or written back to it.
    for (size_t k = 0; k < ops.size(); ++k)
      forEachValueUse(*ops[k], [&](const Value* v) { extendThroughViews(slotOf(v), k); });

    // Linear scan: allocate at definition, free after last use.
    std::vector<std::vector<uint32_t>> dying(ops.size() + 1);
    for (uint32_t s = 0; s < cg->slots.size(); ++s)
      if (cg->slots[s].kind == SlotInfo::Kind::Arena && defAt_.count(s)) {
        size_t last = std::max(lastUse_[s], defAt_[s]);
        if (last < ops.size()) dying[last].push_back(s);
      }
    for (size_t k = 0; k < ops.size(); ++k) {
      for (uint32_t s : definedAt_[k]) cg->slots[s].offset = allocate(cg->slots[s].bytes);
      if (reuse_)
        for (uint32_t s : dying[k]) {
          freeList_[cg->slots[s].bytes].push_back(cg->slots[s].offset);
          cg->slots[s].kept = false;
        }
    }

    emitAll(ops, g.isMain);

    // Returned views are read by the caller; every main-graph value may be printed
    // after the run, so main refreshes all its stale views.
    for (const Operand& r : g.returns)
      if (r.kind == Operand::Kind::Value) refreshView(slotOf(r.value));
    if (g.isMain)
      for (auto& [slot, link] : views_)
        if (cg->slots[slot].kept) refreshView(slot);  // a freed view's buffer may hold another value

    for (const Operand& r : g.returns) {
      cg->returnSlots.push_back(operandSlot(r));
      cg->returnTypes.push_back(&r.type());
    }
    for (uint32_t slot : cg->returnSlots)
      cg->returnInPlace.push_back(cg->slots[slot].kind == SlotInfo::Kind::Arena && !views_.count(slot) &&
                                  std::count(cg->returnSlots.begin(), cg->returnSlots.end(), slot) == 1);
    cg->arenaBytes = arenaTop_;
    for (Instr& in : cg->code) in.work = workOf(*cg, in);
    return cg;
  }

  // Instr::work: one step, plus one per kElementsPerStep elements the instruction
  // reads and writes; a fused chain touches its widest operand once per op, and a
  // matmul or convolution counts its multiply-adds. Saturates (a budget of 2^32
  // steps and more is not one a bounded run sets).
  static uint32_t workOf(const CompiledGraph& cg, const Instr& in) {
    uint64_t elements = 0, widest = 0;
    for (uint32_t i = 0; i < in.nIn + in.nOut; ++i) {
      const uint64_t n = static_cast<uint64_t>(cg.argTypes[in.args + i]->numElements());
      elements = saturatingAdd(elements, n);
      widest = std::max(widest, n);
    }
    if (in.opc == Opc::Fused) elements = saturatingAdd(elements, saturatingMul(widest, cg.fused[in.b].size()));
    if (in.opc == Opc::Kernel && in.op && !in.op->results.empty() && in.op->results[0]) {
      const uint64_t out = static_cast<uint64_t>(in.op->results[0]->type.numElements());
      elements = saturatingAdd(elements, saturatingMul(out, multiplyAddsPerResultElement(*in.op)));
    }
    return static_cast<uint32_t>(std::min<uint64_t>(1 + elements / kElementsPerStep, UINT32_MAX));
  }

 private:
  // Table indices are stored in 32 bits (vm/bytecode.h): checked, never wrapped.
  void checkIndex(size_t size, const char* what) {
    if (size >= kNoSlot)
      diags_.fail(SourceLoc{}, "@" + cg_->name + " needs more than 2^32 - 1 " + what + ", the bytecode's limit");
  }

  uint32_t addSlot(const SlotInfo& s) {
    checkIndex(cg_->slots.size(), "tensor slots");
    cg_->slots.push_back(s);
    return static_cast<uint32_t>(cg_->slots.size() - 1);
  }

  uint64_t allocPermanent(uint64_t bytes) {
    // Slots of a cache line or more start on one (AlignedBytes is 64-byte aligned):
    // vector loads do not straddle lines, and threads writing neighbouring slots
    // share none. Smaller slots pack at 16 bytes, keeping many tiny values dense.
    // Saturates: the session rejects an arena beyond the host memory budget.
    const uint64_t align = bytes >= 64 ? 64 : 16;
    const uint64_t off = saturatingAdd(arenaTop_, align - 1) / align * align;
    arenaTop_ = saturatingAdd(off, saturatingAdd(bytes, 15) / 16 * 16);
    return off;
  }
  uint64_t allocate(uint64_t bytes) {
    if (reuse_) {
      auto it = freeList_.find(bytes);
      if (it != freeList_.end() && !it->second.empty()) {
        uint64_t off = it->second.back();
        it->second.pop_back();
        return off;
      }
    }
    return allocPermanent(bytes);
  }

  void checkSize(const TensorType& t, const std::string& what, SourceLoc loc) {
    checkFitsDevice(t, m_.options, what, loc, diags_);
  }

  uint32_t slotOf(const Value* v) {
    if (v->id < cg_->valueSlot.size() && cg_->valueSlot[v->id] != kNoSlot) return cg_->valueSlot[v->id];
    diags_.fail(v->loc, "internal: %" + v->name + " used before the VM gave it a slot");
  }

  void extendTo(uint32_t slot, size_t pos) {
    if (slot < cg_->slots.size() && cg_->slots[slot].kind == SlotInfo::Kind::Arena) {
      auto& l = lastUse_[slot];
      l = std::max(l, pos);
    }
  }

  template <class F> void forEachValueUse(const Op& op, F&& f) {
    auto fold = matmulFolds_.find(&op);
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const Operand& o = op.operands[i];
      if (o.kind != Operand::Kind::Value) continue;
      f(fold != matmulFolds_.end() && i < 2 && fold->second.source[i] ? fold->second.source[i] : o.value);
    }
  }

  // ---- transposes folded into matmul ----------------------------------------------
  //
  // A matmul operand `%t = transpose %w` (swapping the last two axes) is read as %w
  // with the GEMM's transpose flag (prepareMatMulTransposed), and the transpose emits
  // no code when nothing else needs %t: a full copy per run saved. Sound when %w
  // cannot change between the transpose and the matmul: no op in between writes
  // anything in place (in-place ops, views, callees writing by-reference params).
  // Every such matmul reads the flag, in main too (where %t is still computed,
  // since main's values stay printable): the GEMM's rounding then does not depend
  // on which graph holds the code (inlining keeps the bits).
  struct MatMulFold {
    const Value* source[2] = {nullptr, nullptr};  // the transpose's operand, per matmul operand
  };

  static bool swapsLastTwoAxes(const Op& op) {
    const int64_t rank = op.operands.at(0).type().rank();
    if (rank < 2) return false;
    std::vector<int64_t> perm;
    try {
      perm = transposePermutation(op, rank);
    } catch (const KernelError&) {
      return false;  // the transpose's own kernel reports it
    }
    for (int64_t d = 0; d + 2 < rank; ++d)
      if (perm[d] != d) return false;
    return perm[rank - 2] == rank - 1 && perm[rank - 1] == rank - 2;
  }

  bool writesInPlace(const Op& op) {
    if (op.info().inplaceOperand >= 0) return true;
    for (const CalleeRef& c : op.callees) {
      const std::vector<bool>& w = writes_.paramsWritten(c.graph);
      for (size_t i = 0; i < w.size() && i < c.graph->params.size(); ++i)
        if (w[i] && c.graph->params[i]->byRef) return true;
    }
    return false;
  }

  void foldTransposesIntoMatMuls(const Graph& g, std::vector<const Op*>& ops) {
    std::unordered_map<const Value*, size_t> transposeAt;  // result -> position of its transpose
    for (size_t k = 0; k < ops.size(); ++k)
      if (ops[k]->code == OpCode::Transpose && ops[k]->results.size() == 1 && ops[k]->results[0] &&
          ops[k]->operands.at(0).kind == Operand::Kind::Value && swapsLastTwoAxes(*ops[k]))
        transposeAt.emplace(ops[k]->results[0], k);
    if (transposeAt.empty()) return;
    // A transposed value qualifies when every use is a matmul operand with no
    // in-place write between the transpose and that matmul.
    std::vector<size_t> lastWrite(ops.size(), SIZE_MAX);  // the last in-place writer at or before k
    for (size_t k = 0, last = SIZE_MAX; k < ops.size(); ++k) {
      if (writesInPlace(*ops[k])) last = k;
      lastWrite[k] = last;
    }
    // Transposed values that must still be computed: read by anything but a foldable
    // matmul operand, returned, or in main (every main value stays printable). A
    // transpose no matmul folded is left alone (dead code is the dce pass's business).
    std::unordered_set<const Value*> kept, folded;
    for (const Operand& r : g.returns)
      if (r.kind == Operand::Kind::Value) kept.insert(r.value);
    for (size_t k = 0; k < ops.size(); ++k) {
      const Op& op = *ops[k];
      MatMulFold fold;
      for (size_t i = 0; i < op.operands.size(); ++i) {
        const Operand& o = op.operands[i];
        if (o.kind != Operand::Kind::Value) continue;
        auto t = transposeAt.find(o.value);
        if (t == transposeAt.end()) continue;
        const bool foldable = op.code == OpCode::MatMul && i < 2 && k > 0 &&
                              (lastWrite[k - 1] == SIZE_MAX || lastWrite[k - 1] < t->second);
        if (foldable) {
          fold.source[i] = ops[t->second]->operands[0].value;
          folded.insert(o.value);
        } else {
          kept.insert(o.value);
        }
      }
      if (fold.source[0] || fold.source[1]) matmulFolds_.emplace(&op, fold);
    }
    std::unordered_set<const Op*> elided;
    if (!g.isMain)
      for (auto [value, k] : transposeAt)
        if (folded.count(value) && !kept.count(value)) elided.insert(ops[k]);
    std::erase_if(ops, [&](const Op* op) { return elided.count(op) != 0; });
  }

  uint32_t constSlot(HostTensor t, const Value* v) {
    SlotInfo s;
    s.kind = SlotInfo::Kind::Const;
    s.bytes = t.bytes.size();
    s.index = static_cast<uint32_t>(cg_->constants.size());
    s.value = v;
    cg_->constants.push_back(std::move(t));
    return addSlot(s);
  }

  uint32_t newArena(const Value* v, size_t pos) {
    uint32_t slot = newArenaOfType(v ? v->type : TensorType{}, pos);
    cg_->slots[slot].value = v;
    return slot;
  }
  uint32_t newArenaOfType(const TensorType& t, size_t pos) {
    SlotInfo s;
    s.kind = SlotInfo::Kind::Arena;
    s.bytes = HostTensor::byteSize(t);
    uint32_t slot = addSlot(s);
    defAt_[slot] = pos;
    lastUse_[slot] = pos;
    definedAt_[pos].push_back(slot);
    return slot;
  }

  void assignResults(const Op& op, size_t pos) {
    const uint32_t baseSeed = static_cast<uint32_t>(static_cast<uint64_t>(m_.options.seed));
    if (op.code == OpCode::Const) {
      const Value* v = op.results.at(0);
      checkSize(v->type, "%" + v->name, v->loc);
      HostTensor t = op.init ? materialize(*op.init, v->type, baseSeed, "%" + v->name, diags_) : HostTensor(v->type);
      cg_->valueSlot[v->id] = constSlot(std::move(t), v);
      return;
    }
    if (op.code == OpCode::Var) {
      const Value* v = op.results.at(0);
      checkSize(v->type, "%" + v->name, v->loc);
      const std::vector<const Value*>& vars = addVariables_ ? *addVariables_ : p_.variables;
      auto it = std::find(vars.begin(), vars.end(), v);
      uint32_t index = static_cast<uint32_t>(it - vars.begin());
      if (it == vars.end()) {
        if (!addVariables_) diags_.fail(v->loc, "internal: variable %" + v->name + " is not compiled");
        addVariables_->push_back(v);
      }
      SlotInfo s;
      s.kind = SlotInfo::Kind::Var;
      s.index = index;
      s.bytes = HostTensor::byteSize(v->type);
      s.value = v;
      cg_->valueSlot[v->id] = addSlot(s);
      return;
    }
    int target = inplaceTarget(op);
    for (size_t r = 0; r < op.results.size(); ++r) {
      const Value* v = op.results[r];
      if (!v) continue;
      checkSize(v->type, "%" + v->name, v->loc);
      if (r == 0 && target >= 0 && target < static_cast<int>(op.operands.size()) &&
          op.operands[target].kind == Operand::Kind::Value) {
        if (op.info().has(F_VIEW) && defineView(op, *v, pos)) continue;
        uint32_t s = slotOf(op.operands[target].value);
        cg_->valueSlot[v->id] = s;  // the alias shares the target's storage
        SlotInfo& info = cg_->slots[s];
        info.bytes = std::max<uint64_t>(info.bytes, HostTensor::byteSize(v->type));
        continue;
      }
      cg_->valueSlot[v->id] = newArena(v, pos);
    }
  }

  // The slot an operand reads; literals become constants converted to literalType.
  uint32_t operandSlot(const Operand& o) {
    if (o.kind == Operand::Kind::Value) return slotOf(o.value);
    if (o.kind == Operand::Kind::Literal && o.literal) {
      const uint32_t baseSeed = static_cast<uint32_t>(static_cast<uint64_t>(m_.options.seed));
      checkSize(o.literalType, "literal", o.loc);
      return constSlot(materialize(*o.literal, o.literalType, baseSeed, "literal operand", diags_), nullptr);
    }
    diags_.fail(o.loc, "internal: operand is not a tensor");
  }

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
      else if (r == 0 && target >= 0 && op.operands[target].kind == Operand::Kind::Value)
        slot = slotOf(op.operands[target].value);
      // An in-place write to a literal (unobservable) must not touch the shared constant.
      else if (r == 0 && target >= 0) slot = scratchSlot(*types[r]);
      else slot = scratchSlot(*types[r]);
      pushArg(slot, types[r]);
      ++in.nOut;
    }
  }

  // A buffer for a result nobody reads: permanent (never shared with live data).
  uint32_t scratchSlot(const TensorType& t) {
    SlotInfo s;
    s.kind = SlotInfo::Kind::Arena;
    s.bytes = HostTensor::byteSize(t);
    s.offset = allocPermanent(s.bytes);
    return addSlot(s);
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
    if (!c) diags_.fail(op.loc, "internal: @" + g->name + " is not compiled");
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
  struct ViewLink {
    uint32_t view = kNoSlot;                  // the view's own slot
    uint32_t source = kNoSlot;                // the operand's slot (itself maybe a view)
    uint32_t root = kNoSlot;                  // the first slot up the chain that is no view
    const Op* op = nullptr;                   // the view op (locations, trace)
    const TensorType* sourceType = nullptr;   // the operand's type
    const TensorType* viewType = nullptr;
    std::vector<int64_t> perm;                // view = transpose(source, perm)
    uint32_t forward = kNoSlot, backward = kNoSlot;  // kernel indices, prepared on first use
  };

  // Gives the view result `v` of `op` its own slot unless it can share the operand's
  // storage (false: the caller aliases it as for any in-place op).
  bool defineView(const Op& op, const Value& v, size_t pos) {
    const Operand& operand = op.operands[static_cast<size_t>(inplaceTarget(op))];
    std::vector<int64_t> perm;
    try {
      perm = viewPermutation(op, operand.type());
    } catch (const KernelError& e) {
      diags_.fail(op.loc, prefixed(op.info().name, e.what()));
    }
    if (perm.empty()) return false;
    const uint32_t slot = newArena(&v, pos);
    cg_->valueSlot[v.id] = slot;
    ViewLink link;
    link.view = slot;
    link.source = slotOf(operand.value);
    auto up = views_.find(link.source);
    link.root = up == views_.end() ? link.source : up->second.root;
    link.op = &op;
    link.sourceType = &operand.type();
    link.viewType = &v.type;
    link.perm = std::move(perm);
    families_[link.root].push_back(slot);
    views_.emplace(slot, std::move(link));
    return true;
  }

  void extendThroughViews(uint32_t slot, size_t pos) {
    for (;;) {
      extendTo(slot, pos);
      auto it = views_.find(slot);
      if (it == views_.end()) return;
      slot = it->second.source;
    }
  }

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
    auto it = views_.find(slot);
    if (it == views_.end() || !stale_.count(slot)) return;
    refreshView(it->second.source);  // the operand may be a stale view too
    emitViewSync(it->second, true);
    stale_.erase(slot);
  }

  // After `slot` was written: write it back up its chain, then mark stale every other
  // view of its root (siblings and the written slot's own views).
  void wroteSlot(uint32_t slot) {
    std::vector<uint32_t> path{slot};
    for (auto it = views_.find(slot); it != views_.end(); it = views_.find(it->second.source)) {
      emitViewSync(it->second, false);
      path.push_back(it->second.source);
    }
    auto family = families_.find(path.back());
    if (family == families_.end()) return;
    for (uint32_t view : family->second)
      if (std::find(path.begin(), path.end(), view) == path.end()) stale_.insert(view);
  }

  // The slots `op` writes in place: its in-place operand (a view op writes nothing)
  // and the by-reference arguments its callees write.
  std::vector<uint32_t> writtenSlots(const Op& op) {
    std::vector<uint32_t> slots;
    const int target = inplaceTarget(op);
    if (target >= 0 && !op.info().has(F_VIEW) && target < static_cast<int>(op.operands.size()) &&
        op.operands[static_cast<size_t>(target)].kind == Operand::Kind::Value)
      slots.push_back(slotOf(op.operands[static_cast<size_t>(target)].value));
    for (size_t k = 0; k < op.callees.size(); ++k) {
      const Graph* callee = op.callees[k].graph;
      const std::vector<bool>& w = writes_.paramsWritten(callee);
      const auto args = op.args(k);
      for (size_t i = 0; i < args.size() && i < callee->params.size(); ++i)
        if (callee->params[i]->byRef && w[i] && args[i].kind == Operand::Kind::Value)
          slots.push_back(slotOf(args[i].value));
    }
    return slots;
  }

  void emit(const Op& op) {
    forEachValueUse(op, [&](const Value* v) { refreshView(slotOf(v)); });
    if (op.info().has(F_VIEW)) {
      // A view that shares its operand's storage (or is unbound) is no code at all.
      const Value* v = op.results.empty() ? nullptr : op.results[0];
      if (!v || !views_.count(slotOf(v))) return;
      stale_.erase(slotOf(v));  // computed here (an earlier write may have marked it)
    }
    emitOp(op);
    if (!views_.empty())
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
    in.a = op.operands.at(0).resource->index;
    pushResults(op, {&op.operands[0].resource->type}, in);
    return true;
  }

  bool emitHostStore(const Op& op, Instr& in) {
    in.opc = Opc::HostStore;
    in.a = op.operands.at(0).resource->index;
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
    in.a = op.operands.at(0).resource->index;
    pushArg(operandSlot(op.operands.at(1)), &op.operands[1].type());
    in.nIn = 1;
    if (store) {
      pushArg(operandSlot(op.operands.at(2)), &op.operands[2].type());
      in.nIn = 2;
    } else if (info.inplaceOperand >= 0) {
      const Operand& t = op.operands.at(static_cast<size_t>(info.inplaceOperand));
      pushArg(t.kind == Operand::Kind::Value ? slotOf(t.value) : scratchSlot(t.type()), &t.type());
      in.nOut = 1;
    } else {
      pushResults(op, {&op.operands[0].resource->type}, in);
    }
    return true;
  }

  bool emitPrintTensor(const Op& op, Instr& in) {
    in.opc = Opc::Print;
    in.a = static_cast<uint32_t>(cg_->strings.size());
    // An empty title prints the tensor's name (PopART's default title is the tensor id).
    std::string text(attrs::PrintTensor{op}.title());
    if (text.empty() && op.operands.at(0).kind == Operand::Kind::Value) text = op.operands[0].value->name;
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
    for (const Value* v : op.results) types.push_back(v ? &v->type : &op.operands[0].type());
    if (types.empty()) types.push_back(&op.operands[0].type());
    pushResults(op, types, in);
    return true;
  }

  bool emitKernel(const Op& op, Instr& in) {
    const OpInfo& info = op.info();
    // Every family without an emit rule has a compute kernel (static_asserts here and
    // in vm/kernels_dispatch.cpp); an op that reached here without one is a compiler bug.
    if (!hasKernel(op.code)) diags_.fail(op.loc, "internal: the VM has no code for '" + std::string(info.name) + "'");
    in.opc = Opc::Kernel;
    std::vector<TensorType> inTypes, outTypes;
    auto fold = matmulFolds_.find(&op);
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const Operand& o = op.operands[i];
      if (o.kind != Operand::Kind::Value && o.kind != Operand::Kind::Literal) continue;
      const Value* source = fold != matmulFolds_.end() && i < 2 ? fold->second.source[i] : nullptr;
      if (source) in.b |= 1u << i;  // read transposed (Instr::b of a Kernel)
      pushArg(source ? slotOf(source) : operandSlot(o), source ? &source->type : &o.type());
      inTypes.push_back(source ? source->type : o.type());
      ++in.nIn;
    }
    std::vector<const TensorType*> resultTypes;
    for (const Value* v : op.results) resultTypes.push_back(v ? &v->type : nullptr);
    if (resultTypes.empty() && inplaceTarget(op) >= 0) resultTypes.push_back(cg_->argTypes[in.args]);
    for (size_t r = 0; r < resultTypes.size(); ++r) {
      if (!resultTypes[r]) diags_.fail(op.loc, "internal: " + std::string(info.name) + " result without a type");
      outTypes.push_back(*resultTypes[r]);
    }
    pushResults(op, resultTypes, in);
    try {
      in.a = static_cast<uint32_t>(cg_->kernels.size());
      cg_->kernels.push_back(fold == matmulFolds_.end()
                                 ? prepareKernel(op, inTypes, outTypes)
                                 : prepareMatMulTransposed(inTypes.at(0), in.b & 1u, inTypes.at(1), in.b & 2u,
                                                           outTypes.at(0)));
    } catch (const KernelError& e) {
      diags_.fail(op.loc, prefixed(info.name, e.what()));
    }
    cg_->maxOperands = std::max<size_t>(cg_->maxOperands, in.nIn + in.nOut);
    return true;
  }


  // ---- fused elementwise chains (vm/fusion.h) ------------------------------------

  // Emits `ops`, each chain findFusionRanges finds as one Fused instruction.
  void emitAll(const std::vector<const Op*>& ops, bool isMain) {
    std::vector<FusionRange> chains;
    if (options_.fuseElementwise)
      chains = findFusionRanges(ops, [&](const Op& op) { return !touchesViews(op); });
    size_t next = 0;
    for (size_t k = 0; k < ops.size(); ++k) {
      if (next < chains.size() && chains[next].begin == k) {
        const FusionRange r = chains[next++];
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
    if (views_.empty()) return false;
    auto isView = [&](const Value* v) {
      const uint32_t s = slotOf(v);
      return views_.count(s) || families_.count(s);
    };
    for (const Operand& o : op.operands)
      if (o.kind == Operand::Kind::Value && isView(o.value)) return true;
    for (const Value* v : op.results)
      if (v && isView(v)) return true;
    return false;
  }

  // One Fused instruction for ops [r.begin, r.end) of the flattened list; false
  // (nothing emitted) if a step has no kernel for its block types, so that the ops
  // are emitted one by one and report as usual.
  bool emitFused(std::span<const Op* const> chainOps, FusionRange r, bool isMain) {
    std::vector<FusionStep> steps;
    std::vector<const Op*> stepOps;
    for (const Op* op : chainOps) {
      if (isStorage(*op)) continue;  // its slot was assigned with the results
      stepOps.push_back(op);
      FusionStep st;
      st.op = op;
      for (const Operand& o : op->operands) st.ins.push_back({operandSlot(o), &o.type()});
      const Value* v = op->results.empty() ? nullptr : op->results[0];
      const int target = inplaceTarget(*op);
      if (v) st.outs.push_back({slotOf(v), &v->type});
      else st.outs.push_back(st.ins[static_cast<size_t>(target)]);
      steps.push_back(std::move(st));
    }
    // A slot a step writes stays in scratch only if it is an arena intermediate
    // first defined in the chain, read in it, and read by nothing after it
    // (lastUse_ covers returns and views). Main keeps every value (`print`).
    auto keep = [&](uint32_t slot) {
      if (isMain || cg_->slots[slot].kind != SlotInfo::Kind::Arena) return true;
      auto def = defAt_.find(slot);
      auto last = lastUse_.find(slot);
      if (def == defAt_.end() || last == lastUse_.end()) return true;
      return !(def->second >= r.begin && last->second > def->second && last->second < r.end);
    };
    FusedChain chain;
    try {
      chain = buildFusedChain(steps, keep);
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
  bool reuse_ = true;
  uint64_t arenaTop_ = 0;
  std::map<uint64_t, std::vector<uint64_t>> freeList_;
  std::unordered_map<uint32_t, size_t> defAt_, lastUse_;
  std::unordered_map<size_t, std::vector<uint32_t>> definedAt_;
  std::vector<bool> noWrites_;
  std::map<uint32_t, ViewLink> views_;                            // view slot -> link (ordered: deterministic code)
  std::unordered_map<uint32_t, std::vector<uint32_t>> families_;  // root slot -> its views
  std::set<uint32_t> stale_;                                      // views to refresh before a read
  std::unordered_map<const Op*, MatMulFold> matmulFolds_;         // matmuls reading transposes' operands
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

std::unique_ptr<Program> compileProgram(const Module& m, DiagnosticEngine& diags, const CompileOptions& options) {
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

std::unique_ptr<CompiledGraph> compileMainSubset(const Module& m, const Program& p, const std::vector<size_t>& include,
                                                 DiagnosticEngine& diags,
                                                 const std::vector<std::pair<const Value*, const HostTensor*>>& givens,
                                                 std::vector<const Value*>* variables, const CompileOptions& options) {
  WriteAnalysis writes;
  GraphCompiler gc(m, p, variables, diags, writes, options);
  std::unique_ptr<CompiledGraph> sub = gc.compile(*m.main, &include, &givens);
  computeWriteSet(*sub, p);
  return sub;
}

}  // namespace pir::vm
