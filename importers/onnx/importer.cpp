#include "importers/onnx/importer.h"

#include <onnx/onnx_pb.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <unistd.h>

#include <charconv>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unordered_map>

#include "importers/onnx/names.h"
#include "importers/onnx/node_context.h"
#include "importers/onnx/pir_program.h"

namespace pir::onnx_import {

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string pathStem(const std::string& path) {
  std::filesystem::path p(path);
  return p.stem().string();
}

std::string pathDir(const std::string& path) {
  std::filesystem::path p(path);
  std::string d = p.parent_path().string();
  return d.empty() ? "." : d;
}

}  // namespace

// One ONNX value of the graph being imported.
struct Entry {
  std::string pir;                   // "%name" once pir has the value
  std::optional<ConstTensor> value;  // known at import time
  bool initializer = false;
  bool narrowed = false;             // int64 data stored as i32
};

class GraphImporter {
 public:
  GraphImporter(const ImportOptions& options, PirProgram& program, std::string staging)
      : options_(options), program_(program), staging_(std::move(staging)) {}

  void emit(const std::string& statement, const std::string& context) {
    ++statements_;
    if (std::optional<std::string> error = program_.add(statement))
      throw ImportError(context + ": pir rejects `" + firstLine(statement) + "`: " + *error);
  }

  static std::string firstLine(const std::string& s) {
    size_t nl = s.find('\n');
    std::string line = s.substr(0, nl);
    if (line.size() > 200) line = line.substr(0, 200) + "...";
    return line;
  }

  Entry& entry(const std::string& onnxName, const std::string& context) {
    auto it = entries_.find(onnxName);
    if (it == entries_.end()) throw ImportError(context + ": input " + quoted(onnxName) + " is not defined before its use");
    return it->second;
  }
  Entry& fresh(const std::string& onnxName) { return entries_[onnxName]; }

  TypeInfo typeOfEntry(const Entry& e, const std::string& context) {
    if (!e.pir.empty()) return typeOfValue(e.pir, context);
    TypeInfo t;
    t.elem = e.value->elem;
    t.shape = e.value->shape;
    return t;
  }

  TypeInfo typeOfValue(const std::string& pirValue, const std::string& context) {
    std::optional<PirType> t = program_.typeOf(pirValue.substr(1));
    TypeInfo info;
    if (!t || !parseElemName(t->dtype, info.elem)) throw ImportError(context + ": no type for " + pirValue);
    info.shape = t->shape;
    return info;
  }

  // Declares the known value of `onnxName` as a var (an initializer) or a const.
  std::string materialize(const std::string& onnxName, Entry& e, const std::string& context) {
    if (!e.pir.empty()) return e.pir;
    const ConstTensor& c = *e.value;
    std::string name = "%" + values_.claim(onnxName);
    e.pir = name;
    emit(std::string(e.initializer ? "var " : "const ") + name + " : " + typeText(c.elem, c.shape) + " = " +
             dataText(c, name.substr(1)),
         context);
    return name;
  }

  std::string constant(const ConstTensor& c, const std::string& base, const std::string& context) {
    std::string name = "%" + values_.claim(base);
    emit("const " + name + " : " + typeText(c.elem, c.shape) + " = " + dataText(c, name.substr(1)), context);
    return name;
  }

  // `scalar` broadcast to `shape`: the literal alone, as dataText writes a uniform tensor.
  std::string uniformConstant(const ConstTensor& scalar, const std::vector<int64_t>& shape, const std::string& base,
                              const std::string& context) {
    std::string name = "%" + values_.claim(base);
    emit("const " + name + " : " + typeText(scalar.elem, shape) + " = " + literalText(scalar), context);
    return name;
  }

  // A literal, a broadcast scalar when all elements are equal, or load() of a file.
  std::string dataText(const ConstTensor& c, const std::string& pirName) {
    int64_t n = c.size();
    if (n == 0) return c.elem == Elem::Bool ? "false" : "0";  // an empty tensor: a scalar broadcast to no element
    if (n <= options_.maxLiteralElements) return literalText(c);
    bool uniform = true;
    for (int64_t k = 1; k < n && uniform; ++k) {
      if (elemIsFloat(c.elem)) uniform = std::memcmp(&c.f[k], &c.f[0], sizeof(double)) == 0;
      else uniform = c.i[k] == c.i[0];
    }
    if (uniform && n > 0) {
      ConstTensor scalar = c;
      scalar.shape.clear();
      if (elemIsFloat(c.elem)) scalar.f.resize(1);
      else scalar.i.resize(1);
      return literalText(scalar);
    }
    std::string file = pathStem(options_.outPath) + "." + pirName + ".npy";
    std::string dir = pathDir(options_.outPath);
    std::string staged = staging_ + "/" + file;
    std::string bytes = npyBytes(c);
    std::ofstream out(staged, std::ios::binary | std::ios::trunc);
    if (out) out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (out) out.close();
    if (!out) throw ImportError("cannot write " + staged);
    files_.push_back({dir == "." ? file : dir + "/" + file, staged});
    return "load(\"" + file + "\")";
  }

  std::string claimValueName(const std::string& base) { return "%" + values_.claim(base); }

  void importGraph(const onnx::ModelProto& model, int opset) {
    const onnx::GraphProto& g = model.graph();
    const std::string file = options_.modelPath;
    // Initializers: known values (declared when an op needs them as a tensor).
    std::unordered_map<std::string, bool> isInitializer;
    for (const onnx::TensorProto& t : g.initializer()) {
      std::string what = "initializer " + quoted(t.name());
      Entry& e = fresh(t.name());
      bool narrowed = false;
      elemOfOnnxType(t.data_type(), what, &narrowed);
      e.value = decodeTensor(t, what);
      e.initializer = true;
      e.narrowed = narrowed;
      isInitializer[t.name()] = true;
    }
    if (g.sparse_initializer_size() > 0) throw ImportError("sparse initializers are not supported");
    // Inputs that are not initializers: h2d streams.
    for (const onnx::ValueInfoProto& vi : g.input()) {
      if (isInitializer.count(vi.name())) continue;
      std::string what = "graph input " + quoted(vi.name());
      if (!vi.type().has_tensor_type())
        throw ImportError(what + ": only tensor inputs are supported (sequences, maps and optionals are not)");
      const auto& tt = vi.type().tensor_type();
      bool narrowed = false;
      Elem elem = elemOfOnnxType(tt.elem_type(), what, &narrowed);
      std::vector<int64_t> dims;
      auto fixed = options_.inputShapes.find(vi.name());
      if (!tt.has_shape()) {
        if (fixed == options_.inputShapes.end())
          throw ImportError(what + ": the rank is unknown; give the shape with --input-shape " + vi.name() + "=D0,D1,...");
        dims = fixed->second;
      } else {
        const auto& shp = tt.shape();
        if (fixed != options_.inputShapes.end()) {
          if (static_cast<int>(fixed->second.size()) != shp.dim_size())
            throw ImportError("--input-shape " + vi.name() + ": " + std::to_string(fixed->second.size()) +
                              " dimensions given, the model's input has " + std::to_string(shp.dim_size()));
          for (int d = 0; d < shp.dim_size(); ++d)
            if (shp.dim(d).has_dim_value() && shp.dim(d).dim_value() != fixed->second[d])
              throw ImportError("--input-shape " + vi.name() + ": dimension " + std::to_string(d) + " is " +
                                std::to_string(fixed->second[d]) + ", the model fixes it to " +
                                std::to_string(shp.dim(d).dim_value()));
          dims = fixed->second;
        } else {
          for (int d = 0; d < shp.dim_size(); ++d) {
            const auto& dim = shp.dim(d);
            if (!dim.has_dim_value() || dim.dim_value() < 0)
              throw ImportError(what + ": dimension " + std::to_string(d) +
                                (dim.has_dim_param() ? " ('" + dim.dim_param() + "')" : std::string()) +
                                " is dynamic; fix it with --input-shape " + vi.name() + "=D0,D1,...");
            dims.push_back(dim.dim_value());
          }
        }
      }
      checkedElementCount(dims, what);
      std::string stream = streams_.claim(vi.name());
      std::string value = claimValueName(vi.name());
      header_ += "# $" + stream + ": ONNX input " + quoted(vi.name()) + (narrowed ? " (int64, fed as i32)" : "") + "\n";
      emit("h2d $" + stream + " : " + typeText(elem, dims), what);
      emit(value + " = host_load $" + stream, what);
      Entry& e = fresh(vi.name());
      e.pir = value;
      e.narrowed = narrowed;
    }
    // Nodes, in the graph's (topological) order.
    for (int k = 0; k < g.node_size(); ++k) {
      const onnx::NodeProto& node = g.node(k);
      std::string domain = node.domain().empty() ? "ai.onnx" : node.domain();
      std::string context = file + ": node " + std::to_string(k) + (node.name().empty() ? "" : " " + quoted(node.name())) + " (op_type " +
                            node.op_type() + ", domain " + domain + ", opset " + std::to_string(opset) + ")";
      currentContext_ = context;
      if (domain != "ai.onnx")
        throw ImportError(context + ": unsupported op " + node.op_type() + " of domain " + domain +
                          " (only ai.onnx is imported)");
      NodeContext ctx(*this, node, opset);
      try {
        if (!mapNode(ctx, node.op_type())) throw ImportError(context + ": unsupported op " + node.op_type());
      } catch (const ImportError& e) {
        std::string msg = e.what();
        if (msg.rfind(file + ": ", 0) == 0) throw;
        throw ImportError(context + ": " + msg);
      }
      for (const std::string& out : node.output())
        if (!out.empty() && !entries_.count(out))
          throw ImportError(context + ": output " + quoted(out) + " was not produced");
    }
    // Outputs: d2h streams.
    for (const onnx::ValueInfoProto& vi : g.output()) {
      std::string what = "graph output " + quoted(vi.name());
      currentContext_ = file + ": " + what;
      Entry& e = entry(vi.name(), file + ": " + what);
      std::string value = materialize(vi.name(), e, file + ": " + what);
      TypeInfo t = typeOfValue(value, what);
      std::string stream = streams_.claim(vi.name());
      header_ += "# $" + stream + ": ONNX output " + quoted(vi.name()) + "\n";
      emit("d2h $" + stream + " : " + typeText(t.elem, t.shape), file + ": " + what);
      emit("host_store $" + stream + ", " + value, file + ": " + what);
    }
  }

  const std::string& context() const { return currentContext_; }
  std::string header_;
  std::vector<ImportedFile> files_;
  int64_t statements_ = 0;

 private:
  const ImportOptions& options_;
  PirProgram& program_;
  std::unordered_map<std::string, Entry> entries_;
  NameTable streams_, values_;
  std::string currentContext_;
  std::string staging_;
};

// ---- NodeContext -------------------------------------------------------------

int NodeContext::numInputs() const { return node_.input_size(); }
bool NodeContext::has(int i) const { return i >= 0 && i < node_.input_size() && !node_.input(i).empty(); }

TypeInfo NodeContext::type(int i) const {
  if (!has(i)) fail("input " + std::to_string(i) + " is missing");
  return importer_.typeOfEntry(importer_.entry(node_.input(i), importer_.context()), importer_.context());
}

const ConstTensor* NodeContext::known(int i) const {
  if (!has(i)) return nullptr;
  Entry& e = importer_.entry(node_.input(i), importer_.context());
  return e.value ? &*e.value : nullptr;
}

const ConstTensor& NodeContext::requireKnown(int i, const char* what) const {
  const ConstTensor* c = known(i);
  if (!c)
    fail(std::string(what) + " (input " + std::to_string(i) + " " +
         (i >= 0 && i < node_.input_size() ? quoted(node_.input(i)) : std::string("(absent)")) +
         ") must be known at import time (a constant, an initializer or a foldable shape computation)");
  return *c;
}

std::vector<int64_t> NodeContext::requireInts(int i, const char* what) const {
  const ConstTensor& c = requireKnown(i, what);
  std::vector<int64_t> v(c.size());
  for (int64_t k = 0; k < c.size(); ++k) v[k] = c.intAt(k);
  return v;
}

std::string NodeContext::in(int i) {
  if (!has(i)) fail("input " + std::to_string(i) + " is missing");
  Entry& e = importer_.entry(node_.input(i), importer_.context());
  return importer_.materialize(node_.input(i), e, importer_.context());
}

const onnx::AttributeProto* NodeContext::attr(const char* name) const {
  for (const onnx::AttributeProto& a : node_.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

int64_t NodeContext::attrInt(const char* name, int64_t def) const {
  const onnx::AttributeProto* a = attr(name);
  return a ? a->i() : def;
}

double NodeContext::attrFloat(const char* name, double def) const {
  const onnx::AttributeProto* a = attr(name);
  return a ? a->f() : def;
}

std::string NodeContext::attrString(const char* name, const std::string& def) const {
  const onnx::AttributeProto* a = attr(name);
  return a ? a->s() : def;
}

std::optional<std::vector<int64_t>> NodeContext::attrInts(const char* name) const {
  const onnx::AttributeProto* a = attr(name);
  if (!a) return std::nullopt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

std::optional<std::vector<double>> NodeContext::attrFloats(const char* name) const {
  const onnx::AttributeProto* a = attr(name);
  if (!a) return std::nullopt;
  return std::vector<double>(a->floats().begin(), a->floats().end());
}

int NodeContext::numOutputs() const { return node_.output_size(); }
bool NodeContext::wantsOutput(int i) const { return i < node_.output_size() && !node_.output(i).empty(); }

std::string NodeContext::result(int i, const std::string& rhs) {
  if (!wantsOutput(i)) fail("output " + std::to_string(i) + " is missing");
  std::string name = importer_.claimValueName(node_.output(i));
  importer_.emit(name + " = " + rhs, importer_.context());
  importer_.fresh(node_.output(i)).pir = name;
  return name;
}

void NodeContext::results(int n, const std::string& rhs) {
  std::string lhs;
  std::vector<std::pair<int, std::string>> bound;
  for (int i = 0; i < n; ++i) {
    std::string name = importer_.claimValueName(wantsOutput(i) ? node_.output(i) : node_.output(0) + "_unused");
    if (i) lhs += ", ";
    lhs += name;
    if (wantsOutput(i)) bound.emplace_back(i, name);
  }
  importer_.emit(lhs + " = " + rhs, importer_.context());
  for (auto& [i, name] : bound) importer_.fresh(node_.output(i)).pir = name;
}

std::string NodeContext::temp(const std::string& rhs) {
  std::string base = (node_.output_size() > 0 && !node_.output(0).empty() ? node_.output(0) : node_.op_type()) + "_t";
  std::string name = importer_.claimValueName(base);
  importer_.emit(name + " = " + rhs, importer_.context());
  return name;
}

TypeInfo NodeContext::typeOf(const std::string& value) const { return importer_.typeOfValue(value, importer_.context()); }

void NodeContext::alias(int i, const std::string& value) {
  if (!wantsOutput(i)) return;
  importer_.fresh(node_.output(i)).pir = value;
}

void NodeContext::define(int i, ConstTensor value) {
  if (!wantsOutput(i)) return;
  checkIntegerRange(value, "output " + quoted(node_.output(i)));
  Entry& e = importer_.fresh(node_.output(i));
  e.value = std::move(value);
}

std::string NodeContext::constantBase() const {
  return (node_.output_size() > 0 ? node_.output(0) : node_.op_type()) + "_c";
}

std::string NodeContext::constant(const ConstTensor& value) {
  return importer_.constant(value, constantBase(), importer_.context());
}

std::string NodeContext::uniformConstant(const ConstTensor& scalar, const std::vector<int64_t>& shape) {
  return importer_.uniformConstant(scalar, shape, constantBase(), importer_.context());
}

void NodeContext::fail(const std::string& message) const { throw ImportError(importer_.context() + ": " + message); }

// ---- the whole import ------------------------------------------------------

ImportResult importOnnx(std::string_view modelBytes, const ImportOptions& options) {
  const std::string& file = options.modelPath;
  onnx::ModelProto model;
  {
    google::protobuf::io::ArrayInputStream raw(modelBytes.data(), static_cast<int>(modelBytes.size()));
    google::protobuf::io::CodedInputStream coded(&raw);
    coded.SetRecursionLimit(64);
    coded.SetTotalBytesLimit(INT32_MAX);  // models past protobuf's 64 MB default
    if (modelBytes.size() > size_t(INT32_MAX) || !model.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
      throw ImportError(file + ": error: not an ONNX model: the protobuf does not parse (truncated or not a ModelProto)");
  }
  if (!model.has_graph()) throw ImportError(file + ": error: not an ONNX model: no graph");
  int opset = -1;
  for (const auto& o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") opset = static_cast<int>(o.version());
  // A model of other domains only (training ops, ML ops) fails at its first
  // node, which names the domain; one with ai.onnx nodes needs the opset.
  bool defaultDomainNodes = false;
  for (const auto& n : model.graph().node()) defaultDomainNodes |= n.domain().empty() || n.domain() == "ai.onnx";
  if (opset < 0 && !defaultDomainNodes) opset = 17;
  if (opset < 0) throw ImportError(file + ": error: the model imports no opset of domain ai.onnx");
  if (opset < 1 || opset > 17)
    throw ImportError(file + ": error: opset " + std::to_string(opset) + " of domain ai.onnx is not supported (1 to 17 are)");
  for (const auto& [name, dims] : options.inputShapes) {
    bool found = false;
    for (const auto& vi : model.graph().input()) found = found || vi.name() == name;
    if (!found) throw ImportError(file + ": error: --input-shape " + name + ": the model has no input " + quoted(name));
  }
  auto staging = std::make_shared<StagingDir>(pathDir(options.outPath) + "/." + pathStem(options.outPath) +
                                              ".import-" + std::to_string(::getpid()));
  std::error_code ec;
  std::filesystem::create_directories(staging->path, ec);
  if (ec) throw ImportError(file + ": error: cannot create " + staging->path + ": " + ec.message());
  PirProgram program(staging->path);
  GraphImporter importer(options, program, staging->path);
  try {
    importer.importGraph(model, opset);
  } catch (const ImportError& e) {
    std::string msg = e.what();
    if (msg.rfind(file + ": ", 0) == 0) msg.insert(file.size() + 2, "error: ");
    else msg = file + ": error: " + msg;
    throw ImportError(msg);
  }
  std::string error;
  std::optional<std::string> text = program.printCanonical(error);
  if (!text) throw ImportError(file + ": error: the imported program does not verify: " + error);
  ImportResult result;
  result.text = "# Imported from " + std::filesystem::path(file).filename().string() + " by pir import.\n" +
                importer.header_ + *text;
  result.files = std::move(importer.files_);
  result.statements = importer.statements_;
  result.staging = std::move(staging);
  return result;
}

namespace {
bool writeTemp(const std::string& path, const std::string& bytes, std::string& tmp, std::string& error) {
  tmp = path + ".tmp" + std::to_string(::getpid());
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (out) out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (out) out.close();
  if (!out) {
    std::remove(tmp.c_str());
    error = "cannot write " + path;
    return false;
  }
  return true;
}
}  // namespace

StagingDir::~StagingDir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

bool writeImport(const ImportResult& result, const std::string& outPath, std::string& error) {
  std::vector<std::pair<std::string, std::string>> staged;  // temp, final
  for (const ImportedFile& f : result.files) staged.emplace_back(f.staged, f.path);
  std::string tmp;
  if (!writeTemp(outPath, result.text, tmp, error)) return false;
  staged.emplace_back(tmp, outPath);
  for (size_t k = 0; k < staged.size(); ++k) {
    if (std::rename(staged[k].first.c_str(), staged[k].second.c_str()) != 0) {
      error = "cannot write " + staged[k].second;
      for (size_t j = 0; j < k; ++j) std::remove(staged[j].second.c_str());
      for (size_t j = k; j < staged.size(); ++j) std::remove(staged[j].first.c_str());
      return false;
    }
  }
  return true;
}

bool parseInputShape(std::string_view text, std::string& name, std::vector<int64_t>& dims, std::string& problem) {
  size_t eq = text.rfind('=');
  if (eq == std::string_view::npos || eq == 0) {
    problem = "expected NAME=D0,D1,..., got '" + std::string(text) + "'";
    return false;
  }
  name = std::string(text.substr(0, eq));
  dims.clear();
  std::string_view rest = text.substr(eq + 1);
  if (rest.empty()) return true;  // a scalar
  while (true) {
    size_t comma = rest.find(',');
    std::string_view piece = rest.substr(0, comma);
    int64_t d = 0;
    auto [ptr, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), d);
    if (piece.empty() || ec != std::errc() || ptr != piece.data() + piece.size() || d < 0) {
      problem = "dimension '" + std::string(piece) + "' of " + name + " is not a non-negative integer";
      return false;
    }
    dims.push_back(d);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return true;
}

}  // namespace pir::onnx_import
