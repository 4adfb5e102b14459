// Printed tensor values (tools.md §3): `[[1, 2], [3, 4]]`, scalars bare, one line,
// more than 1000 elements summarised as NumPy does (first and last 3 along each axis).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "ir/dtype.h"

namespace pir::vm {

// Tensors with more elements than this print summarised (NumPy's threshold).
inline constexpr int64_t kSummariseThreshold = 1000;
// Elements kept at each end of an axis when summarising (NumPy's edgeitems).
inline constexpr int64_t kSummaryEdgeItems = 3;

// Appends the value of a row-major tensor whose storage follows vm/tensor.h (f16 as
// half bits, bool as one byte). `data` may be null only if the tensor is empty.
void appendTensor(std::string& out, DType dtype, const Shape& shape, const void* data);
std::string formatTensor(DType dtype, const Shape& shape, const void* data);

// "NAME: TYPE = VALUE" (no newline), TYPE like f32[2,2], the line of `print`.
std::string formatValueLine(std::string_view name, DType dtype, const Shape& shape, const void* data);

}  // namespace pir::vm
