// The bytecode VM through sessions built from text: values, streams, calls,
// loops, conditionals, disassembly and trace.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include <sstream>

#include "frontend/builder.h"
#include "api/session_driver.h"
#include "vm/compiler.h"
#include "vm/npy.h"
#include "vm/session.h"
#include "tests/unit/spec_examples.h"

namespace pir::vm {
namespace {

struct RunResult {
  bool ok;
  std::string out, err;
};

RunResult runText(const std::string& text, SessionOptions options = {}) {
  SourceManager sm;
  uint32_t file = sm.add("t.pir", text);
  DiagnosticEngine diags(sm);
  std::ostringstream out, err;
  diags.setStream(&err);
  Module m;
  Session s(m, diags, out, options);
  pir::SessionDriver driver(m, s, diags);
  const bool ok = driver.build(file, ".").succeeded() && driver.finish().succeeded();
  return {ok && diags.errorCount() == 0, out.str(), err.str()};
}

TEST(Vm, LinearExampleOfTheSpec) {
  RunResult r = runText(test::kLanguageExample);
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, "$y: f32[2,2] = [[4.5, 5.5], [10.5, 11.5]]\n");
}


TEST(Vm, StreamsWithSeveralTransfersWrapAround) {
  // nht = 2 but three loads: the third wraps to slot 0; the d2h stream is
  // written three times, so slot 0 holds the last store.
  RunResult r = runText(R"(
ir {num_host_transfers = 2}
h2d $x : i32[2]
d2h $y : i32[2]
main {
  %a = host_load $x
  %b = host_load $x
  %c = host_load $x
  %s = add %a, %b
  %t = add %s, %c
  host_store $y, %s
  host_store $y, %t
  host_store $y, %t
}
feed $x = [[1, 2], [10, 20]]
run
print $y, %c
)");
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, "$y: i32[2,2] = [[12, 24], [12, 24]]\n%c: i32[2] = [1, 2]\n");
}

TEST(Vm, UnwrittenDeviceToHostSlotsKeepTheirValues) {
  RunResult r = runText(R"(
ir {num_host_transfers = 3}
d2h $y : f32[]
main {
  var %n : f32[] = 0
  %one = add %n, 1
  copy_var_update_ %n, %one
  host_store $y, %n
}
run
print $y
run
print $y
)");
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out,
            "$y: f32[3] = [1, 0, 0]\n"
            "$y: f32[3] = [2, 0, 0]\n");
}

TEST(Vm, ByValueCallsWorkOnACopyByReferenceCallsWriteTheCaller) {
  RunResult r = runText(R"(
graph @bump_value(%a: f32[2]) -> (f32[2]) {
  %b = add_ %a, 1
  return %b
}
graph @bump_ref(%a: &f32[2]) -> () {
  add_ %a, 10
  return
}
main {
  var %v : f32[2] = [1, 2]
  %r = call @bump_value(%v)
  %after_value = identity %v
  call @bump_ref(%v)
}
run
print %r, %after_value, %v
)");
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out,
            "%r: f32[2] = [2, 3]\n"
            "%after_value: f32[2] = [1, 2]\n"
            "%v: f32[2] = [11, 12]\n");
}

std::string repeatProgram(int count) {
  return R"(
graph @step(%acc: f32[], %i: f32[], %inc: f32[]) -> (f32[], f32[]) {
  %i2 = add %i, %inc
  %acc2 = add %acc, %i2
  return %acc2, %i2
}
main {
  const %zero : f32[] = 0
  const %one : f32[] = 1
  %acc, %i = repeat @step(%zero, %zero, %one) {count = )" +
         std::to_string(count) + R"(}
}
run
print %acc, %i
)";
}

TEST(Vm, RepeatCarriesTheFirstInputsAndKeepsTheRestInvariant) {
  const std::pair<int, std::string> cases[] = {
      {0, "%acc: f32[] = 0\n%i: f32[] = 0\n"},
      {1, "%acc: f32[] = 1\n%i: f32[] = 1\n"},
      {4, "%acc: f32[] = 10\n%i: f32[] = 4\n"},
      {10, "%acc: f32[] = 55\n%i: f32[] = 10\n"},
  };
  for (auto& [count, expected] : cases) {
    RunResult r = runText(repeatProgram(count));
    EXPECT_TRUE(r.ok) << r.err;
    EXPECT_EQ(r.out, expected) << "count = " << count;
  }
}

TEST(Vm, RepeatBodyThatSwapsItsCarriedValues) {
  RunResult r = runText(R"(
graph @swap(%a: i32[], %b: i32[]) -> (i32[], i32[]) {
  return %b, %a
}
main {
  const %x : i32[] = 1
  const %y : i32[] = 2
  %p, %q = repeat @swap(%x, %y) {count = 3}
}
run
print %p, %q
)");
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, "%p: i32[] = 2\n%q: i32[] = 1\n");
}

TEST(Vm, RepeatWithAnInPlaceBodyStartsEachIterationFromTheInvariantInput) {
  RunResult r = runText(R"(
graph @body(%acc: f32[], %inv: f32[]) -> (f32[]) {
  %w = mul_ %inv, 2
  %acc2 = add %acc, %w
  return %acc2
}
main {
  const %z : f32[] = 0
  var %three : f32[] = 3
  %r = repeat @body(%z, %three) {count = 3}
}
run
print %r, %three
)");
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, "%r: f32[] = 18\n%three: f32[] = 3\n");
}

TEST(Vm, ConditionalRunsExactlyOneBranch) {
  const char* program = R"(
h2d $c : bool[]
graph @then(%a: f32[2]) -> (f32[2]) {
  %b = mul %a, 10
  %p = print_tensor %b {title = "then"}
  return %b
}
graph @else(%a: f32[2]) -> (f32[2]) {
  %b = neg %a
  %p = print_tensor %b {title = "else"}
  return %b
}
main {
  const %v : f32[2] = [1, 2]
  %c = host_load $c
  %r = conditional %c, @then(%v), @else(%v)
}
)";
  RunResult t = runText(std::string(program) + "feed $c = true\nrun\nprint %r\n");
  EXPECT_TRUE(t.ok) << t.err;
  EXPECT_EQ(t.out, "then: [10, 20]\n%r: f32[2] = [10, 20]\n");
  RunResult f = runText(std::string(program) + "feed $c = false\nrun\nprint %r\n");
  EXPECT_TRUE(f.ok) << f.err;
  EXPECT_EQ(f.out, "else: [-1, -2]\n%r: f32[2] = [-1, -2]\n");
}

TEST(Vm, NestedCallsAndLiteralArguments) {
  RunResult r = runText(R"(
graph @inner(%a: f32[2], %k: f32[]) -> (f32[2]) {
  %b = mul %a, %k
  return %b
}
graph @outer(%a: f32[2]) -> (f32[2]) {
  %b = call @inner(%a, 3)
  %c = call @inner(%b, 0.5)
  return %c
}
main {
  const %v : f32[2] = [2, 4]
  %r = call @outer(%v)
  %s = call @outer(%r)
}
run
print %r, %s
)");
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, "%r: f32[2] = [3, 6]\n%s: f32[2] = [4.5, 9]\n");
}

TEST(Vm, PrintingAValueBeforeAnyRunIsAnError) {
  RunResult r = runText(R"(
main {
  const %v : f32[2] = [2, 4]
  %r = add %v, %v
}
print %r
)");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.err.find("t.pir:6:7: error: print: %r has no value yet"), std::string::npos) << r.err;
}

TEST(Vm, DefaultSessionRunsAndPrintsEveryDeviceToHostStream) {
  RunResult r = runText(R"(
d2h $b : i32[]
d2h $a : i32[2]
main {
  const %v : i32[2] = [2, 4]
  %s = sum %v
  host_store $a, %v
  host_store $b, %s
}
)");
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, "$b: i32[] = 6\n$a: i32[2] = [2, 4]\n");
}

TEST(Vm, ProgramGrowsBetweenRunsAndKeepsVariables) {
  RunResult r = runText(R"(
main {
  var %w : f32[] = 1
  accumulate_ %w, 1
}
run
print %w
%d = mul %w, 100
run
print %w, %d
)");
  EXPECT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, "%w: f32[] = 2\n%w: f32[] = 3\n%d: f32[] = 300\n");
}

// Buffers start on 64-byte cache lines; arena slots of a line or more start on one
// (whole AVX-512 vectors never straddle two lines), smaller slots pack at 16 bytes.
TEST(Vm, BuffersAndLargeArenaSlotsStartOnCacheLines) {
  for (size_t bytes : {size_t(0), size_t(1), size_t(16), size_t(100), size_t(4096), size_t(1) << 20}) {
    AlignedBytes b(bytes);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % 64, 0u) << bytes;
    AlignedBytes shared = b;  // copy-on-write: unsharing allocates aligned storage too
    shared.data()[0] = std::byte{1};
    EXPECT_EQ(reinterpret_cast<uintptr_t>(shared.data()) % 64, 0u) << bytes;
  }
  SourceManager sm;
  uint32_t file = sm.add("t.pir", R"(
graph @g(%a: f32[1], %b: f32[20]) -> (f32[1], f32[20], f32[2], f32[20]) {
  %c = add %a, 1
  %d = add %b, 1
  %e = concat %a, %a {axis = 0}
  %f = mul %b, 2
  return %c, %d, %e, %f
}
main {
  const %x : f32[1] = 0
  const %y : f32[20] = 0
  %r1, %r2, %r3, %r4 = call @g(%x, %y)
}
)");
  DiagnosticEngine diags(sm);
  Module m;
  std::ostringstream out;
  Session s(m, diags, out);
  ASSERT_TRUE(buildFromBuffer(m, diags, file, "."));
  FailureOr<const Program*> compiled = s.program();
  ASSERT_TRUE(compiled);
  const CompiledGraph& g = *(*compiled)->graphs.at(0);
  int large = 0, small = 0;
  for (const SlotInfo& slot : g.slots) {
    if (slot.kind != SlotInfo::Kind::Arena) continue;
    if (slot.bytes >= 64) {
      EXPECT_EQ(slot.offset % 64, 0u);
      ++large;
    } else {
      EXPECT_EQ(slot.offset % 16, 0u);
      ++small;
    }
  }
  EXPECT_EQ(large, 2);
  EXPECT_EQ(small, 2);
}

// A program text built and compiled in a session of its own (`program` null when
// either failed; the test then stops at its ASSERT on it).
struct CompiledText {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  Module m;
  std::ostringstream out;
  Session s;
  const Program* program = nullptr;
  explicit CompiledText(const char* text, SessionOptions options = {}) : s(m, diags, out, options) {
    const uint32_t file = sm.add("t.pir", text);
    if (!buildFromBuffer(m, diags, file, ".")) return;
    if (FailureOr<const Program*> compiled = s.program()) program = *compiled;
  }
};

constexpr const char* kAddChain = R"(
graph @chain(%a: f32[4]) -> (f32[4]) {
  %b = add %a, 1
  %c = add %b, 1
  %d = add %c, 1
  %e = add %d, 1
  return %e
}
main {
  const %v : f32[4] = 0
  %r = call @chain(%v)
}
)";

TEST(Vm, SubgraphIntermediatesShareBuffers) {
  SessionOptions unfused;
  unfused.fuseElementwise = false;
  CompiledText c(kAddChain, unfused);
  ASSERT_TRUE(c.program);
  // Four f32[4] results, each taking the buffer of the one before it, which dies at
  // its add: one 16-byte buffer.
  EXPECT_EQ(c.program->graphs.at(0)->arenaBytes, 16u);
  ASSERT_TRUE(c.s.run());
  FailureOr<HostTensor> r = c.s.valueOf("%r", {});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get(3), 4);
}

// Fused into one chain, %b, %c and %d live only in its block scratch: the arena
// holds the returned %e alone, and their slots have no storage.
TEST(Vm, ValuesAFusedChainKeepsInScratchTakeNoArena) {
  CompiledText c(kAddChain);
  ASSERT_TRUE(c.program);
  const CompiledGraph& g = *c.program->graphs.at(0);
  EXPECT_EQ(g.arenaBytes, 16u);
  int inScratch = 0;
  for (const SlotInfo& s : g.slots) inScratch += s.inScratch;
  EXPECT_EQ(inScratch, 3);
  ASSERT_TRUE(c.s.run());
  FailureOr<HostTensor> r = c.s.valueOf("%r", {});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get(3), 4);
}

// A reshape (any plain copy) of a value that dies at it takes that value's buffer:
// a chain of them costs one buffer, where alternating copies took two; a value still
// read afterwards keeps its own, and its reader sees both intact.
TEST(Vm, PlainCopiesOfDyingValuesTakeTheirBuffer) {
  CompiledText c(R"(
graph @chain(%a: f32[8,8]) -> (f32[2,32]) {
  %b = add %a, 1
  %r1 = reshape %b {shape = [64]}
  %r2 = reshape %r1 {shape = [4,16]}
  %r3 = reshape %r2 {shape = [2,32]}
  return %r3
}
graph @kept(%a: f32[8,8]) -> (f32[8,8]) {
  %b = add %a, 1
  %r = reshape %b {shape = [8,8]}
  %s = add %b, %r
  return %s
}
main {
  const %v : f32[8,8] = 2
  %x = call @chain(%v)
  %y = call @kept(%v)
}
)");
  ASSERT_TRUE(c.program);
  EXPECT_EQ(c.program->graphs.at(0)->arenaBytes, 256u);  // one f32[64] buffer
  EXPECT_EQ(c.program->graphs.at(1)->arenaBytes, 512u);  // %b and %r live at once; %s takes %b's
  ASSERT_TRUE(c.s.run());
  FailureOr<HostTensor> x = c.s.valueOf("%x", {});
  FailureOr<HostTensor> y = c.s.valueOf("%y", {});
  ASSERT_TRUE(x && y);
  for (int64_t i = 0; i < 64; ++i) {
    EXPECT_EQ(x->get(i), 3);
    EXPECT_EQ(y->get(i), 6);
  }
}

// An elementwise result takes the buffer of an operand of its own type that dies at
// its op, alone or as a step of a fused chain or sliced group, and the values are
// those of separate buffers: the chain's last step reads %x, which its first step read
// too, and writes over it block by block; the group's `mul` writes over the product it
// scales, slice by slice (main keeps every value, so its copy of the group shares
// nothing). An operand read afterwards keeps its buffer.
TEST(Vm, ElementwiseResultsTakeTheBufferOfADyingOperand) {
  const char* text = R"(
graph @alone(%a: f32[1024,256], %bias: f32[256]) -> (f32[1024,256], f32[1024,256]) {
  %x = add %a, 1
  %y = add %x, %bias
  %k = mul %x, 3
  %z = add %y, %k
  return %z, %k
}
graph @chain(%a: f32[1024,256]) -> (f32[1024,256]) {
  %x = add %a, 1
  %t = mul %x, 2
  %u = add %t, %x
  return %u
}
graph @group(%q: f32[64,64,32], %k: f32[64,32,64]) -> (f32[64,64,64]) {
  %s = matmul %q, %k
  %p = mul %s, 0.5
  %e = softmax %p {axis = -1}
  return %e
}
main {
  %a0 = range {start = 0, limit = 262144}
  %a = reshape %a0 {shape = [1024, 256]}
  %bias = range {start = 0, limit = 256}
  %z, %k = call @alone(%a, %bias)
  %u = call @chain(%a)
  %n = range {start = 0, limit = 131072}
  %q0 = reshape %n {shape = [64, 64, 32]}
  %k0 = reshape %n {shape = [64, 32, 64]}
  %q = mul %q0, 1e-6
  %kk = mul %k0, 1e-6
  %e = call @group(%q, %kk)
  %s2 = matmul %q, %kk
  %p2 = mul %s2, 0.5
  %e2 = softmax %p2 {axis = -1}
}
)";
  SessionOptions unfused;
  unfused.fuseElementwise = false;
  for (SessionOptions options : {SessionOptions{}, unfused}) {
    for (int threads : {1, 2}) {
      options.threads = threads;
      CompiledText c(text, options);
      ASSERT_TRUE(c.program);
      ASSERT_TRUE(c.s.run());
      FailureOr<HostTensor> z = c.s.valueOf("%z", {});
      FailureOr<HostTensor> k = c.s.valueOf("%k", {});
      FailureOr<HostTensor> u = c.s.valueOf("%u", {});
      FailureOr<HostTensor> e = c.s.valueOf("%e", {});
      FailureOr<HostTensor> e2 = c.s.valueOf("%e2", {});
      ASSERT_TRUE(z && k && u && e && e2);
      for (int64_t i = 0; i < 1024 * 256; ++i) {
        const double x = static_cast<double>(i) + 1;
        ASSERT_EQ(z->get(i), x + static_cast<double>(i % 256) + 3 * x) << i;
        ASSERT_EQ(k->get(i), 3 * x) << i;
        ASSERT_EQ(u->get(i), 3 * x) << i;
      }
      ASSERT_EQ(e->numElements(), e2->numElements());
      for (int64_t i = 0; i < e->numElements(); ++i) ASSERT_EQ(e->get(i), e2->get(i)) << i;
    }
  }
  CompiledText c(text, unfused);
  ASSERT_TRUE(c.program);
  auto offsetOf = [](const CompiledGraph& g, const std::string& name) {
    for (const SlotInfo& s : g.slots)
      if (s.kind == SlotInfo::Kind::Arena && s.value && s.value->name == name) return s.offset;
    ADD_FAILURE() << "no arena slot %" << name;
    return uint64_t{0};
  };
  const CompiledGraph& alone = *c.program->graphs.at(0);
  EXPECT_NE(offsetOf(alone, "y"), offsetOf(alone, "x"));  // %k reads %x after %y's add
  EXPECT_EQ(offsetOf(alone, "k"), offsetOf(alone, "x"));
  EXPECT_EQ(offsetOf(alone, "z"), offsetOf(alone, "y"));
  EXPECT_EQ(alone.arenaBytes, 2u * 1024 * 256 * 4);
}

TEST(Vm, DisassemblyListsEveryGraphWithLocations) {
  SourceManager sm;
  uint32_t file = sm.add("d.pir", R"(graph @g(%a: f32[2]) -> (f32[2]) {
  %b = add %a, 1
  return %b
}
%x = call @g([1, 2])
)");
  DiagnosticEngine diags(sm);
  Module m;
  std::ostringstream out;
  Session s(m, diags, out);
  ASSERT_TRUE(buildFromBuffer(m, diags, file, "."));
  FailureOr<std::string> disassembled = s.disassemble(nullptr);
  ASSERT_TRUE(disassembled);
  const std::string& text = *disassembled;
  EXPECT_NE(text.find("@g "), std::string::npos) << text;
  EXPECT_NE(text.find("@main "), std::string::npos) << text;
  EXPECT_NE(text.find("kernel       add"), std::string::npos) << text;
  EXPECT_NE(text.find("; d.pir:2:8"), std::string::npos) << text;
  EXPECT_NE(text.find("call         call @g s1(literal) -> s0(%x)"), std::string::npos) << text;
  EXPECT_NE(text.find("; d.pir:5:6"), std::string::npos) << text;
}

TEST(Vm, TraceShowsEachExecutedInstructionAndItsResult) {
  std::ostringstream trace;
  SessionOptions options;
  options.trace = &trace;
  RunResult r = runText(R"(
main {
  const %v : f32[2] = [1, 2]
  %y = mul %v, 3
}
run
)",
                        options);
  EXPECT_TRUE(r.ok) << r.err;
  // The value in print's format, then the time the instruction took (not asserted).
  const std::string text = trace.str();
  const std::string head = "@main t.pir:4:8 mul -> %y: f32[2] = [3, 6]  (";
  EXPECT_EQ(text.substr(0, head.size()), head) << text;
  EXPECT_TRUE(text.ends_with(" us)\n")) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
}

// vm's public calls report an error (located, in the engine) and return
// failure(); the session is as before the call.
TEST(Vm, SessionCallsReturnFailureWithTheDiagnostic) {
  SourceManager sm;
  uint32_t file = sm.add("t.pir", "h2d $x : f32[2]\nmain {\n  var %w : f32[2] = [1, 2]\n}\n");
  DiagnosticEngine diags(sm);
  std::ostringstream out, err;
  diags.setStream(&err);
  Module m;
  Session s(m, diags, out);
  ASSERT_TRUE(buildFromBuffer(m, diags, file, ".")) << err.str();
  const SourceLoc at{file, 3, 3};

  EXPECT_TRUE(s.print("%nope", at).failed());
  EXPECT_NE(err.str().find("t.pir:3:3: error: unknown main-graph value %nope"), std::string::npos) << err.str();
  FailureOr<HostTensor> never = s.valueOf("$x", at);
  EXPECT_TRUE(never.failed());
  EXPECT_NE(err.str().find("error: print: h2d stream $x was never fed"), std::string::npos) << err.str();
  Literal two;
  two.kind = Literal::Kind::Data;
  two.shape = {2};
  two.values = {3, 4};
  EXPECT_TRUE(s.feed("w", two, at).failed());
  EXPECT_NE(err.str().find("error: unknown stream or buffer $w"), std::string::npos) << err.str();
  EXPECT_TRUE(s.write("x", two, at).failed());
  EXPECT_NE(err.str().find("error: unknown main-graph value %x"), std::string::npos) << err.str();
  EXPECT_EQ(diags.errorCount(), 4);

  // Nothing changed: %w prints its initial value.
  ASSERT_TRUE(s.print("%w", at)) << err.str();
  EXPECT_EQ(out.str(), "%w: f32[2] = [1, 2]\n");
}

// A constant's file that is gone by the time the program compiles (it was
// there when the text was read).
TEST(Vm, CompileProgramReturnsFailureWithTheDiagnostic) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "pir_vm_test_gone.npy";
  writeNpy(path.string(), HostTensor(TensorType{DType::F32, {2}}));
  SourceManager sm;
  uint32_t file = sm.add("t.pir", "main {\n  const %c : f32[2] = load(\"" + path.string() + "\")\n}\n");
  DiagnosticEngine diags(sm);
  std::ostringstream err;
  diags.setStream(&err);
  Module m;
  ASSERT_TRUE(buildFromBuffer(m, diags, file, ".")) << err.str();
  std::filesystem::remove(path);
  FailureOr<std::unique_ptr<Program>> p = compileProgram(m, diags);
  EXPECT_TRUE(p.failed());
  EXPECT_EQ(diags.errorCount(), 1);
  EXPECT_NE(err.str().find("t.pir:2:23: error: %c: " + path.string() + ": cannot open file"), std::string::npos)
      << err.str();
}

}  // namespace
}  // namespace pir::vm
