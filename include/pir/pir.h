// pir's public C++ API (docs/api.md): parse, print, verify and build a
// program, run passes, and run it in a session. The `pir` tool, the importers
// and the Python bindings are built over this header alone.
//
// Errors never abort and never go to stderr: every call that can fail returns
// a Status or a Result<T> whose error() is pir's diagnostics text, located
// (`FILE:LINE:COL: error: ...`, the source line and a caret, notes), exactly
// as the `pir` tool prints them.
//
// Ownership: a Context outlives the Modules made with it; a Module outlives
// the Sessions on it. None is shared between threads.
#pragma once
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "pir/tables.h"  // DType, OpCode, the enum attribute types (generated from ir/'s tables)

namespace pir {
class Context;  // ir/context.h
}  // namespace pir

namespace pir::api {

// ---- results ------------------------------------------------------------------

// Success, or the diagnostics text of the failure.
class [[nodiscard]] Status {
 public:
  Status() = default;  // success
  // `message`: the first error's message alone (message()); "" takes `diagnostics`.
  static Status failure(std::string diagnostics, std::string message = {}) {
    return Status(std::move(diagnostics), std::move(message));
  }
  bool ok() const { return !error_; }
  explicit operator bool() const { return ok(); }
  // The located diagnostics text (warnings of the same call included); "" on success.
  const std::string& error() const {
    static const std::string none;
    return error_ ? *error_ : none;
  }
  // The message of the first error alone, without location, source line or
  // notes ("unknown value %nope"), for a tool that words its own report; "" on success.
  const std::string& message() const { return message_.empty() ? error() : message_; }

 private:
  Status(std::string e, std::string m) : error_(std::move(e)), message_(std::move(m)) {}
  std::optional<std::string> error_;
  std::string message_;
};

// A value or the diagnostics text of the failure.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit, as std::expected
  Result(Status failure) : v_(std::move(failure)) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  // Precondition: ok().
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T* operator->() { return &value(); }
  T& operator*() { return value(); }
  const std::string& error() const {
    static const std::string none;
    return ok() ? none : std::get<1>(v_).error();
  }
  const std::string& message() const {
    static const std::string none;
    return ok() ? none : std::get<1>(v_).message();
  }
  Status status() const { return ok() ? Status() : std::get<1>(v_); }

 private:
  std::variant<T, Status> v_;
};

// ---- tensors ------------------------------------------------------------------

// A host tensor: dtype, shape and the row-major little-endian bytes
// (dtypeSize(dtype) bytes per element; f16 as IEEE binary16, bool as one byte 0/1).
struct Tensor {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;  // [] for a scalar
  std::vector<std::byte> bytes;

  int64_t numElements() const;
  // From numbers (each rounded to `dtype` as a literal in the text is).
  static Tensor fromDoubles(DType dtype, std::vector<int64_t> shape, const std::vector<double>& values);
  // Element i as a double (exact for every dtype).
  double at(int64_t i) const;
  std::vector<double> toDoubles() const;
  // The text `print` shows for it under `name` ("%w: f32[2] = [1, 2]").
  std::string format(const std::string& name) const;
  // Its data as a literal of the text (language.md §5): nested lists, each number
  // in the shortest form that reads back to the same element ("[[1, 0.5], [inf, -0]]").
  std::string literal() const;
};

// Tensor data the caller owns, borrowed for one call: `data` holds the elements
// of `shape` at `byteStrides` (one per dimension; empty: row-major contiguous).
// Nothing is kept after the call returns.
struct TensorView {
  DType dtype = DType::F32;
  std::span<const int64_t> shape;
  std::span<const int64_t> byteStrides;
  const void* data = nullptr;

  bool contiguous() const;
};

// Read-only tensor data that shares its storage with the session it came from
// (no copy is made). It keeps its value: a later run or write that changes the
// session's buffer gives the session a copy first. Cheap to copy (shared).
class SharedTensor {
 public:
  DType dtype() const;
  const std::vector<int64_t>& shape() const;
  const std::byte* data() const;  // row-major, dtypeSize(dtype()) bytes per element
  size_t byteSize() const;
  Tensor copy() const;

 private:
  friend class Session;
  struct Impl;
  explicit SharedTensor(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

// "f32", "i8", ...; nullopt for a word that is no dtype.
std::optional<DType> dtypeFromName(std::string_view name);
std::string dtypeToString(DType dtype);

Result<Tensor> loadNpy(const std::string& path);
Status saveNpy(const std::string& path, const Tensor& tensor);

// ---- context ------------------------------------------------------------------

// What a warning of the program does (`-Werror`, `-w`).
enum class Warnings { Report, Error, Ignore };

struct ContextOptions {
  int threads = 0;            // thread budget of a session (replicas x BLAS threads); 0: the hardware threads
  uint64_t maxSteps = 0;      // work budget per session (vm/session.h SessionOptions::maxSteps); 0: unlimited
  bool fuseElementwise = true;  // off: one VM instruction per op (`pir run --no-fuse`)
  Warnings warnings = Warnings::Report;  // of every program parsed or built in it
  // A host-memory budget of its own, in bytes; 0: the process's shared one
  // (3/4 of physical memory unless PIR_MAX_MEMORY or `--max-memory` set it).
  uint64_t maxMemory = 0;
};

// A pass of the pipeline, as `pir help opt` lists it.
struct PassInfo {
  std::string name;
  std::string summary;  // one line
};

// What a program is built and run with: the autodiff transform the front end
// runs at an `autodiff` directive, the pass registry, and the budgets and
// thread settings every session made in it takes.
class Context {
 public:
  explicit Context(ContextOptions options = {});
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  const ContextOptions& options() const { return options_; }
  // The pass names runPasses accepts, in `pir help opt` order.
  std::vector<std::string> passNames() const;
  // The same with their summaries.
  std::vector<PassInfo> passes() const;
  // A comma-separated pipeline ("inline, dce"; blanks and empty items ignored)
  // as the pass names in order; an unknown name fails with a message naming it,
  // the closest known name and the available passes (no location, no "error: ").
  Result<std::vector<std::string>> parsePipeline(std::string_view list) const;

  // Stops what runs in this context (a run, a parse, an NPY read) at its next
  // safe point with an "interrupted" error; other contexts go on. A Ctrl-C
  // (SIGINT, when the program's handler raises ir/interrupt.h's source) reaches
  // every context until one clears it. Callable from any thread;
  // clearInterrupt() forgets this context's request and the Ctrl-Cs so far.
  void interrupt();
  void clearInterrupt();
  // Host memory in use by this context's tensors, and its budget, in bytes.
  uint64_t hostMemoryInUse() const;
  uint64_t hostMemoryLimit() const;

  // Its state (budgets, thread settings, pass registry, interrupt state): what
  // every call made with this context runs under.
  pir::Context& runtime() const { return *runtime_; }

 private:
  ContextOptions options_;
  std::unique_ptr<pir::Context> runtime_;
};

// ---- modules --------------------------------------------------------------------

struct Type {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  // As the text writes it: "f32[2,3]", "f32[]".
  std::string str() const;
};

// A name in the program, with its sigil: "%x" (a value), "$x" (a stream).
struct Ref {
  std::string name;
};

// An operand of an op: a value or stream, a scalar literal (typed as the text's
// literals are: language.md §12), or a tensor literal.
struct Operand {
  std::variant<Ref, double, Tensor> what;
  Operand(Ref r) : what(std::move(r)) {}  // NOLINT
  Operand(double scalar) : what(scalar) {}  // NOLINT
  Operand(Tensor t) : what(std::move(t)) {}  // NOLINT
};

// An attribute value: integer, float, bool, enum word (Word{"sum"}, or the
// attribute's C++ enum: {"op", CollectiveOp::Max}), string, graph
// (GraphRef{"body"}), or a list of integers / floats.
struct Word {
  std::string text;
  Word() = default;
  explicit Word(std::string t) : text(std::move(t)) {}
  // An enumerator of an enum attribute type (ir/op_enums.def): its word.
  template <class E>
    requires requires { EnumWords<E>::kWords; }
  Word(E e) : text(enumWord(e)) {}  // NOLINT
};
struct GraphRef {
  std::string name;  // without '@'
};
using AttrValue = std::variant<int64_t, double, bool, Word, std::string, GraphRef, std::vector<int64_t>, std::vector<double>>;
using Attrs = std::vector<std::pair<std::string, AttrValue>>;

enum class StreamDirection { HostToDevice, DeviceToHost };

// A graph parameter: `%name: T`, or with byRef `%name: &T` (the callee's
// in-place updates reach the caller's value, language.md §9).
struct Param {
  std::string name;  // without '%'
  Type type;
  bool byRef = false;
};

// A value with its type.
struct TypedRef {
  Ref ref;
  Type type;
};

// What a graph is, as built (autodiff may have added outputs to a forward graph).
struct GraphInfo {
  std::string name;
  std::vector<Param> params;
  std::vector<Type> outputs;
  std::vector<std::optional<Ref>> returns;  // per output: the value returned; nullopt for a literal
  std::vector<Ref> activations;             // a gradient graph's: the forward values it reads
  std::optional<std::string> gradientOf;    // a gradient graph's forward graph
};

// The IR options of `ir {...}` (language.md §3) that a program built through
// the API sets directly.
struct ModuleOptions {
  int64_t replication = 1;
  int64_t numHostTransfers = 1;
  int64_t seed = 0;
};

// A stream or remote buffer of the program.
struct ResourceInfo {
  enum class Kind { HostToDevice, DeviceToHost, RemoteBuffer };
  std::string name;  // without '$'
  Kind kind = Kind::HostToDevice;
  Type type;
  int64_t entries = 0;  // a remote buffer's
};

// A row of the op table (ir/ops.def), as a statement names it.
struct OpOperandSpec {
  std::string name;
  bool resource = false;  // a `$stream` / `$buffer` operand
};
struct OpAttrSpec {
  std::string name;
  std::string type;  // "int", "float", "bool", "str", "dtype", "ints", "floats", "axes", "group", "graph", "values", "resource", "enum"
  bool required = false;
  std::vector<std::string> enumValues;  // the words of an "enum" attribute
};
struct OpSpec {
  OpCode code;
  std::string name;       // as written in the text ("add", "scaled_add_")
  std::string signature;  // the operands as language.md writes them
  int minOperands = 0, maxOperands = 0;  // maxOperands < 0: variadic
  bool inplace = false;   // updates its first operand
  bool control = false;   // call, repeat, conditional (operands include `@graph(args)`)
  std::vector<OpOperandSpec> operands;
  std::vector<OpAttrSpec> attrs;
};
// Every op a statement can name (declarations and region ops excluded), in
// ops.def order: a new row appears here by itself.
std::vector<OpSpec> opTable();

class Session;

// A program and its script (the session commands of its text). Statements are
// added to the main graph, or to the graph opened by beginGraph; each is
// checked as the text's would be (names, types, the verifier) and a failure
// leaves the module as before that call.
class Module {
 public:
  // An empty program; relative load()/save paths of what is added resolve against `baseDir`.
  static Module create(Context& context, std::string baseDir = ".");
  // Parses and verifies `text` whole; its session commands become the script
  // (Session::runScript). `name` is the file name in diagnostics; relative
  // load()/save paths resolve against `baseDir`. Nothing runs.
  static Result<Module> parse(Context& context, std::string_view text, std::string name = "<input>",
                              std::string baseDir = ".");
  static Result<Module> parseFile(Context& context, const std::string& path);
  // `pir check`: parses and verifies `text` as parse() does, but goes on after
  // an error to report every independent one (up to a cap) in the error text.
  // On success, the value is the warnings text ("" when none).
  static Result<std::string> check(Context& context, std::string_view text, std::string name = "<input>",
                                   std::string baseDir = ".");
  // The same for a process that exits right after (`pir check`): the text is
  // taken, not copied, and with `leaveToExit` the program's IR is not torn down
  // but left for the process exit to reclaim, as compilers do (freeing a
  // million-op program one object at a time costs a sixth of its check).
  static Result<std::string> check(Context& context, std::string&& text, std::string name, std::string baseDir,
                                   bool leaveToExit);

  Module(Module&&) noexcept;
  Module& operator=(Module&&) noexcept;
  ~Module();

  // The canonical text (`pir fmt`): reparses to the same program.
  std::string print() const;
  // Every rule of the language over the whole program (after a transformation).
  Status verify() const;
  // Runs passes by name (Context::passNames) in order, then verifies. With
  // `printAfterEach`, writes "# -- after PASS --" and the canonical text there
  // after every pass (`pir opt --print-after-each`).
  Status runPasses(const std::vector<std::string>& passes, bool verifyEach = false,
                   std::ostream* printAfterEach = nullptr);
  // The session commands of the parsed text (and of text added since).
  size_t scriptLength() const;
  // Their keywords in order ("feed", "run", "print", "save", "write", ...).
  std::vector<std::string> scriptCommands() const;
  // The Graphviz DOT text (`pir dot`) of every graph, or of `graph` alone ("main": the main graph).
  Result<std::string> dot(const std::string& graph = "") const;
  // The warnings (located, as `pir` prints them) of the parse and of the
  // building calls that succeeded since the last call; "" when none.
  std::string takeWarnings();

  // ---- reading the program --------------------------------------------------------
  // The type of value "%x" of `graph` ("" or "main": the main graph), or of stream
  // or remote buffer "$x".
  Result<Type> typeOf(const std::string& name, const std::string& graph = "") const;
  // The subgraphs, in definition order (not main).
  std::vector<std::string> graphNames() const;
  // The streams and remote buffers, in declaration order.
  std::vector<ResourceInfo> resources() const;
  Result<GraphInfo> graphInfo(const std::string& graph) const;
  // The results of the op labelled `as LABEL` in `graph` (a call site autodiff
  // may have given more results since it was built).
  Result<std::vector<TypedRef>> labelledResults(const std::string& graph, const std::string& label) const;
  ModuleOptions options() const;
  // Sets the options after items were built (the text's `ir {...}` comes first);
  // checked as the text's are. A session recompiles for them.
  Status setOptions(const ModuleOptions& options);

  // ---- building ----------------------------------------------------------------
  // Builds `text` into the program: top-level items, or (while a graph is open,
  // beginGraph) statements of that graph, as if it followed what was built so far
  // in one file. Session commands in it are checked and appended to the script.
  // `name` is the file name in its diagnostics. All or nothing.
  Status add(std::string_view text, std::string name = "<input>");
  // The result types of statement `text` (one op, with no result names) whose
  // operands are `params` ("%p", of their types): built alone in a graph of its
  // own that is then dropped, so the program does not change. Diagnostics are
  // located in `text` under `name`.
  Result<std::vector<Type>> resultTypes(const std::vector<Param>& params, std::string_view text,
                                        std::string name = "<probe>");
  Status declareStream(const std::string& name, StreamDirection direction, const Type& type);  // name without '$'
  // `var %name : type = INIT`: INIT of the type's shape or a scalar (broadcast).
  Result<Ref> variable(const std::string& name, const Type& type, const Tensor& init);
  // `const %name : T = DATA`.
  Result<Ref> constant(const std::string& name, const Tensor& data);
  // `%r0, %r1 = OP operands {attrs}`: the results, named `resultNames[i]` or
  // generated (`%N`). An in-place op has a result only if it is named.
  Result<std::vector<Ref>> op(OpCode code, const std::vector<Operand>& operands, const Attrs& attrs = {},
                              const std::vector<std::string>& resultNames = {});
  // The single result of a one-result op.
  Result<Ref> op1(OpCode code, const std::vector<Operand>& operands, const Attrs& attrs = {},
                  const std::string& resultName = {});
  // `call @graph(args)`.
  Result<std::vector<Ref>> call(const std::string& graph, const std::vector<Operand>& args,
                                const std::vector<std::string>& resultNames = {});
  // `remote_buffer $name : T {entries = N}`.
  Status declareRemoteBuffer(const std::string& name, const Type& type, int64_t entries);
  // `graph @name(%p : T, %q : &T, ...) {`; then ops go into it until endGraph.
  // Params are refs "%p" inside it.
  Result<std::vector<Ref>> beginGraph(const std::string& name, const std::vector<Param>& params);
  // `return values` and `}`; with no values, the returns already added as text
  // (`add("return %y")`) stand.
  Status endGraph(const std::vector<Operand>& returns);
  // Drops the open graph and everything built into it; nothing else changes.
  Status abandonGraph();
  // The graph beginGraph opened and endGraph has not closed; "" when none.
  const std::string& openGraph() const;
  // `autodiff @fwd -> @grad {attrs}`.
  Status autodiff(const std::string& forward, const std::string& gradient, const Attrs& attrs = {});

 private:
  friend class Session;
  struct Impl;
  explicit Module(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// ---- sessions -------------------------------------------------------------------

struct SessionOptions {
  // Where `print` and print_tensor write as they run; null: kept for takeOutput().
  std::ostream* output = nullptr;
  // `--trace`: every executed instruction, its value and time.
  std::ostream* trace = nullptr;
  // The program the commands run is a copy after these passes (`pir run
  // --passes`), verified after each with verifyEach; the module is not changed.
  std::vector<std::string> passes;
  bool verifyEach = false;
  // For a caller that stops at the first failed command (`pir run`): a failed
  // run leaves the state partly updated (no backup is kept), and the main values
  // kept for read() are those the script's commands read, plus `alsoRead`
  // (names without '%').
  bool stopAtFirstError = false;
  std::vector<std::string> alsoRead;
};

// Data from outside the script (`pir run --feed NAME=DATA.npy --save NAME=OUT.npy`).
struct ScriptData {
  // {NAME, PATH}: fed as if `feed $NAME = load("PATH")` stood before the
  // script's first `run` (or its default run, or at its end).
  std::vector<std::pair<std::string, std::string>> feeds;
  // {NAME, PATH}: each name ("$s", "%v", or bare: the stream if there is one,
  // else the main value) is checked at that point; Session::save writes them.
  std::vector<std::pair<std::string, std::string>> saves;
};

// What Session::profileReports makes.
struct ProfileRequest {
  bool text = true;       // the `pir profile` text
  bool mapping = false;   // the text lists the tile mapping of every tensor (`--mapping`)
  bool json = false;      // docs/profile-schema.md
  bool timeline = false;  // Chrome trace-event JSON (`--timeline`)
};
struct ProfileReports {
  std::string text, json, timeline;
};

// A session on a module (PopXL popxl.Session): variables, streams and the last
// run's main values. The module may grow between calls; the next run
// recompiles and variables keep their values. A failed call leaves the state
// as before it.
class Session {
 public:
  static Result<Session> create(Context& context, Module& module, const SessionOptions& options = {});
  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;
  ~Session();

  // `feed $stream = tensor`: the full host buffer shape (runtime.md §2).
  Status feed(const std::string& stream, const Tensor& tensor);
  // The same from the caller's memory: the elements go straight into the stream
  // buffer in one pass (converted to the stream's dtype, gathered from strides,
  // when they differ; a plain copy when not). The shape must be the host buffer
  // shape (or of one element when the buffer has one).
  Status feed(const std::string& stream, const TensorView& data);
  // `run N`.
  Status run(int64_t times = 1);
  // The module's script (its parsed session commands), each against the program
  // as defined when it was read; a text without commands runs once and prints
  // its d2h streams (language.md §11). What it prints goes to output().
  Status runScript();
  // The same with data from outside the script (ScriptData).
  Status runScript(const ScriptData& data);
  // `save NAME "PATH"` (NAME as ScriptData::saves names it). `what` prefixes
  // its messages ("--save x=y.npy"); "" : none.
  Status save(const std::string& name, const std::string& path, const std::string& what = "");
  // What `print NAME` shows: "$y" (a stream buffer), "%w" (a variable, constant
  // or main value of the last run); a bare name is tried as a stream, then a value.
  Result<Tensor> read(const std::string& name);
  // The same without a copy where the session holds the data whole (a stream
  // buffer); otherwise the one copy read() makes.
  Result<SharedTensor> readShared(const std::string& name);
  // `write %w = tensor` (the shape, or [groups] + shape, or a scalar).
  Status write(const std::string& variable, const Tensor& tensor);
  // Variables back to their initial values, stream and remote buffers cleared.
  Status reset();
  // The text `print` and print_tensor wrote since the last call.
  std::string takeOutput();
  // The profile of the program (`pir profile`): the text report, or with
  // `json` the JSON one. The runs counted are this session's.
  Result<std::string> profile(bool json = false);
  // The profile of the program as this session runs it (after its passes),
  // with the runs its script made and the branches its conditionals took (`pir
  // run --profile`, `pir profile`).
  Result<ProfileReports> profileReports(const ProfileRequest& request = {});
  // The VM bytecode (`pir disasm`) of every graph, or of `graph` alone ("main").
  Result<std::string> disassemble(const std::string& graph = "");

 private:
  struct Impl;
  explicit Session(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pir::api
