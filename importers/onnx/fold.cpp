#include "importers/onnx/fold.h"

namespace pir::onnx_import {

namespace {
std::vector<int64_t> stridesOf(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t k = int64_t(shape.size()) - 2; k >= 0; --k) s[k] = s[k + 1] * shape[k + 1];
  return s;
}

// For each output element of `outShape`, the flat index into a tensor of
// `inShape` broadcast to it (NumPy rules, right-aligned).
std::vector<int64_t> broadcastIndex(const std::vector<int64_t>& inShape, const std::vector<int64_t>& outShape) {
  int64_t n = 1;
  for (int64_t d : outShape) n *= d;
  std::vector<int64_t> idx(n);
  std::vector<int64_t> inStrides = stridesOf(inShape);
  size_t offset = outShape.size() - inShape.size();
  std::vector<int64_t> pos(outShape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t flat = 0;
    for (size_t d = 0; d < inShape.size(); ++d)
      if (inShape[d] != 1) flat += pos[d + offset] * inStrides[d];
    idx[k] = flat;
    for (int64_t d = int64_t(outShape.size()) - 1; d >= 0; --d) {
      if (++pos[d] < outShape[d]) break;
      pos[d] = 0;
    }
  }
  return idx;
}

// Every tensor the folds make starts here: its size is checked against
// kMaxMadeElements before anything is allocated (callers fold only small results;
// this is the bound for a path that does not check).
ConstTensor empty(Elem e, std::vector<int64_t> shape) {
  ConstTensor r;
  r.elem = e;
  r.shape = std::move(shape);
  const int64_t n = checkedElementCount(r.shape, "a computed constant");
  if (n > kMaxMadeElements)
    throw ImportError("a computed constant of " + std::to_string(n) + " elements: the importer makes at most " +
                      std::to_string(kMaxMadeElements));
  if (elemIsFloat(e)) r.f.resize(n);
  else r.i.resize(n);
  return r;
}

void copyElem(ConstTensor& to, int64_t k, const ConstTensor& from, int64_t j) {
  if (elemIsFloat(to.elem)) to.f[k] = from.at(j);
  else to.i[k] = from.intAt(j);
}
}  // namespace

bool broadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b, std::vector<int64_t>& out) {
  size_t r = std::max(a.size(), b.size());
  out.assign(r, 1);
  for (size_t k = 0; k < r; ++k) {
    int64_t da = k < r - a.size() ? 1 : a[k - (r - a.size())];
    int64_t db = k < r - b.size() ? 1 : b[k - (r - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    out[k] = da == 1 ? db : da;
  }
  return true;
}

ConstTensor foldBinary(const ConstTensor& a, const ConstTensor& b, Elem resultElem,
                       const std::function<double(double, double)>& f,
                       const std::function<int64_t(int64_t, int64_t)>& fi) {
  std::vector<int64_t> shape;
  if (!broadcastShapes(a.shape, b.shape, shape)) throw ImportError("operand shapes do not broadcast");
  ConstTensor r = empty(resultElem, shape);
  std::vector<int64_t> ia = broadcastIndex(a.shape, shape), ib = broadcastIndex(b.shape, shape);
  bool intOps = !elemIsFloat(a.elem) && !elemIsFloat(b.elem);
  for (size_t k = 0; k < ia.size(); ++k) {
    double v = intOps ? double(fi(a.i[ia[k]], b.i[ib[k]])) : f(a.at(ia[k]), b.at(ib[k]));
    if (elemIsFloat(resultElem)) r.f[k] = v;
    else r.i[k] = intOps ? fi(a.i[ia[k]], b.i[ib[k]]) : static_cast<int64_t>(v);
  }
  return r;
}

ConstTensor foldUnary(const ConstTensor& a, const std::function<double(double)>& f,
                      const std::function<int64_t(int64_t)>& fi) {
  ConstTensor r = a;
  if (elemIsFloat(a.elem))
    for (double& v : r.f) v = f(v);
  else
    for (int64_t& v : r.i) v = fi(v);
  return r;
}

ConstTensor foldWhere(const ConstTensor& c, const ConstTensor& x, const ConstTensor& y) {
  std::vector<int64_t> s1, shape;
  if (!broadcastShapes(c.shape, x.shape, s1) || !broadcastShapes(s1, y.shape, shape))
    throw ImportError("operand shapes do not broadcast");
  ConstTensor r = empty(x.elem, shape);
  std::vector<int64_t> ic = broadcastIndex(c.shape, shape), ix = broadcastIndex(x.shape, shape),
                       iy = broadcastIndex(y.shape, shape);
  for (size_t k = 0; k < ic.size(); ++k) copyElem(r, k, c.intAt(ic[k]) ? x : y, c.intAt(ic[k]) ? ix[k] : iy[k]);
  return r;
}

ConstTensor foldGather(const ConstTensor& data, const ConstTensor& indices, int64_t axis) {
  std::vector<int64_t> shape(data.shape.begin(), data.shape.begin() + axis);
  shape.insert(shape.end(), indices.shape.begin(), indices.shape.end());
  shape.insert(shape.end(), data.shape.begin() + axis + 1, data.shape.end());
  ConstTensor r = empty(data.elem, shape);
  int64_t outer = 1, inner = 1, dim = data.shape[axis];
  for (int64_t k = 0; k < axis; ++k) outer *= data.shape[k];
  for (size_t k = axis + 1; k < data.shape.size(); ++k) inner *= data.shape[k];
  int64_t n = indices.size(), out = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < n; ++j) {
      int64_t idx = indices.intAt(j);
      if (idx < 0 || idx >= dim) throw ImportError("gather index " + std::to_string(idx) + " is out of range");
      for (int64_t in = 0; in < inner; ++in) copyElem(r, out++, data, (o * dim + idx) * inner + in);
    }
  return r;
}

ConstTensor foldConcat(const std::vector<const ConstTensor*>& parts, int64_t axis) {
  std::vector<int64_t> shape = parts[0]->shape;
  shape[axis] = 0;
  for (const ConstTensor* p : parts) {
    if (p->shape.size() != shape.size()) throw ImportError("concat operands differ in rank");
    for (size_t d = 0; d < shape.size(); ++d)
      if (int64_t(d) != axis && p->shape[d] != parts[0]->shape[d]) throw ImportError("concat operands differ in shape");
    shape[axis] += p->shape[axis];
  }
  ConstTensor r = empty(parts[0]->elem, shape);
  int64_t outer = 1;
  for (int64_t k = 0; k < axis; ++k) outer *= shape[k];
  int64_t out = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (const ConstTensor* p : parts) {
      int64_t chunk = p->size() / std::max<int64_t>(outer, 1);
      if (outer == 0) break;
      for (int64_t j = 0; j < chunk; ++j) copyElem(r, out++, *p, o * chunk + j);
    }
  return r;
}

ConstTensor foldSlice(const ConstTensor& data, const std::vector<int64_t>& starts, const std::vector<int64_t>& steps,
                      const std::vector<int64_t>& counts) {
  ConstTensor r = empty(data.elem, counts);
  std::vector<int64_t> strides = stridesOf(data.shape);
  int64_t n = r.size();
  std::vector<int64_t> pos(counts.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t flat = 0;
    for (size_t d = 0; d < counts.size(); ++d) flat += (starts[d] + pos[d] * steps[d]) * strides[d];
    copyElem(r, k, data, flat);
    for (int64_t d = int64_t(counts.size()) - 1; d >= 0; --d) {
      if (++pos[d] < counts[d]) break;
      pos[d] = 0;
    }
  }
  return r;
}

ConstTensor foldTranspose(const ConstTensor& data, const std::vector<int64_t>& perm) {
  std::vector<int64_t> shape(perm.size());
  for (size_t d = 0; d < perm.size(); ++d) shape[d] = data.shape[perm[d]];
  ConstTensor r = empty(data.elem, shape);
  std::vector<int64_t> strides = stridesOf(data.shape);
  std::vector<int64_t> pos(shape.size(), 0);
  for (int64_t k = 0; k < r.size(); ++k) {
    int64_t flat = 0;
    for (size_t d = 0; d < shape.size(); ++d) flat += pos[d] * strides[perm[d]];
    copyElem(r, k, data, flat);
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      if (++pos[d] < shape[d]) break;
      pos[d] = 0;
    }
  }
  return r;
}

ConstTensor foldBroadcastTo(const ConstTensor& data, const std::vector<int64_t>& shape) {
  ConstTensor r = empty(data.elem, shape);
  std::vector<int64_t> idx = broadcastIndex(data.shape, shape);
  for (size_t k = 0; k < idx.size(); ++k) copyElem(r, k, data, idx[k]);
  return r;
}

}  // namespace pir::onnx_import
