#include "vm/frame_plan.h"

#include <algorithm>

#include "ir/checked_math.h"
#include "ir/internal_error.h"
#include "vm/device.h"
#include "vm/fusion.h"
#include "vm/kernel_util.h"
#include "vm/kernels.h"

namespace pir::vm {

void FramePlanner::bindGivens(const std::vector<std::pair<const Value*, const HostTensor*>>& givens) {
  for (const auto& [v, t] : givens) cg_.valueSlot[v->id] = constSlot(*t, v);
}

void FramePlanner::plan(const Graph& g, const std::vector<const Op*>& ops, bool reuse) {
  reuse_ = reuse;
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
    if (s.copied) cg_.slots[slot].offset = allocPermanent(s.bytes);
    cg_.valueSlot[v->id] = slot;
    cg_.paramSlots.push_back(slot);
  }

  // Slot assignment and liveness (positions are indices into `ops`).
  const size_t kEnd = ops.size();
  for (size_t k = 0; k < ops.size(); ++k) assignResults(*ops[k], k);
  // Returned values live to the end.
  for (const Operand& r : g.returns)
    if (r.kind() == Operand::Kind::Value) extendThroughViews(slotOf(r.value()), kEnd);
  // So do the main values a later `print` / `save` may read (by the name it resolves).
  if (g.isMain && reuse_)
    for (const std::string& name : *options_.keptMainNames)
      if (const Value* v = g.lookup(name);
          v && v->graph == &g && v->id < cg_.valueSlot.size() && cg_.valueSlot[v->id] != kNoSlot)
        extendThroughViews(cg_.valueSlot[v->id], kEnd);

  // Last use of every arena slot (reads and in-place writes).
  for (size_t k = 0; k < ops.size(); ++k)
    for (const Operand& o : ops[k]->operands)
      if (o.kind() == Operand::Kind::Value) extendThroughViews(slotOf(o.value()), k);

  ops_ = &ops;
}

void FramePlanner::keepInScratch(uint32_t slot) {
  if (slot >= cg_.slots.size() || cg_.slots[slot].kind != SlotInfo::Kind::Arena || !defAt_.count(slot))
    internalError("@" + cg_.name + ": a fused instruction keeps a slot in scratch that is no arena intermediate");
  cg_.slots[slot].inScratch = true;
}

void FramePlanner::placeArena() {
  if (!ops_) internalError("@" + cg_.name + ": arena placed before it was planned");
  const std::vector<const Op*>& ops = *ops_;
  ops_ = nullptr;
  // Linear scan: allocate at definition, free after last use.
  std::vector<std::vector<uint32_t>> dying(ops.size() + 1);
  for (uint32_t s = 0; s < cg_.slots.size(); ++s)
    if (cg_.slots[s].kind == SlotInfo::Kind::Arena && defAt_.count(s) && !cg_.slots[s].inScratch) {
      size_t last = std::max(lastUse_[s], defAt_[s]);
      if (last < ops.size()) dying[last].push_back(s);
    }
  for (size_t k = 0; k < ops.size(); ++k) {
    const uint32_t handedOver = reuse_ ? resultTakesOperandBuffer(*ops[k], dying[k]) : kNoSlot;
    for (uint32_t s : definedAt_[k]) {
      if (cg_.slots[s].inScratch) {
        cg_.slots[s].kept = false;
        continue;
      }
      if (handedOver != kNoSlot) {
        cg_.slots[s].offset = cg_.slots[handedOver].offset;
        handedFrom_[s] = handedOver;
        continue;
      }
      cg_.slots[s].offset = allocate(cg_.slots[s].bytes);
    }
    if (reuse_)
      for (uint32_t s : dying[k]) {
        cg_.slots[s].kept = false;
        if (s != handedOver) freeList_[cg_.slots[s].bytes].push_back(cg_.slots[s].offset);
      }
  }
}

// A result may take the buffer of an operand that dies at its op, instead of a new one:
//  - a plain copy (reshape, flatten, squeeze, identity: the result holds the operand's
//    bytes): the copy kernel then finds nothing to do (source and result at one address);
//  - an elementwise op that could be a fused chain's step (vm/fusion.h fusibleOp),
//    where the operand has the result's type (of a variadic op, operand 0 or 1): its
//    kernel computes element i from element i of that operand, as the op's in-place
//    `_` form does on the same storage, and in a fused chain or sliced group the operand's block or slice is the
//    result's. The result is written where the operand was just read, in cache,
//    rather than into a buffer that has left it.
// The result then owns the buffer and frees it after its own last use. Returns the
// operand's slot, or kNoSlot.
uint32_t FramePlanner::resultTakesOperandBuffer(const Op& op, const std::vector<uint32_t>& dyingHere) const {
  const bool copy = detail::isPlainCopy(op.code) && op.operands.size() == 1;
  if ((!copy && !fusibleOp(op)) || op.info().inplaceOperand >= 0 || op.results.size() != 1 || !op.results[0])
    return kNoSlot;
  const uint32_t out = cg_.valueSlot[op.results[0]->id];
  if (out == kNoSlot) return kNoSlot;
  const SlotInfo& b = cg_.slots[out];
  if (b.kind != SlotInfo::Kind::Arena || b.inScratch || views_.count(out)) return kNoSlot;
  // A variadic op (maximum, minimum of three or more) folds its operands pairwise into
  // the result: the first fold reads operands 0 and 1 element by element, each later
  // fold reads the result and the next operand, which the result's writes would already
  // have overwritten had it taken that operand's buffer.
  const size_t takeable = op.info().maxOperands < 0 ? std::min<size_t>(2, op.operands.size()) : op.operands.size();
  for (size_t i = 0; i < takeable; ++i) {
    const Operand& o = op.operands[i];
    if (o.kind() != Operand::Kind::Value) continue;
    if (!copy && o.value()->type.get() != op.results[0]->type.get()) continue;
    const uint32_t in = cg_.valueSlot[o.value()->id];
    if (in == kNoSlot || in == out) continue;
    const SlotInfo& a = cg_.slots[in];
    if (a.kind != SlotInfo::Kind::Arena || a.bytes != b.bytes || a.inScratch) continue;
    if (views_.count(in) || families_.count(in)) continue;
    if (std::find(dyingHere.begin(), dyingHere.end(), in) == dyingHere.end()) continue;
    return in;
  }
  return kNoSlot;
}

bool FramePlanner::diesWithin(uint32_t slot, size_t begin, size_t end) const {
  if (cg_.slots[slot].kind != SlotInfo::Kind::Arena) return false;
  auto def = defAt_.find(slot);
  auto last = lastUse_.find(slot);
  if (def == defAt_.end() || last == lastUse_.end()) return false;
  return def->second >= begin && last->second > def->second && last->second < end;
}

void FramePlanner::checkIndex(size_t size, const char* what) {
  if (size >= kNoSlot)
    diags_.fail(SourceLoc{}, "@" + cg_.name + " needs more than 2^32 - 1 " + what + ", the bytecode's limit");
}

uint32_t FramePlanner::addSlot(const SlotInfo& s) {
  checkIndex(cg_.slots.size(), "tensor slots");
  cg_.slots.push_back(s);
  return static_cast<uint32_t>(cg_.slots.size() - 1);
}

uint64_t FramePlanner::allocPermanent(uint64_t bytes) {
  // Slots of a cache line or more start on one (AlignedBytes is 64-byte aligned):
  // vector loads do not straddle lines, and threads writing neighbouring slots
  // share none. Smaller slots pack at 16 bytes, keeping many tiny values dense.
  // Saturates: the session rejects an arena beyond the host memory budget.
  const uint64_t align = bytes >= 64 ? 64 : 16;
  const uint64_t off = saturatingAdd(arenaTop_, align - 1) / align * align;
  arenaTop_ = saturatingAdd(off, saturatingAdd(bytes, 15) / 16 * 16);
  return off;
}

uint64_t FramePlanner::allocate(uint64_t bytes) {
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

void FramePlanner::checkSize(const TensorType& t, const std::string& what, SourceLoc loc) {
  checkFitsDevice(t, m_.options, what, loc, diags_);
}

uint32_t FramePlanner::slotOf(const Value* v) {
  if (v->id < cg_.valueSlot.size() && cg_.valueSlot[v->id] != kNoSlot) return cg_.valueSlot[v->id];
  internalError("%" + v->name + " used before the VM gave it a slot");
}

void FramePlanner::extendTo(uint32_t slot, size_t pos) {
  if (slot < cg_.slots.size() && cg_.slots[slot].kind == SlotInfo::Kind::Arena) {
    auto& l = lastUse_[slot];
    l = std::max(l, pos);
  }
}

void FramePlanner::extendThroughViews(uint32_t slot, size_t pos) {
  for (;;) {
    extendTo(slot, pos);
    auto it = views_.find(slot);
    if (it == views_.end()) return;
    slot = it->second.source;
  }
}

uint32_t FramePlanner::constSlot(HostTensor t, const Value* v) {
  SlotInfo s;
  s.kind = SlotInfo::Kind::Const;
  s.bytes = t.bytes.size();
  s.index = static_cast<uint32_t>(cg_.constants.size());
  s.value = v;
  cg_.constants.push_back(std::move(t));
  return addSlot(s);
}

uint32_t FramePlanner::newArena(const Value* v, size_t pos) {
  SlotInfo s;
  s.kind = SlotInfo::Kind::Arena;
  s.bytes = HostTensor::byteSize(v ? v->type : TensorType{});
  s.value = v;
  uint32_t slot = addSlot(s);
  defAt_[slot] = pos;
  lastUse_[slot] = pos;
  definedAt_[pos].push_back(slot);
  return slot;
}

void FramePlanner::assignResults(const Op& op, size_t pos) {
  const uint32_t baseSeed = static_cast<uint32_t>(static_cast<uint64_t>(m_.options.seed));
  if (op.code == OpCode::Const) {
    const Value* v = op.results.at(0);
    checkSize(v->type, "%" + v->name, v->loc);
    HostTensor t = op.init() ? materialize(*op.init(), v->type, baseSeed, "%" + v->name, diags_) : HostTensor(v->type);
    cg_.valueSlot[v->id] = constSlot(std::move(t), v);
    return;
  }
  if (op.code == OpCode::Var) {
    const Value* v = op.results.at(0);
    checkSize(v->type, "%" + v->name, v->loc);
    const std::vector<const Value*>& vars = addVariables_ ? *addVariables_ : p_.variables;
    auto it = std::find(vars.begin(), vars.end(), v);
    uint32_t index = static_cast<uint32_t>(it - vars.begin());
    if (it == vars.end()) {
      if (!addVariables_) internalError("variable %" + v->name + " is not compiled");
      addVariables_->push_back(v);
    }
    SlotInfo s;
    s.kind = SlotInfo::Kind::Var;
    s.index = index;
    s.bytes = HostTensor::byteSize(v->type);
    s.value = v;
    cg_.valueSlot[v->id] = addSlot(s);
    return;
  }
  int target = inplaceTarget(op);
  for (size_t r = 0; r < op.results.size(); ++r) {
    const Value* v = op.results[r];
    if (!v) continue;
    checkSize(v->type, "%" + v->name, v->loc);
    if (r == 0 && target >= 0 && target < static_cast<int>(op.operands.size()) &&
        op.operands[target].kind() == Operand::Kind::Value) {
      if (op.info().has(F_VIEW) && defineView(op, *v, pos)) continue;
      uint32_t s = slotOf(op.operands[target].value());
      cg_.valueSlot[v->id] = s;  // the alias shares the target's storage
      SlotInfo& info = cg_.slots[s];
      info.bytes = std::max<uint64_t>(info.bytes, HostTensor::byteSize(v->type));
      continue;
    }
    cg_.valueSlot[v->id] = newArena(v, pos);
  }
}

uint32_t FramePlanner::operandSlot(const Operand& o) {
  if (o.kind() == Operand::Kind::Value) return slotOf(o.value());
  if (o.kind() == Operand::Kind::Literal && o.literal()) {
    const uint32_t baseSeed = static_cast<uint32_t>(static_cast<uint64_t>(m_.options.seed));
    checkSize(o.literalType(), "literal", o.loc());
    return constSlot(materialize(*o.literal(), o.literalType(), baseSeed, "literal operand", diags_), nullptr);
  }
  internalError("operand is not a tensor");
}

uint32_t FramePlanner::scratchSlot(const TensorType& t) {
  SlotInfo s;
  s.kind = SlotInfo::Kind::Arena;
  s.bytes = HostTensor::byteSize(t);
  s.offset = allocPermanent(s.bytes);
  return addSlot(s);
}

// Gives the view result `v` of `op` its own slot unless it can share the operand's
// storage (false: the caller aliases it as for any in-place op).
bool FramePlanner::defineView(const Op& op, const Value& v, size_t pos) {
  const Operand& operand = op.operands[static_cast<size_t>(inplaceTarget(op))];
  std::vector<int64_t> perm;
  try {
    perm = viewPermutation(op, operand.type());
  } catch (const KernelError& e) {
    diags_.fail(op.loc, prefixed(op.info().name, e.what()));
  }
  if (perm.empty()) return false;
  const uint32_t slot = newArena(&v, pos);
  cg_.valueSlot[v.id] = slot;
  ViewLink link;
  link.view = slot;
  link.source = slotOf(operand.value());
  auto up = views_.find(link.source);
  link.root = up == views_.end() ? link.source : up->second.root;
  link.op = &op;
  link.sourceType = &operand.type();
  link.viewType = &v.type.get();
  link.perm = std::move(perm);
  families_[link.root].push_back(slot);
  views_.emplace(slot, std::move(link));
  return true;
}

}  // namespace pir::vm
