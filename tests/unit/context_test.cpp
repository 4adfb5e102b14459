// Two api::Contexts in one process share no state: each has its own
// host-memory budget (when it asks for one), kernel thread count, pass registry
// and interrupt requests (ir/context.h); the process's one interrupt source (a
// SIGINT) reaches both.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "ir/context.h"
#include "ir/interrupt.h"
#include "passes/pass_manager.h"
#include "pir/pir.h"

namespace pir::api {
namespace {

// A variable of 64 Ki f32 (256 KiB), doubled 40 times.
const char* kProgram =
    "var %w : f32[65536] = 1\n"
    "mul_ %w, 2\n"
    "run 40\n";

Status runIn(Context& context) {
  Result<Module> m = Module::parse(context, kProgram, "p.pir");
  if (!m) return m.status();
  Result<Session> s = Session::create(context, *m);
  if (!s) return s.status();
  return s->runScript();
}

ContextOptions withMemoryAndThreads(uint64_t maxMemory, int threads) {
  ContextOptions o;
  o.maxMemory = maxMemory;
  o.threads = threads;
  return o;
}

TEST(Context, BudgetsAndThreadsAreTheContexts) {
  Context small(withMemoryAndThreads(uint64_t(128) << 10, 1));
  Context large(withMemoryAndThreads(uint64_t(1) << 30, 2));
  EXPECT_EQ(small.hostMemoryLimit(), uint64_t(128) << 10);
  EXPECT_EQ(large.hostMemoryLimit(), uint64_t(1) << 30);

  Status refused = runIn(small);
  EXPECT_FALSE(refused);
  EXPECT_NE(refused.error().find("host memory budget of 131072 bytes"), std::string::npos) << refused.error();
  EXPECT_EQ(small.hostMemoryInUse(), 0u);  // nothing is kept of the failed program

  Result<Module> m = Module::parse(large, kProgram, "p.pir");
  ASSERT_TRUE(m) << m.error();
  Result<Session> s = Session::create(large, *m);
  ASSERT_TRUE(s) << s.error();
  ASSERT_TRUE(s->runScript());
  EXPECT_GE(large.hostMemoryInUse(), uint64_t(256) << 10);  // the variable lives in `large`
  EXPECT_EQ(small.hostMemoryInUse(), 0u);
  EXPECT_EQ(s->read("w")->at(0), 1099511627776.0);  // 2^40

  // Each run sets its context's kernel threads from its thread budget (a user's
  // OPENBLAS_NUM_THREADS caps it).
  EXPECT_EQ(small.runtime().kernelThreads(), 1);
  if (!std::getenv("OPENBLAS_NUM_THREADS")) {
    EXPECT_EQ(large.runtime().kernelThreads(), 2);
  }
  large.runtime().setKernelThreads(3);
  EXPECT_EQ(large.runtime().kernelThreads(), 3);
  EXPECT_EQ(small.runtime().kernelThreads(), 1);
}

pir::LogicalResult doNothing(pir::Module&, passes::PassContext&) { return pir::success(); }

TEST(Context, WithoutABudgetOfItsOwnAContextSharesTheProcesss) {
  Context shared;
  EXPECT_EQ(&shared.runtime().memory(), &defaultContext().memory());
  EXPECT_EQ(shared.hostMemoryLimit(), hostMemoryLimit());
}

TEST(Context, APassRegisteredInOneIsNotInTheOther) {
  Context one, other;
  {
    ContextScope scope(one.runtime());
    passes::registerPass({"do-nothing", "changes nothing", &doNothing});
    EXPECT_NE(passes::findPass("do-nothing"), nullptr);
  }
  auto has = [](const Context& c, const std::string& name) {
    std::vector<std::string> names = c.passNames();
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  EXPECT_TRUE(has(one, "do-nothing"));
  EXPECT_FALSE(has(other, "do-nothing"));
  EXPECT_EQ(passes::findPass("do-nothing"), nullptr);  // nor in the default context
  // Both have the passes of the library and of the driver.
  EXPECT_TRUE(has(one, "merge-exchange") && has(other, "merge-exchange"));
  EXPECT_TRUE(has(one, "dce") && has(other, "dce"));
}

TEST(Context, InterruptingOneDoesNotStopTheOther) {
  Context stopped, running;
  stopped.interrupt();
  Status s = runIn(stopped);
  EXPECT_FALSE(s);
  EXPECT_NE(s.error().find("interrupted"), std::string::npos) << s.error();
  EXPECT_TRUE(runIn(running)) << "the other context runs";

  stopped.clearInterrupt();
  EXPECT_TRUE(runIn(stopped));

  // A Ctrl-C (the process's one source) reaches every context, the default one
  // too, until one acknowledges it.
  raiseInterruptSignal();
  EXPECT_TRUE(stopped.runtime().interruptRequested());
  EXPECT_TRUE(running.runtime().interruptRequested());
  EXPECT_TRUE(interruptRequested());
  running.clearInterrupt();
  EXPECT_FALSE(stopped.runtime().interruptRequested());
  EXPECT_FALSE(interruptRequested());
}

}  // namespace
}  // namespace pir::api
