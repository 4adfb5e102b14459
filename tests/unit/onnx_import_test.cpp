// The ONNX importer (docs/importing.md): the name rule, shape folding, int64
// narrowing, hostile input and every error path; `pir import` end to end.
#include <gtest/gtest.h>

#include <limits>
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "importers/onnx/importer.h"
#include "importers/onnx/names.h"
#include "repl/cli.h"

namespace pir::onnx_import {
namespace {

namespace fs = std::filesystem;

// A small model builder: inputs, initializers, nodes, outputs.
struct ModelBuilder {
  onnx::ModelProto model;
  explicit ModelBuilder(int opset = 13) {
    model.set_ir_version(8);
    auto* o = model.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
  }
  onnx::GraphProto& g() { return *model.mutable_graph(); }
  void input(const std::string& name, int type, const std::vector<int64_t>& dims,
             const std::vector<std::string>& params = {}) {
    auto* vi = g().add_input();
    vi->set_name(name);
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(type);
    auto* shape = tt->mutable_shape();
    for (size_t k = 0; k < dims.size(); ++k) {
      auto* d = shape->add_dim();
      if (k < params.size() && !params[k].empty()) d->set_dim_param(params[k]);
      else d->set_dim_value(dims[k]);
    }
  }
  void output(const std::string& name) { g().add_output()->set_name(name); }
  // `scalar`: dims {} (else a vector of the values).
  onnx::TensorProto& initInt64(const std::string& name, const std::vector<int64_t>& values, bool scalar = false) {
    auto* t = g().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    std::vector<int64_t> dims;
    if (!scalar) dims = {static_cast<int64_t>(values.size())};
    for (int64_t d : dims) t->add_dims(d);
    for (int64_t v : values) t->add_int64_data(v);
    return *t;
  }
  onnx::TensorProto& initFloat(const std::string& name, const std::vector<float>& values, std::vector<int64_t> dims) {
    auto* t = g().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : dims) t->add_dims(d);
    for (float v : values) t->add_float_data(v);
    return *t;
  }
  onnx::TensorProto& initFloatScalar(const std::string& name, float value) { return initFloat(name, {value}, {}); }
  onnx::NodeProto& node(const std::string& op, std::vector<std::string> in, std::vector<std::string> out,
                        const std::string& name = "") {
    auto* n = g().add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (auto& s : in) n->add_input(s);
    for (auto& s : out) n->add_output(s);
    return *n;
  }
  std::string bytes() const { return model.SerializeAsString(); }
};

void intAttr(onnx::NodeProto& n, const std::string& name, int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

const fs::path& outDir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("pir_onnx_out_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

ImportOptions options(std::map<std::string, std::vector<int64_t>> shapes = {}) {
  ImportOptions o;
  o.modelPath = "m.onnx";
  o.outPath = (outDir() / "m.pir").string();
  o.inputShapes = std::move(shapes);
  return o;
}

std::string importError(const std::string& bytes, const ImportOptions& o = options()) {
  try {
    importOnnx(bytes, o);
  } catch (const ImportError& e) {
    return e.what();
  }
  return "(no error)";
}

// The program without the header comments: what `pir opt` prints.
std::string body(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line))
    if (!line.starts_with("#")) out += line + "\n";
  return out;
}

TEST(OnnxNames, TheRule) {
  EXPECT_EQ(sanitizeName("x:0"), "x_0");
  EXPECT_EQ(sanitizeName("layer1.weight"), "layer1_weight");
  EXPECT_EQ(sanitizeName("0abc"), "v0abc");
  EXPECT_EQ(sanitizeName(""), "v");
  EXPECT_EQ(sanitizeName("é"), "__");  // two UTF-8 bytes, two underscores
  NameTable t;
  EXPECT_EQ(t.claim("a.b"), "a_b");
  EXPECT_EQ(t.claim("a:b"), "a_b_2");
  EXPECT_EQ(t.claim("a_b"), "a_b_3");
  NameTable u;
  EXPECT_EQ(u.claim("a_b_2"), "a_b_2");
  EXPECT_EQ(u.claim("a.b"), "a_b");
  EXPECT_EQ(u.claim("a-b"), "a_b_3");  // a_b_2 is taken by the first name
}

TEST(OnnxImport, StreamsAreNamedByTheRuleWithTheOriginalInAComment) {
  ModelBuilder m;
  m.input("input:0", onnx::TensorProto::FLOAT, {2});
  m.input("input.0", onnx::TensorProto::FLOAT, {2});
  m.node("Add", {"input:0", "input.0"}, {"1out"});
  m.output("1out");
  ImportResult r = importOnnx(m.bytes(), options());
  EXPECT_NE(r.text.find("# $input_0: ONNX input 'input:0'"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("# $input_0_2: ONNX input 'input.0'"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("# $v1out: ONNX output '1out'"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("h2d $input_0_2 : f32[2]"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("d2h $v1out : f32[2]"), std::string::npos) << r.text;
}

TEST(OnnxImport, ShapeComputationsAreFolded) {
  // Shape -> Gather(0) -> Unsqueeze -> Concat(-1) -> Reshape: torch.flatten(x, 1).
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {2, 3, 4});
  m.initInt64("zero", {0}, true);
  m.initInt64("axes0", {0});
  m.initInt64("minus1", {-1});
  m.node("Shape", {"x"}, {"s"});
  m.node("Gather", {"s", "zero"}, {"n"});
  m.node("Unsqueeze", {"n", "axes0"}, {"n1"});
  m.node("Concat", {"n1", "minus1"}, {"shape"}).add_attribute()->set_name("axis");
  m.g().mutable_node(3)->mutable_attribute(0)->set_i(0);
  m.g().mutable_node(3)->mutable_attribute(0)->set_type(onnx::AttributeProto::INT);
  m.node("Reshape", {"x", "shape"}, {"y"});
  m.output("y");
  ImportResult r = importOnnx(m.bytes(), options());
  EXPECT_NE(r.text.find("%y = reshape %x {shape = [2, 12]} : f32[2,12]"), std::string::npos) << r.text;
  // Nothing of the shape computation is left in the program.
  EXPECT_EQ(r.text.find("gather"), std::string::npos) << r.text;
  EXPECT_EQ(r.text.find("var"), std::string::npos) << r.text;
  EXPECT_TRUE(r.files.empty());
}

TEST(OnnxImport, RangeAndConstantOfShapeFold) {
  ModelBuilder m;
  m.input("x", onnx::TensorProto::INT64, {4});
  m.initInt64("start", {1}, true);
  m.initInt64("limit", {9}, true);
  m.initInt64("delta", {2}, true);
  m.node("Range", {"start", "limit", "delta"}, {"r"});
  m.node("Add", {"x", "r"}, {"y"});
  m.output("y");
  ImportResult r = importOnnx(m.bytes(), options());
  EXPECT_NE(r.text.find("const %r : i32[4] = [1, 3, 5, 7]"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("h2d $x : i32[4]"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("(int64, fed as i32)"), std::string::npos) << r.text;
}

TEST(OnnxImport, Int64InitializersNarrowWithARangeCheck) {
  ModelBuilder ok;
  ok.input("x", onnx::TensorProto::INT64, {2});
  ok.initInt64("w", {-2147483648LL, 2147483647LL});
  ok.node("Add", {"x", "w"}, {"y"});
  ok.output("y");
  ImportResult r = importOnnx(ok.bytes(), options());
  EXPECT_NE(r.text.find("var %w : i32[2] = [-2147483648, 2147483647]"), std::string::npos) << r.text;

  ModelBuilder bad;
  bad.input("x", onnx::TensorProto::INT64, {2});
  bad.initInt64("big.w", {1, int64_t(1) << 40});
  bad.node("Add", {"x", "big.w"}, {"y"});
  bad.output("y");
  EXPECT_EQ(importError(bad.bytes()),
            "m.onnx: error: initializer 'big.w': value 1099511627776 at index 1 does not fit i32 (pir stores int64 as "
            "int32)");
}

TEST(OnnxImport, LargeInitializersGoToNpyFilesBesideTheOutput) {
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {2, 20});
  std::vector<float> w(20);
  for (int k = 0; k < 20; ++k) w[k] = 0.5f * k;
  m.initFloat("fc.weight", w, {20});
  m.node("Mul", {"x", "fc.weight"}, {"y"});
  m.output("y");
  ImportResult r = importOnnx(m.bytes(), options());
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].path, (outDir() / "m.fc_weight.npy").string());
  EXPECT_NE(r.text.find("var %fc_weight : f32[20] = load(\"m.fc_weight.npy\")"), std::string::npos) << r.text;
  std::ifstream staged(r.files[0].staged, std::ios::binary);
  std::string magic(6, '\0');
  staged.read(magic.data(), 6);
  EXPECT_EQ(magic, "\x93NUMPY");
  // Until written, the weights are only in the staging directory, which goes with the result.
  EXPECT_FALSE(fs::exists(r.files[0].path));
  std::string staging = r.staging->path;
  r = ImportResult{};
  EXPECT_FALSE(fs::exists(staging));
}

TEST(OnnxImport, OutputIsAFixedPointOfTheCanonicalPrinter) {
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {1, 3, 8, 8});
  std::vector<float> w(3 * 3 * 9, 0.25f);
  m.initFloat("w", w, {3, 3, 3, 3});
  auto& conv = m.node("Conv", {"x", "w"}, {"c"});
  auto* pads = conv.add_attribute();
  pads->set_name("pads");
  pads->set_type(onnx::AttributeProto::INTS);
  for (int k = 0; k < 4; ++k) pads->add_ints(1);
  m.node("Relu", {"c"}, {"r"});
  m.node("GlobalAveragePool", {"r"}, {"p"});
  m.node("Flatten", {"p"}, {"y"});
  m.output("y");
  ImportResult r = importOnnx(m.bytes(), options());
  fs::path dir = fs::temp_directory_path() / ("pir_onnx_fixed_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "m.pir") << r.text;
  std::istringstream in;
  std::ostringstream out, err;
  int status = cli::run({"opt", (dir / "m.pir").string()}, in, out, err);
  fs::remove_all(dir);
  ASSERT_EQ(status, 0) << err.str();
  EXPECT_EQ(out.str(), body(r.text));
}

TEST(OnnxImport, OpsMapOntoPirOps) {
  // Erf onto erf; Gemm with transB and C onto a matmul reading w transposed, and add; Trilu onto
  // where with a mask computed at import.
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {2, 3});
  m.input("w", onnx::TensorProto::FLOAT, {4, 3});
  m.input("b", onnx::TensorProto::FLOAT, {4});
  m.node("Erf", {"x"}, {"e"});
  intAttr(m.node("Gemm", {"e", "w", "b"}, {"g"}), "transB", 1);
  m.node("Trilu", {"g"}, {"y"});
  m.output("y");
  ImportResult r = importOnnx(m.bytes(), options());
  EXPECT_NE(r.text.find("%e = erf %x : f32[2,3]"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find(" = matmul %e, %w {transpose_b = true} : f32[2,4]"), std::string::npos) << r.text;
  EXPECT_EQ(r.text.find("transpose %w"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("%g = add %g_t, %b : f32[2,4]"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("%y = trilu %g : f32[2,4]"), std::string::npos) << r.text;
}

TEST(OnnxImport, AttributesAndOptionalInputsMapOntoOneOp) {
  // ArgMax's select_last_index, CumSum's exclusive and reverse, NLL's class
  // weights with ignore_index over [N, C, d] (moved to classes last), SCE's
  // weights, and ConvTranspose's B: each one pir op with the attribute or operand.
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {2, 3, 4});
  m.input("t", onnx::TensorProto::INT64, {2, 4});
  m.input("wt", onnx::TensorProto::FLOAT, {3});
  m.input("c", onnx::TensorProto::FLOAT, {1, 2, 3, 3});
  m.input("k", onnx::TensorProto::FLOAT, {2, 3, 2, 2});
  m.input("kb", onnx::TensorProto::FLOAT, {3});
  m.initInt64("ax", {-1}, true);
  onnx::NodeProto& am = m.node("ArgMax", {"x"}, {"am"});
  intAttr(am, "axis", 1);
  intAttr(am, "select_last_index", 1);
  onnx::NodeProto& cs = m.node("CumSum", {"x", "ax"}, {"cs"});
  intAttr(cs, "exclusive", 1);
  intAttr(cs, "reverse", 1);
  intAttr(m.node("NegativeLogLikelihoodLoss", {"x", "t", "wt"}, {"nll"}), "ignore_index", -1);
  m.node("SoftmaxCrossEntropyLoss", {"x", "t", "wt"}, {"sce"});
  m.node("ConvTranspose", {"c", "k", "kb"}, {"ct"});
  for (const char* o : {"am", "cs", "nll", "sce", "ct"}) m.output(o);
  ImportResult r = importOnnx(m.bytes(), options());
  EXPECT_NE(r.text.find("%am = argmax %x {axis = 1, keepdims = true, select_last_index = true} : i32[2,1,4]"),
            std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("%cs = cumsum %x {axis = 2, exclusive = true, reverse = true} : f32[2,3,4]"), std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("transpose %x {perm = [0, 2, 1]} : f32[2,4,3]"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find(", %t, %wt {ignore_index = -1, log_prob = true} : f32[]"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("%ct = conv_transpose %c, %k, %kb {stride = [1, 1], padding = [0, 0, 0, 0], dilation = [1, 1]} "
                        ": f32[1,3,4,4]"),
            std::string::npos)
      << r.text;
  // No composition left: no reversed slices, no one-hot mask, no separate bias add.
  for (const char* gone : {"slice", "onehot", "gather", "add "})
    EXPECT_EQ(r.text.find(gone), std::string::npos) << gone << "\n" << r.text;
}

TEST(OnnxImport, AxesOfFlattenOneHotAndLayerNormMapOntoOneOp) {
  // Flatten's axis, OneHot's class axis (negative indices wrapped by onehot itself)
  // and LayerNormalization over the dims from its axis: each one pir op with `axis`,
  // no reshape, transpose, index fix-up or mean/rsqrt composition around it.
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {2, 3, 4});
  m.input("t", onnx::TensorProto::INT64, {2, 4});
  m.input("s", onnx::TensorProto::FLOAT, {3, 4});
  m.input("b", onnx::TensorProto::FLOAT, {3, 4});
  m.initInt64("depth", {3}, true);
  m.initFloat("vals", {0, 1}, {2});
  intAttr(m.node("Flatten", {"x"}, {"fl"}), "axis", -1);
  intAttr(m.node("OneHot", {"t", "depth", "vals"}, {"oh"}), "axis", 1);
  intAttr(m.node("LayerNormalization", {"x", "s", "b"}, {"ln"}), "axis", -2);
  for (const char* o : {"fl", "oh", "ln"}) m.output(o);
  ImportResult r = importOnnx(m.bytes(), options());
  EXPECT_NE(r.text.find("%fl = flatten %x {axis = 2} : f32[6,4]"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("%oh = onehot %t {num_classes = 3, axis = 1} : f32[2,3,4]"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("%ln = layer_norm %x, %s, %b {axis = 1} : f32[2,3,4]"), std::string::npos) << r.text;
  for (const char* composed : {"reshape", "transpose", "where", "less", "mean", "rsqrt"})
    EXPECT_EQ(r.text.find(composed), std::string::npos) << composed << "\n" << r.text;
}

TEST(OnnxImport, NllWeightsOfAnotherShapeAreAnErrorAtTheNode) {
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {2, 3});
  m.input("t", onnx::TensorProto::INT64, {2});
  m.input("wt", onnx::TensorProto::FLOAT, {4});
  m.node("NegativeLogLikelihoodLoss", {"x", "t", "wt"}, {"y"}, "nll");
  m.output("y");
  const std::string e = importError(m.bytes());
  EXPECT_NE(e.find("node 0 'nll' (op_type NegativeLogLikelihoodLoss"), std::string::npos) << e;
  EXPECT_NE(e.find("weight f32[4] must hold one weight per class of probs f32[2,3]: f32[3]"), std::string::npos) << e;
}

void intsAttr(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}

TEST(OnnxImport, PoolAttributesMapOntoThePoolOps) {
  // ceil_mode, dilations and count_include_pad are the pools' own attributes, and
  // MaxPool's Indices output is max_pool_with_indices (no padding, slices or
  // maximum of slices composed around them).
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {1, 2, 7, 7});
  onnx::NodeProto& mp = m.node("MaxPool", {"x"}, {"a"});
  intsAttr(mp, "kernel_shape", {3, 3});
  intsAttr(mp, "strides", {2, 2});
  intsAttr(mp, "pads", {1, 1, 1, 1});
  intsAttr(mp, "dilations", {2, 2});
  intAttr(mp, "ceil_mode", 1);
  onnx::NodeProto& ap = m.node("AveragePool", {"a"}, {"b"});
  intsAttr(ap, "kernel_shape", {2, 2});
  intsAttr(ap, "pads", {1, 1, 1, 1});
  intAttr(ap, "count_include_pad", 1);
  intAttr(ap, "ceil_mode", 1);
  onnx::NodeProto& ip = m.node("MaxPool", {"x"}, {"c", "i"});
  intsAttr(ip, "kernel_shape", {2, 2});
  intAttr(ip, "storage_order", 1);
  m.output("b");
  m.output("c");
  m.output("i");
  ImportResult r = importOnnx(m.bytes(), options());
  EXPECT_NE(r.text.find("%a = max_pool %x {kernel = [3, 3], stride = [2, 2], padding = [1, 1, 1, 1], dilation = [2, 2], "
                        "ceil_mode = true} : f32[1,2,3,3]"),
            std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("average_pool %a {kernel = [2, 2], stride = [1, 1], padding = [1, 1, 1, 1], ceil_mode = true, "
                        "count_include_pad = true} : f32[1,2,4,4]"),
            std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("max_pool_with_indices %x {kernel = [2, 2], stride = [1, 1], padding = [0, 0, 0, 0], "
                        "storage_order = column_major} : f32[1,2,6,6], i32[1,2,6,6]"),
            std::string::npos)
      << r.text;
  for (const char* composed : {"= pad ", "= slice ", "= maximum "}) EXPECT_EQ(r.text.find(composed), std::string::npos) << r.text;

  ModelBuilder bad;
  bad.input("x", onnx::TensorProto::FLOAT, {1, 1, 4, 4});
  onnx::NodeProto& n = bad.node("MaxPool", {"x"}, {"y", "i"}, "p");
  intsAttr(n, "kernel_shape", {2, 2});
  intAttr(n, "storage_order", 2);
  bad.output("y");
  bad.output("i");
  EXPECT_EQ(importError(bad.bytes()),
            "m.onnx: error: node 0 'p' (op_type MaxPool, domain ai.onnx, opset 13): storage_order must be 0 or 1, got 2");
}

TEST(OnnxImport, UnsupportedNodeNamesNodeOpTypeDomainOpsetAndFile) {
  ModelBuilder m(11);
  m.input("x", onnx::TensorProto::FLOAT, {2});
  m.node("Relu", {"x"}, {"a"});
  m.node("Acos", {"a"}, {"y"}, "the_acos");
  m.output("y");
  EXPECT_EQ(importError(m.bytes()),
            "m.onnx: error: node 1 'the_acos' (op_type Acos, domain ai.onnx, opset 11): unsupported op Acos");
  ModelBuilder d;
  d.input("x", onnx::TensorProto::FLOAT, {2});
  d.node("Custom", {"x"}, {"y"}).set_domain("com.example");
  d.output("y");
  EXPECT_EQ(importError(d.bytes()),
            "m.onnx: error: node 0 (op_type Custom, domain com.example, opset 13): unsupported op Custom of domain "
            "com.example (only ai.onnx is imported)");
}

TEST(OnnxImport, AMissingInputIsAnErrorNotARead) {
  // Reshape with its shape input left out: the error names the absent input
  // (reading input 1 of a node that has one crashed the importer).
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {2, 3});
  m.node("Reshape", {"x"}, {"y"}, "r");
  m.output("y");
  const std::string e = importError(m.bytes());
  EXPECT_NE(e.find("node 0 'r' (op_type Reshape"), std::string::npos) << e;
  EXPECT_NE(e.find("(input 1 (absent))"), std::string::npos) << e;
}

TEST(OnnxImport, AConvWeightOfAnotherRankIsAnError) {
  // The kernel is the weight's dims after the first two: a weight of rank 0 or
  // 1 was read past its end (UBSan in the fuzz target).
  for (std::vector<int64_t> w : {std::vector<int64_t>{}, {5}, {1, 1, 3}}) {
    ModelBuilder m;
    m.input("x", onnx::TensorProto::FLOAT, {1, 1, 5, 5});
    m.input("W", onnx::TensorProto::FLOAT, w);
    m.node("Conv", {"x", "W"}, {"y"}, "c");
    m.output("y");
    const std::string e = importError(m.bytes());
    EXPECT_NE(e.find("node 0 'c' (op_type Conv"), std::string::npos) << e;
    EXPECT_NE(e.find("the weight W has rank " + std::to_string(w.size()) + "; it must have the input's rank 4"),
              std::string::npos)
        << e;
  }
}

TEST(OnnxImport, AConcatOfScalarsIsAnError) {
  // normAxis accepts axis 0 for rank 0: the axis's length was read from an empty
  // shape (UBSan in the fuzz target).
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {});
  m.input("z", onnx::TensorProto::FLOAT, {});
  intAttr(m.node("Concat", {"x", "z"}, {"y"}, "c"), "axis", 0);
  m.output("y");
  const std::string e = importError(m.bytes());
  EXPECT_NE(e.find("Concat needs inputs of rank >= 1; input 0 is a scalar"), std::string::npos) << e;
}

TEST(OnnxImport, AFloatAttributeOnAnIntegerInputMustFitItsType) {
  // Shrink's lambd and bias become constants of the input's type: a value beyond
  // int64 (or NaN) was converted to it (UBSan in the fuzz target), one beyond i32
  // must not wrap.
  for (float v : {-1.8e24f, std::numeric_limits<float>::quiet_NaN(), 3e9f}) {
    ModelBuilder m;
    m.input("x", onnx::TensorProto::INT32, {3});
    auto& n = m.node("Shrink", {"x"}, {"y"}, "s");
    auto* a = n.add_attribute();
    a->set_name("lambd");
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
    m.output("y");
    const std::string e = importError(m.bytes());
    EXPECT_NE(e.find("node 0 's' (op_type Shrink"), std::string::npos) << v << ": " << e;
    EXPECT_NE(e.find("i32"), std::string::npos) << v << ": " << e;
    if (!(v == 3e9f)) EXPECT_NE(e.find("does not fit the input's integer type i32"), std::string::npos) << v << ": " << e;
  }
}

TEST(OnnxImport, FoldedSizesBeyondRangeAreErrorsNotConversions) {
  // A Range whose count is far below zero is empty (the count was converted to
  // int64 first); a Resize whose scaled size is past 2^62 or infinite is an error.
  ModelBuilder range;
  range.initFloatScalar("s", 0);
  range.initFloatScalar("l", -3e38f);
  range.initFloatScalar("d", 1e-30f);
  range.node("Range", {"s", "l", "d"}, {"y"}, "r");
  range.output("y");
  const ImportResult ok = importOnnx(range.bytes(), options());
  EXPECT_NE(body(ok.text).find("f32[0]"), std::string::npos) << ok.text;

  ModelBuilder resize;
  resize.input("x", onnx::TensorProto::FLOAT, {1, 1, 4, 4});
  resize.initFloat("roi", {}, {0});
  resize.initFloat("scales", {1, 1, 3e38f, 2}, {4});
  resize.node("Resize", {"x", "roi", "scales"}, {"y"}, "z");
  resize.output("y");
  const std::string e = importError(resize.bytes());
  EXPECT_NE(e.find("node 0 'z' (op_type Resize"), std::string::npos) << e;
  EXPECT_NE(e.find("the resized size of dim 2"), std::string::npos) << e;
}

TEST(OnnxImport, AScalarHasNoAxis) {
  // normAxis took axis 0 of a rank-0 tensor, and ScatterElements (like Concat)
  // read that axis's length from the empty shape (UBSan in the fuzz target).
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {});
  m.input("i", onnx::TensorProto::INT64, {});
  m.input("u", onnx::TensorProto::FLOAT, {});
  intAttr(m.node("ScatterElements", {"x", "i", "u"}, {"y"}, "s"), "axis", 0);
  m.output("y");
  const std::string e = importError(m.bytes());
  EXPECT_NE(e.find("axis 0 is out of range for rank 0"), std::string::npos) << e;
}

TEST(OnnxImport, DynamicDimensionsNeedInputShape) {
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {0, 3}, {"batch", ""});
  m.node("Relu", {"x"}, {"y"});
  m.output("y");
  EXPECT_EQ(importError(m.bytes()),
            "m.onnx: error: graph input 'x': dimension 0 ('batch') is dynamic; fix it with --input-shape x=D0,D1,...");
  ImportResult r = importOnnx(m.bytes(), options({{"x", {5, 3}}}));
  EXPECT_NE(r.text.find("h2d $x : f32[5,3]"), std::string::npos) << r.text;
  EXPECT_EQ(importError(m.bytes(), options({{"x", {5, 4}}})),
            "m.onnx: error: --input-shape x: dimension 1 is 4, the model fixes it to 3");
  EXPECT_EQ(importError(m.bytes(), options({{"x", {5}}})),
            "m.onnx: error: --input-shape x: 1 dimensions given, the model's input has 2");
  EXPECT_EQ(importError(m.bytes(), options({{"z", {5}}})), "m.onnx: error: --input-shape z: the model has no input 'z'");
}

TEST(OnnxImport, InputShapeOptionParses) {
  std::string name, problem;
  std::vector<int64_t> dims;
  ASSERT_TRUE(parseInputShape("in:0=1,3,224,224", name, dims, problem));
  EXPECT_EQ(name, "in:0");
  EXPECT_EQ(dims, (std::vector<int64_t>{1, 3, 224, 224}));
  EXPECT_FALSE(parseInputShape("x=1,-2", name, dims, problem));
  EXPECT_EQ(problem, "dimension '-2' of x is not a non-negative integer");
  EXPECT_FALSE(parseInputShape("x", name, dims, problem));
}

TEST(OnnxImport, HostileBytesAreAParseError) {
  const std::string kParse = "m.onnx: error: not an ONNX model: the protobuf does not parse (truncated or not a ModelProto)";
  EXPECT_EQ(importError("\xff\xff\xff\xff garbage"), kParse);
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {2});
  m.node("Relu", {"x"}, {"y"});
  m.output("y");
  std::string bytes = m.bytes();
  EXPECT_EQ(importError(bytes.substr(0, bytes.size() - 3)), kParse);
  EXPECT_EQ(importError(""), "m.onnx: error: not an ONNX model: no graph");
}

TEST(OnnxImport, HostileTensorSizesAreCheckedBeforeAllocation) {
  ModelBuilder over;
  over.input("x", onnx::TensorProto::FLOAT, {2});
  auto& t = over.initFloat("w", {1, 2}, {int64_t(1) << 40, int64_t(1) << 40});
  (void)t;
  over.node("Add", {"x", "w"}, {"y"});
  over.output("y");
  EXPECT_EQ(importError(over.bytes()), "m.onnx: error: initializer 'w': 2-D shape has more than 2^31 elements");

  ModelBuilder raw;
  raw.input("x", onnx::TensorProto::FLOAT, {2});
  auto* r = raw.g().add_initializer();
  r->set_name("w");
  r->set_data_type(onnx::TensorProto::FLOAT);
  r->add_dims(1000);
  r->set_raw_data(std::string(12, '\0'));
  raw.node("Add", {"x", "w"}, {"y"});
  raw.output("y");
  EXPECT_EQ(importError(raw.bytes()), "m.onnx: error: initializer 'w': raw_data has 12 bytes, the shape f32[1000] needs 4000");

  ModelBuilder typed;
  typed.input("x", onnx::TensorProto::FLOAT, {2});
  typed.initFloat("w", {1, 2, 3}, {2});
  typed.node("Add", {"x", "w"}, {"y"});
  typed.output("y");
  EXPECT_EQ(importError(typed.bytes()), "m.onnx: error: initializer 'w': float_data holds 3 elements, the shape needs 2");

  ModelBuilder neg;
  neg.input("x", onnx::TensorProto::FLOAT, {2});
  neg.initFloat("w", {}, {-1});
  neg.node("Add", {"x", "w"}, {"y"});
  neg.output("y");
  EXPECT_EQ(importError(neg.bytes()), "m.onnx: error: initializer 'w': negative dimension -1");

  ModelBuilder huge;
  huge.input("x", onnx::TensorProto::FLOAT, {int64_t(1) << 20, int64_t(1) << 20});
  huge.node("Relu", {"x"}, {"y"});
  huge.output("y");
  EXPECT_EQ(importError(huge.bytes()), "m.onnx: error: graph input 'x': 2-D shape has more than 2^31 elements");
}

TEST(OnnxImport, ShapesAndBlockSizesANodeReliesOnAreChecked) {
  // BatchNormalization in training mode read the channel dim of an input of rank 1
  // (UBSan in the fuzz target); a block size from the file multiplied dims past 2^63.
  ModelBuilder bn;
  bn.input("x", onnx::TensorProto::FLOAT, {4});
  for (const char* v : {"s", "b", "m", "v"}) bn.input(v, onnx::TensorProto::FLOAT, {4});
  intAttr(bn.node("BatchNormalization", {"x", "s", "b", "m", "v"}, {"y"}, "bn"), "training_mode", 1);
  bn.output("y");
  std::string e = importError(bn.bytes());
  EXPECT_NE(e.find("node 0 'bn' (op_type BatchNormalization"), std::string::npos) << e;
  EXPECT_NE(e.find("the input needs a channel dim (rank 2 or more)"), std::string::npos) << e;

  ModelBuilder d2s;
  d2s.input("x", onnx::TensorProto::FLOAT, {1, 0, 2, 2});
  intAttr(d2s.node("DepthToSpace", {"x"}, {"y"}, "d"), "blocksize", int64_t{1} << 32);
  d2s.output("y");
  e = importError(d2s.bytes());
  EXPECT_NE(e.find("blocksize 4294967296 makes a dim beyond 2^63"), std::string::npos) << e;

  ModelBuilder s2d;
  s2d.input("x", onnx::TensorProto::FLOAT, {1, 3, 0, 0});
  intAttr(s2d.node("SpaceToDepth", {"x"}, {"y"}, "s"), "blocksize", int64_t{1} << 40);
  s2d.output("y");
  e = importError(s2d.bytes());
  EXPECT_NE(e.find("blocksize 1099511627776 makes a dim beyond 2^63"), std::string::npos) << e;
}

// A tensor the importer computes from shapes alone (not from bytes of the file) is
// bounded before anything is allocated: ConstantOfShape of 2^31 elements imports as a
// broadcast scalar (a model of a few hundred bytes took 4 GB before), Where and Gather
// of small constants whose results would be huge become ops instead of folds, and an
// EyeLike beyond the importer's bound is a located error.
TEST(OnnxImport, ValuesMadeFromShapesAreBoundedBeforeAllocation) {
  ModelBuilder cos;
  cos.input("x", onnx::TensorProto::FLOAT, {1});
  cos.initInt64("shape", {int64_t{1} << 16, int64_t{1} << 15});
  cos.node("ConstantOfShape", {"shape"}, {"c"}, "fill");
  cos.node("Add", {"c", "x"}, {"y"});
  cos.output("y");
  const std::string text = body(importOnnx(cos.bytes(), options()).text);
  EXPECT_NE(text.find(": f32[65536,32768] = 0"), std::string::npos) << text;

  ModelBuilder where;
  where.input("x", onnx::TensorProto::FLOAT, {1});
  std::vector<float> ramp(60000);
  for (size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<float>(i);
  where.initFloat("a", ramp, {60000, 1});
  where.initFloat("b", ramp, {1, 60000});
  where.initFloat("z", {0}, {});
  where.node("Greater", {"a", "z"}, {"m"});  // a small fold: m is bool[60000, 1]
  where.node("Where", {"m", "a", "b"}, {"w"}, "big");
  where.node("Add", {"w", "x"}, {"y"});
  where.output("y");
  const std::string whereText = body(importOnnx(where.bytes(), options()).text);
  EXPECT_NE(whereText.find("where "), std::string::npos) << whereText.substr(0, 400);

  ModelBuilder gather;
  gather.input("x", onnx::TensorProto::FLOAT, {1});
  gather.initFloat("data", ramp, {1, 60000});
  gather.initInt64("idx", std::vector<int64_t>(60000, 0));
  gather.node("Gather", {"data", "idx"}, {"g"}, "rows");
  gather.node("Add", {"g", "x"}, {"y"});
  gather.output("y");
  const std::string gatherText = body(importOnnx(gather.bytes(), options()).text);
  EXPECT_NE(gatherText.find("gather "), std::string::npos) << gatherText.substr(0, 400);

  ModelBuilder eye;
  eye.input("x", onnx::TensorProto::FLOAT, {40000, 40000});
  eye.node("EyeLike", {"x"}, {"y"}, "eye");
  eye.output("y");
  const std::string e = importError(eye.bytes());
  EXPECT_NE(e.find("node 0 'eye' (op_type EyeLike"), std::string::npos) << e;
  EXPECT_NE(e.find("a computed constant of 1600000000 elements: the importer makes at most 16777216"),
            std::string::npos)
      << e;
}

TEST(OnnxImport, OtherErrorPaths) {
  ModelBuilder opset(18);
  opset.input("x", onnx::TensorProto::FLOAT, {2});
  opset.node("Relu", {"x"}, {"y"});
  opset.output("y");
  EXPECT_EQ(importError(opset.bytes()), "m.onnx: error: opset 18 of domain ai.onnx is not supported (1 to 17 are)");

  ModelBuilder str;
  str.input("x", onnx::TensorProto::STRING, {2});
  str.node("Identity", {"x"}, {"y"});
  str.output("y");
  EXPECT_EQ(importError(str.bytes()),
            "m.onnx: error: graph input 'x': string tensors are not supported (pir has no string dtype)");

  ModelBuilder undef;
  undef.input("x", onnx::TensorProto::FLOAT, {2});
  undef.node("Add", {"x", "nowhere"}, {"y"});
  undef.output("y");
  EXPECT_EQ(importError(undef.bytes()),
            "m.onnx: error: node 0 (op_type Add, domain ai.onnx, opset 13): input 'nowhere' is not defined before its use");

  ModelBuilder dyn;  // Reshape to a shape computed at run time
  dyn.input("x", onnx::TensorProto::FLOAT, {2, 3});
  dyn.input("s", onnx::TensorProto::INT64, {2});
  dyn.node("Reshape", {"x", "s"}, {"y"});
  dyn.output("y");
  EXPECT_EQ(importError(dyn.bytes()),
            "m.onnx: error: node 0 (op_type Reshape, domain ai.onnx, opset 13): the target shape (input 1 's') must be "
            "known at import time (a constant, an initializer or a foldable shape computation)");

  ModelBuilder mismatch;  // pir's own shape rule rejects it
  mismatch.input("x", onnx::TensorProto::FLOAT, {2});
  mismatch.input("z", onnx::TensorProto::FLOAT, {3});
  mismatch.node("Add", {"x", "z"}, {"y"});
  mismatch.output("y");
  std::string e = importError(mismatch.bytes());
  EXPECT_TRUE(e.starts_with("m.onnx: error: node 0 (op_type Add, domain ai.onnx, opset 13): pir rejects `%y = add %x, %z`:"))
      << e;

  ModelBuilder missing;
  missing.input("x", onnx::TensorProto::FLOAT, {2});
  missing.output("nothing");
  EXPECT_EQ(importError(missing.bytes()),
            "m.onnx: error: graph output 'nothing': input 'nothing' is not defined before its use");
}

TEST(OnnxImport, ImportIsLinearInModelSize) {
  // A chain of 10,000 nodes: one statement per node plus the streams' four.
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {4});
  std::string prev = "x";
  const int kNodes = 10000;
  for (int k = 0; k < kNodes; ++k) {
    std::string next = "t" + std::to_string(k);
    m.node(k % 2 ? "Relu" : "Neg", {prev}, {next});
    prev = next;
  }
  m.output(prev);
  ImportResult r = importOnnx(m.bytes(), options());
  EXPECT_EQ(r.statements, kNodes + 4);
}

class ImportCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("pir_onnx_cli_" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  int pir(std::vector<std::string> args) {
    std::istringstream in;
    std::ostringstream o, e;
    int status = cli::run(args, in, o, e);
    out = o.str();
    err = e.str();
    return status;
  }
  void write(const std::string& name, const std::string& bytes) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
  }
  fs::path dir;
  std::string out, err;
};

TEST_F(ImportCommand, ImportsAndRuns) {
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {2, 20});
  std::vector<float> w(20);
  for (int k = 0; k < 20; ++k) w[k] = float(k);
  m.initFloat("w", w, {20});
  m.node("Mul", {"x", "w"}, {"y"});
  m.output("y");
  write("m.onnx", m.bytes());
  ASSERT_EQ(pir({"import", (dir / "m.onnx").string()}), 0) << err;
  EXPECT_TRUE(fs::exists(dir / "m.pir"));
  EXPECT_TRUE(fs::exists(dir / "m.w.npy"));
  ConstTensor ones;
  ones.elem = Elem::F32;
  ones.shape = {2, 20};
  ones.f.assign(40, 1.0);
  write("x.npy", npyBytes(ones));
  ASSERT_EQ(pir({"run", (dir / "m.pir").string(), "--feed", "x=" + (dir / "x.npy").string()}), 0) << err;
  EXPECT_NE(out.find("$y: f32[2,20] = [[0, 1, 2, 3"), std::string::npos) << out;
}

TEST_F(ImportCommand, WritesNothingOnFailure) {
  ModelBuilder m;
  m.input("x", onnx::TensorProto::FLOAT, {2, 20});
  std::vector<float> w(20, 1.0f);
  w[3] = 2;
  m.initFloat("w", w, {20});
  m.node("Mul", {"x", "w"}, {"a"});
  m.node("Acos", {"a"}, {"y"});
  m.output("y");
  write("m.onnx", m.bytes());
  EXPECT_EQ(pir({"import", (dir / "m.onnx").string(), "-o", (dir / "out.pir").string()}), 1);
  EXPECT_NE(err.find("unsupported op Acos"), std::string::npos) << err;
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);  // m.onnx only
  write("bad.onnx", "not a model at all");
  EXPECT_EQ(pir({"import", (dir / "bad.onnx").string()}), 1);
  EXPECT_NE(err.find("does not parse"), std::string::npos) << err;
  EXPECT_EQ(pir({"import", (dir / "absent.onnx").string()}), 2);
  EXPECT_EQ(pir({"import", (dir / "m.onnx").string(), "--input-shape", "x=a"}), 2);
}

}  // namespace
}  // namespace pir::onnx_import
