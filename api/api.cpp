// The public API (include/pir/pir.h) over the layers: statements and commands
// become the parser's items (frontend/ast.h) and go through the one Builder, so
// a program built here is checked exactly as its text would be; sessions run
// through the SessionDriver, as `pir run` does.
#include "pir/pir.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <type_traits>

#include "api/pass_runner.h"
#include "api/public_types.h"
#include "api/session_driver.h"
#include "device/device_model.h"
#include "device/dot.h"
#include "frontend/builder.h"
#include "frontend/parser.h"
#include "frontend/recovery.h"
#include "ir/context.h"
#include "ir/number_format.h"
#include "ir/printer.h"
#include "ir/rewriter.h"
#include "ir/suggest.h"
#include "ir/verifier.h"
#include "passes/pass_manager.h"
#include "vm/format.h"
#include "vm/host_memory.h"
#include "vm/npy.h"
#include "vm/session.h"
#include "vm/tensor.h"

namespace pir::api {

namespace {

// Runs `body`; a reported error (CompileError) or any other exception becomes a
// failed Status carrying what was written to `text` since the start.
// The message of the first error `diags` recorded from index `from` on; `fallback` when none.
std::string firstErrorMessage(const DiagnosticEngine& diags, size_t from, const std::string& fallback) {
  const std::vector<Diagnostic>& all = diags.all();
  for (size_t i = from; i < all.size(); ++i)
    if (all[i].severity == Severity::Error) return all[i].message;
  return fallback;
}

// `body` returns void or LogicalResult: a failure() it returns has been
// reported, like the CompileError it may throw (a layer below that still unwinds).
template <class F>
Status guarded(std::ostringstream& text, const DiagnosticEngine& diags, F&& body) {
  text.str({});
  const size_t before = diags.all().size();
  auto reportedFailure = [&](const std::string& what) {
    std::string s = text.str();
    return Status::failure(s.empty() ? what : s, firstErrorMessage(diags, before, what));
  };
  try {
    if constexpr (std::is_same_v<std::invoke_result_t<F>, LogicalResult>) {
      if (body().failed()) return reportedFailure(firstErrorMessage(diags, before, "error"));
    } else {
      body();
    }
    return Status();
  } catch (const CompileError& e) {
    return reportedFailure(e.what());
  } catch (const std::bad_alloc& e) {
    // Sessions report budget refusals at the command; this is what escapes
    // them (parsing, compiling): a refusal of the host-memory budget says what
    // it refused.
    const std::string message =
        std::string("out of memory") +
        (dynamic_cast<const vm::HostMemoryExhausted*>(&e) ? std::string(": ") + e.what() : std::string());
    return Status::failure(text.str() + diags.format({Severity::Error, {}, message, {}}), message);
  } catch (const std::exception& e) {
    std::string s = text.str();
    return Status::failure(s + "error: " + e.what() + "\n", firstErrorMessage(diags, before, e.what()));
  }
}

std::shared_ptr<Literal> literalOf(const Tensor& t) {
  auto lit = std::make_shared<Literal>();
  lit->kind = Literal::Kind::Data;
  lit->shape = t.shape;
  lit->values = t.toDoubles();
  (t.dtype == DType::Bool ? lit->hasBool : lit->hasNumber) = true;
  return lit;
}

ast::Type astType(const Type& t) {
  ast::Type a;
  a.dtype = toIr(t.dtype);
  a.shape = t.shape;
  return a;
}

ast::Name astName(std::string text) { return ast::Name{std::move(text), {}}; }

ast::Operand astOperand(const Operand& o) {
  ast::Operand a;
  if (const Ref* r = std::get_if<Ref>(&o.what)) {
    const bool stream = !r->name.empty() && r->name[0] == '$';
    const bool sigil = !r->name.empty() && (r->name[0] == '$' || r->name[0] == '%');
    a.kind = stream ? ast::Operand::Kind::Resource : ast::Operand::Kind::Value;
    a.name = astName(sigil ? r->name.substr(1) : r->name);
  } else if (const double* d = std::get_if<double>(&o.what)) {
    a.kind = ast::Operand::Kind::Literal;
    a.literal = literalOf(Tensor::fromDoubles(DType::F64, {}, {*d}));
  } else {
    a.kind = ast::Operand::Kind::Literal;
    a.literal = literalOf(std::get<Tensor>(o.what));
  }
  return a;
}

Attr attrOf(const AttrValue& v) {
  struct Visit {
    Attr operator()(int64_t i) const { return Attr::integer(i); }
    Attr operator()(double f) const { return Attr::real(f); }
    Attr operator()(bool b) const { return Attr::boolean(b); }
    Attr operator()(const Word& w) const { return Attr::word(w.text); }
    Attr operator()(const std::string& s) const { return Attr::string(s); }
    Attr operator()(const GraphRef& g) const {
      Attr a;
      a.kind = Attr::Kind::Graph;
      a.s = g.name;
      return a;
    }
    Attr operator()(const std::vector<int64_t>& l) const {
      std::vector<Attr> items;
      for (int64_t i : l) items.push_back(Attr::integer(i));
      return Attr::list(std::move(items));
    }
    Attr operator()(const std::vector<double>& l) const {
      std::vector<Attr> items;
      for (double f : l) items.push_back(Attr::real(f));
      return Attr::list(std::move(items));
    }
  };
  return std::visit(Visit{}, v);
}

AttrDict attrDict(const Attrs& attrs) {
  AttrDict d;
  for (const auto& [key, value] : attrs) d.set(key, attrOf(value));
  return d;
}

Tensor tensorOf(const vm::HostTensor& h) {
  Tensor t;
  t.dtype = fromIr(h.type.dtype);
  t.shape = h.type.shape;
  t.bytes.resize(h.bytes.size());
  if (!t.bytes.empty()) std::memcpy(t.bytes.data(), h.data(), t.bytes.size());
  return t;
}

}  // namespace

// ---- tensors ----------------------------------------------------------------------

int64_t Tensor::numElements() const { return pir::numElements(shape); }

Tensor Tensor::fromDoubles(DType dtype, std::vector<int64_t> shape, const std::vector<double>& values) {
  vm::HostTensor h(TensorType{toIr(dtype), shape});
  for (int64_t i = 0; i < h.numElements() && static_cast<size_t>(i) < values.size(); ++i) h.set(i, values[i]);
  return tensorOf(h);
}

double Tensor::at(int64_t i) const { return vm::loadElement(bytes.data(), toIr(dtype), i); }

std::vector<double> Tensor::toDoubles() const {
  std::vector<double> v(static_cast<size_t>(std::max<int64_t>(0, numElements())));
  for (size_t i = 0; i < v.size(); ++i) v[i] = at(static_cast<int64_t>(i));
  return v;
}

std::string Tensor::format(const std::string& name) const {
  return vm::formatValueLine(name, toIr(dtype), shape, bytes.data());
}

std::string Tensor::literal() const {
  const int64_t n = numElements();
  std::string out;
  out.reserve(static_cast<size_t>(std::max<int64_t>(n, 0)) * 6 + 16);
  if (shape.empty()) {
    appendNumber(out, at(0), toIr(dtype));
    return out;
  }
  if (n == 0) return "[]";
  std::vector<int64_t> index(shape.size(), 0);
  out.append(shape.size(), '[');
  for (int64_t i = 0; i < n; ++i) {
    appendNumber(out, at(i), toIr(dtype));
    size_t closed = 0;  // the dimensions this element ends
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
      ++closed;
    }
    out.append(closed, ']');
    if (i + 1 < n) {
      out += ", ";
      out.append(closed, '[');
    }
  }
  return out;
}

bool TensorView::contiguous() const {
  int64_t step = dtypeSize(toIr(dtype));
  for (size_t d = byteStrides.size(); d-- > 0;) {
    if (shape[d] != 1 && byteStrides[d] != step) return false;
    step *= shape[d];
  }
  return byteStrides.empty() || byteStrides.size() == shape.size();
}

struct SharedTensor::Impl {
  vm::HostTensor tensor;
};

DType SharedTensor::dtype() const { return fromIr(impl_->tensor.type.dtype); }
const std::vector<int64_t>& SharedTensor::shape() const { return impl_->tensor.type.shape; }
const std::byte* SharedTensor::data() const { return impl_->tensor.bytes.data(); }
size_t SharedTensor::byteSize() const { return impl_->tensor.bytes.size(); }
Tensor SharedTensor::copy() const { return tensorOf(impl_->tensor); }

std::optional<DType> dtypeFromName(std::string_view name) {
  auto parsed = parseDType(name);
  if (!parsed) return std::nullopt;
  return fromIr(parsed->dtype);
}

std::string dtypeToString(DType dtype) { return std::string(pir::dtypeName(toIr(dtype))); }

Result<Tensor> loadNpy(const std::string& path) {
  try {
    return tensorOf(vm::readNpy(path).tensor);
  } catch (const std::exception& e) {
    return Status::failure(std::string("error: ") + e.what() + "\n");
  }
}

Status saveNpy(const std::string& path, const Tensor& tensor) {
  if (static_cast<int64_t>(tensor.bytes.size()) != tensor.numElements() * dtypeSize(toIr(tensor.dtype)))
    return Status::failure("error: save " + path + ": " + std::to_string(tensor.bytes.size()) +
                           " bytes do not hold a " + dtypeToString(tensor.dtype) + shapeToString(tensor.shape) + "\n");
  try {
    vm::writeNpy(path, toIr(tensor.dtype), tensor.shape, tensor.bytes.data());
    return Status();
  } catch (const std::exception& e) {
    return Status::failure(std::string("error: ") + e.what() + "\n");
  }
}

// ---- context ------------------------------------------------------------------------

Context::Context(ContextOptions options) : options_(options), runtime_(std::make_unique<pir::Context>()) {
  ContextScope scope(*runtime_);
  if (options_.maxMemory) runtime_->memory().setLimit(options_.maxMemory);
  else runtime_->useMemoryOf(defaultContext());
  registerDriverPasses();
}
Context::~Context() = default;
std::vector<std::string> Context::passNames() const {
  ContextScope scope(*runtime_);
  return availablePasses();
}
void Context::interrupt() { runtime_->interrupt(); }
void Context::clearInterrupt() { runtime_->clearInterrupt(); }
uint64_t Context::hostMemoryInUse() const { return runtime_->memory().inUse(); }
uint64_t Context::hostMemoryLimit() const { return runtime_->memory().limit(); }

std::vector<PassInfo> Context::passes() const {
  (void)availablePasses();  // the passes above passes/ join the table
  std::vector<PassInfo> list;
  for (const passes::PassInfo& p : passes::registeredPasses()) list.push_back(PassInfo{std::string(p.name), std::string(p.summary)});
  return list;
}

Result<std::vector<std::string>> Context::parsePipeline(std::string_view list) const {
  (void)availablePasses();
  std::string problem;
  std::optional<passes::Pipeline> pipeline = passes::parsePipeline(list, problem);
  if (!pipeline) return Status::failure(problem, problem);
  std::vector<std::string> names;
  for (const passes::PassInfo* p : *pipeline) names.emplace_back(p->name);
  return names;
}

// ---- the op table ---------------------------------------------------------------------

namespace {

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

}  // namespace

std::vector<OpSpec> opTable() {
  std::vector<OpSpec> table;
  for (int c = 0; c < ::pir::kNumOpCodes; ++c) {
    const OpInfo& info = opInfo(static_cast<::pir::OpCode>(c));
    if (info.has(F_DECL) || info.has(F_REGION)) continue;
    OpSpec spec{fromIr(info.code), std::string(info.name), info.operandNames, info.minOperands, info.maxOperands,
                info.has(F_INPLACE), info.has(F_CONTROL), {}, {}};
    for (const OperandSpec& o : info.operands)
      spec.operands.push_back(OpOperandSpec{std::string(o.name), o.role == OperandRole::Resource});
    for (const AttrSpec& a : info.attrs) {
      OpAttrSpec attr{std::string(a.name), attrTypeName(a.type), a.presence == AttrPresence::Required, {}};
      for (const auto& word : a.enumValues) attr.enumValues.emplace_back(word);
      spec.attrs.push_back(std::move(attr));
    }
    table.push_back(std::move(spec));
  }
  return table;
}

// ---- modules ------------------------------------------------------------------------

struct Module::Impl {
  Context* context;
  SourceManager sources;
  DiagnosticEngine diags{sources};
  std::ostringstream text;  // the diagnostics of the current call
  pir::Module module;
  Script script;
  std::string baseDir = ".";
  std::unique_ptr<Builder> builder;  // statements added after the parse
  std::string openGraph;

  explicit Impl(Context& c) : context(&c) {
    diags.setStream(&text);
    switch (c.options().warnings) {
      case Warnings::Report: diags.setWarningPolicy(WarningPolicy::Report); break;
      case Warnings::Error: diags.setWarningPolicy(WarningPolicy::Error); break;
      case Warnings::Ignore: diags.setWarningPolicy(WarningPolicy::Ignore); break;
    }
  }

  Builder& build() {
    if (!builder) {
      BuildOptions options;
      options.autodiff = autodiffTransform();
      builder = std::make_unique<Builder>(module, diags, baseDir, options);
    }
    return *builder;
  }
  // One building call: all or nothing.
  std::string warnings;  // of the calls that succeeded, until takeWarnings
  template <class F>
  Status change(F&& body) {
    ContextScope scope(context->runtime());
    pir::Module::Checkpoint cp = module.checkpoint();
    Status s = guarded(text, diags, [&] { return body(build()); });
    if (!s) module.rollback(cp);
    else warnings += text.str();
    return s;
  }
  Graph& current() { return openGraph.empty() ? *module.main : *module.findGraph(openGraph); }
  // The graph a reading call names: "" or "main" is the main graph.
  Graph* graphNamed(const std::string& name) const {
    return name.empty() || name == "main" ? module.main.get() : module.findGraph(name);
  }
  std::vector<Ref> resultsOf(const Op& op) const {
    std::vector<Ref> refs;
    for (const Value* v : op.results) refs.push_back(Ref{"%" + v->name});
    return refs;
  }
};

Module::Module(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Module::Module(Module&&) noexcept = default;
Module& Module::operator=(Module&&) noexcept = default;
Module::~Module() = default;

Module Module::create(Context& context, std::string baseDir) {
  auto impl = std::make_unique<Impl>(context);
  impl->baseDir = std::move(baseDir);
  return Module(std::move(impl));
}

Result<Module> Module::parse(Context& context, std::string_view text, std::string name, std::string baseDir) {
  auto impl = std::make_unique<Impl>(context);
  impl->baseDir = std::move(baseDir);
  const uint32_t file = impl->sources.add(std::move(name), std::string(text));
  Impl& m = *impl;
  ContextScope scope(context.runtime());
  Status s = guarded(m.text, m.diags, [&] {
    BuildOptions options;
    options.autodiff = autodiffTransform();
    return buildFromBuffer(m.module, m.diags, file, m.baseDir, &m.script, options);
  });
  if (!s) return s;
  m.warnings = m.text.str();
  return Module(std::move(impl));
}

Result<Module> Module::parseFile(Context& context, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::failure("error: cannot read " + path + "\n");
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/') + 1);
  return parse(context, buffer.str(), path, dir);
}

Result<std::string> Module::check(Context& context, std::string_view text, std::string name, std::string baseDir) {
  return check(context, std::string(text), std::move(name), std::move(baseDir), false);
}

Result<std::string> Module::check(Context& context, std::string&& text, std::string name, std::string baseDir,
                                  bool leaveToExit) {
  ContextScope scope(context.runtime());
  auto impl = std::make_unique<Impl>(context);
  Impl& m = *impl;
  const uint32_t file = m.sources.add(std::move(name), std::move(text));
  Status s = guarded(m.text, m.diags, [&] {
    return successIf(buildWithRecovery(m.module, m.diags, file, baseDir, kMaxReportedErrors, autodiffTransform()));
  });
  Result<std::string> result = s ? Result<std::string>(m.text.str()) : Result<std::string>(s);
  // Reclaimed by the process exit, not freed piecewise; but not under
  // AddressSanitizer, whose leak check at exit would report the module.
#if defined(__SANITIZE_ADDRESS__)
  leaveToExit = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  leaveToExit = false;
#endif
#endif
  if (leaveToExit) (void)impl.release();
  return result;
}

std::string Module::print() const { return printModule(impl_->module); }

Status Module::verify() const {
  return guarded(impl_->text, impl_->diags, [&] { return verifyModule(impl_->module, impl_->diags); });
}

Status Module::runPasses(const std::vector<std::string>& passes, bool verifyEach, std::ostream* printAfterEach) {
  ContextScope scope(impl_->context->runtime());
  const std::vector<std::string> known = availablePasses();
  for (const std::string& p : passes)
    if (std::find(known.begin(), known.end(), p) == known.end())
      return Status::failure("error: unknown pass '" + p + "'\n");
  // The module's script reads these main values: passes keep them.
  const std::set<std::string> namesRead = mainValuesReadBy(impl_->script);
  return impl_->change([&](Builder&) {
    return successIf(pir::runPasses(impl_->module, passes, impl_->diags, verifyEach, printAfterEach, &namesRead)
                         .succeeded() &&
                     verifyModule(impl_->module, impl_->diags).succeeded());
  });
}

size_t Module::scriptLength() const { return impl_->script.size(); }

std::vector<std::string> Module::scriptCommands() const {
  std::vector<std::string> words;
  for (const ScriptCommand& c : impl_->script) {
    switch (c.command.kind) {
      case SessionCommand::Kind::Feed: words.emplace_back("feed"); break;
      case SessionCommand::Kind::Run: words.emplace_back("run"); break;
      case SessionCommand::Kind::Print: words.emplace_back("print"); break;
      case SessionCommand::Kind::Write: words.emplace_back("write"); break;
      case SessionCommand::Kind::Save: words.emplace_back("save"); break;
    }
  }
  return words;
}

std::string Module::takeWarnings() { return std::exchange(impl_->warnings, {}); }

namespace {

Type typeOf(const TensorType& t) { return Type{fromIr(t.dtype), t.shape}; }

std::string bareName(const std::string& name, char sigil) {
  return !name.empty() && name[0] == sigil ? name.substr(1) : name;
}

Status unknownGraph(const std::string& name) { return Status::failure("error: unknown graph @" + name + "\n"); }

}  // namespace

Result<Type> Module::typeOf(const std::string& name, const std::string& graph) const {
  if (!name.empty() && name[0] == '$') {
    const Resource* r = impl_->module.findResource(name.substr(1));
    if (!r) return Status::failure("error: unknown stream or remote buffer " + name + "\n");
    return api::typeOf(r->type);
  }
  const Graph* g = impl_->graphNamed(graph);
  if (!g) return unknownGraph(graph);
  const Value* v = g->lookup(bareName(name, '%'));
  if (!v) return Status::failure("error: unknown value %" + bareName(name, '%') + " in @" + g->name + "\n");
  return api::typeOf(v->type);
}

Result<std::string> Module::dot(const std::string& graph) const {
  const Graph* only = nullptr;
  if (!graph.empty()) {
    only = impl_->graphNamed(graph);
    if (!only) return unknownGraph(graph);
  }
  return device::dotOfModule(impl_->module, only);
}

std::vector<ResourceInfo> Module::resources() const {
  std::vector<ResourceInfo> list;
  for (const auto& r : impl_->module.resources) {
    ResourceInfo info;
    info.name = r->name;
    info.kind = r->kind == Resource::Kind::H2D   ? ResourceInfo::Kind::HostToDevice
                : r->kind == Resource::Kind::D2H ? ResourceInfo::Kind::DeviceToHost
                                                 : ResourceInfo::Kind::RemoteBuffer;
    info.type = api::typeOf(r->type);
    info.entries = r->entries;
    list.push_back(std::move(info));
  }
  return list;
}

std::vector<std::string> Module::graphNames() const {
  std::vector<std::string> names;
  for (const auto& g : impl_->module.graphs) names.push_back(g->name);
  return names;
}

Result<GraphInfo> Module::graphInfo(const std::string& graph) const {
  const Graph* g = impl_->graphNamed(graph);
  if (!g) return unknownGraph(graph);
  GraphInfo info;
  info.name = g->name;
  for (const Value* p : g->params) info.params.push_back(Param{p->name, api::typeOf(p->type), p->byRef});
  for (const TensorType& t : g->outputTypes) info.outputs.push_back(api::typeOf(t));
  for (const pir::Operand& r : g->returns)
    info.returns.push_back(r.kind() == pir::Operand::Kind::Value ? std::optional<Ref>(Ref{"%" + r.value()->name})
                                                               : std::nullopt);
  for (const Value* a : g->activations) info.activations.push_back(Ref{"%" + a->name});
  if (g->gradOf) info.gradientOf = g->gradOf->name;
  return info;
}

Result<std::vector<TypedRef>> Module::labelledResults(const std::string& graph, const std::string& label) const {
  const Graph* g = impl_->graphNamed(graph);
  if (!g) return unknownGraph(graph);
  for (const auto& op : g->ops)
    if (op->label() == label) {
      std::vector<TypedRef> results;
      for (const Value* v : op->results) results.push_back(TypedRef{Ref{"%" + v->name}, api::typeOf(v->type)});
      return results;
    }
  return Status::failure("error: no op labelled '" + label + "' in @" + g->name + "\n");
}

ModuleOptions Module::options() const {
  const IrOptions& o = impl_->module.options;
  return ModuleOptions{o.replication, o.numHostTransfers, o.seed};
}

Status Module::setOptions(const ModuleOptions& options) {
  IrOptions o = impl_->module.options;
  o.replication = options.replication;
  o.numHostTransfers = options.numHostTransfers;
  o.seed = options.seed;
  return impl_->change([&](Builder&) {
    checkIrOptions(o, impl_->diags);
    pir::setOptions(impl_->module, o);
  });
}

Status Module::add(std::string_view text, std::string name) {
  Impl& m = *impl_;
  const uint32_t file = m.sources.add(std::move(name), std::string(text));
  Status s = m.change([&](Builder& b) {
    try {
      parseBuffer(file, b, m.diags);
    } catch (...) {
      b.takeCommands();
      // A graph item the text opened goes; a graph beginGraph opened stays open.
      if (m.openGraph.empty()) b.reset();
      throw;
    }
    Script commands = b.takeCommands();
    m.script.insert(m.script.end(), std::make_move_iterator(commands.begin()), std::make_move_iterator(commands.end()));
  });
  return s;
}

Result<std::vector<Type>> Module::resultTypes(const std::vector<Param>& params, std::string_view text, std::string name) {
  Impl& m = *impl_;
  if (!m.openGraph.empty())
    return Status::failure("error: resultTypes: @" + m.openGraph + " is open (endGraph or abandonGraph it first)\n");
  std::string probe = "probe";
  for (int i = 1; m.module.findGraph(probe); ++i) probe = "probe_" + std::to_string(i);
  // A probe's op is read by nothing: its warnings say nothing about the program.
  const std::string warnings = m.warnings;
  Result<std::vector<Ref>> opened = beginGraph(probe, params);
  if (!opened) return opened.status();
  std::vector<Type> types;
  Status s = add(text, std::move(name));
  m.warnings = warnings;
  if (s) {
    const Graph& g = m.current();
    if (g.ops.empty()) s = Status::failure("error: resultTypes: the text holds no op\n");
    else
      for (const Value* v : g.ops.back()->results) types.push_back(api::typeOf(v->type));
  }
  (void)abandonGraph();
  if (!s) return s;
  return types;
}

Status Module::declareRemoteBuffer(const std::string& name, const Type& type, int64_t entries) {
  return impl_->change([&](Builder& b) {
    ast::RemoteBufferDecl d;
    d.name = astName(name);
    d.type = astType(type);
    d.attrs.set("entries", Attr::integer(entries));
    b.remoteBuffer(std::move(d));
  });
}

const std::string& Module::openGraph() const { return impl_->openGraph; }

Status Module::abandonGraph() {
  if (impl_->openGraph.empty()) return Status::failure("error: abandonGraph: no graph is open\n");
  impl_->build().reset();
  impl_->openGraph.clear();
  return Status();
}

Status Module::declareStream(const std::string& name, StreamDirection direction, const Type& type) {
  return impl_->change([&](Builder& b) {
    ast::StreamDecl d;
    d.h2d = direction == StreamDirection::HostToDevice;
    d.name = astName(name);
    d.type = astType(type);
    b.stream(std::move(d));
  });
}

Result<Ref> Module::variable(const std::string& name, const Type& type, const Tensor& init) {
  Status s = impl_->change([&](Builder& b) {
    ast::DeclStmt d;
    d.isConst = false;
    d.name = astName(name);
    d.type = astType(type);
    d.init = literalOf(init);
    b.statement(std::move(d));
  });
  if (!s) return s;
  return Ref{"%" + name};
}

Result<Ref> Module::constant(const std::string& name, const Tensor& data) {
  Status s = impl_->change([&](Builder& b) {
    ast::DeclStmt d;
    d.isConst = true;
    d.name = astName(name);
    d.type = astType(Type{data.dtype, data.shape});
    d.init = literalOf(data);
    b.statement(std::move(d));
  });
  if (!s) return s;
  return Ref{"%" + name};
}

Result<std::vector<Ref>> Module::op(OpCode code, const std::vector<Operand>& operands, const Attrs& attrs,
                                    const std::vector<std::string>& resultNames) {
  std::vector<Ref> results;
  Status s = impl_->change([&](Builder& b) {
    ast::OpStmt st;
    st.opName = std::string(opName(toIr(code)));
    for (const std::string& n : resultNames) st.results.push_back(astName(n));
    for (const Operand& o : operands) st.operands.push_back(astOperand(o));
    st.attrs = attrDict(attrs);
    b.statement(std::move(st));
    results = impl_->resultsOf(*impl_->current().ops.back());
  });
  if (!s) return s;
  return results;
}

Result<Ref> Module::op1(OpCode code, const std::vector<Operand>& operands, const Attrs& attrs,
                        const std::string& resultName) {
  auto r = op(code, operands, attrs, resultName.empty() ? std::vector<std::string>{} : std::vector{resultName});
  if (!r) return r.status();
  if (r->size() != 1)
    return Status::failure("error: " + std::string(opName(toIr(code))) + " has " + std::to_string(r->size()) +
                           " results, not one\n");
  return r->front();
}

Result<std::vector<Ref>> Module::call(const std::string& graph, const std::vector<Operand>& args,
                                      const std::vector<std::string>& resultNames) {
  std::vector<Ref> results;
  Status s = impl_->change([&](Builder& b) {
    ast::OpStmt st;
    st.opName = std::string(opName(::pir::OpCode::Call));
    for (const std::string& n : resultNames) st.results.push_back(astName(n));
    ast::Operand callee;
    callee.kind = ast::Operand::Kind::Call;
    callee.call = std::make_shared<ast::CallExpr>();
    callee.call->graph = astName(graph);
    for (const Operand& a : args) callee.call->args.push_back(astOperand(a));
    st.operands.push_back(std::move(callee));
    b.statement(std::move(st));
    results = impl_->resultsOf(*impl_->current().ops.back());
  });
  if (!s) return s;
  return results;
}

Result<std::vector<Ref>> Module::beginGraph(const std::string& name, const std::vector<Param>& params) {
  if (!impl_->openGraph.empty())
    return Status::failure("error: graph definitions do not nest (@" + impl_->openGraph + " is open)\n");
  std::vector<Ref> refs;
  Status s = impl_->change([&](Builder& b) {
    ast::GraphHeader h;
    h.name = astName(name);
    for (const Param& p : params) {
      h.params.push_back(ast::Param{astName(p.name), p.byRef, astType(p.type)});
      refs.push_back(Ref{"%" + p.name});
    }
    b.beginGraph(std::move(h));
  });
  if (!s) {
    impl_->build().reset();
    return s;
  }
  impl_->openGraph = name;
  return refs;
}

Status Module::endGraph(const std::vector<Operand>& returns) {
  if (impl_->openGraph.empty()) return Status::failure("error: endGraph: no graph is open\n");
  Status s = impl_->change([&](Builder& b) {
    if (!returns.empty() || !impl_->current().hasReturn) {
      ast::ReturnStmt r;
      for (const Operand& o : returns) r.values.push_back(astOperand(o));
      b.statement(std::move(r));
    }
    b.endGraph({});
  });
  if (s) impl_->openGraph.clear();
  return s;
}

Status Module::autodiff(const std::string& forward, const std::string& gradient, const Attrs& attrs) {
  return impl_->change([&](Builder& b) {
    ast::AutodiffItem item;
    item.fwd = astName(forward);
    item.grad = astName(gradient);
    item.attrs = attrDict(attrs);
    b.autodiff(std::move(item));
  });
}

// ---- sessions ---------------------------------------------------------------------------

namespace {

// Points the session back at the source module when a call ends, however it
// ends (SessionDriver::release).
struct ReleaseAtExit {
  SessionDriver& driver;
  ~ReleaseAtExit() { driver.release(); }
};

}  // namespace

struct Session::Impl {
  Module::Impl* m;
  SessionOptions options;
  std::optional<std::set<std::string>> keptMainNames;  // stopAtFirstError: what reads may name
  std::ostringstream out;
  std::unique_ptr<vm::Session> session;
  std::unique_ptr<SessionDriver> driver;

  // Runs the commands the builder just read (already checked), after the parse,
  // up to the first that fails.
  LogicalResult runRead() {
    for (const ScriptCommand& c : m->build().takeCommands())
      if (driver->command(c).failed()) return failure();
    return success();
  }
  template <class F>
  Status command(F&& body) {
    ContextScope scope(m->context->runtime());
    ReleaseAtExit release{*driver};
    return guarded(m->text, m->diags, [&]() -> LogicalResult {
      try {
        body(m->build());
      } catch (...) {
        m->build().takeCommands();
        throw;
      }
      return runRead();
    });
  }
};

Session::Session(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

Result<Session> Session::create(Context& context, Module& module, const SessionOptions& sessionOptions) {
  ContextScope scope(context.runtime());
  const std::vector<std::string> known = availablePasses();
  for (const std::string& p : sessionOptions.passes)
    if (std::find(known.begin(), known.end(), p) == known.end())
      return Status::failure("error: unknown pass '" + p + "'\n");
  auto impl = std::make_unique<Impl>();
  impl->m = module.impl_.get();
  impl->options = sessionOptions;
  vm::SessionOptions options;
  options.threads = context.options().threads;
  options.maxSteps = context.options().maxSteps;
  options.fuseElementwise = context.options().fuseElementwise;
  options.lowering = &lowerForCompile;
  options.trace = sessionOptions.trace;
  if (sessionOptions.stopAtFirstError) {
    // The script stops at its first error, so a failed run needs no backup; and
    // only the main values a command reads are kept.
    options.restoreOnFailure = false;
    impl->keptMainNames = mainValuesReadBy(impl->m->script);
    for (const std::string& name : sessionOptions.alsoRead) impl->keptMainNames->insert(bareName(name, '%'));
    options.keptMainNames = impl->keptMainNames;
  }
  std::ostream& out = sessionOptions.output ? *sessionOptions.output : impl->out;
  impl->session = std::make_unique<vm::Session>(impl->m->module, impl->m->diags, out, options);
  impl->driver = std::make_unique<SessionDriver>(impl->m->module, *impl->session, impl->m->diags, sessionOptions.passes,
                                                 sessionOptions.verifyEach,
                                                 impl->keptMainNames ? &*impl->keptMainNames : nullptr);
  return Session(std::move(impl));
}

Status Session::feed(const std::string& stream, const Tensor& tensor) {
  return impl_->command([&](Builder& b) {
    ast::FeedCmd c;
    c.stream = astName(!stream.empty() && stream[0] == '$' ? stream.substr(1) : stream);
    c.data = literalOf(tensor);
    b.feed(std::move(c));
  });
}

Status Session::feed(const std::string& stream, const TensorView& data) {
  ContextScope scope(impl_->m->context->runtime());
  Impl& s = *impl_;
  int64_t elements = 1;
  for (int64_t d : data.shape) {
    if (d < 0) return Status::failure("error: feed " + stream + ": a dimension of the data is negative\n");
    elements = d == 0 || elements == 0 ? 0 : (elements > INT64_MAX / d ? INT64_MAX : elements * d);
  }
  if (!data.data && elements != 0) return Status::failure("error: feed " + stream + ": the data pointer is null\n");
  return guarded(s.m->text, s.m->diags, [&] {
    s.driver->release();
    return s.session->feedMemory(bareName(stream, '$'), toIr(data.dtype), data.shape, data.byteStrides, data.data, {});
  });
}

Status Session::run(int64_t times) {
  ContextScope scope(impl_->m->context->runtime());
  if (times < 0) return Status::failure("error: run: the count must be >= 0, got " + std::to_string(times) + "\n");
  Impl& s = *impl_;
  // The command the builder would record for `run N`, without a text to read.
  ScriptCommand c;
  c.command.kind = SessionCommand::Kind::Run;
  c.command.count = times;
  c.point = s.m->module.point();
  ReleaseAtExit release{*s.driver};
  return guarded(s.m->text, s.m->diags, [&] { return s.driver->command(c); });
}

Status Session::runScript() {
  ContextScope scope(impl_->m->context->runtime());
  Impl& s = *impl_;
  return guarded(s.m->text, s.m->diags, [&]() -> LogicalResult {
    // After a failure the session stays on the program of the failed command.
    if (s.driver->run(s.m->script).failed() || s.driver->finish().failed()) return failure();
    s.driver->release();
    return success();
  });
}

namespace {

// The `$NAME` or `%NAME` a save names (a bare name: the stream if there is one,
// else the main value); fails (reported) when there is none. `what` prefixes the messages.
std::string saveTarget(const pir::Module& module, DiagnosticEngine& diags, const std::string& what,
                       const std::string& name) {
  std::string target = name;
  if (target.empty()) diags.fail({}, what + ": no name");
  if (target[0] != '$' && target[0] != '%') {
    if (module.findResource(target)) target = "$" + target;
    else if (module.main->lookup(target)) target = "%" + target;
    else diags.fail({}, what + ": no stream $" + target + " and no main-graph value %" + target);
  }
  const std::string bare = target.substr(1);
  if (target[0] == '$' && !module.findResource(bare))
    diags.fail({}, what + ": unknown stream " + target + suggestResource(module, bare));
  if (target[0] == '%' && !module.main->lookup(bare))
    diags.fail({}, what + ": unknown main-graph value " + target + suggestValue(*module.main, bare));
  return target;
}

std::string feedWhat(const std::pair<std::string, std::string>& f) { return "--feed " + f.first + "=" + f.second; }
std::string saveWhat(const std::pair<std::string, std::string>& s) { return "--save " + s.first + "=" + s.second; }

}  // namespace

Status Session::runScript(const ScriptData& data) {
  ContextScope scope(impl_->m->context->runtime());
  Impl& s = *impl_;
  const pir::Module& module = s.m->module;
  DiagnosticEngine& diags = s.m->diags;
  bool fed = false;
  // Before the first `run` (or the default run, or at the end): the saves are
  // checked, so a --save that names nothing fails before a long run; the feeds happen.
  auto feedOnce = [&]() -> LogicalResult {
    if (fed) return success();
    fed = true;
    for (const auto& save : data.saves) saveTarget(module, diags, saveWhat(save), save.first);
    for (const auto& f : data.feeds) {
      const std::string what = feedWhat(f);
      const std::string name = bareName(f.first, '$');
      const Resource* r = module.findResource(name);
      if (!r) diags.fail({}, what + ": unknown stream $" + name + suggestResource(module, name));
      if (r->kind != Resource::Kind::H2D) {
        std::vector<Note> notes;
        if (r->loc.valid()) notes.push_back({r->loc, "$" + r->name + " is declared here"});
        diags.fail({}, what + ": $" + name + " is not an h2d stream", std::move(notes));
      }
      Literal literal;
      literal.kind = Literal::Kind::Load;
      literal.path = literal.resolvedPath = f.second;
      if (s.session->feed(name, literal, {}).failed()) return failure();
    }
    return success();
  };
  ReleaseAtExit release{*s.driver};
  return guarded(s.m->text, diags, [&]() -> LogicalResult {
    for (const ScriptCommand& c : s.m->script) {
      if (c.command.kind == SessionCommand::Kind::Run && feedOnce().failed()) return failure();
      if (s.driver->command(c).failed()) return failure();
    }
    if (feedOnce().failed()) return failure();
    return s.driver->finish();
  });
}

Status Session::save(const std::string& name, const std::string& path, const std::string& what) {
  ContextScope scope(impl_->m->context->runtime());
  Impl& s = *impl_;
  return guarded(s.m->text, s.m->diags, [&] {
    s.driver->release();
    const std::string target = saveTarget(s.m->module, s.m->diags, what.empty() ? "save " + name : what, name);
    return s.session->save(target, path, {});
  });
}

Result<Tensor> Session::read(const std::string& name) {
  ContextScope scope(impl_->m->context->runtime());
  std::string target = name;
  if (target.empty() || (target[0] != '$' && target[0] != '%'))
    target = (impl_->m->module.findResource(name) ? "$" : "%") + name;
  Tensor t;
  Status s = guarded(impl_->m->text, impl_->m->diags, [&]() -> LogicalResult {
    FailureOr<vm::HostTensor> value = impl_->session->valueOf(target, {});
    if (value.failed()) return failure();
    t = tensorOf(*value);
    return success();
  });
  if (!s) return s;
  return t;
}

Result<SharedTensor> Session::readShared(const std::string& name) {
  ContextScope scope(impl_->m->context->runtime());
  std::string target = name;
  if (target.empty() || (target[0] != '$' && target[0] != '%'))
    target = (impl_->m->module.findResource(name) ? "$" : "%") + name;
  auto impl = std::make_shared<SharedTensor::Impl>();
  Status s = guarded(impl_->m->text, impl_->m->diags, [&]() -> LogicalResult {
    FailureOr<vm::HostTensor> value = impl_->session->valueOf(target, {});
    if (value.failed()) return failure();
    impl->tensor = std::move(*value);
    return success();
  });
  if (!s) return s;
  return SharedTensor(std::move(impl));
}

Status Session::reset() {
  ContextScope scope(impl_->m->context->runtime());
  Impl& s = *impl_;
  return guarded(s.m->text, s.m->diags, [&] {
    s.driver->release();
    return s.session->reset();
  });
}

Status Session::write(const std::string& variable, const Tensor& tensor) {
  return impl_->command([&](Builder& b) {
    ast::WriteCmd c;
    c.var = astName(!variable.empty() && variable[0] == '%' ? variable.substr(1) : variable);
    c.data = literalOf(tensor);
    b.write(std::move(c));
  });
}

std::string Session::takeOutput() {
  std::string s = impl_->out.str();
  impl_->out.str({});
  return s;
}

Result<std::string> Session::profile(bool json) {
  ContextScope scope(impl_->m->context->runtime());
  std::string report;
  Module::Impl& m = *impl_->m;
  Status s = guarded(m.text, m.diags, [&]() -> LogicalResult {
    if (device::checkDeviceMemory(m.module, m.diags).failed()) return failure();
    FailureOr<device::Profile> p = device::profileModule(m.module, m.diags, impl_->driver->runs());
    if (p.failed()) return failure();
    report = json ? device::profileJson(*p, m.sources) : device::formatProfile(*p, m.sources, false);
    return success();
  });
  if (!s) return s;
  return report;
}

Result<ProfileReports> Session::profileReports(const ProfileRequest& request) {
  ContextScope scope(impl_->m->context->runtime());
  Impl& s = *impl_;
  Module::Impl& m = *s.m;
  ProfileReports reports;
  Status status = guarded(m.text, m.diags, [&]() -> LogicalResult {
    // A program that does not fit has no profile: the graph-compile error instead.
    std::unique_ptr<pir::Module> copy;
    const pir::Module* profiled = &m.module;
    if (!s.options.passes.empty()) {
      copy = m.module.clone();
      if (!pir::runPasses(*copy, s.options.passes, m.diags, false, nullptr,
                          s.keptMainNames ? &*s.keptMainNames : nullptr))
        return failure();
      profiled = copy.get();
    }
    if (device::checkDeviceMemory(*profiled, m.diags).failed()) return failure();
    FailureOr<device::Profile> p =
        device::profileModule(*profiled, m.diags, s.driver->runs(), &s.session->branchExecutions());
    if (p.failed()) return failure();
    if (request.text) reports.text = device::formatProfile(*p, m.sources, request.mapping);
    if (request.json) reports.json = device::profileJson(*p, m.sources);
    if (request.timeline) reports.timeline = device::timelineJson(*p);
    return success();
  });
  if (!status) return status;
  return reports;
}

Result<std::string> Session::disassemble(const std::string& graph) {
  ContextScope scope(impl_->m->context->runtime());
  Impl& s = *impl_;
  const Graph* only = nullptr;
  if (!graph.empty()) {
    only = s.m->graphNamed(graph);
    if (!only) return unknownGraph(graph);
  }
  std::string text;
  Status status = guarded(s.m->text, s.m->diags, [&]() -> LogicalResult {
    s.driver->release();
    FailureOr<std::string> bytecode = s.session->disassemble(only);
    if (bytecode.failed()) return failure();
    text = std::move(*bytecode);
    return success();
  });
  if (!status) return status;
  return text;
}

}  // namespace pir::api
