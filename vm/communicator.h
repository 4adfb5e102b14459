// How the processes of a run share what their replicas need from each other
// (runtime.md §5). One process (the base class) runs every replica; under MPI
// (vm/mpi_communicator.cpp) P processes each run R / P consecutive replicas.
//
// Every method is collective (SPMD): every process calls it at the same point
// with the same global arguments. The replica pool meets in supersteps: each
// process runs its replicas until each is parked at a collective, finished or
// failed; then the statuses are shared, every process takes the same decisions
// from the same global table, the inputs of the meeting groups are shared, and
// each process computes the outputs of its own replicas.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "vm/interpreter.h"

namespace pir::vm {

// Where a replica stands at a superstep.
struct ReplicaStatus {
  enum Kind : uint32_t { Parked = 0, Finished = 1, Failed = 2 };
  uint32_t kind = Finished;
  uint32_t graph = 0, pc = 0;  // Parked: the collective (PendingCollective::graph / pc)
  uint32_t pad = 0;
  uint64_t inputBytes = 0;     // Parked: size of its collective input
};

// What one replica's run produced.
struct ReplicaOutcome {
  std::vector<std::string> printed;  // print_tensor lines
  std::string trace;                 // --trace lines
  std::vector<bool> written;         // d2h streams written, by resource index
  device::BranchExecutions branches; // conditional branches run (local replicas only; not sent over MPI)
  uint64_t stepsTaken = 0;           // of the step budget (this process's replicas only)
  std::optional<RuntimeFault> fault;
};

// Where one process's list first differs from rank 0's (Communicator::compareWithRankZero).
struct Disagreement {
  int rank = -1;     // the lowest rank whose list differs; -1: every list is rank 0's
  size_t index = 0;  // the first position where it differs (one list may be shorter)
};

// Thrown by a communicator when another process stopped answering or failed
// (runtime.md §8: "an MPI peer lost"); the replica pool reports it at the
// collective its replicas wait at.
struct PeerLost : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int processes() const { return 1; }
  virtual int rank() const { return 0; }
  // The replicas this process runs: [firstLocal, firstLocal + localCount).
  int64_t localCount(int64_t replicas) const { return replicas / processes(); }
  int64_t firstLocal(int64_t replicas) const { return rank() * localCount(replicas); }

  // Fills in the other processes' entries of `all` (one per replica).
  virtual void shareStatus(std::vector<ReplicaStatus>& all, int64_t firstLocal, int64_t localCount) {
    (void)all, (void)firstLocal, (void)localCount;
  }
  // `inputs[r]` for each replica r in `senders` (ascending): set for local
  // replicas, filled in for the others (valid until the next call).
  virtual void shareInputs(const std::vector<int64_t>& senders, const std::vector<ReplicaStatus>& all,
                           std::vector<const std::byte*>& inputs) {
    (void)senders, (void)all, (void)inputs;
  }
  // After the run: fills in the other processes' outcomes (printed lines,
  // traces, written streams, faults) so every process can report the run.
  virtual void shareOutcomes(std::vector<ReplicaOutcome>& all, int64_t firstLocal, int64_t localCount) {
    (void)all, (void)firstLocal, (void)localCount;
  }
  // Where this process's replicas wait during the next exchanges: the text a
  // lost peer is reported with if the launcher stops this process meanwhile
  // ("file:line:col: op (replica r)", or empty: between collectives).
  virtual void noteWaitingAt(const std::string& where) { (void)where; }
  // Rank 0's `text`, in every process; also a barrier (what rank 0 did before
  // calling is done for everyone after it).
  virtual std::string fromRankZero(const std::string& text) { return text; }
  // Makes every process hold every replica's state (variables, remote buffers,
  // main values, d2h stream slices), for print / save after a run.
  virtual void shareState(DeviceState& state, const Module& m) { (void)state, (void)m; }
  // Compares this process's `items` (e.g. one hash per statement of the
  // program) with rank 0's; every process gets the same answer.
  virtual Disagreement compareWithRankZero(const std::vector<uint64_t>& items) {
    (void)items;
    return {};
  }
  // Every process's `text`, by rank (e.g. its version of a statement that differs).
  virtual std::vector<std::string> gatherTexts(const std::string& text) { return {text}; }
};

// How an MPI job ends. Every exchange starts with a meeting at which each
// process says what it is doing; a process whose command failed on its own (a
// file only it lacks, a feed only it cannot read) meets the others with its exit
// status when it finishes, wherever they wait. Then, or when the processes reached
// different exchanges (different programs or commands), the job ends at once in
// every process: rank 0 prints the failing process's error (a failure of its
// own it has printed already) or says how they diverged, and every process exits
// with that status. Nothing waits for the watchdog (PIR_MPI_TIMEOUT), which only
// guards against a process that stops answering.

// The process-wide communicator: MPI when this process was started by mpirun
// with more than one process (and the build has MPI), else a single process.
Communicator& processCommunicator();

// Call first thing in main(): under mpirun, initialises MPI and silences the
// standard output and error of every process but rank 0 (rank 0 prints).
// Returns false (after printing why) if MPI was requested but cannot start.
bool initProcessGroup(int& argc, char**& argv);
// Call before exit with the process exit status: agrees on how the job ends and
// finalises MPI. Returns the status to exit with (or does not return: see above).
int finishProcessGroup(int status);

}  // namespace pir::vm
