// Evaluation of ONNX ops on known values at import time: the shape
// computations of issue-style exports (Shape -> Gather -> Concat -> Reshape)
// and anything else whose inputs are all constants. Only small tensors are
// folded (kMaxFoldElements); larger results are emitted as pir ops.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "importers/onnx/tensor_data.h"

namespace pir::onnx_import {

inline constexpr int64_t kMaxFoldElements = 1 << 16;
// The most elements of any tensor the importer computes itself (a folded result, an
// EyeLike): such a tensor's size comes from shapes, not from bytes of the file, so a
// few bytes could ask for billions. Beyond it the import fails (fold.cpp `empty`).
inline constexpr int64_t kMaxMadeElements = int64_t(1) << 24;

// NumPy broadcast of two shapes; false when they do not broadcast.
bool broadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b, std::vector<int64_t>& out);

// Elementwise over the broadcast of a and b; `resultElem` is the result's type.
ConstTensor foldBinary(const ConstTensor& a, const ConstTensor& b, Elem resultElem,
                       const std::function<double(double, double)>& f,
                       const std::function<int64_t(int64_t, int64_t)>& fi);
ConstTensor foldUnary(const ConstTensor& a, const std::function<double(double)>& f,
                      const std::function<int64_t(int64_t)>& fi);
// where(c, x, y) with broadcasting.
ConstTensor foldWhere(const ConstTensor& c, const ConstTensor& x, const ConstTensor& y);
// NumPy-style gather along `axis` (indices already normalised to be ≥ 0).
ConstTensor foldGather(const ConstTensor& data, const ConstTensor& indices, int64_t axis);
ConstTensor foldConcat(const std::vector<const ConstTensor*>& parts, int64_t axis);
// starts/ends already clamped to valid ranges, one entry per axis of data.
ConstTensor foldSlice(const ConstTensor& data, const std::vector<int64_t>& starts, const std::vector<int64_t>& steps,
                      const std::vector<int64_t>& counts);
ConstTensor foldTranspose(const ConstTensor& data, const std::vector<int64_t>& perm);
ConstTensor foldBroadcastTo(const ConstTensor& data, const std::vector<int64_t>& shape);

}  // namespace pir::onnx_import
