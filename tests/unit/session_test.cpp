// Sessions: run N, write, feeds, replicas, groupings, remote buffers, runtime
// errors with their locations, snapshots, reset and previews.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <sstream>

#include "frontend/builder.h"
#include "vm/host_memory.h"
#include "vm/npy.h"
#include "api/preview.h"
#include "api/session_driver.h"
#include "vm/session.h"
#include "tests/unit/text_program.h"

namespace pir::vm {
namespace {

// A module and its session, built from text; commands run as they are read.
struct Fixture : TextProgram {
  explicit Fixture(const std::string& text, SessionOptions options = {}) : TextProgram(text, options, "s.pir") {}
  std::string take() {
    std::string s = out.str();
    out.str("");
    return s;
  }
  // The program the session runs, compiled (the test stops when it does not compile).
  const Program& compiled() {
    FailureOr<const Program*> p = session->program();
    if (p.failed()) throw std::runtime_error("the program does not compile: " + err.str());
    return **p;
  }
};

TEST(Session, RunNAndWrite) {
  Fixture f(R"(
main {
  var %w : f32[2] = [1, 2]
  scaled_add_ %w, 1 {a = 2, b = 0}
}
run 3
print %w
write %w = [5, 6]
print %w
run
print %w
)");
  EXPECT_TRUE(f.ok) << f.err.str();
  EXPECT_EQ(f.take(), "%w: f32[2] = [8, 16]\n%w: f32[2] = [5, 6]\n%w: f32[2] = [10, 12]\n");
}

const char* kReplicated = R"(
ir {replication = 2, num_host_transfers = 2}
h2d $x : f32[2]
d2h $y : f32[2]
main {
  var %acc : f32[2] = 0
  %a = host_load $x
  %b = host_load $x
  %s = add %a, %b
  accumulate_ %acc, %s
  %p = print_tensor %s {title = "s"}
  host_store $y, %s
}
feed $x = [[[1, 2], [10, 20]], [[3, 4], [30, 40]]]
run
print $y, %acc, %s
)";

TEST(Session, ReplicasReadTheirOwnSlicesAndPrintInReplicaOrder) {
  for (int threads : {1, 2}) {
    SessionOptions options;
    options.threads = threads;
    Fixture f(kReplicated, options);
    EXPECT_TRUE(f.ok) << f.err.str();
    EXPECT_EQ(f.take(),
              "[replica 0] s: [4, 6]\n"
              "[replica 1] s: [40, 60]\n"
              "$y: f32[2,2,2] = [[[4, 6], [40, 60]], [[0, 0], [0, 0]]]\n"
              "%acc: f32[2] = [4, 6]\n"
              "%s: f32[2,2] = [[4, 6], [40, 60]]\n")
        << "threads = " << threads;
  }
}

TEST(Session, AllReplicasRetrievalAndGroupedInitialValues) {
  Fixture f(R"(
ir {replication = 4}
main {
  var %g : f32[2] = [[1, 2], [3, 4]] {replica_grouping = (2, 2)}
  var %all : f32[] = 7 {retrieval = all_replicas}
  %r = add %g, 0
}
run
print %g, %all, %r
write %g = [[0, 0], [9, 9]]
print %g
)");
  EXPECT_TRUE(f.ok) << f.err.str();
  // (2, 2) over 4 replicas assigns groups 0 1 0 1.
  EXPECT_EQ(f.take(),
            "%g: f32[2,2] = [[1, 2], [3, 4]]\n"
            "%all: f32[4] = [7, 7, 7, 7]\n"
            "%r: f32[4,2] = [[1, 2], [3, 4], [1, 2], [3, 4]]\n"
            "%g: f32[2,2] = [[0, 0], [9, 9]]\n");
}

TEST(Session, FeedShapeMustBeTheFullBufferShape) {
  Fixture f(R"(
ir {replication = 2}
h2d $x : f32[3]
feed $x = [1, 2, 3]
)");
  EXPECT_FALSE(f.ok);
  EXPECT_NE(f.err.str().find("s.pir:4:11: error: feed $x: "), std::string::npos) << f.err.str();
  EXPECT_NE(f.err.str().find("[2,3]"), std::string::npos) << f.err.str();
}

TEST(Session, ScalarFeedForASingleElementBuffer) {
  Fixture f(R"(
h2d $x : i32[1]
d2h $y : i32[1]
main {
  %a = host_load $x
  host_store $y, %a
}
feed $x = 5
run
print $y
)");
  EXPECT_TRUE(f.ok) << f.err.str();
  EXPECT_EQ(f.take(), "$y: i32[1] = [5]\n");
}

TEST(Session, IntegerDivisionByZeroIsLocatedWithTheReplica) {
  Fixture f(R"(
ir {replication = 2}
h2d $d : i32[]
main {
  var %w : i32[] = 1
  accumulate_ %w, 1
  %d = host_load $d
  %q = div %w, %d
}
feed $d = [1, 0]
run
)");
  EXPECT_FALSE(f.ok);
  EXPECT_NE(f.err.str().find("s.pir:8:8: error: div: integer division by zero (replica 1)\n"
                             "    %q = div %w, %d\n"
                             "         ^"),
            std::string::npos)
      << f.err.str();
  // Nothing of the failed run is kept.
  EXPECT_TRUE(f.session->print("%w", {})) << f.err.str();
  EXPECT_EQ(f.take(), "%w: i32[] = 1\n");
}

TEST(Session, StreamNeverFedNamesTheStreamAndItsDeclaration) {
  Fixture f(R"(h2d $x : f32[2]
main {
  %a = host_load $x
}
run
)");
  EXPECT_FALSE(f.ok);
  EXPECT_NE(f.err.str().find("s.pir:3:8: error: host_load: stream $x was never fed"), std::string::npos)
      << f.err.str();
  EXPECT_NE(f.err.str().find("s.pir:1:5: note: $x is declared here"), std::string::npos) << f.err.str();
}

TEST(Session, RemoteBuffersAndOffsetOutOfRange) {
  Fixture f(R"(
remote_buffer $rb : f32[2] {entries = 2}
h2d $off : i32[]
d2h $y : f32[2]
main {
  const %v : f32[2] = [3, 4]
  remote_store $rb, 1, %v
  %o = host_load $off
  %l = remote_load $rb, %o
  host_store $y, %l
}
feed $off = 1
run
print $y
feed $off = 2
run
)");
  EXPECT_FALSE(f.ok);
  EXPECT_EQ(f.take(), "$y: f32[2] = [3, 4]\n");
  EXPECT_EQ(f.value("$rb").type.str(), "f32[2,2]");
  EXPECT_EQ(f.value("$rb").get(3), 4);
  EXPECT_NE(f.err.str().find("s.pir:9:8: error: remote_load: offset 2 is out of range for $rb with 2 entries"),
            std::string::npos)
      << f.err.str();
}

TEST(Session, GatherIndexOutOfRangeIsARuntimeError) {
  Fixture f(R"(
main {
  const %t : f32[3] = [1, 2, 3]
  const %i : i32[1] = [7]
  %g = gather %t, %i
}
run
)");
  EXPECT_FALSE(f.ok);
  EXPECT_NE(f.err.str().find("s.pir:5:8: error: gather: "), std::string::npos) << f.err.str();
}

TEST(Session, TensorLargerThanTheDeviceIsRejectedBeforeAllocation) {
  Fixture f(R"(
ir {tiles_per_ipu = 4, tile_memory = 1024}
main {
  %z = init {shape = [100000, 100000], dtype = f32}
}
run
)");
  EXPECT_FALSE(f.ok);
  // The per-tile check of runtime.md §7 runs before anything is compiled or allocated.
  EXPECT_NE(f.err.str().find("error: out of memory on tile 0: 10000000544 bytes needed at its peak, 1024 available"),
            std::string::npos)
      << f.err.str();
}

TEST(Session, SnapshotRestoreResetAndPreview) {
  Fixture f(R"(
h2d $x : f32[]
main {
  var %w : f32[] = 2
  const %c : f32[] = 3
  %p = mul %w, %c
  accumulate_ %w, 1
  %after = add %w, 0
  %x = host_load $x
  %q = add %p, %x
}
)");
  ASSERT_TRUE(f.ok) << f.err.str();
  auto value = [&](const char* name) { return f.m.main->lookup(name); };
  Previewer previewer(*f.session, f.diags);  // api/preview.h, over the session's public API
  auto p = previewer.preview(*value("p")).value;
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->get(0), 6);
  auto after = previewer.preview(*value("after")).value;
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->get(0), 3);  // sees the in-place update before it...
  EXPECT_FALSE(previewer.preview(*value("q")).value.has_value());  // ...but nothing fed from the host
  EXPECT_TRUE(f.session->print("%w", {})) << f.err.str();
  EXPECT_EQ(f.take(), "%w: f32[] = 2\n");  // previews change nothing

  auto snap = f.session->snapshot();
  EXPECT_TRUE(f.more("feed $x = 1\nrun\nprint %w, %q\n"));
  EXPECT_EQ(f.take(), "%w: f32[] = 3\n%q: f32[] = 7\n");
  f.session->restore(snap);
  EXPECT_TRUE(f.session->print("%w", {})) << f.err.str();
  EXPECT_EQ(f.take(), "%w: f32[] = 2\n");
  EXPECT_TRUE(f.more("feed $x = 1\nrun\nrun\n"));
  EXPECT_TRUE(f.session->reset()) << f.err.str();
  EXPECT_TRUE(f.session->print("%w", {})) << f.err.str();
  EXPECT_EQ(f.take(), "%w: f32[] = 2\n");
  EXPECT_FALSE(f.more("run\n"));  // reset cleared the fed stream
}

TEST(Session, LastRunWrittenStreams) {
  Fixture f(R"(
d2h $a : f32[]
d2h $b : f32[]
main {
  const %c : f32[] = 1
  host_store $b, %c
}
run
)");
  ASSERT_TRUE(f.ok) << f.err.str();
  ASSERT_EQ(f.session->lastRunWrittenStreams().size(), 1u);
  EXPECT_EQ(f.session->lastRunWrittenStreams()[0]->name, "b");
}

TEST(Session, SaveWritesWhatPrintShows) {
  auto path = std::filesystem::temp_directory_path() / "pir_session_test_save.npy";
  Fixture f(R"(
main {
  var %w : i32[2,2] = [[1, 2], [3, 4]]
}
)");
  ASSERT_TRUE(f.ok) << f.err.str();
  EXPECT_TRUE(f.session->save("%w", path.string(), {})) << f.err.str();
  NpyArray a = readNpy(path.string());
  EXPECT_EQ(a.tensor.type.str(), "i32[2,2]");
  EXPECT_EQ(a.tensor.get(3), 4);
  std::filesystem::remove(path);
}

TEST(Session, CollectivesOverGroupsAreBarriersBetweenReplicas) {
  Fixture f(R"(
ir {replication = 4}
h2d $x : f32[2]
main {
  %x = host_load $x
  %s = replicated_all_reduce %x
  %m = replicated_all_reduce %x {op = max, group = (2)}
  %g = replicated_all_gather %x {output_shape = concat}
  %rs = replicated_reduce_scatter %x
  %sl = replicated_slice %x {group = (1, 2)}
  replicated_all_reduce_ %x {op = mean}
}
feed $x = [[1, 2], [3, 4], [5, 6], [7, 8]]
run
print %s, %m, %g, %rs, %sl, %x
)");
  EXPECT_TRUE(f.ok) << f.err.str();
  EXPECT_EQ(f.take(),
            "%s: f32[4,2] = [[16, 20], [16, 20], [16, 20], [16, 20]]\n"
            "%m: f32[4,2] = [[5, 6], [7, 8], [5, 6], [7, 8]]\n"
            "%g: f32[4,8] = [[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8], "
            "[1, 2, 3, 4, 5, 6, 7, 8]]\n"
            "%rs: f32[4,1] = [[16], [20], [0], [0]]\n"
            "%sl: f32[4,1] = [[1], [4], [5], [8]]\n"
            "%x: f32[4,2] = [[4, 5], [4, 5], [4, 5], [4, 5]]\n");
}

TEST(Session, AFailingReplicaStopsTheOthersAtTheNextCollective) {
  Fixture f(R"(
ir {replication = 2}
h2d $d : i32[]
main {
  const %one : i32[] = 1
  %d = host_load $d
  %q = div %one, %d
  %s = replicated_all_reduce %q
}
feed $d = [0, 1]
run
)");
  EXPECT_FALSE(f.ok);
  EXPECT_NE(f.err.str().find("s.pir:7:8: error: div: integer division by zero (replica 0)"), std::string::npos)
      << f.err.str();
  EXPECT_EQ(f.err.str().find("aborted"), std::string::npos) << f.err.str();
}

TEST(Session, FeedFromAnNpyFileAndAFailedRunKeepsNothing) {
  auto dir = std::filesystem::temp_directory_path();
  auto path = dir / "pir_session_test_feed.npy";
  const float data[2][2] = {{1, 2}, {3, 4}};
  writeNpy(path.string(), DType::F32, {2, 2}, data);
  Fixture f("ir {num_host_transfers = 2}\n"
            "h2d $x : f32[2]\n"
            "h2d $never : f32[]\n"
            "d2h $y : f32[2]\n"
            "main {\n"
            "  %a = host_load $x\n"
            "  %b = host_load $x\n"
            "  %s = add %a, %b\n"
            "  host_store $y, %s\n"
            "}\n"
            "feed $x = load(\"" + path.string() + "\")\n"
            "run\n"
            "print $y\n");
  EXPECT_TRUE(f.ok) << f.err.str();
  EXPECT_EQ(f.take(), "$y: f32[2,2] = [[4, 6], [0, 0]]\n");
  // A later statement reads a stream never fed: the run fails, $y is unchanged.
  // (Without the rollback slot 1 would hold [1, 2] and slot 0 [1, 2].)
  EXPECT_FALSE(f.more("host_store $y, %a\nhost_store $y, %a\n%n = host_load $never\nrun\n"));
  EXPECT_NE(f.err.str().find("host_load: stream $never was never fed"), std::string::npos) << f.err.str();
  EXPECT_TRUE(f.session->print("$y", {})) << f.err.str();
  EXPECT_EQ(f.take(), "$y: f32[2,2] = [[4, 6], [0, 0]]\n");
  std::filesystem::remove(path);
}

// ---- budgets and counts ---------------------------------------------------------

// The step budget stops a run at the instruction that exceeds it, with a
// located error; the state is as before the run.
TEST(Session, StepBudgetIsALocatedError) {
  SessionOptions options;
  options.maxSteps = 1000;
  Fixture f(R"(graph @b(%x: f32[]) -> (f32[]) {
  %y = add %x, 1
  return %y
}
var %v : f32[] = 5
main {
  %r = repeat @b(%v) {count = 4294967296}
  copy_var_update_ %v, %r
}
run
)", options);
  EXPECT_FALSE(f.ok);
  // The instruction that would exceed it is blamed: with heap frames the
  // repeat's own back edge counts as an instruction, and here it is the one.
  EXPECT_NE(f.err.str().find("s.pir:7:8: error: repeat: the step budget is spent: this instruction needs 1 step, 0 left"),
            std::string::npos)
      << f.err.str();
  EXPECT_TRUE(f.more("print %v"));
  EXPECT_EQ(f.take(), "%v: f32[] = 5\n");
}

// An instruction costs one step plus one per 64 elements it touches, so the budget
// bounds work, not instruction count: `add` of f32[6400] and a literal touches
// 6400 + 1 + 6400 elements (201 steps). A matmul counts its multiply-adds too.
TEST(Session, StepBudgetWeighsElements) {
  auto run = [](uint64_t steps, const std::string& body, std::string* err = nullptr) {
    SessionOptions options;
    options.maxSteps = steps;
    Fixture f(body + "run\n", options);
    if (err) *err = f.err.str();
    return f.ok;
  };
  const std::string wide = "var %v : f32[6400] = 0\nmain {\n  %a = add %v, 1\n}\n";
  EXPECT_TRUE(run(201, wide));
  std::string err;
  EXPECT_FALSE(run(200, wide, &err));
  EXPECT_NE(err.find("s.pir:3:8: error: add: the step budget is spent: this instruction needs 201 steps, 200 left"),
            std::string::npos)
      << err;
  // 3 x 4096 elements and 64^3 multiply-adds: 1 + 274432 / 64 = 4289 steps.
  const std::string matmul = "var %a : f32[64,64] = 0\nmain {\n  %c = matmul %a, %a\n}\n";
  EXPECT_TRUE(run(4289, matmul));
  EXPECT_FALSE(run(4288, matmul, &err));
  EXPECT_NE(err.find("needs 4289 steps, 4288 left"), std::string::npos) << err;
}

// Kernels whose work outgrows their tensors are charged for it (ir/op_work.h), so
// a small tensor cannot buy a long run: a sliding window counts its cells at every
// position, topk its partial sort's comparisons.
TEST(Session, StepBudgetWeighsWindowsAndSelection) {
  auto stepsNeeded = [](const std::string& body) -> std::string {
    SessionOptions options;
    options.maxSteps = 1;
    Fixture f(body + "run\n", options);
    const std::string err = f.err.str();
    const size_t at = err.find("needs ");
    return at == std::string::npos ? err : err.substr(at, err.find(' ', at + 6) - at);
  };
  // 4096 + 1089 elements, and 1089 windows of 32 x 32 cells: 1 + 1120321 / 64 steps.
  EXPECT_EQ(stepsNeeded("var %x : f32[1,1,64,64] = 0\nmain {\n  %p = max_pool %x {kernel = [32, 32], stride = [1, 1]}\n}\n"),
            "needs 17506");
  // lrn over 512 channels of 8 columns: 2 x 4096 elements, and 4096 windows of 512.
  EXPECT_EQ(stepsNeeded("var %x : f32[1,512,8] = 1\nmain {\n  %y = lrn %x {size = 512}\n}\n"), "needs 32897");
  // 4096 + 1024 + 1024 elements, and 4096 x ceil(log2(1025)) = 45056 comparisons.
  EXPECT_EQ(stepsNeeded("var %x : f32[4096] = 0\nmain {\n  %v, %i = topk %x {k = 1024}\n}\n"), "needs 801");
}

// The budget is the session's: runs spend it together, the run that would exceed
// it fails with the state restored, and so does every later run.
TEST(Session, StepBudgetIsSharedByTheSessionsRuns) {
  SessionOptions options;
  options.maxSteps = 3;
  Fixture f("var %v : f32[] = 0\nmain {\n  accumulate_ %v, 1\n}\nrun 3\nprint %v\n", options);
  ASSERT_TRUE(f.ok) << f.err.str();
  EXPECT_EQ(f.take(), "%v: f32[] = 3\n");
  EXPECT_FALSE(f.more("run"));  // no step left: the run stops before its first instruction
  EXPECT_NE(f.err.str().find("error: run: the step budget is spent: a run needs 1 step, 0 left"), std::string::npos)
      << f.err.str();
  EXPECT_TRUE(f.more("print %v"));
  EXPECT_EQ(f.take(), "%v: f32[] = 3\n");
  EXPECT_FALSE(f.more("run"));
}

// A run of a program with no instructions still spends a step, so `run N` with a
// huge N ends at the budget (a fuzz input's `run 8888888888888888` ran for ever).
TEST(Session, EveryRunSpendsAStepEvenWithoutInstructions) {
  SessionOptions options;
  options.maxSteps = 5;
  Fixture f("var %v : f32[] = 7\nrun 5\n", options);
  ASSERT_TRUE(f.ok) << f.err.str();
  EXPECT_FALSE(f.more("run 8888888888888888"));
  EXPECT_NE(f.err.str().find("error: run: the step budget is spent: a run needs 1 step, 0 left"), std::string::npos)
      << f.err.str();
  EXPECT_TRUE(f.more("print %v"));
  EXPECT_EQ(f.take(), "%v: f32[] = 7\n");
}

// Repeat counts are int64: 2^32 + 3 iterations are not 3 (it was cut to 32 bits).
// Without running 4 billion iterations: the budget shows the body runs past 3.
TEST(Session, RepeatCountIsNotCutTo32Bits) {
  SessionOptions options;
  options.maxSteps = 100;
  Fixture small(R"(graph @b(%x: f32[]) -> (f32[]) {
  %y = add %x, 1
  return %y
}
var %v : f32[] = 0
main {
  %r = repeat @b(%v) {count = 3}
  copy_var_update_ %v, %r
}
run
print %v
)", options);
  EXPECT_TRUE(small.ok) << small.err.str();
  EXPECT_EQ(small.take(), "%v: f32[] = 3\n");
  Fixture huge(R"(graph @b(%x: f32[]) -> (f32[]) {
  %y = add %x, 1
  return %y
}
var %v : f32[] = 0
main {
  %r = repeat @b(%v) {count = 4294967299}
  copy_var_update_ %v, %r
}
run
)", options);
  EXPECT_FALSE(huge.ok);
  EXPECT_NE(huge.err.str().find("the step budget is spent"), std::string::npos) << huge.err.str();
}

// One host-memory budget: a run whose backup and values do not fit fails at the
// `run` with a located message and leaves the session as it was.
TEST(Session, HostMemoryBudgetIsALocatedErrorAndKeepsTheState) {
  const uint64_t saved = hostMemoryLimit();
  setHostMemoryLimit(hostMemoryInUse() + (uint64_t(9) << 20));
  Fixture f(R"(var %v : f32[1024, 1024] = ones
main {
  %w = add %v, 1
  copy_var_update_ %v, %w
}
run
)");
  setHostMemoryLimit(saved);
  EXPECT_FALSE(f.ok);
  EXPECT_NE(f.err.str().find("s.pir:6:1: error: out of host memory:"), std::string::npos) << f.err.str();
  EXPECT_TRUE(f.more("run\nprint %v"));
  EXPECT_NE(f.take().find("%v: f32[1024,1024] = [[2, 2, 2, ..., 2, 2, 2]"), std::string::npos);
}

// ---- run backups, copy-on-write snapshots, main-value liveness ------------

// A run that fails after updating a variable in place (here inside a called graph,
// through a by-reference param) and writing a remote buffer leaves both as before.
TEST(Session, FailedRunAfterAnInPlaceUpdateAndARemoteStoreRestoresBoth) {
  Fixture f(R"(
remote_buffer $rb : f32[2] {entries = 2}
h2d $d : i32[]
graph @bump(%p: &f32[2]) -> () {
  add_ %p, 10
  return
}
main {
  var %w : f32[2] = [1, 2]
  var %untouched : f32[2] = [5, 6]
  call @bump(%w)
  remote_store $rb, 1, %w
  %s = add %untouched, %w
  %d = host_load $d
  %q = div 7, %d
}
feed $d = 1
run
print %w
)");
  ASSERT_TRUE(f.ok) << f.err.str();
  EXPECT_EQ(f.take(), "%w: f32[2] = [11, 12]\n");
  EXPECT_EQ(f.value("$rb").get(3), 12);
  EXPECT_FALSE(f.more("feed $d = 0\nrun\n"));
  EXPECT_NE(f.err.str().find("div: integer division by zero"), std::string::npos) << f.err.str();
  EXPECT_TRUE(f.session->print("%w", {})) << f.err.str();
  EXPECT_TRUE(f.session->print("%s", {})) << f.err.str();
  EXPECT_EQ(f.take(), "%w: f32[2] = [11, 12]\n%s: f32[2] = [16, 18]\n");
  // The remote store of the failed run wrote 21, 22: gone.
  HostTensor rb = f.value("$rb");
  EXPECT_EQ(rb.get(0), 0);
  EXPECT_EQ(rb.get(2), 11);
  EXPECT_EQ(rb.get(3), 12);
  // The write set is exactly what the run writes.
  const CompiledGraph& main = *f.compiled().main;
  EXPECT_EQ(main.writtenVars, std::vector<uint32_t>{0});  // %w, not %untouched
  EXPECT_EQ(main.writtenRemote.size(), 1u);
  EXPECT_TRUE(main.writtenStreams.empty());
}

// Snapshots share buffers: taking one costs nothing; a run then costs the budget
// exactly the variable it updates (the snapshot keeps the old contents), and
// without a snapshot a run keeps no backup once it succeeded.
TEST(Session, SnapshotsAndBackupsCostOnlyWhatTheRunWrites) {
  Fixture f(R"(
main {
  var %a : f32[262144] = ones
  var %b : f32[262144] = ones
  add_ %a, 1
  %s = sum %b
}
)");
  ASSERT_TRUE(f.ok) << f.err.str();
  EXPECT_TRUE(f.session->program()) << f.err.str();
  const uint64_t variable = 262144 * 4;
  EXPECT_TRUE(f.more("run\n"));
  const uint64_t settled = hostMemoryInUse();
  EXPECT_TRUE(f.more("run\n"));
  EXPECT_EQ(hostMemoryInUse(), settled);  // no backup outlives a successful run
  auto snap = f.session->snapshot();
  EXPECT_EQ(hostMemoryInUse(), settled);  // a snapshot copies nothing
  EXPECT_TRUE(f.more("run\n"));
  const uint64_t withSnapshot = hostMemoryInUse();
  EXPECT_GE(withSnapshot, settled + variable);            // the old %a...
  EXPECT_LT(withSnapshot, settled + variable + 4096);     // ...and the small main arena, nothing of %b
  f.session->restore(snap);
  EXPECT_TRUE(f.session->print("%a", {})) << f.err.str();
  EXPECT_EQ(f.take(), "%a: f32[262144] = [3, 3, 3, ..., 3, 3, 3]\n");
  snap.reset();
  EXPECT_TRUE(f.more("run\n"));
  EXPECT_EQ(hostMemoryInUse(), settled);
  // A failed run keeps nothing either.
  EXPECT_FALSE(f.more("h2d $never : f32[]\n%n = host_load $never\nrun\n"));
  EXPECT_TRUE(f.session->print("%a", {})) << f.err.str();
  EXPECT_EQ(f.take(), "%a: f32[262144] = [4, 4, 4, ..., 4, 4, 4]\n");
}

// `pir run`'s options: only the main values a later command names are kept (the
// others share buffers by liveness), and a failed run keeps no backup.
TEST(Session, KeptMainNamesFreeTheOtherMainValues) {
  const std::string text = R"(
main {
  %x0 = init {shape = [1024], dtype = f32}
  %x1 = add %x0, 1
  %x2 = add %x1, 1
  %x3 = add %x2, 1
  %x4 = add %x3, 1
  %x5 = add %x4, 1
  add_ %x5, 1
}
)";
  Fixture all(text);
  SessionOptions options;
  options.keptMainNames = std::set<std::string>{"x2"};
  options.restoreOnFailure = false;
  Fixture some(text, options);
  ASSERT_TRUE(all.ok && some.ok) << all.err.str() << some.err.str();
  EXPECT_EQ(all.compiled().main->arenaBytes, 6u * 4096);
  // %x2 kept, and one buffer for the others: each add's result takes the buffer of
  // the operand that dies at it.
  EXPECT_EQ(some.compiled().main->arenaBytes, 2u * 4096);
  EXPECT_TRUE(some.more("run\nprint %x2\n"));
  EXPECT_EQ(some.take(), "%x2: f32[1024] = [2, 2, 2, ..., 2, 2, 2]\n");
  EXPECT_FALSE(some.more("print %x4\n"));
  EXPECT_NE(some.err.str().find("print: %x4 is not kept after a run"), std::string::npos) << some.err.str();
  // The kept value survives recompiles, also when it is an in-place result's storage.
  Fixture alias(text, [] {
    SessionOptions o;
    o.keptMainNames = std::set<std::string>{"x5"};
    return o;
  }());
  EXPECT_TRUE(alias.more("run\n%y = add %x0, 0\nprint %x5\n"));
  EXPECT_EQ(alias.take(), "%x5: f32[1024] = [6, 6, 6, ..., 6, 6, 6]\n");
}

// Without restoreOnFailure a failed run leaves no printable main value (its
// values are partly computed); variables are as far as the run got.
TEST(Session, WithoutRestoreAFailedRunLeavesNoMainValues) {
  SessionOptions options;
  options.restoreOnFailure = false;
  Fixture f(R"(
h2d $d : i32[]
main {
  var %w : i32[] = 1
  accumulate_ %w, 1
  %d = host_load $d
  %q = div %w, %d
}
feed $d = 1
run
feed $d = 0
run
)", options);
  EXPECT_FALSE(f.ok);
  EXPECT_FALSE(f.more("print %q\n"));
  EXPECT_NE(f.err.str().find("%q has no value yet"), std::string::npos) << f.err.str();
}

// Operand and result counts beyond 16 bits (they wrapped: split/concat overflowed
// a heap buffer).
TEST(Session, SeventyThousandOperandsAndResults) {
  const int n = 70000;
  std::string names, ones, data;
  for (int i = 0; i < n; ++i) {
    names += (i ? ", %p" : "%p") + std::to_string(i);
    ones += i ? ", 1" : "1";
    data += (i ? ", " : "") + std::to_string(i % 7);
  }
  Fixture f("d2h $y : f32[" + std::to_string(n) + "]\nconst %x : f32[" + std::to_string(n) + "] = [" + data +
            "]\nmain {\n  " + names + " = split %x {axis = 0, splits = [" + ones + "]}\n  %c = concat " + names +
            " {axis = 0}\n  host_store $y, %c\n}\nrun\n");
  ASSERT_TRUE(f.ok) << f.err.str().substr(0, 500);
  HostTensor y = f.value("$y");
  ASSERT_EQ(y.numElements(), n);
  for (int i = 0; i < n; i += 9973) EXPECT_EQ(y.get(i), i % 7) << i;
  EXPECT_EQ(y.get(n - 1), (n - 1) % 7);
}

}  // namespace
}  // namespace pir::vm
