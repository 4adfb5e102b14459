// Deep recursion (ir/stack.h): the large-stack thread and the stack check.
#include <gtest/gtest.h>

#include <pthread.h>

#include <stdexcept>
#include <thread>

#include "ir/stack.h"

namespace pir {
namespace {

// Recurses until the stack check says stop; returns the depth reached.
size_t recurseUntilNearlyExhausted(size_t depth) {
  volatile char frame[512];  // a frame of some size, kept by the compiler
  frame[0] = static_cast<char>(depth);
  if (stackNearlyExhausted()) return depth;
  const size_t reached = recurseUntilNearlyExhausted(depth + 1);
  frame[1] = frame[0];  // used after the call: not a tail call, each level keeps its frame
  return reached;
}

TEST(Stack, TheCheckStopsARecursionBeforeTheStackEnds) {
  // On this thread (8 MB or what the test runner has) the recursion stops, with
  // 1 MiB left, instead of overflowing.
  EXPECT_GT(recurseUntilNearlyExhausted(0), 100u);
}

TEST(Stack, TheLargeStackHoldsAMuchDeeperRecursion) {
  size_t here = 0, there = 0;
  std::thread([&] { here = recurseUntilNearlyExhausted(0); }).join();  // a default thread: 8 MB
  runWithLargeStack([&] { there = recurseUntilNearlyExhausted(0); });
  EXPECT_GT(there, 50 * here);  // 1 GiB against 8 MB
}

TEST(Stack, RunWithLargeStackRunsOnAnotherThreadAndRethrows) {
  const pthread_t caller = pthread_self();
  bool other = false;
  runWithLargeStack([&] { other = !pthread_equal(caller, pthread_self()); });
  EXPECT_TRUE(other);
  EXPECT_THROW(runWithLargeStack([] { throw std::runtime_error("inside"); }), std::runtime_error);
}

}  // namespace
}  // namespace pir
