// The profile as text, JSON (docs/profile-schema.md) and a Chrome trace.
#pragma once
#include <string>

#include "device/simulator.h"
#include "ir/diagnostics.h"

namespace pir::device {

// Human-readable report (tools.md: `pir profile`); with `mapping`, the tile
// mapping of every tensor too.
std::string formatProfile(const Profile& p, const SourceManager& sources, bool mapping);
// JSON, schema in docs/profile-schema.md.
std::string profileJson(const Profile& p, const SourceManager& sources);
// Chrome trace-event JSON of the timeline (timestamps in µs at cost::kClockHz).
std::string timelineJson(const Profile& p);

// "FILE:LINE:COL" of a location ("" when it has none).
std::string locationText(const SourceManager& sources, SourceLoc loc);

}  // namespace pir::device
