// The bytecode interpreter: one Interpreter per replica runs the compiled main
// graph against that replica's slice of the device state. A tight switch over
// Instr::opc; kernels are PreparedKernel calls; a call runs the callee in the
// callee's frame (one frame per graph and replica: recursion is impossible, so
// at most one activation of a graph is live).
#pragma once
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/diagnostics.h"
#include "vm/bytecode.h"
#include "vm/tensor.h"

namespace pir::vm {

// A host stream's buffer: shape [nht]? + [R]? + S, slot s of replica r at
// element block (s * R + r).
struct StreamBuffer {
  AlignedBytes bytes;
  bool fed = false;  // h2d: a feed set it
};

// Everything a run may change. Copyable: a failed run restores a snapshot.
struct DeviceState {
  std::vector<std::vector<HostTensor>> vars;      // [replica][Program::variables index]
  std::vector<std::vector<AlignedBytes>> remote;  // [replica][resource index] (empty unless a remote buffer)
  std::vector<StreamBuffer> streams;              // [resource index]
  std::vector<AlignedBytes> mainValues;           // [replica] the main frame's arena: values of the last run
};

// A runtime error (runtime.md §8) at an op; the session reports it.
struct RuntimeFault : std::runtime_error {
  const Op* op;
  std::vector<Note> notes;
  bool aborted = false;  // stopped because another replica failed or diverged
  RuntimeFault(const Op* o, std::string msg, std::vector<Note> n = {})
      : std::runtime_error(std::move(msg)), op(o), notes(std::move(n)) {}
};

// The meeting point of replicas at collectives: every replica runs on its own
// thread; at a collective each deposits its input and waits until all running
// replicas have (phase 1), reads its group members' inputs, then waits again so
// no input is overwritten while another replica still reads it (phase 2).
// A replica that fails or finishes while others wait aborts the meeting: the
// waiters stop with an "aborted" fault (the session reports the real cause).
class CollectiveHub {
 public:
  explicit CollectiveHub(int replicas);
  // Phase 1 / phase 2 barriers. Return false when the run was aborted.
  bool deposit(int replica, const Op* op, const std::byte* input);
  bool finishedReading();
  const std::byte* input(int replica) const { return inputs_[replica]; }
  const Op* opOf(int replica) const { return ops_[replica]; }
  // The replica stops running (finished or failed).
  void leave();

 private:
  bool wait(std::unique_lock<std::mutex>& lock);
  std::mutex mu_;
  std::condition_variable cv_;
  int active_, arrived_ = 0;
  uint64_t generation_ = 0;
  bool aborted_ = false, left_ = false;
  std::vector<const std::byte*> inputs_;
  std::vector<const Op*> ops_;
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
              const SourceManager* sources, CollectiveHub* hub = nullptr);

  // Runs the main graph (cursors reset). Throws RuntimeFault.
  void runMain();
  // Runs `g` (a main-graph subset, for previews) over `frameArena`; returns the slot pointers.
  const std::vector<std::byte*>& runDetached(const CompiledGraph& g, AlignedBytes& frameArena);

  // print_tensor lines of this replica's run ("TITLE: VALUE\n", prefix added by the caller).
  std::vector<std::string>& printed() { return printed_; }
  // d2h streams this replica wrote during the run (by resource index).
  const std::vector<bool>& written() const { return written_; }
  // Where a d2h/h2d stream cursor stands (tests).
  int64_t cursor(unsigned resource) const { return cursors_[resource]; }

 private:
  void bind(const CompiledGraph& g, Frame& f, std::byte* arena);
  template <bool kTrace> void exec(const CompiledGraph& g, Frame& f);
  void invoke(const CompiledGraph& callee, const std::byte* const* args);
  void traceInstr(const CompiledGraph& g, const Frame& f, const Instr& in);
  [[noreturn]] void fault(const Instr& in, std::string msg, std::vector<Note> notes = {});
  void collective(const Instr& in, const CollectiveSpec& c, const std::byte* x, const TensorType& xt,
                  std::byte* out, const TensorType& outType);
  int64_t remoteOffset(const Instr& in, const std::byte* p, const TensorType& t, const Resource& r);

  const Module& m_;
  const Program& p_;
  DeviceState& state_;
  int replica_, numReplicas_;
  int64_t nht_;
  std::ostream* trace_;
  const SourceManager* sources_;
  std::vector<Frame> frames_;  // by Graph::index
  Frame mainFrame_;
  std::vector<int64_t> cursors_;
  std::vector<bool> written_;
  std::vector<std::string> printed_;
  KernelContext kctx_;
  CollectiveHub* hub_;
};

}  // namespace pir::vm
