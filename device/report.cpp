// The profile as text, JSON (docs/profile-schema.md) and a Chrome trace.
// Every figure is an integer or a fixed-point rendering of integers, so the
// output is byte-identical on every machine.
#include <algorithm>
#include <cstdio>

#include "device/cost_model.h"
#include "device/report.h"

namespace pir::device {

std::string locationText(const SourceManager& sources, SourceLoc loc) {
  if (!loc.valid() || loc.file > sources.size()) return "";
  const SourceBuffer& b = sources.buffer(loc.file);
  return b.name + ":" + std::to_string(b.displayLine(loc.line)) + ":" + std::to_string(loc.col);
}

namespace {

// value / scale with `decimals` digits, rounded half up, from integers only.
std::string fixed(unsigned __int128 numerator, unsigned __int128 denominator, int decimals) {
  unsigned __int128 scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
  unsigned __int128 v = denominator == 0 ? 0 : (numerator * scale * 2 + denominator) / (denominator * 2);
  unsigned __int128 whole = v / scale, frac = v % scale;
  auto str = [](unsigned __int128 x) {
    std::string s;
    do {
      s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(x % 10)));
      x /= 10;
    } while (x);
    return s;
  };
  std::string out = str(whole);
  if (decimals > 0) {
    std::string f = str(frac);
    out += "." + std::string(static_cast<size_t>(decimals) - f.size(), '0') + f;
  }
  return out;
}

// Cycle counts saturate at UINT64_MAX (a repeat of 2^62 iterations): such a count
// is a lower bound, printed "18446744073709551615+", and a share of a saturated
// whole is unknown, printed "-" (never 100% for two phases).
constexpr uint64_t kSaturatedCycles = UINT64_MAX;
std::string cyclesText(uint64_t c);
std::string share(uint64_t part, uint64_t whole);

std::string microseconds(uint64_t cycles, int decimals) { return fixed(static_cast<unsigned __int128>(cycles) * 1000000, cost::kClockHz, decimals); }
std::string percent(uint64_t part, uint64_t whole) { return fixed(static_cast<unsigned __int128>(part) * 100, whole, 2) + "%"; }

std::string share(uint64_t part, uint64_t whole) {
  return whole == kSaturatedCycles ? "-" : percent(part, whole);
}

std::string pad(std::string s, size_t width, bool right = true) {
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

std::string opLabel(const OpProfile& r) {
  const Op& op = *r.op;
  std::string s = op.code == OpCode::Exchange ? "exchange {" + std::to_string(op.region().size()) + " ops}"
                                              : std::string(op.info().name);
  if (!op.results.empty() && op.results[0]) s = "%" + op.results[0]->name + " = " + s;
  if (r.graph != "main") s += " in @" + r.graph;
  return s;
}

// Tiles by closeness to the limit (fullest first; ties by tile number).
std::vector<TileUsage> fullest(const MemoryReport& m, size_t n) {
  std::vector<TileUsage> t = m.tiles;
  std::stable_sort(t.begin(), t.end(), [](const TileUsage& a, const TileUsage& b) { return a.peakBytes > b.peakBytes; });
  if (t.size() > n) t.resize(n);
  return t;
}

std::vector<const OpProfile*> opsByCycles(const Profile& p) {
  std::vector<const OpProfile*> ops;
  for (const OpProfile& r : p.ops) ops.push_back(&r);
  std::stable_sort(ops.begin(), ops.end(),
                   [](const OpProfile* a, const OpProfile* b) { return a->cycles.total() > b->cycles.total(); });
  return ops;
}

std::string jsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string num(uint64_t v) { return std::to_string(v); }
std::string num(int64_t v) { return std::to_string(v); }
std::string cyclesText(uint64_t c) { return num(c) + (c == kSaturatedCycles ? "+" : ""); }

std::string phasesJson(const PhaseCycles& c) {
  return "\"compute\": " + num(c.compute) + ", \"exchange\": " + num(c.exchange) + ", \"sync\": " + num(c.sync) +
         ", \"host_io\": " + num(c.hostIo) + ", \"syncs\": " + num(c.syncs) + ", \"total\": " + num(c.total());
}

}  // namespace

std::string formatProfile(const Profile& p, const SourceManager& sources, bool mapping) {
  const IrOptions& o = p.options;
  std::string s;
  s += "device: " + num(o.ipus) + " IPU" + (o.ipus == 1 ? "" : "s") + " x " + num(o.tilesPerIpu) + " tiles (" +
       num(o.ioTiles) + " io) of " + num(o.tileMemory) + " bytes, " + fixed(cost::kClockHz, 1000000000, 2) +
       " GHz; replication " + num(o.replication) + (p.runs >= 0 ? "; runs executed: " + num(p.runs) : std::string()) + "\n";
  uint64_t maxPeak = 0;
  for (const TileUsage& u : p.memory.tiles) maxPeak = std::max(maxPeak, u.peakBytes);
  const size_t used = p.memory.tiles.size();
  s += "\nmemory: " + num(static_cast<uint64_t>(used)) + (used == 1 ? " tile holds" : " tiles hold") + " data; the fullest (peak " +
       num(maxPeak) + " of " + num(p.memory.tileMemory) + " bytes, " + percent(maxPeak, p.memory.tileMemory) + "):\n";
  s += "  " + pad("ipu", 4) + pad("tile", 8) + pad("peak", 12) + pad("always live", 13) + pad("of limit", 10) + "\n";
  for (const TileUsage& u : fullest(p.memory, 8))
    s += "  " + pad(num(u.ipu), 4) + pad(num(u.tile), 8) + pad(num(u.peakBytes), 12) + pad(num(u.alwaysLiveBytes), 13) +
         pad(percent(u.peakBytes, p.memory.tileMemory), 10) + "\n";

  const PhaseCycles& t = p.totals;
  const uint64_t sum = t.total();
  const bool saturated = p.elapsedCycles == kSaturatedCycles || sum == kSaturatedCycles;
  s += "\ncycles per run: " + cyclesText(p.elapsedCycles) + " (" +
       (p.elapsedCycles == kSaturatedCycles ? "more than " : "") + microseconds(p.elapsedCycles, 3) + " us)\n";
  if (saturated)
    s += "  (saturated: the estimate exceeds 2^64 - 1 cycles; a count with + is a lower bound, a share - unknown)\n";
  s += "  compute   " + pad(cyclesText(t.compute), 12) + "  " + pad(share(t.compute, sum), 8) + "\n";
  s += "  exchange  " + pad(cyclesText(t.exchange), 12) + "  " + pad(share(t.exchange, sum), 8) + "\n";
  s += "  sync      " + pad(cyclesText(t.sync), 12) + "  " + pad(share(t.sync, sum), 8) + "  (" + num(t.syncs) + " syncs)\n";
  s += "  host IO   " + pad(cyclesText(t.hostIo), 12) + "  " + pad(share(t.hostIo, sum), 8) + "\n";
  if (sum > p.elapsedCycles && !saturated)
    s += "  overlap   " + pad(num(sum - p.elapsedCycles), 12) + "  (IO on io tiles hidden behind compute)\n";

  std::vector<const OpProfile*> ops = opsByCycles(p);
  const size_t shown = std::min<size_t>(ops.size(), 10);
  s += "\nops by cycles (" + (shown < ops.size() ? "top " + num(static_cast<uint64_t>(shown)) + " of " : std::string()) +
       num(static_cast<uint64_t>(ops.size())) + "):\n";
  s += "  " + pad("cycles", 10) + pad("execs", 7) + pad("compute", 10) + pad("exchange", 10) + pad("sync", 9) +
       pad("host IO", 10) + "  op\n";
  for (size_t i = 0; i < shown; ++i) {
    const OpProfile& r = *ops[i];
    std::string where = locationText(sources, r.op->loc);
    s += "  " + pad(cyclesText(r.cycles.total()), 10) + pad(num(r.executions), 7) + pad(cyclesText(r.cycles.compute), 10) +
         pad(cyclesText(r.cycles.exchange), 10) + pad(cyclesText(r.cycles.sync), 9) + pad(cyclesText(r.cycles.hostIo), 10) +
         "  " + opLabel(r) +
         (where.empty() ? "" : "  (" + where + ")") + "\n";
  }
  if (mapping) {
    s += "\ntile mapping:\n";
    s += "  " + pad("tensor", 24, false) + pad("type", 18, false) + pad("ipu", 4) + pad("set", 8) + pad("tiles", 14) +
         pad("elements/tile", 15) + pad("last", 8) + "\n";
    for (const TensorMappingInfo& m : p.mappings) {
      const TileMapping& tm = m.mapping;
      std::string name = m.name + (m.graph != "main" ? " @" + m.graph : "");
      std::string range = tm.tileCount == 0 ? "-" : num(tm.firstTile) + ".." + num(tm.firstTile + tm.tileCount - 1);
      s += "  " + pad(name, 24, false) + pad(m.type.str(), 18, false) + pad(num(tm.ipu), 4) +
           pad(std::string(tileSetName(tm.set)), 8) + pad(range, 14) + pad(num(tm.chunk), 15) +
           pad(num(tm.elementsOn(tm.tileCount - 1)), 8) + "\n";
    }
  }
  return s;
}

std::string profileJson(const Profile& p, const SourceManager& sources) {
  const IrOptions& o = p.options;
  std::string s = "{\n  \"schema\": \"pir-profile/1\",\n";
  s += "  \"device\": {\"ipus\": " + num(o.ipus) + ", \"tiles_per_ipu\": " + num(o.tilesPerIpu) +
       ", \"tile_memory\": " + num(o.tileMemory) + ", \"io_tiles\": " + num(o.ioTiles) +
       ", \"replication\": " + num(o.replication) + ", \"clock_hz\": " + num(cost::kClockHz) + "},\n";
  s += "  \"runs\": " + num(p.runs) + ",\n";
  uint64_t maxPeak = 0;
  for (const TileUsage& u : p.memory.tiles) maxPeak = std::max(maxPeak, u.peakBytes);
  auto tileJson = [&](const TileUsage& u) {
    return "{\"ipu\": " + num(u.ipu) + ", \"tile\": " + num(u.tile) + ", \"peak_bytes\": " + num(u.peakBytes) +
           ", \"always_live_bytes\": " + num(u.alwaysLiveBytes) + "}";
  };
  s += "  \"memory\": {\"tile_memory\": " + num(p.memory.tileMemory) + ", \"max_peak_bytes\": " + num(maxPeak) +
       ", \"tiles_used\": " + num(static_cast<uint64_t>(p.memory.tiles.size())) + ",\n    \"fullest\": [";
  std::vector<TileUsage> top = fullest(p.memory, 10);
  for (size_t i = 0; i < top.size(); ++i) s += (i ? ", " : "") + tileJson(top[i]);
  s += "],\n    \"tiles\": [";
  for (size_t i = 0; i < p.memory.tiles.size(); ++i) s += std::string(i ? ",\n      " : "\n      ") + tileJson(p.memory.tiles[i]);
  s += "]},\n";
  s += "  \"cycles\": {" + phasesJson(p.totals) + ", \"elapsed\": " + num(p.elapsedCycles) +
       ", \"elapsed_us\": " + microseconds(p.elapsedCycles, 3) + "},\n";
  s += "  \"ops\": [";
  for (size_t i = 0; i < p.ops.size(); ++i) {
    const OpProfile& r = p.ops[i];
    const Op& op = *r.op;
    std::string result = !op.results.empty() && op.results[0] ? "%" + op.results[0]->name : "";
    s += std::string(i ? ",\n    " : "\n    ") + "{\"graph\": " + jsonString(r.graph) + ", \"op\": " +
         jsonString(op.info().name) + ", \"result\": " + jsonString(result) + ", \"loc\": " +
         jsonString(locationText(sources, op.loc)) + ", \"executions\": " + num(r.executions) + ", " +
         phasesJson(r.cycles) + "}";
  }
  s += "],\n  \"mapping\": [";
  for (size_t i = 0; i < p.mappings.size(); ++i) {
    const TensorMappingInfo& m = p.mappings[i];
    const TileMapping& tm = m.mapping;
    s += std::string(i ? ",\n    " : "\n    ") + "{\"graph\": " + jsonString(m.graph) + ", \"tensor\": " +
         jsonString(m.name) + ", \"type\": " + jsonString(m.type.str()) + ", \"ipu\": " + num(tm.ipu) +
         ", \"tile_set\": " + jsonString(tileSetName(tm.set)) + ", \"first_tile\": " + num(tm.firstTile) +
         ", \"tiles\": " + num(tm.tileCount) + ", \"elements_per_tile\": " + num(tm.chunk) +
         ", \"last_tile_elements\": " + num(tm.elementsOn(tm.tileCount - 1)) + "}";
  }
  s += "]\n}\n";
  return s;
}

std::string timelineJson(const Profile& p) {
  // Chrome trace events: one process per IPU, one thread per phase kind.
  std::string s = "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"clock_hz\": " + num(cost::kClockHz) +
                  ", \"truncated\": " + (p.timelineTruncated ? "true" : "false") + "},\n\"traceEvents\": [";
  bool first = true;
  auto add = [&](const std::string& e) {
    s += (first ? "\n" : ",\n") + e;
    first = false;
  };
  const PhaseKind kinds[] = {PhaseKind::Exchange, PhaseKind::Sync, PhaseKind::Compute, PhaseKind::HostIo,
                             PhaseKind::HostIoOnIoTiles, PhaseKind::Repeat};
  std::vector<int64_t> ipus;
  for (const TimelineSlice& t : p.timeline)
    if (std::find(ipus.begin(), ipus.end(), t.ipu) == ipus.end()) ipus.push_back(t.ipu);
  std::sort(ipus.begin(), ipus.end());
  for (int64_t ipu : ipus) {
    add("{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": " + num(ipu) + ", \"args\": {\"name\": \"IPU " + num(ipu) + "\"}}");
    for (PhaseKind k : kinds)
      add("{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": " + num(ipu) + ", \"tid\": " +
          num(static_cast<int64_t>(k)) + ", \"args\": {\"name\": " + jsonString(phaseKindName(k)) + "}}");
  }
  for (const TimelineSlice& t : p.timeline)
    add("{\"name\": " + jsonString(t.name) + ", \"cat\": " + jsonString(phaseKindName(t.kind)) +
        ", \"ph\": \"X\", \"pid\": " + num(t.ipu) + ", \"tid\": " + num(static_cast<int64_t>(t.kind)) +
        ", \"ts\": " + microseconds(t.start, 4) + ", \"dur\": " + microseconds(t.duration, 4) +
        ", \"args\": {\"cycles\": " + num(t.duration) + ", \"start_cycle\": " + num(t.start) + "}}");
  s += "\n]}\n";
  return s;
}

}  // namespace pir::device
