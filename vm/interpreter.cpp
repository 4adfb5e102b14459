#include "vm/interpreter.h"

#include <cmath>
#include <cstring>

#include "ir/number_format.h"
#include "vm/format.h"
#include "vm/grouping.h"

namespace pir::vm {

Interpreter::Interpreter(const Module& m, const Program& p, DeviceState& state, int replica, std::ostream* trace,
                         const SourceManager* sources, CollectiveHub* hub)
    : m_(m),
      p_(p),
      state_(state),
      replica_(replica),
      numReplicas_(static_cast<int>(std::max<int64_t>(1, m.options.replication))),
      nht_(std::max<int64_t>(1, m.options.numHostTransfers)),
      trace_(trace),
      sources_(sources) {
  frames_.resize(p.graphs.size());
  for (size_t i = 0; i < p.graphs.size(); ++i) {
    if (!p.graphs[i]) continue;
    frames_[i].arena.resize(p.graphs[i]->arenaBytes);
    bind(*p.graphs[i], frames_[i], frames_[i].arena.data());
  }
  cursors_.assign(m.resources.size(), 0);
  written_.assign(m.resources.size(), false);
  kctx_.replica = replica;
  kctx_.numReplicas = numReplicas_;
  kctx_.out = nullptr;
  hub_ = hub;
}

// ---- collectives -------------------------------------------------------------

CollectiveHub::CollectiveHub(int replicas) : active_(replicas), inputs_(replicas), ops_(replicas) {}

bool CollectiveHub::wait(std::unique_lock<std::mutex>& lock) {
  if (left_ || aborted_) {  // a replica that stopped can never meet this collective
    aborted_ = true;
    cv_.notify_all();
    return false;
  }
  if (++arrived_ >= active_) {
    arrived_ = 0;
    ++generation_;
    cv_.notify_all();
    return true;
  }
  const uint64_t gen = generation_;
  cv_.wait(lock, [&] { return generation_ != gen || aborted_; });
  return generation_ != gen;
}

bool CollectiveHub::deposit(int replica, const Op* op, const std::byte* input) {
  std::unique_lock lock(mu_);
  inputs_[replica] = input;
  ops_[replica] = op;
  return wait(lock);
}

bool CollectiveHub::finishedReading() {
  std::unique_lock lock(mu_);
  return wait(lock);
}

void CollectiveHub::leave() {
  std::unique_lock lock(mu_);
  --active_;
  left_ = true;
  if (arrived_ > 0) {
    aborted_ = true;
    cv_.notify_all();
  }
}

void Interpreter::collective(const Instr& in, const CollectiveSpec& c, const std::byte* x, const TensorType& xt,
                             std::byte* out, const TensorType& outType) {
  ReplicaGrouping grouping(numReplicas_, Grouping{c.stride, c.groupSize});
  const std::vector<int>& members = grouping.members(grouping.groupOf(replica_));
  const int rank = grouping.rankInGroup(replica_);
  const int64_t groupSize = static_cast<int64_t>(members.size());
  auto aborted = [&] {
    RuntimeFault f(in.op, std::string(in.op ? in.op->info().name : "collective") + ": aborted");
    f.aborted = true;
    throw f;
  };
  std::vector<const std::byte*> inputs(members.size(), x);
  if (hub_) {
    if (!hub_->deposit(replica_, in.op, x)) aborted();
    for (size_t k = 0; k < members.size(); ++k) {
      inputs[k] = hub_->input(members[k]);
      if (hub_->opOf(members[k]) != in.op)
        fault(in, "replica " + std::to_string(members[k]) + " of the group reached a different collective");
    }
  } else if (groupSize != 1) {
    fault(in, "a collective over " + std::to_string(groupSize) + " replicas needs the replicas running together");
  }
  const DType t = xt.dtype;
  const int64_t n = xt.numElements();
  const size_t elem = static_cast<size_t>(dtypeSize(t));
  HostTensor result(outType);
  auto reduced = [&](int64_t i) {
    auto get = [&](size_t k) { return loadElement(inputs[k], t, i); };
    double acc = c.reduce == CollectiveSpec::Reduce::SquareAdd ? get(0) * get(0) : get(0);
    for (size_t k = 1; k < inputs.size(); ++k) {
      const double v = get(k);
      switch (c.reduce) {
        case CollectiveSpec::Reduce::Add:
        case CollectiveSpec::Reduce::Mean: acc = acc + v; break;
        case CollectiveSpec::Reduce::SquareAdd: acc = acc + v * v; break;
        case CollectiveSpec::Reduce::Mul: acc = acc * v; break;
        case CollectiveSpec::Reduce::Min: acc = std::isnan(acc) || v < acc ? (std::isnan(acc) ? acc : v) : acc; break;
        case CollectiveSpec::Reduce::Max: acc = std::isnan(acc) || v > acc ? (std::isnan(acc) ? acc : v) : acc; break;
        case CollectiveSpec::Reduce::And: acc = (acc != 0 && v != 0) ? 1 : 0; break;
        case CollectiveSpec::Reduce::Or: acc = (acc != 0 || v != 0) ? 1 : 0; break;
      }
      acc = roundToDType(acc, t);  // accumulate in the tensor's dtype, in replica order
    }
    if (c.reduce == CollectiveSpec::Reduce::Mean) acc = acc / static_cast<double>(inputs.size());
    return acc;
  };
  switch (c.kind) {
    case CollectiveSpec::Kind::AllReduce:
      for (int64_t i = 0; i < n; ++i) result.set(i, reduced(i));
      break;
    case CollectiveSpec::Kind::ReduceScatter: {
      const int64_t chunk = outType.numElements();
      for (int64_t j = 0; j < chunk; ++j) {
        const int64_t i = rank * chunk + j;
        result.set(j, i < n ? reduced(i) : 0.0);
      }
      break;
    }
    case CollectiveSpec::Kind::AllGather: {
      int64_t axis = c.axis < 0 ? c.axis + xt.rank() : c.axis;
      if (c.newAxis) axis = 0;
      int64_t outer = 1;
      for (int64_t d = 0; d < axis && d < xt.rank(); ++d) outer *= xt.shape[d];
      const size_t inner = outer ? static_cast<size_t>(n / outer) * elem : 0;
      for (int64_t o = 0; o < outer; ++o)
        for (size_t k = 0; k < inputs.size(); ++k)
          std::memcpy(result.bytes.data() + (o * groupSize + static_cast<int64_t>(k)) * inner,
                      inputs[k] + o * inner, inner);
      break;
    }
    case CollectiveSpec::Kind::Slice: {
      const int64_t axis = c.axis < 0 ? c.axis + xt.rank() : c.axis;
      int64_t outer = 1, inner = 1;
      for (int64_t d = 0; d < xt.rank(); ++d) {
        if (d < axis) outer *= xt.shape[d];
        if (d > axis) inner *= xt.shape[d];
      }
      const int64_t len = xt.rank() ? xt.shape[axis] : 1;
      const int64_t part = len / groupSize;
      const size_t bytes = static_cast<size_t>(part * inner) * elem;
      for (int64_t o = 0; o < outer; ++o)
        std::memcpy(result.bytes.data() + o * bytes, x + (static_cast<size_t>(o * len + rank * part) * inner) * elem,
                    bytes);
      break;
    }
  }
  // Nobody may overwrite an input (an in-place all-reduce) before all have read.
  if (hub_ && !hub_->finishedReading()) aborted();
  std::memcpy(out, result.data(), result.bytes.size());
}

void Interpreter::bind(const CompiledGraph& g, Frame& f, std::byte* arena) {
  f.ptr.assign(g.slots.size(), nullptr);
  f.refs.resize(g.maxOperands);
  for (size_t s = 0; s < g.slots.size(); ++s) {
    const SlotInfo& info = g.slots[s];
    switch (info.kind) {
      case SlotInfo::Kind::Arena: f.ptr[s] = arena + info.offset; break;
      case SlotInfo::Kind::Param: f.ptr[s] = info.copied ? arena + info.offset : nullptr; break;
      case SlotInfo::Kind::Const:
        f.ptr[s] = const_cast<std::byte*>(g.constants[info.index].bytes.data());
        break;
      case SlotInfo::Kind::Var: f.ptr[s] = state_.vars[replica_][info.index].bytes.data(); break;
    }
  }
}

void Interpreter::runMain() {
  std::fill(cursors_.begin(), cursors_.end(), 0);
  std::fill(written_.begin(), written_.end(), false);
  printed_.clear();
  const CompiledGraph& g = *p_.main;
  bind(g, mainFrame_, state_.mainValues[replica_].data());
  if (trace_) exec<true>(g, mainFrame_);
  else exec<false>(g, mainFrame_);
}

const std::vector<std::byte*>& Interpreter::runDetached(const CompiledGraph& g, AlignedBytes& frameArena) {
  std::fill(cursors_.begin(), cursors_.end(), 0);
  frameArena.resize(g.arenaBytes);
  bind(g, mainFrame_, frameArena.data());
  exec<false>(g, mainFrame_);
  return mainFrame_.ptr;
}

void Interpreter::fault(const Instr& in, std::string msg, std::vector<Note> notes) {
  std::string text = std::string(in.op ? in.op->info().name : "vm") + ": " + msg;
  if (numReplicas_ > 1) text += " (replica " + std::to_string(replica_) + ")";
  throw RuntimeFault(in.op, std::move(text), std::move(notes));
}

void Interpreter::invoke(const CompiledGraph& callee, const std::byte* const* args) {
  Frame& f = frames_[callee.graph->index];
  for (size_t i = 0; i < callee.paramSlots.size(); ++i) {
    uint32_t slot = callee.paramSlots[i];
    const SlotInfo& info = callee.slots[slot];
    if (info.copied) std::memcpy(f.ptr[slot], args[i], info.bytes);
    else f.ptr[slot] = const_cast<std::byte*>(args[i]);
  }
  if (trace_) exec<true>(callee, f);
  else exec<false>(callee, f);
}

int64_t Interpreter::remoteOffset(const Instr& in, const std::byte* p, const TensorType& t, const Resource& r) {
  double v = loadElement(p, t.dtype, 0);
  if (!(v >= 0 && v < static_cast<double>(r.entries)))
    fault(in, "offset " + formatNumber(v, t.dtype) + " is out of range for $" + r.name + " with " +
                  std::to_string(r.entries) + (r.entries == 1 ? " entry" : " entries"));
  return static_cast<int64_t>(v);
}

template <bool kTrace>
void Interpreter::exec(const CompiledGraph& g, Frame& f) {
  const Instr* code = g.code.data();
  const size_t n = g.code.size();
  const uint32_t* argSlots = g.argSlots.data();
  const TensorType* const* argTypes = g.argTypes.data();
  std::byte** ptr = f.ptr.data();
  size_t pc = 0;
  try {
    for (; pc < n; ++pc) {
      const Instr& in = code[pc];
      const uint32_t* slots = argSlots + in.args;
      switch (in.opc) {
        case Opc::Kernel: {
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
          if (ptr[slots[1]] != ptr[slots[0]]) std::memcpy(ptr[slots[1]], ptr[slots[0]], HostTensor::byteSize(t));
          break;
        }
        case Opc::HostLoad: {
          const Resource& r = *m_.resources[in.a];
          StreamBuffer& sb = state_.streams[in.a];
          if (!sb.fed)
            fault(in, "stream $" + r.name + " was never fed", {{r.loc, "$" + r.name + " is declared here"}});
          const size_t bytes = HostTensor::byteSize(r.type);
          int64_t& cur = cursors_[in.a];
          std::memcpy(ptr[slots[0]], sb.bytes.data() + (cur * numReplicas_ + replica_) * bytes, bytes);
          cur = (cur + 1) % nht_;
          break;
        }
        case Opc::HostStore: {
          const Resource& r = *m_.resources[in.a];
          StreamBuffer& sb = state_.streams[in.a];
          const size_t bytes = HostTensor::byteSize(r.type);
          int64_t& cur = cursors_[in.a];
          std::memcpy(sb.bytes.data() + (cur * numReplicas_ + replica_) * bytes, ptr[slots[0]], bytes);
          cur = (cur + 1) % nht_;
          written_[in.a] = true;
          break;
        }
        case Opc::RemoteLoad:
        case Opc::RemoteStore: {
          const Resource& r = *m_.resources[in.a];
          int64_t entry = remoteOffset(in, ptr[slots[0]], *argTypes[in.args], r);
          const size_t bytes = HostTensor::byteSize(r.type);
          std::byte* home = state_.remote[replica_][in.a].data() + entry * bytes;
          if (in.opc == Opc::RemoteLoad) std::memcpy(ptr[slots[1]], home, bytes);
          else std::memcpy(home, ptr[slots[1]], bytes);
          break;
        }
        case Opc::Call: {
          const CompiledGraph& callee = *p_.graphs[in.a];
          // Argument pointers on the stack for the usual small calls (no allocation).
          const std::byte* small[16];
          std::vector<const std::byte*> large(in.nIn > 16 ? in.nIn : 0);
          const std::byte** args = in.nIn > 16 ? large.data() : small;
          for (unsigned i = 0; i < in.nIn; ++i) args[i] = ptr[slots[i]];
          invoke(callee, args);
          const Frame& cf = frames_[in.a];
          for (unsigned j = 0; j < in.nOut; ++j)
            std::memmove(ptr[slots[in.nIn + j]], cf.ptr[callee.returnSlots[j]],
                         HostTensor::byteSize(*callee.returnTypes[j]));
          break;
        }
        case Opc::Repeat: {
          const CompiledGraph& body = *p_.graphs[in.a];
          const unsigned carried = in.c;
          // The results are the carry: they start as the first N arguments.
          for (unsigned j = 0; j < carried; ++j)
            std::memmove(ptr[slots[in.nIn + j]], ptr[slots[j]], HostTensor::byteSize(*body.returnTypes[j]));
          if (in.b == 0) break;
          std::vector<const std::byte*> args(in.nIn);
          for (unsigned j = 0; j < in.nIn; ++j) args[j] = j < carried ? ptr[slots[in.nIn + j]] : ptr[slots[j]];
          size_t total = 0;
          for (unsigned j = 0; j < carried; ++j) total += HostTensor::byteSize(*body.returnTypes[j]);
          Frame& bf = frames_[in.a];
          for (uint32_t it = 0; it < in.b; ++it) {
            invoke(body, args.data());
            // Stage all returns first: a return may be a carried param (a swap).
            bf.staging.resize(total);
            size_t off = 0;
            for (unsigned j = 0; j < carried; ++j) {
              size_t b = HostTensor::byteSize(*body.returnTypes[j]);
              std::memcpy(bf.staging.data() + off, bf.ptr[body.returnSlots[j]], b);
              off += b;
            }
            off = 0;
            for (unsigned j = 0; j < carried; ++j) {
              size_t b = HostTensor::byteSize(*body.returnTypes[j]);
              std::memcpy(ptr[slots[in.nIn + j]], bf.staging.data() + off, b);
              off += b;
            }
          }
          break;
        }
        case Opc::Cond: {
          const bool cond = *reinterpret_cast<const uint8_t*>(ptr[slots[0]]) != 0;
          const uint32_t graphIndex = cond ? in.a : in.b;
          const CompiledGraph& branch = *p_.graphs[graphIndex];
          const unsigned first = cond ? 1 : 1 + in.c;
          const unsigned count = cond ? in.c : in.nIn - 1 - in.c;
          const std::byte* small[16];
          std::vector<const std::byte*> large(count > 16 ? count : 0);
          const std::byte** args = count > 16 ? large.data() : small;
          for (unsigned i = 0; i < count; ++i) args[i] = ptr[slots[first + i]];
          invoke(branch, args);
          const Frame& bf = frames_[graphIndex];
          for (unsigned j = 0; j < in.nOut; ++j)
            std::memmove(ptr[slots[in.nIn + j]], bf.ptr[branch.returnSlots[j]],
                         HostTensor::byteSize(*branch.returnTypes[j]));
          break;
        }
        case Opc::Collective:
          collective(in, g.collectives[in.a], ptr[slots[0]], *argTypes[in.args], ptr[slots[1]],
                     *argTypes[in.args + 1]);
          break;
        case Opc::Unsupported:
          fault(in, "this op is not executable by the VM yet");
      }
      if constexpr (kTrace) traceInstr(g, f, in);
    }
  } catch (const KernelError& e) {
    fault(code[pc], e.what());
  }
}

void Interpreter::traceInstr(const CompiledGraph& g, const Frame& f, const Instr& in) {
  std::string line;
  if (numReplicas_ > 1) line += "[replica " + std::to_string(replica_) + "] ";
  line += "@" + g.name + " ";
  if (in.op && sources_) line += locationText(*sources_, in.op->loc) + " ";
  line += in.op ? std::string(in.op->info().name) : std::string(opcName(in.opc));
  if (in.nOut > 0) {
    const uint32_t slot = g.argSlots[in.args + in.nIn];
    const TensorType& t = *g.argTypes[in.args + in.nIn];
    const Value* v = g.slots[slot].value;
    line += " -> ";
    if (v) line += "%" + v->name + ": ";
    line += t.str() + " = ";
    const int64_t n = t.numElements();
    if (t.shape.empty()) {
      appendNumber(line, loadElement(f.ptr[slot], t.dtype, 0), t.dtype);
    } else {
      line += "[";
      const int64_t shown = std::min<int64_t>(n, 8);
      for (int64_t i = 0; i < shown; ++i) {
        if (i) line += ", ";
        appendNumber(line, loadElement(f.ptr[slot], t.dtype, i), t.dtype);
      }
      if (shown < n) line += ", ...";
      line += "]";
    }
  }
  line += '\n';
  *trace_ << line;
}

template void Interpreter::exec<true>(const CompiledGraph&, Frame&);
template void Interpreter::exec<false>(const CompiledGraph&, Frame&);

}  // namespace pir::vm
