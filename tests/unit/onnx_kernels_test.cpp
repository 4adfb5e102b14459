// The kernels of the ONNX ops that are not pir ops yet (vm/kernels_layout.h,
// vm/kernels_resize.h, vm/kernels_lrn.h) and einsum's plan (ir/einsum_spec.h),
// called directly. Expected values are ONNX's (the operator docs' examples and
// NumPy's pad/tile/triu), gradients are checked against finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "ir/einsum_spec.h"
#include "vm/kernels_layout.h"
#include "vm/kernels_lrn.h"
#include "vm/kernels_resize.h"
#include "vm/simd_kernels.h"

namespace pir::vm {
namespace {

using Dims = std::vector<int64_t>;
using Vec = std::vector<double>;

std::vector<double> iota(int64_t n, double from = 1) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = from + static_cast<double>(i);
  return v;
}

// <g, f(x)> differentiated by central differences, against the analytic dx.
void expectGradient(const Vec& x, const Vec& g, const std::function<Vec(const Vec&)>& f, const Vec& dx,
                    double tol = 1e-6) {
  for (size_t i = 0; i < x.size(); ++i) {
    Vec xp = x, xm = x;
    const double h = 1e-6;
    xp[i] += h;
    xm[i] -= h;
    Vec yp = f(xp), ym = f(xm);
    double d = 0;
    for (size_t k = 0; k < g.size(); ++k) d += g[k] * (yp[k] - ym[k]) / (2 * h);
    EXPECT_NEAR(dx[i], d, tol) << "at " << i;
  }
}

// ---- pad ------------------------------------------------------------------

TEST(PadKernel, ConstantReflectAndEdgeMatchOnnxExamples) {
  // ONNX Pad's docs: x = [[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]], pads = [0, 2, 0, 0].
  const Vec x = {1.0, 1.2, 2.3, 3.4, 4.5, 5.7};
  Vec out(12);
  layout::pad(x.data(), {3, 2}, {0, 2}, {0, 0}, layout::PadMode::Constant, 0.0, out.data());
  EXPECT_EQ(out, (Vec{0, 0, 1.0, 1.2, 0, 0, 2.3, 3.4, 0, 0, 4.5, 5.7}));
  layout::pad(x.data(), {3, 2}, {0, 2}, {0, 0}, layout::PadMode::Reflect, 0.0, out.data());
  EXPECT_EQ(out, (Vec{1.0, 1.2, 1.0, 1.2, 2.3, 3.4, 2.3, 3.4, 4.5, 5.7, 4.5, 5.7}));
  layout::pad(x.data(), {3, 2}, {0, 2}, {0, 0}, layout::PadMode::Edge, 0.0, out.data());
  EXPECT_EQ(out, (Vec{1.0, 1.0, 1.0, 1.2, 2.3, 2.3, 2.3, 3.4, 4.5, 4.5, 4.5, 5.7}));
}

TEST(PadKernel, ReflectWiderThanTheAxisFoldsBackAndNegativePadsCrop) {
  // np.pad([1, 2, 3], (5, 4), 'reflect') = [2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3]
  const Vec x = {1, 2, 3};
  Vec out(12);
  layout::pad(x.data(), {3}, {5}, {4}, layout::PadMode::Reflect, 0.0, out.data());
  EXPECT_EQ(out, (Vec{2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3}));
  Vec cropped(2);
  layout::pad(x.data(), {3}, {-1}, {0}, layout::PadMode::Constant, 9.0, cropped.data());
  EXPECT_EQ(cropped, (Vec{2, 3}));
}

TEST(PadKernel, GradientSumsWhatEachElementFed) {
  const Vec x = iota(6);
  const Vec g = iota(4 * 5, 0.5);
  for (auto mode : {layout::PadMode::Constant, layout::PadMode::Reflect, layout::PadMode::Edge}) {
    auto f = [&](const Vec& v) {
      Vec y(20);
      layout::pad(v.data(), {2, 3}, {1, 2}, {1, 0}, mode, 0.0, y.data());
      return y;
    };
    Vec dx(6);
    layout::padGrad(g.data(), {2, 3}, {1, 2}, {1, 0}, mode, dx.data());
    expectGradient(x, g, f, dx);
  }
}

// The row kernels against the per-element definitions: every output position maps
// to its source (or the pad value) on each axis independently; gradients add in
// output order. Random ranks 0-4, pads of both signs, every mode.
TEST(LayoutKernels, RowKernelsEqualTheElementDefinitions) {
  std::mt19937 rng(3);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  for (int trial = 0; trial < 400; ++trial) {
    const size_t rank = static_cast<size_t>(pick(5));
    Dims xs(rank), begin(rank), end(rank), outShape(rank), repeats(rank);
    const auto mode = static_cast<layout::PadMode>(pick(3));
    for (size_t d = 0; d < rank; ++d) {
      xs[d] = 1 + pick(5);
      begin[d] = pick(7) - (mode == layout::PadMode::Constant ? 2 : 0);
      end[d] = pick(7) - (mode == layout::PadMode::Constant ? 2 : 0);
      begin[d] = std::max(begin[d], 1 - xs[d]);
      end[d] = std::max(end[d], 1 - xs[d] - begin[d]);
      outShape[d] = xs[d] + begin[d] + end[d];
      repeats[d] = 1 + pick(3);
    }
    const Vec x = iota(layout::product(xs), 0.25);
    const Dims xstr = layout::stridesOf(xs);
    // pad and its gradient
    Vec want(static_cast<size_t>(layout::product(outShape))), got(want.size());
    const Vec g = iota(static_cast<int64_t>(want.size()), -3.5);
    Vec wantDx(x.size(), 0.0), gotDx(x.size());
    layout::forEachIndex(outShape, [&](int64_t flat, const Dims& o) {
      int64_t off = 0;
      for (size_t d = 0; d < rank; ++d) {
        const int64_t i = layout::padSource(o[d], begin[d], xs[d], mode);
        if (i < 0) {
          want[flat] = -7;
          return;
        }
        off += i * xstr[d];
      }
      want[flat] = x[off];
      wantDx[off] += g[flat];
    });
    layout::pad(x.data(), xs, begin, end, mode, -7.0, got.data());
    layout::padGrad(g.data(), xs, begin, end, mode, gotDx.data());
    EXPECT_EQ(got, want) << "pad, trial " << trial;
    EXPECT_EQ(gotDx, wantDx) << "pad_grad, trial " << trial;
    // tile and its gradient
    Dims tiled(rank);
    for (size_t d = 0; d < rank; ++d) tiled[d] = xs[d] * repeats[d];
    Vec wantT(static_cast<size_t>(layout::product(tiled))), gotT(wantT.size());
    const Vec gt = iota(static_cast<int64_t>(wantT.size()), 1.5);
    Vec wantTdx(x.size(), 0.0), gotTdx(x.size());
    layout::forEachIndex(tiled, [&](int64_t flat, const Dims& o) {
      int64_t off = 0;
      for (size_t d = 0; d < rank; ++d) off += (o[d] % xs[d]) * xstr[d];
      wantT[flat] = x[off];
      wantTdx[off] += gt[flat];
    });
    layout::tile(x.data(), xs, repeats, gotT.data());
    layout::tileGrad(gt.data(), xs, repeats, gotTdx.data());
    EXPECT_EQ(gotT, wantT) << "tile, trial " << trial;
    EXPECT_EQ(gotTdx, wantTdx) << "tile grad, trial " << trial;
    // gather_elements and scatter_elements (add, duplicates in index order) on a random axis
    if (rank == 0) continue;
    const int64_t axis = pick(static_cast<int>(rank));
    Dims is(rank);
    for (size_t d = 0; d < rank; ++d) is[d] = 1 + pick(static_cast<int>(xs[d]));  // index shape within x's
    std::vector<int64_t> idx(static_cast<size_t>(layout::product(is)));
    for (int64_t& v : idx) v = pick(2 * static_cast<int>(xs[static_cast<size_t>(axis)])) - xs[static_cast<size_t>(axis)];
    Vec wantG(idx.size()), gotG(idx.size());
    const Vec upd = iota(static_cast<int64_t>(idx.size()), 0.5);
    Vec wantS = x, gotS(x.size());
    layout::forEachIndex(is, [&](int64_t flat, const Dims& i) {
      int64_t off = 0;
      for (size_t d = 0; d < rank; ++d) {
        const int64_t c = static_cast<int64_t>(d) == axis ? layout::elementIndex(idx[flat], xs[d]) : i[d];
        off += c * xstr[d];
      }
      wantG[flat] = x[off];
      wantS[off] += upd[flat];
    });
    layout::gatherElements(x.data(), xs, idx.data(), is, axis, gotG.data());
    layout::scatterElements(x.data(), xs, idx.data(), upd.data(), is, axis, layout::ScatterReduction::Add, gotS.data());
    EXPECT_EQ(gotG, wantG) << "gather_elements, trial " << trial;
    EXPECT_EQ(gotS, wantS) << "scatter_elements, trial " << trial;
  }
}

// ---- tile, trilu ----------------------------------------------------------

TEST(TileKernel, RepeatsEachAxisAndItsGradientSumsTheCopies) {
  const Vec x = {1, 2, 3, 4};
  Vec out(16);
  layout::tile(x.data(), {2, 2}, {2, 2}, out.data());
  EXPECT_EQ(out, (Vec{1, 2, 1, 2, 3, 4, 3, 4, 1, 2, 1, 2, 3, 4, 3, 4}));
  const Vec g = iota(16);
  Vec dx(4);
  layout::tileGrad(g.data(), {2, 2}, {2, 2}, dx.data());
  EXPECT_EQ(dx, (Vec{1 + 3 + 9 + 11, 2 + 4 + 10 + 12, 5 + 7 + 13 + 15, 6 + 8 + 14 + 16}));
}

TEST(TriluKernel, UpperAndLowerWithDiagonalOffsetsOverABatch) {
  const Vec x = iota(2 * 3 * 3);
  Vec out(18);
  layout::trilu(x.data(), {2, 3, 3}, true, 1, out.data());  // np.triu(x, 1)
  EXPECT_EQ(out, (Vec{0, 2, 3, 0, 0, 6, 0, 0, 0, 0, 11, 12, 0, 0, 15, 0, 0, 0}));
  layout::trilu(x.data(), {2, 3, 3}, false, -1, out.data());  // np.tril(x, -1)
  EXPECT_EQ(out, (Vec{0, 0, 0, 4, 0, 0, 7, 8, 0, 0, 0, 0, 13, 0, 0, 16, 17, 0}));
}

// ---- gather_elements, scatter_elements --------------------------------------

TEST(GatherElementsKernel, OnnxExampleAndNegativeIndices) {
  // ONNX GatherElements docs: data [[1, 2], [3, 4]], indices [[0, 0], [1, 0]], axis 1.
  const Vec x = {1, 2, 3, 4};
  const std::vector<int32_t> idx = {0, 0, -1, 0};
  Vec out(4);
  layout::gatherElements(x.data(), {2, 2}, idx.data(), {2, 2}, 1, out.data());
  EXPECT_EQ(out, (Vec{1, 1, 4, 3}));
  const std::vector<int32_t> bad = {2};
  EXPECT_THROW(layout::gatherElements(x.data(), {2, 2}, bad.data(), {1, 1}, 0, out.data()), KernelError);
}

TEST(ScatterElementsKernel, ReductionsCombineDuplicateIndices) {
  // ONNX ScatterElements docs (reduction add): data [[1, 2, 3, 4, 5]], indices [[1, 1]], updates [[1.1, 2.1]].
  const Vec x = {1, 2, 3, 4, 5};
  const std::vector<int32_t> idx = {1, 1};
  const Vec upd = {1.1, 2.1};
  Vec out(5);
  layout::scatterElements(x.data(), {1, 5}, idx.data(), upd.data(), {1, 2}, 1, layout::ScatterReduction::Add, out.data());
  EXPECT_NEAR(out[1], 5.2, 1e-12);
  layout::scatterElements(x.data(), {1, 5}, idx.data(), upd.data(), {1, 2}, 1, layout::ScatterReduction::Mul, out.data());
  EXPECT_NEAR(out[1], 2 * 1.1 * 2.1, 1e-12);
  layout::scatterElements(x.data(), {1, 5}, idx.data(), upd.data(), {1, 2}, 1, layout::ScatterReduction::Max, out.data());
  EXPECT_EQ(out[1], 2.1);
  layout::scatterElements(x.data(), {1, 5}, idx.data(), upd.data(), {1, 2}, 1, layout::ScatterReduction::None, out.data());
  EXPECT_EQ(out, (Vec{1, 2.1, 3, 4, 5}));
}

// ---- hardmax, range -------------------------------------------------------

TEST(HardmaxKernel, FirstLargestPerRowAndNaNWins) {
  const Vec x = {3, 0, 3, 1, 2, NAN, 5, 1};
  Vec out(8);
  layout::hardmax(x.data(), {2, 4}, 1, out.data());
  EXPECT_EQ(out, (Vec{1, 0, 0, 0, 0, 1, 0, 0}));
  layout::hardmax(x.data(), {2, 4}, 0, out.data());
  EXPECT_EQ(out, (Vec{1, 0, 0, 1, 0, 1, 1, 0}));
}

TEST(RangeKernel, LengthIsTheCeilingAndNeverNegative) {
  EXPECT_EQ(layout::rangeLength(3, 9, 3), 2);
  EXPECT_EQ(layout::rangeLength(10, 4, -3), 2);
  EXPECT_EQ(layout::rangeLength(1, 0, 1), 0);
  EXPECT_EQ(layout::rangeLength(0, 1, 0.3), 4);
  Vec out(2);
  layout::range(10.0, -3.0, 2, out.data());
  EXPECT_EQ(out, (Vec{10, 7}));
}

// ---- resize ---------------------------------------------------------------

resize::Plan plan2d(Dims in, Dims out, resize::Mode mode, resize::CoordinateMode coords,
                    resize::NearestMode nearest = resize::NearestMode::RoundPreferFloor) {
  resize::Attributes a;
  a.mode = mode;
  a.coordinates = coords;
  a.nearest = nearest;
  return resize::planResize(in, out, a);
}

TEST(ResizeKernel, OnnxUpsampleLinearHalfPixel) {
  // ONNX test_resize_upsample_scales_linear: [[1, 2], [3, 4]] to 4x4, half_pixel.
  const std::vector<float> x = {1, 2, 3, 4};
  std::vector<float> out(16);
  resize::resize(plan2d({1, 1, 2, 2}, {1, 1, 4, 4}, resize::Mode::Linear, resize::CoordinateMode::HalfPixel), x.data(),
                 out.data());
  const std::vector<float> want = {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_FLOAT_EQ(out[i], want[i]) << i;
}

TEST(ResizeKernel, OnnxUpsampleLinearAlignCorners) {
  // ONNX test_resize_upsample_scales_linear_align_corners.
  const std::vector<float> x = {1, 2, 3, 4};
  std::vector<float> out(16);
  resize::resize(plan2d({1, 1, 2, 2}, {1, 1, 4, 4}, resize::Mode::Linear, resize::CoordinateMode::AlignCorners),
                 x.data(), out.data());
  const float t = 1.0f / 3, u = 2.0f / 3;
  const std::vector<float> want = {1, 1 + t, 1 + u, 2, 1 + u, 2, 2 + t, 2 + u, 2 + t, 2 + u, 3, 3 + t, 3, 3 + t, 3 + u, 4};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(out[i], want[i], 1e-6) << i;
}

TEST(ResizeKernel, OnnxNearestModes) {
  // ONNX test_resize_upsample_scales_nearest: [[1, 2], [3, 4]] scaled 2x3 (half_pixel, round_prefer_floor).
  const std::vector<float> x = {1, 2, 3, 4};
  std::vector<float> out(24);
  resize::Attributes a;
  a.scales = {1, 1, 2, 3};
  resize::resize(resize::planResize({1, 1, 2, 2}, {1, 1, 4, 6}, a), x.data(), out.data());
  EXPECT_EQ(out, (std::vector<float>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4}));
  // Downsampling 1x4 to 1x2 with half_pixel: sources 0.5 and 2.5; floor preference 0 and 2, ceil 1 and 3.
  const std::vector<float> row = {1, 2, 3, 4};
  std::vector<float> two(2);
  resize::resize(plan2d({1, 4}, {1, 2}, resize::Mode::Nearest, resize::CoordinateMode::HalfPixel), row.data(), two.data());
  EXPECT_EQ(two, (std::vector<float>{1, 3}));
  resize::resize(plan2d({1, 4}, {1, 2}, resize::Mode::Nearest, resize::CoordinateMode::HalfPixel,
                        resize::NearestMode::RoundPreferCeil),
                 row.data(), two.data());
  EXPECT_EQ(two, (std::vector<float>{2, 4}));
}

TEST(ResizeKernel, TfCropAndResizeExtrapolatesOutsideTheRegion) {
  const std::vector<float> x = {1, 2, 3, 4};
  resize::Attributes a;
  a.mode = resize::Mode::Linear;
  a.coordinates = resize::CoordinateMode::TfCropAndResize;
  a.roi = {0, -0.5, 1, 1.5};  // axis 1 from -0.5 to 1.5 of its extent
  a.extrapolationValue = 10;
  std::vector<float> out(10);
  resize::resize(resize::planResize({2, 2}, {2, 5}, a), x.data(), out.data());
  // axis 1 sources: -0.5, 0, 0.5, 1, 1.5
  EXPECT_EQ(out, (std::vector<float>{10, 1, 1.5, 2, 10, 10, 3, 3.5, 4, 10}));
}

TEST(ResizeKernel, GradientIsTheTransposeOfTheForward) {
  for (auto mode : {resize::Mode::Nearest, resize::Mode::Linear})
    for (auto coords : {resize::CoordinateMode::HalfPixel, resize::CoordinateMode::AlignCorners,
                        resize::CoordinateMode::Asymmetric, resize::CoordinateMode::PytorchHalfPixel}) {
      const resize::Plan p = plan2d({2, 3}, {3, 5}, mode, coords);
      const Vec x = iota(6), g = iota(15, 0.25);
      Vec dx(6);
      resize::resizeGrad(p, g.data(), dx.data());
      expectGradient(x, g, [&](const Vec& v) {
        Vec y(15);
        resize::resize(p, v.data(), y.data());
        return y;
      }, dx);
    }
}

// The definition the kernel's passes must equal: each output element is the sum, over
// every combination of one tap per axis (axis 0 slowest), of the product of the taps'
// weights times x there (the extrapolation value where an axis lies outside), in
// double; a combination of weight 0 adds nothing. The gradient is its transpose.
struct TapSums {
  const resize::Plan& p;
  template <class F> void each(F&& f) const {
    const size_t rank = p.in.size();
    Dims stride(rank, 1), o(rank, 0);
    for (size_t d = rank; d-- > 1;) stride[d - 1] = stride[d] * p.in[d];
    int64_t total = 1;
    for (int64_t v : p.out) total *= v;
    for (int64_t flat = 0; flat < total; ++flat) {
      std::function<void(size_t, double, int64_t, bool)> walk = [&](size_t d, double w, int64_t off, bool outside) {
        if (d == rank) {
          if (w != 0) f(flat, outside ? -1 : off, w);
          return;
        }
        const resize::AxisTaps& t = p.axes[d];
        for (int j = 0; j < t.taps; ++j) {
          const int64_t i = t.index[j][o[d]];
          walk(d + 1, w * t.weight[j][o[d]], i < 0 ? off : off + i * stride[d], outside || i < 0);
        }
      };
      walk(0, 1.0, 0, false);
      for (size_t d = rank; d-- > 0;) {
        if (++o[d] < p.out[d]) break;
        o[d] = 0;
      }
    }
  }
  std::vector<double> forward(const std::vector<double>& x, int64_t outElements) const {
    std::vector<double> y(static_cast<size_t>(outElements), 0.0);
    each([&](int64_t at, int64_t i, double w) { y[at] += w * (i < 0 ? p.extrapolationValue : x[i]); });
    return y;
  }
  std::vector<double> gradient(const std::vector<double>& g, int64_t inElements) const {
    std::vector<double> dx(static_cast<size_t>(inElements), 0.0);
    each([&](int64_t at, int64_t i, double w) {
      if (i >= 0) dx[i] += w * g[at];
    });
    return dx;
  }
};

int64_t elements(const Dims& d) {
  int64_t n = 1;
  for (int64_t v : d) n *= v;
  return n;
}

// Random plans of rank 1-4 over every mode and coordinate mode (tf_crop_and_resize with
// a region reaching outside, cubic with and without exclude_outside), up- and
// downsampling and unchanged axes.
std::vector<resize::Plan> randomPlans(int count) {
  std::mt19937 rng(7);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::vector<resize::Plan> plans;
  for (int k = 0; k < count; ++k) {
    const size_t rank = 1 + static_cast<size_t>(pick(4));
    Dims in(rank), out(rank);
    resize::Attributes a;
    a.mode = static_cast<resize::Mode>(pick(3));
    a.coordinates = static_cast<resize::CoordinateMode>(pick(6));
    a.nearest = static_cast<resize::NearestMode>(pick(4));
    a.excludeOutside = pick(2) == 1;
    a.extrapolationValue = 0.5 + pick(3);
    for (size_t d = 0; d < rank; ++d) {
      in[d] = 1 + pick(5);
      out[d] = pick(3) == 0 ? in[d] : 1 + pick(9);
    }
    if (a.coordinates == resize::CoordinateMode::TfCropAndResize) {
      a.roi.resize(2 * rank);
      for (size_t d = 0; d < rank; ++d) a.roi[d] = -0.3 + 0.1 * pick(5), a.roi[rank + d] = 0.8 + 0.1 * pick(5);
    }
    plans.push_back(resize::planResize(in, out, a));
  }
  return plans;
}

TEST(ResizeKernel, PassesEqualTheSumOverTapCombinations) {
  std::mt19937 rng(11);
  std::normal_distribution<double> normal;
  for (const resize::Plan& p : randomPlans(300)) {
    const int64_t nIn = elements(p.in), nOut = elements(p.out);
    std::vector<double> x(static_cast<size_t>(nIn)), g(static_cast<size_t>(nOut));
    for (double& v : x) v = normal(rng);
    for (double& v : g) v = normal(rng);
    const std::vector<double> want = TapSums{p}.forward(x, nOut), wantDx = TapSums{p}.gradient(g, nIn);
    std::vector<double> y(static_cast<size_t>(nOut)), dx(static_cast<size_t>(nIn));
    resize::resize(p, x.data(), y.data());
    resize::resizeGrad(p, g.data(), dx.data());
    // The passes sum the same terms grouped by axis: equal up to double rounding.
    for (int64_t i = 0; i < nOut; ++i) EXPECT_NEAR(y[i], want[i], 1e-13 * (1 + std::abs(want[i]))) << i;
    for (int64_t i = 0; i < nIn; ++i) EXPECT_NEAR(dx[i], wantDx[i], 1e-13 * (1 + std::abs(wantDx[i]))) << i;
    // f32: one rounding of the double sum, so within an ulp of the sum rounded.
    std::vector<float> xf(x.begin(), x.end()), gf(g.begin(), g.end()), yf(y.size()), dxf(dx.size());
    const std::vector<double> wantF = TapSums{p}.forward(std::vector<double>(xf.begin(), xf.end()), nOut);
    const std::vector<double> wantDxF = TapSums{p}.gradient(std::vector<double>(gf.begin(), gf.end()), nIn);
    resize::resize(p, xf.data(), yf.data());
    resize::resizeGrad(p, gf.data(), dxf.data());
    auto ulp = [](double v) { return std::abs(v) * std::numeric_limits<float>::epsilon() + 1e-37; };
    for (int64_t i = 0; i < nOut; ++i) EXPECT_NEAR(yf[i], wantF[i], ulp(wantF[i])) << i;
    for (int64_t i = 0; i < nIn; ++i) EXPECT_NEAR(dxf[i], wantDxF[i], ulp(wantDxF[i])) << i;
  }
}

TEST(ResizeKernel, SameBitsOnAnyNumberOfKernelThreads) {
  resize::Attributes a;
  a.mode = resize::Mode::Linear;
  for (const auto& [in, out] : {std::pair<Dims, Dims>{{6, 5, 7, 9}, {6, 5, 15, 17}}, {{40, 3, 8}, {40, 3, 5}}}) {
    const resize::Plan p = resize::planResize(in, out, a);
    resize::Attributes nearest;
    const resize::Plan q = resize::planResize(in, out, nearest);
    std::vector<float> x(static_cast<size_t>(elements(in))), g(static_cast<size_t>(elements(out)));
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37f * static_cast<float>(i));
    for (size_t i = 0; i < g.size(); ++i) g[i] = std::cos(0.11f * static_cast<float>(i));
    std::vector<std::vector<float>> results;
    for (int threads : {1, 2, 3}) {
      simd::setKernelThreads(threads);
      std::vector<float> y(g.size()), dx(x.size()), yn(g.size()), dxn(x.size());
      resize::resize(p, x.data(), y.data());
      resize::resizeGrad(p, g.data(), dx.data());
      resize::resize(q, x.data(), yn.data());
      resize::resizeGrad(q, g.data(), dxn.data());
      y.insert(y.end(), dx.begin(), dx.end());
      y.insert(y.end(), yn.begin(), yn.end());
      y.insert(y.end(), dxn.begin(), dxn.end());
      results.push_back(y);
    }
    simd::setKernelThreads(1);
    EXPECT_EQ(std::memcmp(results[0].data(), results[1].data(), results[0].size() * sizeof(float)), 0);
    EXPECT_EQ(std::memcmp(results[0].data(), results[2].data(), results[0].size() * sizeof(float)), 0);
  }
}

TEST(ResizeKernel, TapsOfWeightZeroReadNothingAndNearestCopiesExactly) {
  // align_corners 1x3 -> 1x5: outputs 0, 2 and 4 lie on inputs 0, 1 and 2, where the
  // second tap has weight 0; the inf at input 2 reaches outputs 3 and 4 only.
  resize::Attributes a;
  a.mode = resize::Mode::Linear;
  a.coordinates = resize::CoordinateMode::AlignCorners;
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {1, 2, inf};
  std::vector<float> y(5);
  resize::resize(resize::planResize({1, 3}, {1, 5}, a), x.data(), y.data());
  EXPECT_EQ(y, (std::vector<float>{1, 1.5f, 2, inf, inf}));
  // Nearest neighbours are copies: -0 stays -0, a NaN keeps its bits.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> z = {-0.0f, nan};
  std::vector<float> up(4);
  resize::resize(resize::planResize({1, 2}, {1, 4}, resize::Attributes{}), z.data(), up.data());
  EXPECT_TRUE(std::signbit(up[0]) && up[0] == 0 && std::signbit(up[1]) && up[1] == 0);
  EXPECT_EQ(std::memcmp(&up[2], &nan, sizeof(float)), 0);
}

// ---- lrn ------------------------------------------------------------------

TEST(LrnKernel, MatchesTheFormulaAndItsGradient) {
  lrn::Attributes a;
  a.alpha = 0.2;
  a.beta = 0.75;
  a.bias = 1.5;
  a.size = 3;
  const Vec x = {0.5, -1, 2, 0.25, 1, -0.5, 1.5, 2};  // [1, 4, 2]
  Vec y(8);
  lrn::lrn(x.data(), {1, 4, 2}, a, y.data());
  // channel 0 at spatial 0: window channels 0..1: 0.5^2 + 2^2
  EXPECT_NEAR(y[0], 0.5 / std::pow(1.5 + 0.2 / 3 * (0.25 + 4), 0.75), 1e-12);
  // channel 3 at spatial 1: window channels 2..3: (-0.5)^2 + 2^2
  EXPECT_NEAR(y[7], 2 / std::pow(1.5 + 0.2 / 3 * (0.25 + 4), 0.75), 1e-12);
  const Vec g = {1, -2, 0.5, 1, 3, -1, 0.25, 2};
  // The window above, then an even one, which reaches one channel further up than down.
  for (const int64_t size : {a.size, int64_t(4)}) {
    a.size = size;
    Vec dx(8);
    lrn::lrnGrad(x.data(), g.data(), {1, 4, 2}, a, dx.data());
    expectGradient(x, g, [&](const Vec& v) {
      Vec out(8);
      lrn::lrn(v.data(), {1, 4, 2}, a, out.data());
      return out;
    }, dx);
  }
}

// The formula per element with pow, against the kernels' column blocks (150 columns:
// two whole blocks and a part) and their exp(-beta log d); beta = 0 gives x and g.
TEST(LrnKernel, ColumnBlocksEqualTheFormulaPerElement) {
  const Dims shape = {2, 7, 10, 15};
  const int64_t C = 7, inner = 150, total = 2 * C * inner;
  Vec x(static_cast<size_t>(total)), g(x.size());
  for (int64_t i = 0; i < total; ++i) x[i] = std::sin(0.1 * i) * 2, g[i] = std::cos(0.07 * i);
  for (const double beta : {0.75, 0.0, 1.3}) {
    lrn::Attributes a;
    a.alpha = 0.3;
    a.beta = beta;
    a.bias = 1.25;
    a.size = 5;
    Vec y(x.size()), dx(x.size());
    lrn::lrn(x.data(), shape, a, y.data());
    lrn::lrnGrad(x.data(), g.data(), shape, a, dx.data());
    auto d = [&](int64_t n, int64_t c, int64_t i) {
      double s = 0;
      for (int64_t k = std::max<int64_t>(0, c - 2); k <= std::min<int64_t>(C - 1, c + 2); ++k)
        s += x[(n * C + k) * inner + i] * x[(n * C + k) * inner + i];
      return a.bias + a.alpha / 5 * s;
    };
    for (int64_t n = 0; n < 2; ++n)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t i = 0; i < inner; ++i) {
          const int64_t at = (n * C + c) * inner + i;
          const double want = x[at] * std::pow(d(n, c, i), -beta);
          double sum = 0;
          for (int64_t j = std::max<int64_t>(0, c - 2); j <= std::min<int64_t>(C - 1, c + 2); ++j) {
            const int64_t aj = (n * C + j) * inner + i;
            sum += g[aj] * x[aj] * std::pow(d(n, j, i), -beta - 1);
          }
          const double wantDx = g[at] * std::pow(d(n, c, i), -beta) - 2 * a.alpha * beta / 5 * x[at] * sum;
          ASSERT_NEAR(y[at], want, 1e-14 * (1 + std::abs(want))) << at << " beta " << beta;
          ASSERT_NEAR(dx[at], wantDx, 1e-14 * (1 + std::abs(wantDx))) << at << " beta " << beta;
          if (beta == 0) ASSERT_EQ(y[at], x[at]);
        }
  }
}

// ---- einsum plan ----------------------------------------------------------

TEST(EinsumPlan, BatchedMatmulAttentionAndImplicitOutput) {
  std::string problem;
  auto p = einsum::plan("bij,bjk->bik", {4, 2, 3}, {4, 3, 5}, problem);
  ASSERT_TRUE(p) << problem;
  EXPECT_EQ(p->batch, 4);
  EXPECT_EQ(p->m, 2);
  EXPECT_EQ(p->k, 3);
  EXPECT_EQ(p->n, 5);
  EXPECT_EQ(p->outShape, (Dims{4, 2, 5}));
  EXPECT_EQ(p->permOut, (Dims{0, 1, 2}));

  p = einsum::plan("bhqd,bhkd->bhqk", {2, 4, 8, 16}, {2, 4, 6, 16}, problem);
  ASSERT_TRUE(p) << problem;
  EXPECT_EQ(p->permB, (Dims{0, 1, 3, 2}));  // [b, h, d, k]
  EXPECT_EQ(p->outShape, (Dims{2, 4, 8, 6}));

  p = einsum::plan("ij,kj", {2, 3}, {5, 3}, problem);  // implicit: "ik"
  ASSERT_TRUE(p) << problem;
  EXPECT_EQ(p->out, "ik");
  EXPECT_EQ(p->outShape, (Dims{2, 5}));

  p = einsum::plan("ij,jk->ki", {2, 3}, {3, 5}, problem);
  ASSERT_TRUE(p) << problem;
  EXPECT_EQ(p->permOut, (Dims{1, 0}));
  EXPECT_EQ(*einsum::gradientEquation(*p, 0), "ki,jk->ij");
  EXPECT_EQ(*einsum::gradientEquation(*p, 1), "ij,ki->jk");

  p = einsum::plan("i,i->", {7}, {7}, problem);
  ASSERT_TRUE(p) << problem;
  EXPECT_EQ(p->k, 7);
  EXPECT_TRUE(p->outShape.empty());

  p = einsum::plan("ij,k->ik", {2, 3}, {5}, problem);  // j summed within A
  ASSERT_TRUE(p) << problem;
  EXPECT_EQ(p->sumA, (Dims{1}));
  EXPECT_FALSE(einsum::gradientEquation(*p, 0));
}

TEST(EinsumPlan, ErrorsNameTheProblem) {
  std::string problem;
  EXPECT_FALSE(einsum::plan("ii,ij->j", {2, 2}, {2, 3}, problem));
  EXPECT_NE(problem.find("letter 'i' repeats"), std::string::npos) << problem;
  EXPECT_FALSE(einsum::plan("ij,jk->ik", {2, 3}, {4, 5}, problem));
  EXPECT_NE(problem.find("letter 'j' is 3 and 4"), std::string::npos) << problem;
  EXPECT_FALSE(einsum::plan("...j,jk->k", {2, 3}, {3, 5}, problem));
  EXPECT_NE(problem.find("ellipses"), std::string::npos) << problem;
  EXPECT_FALSE(einsum::plan("ij->ji", {2, 3}, {3, 5}, problem));
  EXPECT_NE(problem.find("two operands"), std::string::npos) << problem;
  EXPECT_FALSE(einsum::plan("ij,jk->iz", {2, 3}, {3, 5}, problem));
  EXPECT_NE(problem.find("'z'"), std::string::npos) << problem;
}

}  // namespace
}  // namespace pir::vm
