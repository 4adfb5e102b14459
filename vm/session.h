// A session (PopXL popxl.Session) over a Module: runs session commands as the
// builder reads them (language.md §11, runtime.md §2-5, §8).
//
// The program is compiled once and recompiled when the module changes (its
// generation) or the session is pointed at another module; variable values
// and the last run's main-graph values carry over to the new program by uid.
//
// Replicas: every replica has its own variables, stream slices and remote
// buffers and main-graph values; a run executes them on a bounded pool of
// threads, parking replicas at collectives (vm/replica_pool.h), or divided over
// the processes of an MPI job (vm/communicator.h). Results are those of running
// the replicas one after another. Output is deterministic: after each run the
// print_tensor lines of replica 0 are written, then those of replica 1, ...
// (each `[replica r] `-prefixed when R > 1); likewise the --trace lines.
//
// A run that fails (runtime.md §8) leaves the state exactly as before that run
// (what the run may write is backed up, copy-on-write, and restored); the error
// of the lowest failing replica is reported at the op's location.
//
// Every call that can fail returns LogicalResult / FailureOr (ir/result.h):
// the error is reported to the session's DiagnosticEngine, located, and the
// state is as before the call. Inside, an error unwinds as the CompileError
// DiagnosticEngine::fail throws, up to the public call, which converts it: no
// CompileError leaves a Session. Snapshots
// share every buffer with the state (vm/tensor.h): they cost only what later
// commands overwrite, charged to the host-memory budget like any buffer.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "device/branch_executions.h"
#include "ir/diagnostics.h"
#include "ir/grouping.h"
#include "ir/ir.h"
#include "ir/result.h"
#include "vm/bytecode.h"
#include "vm/communicator.h"
#include "vm/interpreter.h"
#include "vm/replica_pool.h"
#include "vm/tensor.h"

namespace pir::vm {

struct SessionOptions {
  int threads = 0;                 // thread budget (replicas x BLAS threads); 0: the hardware threads
  std::ostream* trace = nullptr;   // --trace: executed instructions (stderr)
  // The work budget of the session, per replica (fuzzing): the steps all its runs
  // take together (Interpreter::setStepBudget: an instruction is one step
  // plus one per 64 elements it touches). The run that would exceed it fails at
  // that instruction, state restored, and so does every later run. 0: unlimited.
  uint64_t maxSteps = 0;
  // A failed run leaves the state as before it (runtime.md §8), keeping a backup of
  // what the run writes. False: nothing is kept and after a failure the state is
  // partly updated and no main value is printable: for a caller that stops at the
  // first error (`pir run`; decisions.md "Run backups and snapshots").
  bool restoreOnFailure = true;
  // The main values a later `print` / `save` may read, by name (Graph::lookup);
  // the others share buffers by liveness and `print` refuses them. Unset: every
  // main value is kept (the REPL, where any may be printed later).
  std::optional<std::set<std::string>> keptMainNames = std::nullopt;
  bool fuseElementwise = true;     // vm/compiler.h CompileOptions (off: one instruction per op)
  // What the session compiles for a module: a transformed copy of it (the API
  // layer's lowering pipeline, api/pass_runner.h lowerForCompile; vm/ runs no
  // passes), which keeps the module's uids, value ids and main op positions, or
  // null for the module as it is. Unset: the module as it is. The module the
  // session runs (module(), `print`, feeds, previews) stays the one it was given.
  std::function<std::shared_ptr<const Module>(const Module&, DiagnosticEngine&)> lowering;
};

class Session {
 public:
  // `out` receives print / print_tensor output. Diagnostics go to `diags`.
  Session(Module& module, DiagnosticEngine& diags, std::ostream& out, SessionOptions options = {});
  ~Session();

  // Runs one session command (language.md §11). failure(): reported, and the
  // state is as before the command.
  LogicalResult command(const SessionCommand& cmd);

  // The default session of a file without commands: `run`, then `print` of every
  // d2h stream in declaration order.
  LogicalResult runDefault();
  // `run N` (each run is all-or-nothing).
  LogicalResult run(int64_t times = 1, SourceLoc loc = {});

  // The tensor `print NAME` shows (NAME with its sigil: "$y", "%W"); `loc` for errors.
  // A stream's shares the stream buffer (copy-on-write, vm/tensor.h): no copy.
  // A d2h stream no run has written yet is an error ("has no value yet"), as a
  // main value before its run is.
  FailureOr<HostTensor> valueOf(const std::string& name, SourceLoc loc);
  // `print` / `save` of one name.
  LogicalResult print(const std::string& name, SourceLoc loc);
  LogicalResult save(const std::string& name, const std::string& path, SourceLoc loc);
  LogicalResult feed(const std::string& stream, const Literal& data, SourceLoc loc);
  // `feed` from memory: the elements of `shape` (the host buffer shape, or of one
  // element when the buffer has one) of `dtype` at `data`, `byteStrides` apart per
  // dimension (empty: row-major), written into the stream buffer in one pass:
  // converted to the stream's dtype and gathered when they differ, else copied.
  LogicalResult feedMemory(const std::string& stream, DType dtype, std::span<const int64_t> shape,
                           std::span<const int64_t> byteStrides, const void* data, SourceLoc loc);
  LogicalResult write(const std::string& variable, const Literal& data, SourceLoc loc);

  // Runs `module` from now on: the next command recompiles it; variables and
  // last-run values carry over by Value::uid (a Module::clone keeps uids, so
  // a transformed copy of the program continues the same session).
  void setModule(Module& module) {
    mp_ = &module;
    stateChanged();
  }
  const Module& module() const { return *mp_; }

  // Variables back to their initial values; stream buffers (fed and d2h) and
  // remote buffers cleared; no main-graph values until the next run. failure():
  // the program did not compile.
  LogicalResult reset();

  // The whole mutable state, for the REPL's all-or-nothing inputs.
  struct Snapshot;
  std::shared_ptr<const Snapshot> snapshot() const;
  void restore(const std::shared_ptr<const Snapshot>& s);

  // What a client that evaluates main values on its own needs (the REPL's
  // previews, api/preview.h), without changing the session:
  // Replica 0's value of variable `v` now: its state, or (declared since the
  // last compile) its initial value, which the next compile then adopts (a
  // random initialiser is drawn once). failure(): the initial value could not
  // be made (a load() that does not read, ...).
  FailureOr<HostTensor> variableNow(const Value& v);
  // The program as last compiled, or null (program() compiles).
  const Program* compiledProgram() const { return program_.get(); }
  // Changes whenever the variables or the program may have changed (run, write,
  // reset, restore, another module); streams are not counted.
  uint64_t stateVersion() const { return stateVersion_; }
  const SessionOptions& options() const { return options_; }

  // Work counters, for tests that assert complexity rather than time.
  struct Counters {
    uint64_t programCompiles = 0;  // whole-program compiles (ensureReady)
  };
  const Counters& counters() const { return counters_; }

  // The bytecode of `g` (null: every graph), compiling if needed.
  FailureOr<std::string> disassemble(const Graph* g);

  // d2h streams written by the last successful run, in declaration order.
  const std::vector<const Resource*>& lastRunWrittenStreams() const { return lastWritten_; }
  // The conditional branches replica 0 ran over the session's successful runs (the profile lists what ran).
  const device::BranchExecutions& branchExecutions() const { return branchExecutions_; }

  // Compiles (if the program changed) and initialises new variables; the
  // program stays the session's until it recompiles.
  FailureOr<const Program*> program();


 private:
  // The implementations of the public calls: an error is reported and unwinds
  // as CompileError (DiagnosticEngine::fail) to the public call, which returns
  // failure(). Each leaves the state as before when it throws.
  HostTensor valueOf(const std::string& name, SourceLoc loc, bool requireWritten);
  void commandUnchecked(const SessionCommand& cmd);
  void runTimes(int64_t times, SourceLoc loc);
  void printValue(const std::string& name, SourceLoc loc);
  void saveValue(const std::string& name, const std::string& path, SourceLoc loc);
  void feedLiteral(const std::string& stream, const Literal& data, SourceLoc loc);
  void writeVariable(const std::string& variable, const Literal& data, SourceLoc loc);
  HostTensor variableNowOrThrow(const Value& v);

  struct State;
  void ensureReady();
  void checkSameProgramAcrossProcesses(const Program& p, const State& ns);
  void initVariable(size_t index, State& st);
  void runOnce(SourceLoc loc);
  void runReplicaSet(SourceLoc loc, std::vector<ReplicaOutcome>& outcomes);  // vm/replica_pool.h
  void gatherReplicas();  // MPI: every replica's state into this process, before print / save
  const Resource* resourceNamed(const std::string& name, SourceLoc loc) const;
  const Value* mainValueNamed(const std::string& name, SourceLoc loc) const;
  const std::byte* mainValueData(const Value& v, int replica) const;

  Module* mp_;  // the program the session runs (setModule switches it; state is keyed by uid)
  DiagnosticEngine& diags_;
  std::ostream& out_;
  SessionOptions options_;
  std::shared_ptr<Program> program_;
  std::vector<uint64_t> compiledOps_;  // uids of the main ops the program was compiled from
  uint64_t compiledGeneration_ = 0;    // Module::generation the program was compiled at
  const Module* compiledModule_ = nullptr;
  std::unique_ptr<State> st_;
  Counters counters_;
  uint64_t stateVersion_ = 0;
  void stateChanged() { ++stateVersion_; }
  ReplicaCosts replicaCosts_;  // the replica pool's estimates of program_, kept between runs
  int resolvedThreads_ = 0;  // options_.threads, or the machine's when 0 (runReplicaSet); 0: not yet read
  uint64_t stepsLeft_;  // of options_.maxSteps; not part of the state (an undo does not give steps back)
  // The budget of the next run, and the steps it took.
  uint64_t stepBudget() const { return options_.maxSteps ? stepsLeft_ : Interpreter::kUnlimitedSteps; }
  void tookSteps(uint64_t steps) { stepsLeft_ -= std::min(steps, stepsLeft_); }
  HostTensor initialValue(const Value& v, const ReplicaGroups& grouping);
  // Initial values variableNow materialized, by variable uid, until initVariable adopts them.
  struct PreviewInit {
    uint32_t seed;
    HostTensor value;
  };
  std::unordered_map<uint64_t, PreviewInit> previewInits_;
  std::vector<const Resource*> lastWritten_;
  device::BranchExecutions branchExecutions_;
};

}  // namespace pir::vm
