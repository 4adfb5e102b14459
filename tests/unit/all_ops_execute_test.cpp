// Every op that verifies also executes: for every row of ir/ops.def a small
// valid program using the op is built, run and printed through a session. Adding an
// op to ops.def without an entry in kStatements fails here.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <string_view>

#include "frontend/builder.h"
#include "api/session_driver.h"
#include "vm/session.h"

namespace pir::vm {
namespace {

constexpr OpCode kAllOps[] = {
#define PIR_OP(id, text, mn, mx, attrs, infer, grad, flags, kernel, operands, cost) OpCode::id,
#include "ir/ops.def"
#undef PIR_OP
};

// Declarations every statement may use (the statements follow at top level).
const char* kPrelude = R"(
ir {io_tiles = 4, ipus = 2}
h2d $in : f32[2,3]
d2h $out : f32[2,3]
remote_buffer $rb : f32[2,3] {entries = 2}
graph @inc(%p: f32[2,3]) -> (f32[2,3]) {
  %q = add %p, 1
  return %q
}
graph @dec(%p: f32[2,3]) -> (f32[2,3]) {
  %q = sub %p, 1
  return %q
}
main {
  const %a : f32[2,3] = [[1, -2, 3], [4, 5, -6]]
  const %b : f32[2,3] = [[2, 2, 2], [1, 1, 1]]
  const %c : bool[2,3] = [[true, false, true], [false, true, false]]
  const %idx : i32[2] = [1, 0]
  const %seed : u32[2] = [1, 2]
  const %flag : bool[] = true
  const %img : f32[1,1,3,3] = [[[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]]
  var %w : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
}
feed $in = [[1, 2, 3], [4, 5, 6]]
)";

struct Statement {
  const char* text;            // top-level statements using the op
  const char* printed = "%r";  // printed after `run`
};

// One valid use per op, keyed by the op's text name.
const std::map<std::string_view, Statement> kStatements = {
    {"var", {"var %r : f32[2] = [1, 2]"}},
    {"const", {"const %r : f32[2] = [1, 2]"}},
    {"exchange", {"exchange {\n  %r = host_load $in\n  host_store $out, %a\n}", "%r, $out"}},
    {"abs", {"%r = abs %a"}},
    {"neg", {"%r = neg %a"}},
    {"sign", {"%r = sign %a"}},
    {"exp", {"%r = exp %a"}},
    {"log", {"%r = log %b"}},
    {"log2", {"%r = log2 %b"}},
    {"sqrt", {"%r = sqrt %b"}},
    {"rsqrt", {"%r = rsqrt %b"}},
    {"reciprocal", {"%r = reciprocal %b"}},
    {"square", {"%r = square %a"}},
    {"sin", {"%r = sin %a"}},
    {"cos", {"%r = cos %a"}},
    {"tanh", {"%r = tanh %a"}},
    {"sigmoid", {"%r = sigmoid %a"}},
    {"relu", {"%r = relu %a"}},
    {"gelu", {"%r = gelu %a"}},
    {"gelu_erf", {"%r = gelu_erf %a"}},
    {"gelu_grad", {"%r = gelu_grad %a, %a"}},
    {"erf", {"%r = erf %a"}},
    {"swish", {"%r = swish %a"}},
    {"softplus", {"%r = softplus %a"}},
    {"ceil", {"%r = ceil %a"}},
    {"floor", {"%r = floor %a"}},
    {"round", {"%r = round %a"}},
    {"isnan", {"%r = isnan %a"}},
    {"isinf", {"%r = isinf %a"}},
    {"isfinite", {"%r = isfinite %a"}},
    {"logical_not", {"%r = logical_not %c"}},
    {"cast", {"%r = cast %a {dtype = i32}"}},
    {"identity", {"%r = identity %a"}},
    {"detach", {"%r = detach %a"}},
    {"clip", {"%r = clip %a {min = -1, max = 1}"}},
    {"print_tensor", {"%r = print_tensor %a {title = \"a\"}"}},
    {"abs_", {"%r = abs_ %w"}},
    {"neg_", {"%r = neg_ %w"}},
    {"exp_", {"%r = exp_ %w"}},
    {"log_", {"%r = log_ %w"}},
    {"sqrt_", {"%r = sqrt_ %w"}},
    {"tanh_", {"%r = tanh_ %w"}},
    {"sigmoid_", {"%r = sigmoid_ %w"}},
    {"relu_", {"%r = relu_ %w"}},
    {"gelu_", {"%r = gelu_ %w"}},
    {"clip_", {"%r = clip_ %w {max = 2}"}},
    {"add", {"%r = add %a, %b"}},
    {"sub", {"%r = sub %a, %b"}},
    {"mul", {"%r = mul %a, %b"}},
    {"div", {"%r = div %a, %b"}},
    {"pow", {"%r = pow %b, %a"}},
    {"fmod", {"%r = fmod %a, %b"}},
    {"maximum", {"%r = maximum %a, %b, %a"}},
    {"minimum", {"%r = minimum %a, %b"}},
    {"equal", {"%r = equal %a, %b"}},
    {"not_equal", {"%r = not_equal %a, %b"}},
    {"greater", {"%r = greater %a, %b"}},
    {"greater_equal", {"%r = greater_equal %a, %b"}},
    {"less", {"%r = less %a, %b"}},
    {"less_equal", {"%r = less_equal %a, %b"}},
    {"logical_and", {"%r = logical_and %c, %c"}},
    {"logical_or", {"%r = logical_or %c, %c"}},
    {"logical_xor", {"%r = logical_xor %c, %c"}},
    {"where", {"%r = where %c, %a, %b"}},
    {"scaled_add", {"%r = scaled_add %a, %b {a = 2, b = 0.5}"}},
    {"add_", {"%r = add_ %w, %b"}},
    {"sub_", {"%r = sub_ %w, %b"}},
    {"mul_", {"%r = mul_ %w, %b"}},
    {"div_", {"%r = div_ %w, %b"}},
    {"pow_", {"%r = pow_ %w, %b"}},
    {"maximum_", {"%r = maximum_ %w, %a"}},
    {"minimum_", {"%r = minimum_ %w, %a"}},
    {"scaled_add_", {"%r = scaled_add_ %w, %b {b = -0.1}"}},
    {"matmul_scaled_add_", {"const %k3 : f32[3,3] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]\n%r = matmul_scaled_add_ %a, %k3, %w {alpha = 0.5}", "%r, %w"}},
    {"sum", {"%r = sum %a {axis = 1}"}},
    {"mean", {"%r = mean %a"}},
    {"prod", {"%r = prod %a {axis = 0}"}},
    {"max", {"%r = max %a {axis = 1, keepdims = true}"}},
    {"min", {"%r = min %a"}},
    {"sumsquare", {"%r = sumsquare %a"}},
    {"logsumexp", {"%r = logsumexp %a {axis = 1}"}},
    {"l1", {"%r = l1 %a"}},
    {"l2", {"%r = l2 %a"}},
    {"argmax", {"%r = argmax %a {axis = 1}"}},
    {"argmin", {"%r = argmin %a {select_last_index = true}"}},
    {"cumsum", {"%r = cumsum %a {axis = 1, exclusive = true, reverse = true}"}},
    {"topk", {"%r, %ri = topk %a {k = 2}", "%r, %ri"}},
    {"softmax", {"%r = softmax %a"}},
    {"log_softmax", {"%r = log_softmax %a"}},
    {"nll_loss", {"%probs = softmax %a\n%r = nll_loss %probs, %idx, [0.5, 1, 2]"}},
    {"layer_norm", {"%r = layer_norm %a, [1, 1, 1], [0, 0, 0]"}},
    {"group_norm", {"%r = group_norm %a, [1, 1, 1], [0, 0, 0] {groups = 3}"}},
    {"group_norm_grad", {"const %gm : f32[3] = 1\n%r, %dg, %db = group_norm_grad %a, %gm, %b {groups = 3}"}},
    {"batch_norm_inference", {"%r = batch_norm_inference %a, [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1]"}},
    {"matmul", {"%bt = transpose %b\n%r = matmul %a, %bt"}},
    {"conv", {"const %k : f32[1,1,2,2] = 1\n%r = conv %img, %k"}},
    {"average_pool", {"%r = average_pool %img {kernel = [2, 2]}"}},
    {"max_pool", {"%r = max_pool %img {kernel = [2, 2]}"}},
    {"max_pool_with_indices", {"%r, %ri = max_pool_with_indices %img {kernel = [2, 2], ceil_mode = true}", "%r, %ri"}},
    {"layer_norm_grad", {"const %gm : f32[3] = 1\n%r, %dg, %db = layer_norm_grad %img, %gm, %img"}},
    {"conv_grad_input", {"const %k : f32[1,1,2,2] = 1\nconst %dy : f32[1,1,2,2] = 1\n%r = conv_grad_input %dy, %k {shape = [1, 1, 3, 3]}"}},
    {"conv_grad_weight", {"const %dy : f32[1,1,2,2] = 1\n%r = conv_grad_weight %img, %dy {shape = [1, 1, 2, 2]}"}},
    {"max_pool_grad", {"const %dy : f32[1,1,1,1] = 1\n%r = max_pool_grad %img, %dy {kernel = [2, 2]}"}},
    {"average_pool_grad", {"const %dy : f32[1,1,1,1] = 1\n%r = average_pool_grad %dy {shape = [1, 1, 3, 3], kernel = [2, 2]}"}},
    {"reshape", {"%r = reshape %a {shape = [3, 2]}"}},
    {"reshape_", {"%r = reshape_ %w {shape = [3, 2]}", "%r, %w"}},
    {"flatten", {"%r = flatten %a"}},
    {"transpose", {"%r = transpose %a"}},
    {"transpose_", {"%r = transpose_ %w", "%r, %w"}},
    {"squeeze", {"%u = unsqueeze %a {axes = [0]}\n%r = squeeze %u"}},
    {"unsqueeze", {"%r = unsqueeze %a {axes = [0]}"}},
    {"broadcast", {"%r = broadcast %idx {shape = [3, 2]}"}},
    {"concat", {"%r = concat %a, %b {axis = 1}"}},
    {"split", {"%r, %r2 = split %a {splits = [1, 1]}", "%r, %r2"}},
    {"slice", {"%r = slice %a {start = [0, 1], stop = [2, 3]}"}},
    {"subsample", {"%r = subsample %a {strides = [1, 2]}"}},
    {"dynamic_slice", {"%r = dynamic_slice %a, %idx {axes = [0, 1], sizes = [1, 2]}"}},
    {"dynamic_update",
     {"%u = dynamic_slice %b, %idx {axes = [0, 1], sizes = [1, 2]}\n"
      "%r = dynamic_update %a, %idx, %u {axes = [0, 1], sizes = [1, 2]}"}},
    {"dynamic_update_",
     {"%u = dynamic_slice %b, %idx {axes = [0, 1], sizes = [1, 2]}\n"
      "%r = dynamic_update_ %w, %idx, %u {axes = [0, 1], sizes = [1, 2]}"}},
    {"gather", {"%r = gather %a, %idx {axis = 1}"}},
    {"gather_grad", {"%r = gather_grad %b, %idx {size = 3}"}},
    {"scatter", {"const %si : i32[1,3] = [[1, 0, 1]]\nconst %sv : f32[1,3] = 9\n%r = scatter %a, %si, %sv"}},
    {"onehot", {"%r = onehot %idx {num_classes = 3}"}},
    {"pad", {"%r = pad %a {pads = [0, 1, 1, 0], mode = reflect}"}},
    {"gather_elements", {"const %ei : i32[2,2] = [[2, 0], [-1, 1]]\n%r = gather_elements %a, %ei {axis = 1}"}},
    {"scatter_elements", {"const %ei : i32[2,2] = [[2, 0], [2, 2]]\nconst %eu : f32[2,2] = [[2, 3], [4, 5]]\n%r = scatter_elements %a, %ei, %eu {axis = 1, reduction = mul}"}},
    {"range", {"%r = range {start = 1, limit = 2, delta = 0.25}"}},
    {"resize", {"%r = resize %img {shape = [1, 1, 5, 2], mode = cubic, coordinate_transformation_mode = align_corners}"}},
    {"resize_grad", {"%r = resize_grad %img {shape = [1, 1, 2, 5], mode = linear}"}},
    {"lrn", {"%r = lrn %img {size = 3}"}},
    {"lrn_grad", {"%r = lrn_grad %a, %b {size = 2}"}},
    {"softmax_grad", {"%r = softmax_grad %a, %b"}},
    {"log_softmax_grad", {"%r = log_softmax_grad %a, %b {axis = 0}"}},
    {"conv_transpose", {"const %k : f32[1,2,2,2] = 1\n%r = conv_transpose %img, %k, [1, -1] {stride = [2, 2], output_padding = [1, 0]}"}},
    {"einsum", {"%r = einsum %a, %b {equation = \"ij,kj->ik\"}"}},
    {"pad_grad", {"%r = pad_grad %a {pads = [0, 1, 0, 0], mode = edge}"}},
    {"tile", {"%r = tile %a {repeats = [2, 1]}"}},
    {"trilu", {"%r = trilu %a {upper = false, k = 1}"}},
    {"hardmax", {"%r = hardmax %a"}},
    {"init", {"%r = init {shape = [2], dtype = i32}"}},
    {"random_uniform", {"%r = random_uniform %seed {shape = [2, 3]}"}},
    {"random_normal", {"%r = random_normal %seed {shape = [5], dtype = f16}"}},
    {"dropout", {"%r = dropout %a, %seed {p = 0.5}"}},
    {"split_random_seed", {"%r, %r2, %r3 = split_random_seed %seed {n = 3}", "%r, %r2, %r3"}},
    {"call", {"%r = call @inc(%a)"}},
    {"repeat", {"%r = repeat @inc(%a) {count = 3}"}},
    {"conditional", {"%r = conditional %flag, @inc(%a), @dec(%a)"}},
    {"replicated_all_reduce", {"%r = replicated_all_reduce %a {op = max}"}},
    {"replicated_all_reduce_", {"%r = replicated_all_reduce_ %w"}},
    {"replicated_all_gather", {"%r = replicated_all_gather %a"}},
    {"replicated_reduce_scatter", {"%r = replicated_reduce_scatter %a"}},
    {"replicated_slice", {"%r = replicated_slice %a"}},
    {"accumulate_", {"%r = accumulate_ %w, %b {f = 0.5}"}},
    {"accumulate_square_", {"%r = accumulate_square_ %w, %b"}},
    {"accumulate_mean_", {"%r = accumulate_mean_ %w, %b, 2"}},
    {"accumulate_moving_average_", {"%r = accumulate_moving_average_ %w, %b {f = 0.9}"}},
    {"accumulator_scale_", {"%r = accumulator_scale_ %w {f = 0.5}"}},
    {"accumulator_zero_", {"%r = accumulator_zero_ %w"}},
    {"copy_var_update_", {"%r = copy_var_update_ %w, %b"}},
    {"adam_updater", {"%r = adam_updater %b, %b {step = 1}"}},
    {"adam_var_update_", {"%r = adam_var_update_ %w, %b {lr = 0.1}"}},
    {"host_load", {"%r = host_load $in"}},
    {"host_store", {"host_store $out, %a", "$out"}},
    {"remote_load", {"%r = remote_load $rb, 1"}},
    {"remote_load_", {"%r = remote_load_ $rb, 1, %w"}},
    {"remote_store", {"remote_store $rb, 0, %a\n%r = remote_load $rb, 0"}},
    {"ipu_copy", {"%r = ipu_copy %a {ipu = 1}"}},
    {"io_tile_copy", {"%r = io_tile_copy %a"}},
};

bool usesOp(const std::vector<std::unique_ptr<Op>>& ops, OpCode code) {
  for (const auto& op : ops)
    if (op->code == code || usesOp(op->region(), code)) return true;
  return false;
}

TEST(AllOps, EveryOpOfTheTableHasAStatement) {
  for (OpCode code : kAllOps)
    EXPECT_TRUE(kStatements.count(opName(code)))
        << "ops.def row '" << opName(code) << "' has no statement in kStatements (tests/unit/all_ops_execute_test.cpp)";
  for (const auto& [name, statement] : kStatements) {
    bool known = false;
    for (OpCode code : kAllOps) known = known || opName(code) == name;
    EXPECT_TRUE(known) << "kStatements names '" << name << "', which is no row of ops.def";
  }
}

TEST(AllOps, EveryOpVerifiesRunsAndPrints) {
  for (OpCode code : kAllOps) {
    const std::string_view name = opName(code);
    auto it = kStatements.find(name);
    if (it == kStatements.end()) continue;  // reported by EveryOpOfTheTableHasAStatement
    SCOPED_TRACE(std::string(name));
    SourceManager sm;
    DiagnosticEngine diags(sm);
    std::ostringstream out, err;
    diags.setStream(&err);
    Module m;
    Session session(m, diags, out, {});
    pir::SessionDriver driver(m, session, diags);
    const std::string text = std::string(kPrelude) + it->second.text + "\nrun\nprint " + it->second.printed + "\n";
    const bool ok = driver.build(sm.add("op.pir", text), ".").succeeded();
    EXPECT_TRUE(ok) << err.str() << "\n--- program ---\n" << text;
    EXPECT_EQ(err.str(), "");
    EXPECT_TRUE(usesOp(m.main->ops, code) || [&] {
      for (const auto& g : m.graphs)
        if (usesOp(g->ops, code)) return true;
      return false;
    }()) << "the statement does not use the op";
    // Every printed name produced a line.
    const std::string printed = out.str();
    std::istringstream names(it->second.printed);
    for (std::string n; std::getline(names, n, ',');) {
      n.erase(0, n.find_first_not_of(' '));
      EXPECT_NE(printed.find(n + ": "), std::string::npos) << n << " not printed:\n" << printed;
    }
  }
}

// ---- zero-element tensors with huge dims --------------------------------------

// The prelude's names, now zero-element tensors whose other dims are 2^62 (their
// products wrap int64 to 0 and would loop 2^62 times over empty slices). Every
// statement above that still verifies with these types runs, and so does every
// statement of kGiantStatements.
#define GIANT "4611686018427387904"
const char* kGiantPrelude = R"(
ir {io_tiles = 4, ipus = 2}
d2h $out : f32[)" GIANT R"(,4,0]
remote_buffer $rb : f32[)" GIANT R"(,4,0] {entries = 2}
graph @inc(%p: f32[)" GIANT R"(,4,0]) -> (f32[)" GIANT R"(,4,0]) {
  %q = add %p, 1
  return %q
}
graph @dec(%p: f32[)" GIANT R"(,4,0]) -> (f32[)" GIANT R"(,4,0]) {
  %q = sub %p, 1
  return %q
}
main {
  const %a : f32[)" GIANT R"(,4,0] = 0
  const %b : f32[)" GIANT R"(,4,0] = 1
  const %c : bool[)" GIANT R"(,4,0] = true
  const %idx : i32[2] = [1, 0]
  const %noidx : i32[0] = 0
  const %seed : u32[2] = [1, 2]
  const %flag : bool[] = true
  const %g4 : f32[4] = 1
  const %img : f32[0,2,)" GIANT R"(,3] = 0
  var %w : f32[)" GIANT R"(,4,0] = 0
}
)";

// Uses on the giant operands for the ops whose statement above does not verify
// with them (and a few more axes of the families that walk slices).
const std::multimap<std::string_view, Statement> kGiantStatements = {
    {"layer_norm", {"const %e : f32[0] = 0\n%r = layer_norm %a, %e, %e"}},
    {"group_norm", {"%r = group_norm %a, %g4, %g4 {groups = 2}"}},
    {"group_norm_grad", {"%r, %dg, %db = group_norm_grad %a, %g4, %a {groups = 2}"}},
    {"batch_norm_inference", {"%r = batch_norm_inference %a, %g4, %g4, %g4, %g4"}},
    {"cumsum", {"%r = cumsum %a {axis = 0}"}},
    {"cumsum", {"%r = cumsum %a {axis = 2}"}},
    {"cumsum", {"%r = cumsum %a {axis = 1, exclusive = true, reverse = true}"}},
    {"cumsum", {"%r = cumsum %a {axis = 2, exclusive = true}"}},
    {"topk", {"%r, %ri = topk %a {k = 0}", "%r, %ri"}},
    {"topk", {"%r, %ri = topk %a {k = 2, axis = 1}", "%r, %ri"}},
    {"concat", {"%r = concat %a, %b {axis = 2}"}},
    {"split", {"%r, %r2 = split %a {splits = [1, 3], axis = 1}", "%r, %r2"}},
    {"split", {"%r, %r2 = split %a {splits = [0, 0], axis = 2}", "%r, %r2"}},
    {"gather", {"%r = gather %a, %idx {axis = 0}"}},
    {"gather", {"%r = gather %a, %noidx {axis = 2}"}},
    {"gather_grad", {"%r = gather_grad %a, %noidx {axis = 2, size = 0}"}},
    {"scatter", {"const %si : i32[" GIANT ",4,0] = 0\n%r = scatter %a, %si, %b {axis = 2}"}},
    {"slice", {"%r = slice %a {start = [1], stop = [" GIANT "], step = [9223372036854775807]}"}},
    {"subsample", {"%r = subsample %a {strides = [9223372036854775807, 3, 1]}"}},
    {"dynamic_slice", {"%r = dynamic_slice %a, %idx {axes = [0, 2], sizes = [3, 0]}"}},
    {"sum", {"%r = sum %a {axis = [0, 2]}"}},
    {"mean", {"%r = mean %a {axis = [0, 2]}"}},
    {"prod", {"%r = prod %a {axis = [0, 2]}"}},
    {"max", {"%r = max %a {axis = [0, 2]}"}},
    {"logsumexp", {"%r = logsumexp %a {axis = [0, 2]}"}},
    {"l2", {"%r = l2 %a {axis = [0, 2]}"}},
    {"argmax", {"%r = argmax %a {axis = 1}"}},
    {"argmax", {"%r = argmax %a {axis = 1, select_last_index = true}"}},
    {"softmax", {"%r = softmax %a {axis = 0}"}},
    {"onehot", {"const %gi : i32[" GIANT ",0] = 0\n%r = onehot %gi {num_classes = 3}"}},
    {"pad", {"%r = pad %a {pads = [0, 0, 0, 0, 0, 0]}"}},
    {"gather_elements", {"const %ei : i32[0,4,0] = 0\n%r = gather_elements %a, %ei {axis = 2}"}},
    {"resize", {"%r = resize %a {shape = [3, 4, 0], mode = linear}"}},
    {"lrn", {"%r = lrn %a {size = 5}"}},
    {"pad_grad", {"%r = pad_grad %a {pads = [0, 0, 0, 0, 0, 0]}"}},
    {"tile", {"%r = tile %a {repeats = [1, 1, 1]}"}},
    {"hardmax", {"%r = hardmax %a {axis = 1}"}},
    {"matmul", {"const %k : f32[0,0] = 0\n%r = matmul %a, %k"}},
    {"matmul_scaled_add_", {"const %k : f32[0,0] = 0\n%r = matmul_scaled_add_ %a, %k, %w {transpose_b = true}", "%r, %w"}},
    {"conv", {"const %k : f32[1,2,1,1] = 1\n%r = conv %img, %k"}},
    {"average_pool", {"%r = average_pool %img {kernel = [1, 1]}"}},
    {"max_pool", {"%r = max_pool %img {kernel = [1, 1]}"}},
    {"nll_loss", {"const %pz : f32[0," GIANT "] = 0\n%r = nll_loss %pz, %noidx"}},
    {"nll_loss", {"const %pz : f32[0,4] = 0\n%r = nll_loss %pz, %noidx, %g4 {reduction = none}"}},
    {"broadcast", {"const %one : f32[1] = 1\n%r = broadcast %one {shape = [" GIANT ", 0]}"}},
    {"init", {"%r = init {shape = [" GIANT ", 0], dtype = i32}"}},
    {"random_uniform", {"%r = random_uniform %seed {shape = [" GIANT ", 0]}"}},
    {"transpose", {"%r = transpose %a {perm = [0, 2, 1]}"}},
    {"transpose_", {"%r = transpose_ %w {perm = [0, 2, 1]}", "%r, %w"}},
    {"reshape", {"%r = reshape %a {shape = [0, " GIANT "]}"}},
    {"onehot", {"const %gi : i32[" GIANT ",0] = 0\n%r = onehot %gi {num_classes = 3, axis = 1}"}},
    {"onehot", {"const %gi : i32[" GIANT ",0] = 0\n%r = onehot %gi {num_classes = 3, axis = 0}"}},
    {"layer_norm", {"const %e : f32[4,0] = 0\n%r = layer_norm %a, %e, %e {axis = 1}"}},
    {"flatten", {"%r = flatten %a {axis = 2}"}},
    {"max_pool_with_indices", {"%r, %ri = max_pool_with_indices %img {kernel = [1, 1], dilation = [2, 2]}", "%r, %ri"}},
    {"average_pool", {"%r = average_pool %img {kernel = [1, 2], padding = [0, 1, 0, 1], count_include_pad = true, ceil_mode = true}"}},
    {"replicated_slice", {"%r = replicated_slice %a {axis = 1}"}},
    {"replicated_slice", {"%r = replicated_slice %a {axis = 2}"}},
    {"replicated_all_gather", {"%r = replicated_all_gather %a {axis = 1, output_shape = concat}"}},
    {"replicated_all_gather", {"%r = replicated_all_gather %a {axis = 2, output_shape = concat}"}},
};
#undef GIANT

// Builds `text` after the giant prelude: false when it does not verify.
bool runGiant(const std::string& text, const Statement& st, bool execute, std::string& err) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  std::ostringstream out, errs;
  diags.setStream(&errs);
  Module m;
  SessionOptions options;
  options.maxSteps = 10000;  // every op on these costs a step or two
  Session session(m, diags, out, options);
  pir::SessionDriver driver(m, session, diags);
  std::string program = std::string(kGiantPrelude) + text + "\n";
  if (execute) program += "run\nprint " + std::string(st.printed) + "\n";
  const uint32_t file = sm.add("giant.pir", program);
  const bool ok = execute ? driver.build(file, ".").succeeded() : buildFromBuffer(m, diags, file, ".").succeeded();
  err = errs.str() + (execute ? "\n--- output ---\n" + out.str() : "") + "\n--- program ---\n" + program;
  return ok && errs.str().empty();
}

TEST(AllOps, EveryOpOnZeroElementTensorsWithHugeDimsRunsInConstantTime) {
  int ran = 0;
  for (OpCode code : kAllOps) {
    const std::string_view name = opName(code);
    std::vector<std::pair<Statement, bool>> uses;  // (statement, must verify)
    if (auto it = kStatements.find(name); it != kStatements.end()) uses.emplace_back(it->second, false);
    for (auto [it, end] = kGiantStatements.equal_range(name); it != end; ++it) uses.emplace_back(it->second, true);
    for (const auto& [st, mustVerify] : uses) {
      SCOPED_TRACE(std::string(name) + ": " + st.text);
      std::string err;
      if (!runGiant(st.text, st, false, err)) {
        EXPECT_FALSE(mustVerify) << err;
        continue;
      }
      EXPECT_TRUE(runGiant(st.text, st, true, err)) << err;
      ++ran;
    }
  }
  EXPECT_GE(ran, 100);  // the table's statements largely verify on these operands
}

}  // namespace
}  // namespace pir::vm
