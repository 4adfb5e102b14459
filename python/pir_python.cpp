// The `pir` Python module (pybind11) over pir's public C++ API (pir/pir.h)
// alone: modules built from `.pir` text in pieces, read back as types, printed
// canonically, transformed by passes and run by sessions with NumPy arrays in
// and out.
//
// Arrays: a feed hands the array's memory to the session (Session::feed of a
// TensorView), which writes it into the stream buffer in one pass, converting
// only when the dtype or layout differs. A result is a read-only array over the
// session's own buffer (Session::readShared), kept alive by its base object.
// A run releases the GIL. Every error is a `pir.Error` carrying pir's located
// diagnostics.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "pir/pir.h"

namespace py = pybind11;

namespace pir::python {
namespace {

static_assert(std::is_same_v<py::ssize_t, int64_t>, "NumPy's shapes and strides are read as int64_t spans");

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The diagnostics of a failed call as a Python exception (pir.Error).
std::string messageOf(const std::string& diagnostics) {
  std::string s = diagnostics;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s.empty() ? "pir: error" : s;
}
void check(const api::Status& s) {
  if (!s) throw Error(messageOf(s.error()));
}
template <class T>
T take(api::Result<T>&& r) {
  if (!r) throw Error(messageOf(r.error()));
  return std::move(r.value());
}

api::DType dtypeFromString(const std::string& s) {
  std::optional<api::DType> d = api::dtypeFromName(s);
  if (!d) throw Error("unknown dtype '" + s + "'");
  return *d;
}

py::tuple typeTuple(const api::Type& t) { return py::make_tuple(api::dtypeToString(t.dtype), py::tuple(py::cast(t.shape))); }

// The NumPy dtype that holds pir's dtype `t` exactly.
py::dtype numpyDType(api::DType t) {
  static constexpr std::pair<api::DType, const char*> kNames[] = {
      {api::DType::Bool, "bool"},   {api::DType::I8, "int8"},       {api::DType::I16, "int16"},
      {api::DType::I32, "int32"},   {api::DType::U8, "uint8"},      {api::DType::U16, "uint16"},
      {api::DType::U32, "uint32"},  {api::DType::F16, "float16"},   {api::DType::F32, "float32"},
      {api::DType::F64, "float64"},
  };
  for (const auto& [d, name] : kNames)
    if (d == t) return py::dtype(name);
  throw Error("no NumPy dtype for " + api::dtypeToString(t));
}

// pir's dtype of a NumPy array's elements, if pir has one (the same bytes: the
// machine's byte order, which pir's little-endian layout is on every target).
std::optional<api::DType> pirDType(const py::dtype& d) {
  if (d.byteorder() == '>') return std::nullopt;
  const char kind = d.kind();
  const auto size = d.itemsize();
  if (kind == 'b' && size == 1) return api::DType::Bool;
  if (kind == 'i') return size == 1 ? std::optional(api::DType::I8) : size == 2 ? std::optional(api::DType::I16)
                          : size == 4 ? std::optional(api::DType::I32) : std::nullopt;
  if (kind == 'u') return size == 1 ? std::optional(api::DType::U8) : size == 2 ? std::optional(api::DType::U16)
                          : size == 4 ? std::optional(api::DType::U32) : std::nullopt;
  if (kind == 'f') return size == 2 ? std::optional(api::DType::F16) : size == 4 ? std::optional(api::DType::F32)
                          : size == 8 ? std::optional(api::DType::F64) : std::nullopt;
  return std::nullopt;
}

// A host tensor holding `array`'s values (written as literals are: rounded to
// the target's dtype by the call that takes it).
api::Tensor tensorOf(const py::array& array) {
  std::optional<api::DType> d = pirDType(array.dtype());
  py::array c = d ? py::array::ensure(array, py::array::c_style) : py::array();
  if (!c) {
    d = api::DType::F64;
    c = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(array);
    if (!c) throw Error("cannot read this array as numbers");
  }
  api::Tensor t;
  t.dtype = *d;
  t.shape.assign(c.shape(), c.shape() + c.ndim());
  t.bytes.resize(static_cast<size_t>(c.nbytes()));
  if (c.nbytes()) std::memcpy(t.bytes.data(), c.data(), static_cast<size_t>(c.nbytes()));
  return t;
}

// One call at a time on a module and its sessions: a run releases the GIL, and
// another Python thread must not use the module or any session on it meanwhile
// (the C++ objects are not shared between threads). Taken with the GIL held.
constexpr const char* kBusy = "pir: the module is in use by another thread (a run is executing)";
struct Busy {
  explicit Busy(bool& flag) : flag(flag) {
    if (flag) throw Error(kBusy);
    flag = true;
  }
  ~Busy() { flag = false; }
  bool& flag;
};

// One program: its context (what it is built with) and the module.
class PyModule {
 public:
  PyModule() : module_(api::Module::create(*context_)) {}
  PyModule(std::unique_ptr<api::Context> context, api::Module module)
      : context_(std::move(context)), module_(std::move(module)) {}

  static std::shared_ptr<PyModule> parse(const std::string& text, const std::string& name, const std::string& baseDir) {
    auto context = std::make_unique<api::Context>();
    api::Module m = take(api::Module::parse(*context, text, name, baseDir.empty() ? "." : baseDir));
    return std::make_shared<PyModule>(std::move(context), std::move(m));
  }

  void add(const std::string& text, const std::string& name) { check(call().add(text, name)); }

  void beginGraph(const std::string& name,
                  const std::vector<std::tuple<std::string, std::string, std::vector<int64_t>, bool>>& params) {
    (void)take(call().beginGraph(name, paramsOf(params)));
  }

  // The result types of one statement whose operands are `params`, built alone
  // and dropped: [(dtype, shape)].
  py::list resultTypes(const std::vector<std::tuple<std::string, std::string, std::vector<int64_t>, bool>>& params,
                       const std::string& text, const std::string& name) {
    py::list out;
    for (const api::Type& t : take(call().resultTypes(paramsOf(params), text, name))) out.append(typeTuple(t));
    return out;
  }

  py::object valueType(const std::string& graph, const std::string& value) {
    api::Result<api::Type> t = call().typeOf(value, graph);
    return t ? py::object(typeTuple(*t)) : py::object(py::none());
  }

  // The results of the call labelled `as LABEL` in a graph: [(name, dtype, shape)].
  py::list callResults(const std::string& graph, const std::string& label) {
    py::list out;
    for (const api::TypedRef& r : take(call().labelledResults(graph, label)))
      out.append(py::make_tuple(r.ref.name.substr(1), api::dtypeToString(r.type.dtype), py::tuple(py::cast(r.type.shape))));
    return out;
  }

  py::dict graphInfo(const std::string& name) {
    api::GraphInfo info = take(call().graphInfo(name));
    py::list params, outputs, returns, activations;
    for (const api::Param& p : info.params)
      params.append(py::make_tuple(p.name, api::dtypeToString(p.type.dtype), py::tuple(py::cast(p.type.shape)), p.byRef));
    for (const api::Type& t : info.outputs) outputs.append(typeTuple(t));
    for (const auto& r : info.returns) returns.append(r ? py::object(py::str(r->name.substr(1))) : py::object(py::none()));
    for (const api::Ref& a : info.activations) activations.append(a.name.substr(1));
    py::dict d;
    d["name"] = info.name;
    d["params"] = params;
    d["outputs"] = outputs;
    d["returns"] = returns;
    d["activations"] = activations;
    d["grad_of"] = info.gradientOf ? py::object(py::str(*info.gradientOf)) : py::object(py::none());
    return d;
  }

  void setOptions(int64_t replication, int64_t numHostTransfers, int64_t seed) {
    check(call().setOptions(api::ModuleOptions{replication, numHostTransfers, seed}));
  }

  api::Module& module() { return module_; }
  // The module for one call, made with the GIL held: fails while a run executes.
  api::Module& call() {
    if (busy) throw Error(kBusy);
    return module_;
  }
  bool busy = false;  // a session on it runs without the GIL (Busy)

 private:
  static std::vector<api::Param> paramsOf(
      const std::vector<std::tuple<std::string, std::string, std::vector<int64_t>, bool>>& params) {
    std::vector<api::Param> out;
    for (const auto& [pname, dtype, shape, byRef] : params)
      out.push_back(api::Param{pname, api::Type{dtypeFromString(dtype), shape}, byRef});
    return out;
  }

  std::unique_ptr<api::Context> context_ = std::make_unique<api::Context>();
  api::Module module_;
};

// A session over a module (popxl.Session's engine): feeds, runs and reads.
class PySession {
 public:
  static constexpr py::ssize_t kGilFreeBytes = 1 << 20;

  PySession(std::shared_ptr<PyModule> module, int threads)
      : module_(std::move(module)),
        context_(std::make_unique<api::Context>(api::ContextOptions{.threads = threads})),
        session_(take(api::Session::create(*context_, module_->call()))) {}

  // The array's memory is read in place; only a dtype pir does not have (int64,
  // ...) is converted here first, to the stream's dtype.
  void feed(const std::string& stream, const py::array& data) {
    Busy busy(module_->busy);
    py::array array = data;
    std::optional<api::DType> d = pirDType(array.dtype());
    if (!d) {
      api::Type t = take(module_->module().typeOf(stream[0] == '$' ? stream : "$" + stream));
      array = py::array::ensure(data.attr("astype")(numpyDType(t.dtype)), py::array::c_style);
      d = t.dtype;
    }
    api::TensorView view;
    view.dtype = *d;
    view.shape = std::span<const int64_t>(array.shape(), static_cast<size_t>(array.ndim()));
    view.byteStrides = std::span<const int64_t>(array.strides(), static_cast<size_t>(array.ndim()));
    view.data = array.data();
    // A large array's transfer runs without the GIL (`array` keeps the memory alive).
    if (array.nbytes() < kGilFreeBytes) return check(session_.feed(stream, view));
    api::Status s;
    {
      py::gil_scoped_release release;
      s = session_.feed(stream, view);
    }
    check(s);
  }

  void write(const std::string& variable, const py::array& data) {
    Busy busy(module_->busy);
    check(session_.write(variable, tensorOf(data)));
  }

  void run(int64_t times) {
    Busy busy(module_->busy);
    api::Status s;
    {
      py::gil_scoped_release release;
      s = session_.run(times);
    }
    check(s);
  }

  // A read-only array over the session's data (no copy where the session holds
  // it whole); its base object keeps that data alive.
  py::array read(const std::string& name) {
    Busy busy(module_->busy);
    auto shared = std::make_unique<api::SharedTensor>(take(session_.readShared(name)));
    const api::SharedTensor& t = *shared;
    py::capsule owner(shared.release(), [](void* p) { delete static_cast<api::SharedTensor*>(p); });
    std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
    py::array out(numpyDType(t.dtype()), shape, {}, t.data(), owner);
    py::detail::array_proxy(out.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return out;
  }

  void reset() {
    Busy busy(module_->busy);
    check(session_.reset());
  }

  // What print_tensor wrote since the last call.
  std::string output() {
    Busy busy(module_->busy);
    return session_.takeOutput();
  }

 private:
  std::shared_ptr<PyModule> module_;
  std::unique_ptr<api::Context> context_;
  api::Session session_;
};

// The op table as data, for popxl.ops (an op added to ir/ops.def appears in Python).
py::list opTable() {
  py::list out;
  for (const api::OpSpec& op : api::opTable()) {
    py::dict d;
    d["name"] = op.name;
    d["min_operands"] = op.minOperands;
    d["max_operands"] = op.maxOperands;
    d["inplace"] = op.inplace;
    d["control"] = op.control;
    d["signature"] = op.signature;
    py::list operands;
    for (const api::OpOperandSpec& o : op.operands) operands.append(py::make_tuple(o.name, o.resource));
    d["operands"] = operands;
    py::list attrs;
    for (const api::OpAttrSpec& a : op.attrs) attrs.append(py::make_tuple(a.name, a.type, a.required, a.enumValues));
    d["attrs"] = attrs;
    out.append(d);
  }
  return out;
}

// The literal text of an array's values as `dtype` holds them (language.md §5).
std::string literalText(const py::array& array, const std::string& dtype) {
  py::array_t<double, py::array::c_style | py::array::forcecast> values(array);
  std::vector<int64_t> shape(values.shape(), values.shape() + values.ndim());
  return api::Tensor::fromDoubles(dtypeFromString(dtype), shape, std::vector<double>(values.data(), values.data() + values.size()))
      .literal();
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
      .def("end_graph", [](PyModule& self) { check(self.call().endGraph({})); })
      .def("abandon_graph", [](PyModule& self) { check(self.call().abandonGraph()); })
      .def("result_types", &PyModule::resultTypes, py::arg("params"), py::arg("text"), py::arg("name") = "<probe>")
      .def("value_type", &PyModule::valueType)
      .def("graph_info", &PyModule::graphInfo)
      .def("call_results", &PyModule::callResults)
      .def("graph_names", [](PyModule& self) { return self.call().graphNames(); })
      .def("set_options", &PyModule::setOptions, py::arg("replication"), py::arg("num_host_transfers"), py::arg("seed") = 0)
      .def("warnings", [](PyModule& self) { return self.call().takeWarnings(); })
      .def("text", [](PyModule& self) { return self.call().print(); })
      .def("verify", [](PyModule& self) { check(self.call().verify()); })
      .def("run_passes", [](PyModule& self, const std::vector<std::string>& passes) { check(self.call().runPasses(passes)); });

  py::class_<PySession>(m, "Session")
      .def(py::init<std::shared_ptr<PyModule>, int>(), py::arg("module"), py::arg("threads") = 0)
      .def("feed", &PySession::feed)
      .def("write", &PySession::write)
      .def("run", &PySession::run, py::arg("times") = 1)
      .def("read", &PySession::read)
      .def("reset", &PySession::reset)
      .def("output", &PySession::output);

  m.def("op_table", &opTable);
  m.def("literal_text", &literalText);
}
