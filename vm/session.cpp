#include "vm/session.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_map>
#include <utility>
#include <unordered_set>

#include "device/device_model.h"
#include "ir/grouping.h"
#include "ir/op_attrs.h"
#include "ir/checked_math.h"
#include "ir/interrupt.h"
#include "vm/compiler.h"
#include "vm/device.h"
#include "vm/format.h"
#include "vm/host_memory.h"
#include "vm/npy.h"
#include "vm/process_agreement.h"
#include "vm/replica_pool.h"
#include "vm/tensor.h"

namespace pir::vm {

struct Session::State {
  DeviceState dev;
  std::vector<const Value*> vars;  // the variable of each dev.vars[r] index
  std::vector<uint64_t> varUids;   // their Value::uid (identity across recompiles)
  size_t validOps = 0;             // main ops (a prefix) whose values are from the last run
  bool scattered = false;          // MPI: other processes hold their replicas' latest values
};

struct Session::Snapshot {
  State state;
  std::shared_ptr<Program> program;
  std::vector<uint64_t> compiledOps;
  uint64_t compiledGeneration = 0;
  const Module* compiledModule = nullptr;
  std::vector<const Resource*> lastWritten;
};

Session::Session(Module& module, DiagnosticEngine& diags, std::ostream& out, SessionOptions options)
    : mp_(&module), diags_(diags), out_(out), options_(options), st_(std::make_unique<State>()),
      stepsLeft_(options.maxSteps) {}

Session::~Session() = default;

namespace {

// Main-graph op uid -> position in the op list.
std::unordered_map<uint64_t, size_t> mainPositions(const Graph& main) {
  std::unordered_map<uint64_t, size_t> pos;
  pos.reserve(main.ops.size());
  for (size_t k = 0; k < main.ops.size(); ++k) pos.emplace(main.ops[k]->uid, k);
  return pos;
}

int replicasOf(const Module& m) { return static_cast<int>(std::max<int64_t>(1, m.options.replication)); }

// The attributes of a `var` (or `const`, which has none).
using DeclAttrs = attrs::View<attrs::ops(OpCode::Var, OpCode::Const)>;

// The variable's replica grouping (all replicas in one group when absent).
ReplicaGroups groupingOf(const Module& m, const Value& v, DiagnosticEngine& diags) {
  const int64_t R = replicasOf(m);
  const Attr* a = v.def ? DeclAttrs(*v.def).replica_grouping() : nullptr;
  ReplicaGrouping g = readGrouping(a, R);
  // The verifier rejects these first; a module built by a pass is checked again here.
  if (auto why = groupingError(g, R)) diags.fail(a && a->loc.valid() ? a->loc : v.loc, "var %" + v.name + ": " + *why);
  return ReplicaGroups(R, g);
}

bool allReplicasRetrieval(const Value& v) {
  return v.def && DeclAttrs(*v.def).retrieval() == Retrieval::AllReplicas;
}

// The remote home of a remote variable (`remote = $b, offset = k`), if any.
struct RemoteHome {
  const Resource* buffer = nullptr;
  int64_t offset = 0;
};
RemoteHome remoteHomeOf(const Module& m, const Value& v) {
  RemoteHome h;
  if (!v.def) return h;
  const DeclAttrs a(*v.def);
  if (const std::optional<std::string_view> remote = a.remote()) h.buffer = m.findResource(std::string(*remote));
  h.offset = a.offset().value_or(0);
  return h;
}

// The type of a grouped variable's INIT / write data: [num_groups] + S when num_groups > 1.
TensorType groupedType(const TensorType& t, int64_t groups) {
  TensorType g = t;
  if (groups > 1) g.shape.insert(g.shape.begin(), groups);
  return g;
}

}  // namespace

FailureOr<const Program*> Session::program() {
  if (catchReported([&] { ensureReady(); }).failed()) return failure();
  return program_.get();
}

// INIT of variable `v` as one tensor ([num_groups] + S when grouped). A value a
// preview materialized since the last compile is adopted (shared, not copied
// again): defining a variable in the REPL costs it once, echo included.
HostTensor Session::initialValue(const Value& v, const ReplicaGroups& grouping) {
  TensorType initType = groupedType(v.type, grouping.numGroups());
  const auto seed = static_cast<uint32_t>(mp_->options.seed);
  if (auto it = previewInits_.find(v.uid); it != previewInits_.end()) {
    PreviewInit kept = std::move(it->second);
    previewInits_.erase(it);
    if (kept.seed == seed && kept.value.type == initType) return std::move(kept.value);
  }
  checkFitsDevice(initType, mp_->options, "%" + v.name, v.loc, diags_);
  return v.def && v.def->init() ? materialize(*v.def->init(), initType, seed, "%" + v.name, diags_) : HostTensor(initType);
}

void Session::initVariable(size_t index, State& st) {
  const Value& v = *st.vars[index];
  const int R = replicasOf(*mp_);
  ReplicaGroups grouping = groupingOf(*mp_, v, diags_);
  const HostTensor init = initialValue(v, grouping);
  const size_t bytes = HostTensor::byteSize(v.type);
  RemoteHome home = remoteHomeOf(*mp_, v);
  for (int r = 0; r < R; ++r) {
    HostTensor& t = st.dev.vars[r][index];
    if (grouping.numGroups() > 1) {
      t = HostTensor(v.type);
      copyBytes(t.data(), std::as_const(init).bytes.data() + static_cast<size_t>(grouping.groupOf(r)) * bytes, bytes);
    } else {
      t = init;  // one group: every replica shares the initial value until it writes (copy-on-write)
    }
    if (home.buffer && home.offset >= 0 && home.offset < home.buffer->entries &&
        home.buffer->type == v.type)
      copyBytes(st.dev.remote[r][home.buffer->index].data() + home.offset * bytes, std::as_const(t).data(), bytes);
  }
}

void Session::ensureReady() {
  const Graph& main = *mp_->main;
  // The bytecode is stale when the module changed in any way (its generation),
  // including an in-place rewrite by a pass. Main ops are recognised by uid, so
  // the values of an unchanged leading run of them carry over.
  const bool changed = !program_ || compiledGeneration_ != mp_->generation || compiledModule_ != mp_;
  size_t prefix = 0;
  if (changed)
    while (prefix < compiledOps_.size() && prefix < main.ops.size() && compiledOps_[prefix] == main.ops[prefix]->uid)
      ++prefix;

  const int R = replicasOf(*mp_);
  // Check every host buffer, and their total against the host-memory budget,
  // first: sizing below then fails only if the rest of the session's memory does.
  uint64_t hostBufferTotal = 0;
  for (const auto& res : mp_->resources) {
    const Resource& r = *res;
    const int64_t slots = r.kind == Resource::Kind::RemoteBuffer ? r.entries : mp_->options.numHostTransfers;
    hostBufferTotal = checkHostBuffer(r.type, saturatingMul(static_cast<uint64_t>(std::max<int64_t>(1, slots)), R),
                                      mp_->options, "$" + r.name, r.loc, diags_, hostBufferTotal);
  }
  // Buffers of resources declared since the last call (existing ones keep their data).
  auto sizeBuffers = [&](DeviceState& dev) {
    dev.remote.resize(R);
    dev.streams.resize(mp_->resources.size());
    for (auto& rr : dev.remote) rr.resize(mp_->resources.size());
    for (const auto& res : mp_->resources) {
      const Resource& r = *res;
      if (r.kind == Resource::Kind::RemoteBuffer) {
        const size_t want = HostTensor::byteSize(r.type) * static_cast<size_t>(std::max<int64_t>(1, r.entries));
        for (int rep = 0; rep < R; ++rep)
          if (dev.remote[rep][r.index].size() != want) dev.remote[rep][r.index].resize(want);
      } else {
        const size_t want = HostTensor::byteSize(mp_->hostBufferType(r));
        if (dev.streams[r.index].bytes.size() != want) dev.streams[r.index] = StreamBuffer{AlignedBytes(want), false};
      }
    }
  };
  if (!changed) {
    sizeBuffers(st_->dev);
    return;
  }
  // Everything is built in `ns` and committed only when nothing failed.
  State ns;
  const State& old = *st_;
  ns.dev.streams = old.dev.streams;
  ns.dev.remote = old.dev.remote;
  sizeBuffers(ns.dev);

  // The graph-compile out-of-memory check of runtime.md §7, before anything is built.
  // Reported already on failure: unwind to the public call, as diags_.fail does.
  if (device::checkDeviceMemory(*mp_, diags_).failed()) throw CompileError(diags_.all().back());
  CompileOptions compileOptions;
  compileOptions.fuseElementwise = options_.fuseElementwise;
  compileOptions.keptMainNames = options_.keptMainNames ? &*options_.keptMainNames : nullptr;
  std::shared_ptr<const Module> lowered = options_.lowering ? options_.lowering(*mp_, diags_) : nullptr;
  FailureOr<std::unique_ptr<Program>> compiled = compileProgram(lowered ? *lowered : *mp_, diags_, compileOptions);
  // Reported already: unwind to the public call, as diags_.fail does.
  if (compiled.failed()) throw CompileError(diags_.all().back());
  std::shared_ptr<Program> p = std::move(*compiled);
  p->lowered = std::move(lowered);
  ++counters_.programCompiles;
  {
    // Frames (main values kept whole, subgraph arenas), variables and the
    // bookkeeping around them, for every replica.
    uint64_t perReplica = saturatingAdd(p->main->arenaBytes, replicaBookkeepingBytes(*mp_, *p));
    for (auto& g : p->graphs)
      if (g) perReplica = saturatingAdd(perReplica, g->arenaBytes);
    for (const Value* v : p->variables) perReplica = saturatingAdd(perReplica, tensorBytes(v->type));
    const uint64_t needed = saturatingAdd(saturatingMul(perReplica, static_cast<uint64_t>(R)), hostBufferTotal);
    if (needed > hostMemoryLimit())
      diags_.fail(main.ops.empty() ? SourceLoc{} : main.ops.back()->loc,
                  "the program needs " + std::to_string(perReplica) + " bytes per replica × " + std::to_string(R) +
                      " replicas plus " + std::to_string(hostBufferTotal) +
                      " bytes of host buffers to emulate, more than the host memory budget of " +
                      std::to_string(hostMemoryLimit()) + " bytes (--max-memory=BYTES or PIR_MAX_MEMORY raise it)");
  }
  ns.vars = p->variables;
  ns.dev.vars.assign(R, std::vector<HostTensor>(ns.vars.size()));
  // Keep the values of variables that survive (their declaration is in the unchanged prefix).
  std::unordered_map<uint64_t, size_t> oldIndex;
  for (size_t i = 0; i < old.varUids.size(); ++i) oldIndex[old.varUids[i]] = i;
  for (const Value* v : ns.vars) ns.varUids.push_back(v->uid);
  for (size_t i = 0; i < ns.vars.size(); ++i) {
    const Value* v = ns.vars[i];
    auto it = oldIndex.find(v->uid);
    const bool survives = it != oldIndex.end() && old.dev.vars.size() == size_t(R) &&
                          old.dev.vars[0][it->second].type == v->type;
    if (survives) {
      for (int r = 0; r < R; ++r) ns.dev.vars[r][i] = old.dev.vars[r][it->second];
    } else {
      initVariable(i, ns);
    }
  }
  previewInits_.clear();  // the rest belong to variables the program no longer declares
  // Carry the last run's main-graph values that are still valid.
  ns.validOps = std::min(old.validOps, prefix);
  // Without a run since the last compile the old arena holds nothing printable: it is
  // freed before the new one is allocated (both at once would double the values'
  // memory on every REPL statement). st_ stays consistent if what follows fails.
  if (old.validOps == 0)
    for (AlignedBytes& values : st_->dev.mainValues) values = AlignedBytes();
  ns.dev.mainValues.resize(R);
  for (int r = 0; r < R; ++r) ns.dev.mainValues[r].resize(p->main->arenaBytes);
  if (program_ && ns.validOps > 0) {
    std::unordered_map<uint64_t, size_t> position = mainPositions(main);
    const CompiledGraph& oldMain = *program_->main;
    const CompiledGraph& newMain = *p->main;
    for (size_t s = 0; s < newMain.slots.size(); ++s) {
      const SlotInfo& info = newMain.slots[s];
      if (info.kind != SlotInfo::Kind::Arena || !info.kept || !info.value || !info.value->def) continue;
      auto pos = position.find((info.value->def->enclosing() ? info.value->def->enclosing() : info.value->def)->uid);
      if (pos == position.end() || pos->second >= ns.validOps || info.value->id >= oldMain.valueSlot.size()) continue;
      uint32_t os = oldMain.valueSlot[info.value->id];
      if (os == kNoSlot || oldMain.slots[os].kind != SlotInfo::Kind::Arena || !oldMain.slots[os].kept) continue;
      const size_t bytes = std::min(info.bytes, oldMain.slots[os].bytes);
      for (int r = 0; r < R && r < static_cast<int>(old.dev.mainValues.size()); ++r)
        copyBytes(ns.dev.mainValues[r].data() + info.offset, old.dev.mainValues[r].data() + oldMain.slots[os].offset,
                    bytes);
    }
  }
  if (processCommunicator().processes() > 1) checkSameProgramAcrossProcesses(*p, ns);
  program_ = std::move(p);
  *st_ = std::move(ns);
  compiledOps_.clear();
  for (auto& op : main.ops) compiledOps_.push_back(op->uid);
  compiledGeneration_ = mp_->generation;
  compiledModule_ = mp_;
}

// Under MPI: the same program and the same loaded data in every process
// (vm/process_agreement.h), before any of it runs.
void Session::checkSameProgramAcrossProcesses(const Program& p, const State& ns) {
  std::unordered_map<uint64_t, size_t> varIndex;  // by uid: the program may be a lowered copy's
  for (size_t i = 0; i < ns.varUids.size(); ++i) varIndex[ns.varUids[i]] = i;
  auto loadedData = [&](const Op& op) -> uint64_t {
    if (!op.init() || op.init()->kind != Literal::Kind::Load || op.results.empty()) return 0;
    const Value* v = op.results[0];
    if (auto it = varIndex.find(v->uid); it != varIndex.end()) {
      uint64_t h = 0;
      const std::byte* previous = nullptr;  // replicas of one group share their buffer
      for (const auto& replica : ns.dev.vars) {
        const AlignedBytes& b = replica[it->second].bytes;
        if (b.data() == previous) continue;
        previous = b.data();
        h = hashBytes(b.data(), b.size(), h);
      }
      return h;
    }
    const CompiledGraph* g = op.parent && !op.parent->isMain && op.parent->index < p.graphs.size()
                                 ? p.graphs[op.parent->index].get()
                                 : p.main.get();
    if (g && v->id < g->valueSlot.size() && g->valueSlot[v->id] != kNoSlot) {
      const SlotInfo& slot = g->slots[g->valueSlot[v->id]];
      if (slot.kind == SlotInfo::Kind::Const && slot.index < g->constants.size()) {
        const AlignedBytes& b = g->constants[slot.index].bytes;
        return hashBytes(b.data(), b.size());
      }
    }
    return 0;
  };
  const std::string compiledAs =
      options_.fuseElementwise ? "compiled with elementwise fusion" : "compiled without elementwise fusion (--no-fuse)";
  checkSameProgram(*mp_, compiledAs, loadedData, processCommunicator(), diags_);
}

// ---- commands ----------------------------------------------------------------

LogicalResult Session::command(const SessionCommand& cmd) {
  return catchReported([&] {
    try {
      commandUnchecked(cmd);
    } catch (const std::bad_alloc& e) {
      // The host-memory budget (or the allocator) refused a buffer: nothing was
      // committed (state is built aside and swapped in), so the session is as before.
      diags_.fail(cmd.loc, outOfMemoryText(e));
    }
  });
}

void Session::commandUnchecked(const SessionCommand& cmd) {
  switch (cmd.kind) {
    case SessionCommand::Kind::Feed:
      if (cmd.data) feedLiteral(cmd.target, *cmd.data, cmd.loc);
      break;
    case SessionCommand::Kind::Run: runTimes(cmd.count, cmd.loc); break;
    case SessionCommand::Kind::Print:
      for (size_t i = 0; i < cmd.names.size(); ++i)
        printValue(cmd.names[i], i < cmd.nameLocs.size() ? cmd.nameLocs[i] : cmd.loc);
      break;
    case SessionCommand::Kind::Write:
      if (cmd.data) writeVariable(cmd.target, *cmd.data, cmd.loc);
      break;
    case SessionCommand::Kind::Save:
      for (size_t i = 0; i < cmd.names.size(); ++i)
        saveValue(cmd.names[i], cmd.resolvedPath.empty() ? cmd.path : cmd.resolvedPath,
                  i < cmd.nameLocs.size() ? cmd.nameLocs[i] : cmd.loc);
      break;
  }
}

LogicalResult Session::runDefault() {
  return catchReported([&] {
    try {
      runTimes(1, {});
    } catch (const std::bad_alloc& e) {
      diags_.fail(mp_->main->loc, outOfMemoryText(e));
    }
    // Every d2h stream, a stream the run did not write included (its zeros).
    for (const auto& r : mp_->resources)
      if (r->kind == Resource::Kind::D2H) {
        HostTensor t = valueOf("$" + r->name, r->loc, false);
        out_ << formatValueLine("$" + r->name, t.type.dtype, t.type.shape, std::as_const(t).data()) << '\n';
      }
    out_.flush();
  });
}

LogicalResult Session::run(int64_t times, SourceLoc loc) {
  return catchReported([&] { runTimes(times, loc); });
}

void Session::runTimes(int64_t times, SourceLoc loc) {
  stateChanged();  // variables change
  for (int64_t i = 0; i < times; ++i) {
    // Ctrl-C between runs too: `run N` of a short program may never reach a slice end.
    if (interruptRequested()) diags_.fail(loc, std::string("run: ") + kInterruptedMessage);
    // A run spends at least one step (runReplicaSet), so `run N` of a program with
    // no work is bounded by the budget too.
    if (options_.maxSteps && stepsLeft_ == 0) diags_.fail(loc, "run: the step budget is spent: a run needs 1 step, 0 left");
    runOnce(loc);
  }
}

// ---- the replicas of a run (vm/replica_pool.h) ------------------------------

void Session::runReplicaSet(SourceLoc loc, std::vector<ReplicaOutcome>& outcomes) {
  Communicator& comm = processCommunicator();
  const int64_t R = replicasOf(*mp_);
  if (R % comm.processes() != 0)
    diags_.fail(mp_->options.present ? mp_->options.loc : loc,
                "replication = " + std::to_string(R) + " cannot be divided over " + std::to_string(comm.processes()) +
                    " MPI processes: the replica count must be a multiple of the process count");
  // The machine's thread count is read once per session: the query reads sysfs
  // (several system calls), which would cost most of a small run.
  if (resolvedThreads_ == 0) resolvedThreads_ = options_.threads > 0 ? options_.threads : defaultThreads(comm);
  const int threads = resolvedThreads_;
  runReplicas(*mp_, *program_, st_->dev, &diags_.sources(), options_.trace != nullptr, threads, comm, outcomes,
              stepBudget(), &replicaCosts_);
  uint64_t taken = 0;  // the budget is per replica: the busiest one spent this much
  for (const ReplicaOutcome& o : outcomes) taken = std::max(taken, o.stepsTaken);
  tookSteps(std::max<uint64_t>(taken, 1));  // a run is a step even with no instruction
  // Each process now holds only its own replicas' results; print / save gather them.
  if (comm.processes() > 1) st_->scattered = true;
}

void Session::gatherReplicas() {
  if (!st_->scattered) return;
  processCommunicator().shareState(st_->dev, *mp_);
  st_->scattered = false;
}

void Session::runOnce(SourceLoc loc) {
  ensureReady();
  const int R = replicasOf(*mp_);
  const CompiledGraph& main = *program_->main;
  // The backup: what the run may write (its write set, vm/write_set.h), restored if
  // it fails. It shares the buffers with the state (copy-on-write, vm/tensor.h), so
  // it costs a copy of exactly the variables, remote buffers and d2h streams the
  // run writes, when it writes them. Main values are recomputed by the run, so a
  // shared arena is replaced instead of copied. Without restoreOnFailure (the
  // caller stops at the first error) nothing is kept.
  DeviceState backup;
  const bool restore = options_.restoreOnFailure;
  if (restore) {
    backup.vars.resize(R);
    backup.remote.resize(R);
    for (int r = 0; r < R; ++r) {
      for (uint32_t v : main.writtenVars) backup.vars[r].push_back(st_->dev.vars[r][v]);
      for (uint32_t b : main.writtenRemote) backup.remote[r].push_back(st_->dev.remote[r][b]);
    }
    for (uint32_t s : main.writtenStreams) backup.streams.push_back(st_->dev.streams[s]);
    backup.mainValues = st_->dev.mainValues;
  }
  // Unshared here, before any replica thread starts: a stream buffer (written by
  // every replica's thread) and the variables the run writes (so that running out
  // of memory for their copies is reported at the command). Remote buffers are
  // unshared by their first remote_store, if the run reaches one.
  try {
    for (uint32_t s : main.writtenStreams) st_->dev.streams[s].bytes.data();
    for (int r = 0; r < R; ++r)
      for (uint32_t v : main.writtenVars) st_->dev.vars[r][v].bytes.data();
    for (AlignedBytes& values : st_->dev.mainValues) {
      if (values.size() != main.arenaBytes) values.resize(main.arenaBytes);  // dropped while nothing was printable
      else values.discardIfShared();
    }
  } catch (const std::bad_alloc&) {
    // Unsharing changes no value, but a replaced arena lost the last run's values.
    if (restore) st_->dev.mainValues = std::move(backup.mainValues);
    throw;
  }
  const size_t backupValidOps = st_->validOps;
  std::vector<ReplicaOutcome> outcomes;
  runReplicaSet(loc, outcomes);

  // Deterministic output: replica 0's lines, then replica 1's, ...
  for (int r = 0; r < R; ++r) {
    for (const std::string& line : outcomes[r].printed)
      out_ << (R > 1 ? "[replica " + std::to_string(r) + "] " : std::string()) << line;
    if (options_.trace) *options_.trace << outcomes[r].trace;
  }
  out_.flush();

  // The lowest replica's real fault; a replica aborted at a collective only
  // matters when no replica failed (then the replicas diverged).
  const RuntimeFault* first = nullptr;
  for (int r = 0; r < R && !first; ++r)
    if (outcomes[r].fault && !outcomes[r].fault->aborted) first = &*outcomes[r].fault;
  for (int r = 0; r < R && !first; ++r)
    if (outcomes[r].fault) first = &*outcomes[r].fault;
  if (first) {
    RuntimeFault f = *first;
    if (restore) {
      for (int r = 0; r < R; ++r) {
        for (size_t i = 0; i < main.writtenVars.size(); ++i)
          st_->dev.vars[r][main.writtenVars[i]] = std::move(backup.vars[r][i]);
        for (size_t i = 0; i < main.writtenRemote.size(); ++i)
          st_->dev.remote[r][main.writtenRemote[i]] = std::move(backup.remote[r][i]);
      }
      for (size_t i = 0; i < main.writtenStreams.size(); ++i)
        st_->dev.streams[main.writtenStreams[i]] = std::move(backup.streams[i]);
      st_->dev.mainValues = std::move(backup.mainValues);
      st_->validOps = backupValidOps;
    } else {
      st_->validOps = 0;  // partly computed: no value is printable
      lastWritten_.clear();
    }
    std::string msg = f.what();
    if (f.aborted) msg += ": not every replica of the group reached this collective";
    diags_.fail(f.loc.valid() ? f.loc : loc, msg, f.notes);
  }
  st_->validOps = mp_->main->ops.size();
  lastWritten_.clear();
  if (!outcomes.empty())
    for (const auto& [uid, counts] : outcomes[0].branches)
      for (size_t k = 0; k < 2; ++k) branchExecutions_[uid][k] += counts[k];
  for (const auto& res : mp_->resources) {
    if (res->kind != Resource::Kind::D2H) continue;
    for (int r = 0; r < R; ++r)
      if (res->index < outcomes[r].written.size() && outcomes[r].written[res->index]) {
        lastWritten_.push_back(res.get());
        st_->dev.streams[res->index].written = true;
        break;
      }
  }
}

const Resource* Session::resourceNamed(const std::string& name, SourceLoc loc) const {
  const Resource* r = mp_->findResource(name);
  if (!r) diags_.fail(loc, "unknown stream or buffer $" + name);
  return r;
}

const Value* Session::mainValueNamed(const std::string& name, SourceLoc loc) const {
  const Value* v = mp_->main->lookup(name);
  if (!v) diags_.fail(loc, "unknown main-graph value %" + name);
  return v;
}

const std::byte* Session::mainValueData(const Value& v, int replica) const {
  const CompiledGraph& g = *program_->main;
  if (v.id >= g.valueSlot.size() || g.valueSlot[v.id] == kNoSlot) return nullptr;
  const SlotInfo& s = g.slots[g.valueSlot[v.id]];
  switch (s.kind) {
    case SlotInfo::Kind::Arena: return s.kept ? std::as_const(st_->dev.mainValues[replica]).data() + s.offset : nullptr;
    case SlotInfo::Kind::Const: return g.constants[s.index].bytes.data();
    case SlotInfo::Kind::Var: return std::as_const(st_->dev.vars[replica][s.index].bytes).data();
    case SlotInfo::Kind::Param: return nullptr;
  }
  return nullptr;
}

LogicalResult Session::feed(const std::string& stream, const Literal& data, SourceLoc loc) {
  return catchReported([&] { feedLiteral(stream, data, loc); });
}

void Session::feedLiteral(const std::string& stream, const Literal& data, SourceLoc loc) {
  const Resource* r = resourceNamed(stream, loc);
  if (r->kind != Resource::Kind::H2D)
    diags_.fail(loc, "feed: $" + stream + " is not an h2d stream");
  ensureReady();
  TensorType bt = mp_->hostBufferType(*r);
  if (data.isScalar() && bt.numElements() != 1)
    diags_.fail(data.loc, "feed $" + stream + ": expected data of shape " + shapeToString(bt.shape) +
                              " (the stream buffer " + bt.str() + "), got a scalar");
  if (data.kind == Literal::Kind::Data && !data.isScalar() && !data.listFits(bt.shape))
    diags_.fail(data.loc, "feed $" + stream + ": expected data of shape " + shapeToString(bt.shape) +
                              " (the stream buffer " + bt.str() + "), got " + shapeToString(data.shape));
  if (data.kind != Literal::Kind::Data && data.kind != Literal::Kind::Load)
    diags_.fail(data.loc, "feed $" + stream + ": expected data or load(\"file.npy\")");
  HostTensor t = materialize(data, bt, static_cast<uint32_t>(mp_->options.seed), "feed $" + stream, diags_);
  checkSameData(std::as_const(t).data(), t.bytes.size(), "feed $" + stream, data.loc.valid() ? data.loc : loc,
                processCommunicator(), diags_);
  StreamBuffer& sb = st_->dev.streams[r->index];
  sb.bytes.discardIfShared();  // overwritten whole: a buffer shared with a snapshot is not copied
  copyBytes(sb.bytes.data(), std::as_const(t).data(), sb.bytes.size());
  sb.fed = true;
}

LogicalResult Session::feedMemory(const std::string& stream, DType dtype, std::span<const int64_t> shape,
                                  std::span<const int64_t> byteStrides, const void* data, SourceLoc loc) {
  return catchReported([&] {
    const Resource* r = resourceNamed(stream, loc);
    if (r->kind != Resource::Kind::H2D) diags_.fail(loc, "feed: $" + stream + " is not an h2d stream");
    ensureReady();
    const TensorType bt = mp_->hostBufferType(*r);
    const std::vector<int64_t> given(shape.begin(), shape.end());
    const int64_t n = bt.numElements();
    if (given != bt.shape && !(n == 1 && numElements(given) == 1))
      diags_.fail(loc, "feed $" + stream + ": expected data of shape " + shapeToString(bt.shape) + " (the stream buffer " +
                           bt.str() + "), got " + std::string(dtypeName(dtype)) + shapeToString(given));
    if (!byteStrides.empty() && byteStrides.size() != shape.size())
      diags_.fail(loc, "feed $" + stream + ": " + std::to_string(byteStrides.size()) + " strides for " +
                           std::to_string(shape.size()) + " dimensions");
    StreamBuffer& sb = st_->dev.streams[r->index];
    // Kept (shared, no copy) so that a disagreement between MPI processes leaves the buffer as it was.
    const bool agree = processCommunicator().processes() > 1;
    AlignedBytes before = agree ? sb.bytes : AlignedBytes();
    sb.bytes.discardIfShared();  // overwritten whole
    std::byte* dst = sb.bytes.data();
    const auto* src = static_cast<const std::byte*>(data);
    // The byte step of each dimension, and whether the layout is row-major anyway.
    std::vector<int64_t> strides(shape.size());
    bool rowMajor = true;
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1, step = dtypeSize(dtype); d >= 0; --d) {
      strides[d] = byteStrides.empty() ? step : byteStrides[d];
      if (shape[d] != 1 && strides[d] != step) rowMajor = false;
      step *= shape[d];
    }
    if (rowMajor && dtype == bt.dtype) {
      copyBytes(dst, src, sb.bytes.size());
    } else {
      std::vector<int64_t> index(shape.size(), 0);
      int64_t offset = 0;
      for (int64_t i = 0; i < n; ++i) {
        storeElement(dst, bt.dtype, i, loadElement(src + offset, dtype, 0));
        for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
          if (++index[d] < shape[d]) {
            offset += strides[d];
            break;
          }
          offset -= strides[d] * (shape[d] - 1);
          index[d] = 0;
        }
      }
    }
    if (agree) {
      try {
        checkSameData(std::as_const(sb.bytes).data(), sb.bytes.size(), "feed $" + stream, loc, processCommunicator(), diags_);
      } catch (...) {
        sb.bytes = before;
        throw;
      }
    }
    sb.fed = true;
  });
}

LogicalResult Session::write(const std::string& variable, const Literal& data, SourceLoc loc) {
  return catchReported([&] { writeVariable(variable, data, loc); });
}

void Session::writeVariable(const std::string& variable, const Literal& data, SourceLoc loc) {
  stateChanged();
  const Value* v = mainValueNamed(variable, loc);
  if (v->kind != Value::Kind::Var) diags_.fail(loc, "write: %" + variable + " is not a variable");
  ensureReady();
  // By uid: the compiled variables may be a lowered copy's (SessionOptions::lowering).
  auto it = std::find(st_->varUids.begin(), st_->varUids.end(), v->uid);
  if (it == st_->varUids.end()) diags_.fail(loc, "write: %" + variable + " is not compiled");
  const size_t index = static_cast<size_t>(it - st_->varUids.begin());
  ReplicaGroups grouping = groupingOf(*mp_, *v, diags_);
  TensorType dt = groupedType(v->type, grouping.numGroups());
  if (data.kind == Literal::Kind::Data && !data.isScalar() && !data.listFits(dt.shape))
    diags_.fail(data.loc, "write %" + variable + ": expected data of shape " + shapeToString(dt.shape) + ", got " +
                              shapeToString(data.shape));
  HostTensor t = materialize(data, dt, static_cast<uint32_t>(mp_->options.seed), "write %" + variable, diags_);
  checkSameData(std::as_const(t).data(), t.bytes.size(), "write %" + variable, data.loc.valid() ? data.loc : loc,
                processCommunicator(), diags_);
  const size_t bytes = HostTensor::byteSize(v->type);
  RemoteHome home = remoteHomeOf(*mp_, *v);
  for (int r = 0; r < replicasOf(*mp_); ++r) {
    const size_t row = grouping.numGroups() > 1 ? static_cast<size_t>(grouping.groupOf(r)) : 0;
    st_->dev.vars[r][index].bytes.discardIfShared();  // overwritten whole
    copyBytes(st_->dev.vars[r][index].data(), std::as_const(t).bytes.data() + row * bytes, bytes);
    if (home.buffer && home.offset >= 0 && home.offset < home.buffer->entries && home.buffer->type == v->type)
      copyBytes(st_->dev.remote[r][home.buffer->index].data() + home.offset * bytes,
                  std::as_const(t).bytes.data() + row * bytes, bytes);
  }
}

FailureOr<HostTensor> Session::valueOf(const std::string& name, SourceLoc loc) {
  HostTensor t;
  if (catchReported([&] { t = valueOf(name, loc, true); }).failed()) return failure();
  return t;
}

HostTensor Session::valueOf(const std::string& name, SourceLoc loc, bool requireWritten) {
  ensureReady();
  gatherReplicas();
  const int R = replicasOf(*mp_);
  if (name.size() < 2 || (name[0] != '$' && name[0] != '%'))
    diags_.fail(loc, "print: expected a $stream or %value, got '" + name + "'");
  const std::string bare = name.substr(1);
  if (name[0] == '$') {
    const Resource* r = resourceNamed(bare, loc);
    if (r->kind == Resource::Kind::RemoteBuffer) {
      TensorType t = r->type;
      t.shape.insert(t.shape.begin(), r->entries);
      if (R > 1) t.shape.insert(t.shape.begin(), R);
      HostTensor out(t);
      const size_t per = st_->dev.remote[0][r->index].size();
      for (int rep = 0; rep < R; ++rep)
        copyBytes(out.bytes.data() + rep * per, std::as_const(st_->dev.remote[rep][r->index]).data(), per);
      return out;
    }
    const StreamBuffer& sb = st_->dev.streams[r->index];
    if (r->kind == Resource::Kind::H2D && !sb.fed) diags_.fail(loc, "print: h2d stream $" + bare + " was never fed");
    // A stream of no elements has one value, `[]`: it is never "not yet written".
    if (r->kind == Resource::Kind::D2H && !sb.written && requireWritten && sb.bytes.size() != 0)
      diags_.fail(loc, "print: d2h stream $" + bare + " has no value yet: `run` computes it (a host_store to $" + bare +
                           " writes it)",
                  r->loc.valid() ? std::vector<Note>{{r->loc, "$" + bare + " is declared here"}} : std::vector<Note>{});
    HostTensor out;
    out.type = mp_->hostBufferType(*r);
    out.bytes = sb.bytes;  // shared: the next run that writes the buffer unshares it
    return out;
  }
  const Value* v = mainValueNamed(bare, loc);
  const size_t bytes = HostTensor::byteSize(v->type);
  if (v->kind == Value::Kind::Var) {
    ReplicaGroups grouping = groupingOf(*mp_, *v, diags_);
    RemoteHome home = remoteHomeOf(*mp_, *v);
    std::vector<int> replicas;
    TensorType t = v->type;
    if (allReplicasRetrieval(*v)) {
      for (int r = 0; r < R; ++r) replicas.push_back(r);
      t.shape.insert(t.shape.begin(), R);
    } else {
      for (int g = 0; g < grouping.numGroups(); ++g) replicas.push_back(grouping.members(g).front());
      if (grouping.numGroups() > 1) t.shape.insert(t.shape.begin(), grouping.numGroups());
    }
    const bool remoteHome =
        home.buffer && home.offset >= 0 && home.offset < home.buffer->entries && home.buffer->type == v->type;
    const CompiledGraph& g = *program_->main;
    if (replicas.size() == 1 && t.shape == v->type->shape && !remoteHome && v->id < g.valueSlot.size() && g.valueSlot[v->id] != kNoSlot &&
        g.slots[g.valueSlot[v->id]].kind == SlotInfo::Kind::Var)
      return st_->dev.vars[replicas[0]][g.slots[g.valueSlot[v->id]].index];  // shared, not copied
    HostTensor out(t);
    for (size_t i = 0; i < replicas.size(); ++i) {
      const std::byte* src = mainValueData(*v, replicas[i]);
      if (home.buffer && home.offset >= 0 && home.offset < home.buffer->entries && home.buffer->type == v->type)
        src = std::as_const(st_->dev.remote[replicas[i]][home.buffer->index]).data() + home.offset * bytes;
      if (src) copyBytes(out.bytes.data() + i * bytes, src, bytes);
    }
    return out;
  }
  if (v->kind == Value::Kind::Const) {
    HostTensor out(v->type);
    if (const std::byte* src = mainValueData(*v, 0)) copyBytes(out.data(), src, bytes);
    return out;
  }
  bool valid = false;
  if (v->def && st_->validOps > 0) {
    const Op* top = v->def->enclosing() ? v->def->enclosing() : v->def;
    const auto& ops = mp_->main->ops;
    for (size_t k = 0; k < st_->validOps && k < ops.size() && !valid; ++k) valid = ops[k].get() == top;
  }
  if (!valid) diags_.fail(loc, "print: %" + bare + " has no value yet: `run` computes it");
  if (const CompiledGraph& g = *program_->main; v->id < g.valueSlot.size() && g.valueSlot[v->id] != kNoSlot &&
                                                !g.slots[g.valueSlot[v->id]].kept)
    diags_.fail(loc, "print: %" + bare +
                         " is not kept after a run (this session keeps only the main values its commands name)");
  TensorType t = v->type;
  if (R > 1) t.shape.insert(t.shape.begin(), R);
  HostTensor out(t);
  for (int r = 0; r < R; ++r)
    if (const std::byte* src = mainValueData(*v, r)) copyBytes(out.bytes.data() + r * bytes, src, bytes);
  return out;
}

LogicalResult Session::print(const std::string& name, SourceLoc loc) {
  return catchReported([&] { printValue(name, loc); });
}

void Session::printValue(const std::string& name, SourceLoc loc) {
  HostTensor t = valueOf(name, loc, true);
  out_ << formatValueLine(name, t.type.dtype, t.type.shape, std::as_const(t).data()) << '\n';
  out_.flush();
}

LogicalResult Session::save(const std::string& name, const std::string& path, SourceLoc loc) {
  return catchReported([&] { saveValue(name, path, loc); });
}

void Session::saveValue(const std::string& name, const std::string& path, SourceLoc loc) {
  HostTensor t = valueOf(name, loc, true);
  // Under MPI every process holds the gathered value; rank 0 writes the file
  // and every process learns how that went before going on (a later `load`
  // of it must find it).
  Communicator& comm = processCommunicator();
  std::string error;
  if (comm.rank() == 0) {
    try {
      writeNpy(path, t);
    } catch (const NpyError& e) {
      error = e.what();
    }
  }
  if (comm.processes() > 1) error = comm.fromRankZero(error);
  if (!error.empty()) diags_.fail(loc, "save: " + error);
}

LogicalResult Session::reset() {
  stateChanged();
  return catchReported([&] {
    ensureReady();
    for (auto& sb : st_->dev.streams) sb = StreamBuffer{AlignedBytes(sb.bytes.size()), false};
    for (auto& rep : st_->dev.remote)
      for (auto& b : rep) b = AlignedBytes(b.size());
    for (size_t i = 0; i < st_->vars.size(); ++i) initVariable(i, *st_);
    for (auto& mv : st_->dev.mainValues) mv = AlignedBytes(mv.size());
    st_->validOps = 0;
    lastWritten_.clear();
    branchExecutions_.clear();
  });
}

std::shared_ptr<const Session::Snapshot> Session::snapshot() const {
  auto s = std::make_shared<Snapshot>();
  s->state = *st_;
  // Main values are kept only while printable (a run sizes the arena again).
  if (s->state.validOps == 0)
    for (AlignedBytes& values : s->state.dev.mainValues) values = AlignedBytes();
  s->program = program_;
  s->compiledOps = compiledOps_;
  s->compiledGeneration = compiledGeneration_;
  s->compiledModule = compiledModule_;
  s->lastWritten = lastWritten_;
  return s;
}

void Session::restore(const std::shared_ptr<const Snapshot>& s) {
  if (!s) return;
  stateChanged();
  *st_ = s->state;
  program_ = s->program;
  compiledOps_ = s->compiledOps;
  compiledGeneration_ = s->compiledGeneration;
  compiledModule_ = s->compiledModule;
  lastWritten_ = s->lastWritten;
}

// ---- for previews (api/preview.h) ---------------------------------------------

FailureOr<HostTensor> Session::variableNow(const Value& v) {
  HostTensor now;
  if (catchReported([&] { now = variableNowOrThrow(v); }).failed()) return failure();
  return now;
}

HostTensor Session::variableNowOrThrow(const Value& v) {
  for (size_t i = 0; i < st_->varUids.size(); ++i)
    if (st_->varUids[i] == v.uid && !st_->dev.vars.empty() && i < st_->dev.vars[0].size() &&
        st_->dev.vars[0][i].type == v.type)
      return st_->dev.vars[0][i];
  ReplicaGroups grouping = groupingOf(*mp_, v, diags_);
  HostTensor init = initialValue(v, grouping);
  previewInits_[v.uid] = PreviewInit{static_cast<uint32_t>(mp_->options.seed), init};  // for initVariable
  if (grouping.numGroups() == 1) return init;
  HostTensor t(v.type);
  const size_t row = grouping.numGroups() > 1 ? static_cast<size_t>(grouping.groupOf(0)) : 0;
  copyBytes(t.data(), init.bytes.data() + row * HostTensor::byteSize(v.type), HostTensor::byteSize(v.type));
  return t;
}


FailureOr<std::string> Session::disassemble(const Graph* g) {
  if (catchReported([&] { ensureReady(); }).failed()) return failure();
  if (!g) return vm::disassemble(*program_, diags_.sources());
  const CompiledGraph* cg = program_->find(g);
  return cg ? vm::disassemble(*cg, *program_, diags_.sources()) : std::string();
}

}  // namespace pir::vm
