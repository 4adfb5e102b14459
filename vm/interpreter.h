// The bytecode interpreter: one Interpreter per replica runs the compiled main
// graph against that replica's slice of the device state.
//
// Calls nest without native recursion (Lua / Wren style): call, repeat and
// conditional push an activation on the interpreter's own heap stack and the
// dispatch loop continues in the callee; the callee's return completes the
// caller's instruction. So call depth is bounded by memory, not by the C++
// stack, and a replica can be parked mid-graph at a collective and resumed
// later, on any thread: a replica is its state, not a thread.
//
// Each graph has one frame per replica (recursion is rejected by the verifier,
// so at most one activation of a graph is live); a frame's arena is allocated
// on the graph's first call and freed with the interpreter.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/diagnostics.h"
#include "device/branch_executions.h"
#include "vm/bytecode.h"
#include "vm/tensor.h"

namespace pir::vm {

// A host stream's buffer: shape [nht]? + [R]? + S, slot s of replica r at
// element block (s * R + r).
struct StreamBuffer {
  AlignedBytes bytes;
  bool fed = false;      // h2d: a feed set it
  bool written = false;  // d2h: a run's host_store wrote a slot (since the session started or was reset)
};

// Everything a run may change. Copies share buffers copy-on-write (vm/tensor.h): a
// failed run restores the backup of what it may write (its CompiledGraph write set).
struct DeviceState {
  std::vector<std::vector<HostTensor>> vars;      // [replica][Program::variables index]
  std::vector<std::vector<AlignedBytes>> remote;  // [replica][resource index] (empty unless a remote buffer)
  std::vector<StreamBuffer> streams;              // [resource index]
  std::vector<AlignedBytes> mainValues;           // [replica] the main frame's arena: values of the last run
};

// A runtime error (runtime.md §8) at an op; the session reports it.
struct RuntimeFault : std::runtime_error {
  const Op* op;          // null when the fault came from another process
  SourceLoc loc;         // where to report it (the op's location)
  std::vector<Note> notes;
  bool aborted = false;  // stopped because another replica failed or diverged
  RuntimeFault(const Op* o, std::string msg, std::vector<Note> n = {})
      : std::runtime_error(std::move(msg)), op(o), loc(o ? o->loc : SourceLoc{}), notes(std::move(n)) {}
};

// The graph id of the main graph in a collective's identity (subgraphs use Graph::index).
inline constexpr uint32_t kMainGraphId = 0xffffffffu;

// The collective instruction a replica is parked at. (graph, pc) identifies the
// collective in every process that compiled the same module; the pointers are
// this replica's operand and result storage, valid while it stays parked.
struct PendingCollective {
  uint32_t graph = kMainGraphId;
  uint32_t pc = 0;
  const CollectiveSpec* spec = nullptr;
  const Instr* instr = nullptr;
  const std::byte* input = nullptr;
  const TensorType* inType = nullptr;
  std::byte* output = nullptr;
  const TensorType* outType = nullptr;
};

struct Frame {
  AlignedBytes arena;                 // subgraphs only; main uses DeviceState::mainValues
  std::vector<std::byte*> ptr;        // slot -> storage
  std::vector<TensorRef> refs;        // kernel argument scratch
  std::vector<std::byte> staging;     // repeat: returns staged before becoming the next carry
};

class Interpreter {
 public:
  // `trace`: null, or where to write one line per executed instruction.
  Interpreter(const Module& m, const Program& p, DeviceState& state, int replica, std::ostream* trace,
              const SourceManager* sources);
  ~Interpreter();
  // The subgraph frames' arenas of an earlier run of the same program, by
  // Graph::index, for this run's frames to use instead of fresh zeroed memory (a
  // fresh arena costs its page faults and a clear on every run). Frames hold
  // values only between an instruction that writes a slot and those that read
  // it, as they already do between the iterations of a repeat, so an arena's old
  // contents are never read.
  void adoptArenas(std::vector<AlignedBytes> arenas) { spareArenas_ = std::move(arenas); }
  // The arenas of this run's frames (and any spares it did not use), by Graph::index.
  std::vector<AlignedBytes> releaseArenas();

  // Runs the main graph start to end (cursors reset). A collective over more
  // than one replica cannot complete alone: it faults. Throws RuntimeFault.
  void runMain();

  // At most `n` budget steps per run (start .. end) or runDetached: an
  // instruction costs Instr::work steps (one, plus one per kElementsPerStep
  // elements it touches), a repeat iteration one. Beyond that the run fails at
  // the instruction that would exceed it. kUnlimitedSteps (the default): no bound.
  static constexpr uint64_t kUnlimitedSteps = UINT64_MAX;
  // The working memory its fused instructions use from now on: that of the worker
  // thread about to run it (null: each makes its own). Not owned.
  void setFusionScratch(FusionScratch* scratch) { kctx_.fusionScratch = scratch; }
  void setStepBudget(uint64_t n) {
    budget_ = n;
    resetBudget();  // stepsTaken() is 0 until a step is taken
  }
  // Steps the current or last run took (at most its budget).
  uint64_t stepsTaken() const { return budget_ == kUnlimitedSteps ? 0 : budget_ - remaining_ - beyondSlice_; }
  // The last fault was the step budget running out (not an error of the program).
  bool budgetSpent() const { return budgetSpent_; }

  // Resumable execution, for the replica pool: start() binds the main graph and
  // resets the cursors; resume() runs until the graph ends (returns true) or the
  // replica reaches a collective over a group of more than one replica (returns
  // false: pending() describes it). After the collective's output has been
  // written, completeCollective() steps past it; then resume() again.
  void start();
  bool resume();
  const PendingCollective& pending() const { return pending_; }
  void completeCollective();
  // A fault at the pending collective (the group could not meet).
  [[noreturn]] void faultAtPending(std::string msg, bool aborted);

  // Runs `g` (a main-graph subset, for previews) over `frameArena`; returns the slot pointers.
  const std::vector<std::byte*>& runDetached(const CompiledGraph& g, AlignedBytes& frameArena);

  // print_tensor lines of this replica's run ("TITLE: VALUE\n", prefix added by the caller).
  std::vector<std::string>& printed() { return printed_; }
  // d2h streams this replica wrote during the run (by resource index).
  const std::vector<bool>& written() const { return written_; }
  // Conditional branches this run took: by the op's uid, {then, else} executions.
  device::BranchExecutions& branches() { return branches_; }
  // Where a d2h/h2d stream cursor stands (tests).
  int64_t cursor(unsigned resource) const { return cursors_[resource]; }
  int replica() const { return replica_; }

 private:
  // One live graph activation. `pc` is the instruction being executed; while a
  // callee runs, it is the caller's call / repeat / conditional instruction.
  struct Activation {
    const CompiledGraph* g;
    Frame* f;
    uint32_t pc;
    uint64_t iteration;  // repeat: body runs completed
    std::chrono::steady_clock::time_point started{};  // --trace: when the current instruction began
  };

  void bind(const CompiledGraph& g, Frame& f, std::byte* arena);
  Frame& frameOf(const CompiledGraph& g);
  // `outs`: the caller's result buffers of a call or conditional, where the callee
  // computes its returnInPlace returns; null for a repeat (its returns are the carry).
  void push(const CompiledGraph& callee, const std::byte* const* args, std::byte* const* outs);
  template <bool kTrace> bool loop();
  // Completes the caller's instruction after its callee returned; false if it
  // pushed the next repeat iteration instead.
  template <bool kTrace> bool returnTo(Activation& caller, const CompiledGraph& callee, const Frame& calleeFrame);
  const std::byte** repeatArgs(const Activation& a, const Instr& in);
  void traceInstr(const CompiledGraph& g, const Frame& f, const Instr& in, std::chrono::steady_clock::time_point started);
  [[noreturn]] void fault(const Instr& in, std::string msg, std::vector<Note> notes = {});
  [[noreturn]] void budgetExceeded(const Instr& in);
  // The budget is handed out in slices of kStepSlice steps. A step stays one
  // compare and one subtraction; when an instruction's work reaches the end of
  // the slice, sliceEnd checks for Ctrl-C (ir/interrupt.h) and the budget, then
  // opens the next slice. So a run polls the interrupt flag at least every
  // kStepSlice steps at no cost to the hot loop (a single long kernel is not
  // interrupted; a loop of them is, and so is any instruction of many elements).
  // Invariant: remaining_ + beyondSlice_ = steps of the budget not yet taken.
  static constexpr uint64_t kStepSlice = 32;
  void resetBudget() {
    // "Unlimited" is a budget no run reaches (2^62 steps), so the sums below never wrap.
    const uint64_t total = budget_ == kUnlimitedSteps ? uint64_t(1) << 62 : budget_;
    remaining_ = std::min(kStepSlice, total);
    beyondSlice_ = total - remaining_;
  }
  void step(const Instr& in) {
    if (in.work < remaining_) remaining_ -= in.work;
    else sliceEnd(in);
  }
  // Throws RuntimeFault "interrupted" or the budget fault; else takes the
  // instruction's steps and opens the next slice.
  void sliceEnd(const Instr& in);
  int64_t remoteOffset(const Instr& in, const std::byte* p, const TensorType& t, const Resource& r);

  const Module& m_;
  const Program& p_;
  DeviceState& state_;
  int replica_, numReplicas_;
  int64_t nht_;
  std::ostream* trace_;
  const SourceManager* sources_;
  std::vector<std::unique_ptr<Frame>> frames_;  // by Graph::index, allocated on first call
  std::vector<AlignedBytes> spareArenas_;        // by Graph::index: an earlier run's, for frameOf to reuse
  Frame mainFrame_;
  std::vector<Activation> stack_;
  std::vector<const std::byte*> args_;  // call argument scratch
  std::vector<std::byte*> outs_;        // call result buffers scratch
  // The result buffers of `in` (a call or conditional) in the running frame.
  std::byte* const* outsOf(std::byte* const* ptr, const uint32_t* slots, const Instr& in) {
    outs_.resize(in.nOut);
    for (unsigned j = 0; j < in.nOut; ++j) outs_[j] = ptr[slots[in.nIn + j]];
    return outs_.data();
  }
  PendingCollective pending_;
  std::vector<int64_t> cursors_;
  std::vector<bool> written_;
  device::BranchExecutions branches_;
  std::vector<std::string> printed_;
  KernelContext kctx_;
  uint64_t budget_ = kUnlimitedSteps;
  uint64_t remaining_ = 0;    // steps left in this slice
  uint64_t beyondSlice_ = 0;  // steps of the budget not yet handed to a slice
  bool budgetSpent_ = false;
};

}  // namespace pir::vm
