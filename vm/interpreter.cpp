#include "vm/interpreter.h"

#include <chrono>
#include <cstdio>

#include <cmath>
#include <cstring>
#include <utility>

#include "ir/diagnostics.h"
#include "ir/interrupt.h"
#include "ir/number_format.h"
#include "vm/format.h"
#include "vm/fusion.h"
#include "vm/host_memory.h"
#include "vm/kernel_util.h"
#include "vm/kernels_collective.h"
#include "vm/tensor.h"

namespace pir::vm {

Interpreter::Interpreter(const Module& m, const Program& p, DeviceState& state, int replica, std::ostream* trace,
                         const SourceManager* sources)
    : m_(m),
      p_(p),
      state_(state),
      replica_(replica),
      numReplicas_(static_cast<int>(std::max<int64_t>(1, m.options.replication))),
      nht_(std::max<int64_t>(1, m.options.numHostTransfers)),
      trace_(trace),
      sources_(sources) {
  frames_.resize(p.graphs.size());
  cursors_.assign(m.resources.size(), 0);
  written_.assign(m.resources.size(), false);
  kctx_.replica = replica;
  kctx_.numReplicas = numReplicas_;
  kctx_.out = nullptr;
}

Interpreter::~Interpreter() = default;

std::vector<AlignedBytes> Interpreter::releaseArenas() {
  std::vector<AlignedBytes> arenas = std::move(spareArenas_);
  arenas.resize(frames_.size());
  for (size_t i = 0; i < frames_.size(); ++i)
    if (frames_[i]) arenas[i] = std::move(frames_[i]->arena);
  return arenas;
}

void Interpreter::bind(const CompiledGraph& g, Frame& f, std::byte* arena) {
  // Variables the graph may write get storage of their own (copy-on-write, vm/tensor.h);
  // the others are only read, so they stay shared with backups and snapshots.
  std::vector<bool> writes(state_.vars.empty() ? 0 : state_.vars[replica_].size(), false);
  for (uint32_t v : g.writtenVars)
    if (v < writes.size()) writes[v] = true;
  f.ptr.assign(g.slots.size(), nullptr);
  f.refs.resize(g.maxOperands);
  for (size_t s = 0; s < g.slots.size(); ++s) {
    const SlotInfo& info = g.slots[s];
    switch (info.kind) {
      case SlotInfo::Kind::Arena: f.ptr[s] = info.inScratch ? nullptr : arena + info.offset; break;
      case SlotInfo::Kind::Param: f.ptr[s] = info.copied ? arena + info.offset : nullptr; break;
      case SlotInfo::Kind::Const:
        f.ptr[s] = const_cast<std::byte*>(g.constants[info.index].bytes.data());
        break;
      case SlotInfo::Kind::Var: {
        AlignedBytes& bytes = state_.vars[replica_][info.index].bytes;
        f.ptr[s] = writes[info.index] ? bytes.data() : const_cast<std::byte*>(std::as_const(bytes).data());
        break;
      }
    }
  }
}

Frame& Interpreter::frameOf(const CompiledGraph& g) {
  std::unique_ptr<Frame>& f = frames_[g.graph->index];
  if (!f) {
    f = std::make_unique<Frame>();
    const size_t i = g.graph->index;
    if (i < spareArenas_.size() && spareArenas_[i].size() == g.arenaBytes) f->arena = std::move(spareArenas_[i]);
    else f->arena.resize(g.arenaBytes);
    bind(g, *f, f->arena.data());
  }
  return *f;
}

void Interpreter::push(const CompiledGraph& callee, const std::byte* const* args, std::byte* const* outs) {
  Frame& f = frameOf(callee);
  for (size_t i = 0; i < callee.paramSlots.size(); ++i) {
    const uint32_t slot = callee.paramSlots[i];
    const SlotInfo& info = callee.slots[slot];
    if (info.copied) copyBytes(f.ptr[slot], args[i], info.bytes);
    else f.ptr[slot] = const_cast<std::byte*>(args[i]);
  }
  // A return computed in place lives in the caller's buffer for this call, and in
  // the frame's arena again for a repeat.
  for (size_t j = 0; j < callee.returnInPlace.size(); ++j) {
    if (!callee.returnInPlace[j]) continue;
    const uint32_t slot = callee.returnSlots[j];
    f.ptr[slot] = outs ? outs[j] : f.arena.data() + callee.slots[slot].offset;
  }
  for (const auto& [j, slot] : callee.returnInPlaceAliases)
    f.ptr[slot] = outs ? outs[j] : f.arena.data() + callee.slots[slot].offset;
  stack_.push_back(Activation{&callee, &f, 0, 0});
}

void Interpreter::start() {
  resetBudget();
  std::fill(cursors_.begin(), cursors_.end(), 0);
  std::fill(written_.begin(), written_.end(), false);
  branches_.clear();
  printed_.clear();
  const CompiledGraph& g = *p_.main;
  bind(g, mainFrame_, state_.mainValues[replica_].data());
  stack_.clear();
  stack_.push_back(Activation{&g, &mainFrame_, 0, 0});
}

bool Interpreter::resume() { return trace_ ? loop<true>() : loop<false>(); }

void Interpreter::runMain() {
  start();
  if (!resume())
    faultAtPending("a collective over " + std::to_string(pending_.spec->groupSize) +
                       " replicas needs the replicas running together",
                   false);
}

const std::vector<std::byte*>& Interpreter::runDetached(const CompiledGraph& g, AlignedBytes& frameArena) {
  resetBudget();
  std::fill(cursors_.begin(), cursors_.end(), 0);
  frameArena.resize(g.arenaBytes);
  bind(g, mainFrame_, frameArena.data());
  stack_.clear();
  stack_.push_back(Activation{&g, &mainFrame_, 0, 0});
  if (!loop<false>()) faultAtPending("a collective cannot run in a preview", false);
  return mainFrame_.ptr;
}

void Interpreter::completeCollective() {
  Activation& a = stack_.back();
  if (trace_) traceInstr(*a.g, *a.f, a.g->code[a.pc], a.started);
  ++a.pc;
}

void Interpreter::faultAtPending(std::string msg, bool aborted) {
  const Op* op = pending_.instr ? pending_.instr->op : nullptr;
  std::string text = prefixed(op ? op->info().name : "collective", msg);
  if (numReplicas_ > 1) text += " (replica " + std::to_string(replica_) + ")";
  RuntimeFault f(op, std::move(text));
  f.aborted = aborted;
  throw f;
}

void Interpreter::sliceEnd(const Instr& in) {
  if (interruptRequested()) fault(in, kInterruptedMessage);
  const uint64_t left = remaining_ + beyondSlice_;
  if (in.work > left) budgetExceeded(in);
  const uint64_t after = left - in.work;
  remaining_ = std::min(kStepSlice, after);
  beyondSlice_ = after - remaining_;
}

void Interpreter::budgetExceeded(const Instr& in) {
  budgetSpent_ = true;
  fault(in, "the step budget is spent: this instruction needs " + std::to_string(in.work) +
                (in.work == 1 ? " step, " : " steps, ") + std::to_string(remaining_ + beyondSlice_) + " left");
}

void Interpreter::fault(const Instr& in, std::string msg, std::vector<Note> notes) {
  std::string text = prefixed(in.op ? in.op->info().name : "vm", msg);
  if (numReplicas_ > 1) text += " (replica " + std::to_string(replica_) + ")";
  throw RuntimeFault(in.op, std::move(text), std::move(notes));
}

int64_t Interpreter::remoteOffset(const Instr& in, const std::byte* p, const TensorType& t, const Resource& r) {
  double v = loadElement(p, t.dtype, 0);
  if (!(v >= 0 && v < static_cast<double>(r.entries)))
    fault(in, "offset " + formatNumber(v, t.dtype) + " is out of range for $" + r.name + " with " +
                  std::to_string(r.entries) + (r.entries == 1 ? " entry" : " entries"));
  return static_cast<int64_t>(v);
}

const std::byte** Interpreter::repeatArgs(const Activation& a, const Instr& in) {
  // The carried params read the results (the carry); the rest read the operands.
  std::byte* const* ptr = a.f->ptr.data();
  const uint32_t* slots = a.g->argSlots.data() + in.args;
  args_.resize(in.nIn);
  for (unsigned j = 0; j < in.nIn; ++j) args_[j] = j < in.c ? ptr[slots[in.nIn + j]] : ptr[slots[j]];
  return args_.data();
}

template <bool kTrace>
bool Interpreter::returnTo(Activation& caller, const CompiledGraph& callee, const Frame& calleeFrame) {
  const Instr& in = caller.g->code[caller.pc];
  std::byte* const* ptr = caller.f->ptr.data();
  const uint32_t* slots = caller.g->argSlots.data() + in.args;
  if (in.opc == Opc::Repeat) {
    // Stage all returns first: a return may be a carried param (a swap).
    const unsigned carried = in.c;
    size_t total = 0;
    for (unsigned j = 0; j < carried; ++j) total += HostTensor::byteSize(*callee.returnTypes[j]);
    Frame& bf = *frames_[callee.graph->index];
    bf.staging.resize(total);
    size_t off = 0;
    for (unsigned j = 0; j < carried; ++j) {
      const size_t b = HostTensor::byteSize(*callee.returnTypes[j]);
      copyBytes(bf.staging.data() + off, calleeFrame.ptr[callee.returnSlots[j]], b);
      off += b;
    }
    off = 0;
    for (unsigned j = 0; j < carried; ++j) {
      const size_t b = HostTensor::byteSize(*callee.returnTypes[j]);
      copyBytes(ptr[slots[in.nIn + j]], bf.staging.data() + off, b);
      off += b;
    }
    if (++caller.iteration < static_cast<uint64_t>(in.count)) {
      step(in);  // an empty body still costs a step per iteration
      push(callee, repeatArgs(caller, in), nullptr);  // invalidates `caller`
      return false;
    }
  } else {  // call, conditional
    for (unsigned j = 0; j < in.nOut; ++j)
      if (ptr[slots[in.nIn + j]] != calleeFrame.ptr[callee.returnSlots[j]])  // else computed in place
        std::memmove(ptr[slots[in.nIn + j]], calleeFrame.ptr[callee.returnSlots[j]],
                     HostTensor::byteSize(*callee.returnTypes[j]));
  }
  if constexpr (kTrace) traceInstr(*caller.g, *caller.f, in, caller.started);
  return true;
}

// The instructions that call a PreparedKernel.
static bool runsKernel(Opc opc) { return opc == Opc::Kernel || opc == Opc::Fused || opc == Opc::ViewSync; }

template <bool kTrace>
bool Interpreter::loop() {
  for (;;) {
    Activation& act = stack_.back();
    const CompiledGraph& g = *act.g;
    Frame& f = *act.f;
    const Instr* code = g.code.data();
    const uint32_t n = static_cast<uint32_t>(g.code.size());
    const uint32_t* argSlots = g.argSlots.data();
    const TensorType* const* argTypes = g.argTypes.data();
    std::byte** ptr = f.ptr.data();
    uint32_t pc = act.pc;
    try {
      for (; pc < n; ++pc) {
        const Instr& in = code[pc];
        step(in);
        const uint32_t* slots = argSlots + in.args;
        // Before any push: a call's activation keeps it until the callee returns.
        if constexpr (kTrace) act.started = std::chrono::steady_clock::now();
        switch (in.opc) {
          case Opc::Kernel:
          case Opc::Fused:
          case Opc::ViewSync: {
            TensorRef* refs = f.refs.data();
            const unsigned total = in.nIn + in.nOut;
            for (unsigned i = 0; i < total; ++i) {
              refs[i].data = ptr[slots[i]];
              refs[i].type = argTypes[in.args + i];
            }
            g.kernels[in.a](refs, refs + in.nIn, kctx_);
            break;
          }
          case Opc::Print: {
            const TensorType& t = *argTypes[in.args];
            std::string line = g.strings[in.a];
            line += ": ";
            appendTensor(line, t.dtype, t.shape, ptr[slots[0]]);
            line += '\n';
            printed_.push_back(std::move(line));
            if (ptr[slots[1]] != ptr[slots[0]]) copyBytes(ptr[slots[1]], ptr[slots[0]], HostTensor::byteSize(t));
            break;
          }
          case Opc::HostLoad: {
            const Resource& r = *m_.resources[in.a];
            StreamBuffer& sb = state_.streams[in.a];
            if (!sb.fed)
              fault(in, "stream $" + r.name + " was never fed", {{r.loc, "$" + r.name + " is declared here"}});
            const size_t bytes = HostTensor::byteSize(r.type);
            int64_t& cur = cursors_[in.a];
            const std::byte* batch = std::as_const(sb.bytes).data() + (cur * numReplicas_ + replica_) * bytes;
            // b: the compiler found the value only ever read (GraphCompiler::markLoadsReadInPlace),
            // so the slot reads the batch where the stream holds it; nothing writes through it.
            if (in.b) ptr[slots[0]] = const_cast<std::byte*>(batch);
            else detail::copyTensorBytes(ptr[slots[0]], batch, bytes);
            cur = (cur + 1) % nht_;
            break;
          }
          case Opc::HostStore: {
            const Resource& r = *m_.resources[in.a];
            StreamBuffer& sb = state_.streams[in.a];
            const size_t bytes = HostTensor::byteSize(r.type);
            int64_t& cur = cursors_[in.a];
            detail::copyTensorBytes(sb.bytes.data() + (cur * numReplicas_ + replica_) * bytes, ptr[slots[0]], bytes);
            cur = (cur + 1) % nht_;
            written_[in.a] = true;
            break;
          }
          case Opc::RemoteLoad:
          case Opc::RemoteStore: {
            const Resource& r = *m_.resources[in.a];
            int64_t entry = remoteOffset(in, ptr[slots[0]], *argTypes[in.args], r);
            const size_t bytes = HostTensor::byteSize(r.type);
            // A load reads without unsharing; a store unshares the buffer first (copy-on-write).
            AlignedBytes& buffer = state_.remote[replica_][in.a];
            if (in.opc == Opc::RemoteLoad) copyBytes(ptr[slots[1]], std::as_const(buffer).data() + entry * bytes, bytes);
            else copyBytes(buffer.data() + entry * bytes, ptr[slots[1]], bytes);
            break;
          }
          case Opc::Call: {
            args_.resize(in.nIn);
            for (unsigned i = 0; i < in.nIn; ++i) args_[i] = ptr[slots[i]];
            act.pc = pc;
            push(*p_.graphs[in.a], args_.data(), outsOf(ptr, slots, in));  // invalidates `act`
            goto nextActivation;
          }
          case Opc::Repeat: {
            const CompiledGraph& body = *p_.graphs[in.a];
            // The results are the carry: they start as the first c arguments.
            for (unsigned j = 0; j < in.c; ++j)
              std::memmove(ptr[slots[in.nIn + j]], ptr[slots[j]], HostTensor::byteSize(*body.returnTypes[j]));
            if (in.count <= 0) break;
            act.pc = pc;
            act.iteration = 0;
            push(body, repeatArgs(act, in), nullptr);
            goto nextActivation;
          }
          case Opc::Cond: {
            const bool cond = *reinterpret_cast<const uint8_t*>(ptr[slots[0]]) != 0;
            if (in.op) ++branches_[in.op->uid][cond ? 0 : 1];
            const CompiledGraph& branch = *p_.graphs[cond ? in.a : in.b];
            const unsigned first = cond ? 1 : 1 + in.c;
            const unsigned count = cond ? in.c : in.nIn - 1 - in.c;
            args_.resize(count);
            for (unsigned i = 0; i < count; ++i) args_[i] = ptr[slots[first + i]];
            act.pc = pc;
            push(branch, args_.data(), outsOf(ptr, slots, in));
            goto nextActivation;
          }
          case Opc::Collective: {
            const CollectiveSpec& c = g.collectives[in.a];
            if (c.groupSize > 1) {  // park: the pool meets the group and writes the output
              act.pc = pc;
              pending_ = PendingCollective{g.graph->isMain ? kMainGraphId : static_cast<uint32_t>(g.graph->index),
                                           pc,
                                           &c,
                                           &in,
                                           ptr[slots[0]],
                                           argTypes[in.args],
                                           ptr[slots[1]],
                                           argTypes[in.args + 1]};
              return false;
            }
            CollectiveJob job{&c, argTypes[in.args], argTypes[in.args + 1], {ptr[slots[0]]}, {ptr[slots[1]]}};
            runCollective(job);
            break;
          }
        }
        if constexpr (kTrace) traceInstr(g, f, in, act.started);
      }
    } catch (const KernelError& e) {
      fault(code[pc], e.what());
    } catch (const std::bad_alloc& e) {
      // A kernel's scratch beyond the host-memory budget is the op's error, located
      // at it; other refusals (frames, staging) stay the command's.
      if (!runsKernel(code[pc].opc)) throw;
      fault(code[pc], outOfMemoryText(e));
    }
    // The graph ended: complete the caller's instruction.
    {
      const CompiledGraph& done = *act.g;
      const Frame& doneFrame = *act.f;
      stack_.pop_back();
      if (stack_.empty()) return true;
      if (returnTo<kTrace>(stack_.back(), done, doneFrame)) ++stack_.back().pc;
    }
  nextActivation:;
  }
}

// One line per executed instruction: where it is, the op, the value it produced
// (or, for host_store, the value it sent) in the format of `print` (tools.md §3,
// summarised above 1000 elements), and the wall time it took. A call's time
// includes its callee's instructions, which are traced before it.
void Interpreter::traceInstr(const CompiledGraph& g, const Frame& f, const Instr& in,
                             std::chrono::steady_clock::time_point started) {
  const auto took = std::chrono::steady_clock::now() - started;
  std::string line;
  if (numReplicas_ > 1) line += "[replica " + std::to_string(replica_) + "] ";
  line += "@" + g.name + " ";
  if (in.op && sources_) line += locationText(*sources_, in.op->loc) + " ";
  if (in.opc == Opc::Fused) line += "fused[" + fusedOpNames(g.fused[in.b]) + "]";
  else line += in.op ? std::string(in.op->info().name) : std::string(opcName(in.opc));
  auto appendValue = [&](std::string_view name, uint32_t slot, const TensorType& t) {
    line += name;
    line += ": " + t.str() + " = ";
    appendTensor(line, t.dtype, t.shape, f.ptr[slot]);
  };
  if (in.opc == Opc::Fused) {  // every slot it writes
    for (unsigned j = 0; j < in.nOut; ++j) {
      const uint32_t slot = g.argSlots[in.args + in.nIn + j];
      const Value* v = g.slots[slot].value;
      line += j ? ", " : " -> ";
      appendValue(v ? "%" + v->name : std::string("(result)"), slot, *g.argTypes[in.args + in.nIn + j]);
    }
  } else if (in.nOut > 0) {
    const uint32_t slot = g.argSlots[in.args + in.nIn];
    const Value* v = g.slots[slot].value;
    line += " -> ";
    appendValue(v ? "%" + v->name : std::string("(result)"), slot, *g.argTypes[in.args + in.nIn]);
  } else if (in.opc == Opc::HostStore) {
    line += " -> ";
    appendValue("$" + m_.resources[in.a]->name, g.argSlots[in.args], *g.argTypes[in.args]);
  }
  char time[48];
  std::snprintf(time, sizeof time, "  (%.1f us)\n", std::chrono::duration<double, std::micro>(took).count());
  line += time;
  *trace_ << line;
}


}  // namespace pir::vm
