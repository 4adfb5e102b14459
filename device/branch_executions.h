// What a session observed of its conditionals, for the profile (runtime.md §7,
// profile-schema.md: "every executed op"): per conditional op (Op::uid, which a
// module clone keeps), how many times its then and else branches ran on replica
// 0 over the session's runs.
#pragma once
#include <array>
#include <cstdint>
#include <unordered_map>

namespace pir::device {

using BranchExecutions = std::unordered_map<uint64_t, std::array<uint64_t, 2>>;

}  // namespace pir::device
