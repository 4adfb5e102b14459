// Runs the replicas of one `run` on a bounded pool of threads (runtime.md §5).
//
// A replica is an Interpreter (its heap frame stack) over its slice of the
// device state, not a thread: the pool's workers resume whichever replicas are
// runnable until each is parked at a collective, finished or failed (a
// superstep); then the groups whose members all wait at the same collective
// (identified by graph and instruction) meet: their outputs are computed, in
// work items spread over the same workers, and the members become runnable
// again. A group some member of which finished, failed or waits elsewhere
// cannot meet: its waiting members fail (an aborted or diverged collective).
//
// Results never depend on the thread count or on scheduling: replicas share
// nothing between collectives, collectives combine members in replica order,
// and every decision is taken from the whole superstep's table. Memory is the
// state of the replicas that are parked (their frames), not thread stacks.
//
// One thread budget: at most `threads` workers run replicas, and each gives
// OpenBLAS threads / workers threads, so BLAS threads x running replicas never
// exceed the budget.
#pragma once
#include <cstdint>
#include <vector>

#include "vm/communicator.h"
#include "vm/interpreter.h"

namespace pir::vm {

// The default thread budget of this process: the hardware threads, shared
// between the processes of an MPI job that run on the same machine.
int defaultThreads(const Communicator& comm);

// Sets the number of threads OpenBLAS may use (if loaded, else when it loads);
// an OPENBLAS_NUM_THREADS set by the user caps it.
int setBlasThreads(int threads);  // returns the count applied (after the cap)

// The host memory one replica takes besides its tensors (which AlignedBytes
// charges): its interpreter, the slot tables of its frames, a repeat's staged
// returns, its entries in the pool's tables, and its share of the session
// state's tables (and of a run backup's). Charged for every replica: with tens
// of thousands of replicas these are gigabytes.
uint64_t replicaBookkeepingBytes(const Module& m, const Program& p);

// What the replica pool learned of a program's cost in its last run: seconds
// per replica resumed (up to its next collective) and per work item of a
// collective; < 0: not measured. A pool runs a superstep whose estimated work is
// small on one thread (a hand-off to its helpers would cost more), so a session
// keeps this between runs: a small program's runs then never wake a helper.
struct ReplicaCosts {
  const Program* program = nullptr;  // the program measured (another resets the estimates)
  double stepSeconds = -1, collectiveItemSeconds = -1;
  // Per local replica, its subgraph frames' arenas after the last run of `program`,
  // which the next run's interpreter reuses (Interpreter::adoptArenas).
  std::vector<std::vector<AlignedBytes>> arenas;
};

// Runs the main graph once for each replica of this process (comm's local
// range) over `state`, on at most `threads` threads (>= 1). `outcomes` gets one
// entry per replica of the module (other processes' entries filled in by comm).
// `trace`: record --trace lines. Never throws for a runtime error: faults are
// in the outcomes. `maxSteps`: each replica's step budget
// (Interpreter::setStepBudget), the steps taken are in the outcomes. `costs`:
// the estimates of the session's previous runs, updated (none: this run's only).
void runReplicas(const Module& m, const Program& p, DeviceState& state, const SourceManager* sources, bool trace,
                 int threads, Communicator& comm, std::vector<ReplicaOutcome>& outcomes,
                 uint64_t maxSteps = Interpreter::kUnlimitedSteps, ReplicaCosts* costs = nullptr);

}  // namespace pir::vm
