#include "vm/process_agreement.h"

#include <cstring>
#include <vector>

#include "ir/printer.h"

namespace pir::vm {

uint64_t hashBytes(const void* data, size_t n, uint64_t seed) {
  // 64-bit multiply-rotate over 8-byte words: a few GB/s, enough to tell apart files.
  const auto* p = static_cast<const unsigned char*>(data);
  uint64_t h = seed ^ (0x9E3779B97F4A7C15ull * (n + 1));
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ (w * 0xC2B2AE3D27D4EB4Full)) * 0x9E3779B97F4A7C15ull;
    h = (h << 31) | (h >> 33);
  }
  uint64_t tail = 0;
  if (i < n) std::memcpy(&tail, p + i, n - i);
  h = (h ^ (tail * 0xC2B2AE3D27D4EB4Full)) * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 32);
}

namespace {

// One statement of the module: its canonical text, where it is, and a hash of
// that text (plus the data its load() read).
struct Statement {
  std::string text;
  SourceLoc loc;
  uint64_t hash = 0;
};

std::string oneLine(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  for (char& c : text)
    if (c == '\n') c = ' ';
  return text;
}

std::vector<Statement> statementsOf(const Module& m, const std::string& compiledAs,
                                    const std::function<uint64_t(const Op&)>& loadedData) {
  std::vector<Statement> out;
  auto add = [&](std::string text, SourceLoc loc, uint64_t extra = 0) {
    text = oneLine(std::move(text));
    const uint64_t h = hashBytes(text.data(), text.size(), extra);
    out.push_back({std::move(text), loc, h});
  };
  add(compiledAs, {});
  const IrOptions& o = m.options;
  add("ir {replication = " + std::to_string(o.replication) + ", num_host_transfers = " +
          std::to_string(o.numHostTransfers) + ", ipus = " + std::to_string(o.ipus) + ", tiles_per_ipu = " +
          std::to_string(o.tilesPerIpu) + ", tile_memory = " + std::to_string(o.tileMemory) + ", io_tiles = " +
          std::to_string(o.ioTiles) + ", seed = " + std::to_string(o.seed) + "}",
      o.loc);
  for (const auto& r : m.resources) {
    const char* kind = r->kind == Resource::Kind::H2D ? "h2d" : r->kind == Resource::Kind::D2H ? "d2h" : "remote_buffer";
    add(std::string(kind) + " $" + r->name + " : " + r->type.str() +
            (r->kind == Resource::Kind::RemoteBuffer ? " {entries = " + std::to_string(r->entries) + "}" : ""),
        r->loc);
  }
  auto addGraph = [&](const Graph& g) {
    const std::string text = printGraph(m, g);
    add(text.substr(0, text.find('\n')), g.loc);  // the signature line
    for (const auto& op : g.ops) add(printOp(*op), op->loc, loadedData(*op));
  };
  for (const auto& g : m.graphs) addGraph(*g);
  addGraph(*m.main);
  return out;
}

}  // namespace

void checkSameProgram(const Module& m, const std::string& compiledAs,
                      const std::function<uint64_t(const Op&)>& loadedData, Communicator& comm, DiagnosticEngine& diags) {
  if (comm.processes() <= 1) return;
  const std::vector<Statement> mine = statementsOf(m, compiledAs, loadedData);
  std::vector<uint64_t> hashes;
  hashes.reserve(mine.size());
  for (const Statement& s : mine) hashes.push_back(s.hash);
  const Disagreement d = comm.compareWithRankZero(hashes);
  if (d.rank < 0) return;
  // Every process learns both versions of the statement, so all report the same text.
  const std::vector<std::string> texts = comm.gatherTexts(d.index < mine.size() ? mine[d.index].text : std::string());
  const std::string& zero = texts[0];
  const std::string& other = texts[static_cast<size_t>(d.rank)];
  const std::string rank = "rank " + std::to_string(d.rank);
  std::string message;
  if (zero == other) {
    message = "the MPI processes read different data here: " + rank + "'s load() gave other contents than rank 0's";
  } else {
    auto quoted = [](const std::string& t) {
      if (t.empty()) return std::string("nothing (its program ends before)");
      constexpr size_t kShown = 240;  // a statement with a large literal is not quoted whole
      return "`" + (t.size() > kShown ? t.substr(0, kShown) + " ..." : t) + "`";
    };
    message = "the MPI processes run different programs: here rank 0 has " + quoted(zero) + ", " + rank + " " + quoted(other);
  }
  SourceLoc loc;
  if (!mine.empty()) loc = mine[std::min(d.index, mine.size() - 1)].loc;
  diags.fail(loc, message);
}

void checkSameData(const void* data, size_t bytes, const std::string& what, SourceLoc loc, Communicator& comm,
                   DiagnosticEngine& diags) {
  if (comm.processes() <= 1) return;
  const Disagreement d = comm.compareWithRankZero({hashBytes(data, bytes)});
  if (d.rank < 0) return;
  diags.fail(loc, what + ": the data differs between the MPI processes (rank " + std::to_string(d.rank) +
                      "'s is not rank 0's)");
}

}  // namespace pir::vm
