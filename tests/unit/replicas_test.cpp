// Replicas: the collective kernels (dtype arithmetic, replica order, in-place
// safety across work items), the replica pool (results independent of the
// thread count, many replicas, faults), and the heap frame stack (deep calls).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <regex>
#include <sstream>

#include "frontend/builder.h"
#include "ir/half.h"
#include "api/session_driver.h"
#include "vm/kernels_collective.h"
#include "vm/replica_pool.h"
#include "vm/session.h"

namespace pir::vm {
namespace {

struct Fixture {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  Module m;
  std::ostringstream out, err, trace;
  std::unique_ptr<Session> session;
  std::unique_ptr<pir::SessionDriver> driver;
  bool ok = false;

  explicit Fixture(const std::string& text, int threads = 0, bool withTrace = false) {
    diags.setStream(&err);
    SessionOptions options;
    options.threads = threads;
    if (withTrace) options.trace = &trace;
    session = std::make_unique<Session>(m, diags, out, options);
    driver = std::make_unique<pir::SessionDriver>(m, *session, diags);
    ok = driver->build(sm.add("s.pir", text), ".").succeeded();
  }
  bool more(const std::string& text) { return driver->build(sm.add("s.pir", text), ".").succeeded(); }
};

// The fixture's program, compiled, and a device state for it: `replicas` replicas,
// each with the one variable `var`, their main arenas allocated.
const Program* compiledProgram(Fixture& f) {
  FailureOr<const Program*> compiled = f.session->program();
  return compiled ? *compiled : nullptr;
}
DeviceState stateFor(const Program& p, int replicas, const HostTensor& var) {
  DeviceState state;
  state.vars.assign(static_cast<size_t>(replicas), std::vector<HostTensor>{var});
  state.remote.resize(static_cast<size_t>(replicas));
  state.mainValues.assign(static_cast<size_t>(replicas), AlignedBytes(p.main->arenaBytes));
  return state;
}

// A job over `inputs` of type t (all members computed here).
struct Job {
  CollectiveSpec spec;
  TensorType in, out;
  std::vector<HostTensor> outs;
  CollectiveJob job;
  Job(CollectiveSpec s, TensorType t, const std::vector<HostTensor>& inputs, TensorType o = {})
      : spec(s), in(t), out(o.shape.empty() && o.dtype == DType::F32 ? t : o) {
    for (const HostTensor& x : inputs) {
      outs.emplace_back(out);
      job.inputs.push_back(x.bytes.data());
      job.outputs.push_back(outs.back().bytes.data());
    }
    job.spec = &spec;
    job.inType = &in;
    job.outType = &out;
  }
};

HostTensor tensorOf(DType t, std::vector<double> values) {
  HostTensor x(TensorType{t, {static_cast<int64_t>(values.size())}});
  for (size_t i = 0; i < values.size(); ++i) x.set(static_cast<int64_t>(i), values[i]);
  return x;
}

CollectiveSpec allReduce(CollectiveSpec::Reduce r) {
  CollectiveSpec s;
  s.kind = CollectiveSpec::Kind::AllReduce;
  s.reduce = r;
  return s;
}

TEST(CollectiveKernels, IntegerSumsAndProductsWrapLikeTheElementwiseKernels) {
  std::vector<HostTensor> xs{tensorOf(DType::I32, {2147483647, -2147483648.0, 46341}),
                             tensorOf(DType::I32, {1, -1, 46341})};
  Job sum(allReduce(CollectiveSpec::Reduce::Add), xs[0].type, xs);
  runCollective(sum.job);
  EXPECT_EQ(sum.outs[0].get(0), -2147483648.0);
  EXPECT_EQ(sum.outs[0].get(1), 2147483647.0);
  Job prod(allReduce(CollectiveSpec::Reduce::Mul), xs[0].type, xs);
  runCollective(prod.job);
  EXPECT_EQ(prod.outs[1].get(2), static_cast<double>(static_cast<int32_t>(46341u * 46341u)));
}

TEST(CollectiveKernels, HalfRoundsAfterEveryStepInReplicaOrder) {
  // 2048 + 1 rounds back to 2048 in f16 (spacing 2), so the order is visible:
  // ((2048 + 1) + 1) = 2048, while the exact sum 2050 is representable.
  std::vector<HostTensor> xs{tensorOf(DType::F16, {2048}), tensorOf(DType::F16, {1}), tensorOf(DType::F16, {1})};
  Job sum(allReduce(CollectiveSpec::Reduce::Add), xs[0].type, xs);
  runCollective(sum.job);
  for (const HostTensor& o : sum.outs) EXPECT_EQ(o.get(0), 2048.0);
}

TEST(CollectiveKernels, MinAndMaxPropagateNaNAndMeanDividesInTheDtype) {
  const double nan = std::nan("");
  std::vector<HostTensor> xs{tensorOf(DType::F32, {1, 5, 1}), tensorOf(DType::F32, {nan, 2, 2}),
                             tensorOf(DType::F32, {3, nan, 4})};
  Job mx(allReduce(CollectiveSpec::Reduce::Max), xs[0].type, xs);
  runCollective(mx.job);
  EXPECT_TRUE(std::isnan(mx.outs[0].get(0)));
  EXPECT_TRUE(std::isnan(mx.outs[0].get(1)));
  EXPECT_EQ(mx.outs[0].get(2), 4.0);
  Job mn(allReduce(CollectiveSpec::Reduce::Min), xs[0].type, xs);
  runCollective(mn.job);
  EXPECT_TRUE(std::isnan(mn.outs[2].get(0)));
  EXPECT_EQ(mn.outs[2].get(2), 1.0);
  std::vector<HostTensor> ints{tensorOf(DType::I16, {-7}), tensorOf(DType::I16, {2})};
  Job mean(allReduce(CollectiveSpec::Reduce::Mean), ints[0].type, ints);
  runCollective(mean.job);
  EXPECT_EQ(mean.outs[0].get(0), -2.0);  // -5 / 2 truncates toward zero, as `div`
}

TEST(CollectiveKernels, InPlaceAllReduceOverManyWorkItemsInAnyOrder) {
  // 200,000 elements span several work items; running them backwards must not
  // let one member's written output feed another member's input.
  const int64_t n = 200000;
  std::vector<HostTensor> xs;
  for (int r = 0; r < 3; ++r) {
    HostTensor x(TensorType{DType::F32, {n}});
    for (int64_t i = 0; i < n; ++i) x.as<float>()[i] = static_cast<float>(r + 1) * static_cast<float>(i % 100);
    xs.push_back(std::move(x));
  }
  CollectiveSpec spec = allReduce(CollectiveSpec::Reduce::Add);
  CollectiveJob job;
  job.spec = &spec;
  job.inType = &xs[0].type;
  job.outType = &xs[0].type;
  for (HostTensor& x : xs) {
    job.inputs.push_back(x.bytes.data());
    job.outputs.push_back(x.bytes.data());  // in place
  }
  const int64_t items = collectiveItems(job);
  EXPECT_GT(items, 1);
  for (int64_t i = items; i-- > 0;) runCollectiveItem(job, i);
  for (const HostTensor& x : xs)
    for (int64_t i = 0; i < n; i += 997) ASSERT_EQ(x.as<float>()[i], 6.0f * static_cast<float>(i % 100)) << i;
}

TEST(CollectiveKernels, TwoMembersInPlaceMatchTheReferenceBitForBit) {
  // Two float members (the one-pass path): mean is (x0 + x1) * 0.5, sum x0 + x1,
  // in place over several work items and out of place, f32 and f64 alike; a
  // member's written output never feeds the other member's input.
  const int64_t n = 100003;
  for (CollectiveSpec::Reduce r : {CollectiveSpec::Reduce::Mean, CollectiveSpec::Reduce::Add}) {
    HostTensor a(TensorType{DType::F32, {n}}), b(TensorType{DType::F32, {n}});
    HostTensor a64(TensorType{DType::F64, {n}}), b64(TensorType{DType::F64, {n}});
    std::vector<float> want(static_cast<size_t>(n));
    std::vector<double> want64(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const float x = 0.1f * static_cast<float>(i % 977) - 3.3f, y = 1.0f / static_cast<float>(1 + i % 13);
      a.as<float>()[i] = x;
      b.as<float>()[i] = y;
      want[static_cast<size_t>(i)] = r == CollectiveSpec::Reduce::Mean ? (x + y) / 2.0f : x + y;
      a64.as<double>()[i] = x;
      b64.as<double>()[i] = y;
      want64[static_cast<size_t>(i)] = r == CollectiveSpec::Reduce::Mean ? (double(x) + double(y)) / 2.0 : double(x) + double(y);
    }
    std::vector<HostTensor> outOfPlace{a, b};
    Job copy(allReduce(r), a.type, outOfPlace);
    runCollective(copy.job);
    CollectiveSpec spec = allReduce(r);
    for (HostTensor* pair : {&a, &a64}) {
      HostTensor& x0 = *pair;
      HostTensor& x1 = pair == &a ? b : b64;
      CollectiveJob job;
      job.spec = &spec;
      job.inType = &x0.type;
      job.outType = &x0.type;
      job.inputs = {x0.bytes.data(), x1.bytes.data()};
      job.outputs = {x0.bytes.data(), x1.bytes.data()};  // in place
      for (int64_t i = collectiveItems(job); i-- > 0;) runCollectiveItem(job, i);
    }
    for (int64_t i = 0; i < n; ++i) {
      const size_t k = static_cast<size_t>(i);
      ASSERT_EQ(a.as<float>()[i], want[k]) << i;
      ASSERT_EQ(b.as<float>()[i], want[k]) << i;
      ASSERT_EQ(copy.outs[1].as<float>()[i], want[k]) << i;
      ASSERT_EQ(a64.as<double>()[i], want64[k]) << i;
      ASSERT_EQ(b64.as<double>()[i], want64[k]) << i;
    }
  }
}

TEST(CollectiveKernels, ReduceScatterPadsTheLastChunkWithZeros) {
  std::vector<HostTensor> xs{tensorOf(DType::F32, {1, 2, 3, 4, 5}), tensorOf(DType::F32, {10, 20, 30, 40, 50})};
  CollectiveSpec spec;
  spec.kind = CollectiveSpec::Kind::ReduceScatter;
  Job rs(spec, xs[0].type, xs, TensorType{DType::F32, {3}});
  runCollective(rs.job);
  EXPECT_EQ(rs.outs[0].get(0), 11.0);
  EXPECT_EQ(rs.outs[0].get(2), 33.0);
  EXPECT_EQ(rs.outs[1].get(0), 44.0);
  EXPECT_EQ(rs.outs[1].get(1), 55.0);
  EXPECT_EQ(rs.outs[1].get(2), 0.0);
}

const char* kTraining = R"(
ir {replication = 6}
graph @step(%w: f32[4], %x: f32[4]) -> (f32[4]) {
  %g = mul %x, %w
  %s = replicated_all_reduce %g {op = mean, group = (1, 3)}
  %t = replicated_all_reduce %s {op = add, group = (3, 2)}
  %u = sub %w, %t
  return %u
}
main {
  var %w : f32[4] = [1, 2, 3, 4]
  var %x : f32[4] = [[1, 0.5, 0.25, 2], [3, 1, 1, 1], [0.1, 0.2, 0.3, 0.4], [2, 2, 2, 2], [1, 1, 1, 1], [-1, 0, 1, 0.5]] {replica_grouping = (1, 1)}
  %w2 = repeat @step(%w, %x) {count = 5}
  %p = print_tensor %w2
}
run
print %w2
)";

TEST(ReplicaPool, OutputAndTraceAreIndependentOfTheThreadCount) {
  Fixture one(kTraining, 1, true);
  ASSERT_TRUE(one.ok) << one.err.str();
  for (int threads : {2, 3, 4, 16}) {
    Fixture f(kTraining, threads, true);
    ASSERT_TRUE(f.ok) << f.err.str();
    EXPECT_EQ(f.out.str(), one.out.str()) << "threads = " << threads;
    // Trace lines end with the wall time of the instruction, which varies.
    auto withoutTimes = [](const std::string& t) { return std::regex_replace(t, std::regex("  \\([0-9.]+ us\\)"), ""); };
    EXPECT_EQ(withoutTimes(f.trace.str()), withoutTimes(one.trace.str())) << "threads = " << threads;
  }
  EXPECT_NE(one.out.str().find("[replica 5] w2: "), std::string::npos) << one.out.str();
}

TEST(ReplicaPool, ThousandsOfReplicasMeetRepeatedlyInsideARepeat) {
  Fixture f(R"(
ir {replication = 3000}
graph @body(%a: i32[1]) -> (i32[1]) {
  %s = replicated_all_reduce %a {op = max}
  %t = add %s, 1
  return %t
}
main {
  var %a : i32[1] = 0
  %r = repeat @body(%a) {count = 10}
}
run
print %r
)", 2);
  ASSERT_TRUE(f.ok) << f.err.str();
  EXPECT_EQ(f.out.str().substr(0, 36), "%r: i32[3000,1] = [[10], [10], [10],");
}

TEST(ReplicaPool, AFailedRunLeavesTheStateAsBefore) {
  Fixture f(R"(
ir {replication = 2}
main {
  var %d : i32[] = [1, 1] {replica_grouping = (1, 1)}
  var %w : i32[2] = [6, 8]
  %q = div %w, %d
  replicated_all_reduce_ %w {op = add}
}
run
print %w
write %d = [1, 0]
run
)");
  EXPECT_FALSE(f.ok);
  EXPECT_NE(f.err.str().find("div: integer division by zero (replica 1)"), std::string::npos) << f.err.str();
  EXPECT_EQ(f.out.str(), "%w: i32[2] = [12, 16]\n");
  f.out.str("");
  ASSERT_TRUE(f.more("print %w\n")) << f.err.str();
  EXPECT_EQ(f.out.str(), "%w: i32[2] = [12, 16]\n");  // replica 0's value, untouched by the failed run
}

TEST(HeapFrames, CallsNestFarDeeperThanTheNativeStackWouldAllow) {
  // 30,000 nested activations (20,000 overflowed the native stack before the
  // interpreter kept its own frame stack).
  const int depth = 30000;
  std::string text;
  for (int i = depth - 1; i >= 0; --i) {
    text += "graph @g" + std::to_string(i) + "(%x: f32[1]) -> (f32[1]) {\n";
    text += i == depth - 1 ? "  %y = add %x, 1\n" : "  %y = call @g" + std::to_string(i + 1) + "(%x)\n";
    text += "  return %y\n}\n";
  }
  text += "main {\n  var %w : f32[1] = [41]\n  %y = call @g0(%w)\n}\nrun\nprint %y\n";
  Fixture f(text);
  ASSERT_TRUE(f.ok) << f.err.str().substr(0, 400);
  EXPECT_EQ(f.out.str(), "%y: f32[1] = [42]\n");
}

TEST(HeapFrames, AnInterpreterAloneCannotMeetItsGroup) {
  Fixture f(R"(
ir {replication = 2}
main {
  var %w : f32[2] = [1, 2]
  %s = replicated_all_reduce %w
}
)");
  ASSERT_TRUE(f.ok) << f.err.str();
  const Program* compiled = compiledProgram(f);
  ASSERT_TRUE(compiled) << f.err.str();
  const Program& p = *compiled;
  DeviceState state = stateFor(p, 2, HostTensor(TensorType{DType::F32, {2}}));
  Interpreter interp(f.m, p, state, 0, nullptr, &f.sm);
  try {
    interp.runMain();
    FAIL() << "expected a fault";
  } catch (const RuntimeFault& e) {
    EXPECT_STREQ(e.what(),
                 "replicated_all_reduce: a collective over 2 replicas needs the replicas running together (replica 0)");
  }
  // The pool meets the group: both replicas get the sum.
  std::vector<ReplicaOutcome> outcomes;
  Communicator single;
  state.vars[0][0].set(0, 1);
  state.vars[1][0].set(0, 5);
  runReplicas(f.m, p, state, &f.sm, false, 2, single, outcomes);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_FALSE(outcomes[0].fault || outcomes[1].fault);
}

// A session's runs of one program reuse each replica's subgraph arenas (ReplicaCosts)
// rather than fresh zeroed memory per run (the earlier run's arena is alive while the
// next allocates, so a fresh one would have another address).
TEST(HeapFrames, RunsOfOneProgramReuseTheSubgraphArenas) {
  Fixture f(R"(
ir {replication = 2}
graph @g(%a: f32[4]) -> (f32[4]) {
  %b = mul %a, %a
  %c = add %b, %a
  return %c
}
main {
  var %w : f32[4] = [1, 2, 3, 4]
  %r = call @g(%w)
}
)");
  ASSERT_TRUE(f.ok) << f.err.str();
  const Program* compiled = compiledProgram(f);
  ASSERT_TRUE(compiled) << f.err.str();
  const Program& p = *compiled;
  HostTensor w(TensorType{DType::F32, {4}});
  for (int i = 0; i < 4; ++i) w.set(i, i + 1);
  DeviceState state = stateFor(p, 2, w);
  const CompiledGraph* g = nullptr;
  for (const auto& cg : p.graphs)
    if (cg && cg->name == "g") g = cg.get();
  ASSERT_NE(g, nullptr);
  ASSERT_GT(g->arenaBytes, 0u);
  ReplicaCosts costs;
  Communicator single;
  std::vector<ReplicaOutcome> outcomes;
  std::vector<const std::byte*> first;
  std::vector<std::string> results;
  for (int run = 0; run < 3; ++run) {
    runReplicas(f.m, p, state, &f.sm, false, 2, single, outcomes, Interpreter::kUnlimitedSteps, &costs);
    ASSERT_EQ(costs.arenas.size(), 2u);
    for (size_t r = 0; r < 2; ++r) {
      ASSERT_FALSE(outcomes[r].fault);
      const AlignedBytes& arena = costs.arenas[r][g->graph->index];
      ASSERT_EQ(arena.size(), g->arenaBytes);
      if (run == 0) first.push_back(std::as_const(arena).data());
      else EXPECT_EQ(std::as_const(arena).data(), first[r]) << "run " << run << " replica " << r;
    }
  }
}

// A peer process (rank 1 of 2) whose replica reports, at the first superstep,
// the status `peer`, then that it finished.
class PeerSending : public Communicator {
 public:
  explicit PeerSending(ReplicaStatus peer) : peer_(peer) {}
  int processes() const override { return 2; }
  int rank() const override { return 0; }
  void shareStatus(std::vector<ReplicaStatus>& all, int64_t, int64_t) override {
    all[1] = calls_++ == 0 ? peer_ : ReplicaStatus{ReplicaStatus::Finished};
  }
  void shareInputs(const std::vector<int64_t>& senders, const std::vector<ReplicaStatus>&,
                   std::vector<const std::byte*>&) override {
    inputsShared += static_cast<int>(senders.size());
  }
  int inputsShared = 0;

 private:
  ReplicaStatus peer_;
  int calls_ = 0;
};

TEST(ReplicaPool, APeersStatusIsCheckedAgainstThisProgram) {
  Fixture f(R"(
ir {replication = 2}
main {
  var %w : f32[4] = [1, 2, 3, 4]
  %s = replicated_all_reduce %w
}
)");
  ASSERT_TRUE(f.ok) << f.err.str();
  const Program* compiled = compiledProgram(f);
  ASSERT_TRUE(compiled) << f.err.str();
  const Program& p = *compiled;
  uint32_t collectivePc = 0;
  while (collectivePc < p.main->code.size() && p.main->code[collectivePc].opc != Opc::Collective) ++collectivePc;
  ASSERT_LT(collectivePc, p.main->code.size());
  const ReplicaStatus outOfCode{ReplicaStatus::Parked, kMainGraphId, 1000000, 0, 16};
  const ReplicaStatus otherGraph{ReplicaStatus::Parked, 7, collectivePc, 0, 16};
  const ReplicaStatus otherSize{ReplicaStatus::Parked, kMainGraphId, collectivePc, 0, 400000};
  const ReplicaStatus notAStatus{77, kMainGraphId, collectivePc, 0, 16};
  for (const ReplicaStatus& peer : {outOfCode, otherGraph, otherSize, notAStatus}) {
    DeviceState state = stateFor(p, 2, HostTensor(TensorType{DType::F32, {4}}));
    PeerSending comm(peer);
    std::vector<ReplicaOutcome> outcomes;
    runReplicas(f.m, p, state, &f.sm, false, 1, comm, outcomes);
    ASSERT_TRUE(outcomes[0].fault.has_value()) << "pc " << peer.pc << " bytes " << peer.inputBytes;
    EXPECT_EQ(comm.inputsShared, 0);  // nothing is read from the peer
    if (peer.kind == ReplicaStatus::Parked) {
      EXPECT_NE(std::string(outcomes[0].fault->what())
                    .find("replica 1 of the group waits at a collective this program does not have, or with another "
                          "operand size (the MPI processes run different programs)"),
                std::string::npos)
          << outcomes[0].fault->what();
    }
  }
}

}  // namespace
}  // namespace pir::vm
