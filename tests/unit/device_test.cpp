// The device layer (device/): the linear tile mapping and its overrides,
// per-tile liveness and the out-of-memory check, the cycle estimate,
// merge-exchange and DOT.
#include <gtest/gtest.h>

#include <sstream>

#include "device/cost_model.h"
#include "device/device_model.h"
#include "device/dot.h"
#include "device/mapping.h"
#include "device/merge_exchange.h"
#include "frontend/builder.h"
#include "ir/printer.h"

namespace pir::device {
namespace {

struct Built {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  Module m;
  std::ostringstream err;
  bool ok = false;
  explicit Built(const std::string& text) {
    diags.setStream(&err);
    ok = buildFromBuffer(m, diags, sm.add("d.pir", text), ".").succeeded();
  }
};

TEST(Mapping, LinearRuleWithSixteenByteGrain) {
  // f32: grain 4 elements. 64 over 4 tiles: 16 each.
  TileMapping a = mapLinearly(64, 4, 0, 4);
  EXPECT_EQ(a.tileCount, 4);
  EXPECT_EQ(a.chunk, 16);
  EXPECT_EQ(a.elementsOn(3), 16);
  // 10 f32 = 3 grains: one per tile, the last holds 2.
  TileMapping b = mapLinearly(10, 4, 0, 1472);
  EXPECT_EQ(b.tileCount, 3);
  EXPECT_EQ(b.chunk, 4);
  EXPECT_EQ(b.elementsOn(2), 2);
  EXPECT_EQ(b.elementsOn(3), 0);
  // u8: grain 16; f64: grain 2; f16: grain 8.
  EXPECT_EQ(mapLinearly(5, 1, 0, 4).tileCount, 1);
  EXPECT_EQ(mapLinearly(9, 8, 0, 4).chunk, 4);
  EXPECT_EQ(mapLinearly(100, 2, 0, 4).chunk, 32);
  // Starting tile, empty and single-tile tensors.
  TileMapping c = mapLinearly(12, 4, 5, 2);
  EXPECT_EQ(c.firstTile, 5);
  EXPECT_EQ(c.elementsOnTile(6), 4);
  EXPECT_EQ(mapLinearly(0, 4, 0, 4).tileCount, 0);
  EXPECT_EQ(mapLinearly(7, 4, 3, 1).elementsOnTile(3), 7);
  // Every element is on exactly one tile, chunks are whole grains.
  for (int64_t n : {1, 3, 17, 1000, 123457})
    for (int64_t eb : {1, 2, 4, 8})
      for (int64_t tiles : {1, 3, 1472}) {
        TileMapping m = mapLinearly(n, eb, 0, tiles);
        int64_t sum = 0;
        for (int64_t k = 0; k < m.tileCount; ++k) sum += m.elementsOn(k);
        EXPECT_EQ(sum, n);
        EXPECT_LE(m.tileCount, tiles);
        if (m.tileCount > 1) {
          EXPECT_EQ((m.chunk * eb) % 16, 0);
        }
      }
  // Hostile sizes do not overflow.
  TileMapping huge = mapLinearly(INT64_MAX, 8, 0, 1472);
  EXPECT_EQ(huge.tileCount, 1472);
  EXPECT_EQ(huge.totalBytes(), UINT64_MAX);
}

TEST(Mapping, PlacementOverrides) {
  IrOptions o;
  o.tilesPerIpu = 10;
  o.ioTiles = 2;
  o.ipus = 2;
  TensorType t{DType::F32, {32}};
  AttrDict none;
  TileMapping d = mapTensor(t, placementOf(none, {}), o);
  EXPECT_EQ(d.firstTile, 0);
  EXPECT_EQ(d.tileCount, 8);  // the compute tiles 0-7
  AttrDict io;
  io.set("tile_set", Attr::word("io"));
  io.set("ipu", Attr::integer(1));
  TileMapping i = mapTensor(t, placementOf(io, {}), o);
  EXPECT_EQ(i.firstTile, 8);
  EXPECT_EQ(i.tileCount, 2);
  EXPECT_EQ(i.ipu, 1);
  EXPECT_EQ(i.set, TileSet::Io);
  AttrDict one;
  one.set("tile", Attr::integer(9));
  EXPECT_EQ(mapTensor(t, placementOf(one, {}), o).elementsOnTile(9), 32);
  AttrDict range;
  range.set("tiles", Attr::list({Attr::integer(2), Attr::integer(4)}));
  TileMapping r = mapTensor(t, placementOf(range, {}), o);
  EXPECT_EQ(r.firstTile, 2);
  EXPECT_EQ(r.chunk, 16);
  // Inherited context (a callee's ops): the call site's IPU and tile set.
  EXPECT_EQ(mapTensor(t, placementOf(none, {1, TileSet::Io}), o).firstTile, 8);
  // tile_set = io without io tiles: the compute tiles.
  o.ioTiles = 0;
  EXPECT_EQ(mapTensor(t, placementOf(io, {}), o).set, TileSet::Compute);
}

TEST(Memory, IntermediatesDieAfterTheirLastReader) {
  // A chain of 6 adds of f32[4] (16 bytes, tile 0): at most 2 intermediates live.
  Built b(R"(ir {tiles_per_ipu = 4}
main {
  const %c : f32[4] = 1
  %a1 = add %c, %c
  %a2 = add %a1, %c
  %a3 = add %a2, %c
  %a4 = add %a3, %c
  %a5 = add %a4, %c
  %a6 = add %a5, %c
})");
  ASSERT_TRUE(b.ok) << b.err.str();
  MemoryReport r = analyzeMemory(b.m, b.diags);
  ASSERT_EQ(r.tiles.size(), 1u);
  // const 16 + code (one codelet 512 + 6 x 32) + two live intermediates 32.
  EXPECT_EQ(r.tiles[0].alwaysLiveBytes, 16u + 512 + 6 * 32);
  EXPECT_EQ(r.tiles[0].peakBytes, 16u + 512 + 6 * 32 + 32);
}

TEST(Memory, OutOfMemoryIsALocatedErrorBeforeAnythingRuns) {
  Built b(R"(ir {tiles_per_ipu = 4, tile_memory = 1000}
main {
  var %w : f32[300] = 1 {tile = 0}
  var %v : f32[10] = 2 {tile = 0}
})");
  ASSERT_TRUE(b.ok) << b.err.str();
  EXPECT_TRUE(checkDeviceMemory(b.m, b.diags).failed());
  ASSERT_EQ(b.diags.all().size(), 1u);
  const Diagnostic& d = b.diags.all()[0];
  EXPECT_EQ(d.message, "out of memory on tile 0: 1240 bytes needed at its peak, 1000 available (tile_memory); "
                       "live there: %w f32[300] (1200 bytes), %v f32[10] (40 bytes)");
  EXPECT_EQ(d.loc.line, 3u);  // the largest tensor's declaration
  // The same variables spread linearly fit.
  Built fits(R"(ir {tiles_per_ipu = 4, tile_memory = 1000}
main {
  var %w : f32[300] = 1
  var %v : f32[10] = 2
})");
  ASSERT_TRUE(fits.ok);
  EXPECT_TRUE(checkDeviceMemory(fits.m, fits.diags).succeeded());
}

// The report lists what is live at the peak: a value that died before it is not
// listed (%a1 dies at %a2, which dies at %b; the peak is %b's allocation, all of
// it on tile 0).
TEST(Memory, OutOfMemoryListsOnlyWhatIsLiveAtThePeak) {
  Built b(R"(ir {tiles_per_ipu = 4, tile_memory = 1183}
main {
  const %c : f32[4] = 1
  %a1 = add %c, %c
  %a2 = add %a1, %c
  %b = concat %a2, %a2 {axis = 0, tile = 0}
})");
  ASSERT_TRUE(b.ok) << b.err.str();
  EXPECT_TRUE(checkDeviceMemory(b.m, b.diags).failed());
  ASSERT_EQ(b.diags.all().size(), 1u);
  const Diagnostic& d = b.diags.all()[0];
  // Always live: %c 16 + two codelets 1024 + three ops 96; at the peak %a2 16 + %b 32.
  EXPECT_EQ(d.message, "out of memory on tile 0: 1184 bytes needed at its peak, 1183 available (tile_memory); "
                       "live there: code of 3 op(s) (1120 bytes), %b f32[8] (32 bytes), %c f32[4] (16 bytes), "
                       "%a2 f32[4] (16 bytes)");
  EXPECT_EQ(d.loc.line, 6u);
  ASSERT_EQ(d.notes.size(), 3u);
  EXPECT_EQ(d.notes[0].message, "%b holds 32 bytes on tile 0");
  EXPECT_EQ(d.notes[1].message, "%c holds 16 bytes on tile 0");
  EXPECT_EQ(d.notes[2].message, "%a2 holds 16 bytes on tile 0");
}

// A chain of calls D deep: each frame's result is live at the innermost op. The
// report keeps one list per graph (linear in D, where a copy of the callees'
// lists per caller is quadratic) and names literals in its notes.
TEST(Memory, OutOfMemoryInADeepCallChainListsEveryFrame) {
  const int depth = 3000;
  std::string text = "ir {tiles_per_ipu = 4, tile_memory = 10000}\n";
  text += "graph @g0(%x: f32[]) -> (f32[]) {\n  %y = add %x, 1\n  return %y\n}\n";
  for (int i = 1; i < depth; ++i)
    text += "graph @g" + std::to_string(i) + "(%x: f32[]) -> (f32[]) {\n  %y = call @g" + std::to_string(i - 1) +
            "(%x)\n  return %y\n}\n";
  text += "main {\n  %r = call @g" + std::to_string(depth - 1) + "(1.0)\n}\n";
  Built b(text);
  ASSERT_TRUE(b.ok) << b.err.str();
  EXPECT_TRUE(checkDeviceMemory(b.m, b.diags).failed());
  ASSERT_EQ(b.diags.all().size(), 1u);
  const Diagnostic& d = b.diags.all()[0];
  // code (one add: 512 + 32), two literals, %r and one %y per graph (4 bytes each).
  const int items = 1 + 2 + 1 + depth;
  EXPECT_EQ(d.message, "out of memory on tile 0: " + std::to_string(544 + 4 * (items - 1)) +
                           " bytes needed at its peak, 10000 available (tile_memory); live there: code of 1 op(s) "
                           "(544 bytes), a literal f32[] (4 bytes), a literal f32[] (4 bytes), %r f32[] (4 bytes), "
                           "%y (@g" + std::to_string(depth - 1) + ") f32[] (4 bytes), and " +
                           std::to_string(items - 5) + " more");
  EXPECT_EQ(d.loc.line, 3u);  // the add of @g0, where the peak is
  ASSERT_EQ(d.notes.size(), 3u);
  EXPECT_EQ(d.notes[0].message, "a literal holds 4 bytes on tile 0");
  EXPECT_EQ(d.notes[2].message, "%r holds 4 bytes on tile 0");
}

TEST(Memory, RemoteVariablesLiveInTheirBuffer) {
  Built b(R"(ir {tiles_per_ipu = 1, tile_memory = 600}
remote_buffer $rb : f32[100] {entries = 4}
main {
  var %w : f32[100] = 1 {remote = $rb, offset = 2}
})");
  ASSERT_TRUE(b.ok) << b.err.str();
  EXPECT_TRUE(analyzeMemory(b.m, b.diags).tiles.empty());
}

uint64_t elapsed(const std::string& text) {
  Built b(text);
  EXPECT_TRUE(b.ok) << b.err.str();
  return profileModule(b.m, b.diags, 1).value().elapsedCycles;
}

TEST(Cycles, HandComputedPhases) {
  using namespace cost;
  // One add of two f32[64] on 4 tiles (16 elements each, nothing exchanged).
  EXPECT_EQ(elapsed("ir {tiles_per_ipu = 4}\nconst %a : f32[64] = 1\n%b = add %a, %a\n"),
            kComputeSetOverheadCycles + 3 * kCyclesPerElementSimple + kSyncCycles);
  // Repeats multiply: 10 iterations of the same add in a body.
  EXPECT_EQ(elapsed("ir {tiles_per_ipu = 4}\ngraph @g(%x: f32[64]) -> (f32[64]) {\n  %y = add %x, %x\n  return %y\n}\n"
                    "const %a : f32[64] = 1\n%b = repeat @g(%a) {count = 10}\n"),
            10 * (kComputeSetOverheadCycles + 3 * kCyclesPerElementSimple + kSyncCycles));
  // A conditional costs its more expensive branch.
  EXPECT_EQ(elapsed("ir {tiles_per_ipu = 4}\ngraph @cheap(%x: f32[64]) -> (f32[64]) {\n  return %x\n}\n"
                    "graph @dear(%x: f32[64]) -> (f32[64]) {\n  %y = exp %x\n  return %y\n}\n"
                    "const %a : f32[64] = 1\nconst %p : bool[] = true\n%b = conditional %p, @cheap(%a), @dear(%a)\n"),
            kComputeSetOverheadCycles + 3 * kCyclesPerElementTranscendental + kSyncCycles);
  // Host IO: latency + bytes / rate, plus a sync.
  EXPECT_EQ(elapsed("h2d $x : f32[64]\n%x = host_load $x\n"), kHostLatencyCycles + 256 / kHostBytesPerCycle + kSyncCycles);
}

TEST(Cycles, ASaturatedEstimateSaysSoInTheReport) {
  Built b("graph @g(%x: f32[64]) -> (f32[64]) {\n  %y = add %x, %x\n  return %y\n}\n"
          "const %a : f32[64] = 1\n%b = repeat @g(%a) {count = 4611686018427387904}\n");
  ASSERT_TRUE(b.ok) << b.err.str();
  const Profile p = profileModule(b.m, b.diags, 0).value();
  EXPECT_EQ(p.elapsedCycles, UINT64_MAX);
  const std::string text = formatProfile(p, b.sm, false);
  EXPECT_NE(text.find("cycles per run: 18446744073709551615+ (more than "), std::string::npos) << text;
  EXPECT_NE(text.find("(saturated: the estimate exceeds 2^64 - 1 cycles"), std::string::npos) << text;
  EXPECT_EQ(text.find("100.00%"), std::string::npos) << text;
}

TEST(Cycles, DeterministicAndCountsExecutions) {
  const std::string text = "ir {tiles_per_ipu = 4}\ngraph @g(%x: f32[64]) -> (f32[64]) {\n  %y = add %x, %x\n  return %y\n}\n"
                           "const %a : f32[64] = 1\n%b = repeat @g(%a) {count = 1000000}\n";
  Built b1(text), b2(text);
  Profile p1 = profileModule(b1.m, b1.diags, 1).value(), p2 = profileModule(b2.m, b2.diags, 1).value();
  EXPECT_EQ(p1.elapsedCycles, p2.elapsedCycles);
  EXPECT_EQ(profileJson(p1, b1.sm), profileJson(p2, b2.sm));
  bool found = false;
  for (const OpProfile& op : p1.ops)
    if (op.op->code == OpCode::Add) {
      EXPECT_EQ(op.executions, 1000000u);
      EXPECT_EQ(op.cycles.syncs, 1000000u);
      found = true;
    }
  EXPECT_TRUE(found);
  // The timeline stays bounded: two iterations and a summary slice.
  EXPECT_LT(p1.timeline.size(), 10u);
}

TEST(MergeExchange, GroupsIndependentIoOps) {
  Built b(R"(h2d $x : f32[2]
h2d $z : f32[2]
d2h $y : f32[2]
main {
  %x = host_load $x
  %z = host_load $z
  %s = add %x, %z
  host_store $y, %s
  %x2 = host_load $x
  host_store $y, %x2
})");
  ASSERT_TRUE(b.ok) << b.err.str();
  ASSERT_TRUE(mergeExchange(b.m, b.diags));
  // host_store $y, %x2 reads %x2 from the same run: a dependency.
  EXPECT_EQ(printGraph(b.m, *b.m.main),
            "main {\n  exchange {\n    %x = host_load $x : f32[2]\n    %z = host_load $z : f32[2]\n  }\n"
            "  %s = add %x, %z : f32[2]\n  exchange {\n    host_store $y, %s\n    %x2 = host_load $x : f32[2]\n  }\n"
            "  host_store $y, %x2\n}\n");
  EXPECT_EQ(b.m.main->ops[0]->region()[1]->enclosing(), b.m.main->ops[0].get());
  // Idempotent.
  EXPECT_EQ(mergeExchangeBlocks(b.m), 0u);
}

TEST(Dot, ClustersOpsAndTypedEdges) {
  Built b(R"(graph @f(%a: f32[2]) -> (f32[2]) {
  %b = neg %a
  return %b
}
main {
  const %c : f32[2] = 1
  %r = call @f(%c)
})");
  ASSERT_TRUE(b.ok) << b.err.str();
  std::string dot = dotOfModule(b.m);
  EXPECT_NE(dot.find("subgraph \"cluster_g_f\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"g_f:in0\" -> \"g_f:op0\" [label=\"%a: f32[2]\"];"), std::string::npos) << dot;
  EXPECT_NE(dot.find("lhead=\"cluster_g_f\""), std::string::npos) << dot;
  std::string one = dotOfModule(b.m, b.m.main.get());
  EXPECT_EQ(one.find("cluster_g_f"), std::string::npos);
  EXPECT_NE(one.find("\"@f\" [shape=component"), std::string::npos) << one;
}

}  // namespace
}  // namespace pir::device
