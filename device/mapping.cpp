#include "device/mapping.h"

#include <algorithm>
#include <limits>

#include "device/cost_model.h"

namespace pir::device {

std::string_view tileSetName(TileSet s) { return enumWord(s); }

uint64_t satAdd(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max() : a + b;
}
uint64_t satMul(uint64_t a, uint64_t b) {
  if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a) return std::numeric_limits<uint64_t>::max();
  return a * b;
}

uint64_t TileMapping::totalBytes() const {
  return satMul(static_cast<uint64_t>(std::max<int64_t>(elements, 0)), static_cast<uint64_t>(elementBytes));
}

Placement placementOf(const AttrDict& attrs, const PlacementContext& inherited) {
  Placement p;
  p.ipu = inherited.ipu;
  p.set = inherited.set;
  for (const auto& [key, a] : attrs.entries) {
    if (a.isWord("none")) continue;
    if (key == "ipu" && a.kind == Attr::Kind::Int) p.ipu = a.i;
    else if (key == "tile_set" && a.kind == Attr::Kind::Word) p.set = parseEnum<TileSet>(a.s).value_or(TileSet::Compute);
    else if (key == "tile" && a.kind == Attr::Kind::Int) p.lo = a.i, p.hi = a.i + 1;
    else if (key == "tiles" && a.items.size() == 2 && a.items[0].kind == Attr::Kind::Int &&
             a.items[1].kind == Attr::Kind::Int)
      p.lo = a.items[0].i, p.hi = a.items[1].i;
  }
  return p;
}

void tileRange(const Placement& p, const IrOptions& o, int64_t& lo, int64_t& hi) {
  const int64_t tiles = std::max<int64_t>(o.tilesPerIpu, 1);
  const int64_t io = std::clamp<int64_t>(o.ioTiles, 0, tiles - 1);
  if (p.lo >= 0 && p.hi > p.lo) {
    lo = std::min(p.lo, tiles - 1);
    hi = std::clamp(p.hi, lo + 1, tiles);
    return;
  }
  if (p.set == TileSet::Io && io > 0) {
    lo = tiles - io;
    hi = tiles;
  } else {
    lo = 0;
    hi = tiles - io;
  }
}

TileMapping mapLinearly(int64_t elements, int64_t elementBytes, int64_t lo, int64_t tiles) {
  TileMapping m;
  m.firstTile = lo;
  m.elements = std::max<int64_t>(elements, 0);
  m.elementBytes = std::max<int64_t>(elementBytes, 1);
  if (m.elements == 0 || tiles <= 0) return m;
  const uint64_t n = static_cast<uint64_t>(m.elements);
  const uint64_t grain = ceilDiv(cost::kGrainBytes, static_cast<uint64_t>(m.elementBytes));
  const uint64_t grains = ceilDiv(n, grain);
  const uint64_t chunk = ceilDiv(grains, static_cast<uint64_t>(tiles)) * grain;  // <= n + grain: no overflow
  m.chunk = static_cast<int64_t>(std::min(chunk, n));
  m.tileCount = static_cast<int64_t>(ceilDiv(n, static_cast<uint64_t>(m.chunk)));
  return m;
}

TileMapping mapTensor(const TensorType& t, const Placement& p, const IrOptions& o) {
  int64_t lo = 0, hi = 1;
  tileRange(p, o, lo, hi);
  TileMapping m = mapLinearly(t.numElements(), dtypeSize(t.dtype), lo, hi - lo);
  m.ipu = std::clamp<int64_t>(p.ipu, 0, std::max<int64_t>(o.ipus, 1) - 1);
  m.set = p.set;
  if (p.lo < 0 && p.set == TileSet::Io && o.ioTiles <= 0) m.set = TileSet::Compute;
  return m;
}

}  // namespace pir::device
