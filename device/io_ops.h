// IO ops as their rows describe them (ops.def's operands column), for the device
// model and its reports: no opcode lists.
#pragma once
#include "ir/ir.h"

namespace pir::device {

// The stream or remote buffer (`$s`) an IO op reads or writes, or nullptr.
inline const Resource* ioResource(const Op& op) {
  if (!op.operands.empty() && op.operands[0].kind() == Operand::Kind::Resource) return op.operands[0].resource();
  return nullptr;
}

// An IO op without results (`-> ()`) stores its last operand to its resource;
// one that yields a tensor (a result, or the `t!` it loads into) loads it.
inline bool isStore(const Op& op) {
  const ResultSpec& r = op.info().results;
  return ioResource(op) && r.kind == ResultSpec::Kind::Fixed && r.count == 0;
}
inline bool isLoad(const Op& op) { return ioResource(op) && !isStore(op); }

}  // namespace pir::device
