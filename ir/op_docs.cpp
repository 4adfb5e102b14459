#include "ir/op_docs.h"

#include <map>
#include <vector>

#include "ir/op_info.h"

namespace pir {
namespace {

// Sections of ops.md, each starting at an op of ops.def (whose order follows them).
struct Section {
  OpCode first;
  const char* title;
};
constexpr Section kSections[] = {
    {OpCode::Abs, "Elementwise unary"},
    {OpCode::Add, "Elementwise binary and ternary"},
    {OpCode::Sum, "Reductions and normalisation"},
    {OpCode::MatMul, "Linear algebra and convolution"},
    {OpCode::Reshape, "Shape, slicing and indexing"},
    {OpCode::RandomUniform, "Random (runtime.md §6)"},
    {OpCode::Call, "Control flow (language.md §6)"},
    {OpCode::AllReduce, "Replica collectives (runtime.md §5)"},
    {OpCode::Accumulate, "Variable updates (in place on the first operand)"},
    {OpCode::HostLoad, "IO and copies (exchange ops, language.md §8)"},
};

// What each shape rule of ops.def (the Infer column, ir/infer.cpp) demands of
// the operands' dtypes and gives as result type.
struct RuleText {
  const char* dtypes;
  const char* result;
};
const std::map<std::string_view, RuleText>& ruleTexts() {
  static const std::map<std::string_view, RuleText> texts = {
      {"Unary", {"numeric (not bool)", "the type of `x`"}},
      {"UnarySigned", {"numeric (not bool)", "the type of `x`"}},
      {"UnaryNumeric", {"numeric (not bool)", "the type of `x`"}},
      {"UnaryFloat", {"float (f16, f32, f64)", "the type of `x`"}},
      {"UnaryPredicate", {"numeric (not bool)", "`bool`, the shape of `x`"}},
      {"UnaryBool", {"bool", "`bool`, the shape of `x`"}},
      {"Same", {"any (collectives: numeric; `op = and/or` need bool)", "the type of `x`"}},
      {"SameInplace", {"numeric", "aliases `t`"}},
      {"Cast", {"any", "`dtype`, the shape of `x`"}},
      {"Binary", {"numeric, all equal", "that dtype, the NumPy broadcast of the shapes"}},
      {"BinaryFloat", {"float, equal", "that dtype, the broadcast shape"}},
      {"Compare", {"equal; numeric (bool too for equal/not_equal)", "`bool`, the broadcast shape"}},
      {"BinaryBool", {"bool", "`bool`, the broadcast shape"}},
      {"Where", {"`c` bool; `x`, `y` equal", "the dtype of `x`, the broadcast of all three shapes"}},
      {"ScaledAdd", {"`x`, `y` numeric, equal; `a`, `b` numeric scalars", "the dtype of `x`, the broadcast shape"}},
      {"BinaryInplace", {"equal, numeric (`pow_`: float); `y` broadcasts to `x`", "aliases `x`"}},
      {"ScaledAddInplace", {"equal, numeric; `y` broadcasts to `x`; `a`, `b` scalars", "aliases `x`"}},
      {"Reduce", {"numeric", "the dtype of `x`; reduced axes removed (size 1 with `keepdims`)"}},
      {"ReduceFloat", {"float", "the dtype of `x`; reduced axes removed (size 1 with `keepdims`)"}},
      {"ArgReduce", {"numeric", "`i32`; `axis` removed (size 1 with `keepdims`)"}},
      {"SameAxis", {"numeric", "the type of `x`"}},
      {"SameAxisFloat", {"float", "the type of `x`"}},
      {"TopK", {"numeric", "values (the dtype of `x`) and `i32` indices; `axis` has size `k`"}},
      {"NllLoss", {"`probs` float `[..., C]`; `labels` integer `[...]`; `weight` `[C]` of the dtype of `probs`", "the dtype of `probs`: a scalar, or `[...]` with `reduction = none`"}},
      {"LayerNorm", {"float; `gamma`, `beta` of shape `x.shape[axis:]`", "the type of `x`"}},
      {"LayerNormGrad", {"float; `gamma` of shape `x.shape[axis:]`; `g` of the type of `x`", "`dx` (the type of `x`), `dgamma` and `dbeta` (the type of `gamma`)"}},
      {"GroupNorm", {"float; `gamma`, `beta` of shape `[C]` (axis 1)", "the type of `x`"}},
      {"GroupNormGrad", {"float; `gamma` of shape `[C]` (axis 1); `g` of the type of `x`", "`dx` (the type of `x`), `dgamma` and `dbeta` (the type of `gamma`)"}},
      {"BatchNorm", {"float; `scale`, `bias`, `mean`, `var` of shape `[C]` (axis 1)", "the type of `x`"}},
      {"MatMul", {"equal; float or `i32`", "NumPy `matmul` shape (1-D promotion, broadcast batch dims)"}},
      {"MatMulScaledAddInplace", {"equal, float; `acc` has the shape of `x @ y` (matmul's)", "aliases `acc`"}},
      {"Conv", {"float, equal; `x` N,C + 1-3 spatial dims, `w` O,I/groups,spatial", "`[N, O, spatial out...]`"}},
      {"Pool", {"numeric; N,C + 1-3 spatial dims", "`[N, C, spatial out...]`"}},
      {"ConvGradInput", {"float, equal; `g` shaped as the output of conv over `shape` and `w`", "`shape` (conv's input), the dtype of `g`"}},
      {"ConvGradWeight", {"float, equal; `g` shaped as the output of conv over `x` and `shape`", "`shape` (conv's weights), the dtype of `x`"}},
      {"PoolWithIndices", {"numeric; N,C + 1-3 spatial dims; fewer than 2^31 elements", "`y` as max_pool's; `indices` i32 of its shape"}},
      {"MaxPoolGrad", {"float, equal; `g` shaped as the output of max_pool over `x`", "the type of `x`"}},
      {"AveragePoolGrad", {"float; `g` shaped as the output of average_pool over `shape`", "`shape`, the dtype of `g`"}},
      {"Reshape", {"any", "`shape` (one `-1` inferred), same element count"}},
      {"Flatten", {"any", "1-D, all elements; with `axis`, `[prod(x.shape[:axis]), prod(x.shape[axis:])]`"}},
      {"Transpose", {"any", "the axes of `x` permuted"}},
      {"Squeeze", {"any", "`x` without the squeezed size-1 axes"}},
      {"Unsqueeze", {"any", "`x` with size-1 axes inserted (`axes` count in the output rank)"}},
      {"Broadcast", {"any", "`shape`"}},
      {"Pad", {"any", "each axis grown by its begin and end pads"}},
      {"PadGrad", {"float", "each axis shrunk by its begin and end pads (pad's `x`)"}},
      {"Tile", {"any; one repeat per axis", "axis d times `repeats[d]`"}},
      {"Trilu", {"any, rank >= 2", "the type of `x`"}},
      {"GatherElements", {"any; integer `indices` of `x`'s rank", "`indices`' shape, `x`'s dtype"}},
      {"ScatterElements", {"any (numeric with a reduction); integer `indices`; `updates` like `indices`", "the type of `x`"}},
      {"Resize", {"numeric", "`shape`, the dtype of `x`"}},
      {"ResizeGrad", {"float", "`shape` (resize's `x`)"}},
      {"Range", {"none", "`dtype`, one axis of max(ceil((limit - start) / delta), 0)"}},
      {"Lrn", {"float, rank >= 2", "the type of `x`"}},
      {"LrnGrad", {"float, `g` like `x`", "the type of `x`"}},
      {"SoftmaxGrad", {"float, `g` like `y`", "the type of `y`"}},
      {"ConvTranspose", {"float; `w` is [C_in, C_out / groups, k...]; `b` is [C_out]", "[N, C_out, (in - 1) * stride + dilation * (k - 1) + 1 - pads + output_padding ...]"}},
      {"Einsum", {"numeric, equal", "the equation's output letters"}},
      {"Concat", {"equal", "the shapes joined along `axis`"}},
      {"Split", {"any", "one result per entry of `splits`, sized along `axis`"}},
      {"Slice", {"any", "the NumPy slice of `x`"}},
      {"Subsample", {"any", "every `strides[i]`-th element per axis"}},
      {"DynamicSlice", {"`index`: i32 or u32, one element per axis", "`x` with `sizes` on `axes`"}},
      {"DynamicUpdate", {"`index`: i32 or u32; `u` the dtype of `x`", "the type of `x`"}},
      {"Gather", {"`indices` integer", "`x.shape[:axis] + indices.shape + x.shape[axis+1:]`"}},
      {"GatherGrad", {"float `g` shaped as gather's result; `indices` integer", "`g.shape[:axis] + [size] + g.shape[axis+rank(indices):]`, the dtype of `g`"}},
      {"Scatter", {"`indices` integer, `values` the dtype of `x`, both of one shape and the rank of `x`", "the type of `x`"}},
      {"OneHot", {"`indices` integer", "`dtype`, `indices.shape` with `num_classes` inserted at `axis` (last by default)"}},
      {"Init", {"(no operands)", "`dtype`, `shape`"}},
      {"Random", {"`seed` is `u32[2]`; `dtype` float", "`dtype`, `shape`"}},
      {"Dropout", {"`x` float; `seed` is `u32[2]`", "the type of `x`"}},
      {"SplitRandomSeed", {"`seed` is `u32[2]`", "`n` results, each `u32[2]`"}},
      {"Call", {"arguments of exactly the parameter types", "the callee's outputs"}},
      {"Repeat", {"arguments of exactly the parameter types; outputs carry into the first inputs", "the body's outputs"}},
      {"Conditional", {"`c` is `bool[]` or `bool[1]`; by-value branch inputs", "the branches' (equal) outputs"}},
      {"AllGather", {"numeric", "`[group_size] + shape` (`new_axis`) or `axis` multiplied (`concat`)"}},
      {"ReduceScatter", {"numeric", "1-D, `ceil(n / group_size)` elements"}},
      {"ReplicatedSlice", {"any; `axis` divisible by the group size", "`axis` divided by the group size"}},
      {"Accumulate", {"numeric; `x` of the dtype of `t`, broadcasting to it; `f`/`step` scalars", "aliases `t`"}},
      {"AdamUpdater", {"float; `acc1`, `acc2` of one type; `step` scalar", "the type of `acc1`"}},
      {"HostLoad", {"`s` an h2d stream", "the stream's type"}},
      {"HostStore", {"`s` a d2h stream; `t` exactly its type", "(none)"}},
      {"RemoteLoad", {"`b` a remote buffer; `offset` i32/u32 scalar", "the buffer's type"}},
      {"RemoteLoadInplace", {"`b` a remote buffer; `offset` i32/u32 scalar; `t` the buffer's type", "aliases `t`"}},
      {"RemoteStore", {"`b` a remote buffer; `offset` i32/u32 scalar; `t` the buffer's type", "(none)"}},
  };
  return texts;
}

// What an optional attribute (`name:type?`) means when absent, by "op.key" then "key".
std::string absentMeaning(std::string_view op, std::string_view key) {
  static const std::map<std::string, std::string, std::less<>> meanings = {
      {"transpose.perm", "reversed axes"}, {"transpose_.perm", "reversed axes"},
      {"squeeze.axes", "every size-1 axis"}, {"slice.step", "1 on every axis"},
      {"slice.axes", "the leading axes"}, {"conv.stride", "1 per spatial dim"},
      {"conv.padding", "0"}, {"conv.dilation", "1 per spatial dim"},
      {"average_pool.stride", "`kernel`"}, {"max_pool.stride", "`kernel`"},
      {"average_pool.padding", "0"}, {"max_pool.padding", "0"},
      {"max_pool_with_indices.stride", "`kernel`"}, {"max_pool_with_indices.padding", "0"},
      {"average_pool.dilation", "1 per spatial dim"}, {"max_pool.dilation", "1 per spatial dim"},
      {"max_pool_with_indices.dilation", "1 per spatial dim"}, {"average_pool_grad.dilation", "1 per spatial dim"},
      {"max_pool_grad.dilation", "1 per spatial dim"},
      {"conv_grad_input.stride", "1 per spatial dim"}, {"conv_grad_input.padding", "0"},
      {"conv_grad_input.dilation", "1 per spatial dim"}, {"conv_grad_weight.stride", "1 per spatial dim"},
      {"conv_grad_weight.padding", "0"}, {"conv_grad_weight.dilation", "1 per spatial dim"},
      {"average_pool_grad.stride", "`kernel`"}, {"max_pool_grad.stride", "`kernel`"},
      {"average_pool_grad.padding", "0"}, {"max_pool_grad.padding", "0"},
      {"accumulate_.f", "none (t += x)"}, {"adam_updater.step", "a third operand"},
      {"nll_loss.ignore_index", "none"}, {"group", "all replicas"},
  };
  std::string full = std::string(op) + "." + std::string(key);
  if (auto it = meanings.find(full); it != meanings.end()) return it->second;
  if (auto it = meanings.find(key); it != meanings.end()) return it->second;
  return "none";
}

// Semantics ops.md states per op that the table's columns do not carry.
const std::map<std::string_view, const char*>& opNotes() {
  static const std::map<std::string_view, const char*> notes = {
      {"gelu", "the tanh approximation"},
      {"gelu_erf", "the exact (erf) form"},
      {"gelu_grad", "`g * gelu'(x)` (gelu's tanh form): the gradient of gelu for `x` given its output gradient `g`"},
      {"erf", "the error function (ONNX Erf)"},
      {"cast", "float to int truncates toward zero; out of range saturates; grad only between float dtypes"},
      {"detach", "blocks gradients"},
      {"print_tensor", "returns `x`; prints `TITLE: VALUE` in program order (empty title: the tensor's name)"},
      {"div", "integer division truncates toward zero; by zero is a runtime error"},
      {"fmod", "truncated remainder; gradient for `x` only"},
      {"pow", "exponents 2, 3, -1 and 1 are `x * x`, `x * x * x`, `1 / x` and `x` (as PyTorch); others the C library's pow"},
      {"maximum", "ties send the gradient to the first operand"},
      {"minimum", "ties send the gradient to the first operand"},
      {"where", "gradient for `x` and `y`"},
      {"scaled_add", "`a*x + b*y`"},
      {"scaled_add_", "`x = a*x + b*y`"},
      {"sum", "`axis`: an int, a list, or `all`"},
      {"argmax", "the first largest element along `axis` (a NaN is the largest), or with `select_last_index` the last (ONNX ArgMax)"},
      {"argmin", "the first smallest element along `axis` (a NaN is the smallest), or with `select_last_index` the last (ONNX ArgMin)"},
      {"cumsum", "ONNX CumSum: `exclusive` leaves each element out of its own sum (the first is 0), `reverse` sums from the end of the axis; the gradient is the cumsum of `g` in the other direction, exclusive alike"},
      {"topk", "sorted; gradient for the values"},
      {"nll_loss", "the optional `weight` (one per class, ONNX NegativeLogLikelihoodLoss's and PyTorch's) scales each row's loss by its label's weight, and `mean` then divides by the sum of the weights of the rows not ignored (0/0 is NaN); gradient for `probs`"},
      {"layer_norm", "normalises over the dims from `axis` (ONNX LayerNormalization; by default the last), biased variance; `gamma` and `beta` have the normalised dims' shape"},
      {"layer_norm_grad", "the gradients of layer_norm for `x`, `gamma` and `beta` given its output gradient `g`; the attributes are layer_norm's"},
      {"group_norm_grad", "the gradients of group_norm for `x`, `gamma` and `beta` given its output gradient `g`, the statistics recomputed from `x`; the attributes are group_norm's"},
      {"batch_norm_inference", "gradient for `x`"},
      {"matmul", "`transpose_a` / `transpose_b`: that operand (rank >= 2) is read with its last two axes swapped, without a copy (what `fold-transposes` writes)"},
      {"matmul_scaled_add_", "`acc = beta*acc + alpha*(x @ y)`, `transpose_a` / `transpose_b` as matmul's; the product is not rounded on its own (f32: the GEMM adds it into `acc`), so the last bits may differ from `scaled_add_` of a `matmul`; what `fuse-matmul-updates` writes for an SGD update of a weight by its gradient's product"},
      {"conv", "NCHW / OIHW; the optional `b` (one value per output channel, ONNX Conv's B) is added to each channel; `padding` is `[top, left, bottom, right]` in 2-D"},
      {"conv_grad_input", "the gradient of conv for `x` (`shape`) given its output gradient `g`; the attributes are conv's"},
      {"conv_grad_weight", "the gradient of conv for `w` (`shape`) given `x` and the output gradient `g`"},
      {"average_pool", "ONNX AveragePool: `padding` is `[begin..., end...]`; divides by the window's real cells, or with `count_include_pad` by its cells inside the padded input (not those past it under `ceil_mode`); `ceil_mode` rounds the output length up, dropping a last window that would start in the end padding"},
      {"max_pool", "ONNX MaxPool: `padding` cells never win (a window of padding alone gives -inf, or the dtype's lowest); a NaN in a window is its maximum; `ceil_mode` as average_pool's"},
      {"max_pool_with_indices", "max_pool, and per output the flat index into `x` of the first NaN, else the first maximum (ONNX MaxPool's `Indices`): the plane's offset (N, C row-major) plus the cell's index in its plane, row-major or with `column_major` the first spatial axis fastest (ONNX `storage_order = 1`); -1 for a window of padding alone; gradient for `x` through `y`"},
      {"max_pool_grad", "`g` goes to the first window element (row-major) equal to the window's maximum; none for a NaN maximum"},
      {"average_pool_grad", "each output's `g` shared equally by its window's real (non-padding) cells (with `count_include_pad`, `g` divided by average_pool's divisor)"},
      {"reshape", "one `-1` allowed"},
      {"flatten", "without `axis` all elements in one dim (PopXL); with it ONNX Flatten, `axis` in `[-r, r]`; the elements keep their row-major order"},
      {"slice", "NumPy slice semantics, negative indices, clamped"},
      {"dynamic_slice", "out-of-range starts clamp"},
      {"gather", "an out-of-range index is a runtime error; gradient for `x`"},
      {"gather_grad", "gather's gradient for an `x` of `size` along `axis`: zeros, with each slab of `g` added at its index (repeated indices add up, in index order); negative indices count from the end, an out-of-range one is a runtime error; gradient for `g` (a gather)"},
      {"scatter", "ONNX ScatterElements"},
      {"pad", "ONNX Pad: `pads` lists the begin of every axis, then the end; a negative pad crops; `constant` fills with `value`, `reflect` mirrors without repeating the edge (NumPy's `reflect`, folding back when wider than the axis), `edge` repeats the border"},
      {"pad_grad", "the gradient of pad for `x` given the padded gradient `g`: each element of `x` gets the sum of `g` over the outputs it fed; the attributes are pad's"},
      {"tile", "ONNX Tile: axis d repeated `repeats[d]` times (0 empties it)"},
      {"trilu", "ONNX Trilu over the last two axes: keeps the elements with column - row >= `k` (`upper`) or <= `k` (lower), zero elsewhere"},
      {"gather_elements", "ONNX GatherElements: `y[i] = x[i with its axis coordinate replaced by indices[i]]`; negative indices count from the end, an out-of-range one is a runtime error; gradient for `x` (a scatter_elements add)"},
      {"scatter_elements", "ONNX ScatterElements: `x` with each update written (`none`, the last of duplicates in index order wins) or combined (`add`, `mul`, `min`, `max`) at its index along `axis`; gradients for `x` and `updates` (`none`: to the update that stays; min/max: to every element equal to the result; mul: an update's is g * y / update)"},
      {"resize", "ONNX Resize-13, `nearest`, `linear` (n-linear, two taps per axis) and `cubic` (Keys' cubic convolution of coefficient `cubic_coeff_a`, four taps per axis, the edge repeated outside the input or, with `exclude_outside`, those taps dropped and the rest renormalised); `coordinate_transformation_mode` maps an output coordinate back (`half_pixel`: (o + 0.5) / scale - 0.5, `pytorch_half_pixel`, `align_corners`, `asymmetric`, `tf_crop_and_resize` over `roi`, outside it `extrapolation_value`, `tf_half_pixel_for_nn`); `scale` is `scales[d]` when given, else the size ratio; `nearest_mode` rounds nearest"},
      {"resize_grad", "the gradient of resize for `x` given `g`: each element of `x` gets `g` times the weight each output read it with; the attributes are resize's, `shape` is `x`'s"},
      {"range", "ONNX Range: `start + k * delta` for k = 0, 1, ... while short of `limit`"},
      {"lrn", "ONNX LRN across the channels (axis 1): `x / (bias + alpha / size * sum of x^2 over the size channels around)^beta`, computed in f64"},
      {"lrn_grad", "the gradient of lrn for `x` given `g`; the attributes are lrn's"},
      {"softmax_grad", "the gradient of softmax for `x` given its result `y` and the result's gradient `g`: `g * y - y * sum(g * y over axis)`, with the roundings and summation order of those ops, in one kernel"},
      {"log_softmax_grad", "the gradient of log_softmax for `x` given its result `y` and the result's gradient `g`: `g - exp(y) * sum(g over axis)`, with the roundings and summation order of those ops, in one kernel"},
      {"conv_transpose", "ONNX ConvTranspose (PopXL `conv_transpose`): the gradient of a conv for its input, the conv having this window and `w`; `output_padding` lengthens the end of each axis (less than the stride or the dilation); `padding` crops; the optional `b` (one value per output channel, ONNX ConvTranspose's B) is added to each channel"},
      {"einsum", "ONNX Einsum of two operands: letters in both and in the output are batch axes, letters in both only are contracted, letters in one operand only and not in the output are summed first; the output is the explicit `->` letters or, implicit, the letters seen once in alphabetical order; no repeated letter within an operand (a diagonal), no ellipsis"},
      {"hardmax", "ONNX Hardmax-13: 1 at the first largest element along `axis` (a NaN is the largest, as for argmax), 0 elsewhere"},
      {"onehot", "`values` is `[off, on]`; an index in `[-num_classes, 0)` counts from the end (ONNX), one outside `[-num_classes, num_classes)` gives an all-`off` row; `axis` places the class axis in the result (ONNX OneHot), in `[-(r + 1), r]` for indices of rank r"},
      {"init", "`kind`: `zero` or `undef` (zero-filled here)"},
      {"dropout", "scales kept values by `1/(1-p)`"},
      {"repeat", "runs the body `count` times"},
      {"conditional", "runs exactly one branch"},
      {"replicated_all_reduce", "gradient for `op = add`/`mean`"},
      {"replicated_reduce_scatter", "member k gets the k-th chunk, zero-padded; gradient for `op = add`"},
      {"replicated_slice", "member k takes the k-th slice along `axis`"},
      {"accumulate_", "`t += x`, or `t += f*x`; `f` may be a scalar tensor operand"},
      {"accumulate_square_", "`t += f*x*x`"},
      {"accumulate_mean_", "`t = step/(step+1)*t + x/(step+1)`"},
      {"accumulate_moving_average_", "`t = f*t + (1-f)*x`"},
      {"accumulator_scale_", "`t *= f`"},
      {"accumulator_zero_", "`t = 0`"},
      {"copy_var_update_", "`t = x`"},
      {"adam_updater", "PopXL's Adam moments to an update: `acc1 / (1 - beta1^step) / (sqrt(acc2 / (1 - beta2^step)) + eps)`, no bias correction without a step; `step` counts updates from 1 (PopXL's `time_step` after its increment; a literal 0 warns)"},
      {"adam_var_update_", "applies an Adam update with learning rate `lr`"},
      {"host_load", "the next slot of the stream's buffer"},
      {"remote_load", "an offset outside `[0, entries)` is a runtime error"},
      {"remote_load_", "loads into `t`"},
      {"ipu_copy", "a copy on IPU `ipu`"},
      {"io_tile_copy", "a copy on the other tile set of the same IPU"},
  };
  return notes;
}

std::string gradText(GradKind g) {
  switch (g) {
    case GradKind::Diff: return "✓";
    case GradKind::Zero: return "0";
    case GradKind::NoGrad: return "✗";
    case GradKind::NA: return "—";
  }
  return "—";
}

std::string gradWords(GradKind g) {
  switch (g) {
    case GradKind::Diff: return "✓ differentiable";
    case GradKind::Zero: return "0 (a zero gradient)";
    case GradKind::NoGrad: return "✗ none (autodiff stops here)";
    case GradKind::NA: return "— not applicable";
  }
  return "—";
}

// Splits an ops.def attribute spec at the commas outside brackets.
std::vector<std::string> splitSpec(std::string_view spec) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string cur;
  for (char c : spec) {
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(cur);
      cur.clear();
      continue;
    }
    if (c == ' ' && cur.empty()) continue;
    cur += c;
  }
  if (!cur.empty()) parts.push_back(cur);
  return parts;
}

struct AttrText {
  std::string name, type, value;  // value: "= default", "required", or "optional (absent: ...)"
};

std::vector<AttrText> attrTexts(const OpInfo& info) {
  std::vector<AttrText> out;
  for (const std::string& part : splitSpec(info.attrSpecText)) {
    AttrText a;
    size_t colon = part.find(':');
    a.name = part.substr(0, colon);
    std::string rest = part.substr(colon + 1);
    size_t eq = rest.find('=');
    if (eq != std::string::npos) {
      a.type = rest.substr(0, eq);
      a.value = rest.substr(eq + 1);
    } else if (!rest.empty() && rest.back() == '?') {
      a.type = rest.substr(0, rest.size() - 1);
      a.value = "?" + absentMeaning(info.name, a.name);
    } else {
      a.type = rest;
    }
    if (a.type.starts_with("enum(")) {  // its words (ir/op_enums.def), as `a|b|c`
      a.type.clear();
      for (const std::string& word : info.findAttr(a.name)->enumValues) a.type += (a.type.empty() ? "" : "|") + word;
    }
    if (a.type == "group") a.type = "(stride, group_size)";  // how a grouping is written (ir/grouping.h)
    out.push_back(std::move(a));
  }
  return out;
}

// `{k, axis = -1}` in ops.md's notation: required keys bare, defaults after `=`,
// optional keys with their meaning when absent.
std::string attrsInline(const OpInfo& info) {
  std::string s;
  for (const AttrText& a : attrTexts(info)) {
    if (!s.empty()) s += ", ";
    s += a.name;
    if (a.value.empty()) continue;
    if (a.value[0] == '?') s += " = " + a.value.substr(1) + " (optional)";
    else s += " = " + a.value;
  }
  return s;
}

std::string signature(const OpInfo& info) {
  std::string s(info.name);
  if (!info.operandNames.empty()) {
    s += ' ';
    s += info.operandNames;
  }
  return s;
}

const OpInfo* inplaceVariant(const OpInfo& info) {
  if (info.has(F_INPLACE)) return nullptr;
  auto code = lookupOp(std::string(info.name) + "_");
  return code ? &opInfo(*code) : nullptr;
}

const OpInfo* inplaceBase(const OpInfo& info) {
  if (!info.has(F_INPLACE) || !info.name.ends_with("_")) return nullptr;
  auto code = lookupOp(info.name.substr(0, info.name.size() - 1));
  return code ? &opInfo(*code) : nullptr;
}

std::vector<std::string_view> aliasesOf(const OpInfo& info) {
  std::vector<std::string_view> out;
  for (const OpAlias& a : opAliases())
    if (a.code == info.code) out.push_back(a.alias);
  return out;
}

struct RuleStrings {
  std::string dtypes, result;
};

RuleStrings ruleText(const OpInfo& info) {
  auto it = ruleTexts().find(info.inferRule);
  RuleStrings r;
  if (it != ruleTexts().end()) r = {it->second.dtypes, it->second.result};
  // An in-place op's result (when named) is its first operand, whatever the rule's type.
  if (info.has(F_INPLACE) && !r.result.starts_with("aliases")) {
    r.result = "aliases `" + info.operands[info.inplaceOperand].name + "`";
  }
  return r;
}

std::string notesText(const OpInfo& info) {
  std::string s;
  auto add = [&](const std::string& t) { s += (s.empty() ? "" : "; ") + t; };
  if (info.has(F_EXTENSION)) add("**extension** (not in the spec's ops.md)");
  if (const OpInfo* base = inplaceBase(info)) add("in place: overwrites `" + info.operands[info.inplaceOperand].name + "` with `" + std::string(base->name) + "`");
  for (std::string_view alias : aliasesOf(info)) add("alias `" + std::string(alias) + "`");
  if (auto it = opNotes().find(info.name); it != opNotes().end()) add(it->second);
  return s;
}

template <class F> void forEachOp(F&& f) {
  for (int i = 0; i < kNumOpCodes; ++i) {
    const OpInfo& info = opInfo(static_cast<OpCode>(i));
    if (info.has(F_DECL) || info.has(F_REGION)) continue;
    const Section* section = nullptr;
    for (const Section& s : kSections)
      if (s.first == info.code) section = &s;
    f(info, section);
  }
}

std::string escapePipes(std::string s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

std::string opReferenceText() {
  std::string out =
      "The ops of pir, from the op table (ir/ops.def). `pir help OP` shows one op in full.\n"
      "Grad: ✓ differentiable, 0 zero gradient, ✗ none, — not applicable. [ext]: an extension.\n";
  forEachOp([&](const OpInfo& info, const Section* section) {
    if (section) out += std::string("\n") + section->title + ":\n";
    std::string line = "  " + signature(info);
    std::string attrs = attrsInline(info);
    if (!attrs.empty()) line += " {" + attrs + "}";
    if (line.size() < 48) line.append(48 - line.size(), ' ');
    else line += "  ";
    line += gradText(info.grad);
    if (const OpInfo* v = inplaceVariant(info)) line += "  in place: " + std::string(v->name);
    for (std::string_view alias : aliasesOf(info)) line += "  alias: " + std::string(alias);
    if (info.has(F_EXTENSION)) line += "  [ext]";
    out += line + "\n";
  });
  return out;
}

std::string opReferenceMarkdown() {
  std::string out =
      "<!-- Generated by `pir help ops --markdown` from ir/ops.def: do not edit by hand.\n"
      "     Regenerate with `ninja -C build docs-ops`; the test `docs_ops_current` fails when it is stale. -->\n"
      "# Op reference\n\n"
      "Every op pir accepts, generated from the op table (`ir/ops.def`), the same source as\n"
      "`pir help ops` and `pir help OP`. Conventions:\n\n"
      "- Statements are written `%r = OP OPERANDS {attributes}` ([language.md](language.md) §5).\n"
      "  Operands `x, y, t` are tensors (a `%value` or a literal, which takes the dtype of the\n"
      "  first tensor operand); `s` is a stream, `b` a remote buffer, `@g(...)` a graph call.\n"
      "  `[, a]` marks optional trailing operands, `, ...` a variadic tail.\n"
      "- Attributes: `key = default`; a key with no default is required; `(optional)` keys\n"
      "  say what their absence means. Types: `int`, `float`, `bool`, `str`, `dtype`, `ints`\n"
      "  (a list of integers), `axes` (an int, a list or `all`), `group` (`(stride, group_size)`),\n"
      "  `a|b` (one of the words). Every op also accepts the placement attributes `ipu`,\n"
      "  `tile_set = compute|io`, `tile`, `tiles` ([language.md](language.md) §7).\n"
      "- Grad: ✓ differentiable; 0 zero gradient; ✗ no gradient (autodiff stops: an error if a\n"
      "  required gradient must pass through it); — not applicable.\n"
      "- Numeric means every dtype but `bool`; float means `f16`, `f32`, `f64`. Binary\n"
      "  elementwise ops broadcast with NumPy rules. `axis` values may be negative.\n"
      "- An op whose name ends in `_` works in place: it overwrites one operand (its first, but\n"
      "  `t` of `remote_load_`), a result it binds aliases that operand, and it has no gradient.\n"
      "- **Extension**: an op the specification's op catalogue does not list. pir keeps the nine\n"
      "  in-place elementwise variants `abs_`, `neg_`, `log_`, `sqrt_`, `tanh_`, `sigmoid_`,\n"
      "  `pow_`, `maximum_`, `minimum_` (PopXL has them; `maximum_`/`minimum_` take two operands).\n";
  forEachOp([&](const OpInfo& info, const Section* section) {
    if (section)
      out += std::string("\n## ") + section->title +
             "\n\n| op | operands | attributes | operand dtypes | result | grad | in place | notes |\n"
             "|---|---|---|---|---|---|---|---|\n";
    RuleStrings rule = ruleText(info);
    const OpInfo* v = inplaceVariant(info);
    std::string attrs = attrsInline(info);
    out += "| `" + std::string(info.name) + "` | " +
           (info.operandNames.empty() ? std::string() : "`" + std::string(info.operandNames) + "`") + " | " +
           (attrs.empty() ? std::string() : "`" + escapePipes(attrs) + "`") + " | " + rule.dtypes + " | " +
           rule.result + " | " + gradText(info.grad) + " | " + (v ? "`" + std::string(v->name) + "`" : std::string()) +
           " | " + notesText(info) + " |\n";
  });
  return out;
}

std::optional<std::string> opHelp(std::string_view name) {
  auto code = lookupOp(name);
  if (!code) return std::nullopt;
  const OpInfo& info = opInfo(*code);
  // The result list: none for the stores, optional for in-place ops (language.md §7).
  bool noResult = info.results.kind == ResultSpec::Kind::Fixed && info.results.count == 0;
  std::string out = std::string("usage: ") + (noResult ? "" : info.has(F_INPLACE) ? "[%r =] " : "%r = ");
  out += signature(info);
  if (!info.attrSpecText.empty()) out += " {" + attrsInline(info) + "}";
  out += "\n";
  if (info.name != name) out += "(`" + std::string(name) + "` is an alias of `" + std::string(info.name) + "`)\n";
  RuleStrings rule = ruleText(info);
  std::vector<AttrText> attrs = attrTexts(info);
  if (!attrs.empty()) {
    out += "\nAttributes:\n";
    for (const AttrText& a : attrs) {
      std::string line = "  " + a.name + ": " + a.type;
      if (line.size() < 28) line.append(28 - line.size(), ' ');
      else line += "  ";
      if (a.value.empty()) line += "required";
      else if (a.value[0] == '?') line += "optional; absent: " + a.value.substr(1);
      else line += "default " + a.value;
      out += line + "\n";
    }
  }
  out += "\nOperand dtypes: " + rule.dtypes + "\n";
  out += "Result:         " + rule.result + "\n";
  out += "Gradient:       " + gradWords(info.grad) + "\n";
  if (const OpInfo* v = inplaceVariant(info)) out += "In place:       " + std::string(v->name) + "\n";
  if (const OpInfo* base = inplaceBase(info))
    out += "In place of:    " + std::string(base->name) + " (overwrites `" + info.operands[info.inplaceOperand].name + "`)\n";
  std::vector<std::string_view> aliases = aliasesOf(info);
  for (std::string_view alias : aliases) out += "Alias:          " + std::string(alias) + "\n";
  if (info.has(F_EXTENSION)) out += "Extension:      not in the spec's op catalogue (ops.md); see docs/ops.md\n";
  if (auto it = opNotes().find(info.name); it != opNotes().end()) out += "Notes:          " + std::string(it->second) + "\n";
  return out;
}

}  // namespace pir
