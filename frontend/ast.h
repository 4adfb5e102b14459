// The syntax of one .pir item as the parser hands it over, before name
// resolution and type checking (ir/builder.h turns it into IR).
//
// The parser streams: it hands each top-level item, and each statement of a
// graph or main body, to a ParseSink as soon as it is complete, so memory stays
// proportional to the largest statement, not the file.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ir/attr.h"
#include "ir/dtype.h"
#include "ir/literal.h"
#include "ir/source.h"

namespace pir::ast {

struct Name {
  std::string text;  // without sigil
  SourceLoc loc;     // of the sigil
};

struct Type {
  DType dtype = DType::F32;
  bool downcast = false;  // written i64/u64
  Shape shape;
  SourceLoc loc;
};

struct CallExpr;

struct Operand {
  enum class Kind : uint8_t { Value, Resource, Literal, Call };
  // User-provided, so that a new operand (the parser makes one per operand
  // written) is made member by member: value-initialising an implicit one
  // zero-fills the whole object first.
  Operand() {}  // NOLINT(modernize-use-equals-default): `= default` would bring the zero-fill back
  Kind kind = Kind::Value;
  Name name;                           // Value / Resource
  std::shared_ptr<Literal> literal;    // Literal
  std::shared_ptr<CallExpr> call;      // Call
  SourceLoc loc;
};

struct CallExpr {
  Name graph;
  std::vector<Operand> args;
  SourceLoc loc;  // of '@'
};

// `%a, %b = op x, y {attrs} : T1, T2 [as L | using L]`
struct OpStmt {
  std::vector<Name> results;
  std::string opName;
  SourceLoc opLoc;
  std::vector<Operand> operands;
  AttrDict attrs;
  std::vector<Type> resultTypes;
  std::optional<Name> asLabel;     // name.text is the label, loc of the label
  std::optional<Name> usingLabel;
  SourceLoc loc;  // start of the statement
};

// `var %W : T = INIT {attrs}` / `const %c : T = DATA {attrs}`
struct DeclStmt {
  bool isConst = false;
  Name name;
  Type type;
  std::shared_ptr<Literal> init;
  AttrDict attrs;
  SourceLoc loc;  // of the keyword
};

struct ExchangeStmt {
  std::vector<OpStmt> ops;
  AttrDict attrs;
  SourceLoc loc;       // of `exchange`
  SourceLoc closeLoc;  // of '}'
};

struct ReturnStmt {
  std::vector<Operand> values;
  SourceLoc loc;
};

using BodyStmt = std::variant<OpStmt, DeclStmt, ExchangeStmt, ReturnStmt>;

struct IrOptionsItem {
  std::vector<std::pair<Name, Attr>> entries;  // Name.text is the key
  SourceLoc loc;
};

struct StreamDecl {
  bool h2d = true;
  Name name;
  Type type;
  SourceLoc loc;  // of the keyword
};

struct RemoteBufferDecl {
  Name name;
  Type type;
  AttrDict attrs;  // entries = N
  SourceLoc loc;
};

struct Param {
  Name name;
  bool byRef = false;
  Type type;
};

// The header of `graph @name(PARAMS) -> (TYPES) attributes {...} {`.
struct GraphHeader {
  Name name;
  std::vector<Param> params;
  std::optional<std::vector<Type>> outputs;
  AttrDict attrs;
  SourceLoc loc;  // of `graph`
};

struct AutodiffItem {
  Name fwd, grad;
  AttrDict attrs;
  SourceLoc loc;
};

struct FeedCmd { Name stream; std::shared_ptr<Literal> data; SourceLoc loc; };
struct RunCmd { int64_t count = 1; SourceLoc loc; };
// Print / save targets keep their sigil in `text` ("$y", "%W").
struct PrintCmd { std::vector<Name> targets; SourceLoc loc; };
struct WriteCmd { Name var; std::shared_ptr<Literal> data; SourceLoc loc; };
struct SaveCmd { Name target; std::string path; SourceLoc loc; };

// Receives items in source order. Any callback may throw CompileError to stop.
class ParseSink {
 public:
  virtual ~ParseSink() = default;
  virtual void irOptions(IrOptionsItem&&) = 0;
  virtual void stream(StreamDecl&&) = 0;
  virtual void remoteBuffer(RemoteBufferDecl&&) = 0;
  virtual void beginGraph(GraphHeader&&) = 0;
  virtual void endGraph(SourceLoc closeBrace) = 0;
  virtual void beginMain(SourceLoc loc) = 0;   // `main {`; bare statements come without begin/end
  virtual void endMain(SourceLoc closeBrace) = 0;
  // A statement of the current graph, or of main (inside `main {}` or bare).
  virtual void statement(BodyStmt&&) = 0;
  // A hint, before its statement: the statement being read names a result
  // `name` (the builder starts fetching that name's place in the scope).
  virtual void resultNamed(std::string_view /*name*/) {}
  virtual void autodiff(AutodiffItem&&) = 0;
  virtual void feed(FeedCmd&&) = 0;
  virtual void run(RunCmd&&) = 0;
  virtual void print(PrintCmd&&) = 0;
  virtual void write(WriteCmd&&) = 0;
  virtual void save(SaveCmd&&) = 0;
};

}  // namespace pir::ast
