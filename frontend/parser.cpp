// Parse actions for the .pir grammar (grammar/grammar.hpp): they assemble the
// frontend/ast.h structures in a reused ParseState and hand each top-level
// item and body statement to the ParseSink as soon as its rule completes, so
// memory stays proportional to the largest statement.
//
// Invariants the actions rely on (guaranteed by the grammar):
// - once an opening token matched, the enclosing rule either completes or
//   raises, so scratch state pushed by an "open" action is never left stale;
// - no rule with actions runs inside a lookahead (`at<>`, `not_at<>`).
#include <cctype>
#include "frontend/parser.h"

#include "ir/interrupt.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <cstdlib>
#include <string>
#include <tao/pegtl.hpp>

#include "frontend/keyword_docs.h"
#include "grammar/control.hpp"
#include "grammar/grammar.hpp"
#include "ir/checked_math.h"
#include "ir/host_memory.h"
#include "ir/ir.h"
#include "ir/op_info.h"
#include "ir/suggest.h"

namespace pir {
namespace {

namespace pg = tao::pegtl;
namespace g = pir::grammar;

// Eager tracking keeps line/column in the iterator, so every token's location
// is O(1); the source name is a borrowed pointer (no copy per position).
using Input = pg::memory_input<pg::tracking_mode::eager, pg::eol::lf_crlf, const char*>;
using Iterator = pg::internal::iterator;

// Deepest nesting of literal lists and attribute lists/tuples: bounds the
// recursion of the parser on hostile input.
constexpr size_t kMaxNesting = 64;

// The structures one statement's syntax may make: its operands, results, attribute
// items, dims, names and strings, with the IR the builder makes of them
// (decisions.md "Resource budgets"). Literal data is not counted here: it is tensor
// data, bounded by the host-memory budget alone. About 130,000 operands of one
// op or 260,000 attribute items fit. The real peak is up to 3-4 times the count
// (vectors grow by doubling, the AST and the IR coexist, the REPL copies), which
// keeps a 10 MB line of any kind under 100 MB (tests/long_lines_memory.sh).
constexpr uint64_t kMaxStatementSyntaxBytes = uint64_t(24) << 20;
// The elements of a declaration's data read past its type's count before the
// data is an error at once.
constexpr uint64_t kDataExcessRead = 65536;
// The parse charges the host-memory budget in steps of this size (one atomic
// update per step, not per element).
constexpr uint64_t kHostChargeStep = uint64_t(1) << 20;

// The bytes an input's structures take while it is read: charged to the
// process's host-memory budget (ir/host_memory.h) as they grow and given back
// when the parse ends (the IR then belongs to the module), so that an input that
// would not fit is a located error at the element that crosses the budget, not
// an exhausted machine. A statement's syntax also has its own cap.
class ParseCharge {
 public:
  ParseCharge() = default;
  ParseCharge(const ParseCharge&) = delete;
  ParseCharge& operator=(const ParseCharge&) = delete;
  ~ParseCharge() { releaseHostMemory(charged_); }

  void startStatement() { statement_ = 0; }
  // Syntax: counts toward the statement's cap and the host budget. Returns
  // false when the statement's cap is crossed.
  [[nodiscard]] bool syntax(uint64_t bytes) {
    statement_ += bytes;
    return statement_ <= kMaxStatementSyntaxBytes;
  }
  uint64_t statementBytes() const { return statement_; }
  // Any structure: charged to the host-memory budget (throws HostMemoryExhausted).
  void charge(uint64_t bytes) {
    used_ += bytes;
    if (used_ <= charged_) return;
    const uint64_t need = used_ - charged_;
    try {
      chargeHostMemory(std::max(need, kHostChargeStep));
      charged_ += std::max(need, kHostChargeStep);
    } catch (const HostMemoryExhausted&) {
      chargeHostMemory(need);  // the last bytes of the budget, exactly
      charged_ += need;
    }
  }

 private:
  uint64_t statement_ = 0;  // syntax bytes of the statement being read
  uint64_t used_ = 0;       // structure bytes of the whole input so far
  uint64_t charged_ = 0;    // of the host-memory budget (>= used_)
};

struct ListFrame {
  int64_t count = 0;
  SourceLoc open;
};

struct ParseState {
  ParseState(uint32_t f, ast::ParseSink& s, DiagnosticEngine& d) : file(f), sink(s), diags(d) {}

  uint32_t file;
  ast::ParseSink& sink;
  DiagnosticEngine& diags;
  std::string baseDir;  // of the buffer, for Literal::resolvedPath ("" = as written)
  const char* bufferBegin = nullptr;
  const char* bufferEnd = nullptr;
  size_t statementStart = 0;  // buffer offset where the statement being read starts
  bool inBody = false;        // inside `main { }` or a graph body (graphs do not nest)

  ParseCharge charge;
  // Counts `bytes` of syntax made at `at`: a located error when the statement's
  // cap or the host-memory budget is crossed.
  void syntax(uint64_t bytes, SourceLoc at) {
    if (!charge.syntax(bytes))
      fail(at, "statement too large: its operands, attributes, names and dimensions need more than " +
                   std::to_string(kMaxStatementSyntaxBytes >> 20) + " MiB (" + std::to_string(charge.statementBytes()) +
                   " bytes so far); split it");
    hostBytes(bytes, at);
  }
  // Counts `bytes` of literal data made at `at` against the host-memory budget.
  void hostBytes(uint64_t bytes, SourceLoc at) {
    try {
      charge.charge(bytes);
    } catch (const HostMemoryExhausted& e) {
      fail(at, e.what());
    }
  }

  // ---- control interface (grammar/control.hpp)
  std::vector<SourceLoc> openers;

  SourceLoc loc(const Iterator& it) const {
    return {file, static_cast<uint32_t>(it.line), static_cast<uint32_t>(it.column)};
  }
  // Where a syntax error is shown. An error with only white space after it is at
  // the end of the input: show it just after the last character written, on a
  // line the user can see, rather than on an empty line past the end.
  SourceLoc errorLoc(const Iterator& it) const {
    const std::string& text = diags.sources().buffer(file).text;
    size_t at = static_cast<size_t>(it.data - text.data());
    if (at > text.size()) return loc(it);
    for (size_t k = at; k < text.size(); ++k)
      if (!std::isspace(static_cast<unsigned char>(text[k]))) return loc(it);
    size_t end = at;
    while (end > 0 && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
    if (end == at) return loc(it);
    size_t lineStart = text.rfind('\n', end == 0 ? 0 : end - 1);
    lineStart = lineStart == std::string::npos || end == 0 ? 0 : lineStart + 1;
    uint32_t line = 1;
    for (size_t k = 0; k < lineStart; ++k) line += text[k] == '\n';
    return {file, line, static_cast<uint32_t>(end - lineStart + 1)};
  }
  void openBracket(const Iterator& at) { openers.push_back(loc(at)); }
  void closeBracket() {
    if (!openers.empty()) openers.pop_back();
  }
  [[noreturn]] void syntaxError(const Iterator& at, const char* message) { diags.fail(errorLoc(at), message); }
  [[noreturn]] void unclosedBracket(const Iterator& at, const char* message, const char* what) {
    if (openers.empty()) diags.fail(errorLoc(at), message);
    SourceLoc open = openers.back();
    std::string text = message;
    // Session line numbers in the REPL (SourceBuffer::firstLine), as diagnostics show them.
    const SourceBuffer& buffer = diags.sources().buffer(file);
    text += " opened at " + std::to_string(buffer.displayLine(open.line)) + ":" + std::to_string(buffer.displayColumn(open.line, open.col));
    diags.fail(errorLoc(at), std::move(text), {Note{open, std::string(what) + " opened here"}});
  }
  [[noreturn]] void errorAtOpener(const char* message) {
    diags.fail(openers.empty() ? SourceLoc{} : openers.back(), message);
  }
  [[noreturn]] void fail(SourceLoc at, std::string message, std::vector<Note> notes = {}) {
    diags.fail(at, std::move(message), std::move(notes));
  }

  // ---- scratch for the item being parsed (reset when an item starts or is emitted)
  ast::Type type;
  // The op statement being read is built in place in the statement handed to
  // the sink, and reset in place after it, so its vectors keep their capacity
  // from statement to statement (no allocation per statement for the results and
  // operands lists) and nothing is moved to hand it over. `op` points at it.
  ast::BodyStmt emitted{std::in_place_type<ast::OpStmt>};
  ast::OpStmt* op = std::get_if<ast::OpStmt>(&emitted);
  ast::Name label;
  std::vector<ast::Operand>* operandTarget = nullptr;
  std::vector<ast::Operand>* callerTarget = nullptr;
  std::shared_ptr<ast::CallExpr> call;
  ast::DeclStmt decl;
  ast::ReturnStmt ret;
  ast::ExchangeStmt exchange;
  bool inExchange = false;
  bool exchangeHasAttrs = false;
  ast::GraphHeader graph;
  SourceLoc keywordLoc;  // of `ir` / `main`
  ast::StreamDecl streamDecl;
  ast::RemoteBufferDecl buffer;
  ast::AutodiffItem autodiff;
  ast::FeedCmd feed;
  ast::RunCmd run;
  ast::PrintCmd print;
  ast::WriteCmd write;
  ast::SaveCmd save;

  // Attribute dictionary being read; nested lists/tuples are on attrStack.
  AttrDict dict;
  std::vector<SourceLoc> keyLocs;  // parallel to dict.entries
  std::string key;
  SourceLoc keyLoc;
  std::vector<Attr> attrStack;

  // Literal being read. listSizes[d] is the length every list at depth d must
  // have (-1 until the first one closes); leafDepth is where numbers live.
  std::shared_ptr<Literal> lit;
  // The elements the declaration being read says its data has (its type's), when
  // known: a long literal list then takes its values' room once instead of
  // regrowing, and data far beyond it stops early.
  std::optional<uint64_t> declaredElements;
  std::vector<ListFrame> listFrames;
  std::vector<int64_t> listSizes;
  size_t leafDepth = 0;  // 0: no number seen yet
  size_t maxListDepth = 0;

  std::string str;  // the last string, unescaped
};

// ------------------------------------------------------------------ helpers

// The heap bytes of a std::string holding `n` characters (none within the
// small-string buffer).
uint64_t textBytes(size_t n) { return n < 16 ? 0 : n + 1; }

// What each element of syntax costs: its AST node and the IR made of it.
constexpr uint64_t kOperandBytes = sizeof(ast::Operand) + sizeof(Operand);
constexpr uint64_t kResultBytes = sizeof(ast::Name) + sizeof(Value) + sizeof(std::unique_ptr<Value>) + sizeof(Value*);
constexpr uint64_t kDimBytes = 2 * sizeof(int64_t);  // the AST's shape and the IR's copy
constexpr uint64_t kTypeBytes = sizeof(ast::Type) + sizeof(TensorType);
// A value's name is held by its AST node and its IR value, and the REPL's echo
// prints it.
constexpr uint64_t kNameCopies = 3;

template <typename ActionInput>
ast::Name sigilName(const ActionInput& in, ParseState& s) {
  std::string_view text = in.string_view();
  return ast::Name{std::string(text.substr(1)), s.loc(in.iterator())};
}

// A number as written. A numeral beyond the double range (`1e309`) is an error
// (decisions.md: literals are finite and in range); the words inf/nan are values.
// Underflow rounds (to a subnormal or zero), as every IEEE reader does.
template <typename ActionInput>
double parseDouble(const ActionInput& in, ParseState& s) {
  std::string_view text = in.string_view();
  bool negative = !text.empty() && text.front() == '-';
  std::string_view body = negative ? text.substr(1) : text;
  double value = 0;
  if (body == "nan") {
    value = std::numeric_limits<double>::quiet_NaN();
  } else if (body == "inf") {
    value = std::numeric_limits<double>::infinity();
  } else {
    auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), value);
    if (ec == std::errc::result_out_of_range || end != body.data() + body.size()) {
      // from_chars leaves an out-of-range result unset; strtod tells overflow (±HUGE_VAL) from underflow.
      value = std::strtod(std::string(body).c_str(), nullptr);
      if (std::isinf(value))
        s.fail(s.loc(in.iterator()), "number '" + std::string(text) + "' is out of range (beyond f64; write inf for infinity)");
    }
  }
  return negative ? -value : value;
}

bool looksIntegral(std::string_view text) { return text.find_first_of(".eEni") == std::string_view::npos; }

template <typename ActionInput>
int64_t parseInteger(const ActionInput& in, ParseState& s, const char* what) {
  std::string_view text = in.string_view();
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    s.fail(s.loc(in.iterator()), std::string(what) + " '" + std::string(text) + "' is out of range");
  return value;
}

// `rest`: the input from the literal's first character on.
void startLiteral(ParseState& s, Literal::Kind kind, SourceLoc at, const char* rest = nullptr) {
  s.syntax(sizeof(Literal) + 2 * sizeof(void*), at);  // and the shared_ptr's control block
  s.lit = std::make_shared<Literal>();
  if (kind == Literal::Kind::Data && rest && s.declaredElements && *s.declaredElements > 1) {
    // Each element takes at least two characters ("1,"): never more room than the
    // rest of the input could fill, and the budget is charged as the values come.
    const uint64_t room = static_cast<uint64_t>(s.bufferEnd - rest) / 2 + 1;
    s.lit->values.reserve(static_cast<size_t>(std::min(*s.declaredElements, room)));
  }
  s.lit->kind = kind;
  s.lit->loc = at;
  s.listFrames.clear();
  s.listSizes.clear();
  s.leafDepth = 0;
  s.maxListDepth = 0;
}

// A number or boolean of a DATA literal, at top level or inside a list.
void literalScalar(ParseState& s, double value, bool isBool, SourceLoc at) {
  if (s.listFrames.empty()) {
    startLiteral(s, Literal::Kind::Data, at);
  } else {
    size_t depth = s.listFrames.size();
    if (s.maxListDepth > depth || (s.leafDepth != 0 && s.leafDepth > depth))
      s.fail(at, "ragged list: expected a list, found a number");
    s.leafDepth = depth;
    ++s.listFrames.back().count;
  }
  s.hostBytes(sizeof(double), at);
  // Data of a declaration that goes far past its type's elements is an error
  // before all of it is kept (a shorter excess gets the builder's message, with
  // the data's whole shape).
  if (s.declaredElements && s.lit->values.size() >= saturatingAdd(*s.declaredElements, kDataExcessRead)) {
    const TensorType declared{s.decl.type.dtype, s.decl.type.shape};
    s.fail(s.lit->loc, std::string(s.decl.isConst ? "const" : "var") + " %" + s.decl.name.text + ": data of more than " +
                           std::to_string(s.lit->values.size()) + " elements does not match " + declared.str());
  }
  s.lit->values.push_back(value);
  (isBool ? s.lit->hasBool : s.lit->hasNumber) = true;
}

void emitAttr(ParseState& s, Attr&& a) {
  s.syntax(sizeof(Attr) + textBytes(a.s.size()), a.loc);
  if (!s.attrStack.empty()) {
    s.attrStack.back().items.push_back(std::move(a));
  } else {
    s.dict.entries.emplace_back(std::move(s.key), std::move(a));
    s.keyLocs.push_back(s.keyLoc);
  }
}

void openAttrSequence(ParseState& s, Attr::Kind kind, SourceLoc at) {
  if (s.attrStack.size() >= kMaxNesting) s.fail(at, "nesting too deep (more than 64 levels)");
  Attr a;
  a.kind = kind;
  a.loc = at;
  s.attrStack.push_back(std::move(a));
}

void closeAttrSequence(ParseState& s) {
  Attr a = std::move(s.attrStack.back());
  s.attrStack.pop_back();
  emitAttr(s, std::move(a));
}

AttrDict takeDict(ParseState& s) {
  AttrDict d = std::move(s.dict);
  d.setLocations(d.loc(), s.keyLocs);
  s.dict = AttrDict{};
  return d;
}

void emitOp(ParseState& s) {
  if (s.inExchange) {
    s.exchange.ops.push_back(std::move(*s.op));
  } else {
    s.sink.statement(std::move(s.emitted));
    // A sink may move from the statement; one that made it another kind of
    // statement gets a fresh op statement here.
    s.op = std::get_if<ast::OpStmt>(&s.emitted);
    if (!s.op) s.op = &s.emitted.emplace<ast::OpStmt>();
  }
  // Reset in place (cheaper than assigning a fresh OpStmt on every statement):
  // `op` holds a moved-from or an earlier statement, every member is cleared.
  ast::OpStmt& op = *s.op;
  op.results.clear();
  op.opName.clear();
  op.opLoc = {};
  op.operands.clear();
  op.attrs.entries.clear();
  op.attrs.setLocations({}, {});
  op.resultTypes.clear();
  op.asLabel.reset();
  op.usingLabel.reset();
  op.loc = {};
  s.operandTarget = nullptr;
}

// ------------------------------------------------------------------ actions

template <typename Rule>
struct action : pg::nothing<Rule> {};

// Applies `Body(in, state)` when Rule completes: keeps the specialisations terse.
#define PIR_ACTION(rule)                                             \
  template <>                                                        \
  struct action<g::rule> {                                           \
    template <typename ActionInput>                                  \
    static void apply(const ActionInput& in, ParseState& s);         \
  };                                                                 \
  template <typename ActionInput>                                    \
  void action<g::rule>::apply(const ActionInput& in, ParseState& s)

// ---- types

PIR_ACTION(dtype_word) {
  std::string_view word = in.string_view();
  std::optional<ParsedDType> parsed = parseDType(word);
  if (!parsed) s.fail(s.loc(in.iterator()), "unknown dtype '" + std::string(word) + "'");
  s.type = ast::Type{};
  s.type.dtype = parsed->dtype;
  s.type.downcast = parsed->downcast;
  s.type.loc = s.loc(in.iterator());
}
PIR_ACTION(dim) {
  s.syntax(kDimBytes, s.loc(in.iterator()));
  s.type.shape.push_back(parseInteger(in, s, "dimension"));
}

// ---- strings

PIR_ACTION(string_body) {
  std::string_view raw = in.string_view();
  s.syntax(textBytes(raw.size()), s.loc(in.iterator()));
  s.str.clear();
  s.str.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == '\\' && i + 1 < raw.size()) {
      char e = raw[++i];
      s.str += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;  // \" and \\ stand for themselves
    } else {
      s.str += c;
    }
  }
}

// ---- data literals

PIR_ACTION(lit_number) {
  const double v = parseDouble(in, s);
  literalScalar(s, v, false, s.loc(in.iterator()));
  if (looksIntegral(in.string_view()) && std::abs(v) >= 9007199254740992.0) {  // 2^53: from there on, a double may round
    s.hostBytes(sizeof(s.lit->inexactIntegers.front()) + textBytes(in.size()), s.loc(in.iterator()));
    s.lit->inexactIntegers.emplace_back(s.lit->values.size() - 1, in.string());
  }
}
PIR_ACTION(lit_true) { literalScalar(s, 1.0, true, s.loc(in.iterator())); }
PIR_ACTION(lit_false) { literalScalar(s, 0.0, true, s.loc(in.iterator())); }

PIR_ACTION(lit_list_open) {
  SourceLoc at = s.loc(in.iterator());
  if (s.listFrames.empty()) {
    startLiteral(s, Literal::Kind::Data, at, in.begin());
  } else {
    if (s.listFrames.size() >= kMaxNesting) s.fail(at, "nesting too deep (more than 64 levels)");
    ++s.listFrames.back().count;
  }
  s.listFrames.push_back({0, at});
  size_t depth = s.listFrames.size();
  if (s.leafDepth != 0 && depth > s.leafDepth) s.fail(at, "ragged list: expected a number, found a list");
  if (depth > s.maxListDepth) s.maxListDepth = depth;
}
PIR_ACTION(lit_list_close) {
  ListFrame frame = s.listFrames.back();
  s.listFrames.pop_back();
  size_t level = s.listFrames.size();
  if (s.listSizes.size() <= level) s.listSizes.resize(level + 1, -1);
  int64_t& expected = s.listSizes[level];
  if (expected < 0) {
    expected = frame.count;
  } else if (expected != frame.count) {
    s.fail(frame.open, "ragged list: expected " + std::to_string(expected) + " element" + (expected == 1 ? "" : "s") +
                           ", found " + std::to_string(frame.count));
  }
  if (s.listFrames.empty()) s.lit->shape = s.listSizes;
}

PIR_ACTION(kw_load) { startLiteral(s, Literal::Kind::Load, s.loc(in.iterator())); }
PIR_ACTION(load_path) {
  s.lit->path = s.str;
  const std::string& p = s.str;
  s.lit->resolvedPath = (s.baseDir.empty() || (!p.empty() && p.front() == '/')) ? p : s.baseDir + "/" + p;
}
PIR_ACTION(kw_uniform) { startLiteral(s, Literal::Kind::Uniform, s.loc(in.iterator())); }
PIR_ACTION(kw_normal) { startLiteral(s, Literal::Kind::Normal, s.loc(in.iterator())); }
PIR_ACTION(kw_zeros) { startLiteral(s, Literal::Kind::Zeros, s.loc(in.iterator())); }
PIR_ACTION(kw_ones) { startLiteral(s, Literal::Kind::Ones, s.loc(in.iterator())); }
PIR_ACTION(generator_arg) { s.lit->args.push_back(parseDouble(in, s)); }

// ---- attributes

PIR_ACTION(attr_dict_open) {
  s.dict = AttrDict{};
  s.dict.setLocations(s.loc(in.iterator()), {});
  s.keyLocs.clear();
  s.attrStack.clear();
}
PIR_ACTION(attr_key) {
  SourceLoc at = s.loc(in.iterator());
  std::string_view k = in.string_view();
  for (size_t i = 0; i < s.dict.entries.size(); ++i)
    if (s.dict.entries[i].first == k)
      s.fail(at, "duplicate attribute '" + std::string(k) + "'", {Note{s.keyLocs[i], "first given here"}});
  s.syntax(sizeof(std::pair<std::string, Attr>) + sizeof(SourceLoc) + textBytes(k.size()), at);
  s.key.assign(k);
  s.keyLoc = at;
}
PIR_ACTION(attr_number) {
  std::string_view text = in.string_view();
  Attr a = looksIntegral(text) ? Attr::integer(parseInteger(in, s, "integer")) : Attr::real(parseDouble(in, s));
  a.loc = s.loc(in.iterator());
  emitAttr(s, std::move(a));
}
PIR_ACTION(attr_true) {
  Attr a = Attr::boolean(true);
  a.loc = s.loc(in.iterator());
  emitAttr(s, std::move(a));
}
PIR_ACTION(attr_false) {
  Attr a = Attr::boolean(false);
  a.loc = s.loc(in.iterator());
  emitAttr(s, std::move(a));
}
PIR_ACTION(attr_string) {
  Attr a = Attr::string(std::move(s.str));
  a.loc = s.loc(in.iterator());
  emitAttr(s, std::move(a));
}
PIR_ACTION(attr_word) {
  Attr a = Attr::word(std::string(in.string_view()));
  a.loc = s.loc(in.iterator());
  emitAttr(s, std::move(a));
}
template <Attr::Kind K, typename ActionInput>
void sigilAttr(const ActionInput& in, ParseState& s) {
  Attr a;
  a.kind = K;
  a.s.assign(in.string_view().substr(1));
  a.loc = s.loc(in.iterator());
  emitAttr(s, std::move(a));
}
PIR_ACTION(attr_graph) { sigilAttr<Attr::Kind::Graph>(in, s); }
PIR_ACTION(attr_value_ref) { sigilAttr<Attr::Kind::Value>(in, s); }
PIR_ACTION(attr_resource) { sigilAttr<Attr::Kind::Resource>(in, s); }
PIR_ACTION(attr_list_open) { openAttrSequence(s, Attr::Kind::List, s.loc(in.iterator())); }
PIR_ACTION(attr_tuple_open) { openAttrSequence(s, Attr::Kind::Tuple, s.loc(in.iterator())); }
PIR_ACTION(attr_list_close) { closeAttrSequence(s); }
PIR_ACTION(attr_tuple_close) { closeAttrSequence(s); }

// ---- operands

PIR_ACTION(operand_value) {
  // Made in place in the statement's list (the most frequent action after
  // result_name): the list's earlier entries keep their strings' capacity.
  const SourceLoc at = s.loc(in.iterator());
  const std::string_view text = in.string_view().substr(1);
  s.syntax(kOperandBytes + textBytes(text.size()), at);
  ast::Operand& o = s.operandTarget->emplace_back();
  o.kind = ast::Operand::Kind::Value;
  o.name.text.assign(text);
  o.name.loc = at;
  o.loc = at;
}
PIR_ACTION(operand_resource) {
  ast::Operand o;
  o.kind = ast::Operand::Kind::Resource;
  o.name = sigilName(in, s);
  o.loc = o.name.loc;
  s.syntax(kOperandBytes + textBytes(o.name.text.size()), o.loc);
  s.operandTarget->push_back(std::move(o));
}
PIR_ACTION(operand_literal) {
  ast::Operand o;
  o.kind = ast::Operand::Kind::Literal;
  o.loc = s.lit->loc;
  s.syntax(kOperandBytes, o.loc);
  o.literal = std::move(s.lit);
  s.operandTarget->push_back(std::move(o));
}
PIR_ACTION(call_graph) {
  s.call = std::make_shared<ast::CallExpr>();
  s.call->graph = sigilName(in, s);
  s.call->loc = s.call->graph.loc;
  s.syntax(kOperandBytes + sizeof(ast::CallExpr) + sizeof(CalleeRef) + textBytes(s.call->graph.text.size()), s.call->loc);
  s.callerTarget = s.operandTarget;
  s.operandTarget = &s.call->args;
}
PIR_ACTION(call_close) {
  s.operandTarget = s.callerTarget;
  ast::Operand o;
  o.kind = ast::Operand::Kind::Call;
  o.loc = s.call->loc;
  o.call = std::move(s.call);
  s.operandTarget->push_back(std::move(o));
}

// ---- op statements

PIR_ACTION(result_name) {
  const SourceLoc at = s.loc(in.iterator());
  const std::string_view text = in.string_view().substr(1);
  s.syntax(kResultBytes + kNameCopies * textBytes(text.size()), at);
  s.sink.resultNamed(text);
  if (s.op->results.empty()) s.op->loc = at;
  ast::Name& n = s.op->results.emplace_back();
  n.text.assign(text);
  n.loc = at;
}
// A statement without results that starts with a word that is no op but is
// close to a keyword (`grpah`, `mian`, `runn`, `prnt`, `fed`) is a misspelt
// keyword: said at the word, before the rest of the line is misread as the
// operands of an op ("expected ')'"). An op at least as close wins.
void rejectMisspeltKeyword(ParseState& s) {
  const std::string& word = s.op->opName;
  if (!s.op->results.empty() || s.inExchange || lookupOp(word)) return;
  std::optional<std::string> keyword = closestStatementKeyword(word, s.inBody);
  if (!keyword) return;
  static const std::vector<std::string_view> ops = allOpNames();  // the op table is fixed
  if (std::optional<std::string> op = closestName(word, ops); op && editDistance(word, *op) < editDistance(word, *keyword))
    return;
  s.fail(s.op->opLoc, "unknown op or keyword '" + word + "'; did you mean '" + *keyword + "'? (`pir help " + *keyword +
                         "`)");
}

// Statements (top-level items and body statements) follow separators.
// The ops of an exchange block are one statement's (the block is emitted whole).
PIR_ACTION(separators) {
  s.statementStart = static_cast<size_t>(in.begin() + in.size() - s.bufferBegin);
  if (!s.inExchange) s.charge.startStatement();
}

PIR_ACTION(op_name) {
  s.op->opName.assign(in.string_view());
  s.op->opLoc = s.loc(in.iterator());
  s.syntax(sizeof(ast::OpStmt) + sizeof(Op) + textBytes(in.size()), s.op->opLoc);
  rejectMisspeltKeyword(s);
  if (!s.op->loc.valid()) s.op->loc = s.op->opLoc;
  s.op->operands.reserve(4);  // one allocation for the usual operand counts
  s.operandTarget = &s.op->operands;
}
PIR_ACTION(op_attrs) { s.op->attrs = takeDict(s); }
PIR_ACTION(result_type) {
  s.syntax(kTypeBytes, s.type.loc);
  s.op->resultTypes.push_back(std::move(s.type));
}
PIR_ACTION(label) {
  s.syntax(textBytes(in.size()), s.loc(in.iterator()));
  s.label = ast::Name{std::string(in.string_view()), s.loc(in.iterator())};
}
PIR_ACTION(as_clause) {
  if (s.op->asLabel) s.fail(s.loc(in.iterator()), "the call site already has an 'as' label");
  s.op->asLabel = std::move(s.label);
}
PIR_ACTION(using_clause) {
  if (s.op->usingLabel) s.fail(s.loc(in.iterator()), "the call already has a 'using' label");
  s.op->usingLabel = std::move(s.label);
}
PIR_ACTION(result_op_stmt) { emitOp(s); }
PIR_ACTION(bare_op_stmt) { emitOp(s); }

// ---- declarations, return, exchange

PIR_ACTION(kw_var) {
  s.decl = ast::DeclStmt{};
  s.decl.loc = s.loc(in.iterator());
}
PIR_ACTION(kw_const) {
  s.decl = ast::DeclStmt{};
  s.decl.isConst = true;
  s.decl.loc = s.loc(in.iterator());
}
PIR_ACTION(decl_name) { s.decl.name = sigilName(in, s); }
PIR_ACTION(decl_type) {
  s.decl.type = std::move(s.type);
  std::optional<uint64_t> n = 1;
  for (int64_t d : s.decl.type.shape)
    if (n) n = checkedMul<uint64_t>(*n, static_cast<uint64_t>(d));
  s.declaredElements = n;
}
PIR_ACTION(var_init) {
  s.decl.init = std::move(s.lit);
  s.declaredElements.reset();
}
PIR_ACTION(const_data) {
  s.decl.init = std::move(s.lit);
  s.declaredElements.reset();
}
PIR_ACTION(decl_attrs) { s.decl.attrs = takeDict(s); }
PIR_ACTION(var_decl) { s.sink.statement(ast::BodyStmt(std::move(s.decl))); }
PIR_ACTION(const_decl) { s.sink.statement(ast::BodyStmt(std::move(s.decl))); }

PIR_ACTION(kw_return) {
  s.ret = ast::ReturnStmt{};
  s.ret.loc = s.loc(in.iterator());
  s.operandTarget = &s.ret.values;
}
PIR_ACTION(return_stmt) {
  s.operandTarget = nullptr;
  s.sink.statement(ast::BodyStmt(std::move(s.ret)));
}

PIR_ACTION(kw_exchange) {
  s.exchange = ast::ExchangeStmt{};
  s.exchange.loc = s.loc(in.iterator());
  s.exchangeHasAttrs = false;
}
PIR_ACTION(exchange_attrs) {
  if (s.exchangeHasAttrs)
    s.fail(s.loc(in.iterator()), "the exchange block already has attributes",
           {Note{s.exchange.attrs.loc(), "first given here"}});
  s.exchangeHasAttrs = true;
  s.exchange.attrs = takeDict(s);
}
PIR_ACTION(exchange_open) { s.inExchange = true; }
PIR_ACTION(exchange_close) {
  s.inExchange = false;
  s.exchange.closeLoc = s.loc(in.iterator());
}
PIR_ACTION(exchange_stmt) { s.sink.statement(ast::BodyStmt(std::move(s.exchange))); }

// ---- graphs and main

PIR_ACTION(kw_graph) {
  s.graph = ast::GraphHeader{};
  s.graph.loc = s.loc(in.iterator());
}
PIR_ACTION(graph_decl_name) { s.graph.name = sigilName(in, s); }
PIR_ACTION(param_name) {
  s.syntax(sizeof(ast::Param) + kResultBytes + kNameCopies * textBytes(in.size()), s.loc(in.iterator()));
  s.graph.params.push_back(ast::Param{sigilName(in, s), false, {}});
}
PIR_ACTION(by_ref) { s.graph.params.back().byRef = true; }
PIR_ACTION(param_type) { s.graph.params.back().type = std::move(s.type); }
PIR_ACTION(outputs_open) { s.graph.outputs.emplace(); }
PIR_ACTION(output_type) {
  s.syntax(kTypeBytes, s.type.loc);
  s.graph.outputs->push_back(std::move(s.type));
}
PIR_ACTION(graph_attr_dict) { s.graph.attrs = takeDict(s); }
PIR_ACTION(graph_open) {
  s.inBody = true;
  s.sink.beginGraph(std::move(s.graph));
}
PIR_ACTION(graph_close) {
  s.inBody = false;
  s.sink.endGraph(s.loc(in.iterator()));
}

PIR_ACTION(kw_main) { s.keywordLoc = s.loc(in.iterator()); }
PIR_ACTION(main_open) {
  s.inBody = true;
  s.sink.beginMain(s.keywordLoc);
}
PIR_ACTION(main_close) {
  s.inBody = false;
  s.sink.endMain(s.loc(in.iterator()));
}

// ---- top-level items

PIR_ACTION(kw_ir) { s.keywordLoc = s.loc(in.iterator()); }
PIR_ACTION(ir_dict) {
  ast::IrOptionsItem item;
  item.loc = s.keywordLoc;
  AttrDict d = takeDict(s);
  item.entries.reserve(d.entries.size());
  for (size_t i = 0; i < d.entries.size(); ++i)
    item.entries.emplace_back(ast::Name{std::move(d.entries[i].first), s.keyLocs[i]}, std::move(d.entries[i].second));
  s.sink.irOptions(std::move(item));
}

PIR_ACTION(kw_h2d) {
  s.streamDecl = ast::StreamDecl{};
  s.streamDecl.h2d = true;
  s.streamDecl.loc = s.loc(in.iterator());
}
PIR_ACTION(kw_d2h) {
  s.streamDecl = ast::StreamDecl{};
  s.streamDecl.h2d = false;
  s.streamDecl.loc = s.loc(in.iterator());
}
PIR_ACTION(stream_name) { s.streamDecl.name = sigilName(in, s); }
PIR_ACTION(stream_type) { s.streamDecl.type = std::move(s.type); }
PIR_ACTION(stream_decl) { s.sink.stream(std::move(s.streamDecl)); }

PIR_ACTION(kw_remote_buffer) {
  s.buffer = ast::RemoteBufferDecl{};
  s.buffer.loc = s.loc(in.iterator());
}
PIR_ACTION(buffer_name) { s.buffer.name = sigilName(in, s); }
PIR_ACTION(buffer_type) { s.buffer.type = std::move(s.type); }
PIR_ACTION(buffer_attrs) { s.buffer.attrs = takeDict(s); }
PIR_ACTION(remote_buffer_decl) { s.sink.remoteBuffer(std::move(s.buffer)); }

PIR_ACTION(kw_autodiff) {
  s.autodiff = ast::AutodiffItem{};
  s.autodiff.loc = s.loc(in.iterator());
}
PIR_ACTION(autodiff_fwd) { s.autodiff.fwd = sigilName(in, s); }
PIR_ACTION(autodiff_grad) { s.autodiff.grad = sigilName(in, s); }
PIR_ACTION(autodiff_attrs) { s.autodiff.attrs = takeDict(s); }
PIR_ACTION(autodiff) { s.sink.autodiff(std::move(s.autodiff)); }

PIR_ACTION(kw_feed) {
  s.feed = ast::FeedCmd{};
  s.feed.loc = s.loc(in.iterator());
}
PIR_ACTION(feed_name) { s.feed.stream = sigilName(in, s); }
PIR_ACTION(feed_data) { s.feed.data = std::move(s.lit); }
PIR_ACTION(feed_cmd) { s.sink.feed(std::move(s.feed)); }

PIR_ACTION(kw_run) { s.run = ast::RunCmd{1, s.loc(in.iterator())}; }
PIR_ACTION(run_count) { s.run.count = parseInteger(in, s, "run count"); }
PIR_ACTION(run_cmd) { s.sink.run(std::move(s.run)); }

PIR_ACTION(kw_print) {
  s.print = ast::PrintCmd{};
  s.print.loc = s.loc(in.iterator());
}
PIR_ACTION(print_target) {
  s.syntax(sizeof(ast::Name) + textBytes(in.size()), s.loc(in.iterator()));
  s.print.targets.push_back(ast::Name{std::string(in.string_view()), s.loc(in.iterator())});
}
PIR_ACTION(print_cmd) { s.sink.print(std::move(s.print)); }

PIR_ACTION(kw_write) {
  s.write = ast::WriteCmd{};
  s.write.loc = s.loc(in.iterator());
}
PIR_ACTION(write_name) { s.write.var = sigilName(in, s); }
PIR_ACTION(write_data) { s.write.data = std::move(s.lit); }
PIR_ACTION(write_cmd) { s.sink.write(std::move(s.write)); }

PIR_ACTION(kw_save) {
  s.save = ast::SaveCmd{};
  s.save.loc = s.loc(in.iterator());
}
PIR_ACTION(save_target) { s.save.target = ast::Name{std::string(in.string_view()), s.loc(in.iterator())}; }
PIR_ACTION(save_path) { s.save.path = std::move(s.str); }
PIR_ACTION(save_cmd) { s.sink.save(std::move(s.save)); }

// Ctrl-C (ir/interrupt.h) is polled once per statement, so a long file or
// REPL input stops at the statement being read. Top-level items and the
// statements of graph and main bodies both count.
template <typename ActionInput>
void stopIfInterrupted(const ActionInput& in, ParseState& s) {
  if (interruptRequested()) s.fail(s.loc(in.iterator()), kInterruptedMessage);
}
PIR_ACTION(top_item) { stopIfInterrupted(in, s); }
PIR_ACTION(body_stmt) { stopIfInterrupted(in, s); }

#undef PIR_ACTION

// The directory load() paths of this buffer are relative to; "" for
// interactive and standard input (relative to the working directory).
std::string directoryOf(const std::string& bufferName) {
  if (bufferName.empty() || bufferName.front() == '<' || bufferName == "-") return "";
  size_t slash = bufferName.rfind('/');
  if (slash == std::string::npos) return "";
  return slash == 0 ? "/" : bufferName.substr(0, slash);
}

}  // namespace

void parseBuffer(uint32_t file, ast::ParseSink& sink, DiagnosticEngine& diags, size_t offset,
                 size_t* failedStatementStart) {
  const SourceBuffer& buffer = diags.sources().buffer(file);
  ParseState state(file, sink, diags);
  state.baseDir = directoryOf(buffer.name);
  state.bufferBegin = buffer.text.data();
  state.bufferEnd = buffer.text.data() + buffer.text.size();
  offset = std::min(offset, buffer.text.size());
  state.statementStart = offset;
  // Where the statement an error leaves started (the state dies with this frame).
  struct ReportStart {
    const ParseState& state;
    size_t* out;
    ~ReportStart() {
      if (out) *out = state.statementStart;
    }
  } reportStart{state, failedStatementStart};
  size_t line = 1;
  for (size_t k = 0; k < offset; ++k) line += buffer.text[k] == '\n';
  // Positions stay those of the whole buffer (offset is a line start, column 1).
  Input in(buffer.text.data() + offset, buffer.text.data() + buffer.text.size(), buffer.name.c_str(), offset, line, 1);
  try {
    pg::parse<grammar::file, action, grammar::control>(in, state);
  } catch (const pg::parse_error& e) {
    // Every commit point raises through the state; this is a safety net.
    SourceLoc at{file, 1, 1};
    if (!e.positions().empty()) {
      at.line = static_cast<uint32_t>(e.positions().front().line);
      at.col = static_cast<uint32_t>(e.positions().front().column);
    }
    diags.fail(at, std::string(e.message()));
  }
}

void InputScanner::feed(std::string_view text) {
  if (overClosed_) return;  // the answer is final: the parser reports the stray closer
  for (char c : text) {
    ++scanned_;
    if (inComment_) {
      if (c == '\n') inComment_ = false;
      continue;
    }
    if (inString_) {
      if (escaped_) escaped_ = false;  // the escaped character, whatever it is
      else if (c == '\\') escaped_ = true;
      else if (c == '"') inString_ = false;
      continue;
    }
    switch (c) {
      case '"': inString_ = true; break;
      case '#': inComment_ = true; break;
      case '(': case '[': case '{': ++depth_; break;
      case ')': case ']': case '}':
        if (--depth_ < 0) {
          overClosed_ = true;
          return;
        }
        break;
      default: break;
    }
  }
}

bool needsMoreInput(std::string_view text) {
  InputScanner scanner;
  scanner.feed(text);
  return scanner.needsMoreInput();
}

}  // namespace pir
