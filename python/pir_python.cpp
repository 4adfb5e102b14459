// The `pir` Python module (pybind11): modules built from `.pir` text through the
// one front end (frontend/builder.h), read back as types, printed canonically,
// transformed by passes and run by sessions with NumPy arrays in and out.
//
// A Module keeps one Builder for its whole life, so text handed to `add` in
// several pieces builds the same IR as one file holding all the pieces, and a
// subgraph opened with `begin_graph` receives the statements added until
// `end_graph`. Every error is a `pir.Error` carrying pir's located diagnostics.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "api/pass_runner.h"
#include "frontend/builder.h"
#include "frontend/parser.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "ir/number_format.h"
#include "ir/op_info.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/autodiff.h"
#include "repl/commands.h"
#include "vm/session.h"

namespace py = pybind11;

namespace pir::python {
namespace {

using vm::HostTensor;

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string dtypeString(DType t) { return std::string(dtypeName(t)); }

DType dtypeFromString(const std::string& s) {
  auto parsed = parseDType(s);
  if (!parsed) throw Error("unknown dtype '" + s + "'");
  return parsed->dtype;
}

py::tuple typeTuple(const TensorType& t) {
  return py::make_tuple(dtypeString(t.dtype), py::tuple(py::cast(t.shape)));
}

// The NumPy dtype that holds pir's dtype `t` exactly.
py::dtype numpyDType(DType t) {
  switch (t) {
    case DType::Bool: return py::dtype("bool");
    case DType::I8: return py::dtype("int8");
    case DType::I16: return py::dtype("int16");
    case DType::I32: return py::dtype("int32");
    case DType::U8: return py::dtype("uint8");
    case DType::U16: return py::dtype("uint16");
    case DType::U32: return py::dtype("uint32");
    case DType::F16: return py::dtype("float16");
    case DType::F32: return py::dtype("float32");
    case DType::F64: return py::dtype("float64");
  }
  throw Error("no NumPy dtype for " + dtypeString(t));
}

// A NumPy array as a literal of `shape` (values exact for every stored dtype:
// the array is converted to float64, which holds every 32-bit integer and f16/f32).
std::shared_ptr<Literal> literalOf(const py::array& array) {
  py::array_t<double, py::array::c_style | py::array::forcecast> values(array);
  auto lit = std::make_shared<Literal>();
  lit->kind = Literal::Kind::Data;
  for (py::ssize_t d = 0; d < values.ndim(); ++d) lit->shape.push_back(values.shape(d));
  lit->values.assign(values.data(), values.data() + values.size());
  lit->hasNumber = true;
  return lit;
}

py::array arrayOf(const HostTensor& t) {
  std::vector<py::ssize_t> shape(t.type.shape.begin(), t.type.shape.end());
  py::array out(numpyDType(t.type.dtype), shape);
  std::memcpy(out.mutable_data(), t.data(), HostTensor::byteSize(t.type));
  return out;
}

// Nested-list text of an array, in the dtype's shortest exact form (language.md §5).
std::string literalText(const py::array& array, DType dtype) {
  py::array_t<double, py::array::c_style | py::array::forcecast> values(array);
  const double* v = values.data();
  const py::ssize_t n = values.size();
  std::string out;
  out.reserve(static_cast<size_t>(n) * 6 + 16);
  if (values.ndim() == 0) {
    appendNumber(out, v[0], dtype);
    return out;
  }
  std::vector<py::ssize_t> shape(values.shape(), values.shape() + values.ndim());
  if (n == 0) return "[]";
  std::vector<py::ssize_t> index(shape.size(), 0);
  for (size_t d = 0; d < shape.size(); ++d) out += '[';
  for (py::ssize_t i = 0; i < n; ++i) {
    appendNumber(out, v[i], dtype);
    size_t d = shape.size();
    size_t closed = 0;
    while (d > 0) {
      --d;
      if (++index[d] < shape[d]) break;
      index[d] = 0;
      ++closed;
    }
    for (size_t c = 0; c < closed; ++c) out += ']';
    if (i + 1 < n) {
      out += ", ";
      for (size_t c = 0; c < closed; ++c) out += '[';
    }
  }
  return out;
}

// The front end's options: autodiff directives run the transform of passes/.
BuildOptions buildOptions() {
  BuildOptions options;
  options.autodiff = autodiffTransform();
  return options;
}

// One IR under construction or built: the module, its sources and diagnostics,
// and the builder that reads every piece of text added to it.
class PyModule {
 public:
  // `baseDir`: where relative load() paths resolve.
  explicit PyModule(std::string baseDir = "") : diags_(sources_), baseDir_(std::move(baseDir)) {
    diags_.setStream(&messages_);
    builder_ = std::make_unique<Builder>(module_, diags_, baseDir_, buildOptions());
  }

  static std::shared_ptr<PyModule> parse(const std::string& text, const std::string& name, const std::string& baseDir) {
    auto m = std::make_shared<PyModule>(baseDir);
    m->add(text, name);
    return m;
  }

  // Builds `text` (top-level items, or statements of the open graph) into the module.
  void add(const std::string& text, const std::string& name) {
    const uint32_t file = sources_.add(name, text);
    messages_.str("");
    try {
      parseBuffer(file, *builder_, diags_);
    } catch (const CompileError&) {
      builder_->takeCommands();
      throw Error(takeMessages());
    }
    // Session commands in added text are checked, not run: a PySession is driven by calls.
    builder_->takeCommands();
    warnings_ += takeMessages();
  }

  void beginGraph(const std::string& name, const std::vector<std::tuple<std::string, std::string, std::vector<int64_t>, bool>>& params) {
    ast::GraphHeader h;
    h.name.text = name;
    for (auto& [pname, dtype, shape, byRef] : params) {
      ast::Param p;
      p.name.text = pname;
      p.byRef = byRef;
      p.type.dtype = dtypeFromString(dtype);
      p.type.shape = shape;
      h.params.push_back(std::move(p));
    }
    messages_.str("");
    try {
      builder_->beginGraph(std::move(h));
    } catch (const CompileError&) {
      throw Error(takeMessages());
    }
  }

  void endGraph() {
    messages_.str("");
    try {
      builder_->endGraph({});
    } catch (const CompileError&) {
      builder_->reset();
      throw Error(takeMessages());
    }
  }

  // Drops the open graph and all it holds (a probe, or a graph whose tracing failed).
  void abandonGraph() { builder_->reset(); }

  Graph& graph(const std::string& name) {
    if (name.empty() || name == "main") return *module_.main;
    Graph* g = module_.findGraph(name);
    if (!g) throw Error("unknown graph @" + name);
    return *g;
  }

  py::object valueType(const std::string& graphName, const std::string& value) {
    Value* v = graph(graphName).lookup(value);
    if (!v) return py::none();
    return typeTuple(v->type);
  }

  // The results of the last op of a graph: [(name, dtype, shape)].
  py::list lastOpResults(const std::string& graphName) {
    Graph& g = graph(graphName);
    py::list out;
    if (g.ops.empty()) return out;
    for (Value* v : g.ops.back()->results) out.append(py::make_tuple(v->name, dtypeString(v->type.dtype), py::tuple(py::cast(v->type.shape))));
    return out;
  }

  // The results of the call labelled `as LABEL` in a graph (autodiff may have added some).
  py::list callResults(const std::string& graphName, const std::string& label) {
    Graph& g = graph(graphName);
    py::list out;
    for (auto& op : g.ops)
      if (op->label == label) {
        for (Value* v : op->results) out.append(py::make_tuple(v->name, dtypeString(v->type.dtype), py::tuple(py::cast(v->type.shape))));
        return out;
      }
    throw Error("no call labelled '" + label + "' in @" + g.name);
  }

  py::dict graphInfo(const std::string& name) {
    Graph& g = graph(name);
    py::dict d;
    py::list params, outputs, returns, activations;
    for (Value* p : g.params) params.append(py::make_tuple(p->name, dtypeString(p->type.dtype), py::tuple(py::cast(p->type.shape)), p->byRef));
    for (auto& t : g.outputTypes) outputs.append(typeTuple(t));
    for (auto& r : g.returns) returns.append(r.kind == Operand::Kind::Value ? py::object(py::str(r.value->name)) : py::object(py::none()));
    for (Value* a : g.activations) activations.append(a->name);
    d["name"] = g.name;
    d["params"] = params;
    d["outputs"] = outputs;
    d["returns"] = returns;
    d["activations"] = activations;
    d["grad_of"] = g.gradOf ? py::object(py::str(g.gradOf->name)) : py::object(py::none());
    return d;
  }

  std::vector<std::string> graphNames() const {
    std::vector<std::string> out;
    for (auto& g : module_.graphs) out.push_back(g->name);
    return out;
  }

  void setOptions(int64_t replication, int64_t numHostTransfers, int64_t seed) {
    module_.options.replication = replication;
    module_.options.numHostTransfers = numHostTransfers;
    module_.options.seed = seed;
    module_.touch();
  }

  std::string text() const { return printModule(module_); }

  void verify() {
    messages_.str("");
    if (!verifyModule(module_, diags_)) throw Error(takeMessages());
  }

  void runPasses(const std::vector<std::string>& passes) {
    messages_.str("");
    // Python may read any main value later: passes keep them all (no script to read).
    if (!pir::runPasses(module_, passes, diags_, false, nullptr, nullptr)) throw Error(takeMessages());
  }

  std::string warnings() {
    std::string w;
    std::swap(w, warnings_);
    return w;
  }

  Module& module() { return module_; }
  DiagnosticEngine& diags() { return diags_; }
  std::ostringstream& messages() { return messages_; }
  std::string takeMessages() {
    std::string s = messages_.str();
    messages_.str("");
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s.empty() ? "pir: error" : s;
  }

 private:
  SourceManager sources_;
  DiagnosticEngine diags_;
  std::ostringstream messages_;
  std::string warnings_;
  std::string baseDir_;
  Module module_;
  std::unique_ptr<Builder> builder_;
};

// A session over a module (PopXL popxl.Session's engine): feeds, runs and reads.
class PySession {
 public:
  PySession(std::shared_ptr<PyModule> module, int threads)
      : module_(std::move(module)),
        session_(module_->module(), module_->diags(), out_, vm::SessionOptions{.threads = threads}) {}

  void feed(const std::string& stream, const py::array& data) {
    auto lit = literalOf(data);
    guard([&] { session_.feed(bare(stream, '$'), *lit, {}); });
  }

  void write(const std::string& variable, const py::array& data) {
    auto lit = literalOf(data);
    guard([&] { session_.write(bare(variable, '%'), *lit, {}); });
  }

  void run(int64_t times) {
    std::string err;
    {
      py::gil_scoped_release release;
      err = guardNoGil([&] { session_.run(times, {}); });
    }
    if (!err.empty()) throw Error(err);
  }

  py::array read(const std::string& name) {
    HostTensor t;
    guard([&] { t = session_.valueOf(name, {}); });
    return arrayOf(t);
  }

  void reset() { guard([&] { session_.reset(); }); }

  // What print_tensor wrote since the last call.
  std::string output() {
    std::string s = out_.str();
    out_.str("");
    return s;
  }

 private:
  // Names are written with their sigil ("$x", "%W") or without.
  static std::string bare(const std::string& name, char sigil) {
    return !name.empty() && name[0] == sigil ? name.substr(1) : name;
  }
  template <class F> void guard(F&& f) {
    std::string err = guardNoGil(std::forward<F>(f));
    if (!err.empty()) throw Error(err);
  }
  template <class F> std::string guardNoGil(F&& f) {
    module_->messages().str("");
    try {
      f();
    } catch (const CompileError&) {
      return module_->takeMessages();
    } catch (const std::exception& e) {
      return e.what();
    }
    return {};
  }

  std::shared_ptr<PyModule> module_;
  std::ostringstream out_;
  vm::Session session_;
};

std::string attrTypeName(AttrType t) {
  switch (t) {
    case AttrType::Int: return "int";
    case AttrType::Float: return "float";
    case AttrType::Bool: return "bool";
    case AttrType::Str: return "str";
    case AttrType::DType: return "dtype";
    case AttrType::Ints: return "ints";
    case AttrType::Floats: return "floats";
    case AttrType::Axes: return "axes";
    case AttrType::Group: return "group";
    case AttrType::Graph: return "graph";
    case AttrType::Values: return "values";
    case AttrType::Resource: return "resource";
    case AttrType::Enum: return "enum";
  }
  return "?";
}

// The op table as data, for popxl.ops (an op added to ir/ops.def appears in Python).
py::list opTable() {
  py::list out;
  for (int c = 0; c < kNumOpCodes; ++c) {
    const OpInfo& info = opInfo(static_cast<OpCode>(c));
    if (info.has(F_DECL) || info.has(F_REGION)) continue;
    py::dict d;
    d["name"] = std::string(info.name);
    d["min_operands"] = info.minOperands;
    d["max_operands"] = info.maxOperands;
    d["inplace"] = info.has(F_INPLACE);
    d["control"] = info.has(F_CONTROL);
    d["signature"] = info.operandNames;
    py::list operands;
    for (auto& o : info.operands) operands.append(py::make_tuple(o.name, o.role == OperandRole::Resource));
    d["operands"] = operands;
    py::list attrs;
    for (auto& a : info.attrs)
      attrs.append(py::make_tuple(a.name, attrTypeName(a.type), a.presence == AttrPresence::Required, a.enumValues));
    d["attrs"] = attrs;
    out.append(d);
  }
  return out;
}

}  // namespace
}  // namespace pir::python

PYBIND11_MODULE(_pir, m) {
  using namespace pir::python;
  m.doc() = "pir: IPU-style tensor programs as text (parse, build, print, verify, passes, sessions)";
  static py::exception<Error> error(m, "Error");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      error(e.what());
    }
  });

  py::class_<PyModule, std::shared_ptr<PyModule>>(m, "Module")
      .def(py::init<>())
      .def_static("parse", &PyModule::parse, py::arg("text"), py::arg("name") = "<python>", py::arg("base_dir") = "")
      .def("add", &PyModule::add, py::arg("text"), py::arg("name") = "<python>")
      .def("begin_graph", &PyModule::beginGraph)
      .def("end_graph", &PyModule::endGraph)
      .def("abandon_graph", &PyModule::abandonGraph)
      .def("value_type", &PyModule::valueType)
      .def("last_op_results", &PyModule::lastOpResults)
      .def("graph_info", &PyModule::graphInfo)
      .def("call_results", &PyModule::callResults)
      .def("graph_names", &PyModule::graphNames)
      .def("set_options", &PyModule::setOptions, py::arg("replication"), py::arg("num_host_transfers"), py::arg("seed") = 0)
      .def("text", &PyModule::text)
      .def("verify", &PyModule::verify)
      .def("run_passes", &PyModule::runPasses)
      .def("warnings", &PyModule::warnings);

  py::class_<PySession>(m, "Session")
      .def(py::init<std::shared_ptr<PyModule>, int>(), py::arg("module"), py::arg("threads") = 0)
      .def("feed", &PySession::feed)
      .def("write", &PySession::write)
      .def("run", &PySession::run, py::arg("times") = 1)
      .def("read", &PySession::read)
      .def("reset", &PySession::reset)
      .def("output", &PySession::output);

  m.def("op_table", &opTable);
  m.def("literal_text", [](const py::array& a, const std::string& dtype) { return literalText(a, dtypeFromString(dtype)); });
}
