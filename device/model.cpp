// The device model's queries: per-tile memory, the graph-compile out-of-memory
// check and every tensor's tile mapping (device/model.h).
#include "device/model.h"

#include "device/tile_model.h"

namespace pir::device {

std::vector<Callee> calleesOf(const Op& op) {
  std::vector<Callee> out;
  for (size_t k = 0; k < op.callees.size(); ++k)
    if (op.callees[k].graph) out.push_back({op.callees[k].graph, op.args(k)});
  return out;
}

namespace detail {

MemoryReport memoryOf(Model& model) {
  MemoryReport r;
  const IrOptions& o = model.options();
  r.tileMemory = static_cast<uint64_t>(std::max<int64_t>(o.tileMemory, 0));
  std::map<int64_t, TileUsage> tiles;
  const int64_t tpi = std::max<int64_t>(o.tilesPerIpu, 1);
  auto at = [&](int64_t t) -> TileUsage& {
    TileUsage& u = tiles[t];
    u.ipu = t / tpi;
    u.tile = t % tpi;
    return u;
  };
  for (auto& [t, b] : model.alwaysLive()) {
    TileUsage& u = at(t);
    u.alwaysLiveBytes = satAdd(u.alwaysLiveBytes, b);
    u.peakBytes = satAdd(u.peakBytes, b);
  }
  model.computePeaks();
  for (auto& [t, b] : model.peakOf(model.mainLayout())) {
    if (b == 0) continue;
    TileUsage& u = at(t);
    u.peakBytes = satAdd(u.peakBytes, b);
  }
  for (auto& [t, u] : tiles)
    if (u.peakBytes > 0) r.tiles.push_back(u);
  return r;
}

}  // namespace detail

namespace {
using namespace detail;
std::string fmtBytes(uint64_t b) { return std::to_string(b); }
}  // namespace

MemoryReport analyzeMemory(const Module& m, DiagnosticEngine& diags) {
  Model model(m, diags);
  return memoryOf(model);
}

namespace {

// checkDeviceMemory's body: reports and throws CompileError (diags.fail).
void checkDeviceMemoryOrThrow(const Module& m, DiagnosticEngine& diags) {
  Model model(m, diags);
  MemoryReport r = memoryOf(model);
  const TileUsage* worst = nullptr;
  size_t over = 0;
  for (const TileUsage& u : r.tiles)
    if (u.peakBytes > r.tileMemory) {
      ++over;
      if (!worst || u.peakBytes > worst->peakBytes) worst = &u;
    }
  if (!worst) return;
  const IrOptions& o = m.options;
  const int64_t t = globalTile(o, worst->ipu, worst->tile);
  // What is live on that tile at its peak: the always-live items, then the
  // intermediates of the peak (callees included).
  struct Item {
    std::string label;  // what the message lists: the name and type
    std::string name;   // what a note names
    uint64_t bytes;
    SourceLoc loc;
  };
  std::vector<Item> items;
  for (const StaticTensor& s : model.statics()) {
    uint64_t b = model.bytesOnGlobal(s.mapping, t);
    if (b == 0) continue;
    std::string name = s.name == "literal" ? "a literal" : s.name;
    if (s.graph != "main" && s.name[0] == '%') name += " (@" + s.graph + ")";
    items.push_back({name + " " + s.type.str(), name, b, s.loc});
  }
  if (auto it = model.code().find(t); it != model.code().end())
    items.push_back({"code of " + std::to_string(model.codeOps().at(t)) + " op(s)", "code", it->second, {}});
  model.computeWitnesses(t);
  const Witness& w = model.witnessOf(model.mainLayout(), t);
  for (auto& [v, b] : w.live()) {
    std::string name = valueLabel(v) + (v->graph && !v->graph->isMain ? " (@" + v->graph->name + ")" : "");
    items.push_back({name + " " + v->type->str(), name, b, v->loc});
  }
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.bytes > b.bytes; });
  std::string list;
  for (size_t i = 0; i < items.size() && i < 5; ++i)
    list += (i ? ", " : "") + items[i].label + " (" + fmtBytes(items[i].bytes) + " bytes)";
  if (items.size() > 5) list += ", and " + std::to_string(items.size() - 5) + " more";
  std::string msg = "out of memory on tile " + std::to_string(worst->tile) +
                    (o.ipus > 1 ? " of IPU " + std::to_string(worst->ipu) : std::string()) + ": " +
                    fmtBytes(worst->peakBytes) + " bytes needed at its peak, " + fmtBytes(r.tileMemory) +
                    " available (tile_memory)";
  if (over > 1) msg += "; " + std::to_string(over) + " tiles are over the limit";
  if (!list.empty()) msg += "; live there: " + list;
  SourceLoc loc = w.at ? w.at->loc : SourceLoc{};
  std::vector<Note> notes;
  for (size_t i = 0; i < items.size() && notes.size() < 3; ++i) {
    if (!items[i].loc.valid()) continue;
    if (!loc.valid()) {
      loc = items[i].loc;
      continue;
    }
    notes.push_back({items[i].loc, items[i].name + " holds " + fmtBytes(items[i].bytes) + " bytes on tile " +
                                       std::to_string(worst->tile)});
  }
  if (!loc.valid() && !m.main->ops.empty()) loc = m.main->ops.front()->loc;
  diags.fail(loc, msg, std::move(notes));
}

}  // namespace

LogicalResult checkDeviceMemory(const Module& m, DiagnosticEngine& diags) {
  return catchReported([&] { checkDeviceMemoryOrThrow(m, diags); });
}

std::vector<TensorMappingInfo> tensorMappings(const Module& m, DiagnosticEngine& diags) {
  Model model(m, diags);
  std::vector<TensorMappingInfo> out;
  std::set<std::pair<const Value*, int64_t>> seen;
  for (Layout* l : model.reachable()) {
    for (const LayoutOp& lop : l->ops)
      for (unsigned id : lop.owned) {
        const Value* v = l->graph->values[id].get();
        out.push_back({l->graph->name, valueLabel(v), v->type, l->map[id], v->loc});
      }
  }
  for (const StaticTensor& s : model.statics()) out.push_back({s.graph, s.name, s.type, s.mapping, s.loc});
  std::stable_sort(out.begin(), out.end(), [](const TensorMappingInfo& a, const TensorMappingInfo& b) {
    if (a.graph != b.graph) return a.graph == "main" || (b.graph != "main" && a.graph < b.graph);
    if (a.loc.file != b.loc.file) return a.loc.file < b.loc.file;
    if (a.loc.line != b.loc.line) return a.loc.line < b.loc.line;
    return a.loc.col < b.loc.col;
  });
  return out;
}

}  // namespace pir::device
