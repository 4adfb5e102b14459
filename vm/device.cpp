#include "vm/device.h"

#include <limits>
#include <string>

#include "ir/checked_math.h"
#include "vm/host_memory.h"

namespace pir::vm {
namespace {
constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
uint64_t mulSat(uint64_t a, uint64_t b) {
  if (a != 0 && b > kMax / a) return kMax;
  return a * b;
}
uint64_t nonNeg(int64_t v) { return v < 0 ? 0 : static_cast<uint64_t>(v); }
}  // namespace

uint64_t deviceCapacityBytes(const IrOptions& o) {
  return mulSat(mulSat(nonNeg(o.tilesPerIpu), nonNeg(o.tileMemory)), nonNeg(o.ipus));
}

uint64_t tensorBytes(const TensorType& t) {
  uint64_t n = static_cast<uint64_t>(dtypeSize(t.dtype));
  for (int64_t d : t.shape) n = mulSat(n, nonNeg(d));
  return n;
}

void checkFitsDevice(const TensorType& t, const IrOptions& o, std::string_view what, SourceLoc loc,
                     DiagnosticEngine& diags) {
  uint64_t bytes = tensorBytes(t), cap = deviceCapacityBytes(o);
  if (bytes <= cap) return;
  diags.fail(loc, std::string(what) + ": tensor " + t.str() + " of " +
                      (bytes == kMax ? std::string("more than 2^64") : std::to_string(bytes)) +
                      " bytes does not fit on the device (" + std::to_string(cap) + " bytes: tiles_per_ipu × tile_memory × ipus)");
}

uint64_t checkHostBuffer(const TensorType& t, uint64_t copies, const IrOptions& o, std::string_view what,
                         SourceLoc loc, DiagnosticEngine& diags, uint64_t total) {
  checkFitsDevice(t, o, what, loc, diags);
  const uint64_t bytes = mulSat(tensorBytes(t), copies);
  const uint64_t newTotal = saturatingAdd(total, bytes);
  const uint64_t limit = hostMemoryLimit();
  auto text = [](uint64_t n) { return n == kMax ? std::string("more than 2^64") : std::to_string(n); };
  if (newTotal > limit)
    diags.fail(loc, std::string(what) + ": host buffer of " + std::to_string(copies) + " × " + t.str() + " (" +
                        text(bytes) + " bytes) brings the host buffers to " + text(newTotal) +
                        " bytes, more than the host memory budget of " + std::to_string(limit) +
                        " bytes (--max-memory=BYTES or PIR_MAX_MEMORY raise it)");
  return newTotal;
}

}  // namespace pir::vm
