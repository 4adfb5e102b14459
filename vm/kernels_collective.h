// The arithmetic of replica collectives (ops.md, runtime.md §5), shared by the
// in-process replica pool and the MPI backend.
//
// A CollectiveJob is one collective of one replica group: every member's input
// in replica order, and the outputs this process computes (null for members
// another process computes). Its work is split into independent items (element
// ranges or members) that any thread may run in any order: an item reads each
// element of the inputs before writing that element of any output, and items
// write disjoint bytes, so an in-place all-reduce (output k == input k) is safe.
//
// Reductions run in the tensor's own dtype with the elementwise kernels'
// arithmetic (vm/kernels_binary.cpp): integer add/mul wrap (two's complement),
// f16 computes in f32 and rounds after each step, min/max propagate NaN; the
// members are combined in replica order ((x0 op x1) op x2 ...), so the result
// never depends on scheduling. square_add squares each member's value (one
// rounded `mul`) before adding; mean is the sum divided by the group size (an
// integer mean truncates toward zero, like `div`). and/or give 1 or 0 (true or
// false) from the operands' truth. On bool, add/max/square_add/mean are `or`
// and mul/min are `and`.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "vm/bytecode.h"

namespace pir::vm {

struct CollectiveJob {
  const CollectiveSpec* spec = nullptr;
  const TensorType* inType = nullptr;
  const TensorType* outType = nullptr;
  std::vector<const std::byte*> inputs;  // member k's input (replica order)
  std::vector<std::byte*> outputs;       // member k's output, or null (not computed here)
};

// The number of independent work items of `job` (>= 1).
int64_t collectiveItems(const CollectiveJob& job);
// Runs item `item` in [0, collectiveItems(job)).
void runCollectiveItem(const CollectiveJob& job, int64_t item);
// Runs every item (one thread).
void runCollective(const CollectiveJob& job);

}  // namespace pir::vm
