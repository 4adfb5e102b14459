// The window geometry of conv, the pools and their gradient ops, resolved once
// from the op's attributes: a single value spreads to every spatial axis,
// `stride` defaults to 1 (conv) or the kernel (pools), `dilation` to 1,
// `padding` ([begin..., end...]) to 0, `ceil_mode` (pools) to false. Shape inference
// (ir/infer.cpp, which reports the faults at the attribute), the gradient rules
// (passes/grad_rules.cpp) and the VM's window kernels (vm/conv_window.h) all read
// this one resolution.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace pir {

// One value per spatial axis.
struct Window {
  std::vector<int64_t> kernel, stride, dilation, padBegin, padEnd;
  // The output length rounds up (ONNX/PyTorch ceil_mode): the last window may
  // reach past the end padding, but none starts in it.
  bool ceilMode = false;

  size_t rank() const { return kernel.size(); }
  // `padding` as written: begins, then ends.
  std::vector<int64_t> padding() const;

  // The output length of axis i over an input of length `in`, or why there is none.
  enum class Fit : uint8_t {
    Fits,
    ExtentOverflow,   // dilation * (kernel - 1) + 1 exceeds int64
    PaddingOverflow,  // in + padding exceeds int64
    TooLarge,         // the dilated kernel is longer than the padded input
  };
  struct Axis {
    Fit fit = Fit::Fits;
    int64_t extent = 0;  // the dilated kernel's length (0 for a kernel of size 0)
    int64_t length = 0;  // the output length when it fits
  };
  Axis axis(size_t i, int64_t in) const;
  // How many cells of the window of output `o` along axis i lie inside the padded
  // input [-padBegin, in + padEnd): average_pool's count_include_pad divisor.
  int64_t cellsInsidePadding(size_t i, int64_t in, int64_t o) const;
};

// A window attribute with the wrong number of values or a value out of range.
struct WindowFault {
  SourceLoc loc;        // where the attribute was written (else the op's location)
  std::string message;  // "attribute 'stride' needs 2 values, got [1, 2, 3]"
};

// The window of `op` (conv, average_pool, max_pool or one of their gradient ops)
// over `spatial` axes. A conv's kernel is the weights' spatial shape
// (`convKernel`); a pool's is its `kernel` attribute. Faults come back in
// `fault` (the window is then incomplete); a verified op has none.
Window resolveWindow(const Op& op, size_t spatial, const std::vector<int64_t>* convKernel,
                     std::optional<WindowFault>& fault);

}  // namespace pir
