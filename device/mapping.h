// Tile mapping of device tensors (runtime.md §7): Poplar's mapTensorLinearly
// with a 16-byte grain, and the placement overrides `ipu`, `tile_set`, `tile`,
// `tiles` (language.md §7).
//
// The linear rule, for a tensor of N elements of B bytes over the tiles
// [LO, HI) (T = HI - LO tiles):
//   grain  g = ceil(16 / B) elements              (f32: 4, f16: 8, u8: 16, f64: 2)
//   grains G = ceil(N / g)
//   chunk  C = ceil(G / T) * g elements
// Tile LO + k holds elements [k*C, min((k+1)*C, N)), so ceil(N / C) tiles hold
// data, each a whole number of grains except possibly the last, and a tensor
// smaller than T grains takes one grain per tile from LO on. `tile = N` puts the
// whole tensor on tile N; `tiles = [LO, HI]` spreads it linearly over those
// tiles; otherwise LO, HI are the tile set's range: compute tiles
// [0, tiles_per_ipu - io_tiles), io tiles [tiles_per_ipu - io_tiles, tiles_per_ipu)
// (the last ones, runtime.md §1). `tile` and `tiles` are tile numbers on the IPU.
#pragma once
#include <cstdint>
#include <string>

#include "ir/attr.h"
#include "ir/ir.h"
#include "ir/op_enums.h"

namespace pir::device {

using TileSet = TileSetChoice;  // the `tile_set` placement attribute's enum (ir/op_enums.def)
std::string_view tileSetName(TileSet s);

// Where an op's results go unless they say otherwise: the IPU and tile set of
// the enclosing call site (a callee's ops inherit the call's placement).
struct PlacementContext {
  int64_t ipu = 0;
  TileSet set = TileSet::Compute;
  bool operator==(const PlacementContext&) const = default;
};

// The placement an attribute dictionary asks for, over `inherited`.
struct Placement {
  int64_t ipu = 0;
  TileSet set = TileSet::Compute;
  int64_t lo = -1, hi = -1;  // explicit tile range [lo, hi) (`tile` / `tiles`); -1: the set's range
};
Placement placementOf(const AttrDict& attrs, const PlacementContext& inherited);

// A linear mapping: tiles firstTile .. firstTile + tileCount - 1 of one IPU,
// `chunk` elements on each but the last.
struct TileMapping {
  int64_t ipu = 0;
  TileSet set = TileSet::Compute;
  int64_t firstTile = 0;
  int64_t tileCount = 0;  // tiles holding elements; 0 for an empty tensor
  int64_t chunk = 0;
  int64_t elements = 0;
  int64_t elementBytes = 0;

  int64_t elementsOn(int64_t k) const {  // k: 0-based position among the mapping's tiles
    if (k < 0 || k >= tileCount) return 0;
    return k + 1 < tileCount ? chunk : elements - chunk * (tileCount - 1);
  }
  uint64_t bytesOn(int64_t k) const { return static_cast<uint64_t>(elementsOn(k)) * static_cast<uint64_t>(elementBytes); }
  // Elements on IPU tile `tile` (absolute number on this mapping's IPU).
  int64_t elementsOnTile(int64_t tile) const { return elementsOn(tile - firstTile); }
  uint64_t totalBytes() const;
  bool operator==(const TileMapping&) const = default;
};

// The linear rule above over tiles [lo, lo + tiles).
TileMapping mapLinearly(int64_t elements, int64_t elementBytes, int64_t lo, int64_t tiles);

// The tile range [lo, hi) of a placement on a device with these options
// (tile_set = io with io_tiles = 0 falls back to the compute tiles).
void tileRange(const Placement& p, const IrOptions& o, int64_t& lo, int64_t& hi);

// The mapping of a tensor of type t under placement p.
TileMapping mapTensor(const TensorType& t, const Placement& p, const IrOptions& o);

// A tile's number over the whole replica: ipu * tiles_per_ipu + tile.
inline int64_t globalTile(const IrOptions& o, int64_t ipu, int64_t tile) { return ipu * o.tilesPerIpu + tile; }

// Saturating arithmetic for byte and cycle counts (hostile sizes must not wrap).
uint64_t satAdd(uint64_t a, uint64_t b);
uint64_t satMul(uint64_t a, uint64_t b);
inline uint64_t ceilDiv(uint64_t a, uint64_t b) { return b == 0 ? 0 : a / b + (a % b != 0); }

}  // namespace pir::device
