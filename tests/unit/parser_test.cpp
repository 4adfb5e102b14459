// The parser streams the items of language.md to a ParseSink with their
// locations, literals and attributes, and reports located "expected ..." errors.
#include "frontend/parser.h"

#include "frontend/keyword_docs.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>
#include "tests/unit/spec_examples.h"

using namespace pir;

namespace {

std::string locStr(SourceLoc l) { return std::to_string(l.line) + ":" + std::to_string(l.col); }

std::string typeStr(const ast::Type& t) {
  std::string s(dtypeName(t.dtype));
  s += shapeToString(t.shape);
  if (t.downcast) s += "!";
  return s;
}

std::string attrStr(const Attr& a) {
  std::ostringstream o;
  switch (a.kind) {
    case Attr::Kind::Int:
      o << "i" << a.i;
      break;
    case Attr::Kind::Float:
      o << "f" << a.f;
      break;
    case Attr::Kind::Bool:
      o << (a.b ? "true" : "false");
      break;
    case Attr::Kind::String:
      o << "s'" << a.s << "'";
      break;
    case Attr::Kind::Word:
      o << "w:" << a.s;
      break;
    case Attr::Kind::Graph:
      o << "@" << a.s;
      break;
    case Attr::Kind::Value:
      o << "%" << a.s;
      break;
    case Attr::Kind::Resource:
      o << "$" << a.s;
      break;
    case Attr::Kind::List:
    case Attr::Kind::Tuple: {
      bool list = a.kind == Attr::Kind::List;
      o << (list ? "[" : "(");
      for (size_t i = 0; i < a.items.size(); ++i) o << (i ? "," : "") << attrStr(a.items[i]);
      o << (list ? "]" : ")");
      break;
    }
  }
  return o.str();
}

std::string dictStr(const AttrDict& d) {
  std::string s = "{";
  for (size_t i = 0; i < d.entries.size(); ++i) {
    if (i) s += ",";
    s += d.entries[i].first + "=" + attrStr(d.entries[i].second);
  }
  return s + "}";
}

std::string literalStr(const Literal& l) {
  std::ostringstream o;
  switch (l.kind) {
    case Literal::Kind::Data: {
      o << "data" << shapeToString(l.shape) << "(";
      for (size_t i = 0; i < l.values.size(); ++i) o << (i ? "," : "") << l.values[i];
      o << ")";
      if (l.hasBool) o << "b";
      break;
    }
    case Literal::Kind::Load:
      o << "load(" << l.path << "->" << l.resolvedPath << ")";
      break;
    case Literal::Kind::Uniform:
    case Literal::Kind::Normal:
      o << (l.kind == Literal::Kind::Uniform ? "uniform(" : "normal(");
      for (size_t i = 0; i < l.args.size(); ++i) o << (i ? "," : "") << l.args[i];
      o << ")";
      break;
    case Literal::Kind::Zeros:
      o << "zeros";
      break;
    case Literal::Kind::Ones:
      o << "ones";
      break;
  }
  return o.str();
}

std::string operandStr(const ast::Operand& op) {
  switch (op.kind) {
    case ast::Operand::Kind::Value:
      return "%" + op.name.text;
    case ast::Operand::Kind::Resource:
      return "$" + op.name.text;
    case ast::Operand::Kind::Literal:
      return literalStr(*op.literal);
    case ast::Operand::Kind::Call: {
      std::string s = "@" + op.call->graph.text + "(";
      for (size_t i = 0; i < op.call->args.size(); ++i) {
        if (i) s += ",";
        s += operandStr(op.call->args[i]);
      }
      return s + ")";
    }
  }
  return "?";
}

std::string opStr(const ast::OpStmt& op) {
  std::string s;
  for (size_t i = 0; i < op.results.size(); ++i) {
    if (i) s += ",";
    s += ("%" + op.results[i].text);
  }
  if (!op.results.empty()) s += "=";
  s += op.opName + "(";
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (i) s += ",";
    s += operandStr(op.operands[i]);
  }
  s += ")";
  if (!op.attrs.empty()) s += dictStr(op.attrs);
  if (!op.resultTypes.empty()) {
    s += ":";
    for (size_t i = 0; i < op.resultTypes.size(); ++i) {
      if (i) s += ",";
      s += typeStr(op.resultTypes[i]);
    }
  }
  if (op.asLabel) s += " as " + op.asLabel->text;
  if (op.usingLabel) s += " using " + op.usingLabel->text;
  return s;
}

// Records every event as one line of text, and keeps the statements.
struct RecordingSink : ast::ParseSink {
  std::vector<std::string> log;
  std::vector<ast::BodyStmt> statements;

  void irOptions(ast::IrOptionsItem&& item) override {
    std::string s = "ir";
    for (auto& [k, v] : item.entries) s += " " + k.text + "@" + locStr(k.loc) + "=" + attrStr(v);
    log.push_back(s);
  }
  void stream(ast::StreamDecl&& d) override {
    log.push_back(std::string(d.h2d ? "h2d $" : "d2h $") + d.name.text + ":" + typeStr(d.type));
  }
  void remoteBuffer(ast::RemoteBufferDecl&& d) override {
    log.push_back("remote_buffer $" + d.name.text + ":" + typeStr(d.type) + dictStr(d.attrs));
  }
  void beginGraph(ast::GraphHeader&& h) override {
    std::string s = "graph @" + h.name.text + "(";
    for (size_t i = 0; i < h.params.size(); ++i) {
      if (i) s += ",";
      s += ("%" + h.params[i].name.text) + ":" + (h.params[i].byRef ? "&" : "") + typeStr(h.params[i].type);
    }
    s += ")";
    if (h.outputs) {
      s += "->(";
      for (size_t i = 0; i < h.outputs->size(); ++i) {
        if (i) s += ",";
        s += typeStr((*h.outputs)[i]);
      }
      s += ")";
    }
    if (!h.attrs.empty()) s += dictStr(h.attrs);
    log.push_back(s);
  }
  void endGraph(SourceLoc l) override { log.push_back("endgraph@" + locStr(l)); }
  void beginMain(SourceLoc l) override { log.push_back("main@" + locStr(l)); }
  void endMain(SourceLoc l) override { log.push_back("endmain@" + locStr(l)); }
  void statement(ast::BodyStmt&& st) override {
    if (auto* op = std::get_if<ast::OpStmt>(&st)) log.push_back(opStr(*op));
    if (auto* d = std::get_if<ast::DeclStmt>(&st))
      log.push_back(std::string(d->isConst ? "const %" : "var %") + d->name.text + ":" + typeStr(d->type) + "=" +
                    literalStr(*d->init) + (d->attrs.empty() ? "" : dictStr(d->attrs)));
    if (auto* r = std::get_if<ast::ReturnStmt>(&st)) {
      std::string s = "return";
      for (auto& v : r->values) {
        s += ' ';
        s += operandStr(v);
      }
      log.push_back(s);
    }
    if (auto* x = std::get_if<ast::ExchangeStmt>(&st)) {
      std::string s = "exchange" + dictStr(x->attrs) + "[";
      for (size_t i = 0; i < x->ops.size(); ++i) s += (i ? "; " : "") + opStr(x->ops[i]);
      log.push_back(s + "]");
    }
    statements.push_back(std::move(st));
  }
  void autodiff(ast::AutodiffItem&& a) override {
    log.push_back("autodiff @" + a.fwd.text + "->@" + a.grad.text + dictStr(a.attrs));
  }
  void feed(ast::FeedCmd&& c) override { log.push_back("feed $" + c.stream.text + "=" + literalStr(*c.data)); }
  void run(ast::RunCmd&& c) override { log.push_back("run " + std::to_string(c.count)); }
  void print(ast::PrintCmd&& c) override {
    std::string s = "print";
    for (auto& t : c.targets) s += " " + t.text + "@" + locStr(t.loc);
    log.push_back(s);
  }
  void write(ast::WriteCmd&& c) override { log.push_back("write %" + c.var.text + "=" + literalStr(*c.data)); }
  void save(ast::SaveCmd&& c) override { log.push_back("save " + c.target.text + " '" + c.path + "'"); }
};

struct ParseResult {
  bool ok = true;
  std::vector<std::string> log;
  std::vector<ast::BodyStmt> statements;
  std::string error;  // formatted diagnostic
};

ParseResult parse(const std::string& text, const std::string& name = "t.pir") {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  uint32_t file = sm.add(name, text);
  RecordingSink sink;
  ParseResult r;
  try {
    parseBuffer(file, sink, diags);
  } catch (const CompileError& e) {
    r.ok = false;
    r.error = diags.format(e.diag);
  }
  r.log = std::move(sink.log);
  r.statements = std::move(sink.statements);
  return r;
}

std::vector<std::string> lines(std::initializer_list<const char*> l) { return {l.begin(), l.end()}; }

// The first line of the formatted error: "FILE:L:C: error: MESSAGE".
std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

TEST(Parser, LanguageReadmeExample) {
  auto r = parse(test::kLanguageExample);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.log, lines({"ir num_host_transfers@2:5=i1", "h2d $x:f32[2,3]", "d2h $y:f32[2,2]",
                          "graph @linear(%x:f32[2,3],%W:f32[3,2],%b:f32[2])->(f32[2,2])", "%xw=matmul(%x,%W)",
                          "%y=add(%xw,%b)", "return %y", "endgraph@11:1", "main@13:1",
                          "var %W:f32[3,2]=data[3,2](1,0,0,1,1,1)", "var %b:f32[2]=data[](0.5)", "%x=host_load($x)",
                          "%y=call(@linear(%x,%W,%b))", "host_store($y,%y)", "endmain@19:1",
                          "feed $x=data[2,3](1,2,3,4,5,6)", "run 1", "print $y@23:7"}));
}

TEST(Parser, OpStatementFormsAndLocations) {
  auto r = parse(
      "h2d $x : f32[2]\n"
      "  %a, %b = split %x {splits = [1, 1], axis = 0} : f32[1], f32[1]\n"
      "%y = call @f(%x, 1.5, [1, 2]) as fwd0; %d = call @f_grad(1.0) using fwd0\n"
      "%z = conditional %c, @t(%a), @e($s)\n"
      "accumulate_ %W,\n   %dW {f = -0.5}\n");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.log, lines({"h2d $x:f32[2]", "%a,%b=split(%x){splits=[i1,i1],axis=i0}:f32[1],f32[1]",
                          "%y=call(@f(%x,data[](1.5),data[2](1,2))) as fwd0", "%d=call(@f_grad(data[](1))) using fwd0",
                          "%z=conditional(%c,@t(%a),@e($s))", "accumulate_(%W,%dW){f=f-0.5}"}));
  auto& split = std::get<ast::OpStmt>(r.statements[0]);
  EXPECT_EQ(locStr(split.loc), "2:3");
  EXPECT_EQ(locStr(split.results[1].loc), "2:7");
  EXPECT_EQ(locStr(split.opLoc), "2:12");
  EXPECT_EQ(locStr(split.operands[0].loc), "2:18");
  EXPECT_EQ(locStr(split.attrs.loc()), "2:21");
  EXPECT_EQ(locStr(split.resultTypes[1].loc), "2:59");
  auto& call = std::get<ast::OpStmt>(r.statements[1]);
  EXPECT_EQ(locStr(call.operands[0].call->args[1].literal->loc), "3:18");
  EXPECT_EQ(locStr(call.asLabel->loc), "3:34");
  auto& acc = std::get<ast::OpStmt>(r.statements[4]);
  EXPECT_EQ(locStr(acc.operands[1].loc), "6:4");
}

TEST(Parser, StatementBoundaries) {
  // An op without operands must not swallow the results of the next statement.
  auto r = parse("%s = get_seed\n%a, %b = split_random_seed %s\nfoo\n%c = relu %a ; qux %c;;baz");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.log, lines({"%s=get_seed()", "%a,%b=split_random_seed(%s)", "foo()", "%c=relu(%a)", "qux(%c)", "baz()"}));
  // A statement may span lines; comments anywhere between tokens.
  r = parse("%y =\n  add   # first\n  %x ,  # comment\n  2\n");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.log, lines({"%y=add(%x,data[](2))"}));
}

TEST(Parser, Declarations) {
  auto r = parse(
      "main {\n"
      "  var %W : f32[3,2] = uniform(-1, 1.5, 7) {tile_set = io, tiles = [0, 4], replica_grouping = (1, 2)}\n"
      "  var %n : normal_like[] = 0\n"
      "}\n");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(firstLine(r.error), "t.pir:3:12: error: unknown dtype 'normal_like'");
  r = parse(
      "var %a : f32[2] = normal(0, 0.02, 3)\nvar %b : i32[] = zeros\nvar %c : u8[2] = ones\n"
      "const %d : bool[2] = [true, false]\nconst %e : int64[0] = []\nconst %f : f32[2,0] = [[], []]\n"
      "var %g : f32[2] = load(\"w.npy\") {remote = $buf, offset = 1}\n"
      "var %h : f32[1] = -inf\n"
      "var %W : f32[2] = uniform(-1, 1.5, 7) {tile_set = io, tiles = [0, 4], replica_grouping = (1, 2)}\n",
      "dir/sub/m.pir");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.log,
            lines({"var %a:f32[2]=normal(0,0.02,3)", "var %b:i32[]=zeros", "var %c:u8[2]=ones",
                   "const %d:bool[2]=data[2](1,0)b", "const %e:i32[0]!=data[0]()", "const %f:f32[2,0]=data[2,0]()",
                   "var %g:f32[2]=load(w.npy->dir/sub/w.npy){remote=$buf,offset=i1}", "var %h:f32[1]=data[](-inf)",
                   "var %W:f32[2]=uniform(-1,1.5,7){tile_set=w:io,tiles=[i0,i4],replica_grouping=(i1,i2)}"}));
  auto& d = std::get<ast::DeclStmt>(r.statements[3]);
  EXPECT_TRUE(d.init->hasBool);
  EXPECT_FALSE(d.init->hasNumber);
  EXPECT_EQ(locStr(d.init->loc), "4:22");
  EXPECT_EQ(locStr(d.loc), "4:1");
  EXPECT_EQ(locStr(d.type.loc), "4:12");
}

TEST(Parser, Numbers) {
  auto r = parse(
      "const %c : f32[9] = [3, -2, 0.5, .5, 1e-3, -2.5E+4, nan, inf, -inf]\n"
      "%y = op %x {a = 3, b = -2, c = 0.5, d = 1e3, e = nan, f = -inf, g = 2.0}");
  ASSERT_TRUE(r.ok) << r.error;
  auto& c = std::get<ast::DeclStmt>(r.statements[0]);
  ASSERT_EQ(c.init->values.size(), 9u);
  EXPECT_EQ(c.init->values[4], 1e-3);
  EXPECT_EQ(c.init->values[5], -2.5e4);
  EXPECT_TRUE(std::isnan(c.init->values[6]));
  EXPECT_EQ(c.init->values[8], -INFINITY);
  EXPECT_EQ(r.log[1], "%y=op(%x){a=i3,b=i-2,c=f0.5,d=f1000,e=fnan,f=f-inf,g=f2}");
}

TEST(Parser, AttributeValues) {
  auto r = parse(R"(%y = op %x {s = "a\"b\\c\nd\te", w = f16, n = none, g = @body, v = %t, r = $rb,
                   nested = [[1, (2, x)], []], t = (), b = true, f = false})");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.log[0],
            "%y=op(%x){s=s'a\"b\\c\nd\te',w=w:f16,n=w:none,g=@body,v=%t,r=$rb,nested=[[i1,(i2,w:x)],[]],t=(),b=true,f="
            "false}");
  auto& op = std::get<ast::OpStmt>(r.statements[0]);
  EXPECT_EQ(locStr(op.attrs.find("g")->loc), "1:57");
}

TEST(Parser, GraphsAutodiffAndExchange) {
  auto r = parse(
      "graph @g(%a: f32[2], %w: &f32[2], %n: i64[]) attributes {grad_of = @f, activations = [%a, %b]} {\n"
      "  exchange {tile_set = io} {\n    %a2 = host_load $x\n    host_store $y, %a2\n  }\n"
      "  exchange { %b2 = remote_load $rb, 0 } {tile_set = io}\n"
      "  exchange {}\n"
      "  return\n"
      "}\n"
      "graph @h() -> () { return }\n"
      "autodiff @fwd -> @fwd_grad {grads_provided = [%y], grads_required = [%x, %W]}\n"
      "autodiff @f->@g\n"
      "remote_buffer $rb : f32[4] {entries = 3}\nremote_buffer $r2 : f32[4]\n");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.log, lines({"graph @g(%a:f32[2],%w:&f32[2],%n:i32[]!){grad_of=@f,activations=[%a,%b]}",
                          "exchange{tile_set=w:io}[%a2=host_load($x); host_store($y,%a2)]",
                          "exchange{tile_set=w:io}[%b2=remote_load($rb,data[](0))]", "exchange{}[]", "return",
                          "endgraph@9:1", "graph @h()->()", "return", "endgraph@10:27",
                          "autodiff @fwd->@fwd_grad{grads_provided=[%y],grads_required=[%x,%W]}", "autodiff @f->@g{}",
                          "remote_buffer $rb:f32[4]{entries=i3}", "remote_buffer $r2:f32[4]{}"}));
  auto& x = std::get<ast::ExchangeStmt>(r.statements[0]);
  EXPECT_EQ(locStr(x.loc), "2:3");
  EXPECT_EQ(locStr(x.closeLoc), "5:3");
}

TEST(Parser, SessionCommands) {
  auto r =
      parse("feed $x = load(\"/abs/x.npy\")\nrun 10\nrun\nprint $y, %W\nwrite %W = [1, 2]\nsave %W \"out dir/w.npy\"\n",
            "<repl>");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.log, lines({"feed $x=load(/abs/x.npy->/abs/x.npy)", "run 10", "run 1", "print $y@4:7 %W@4:11",
                          "write %W=data[2](1,2)", "save %W 'out dir/w.npy'"}));
  // A bare identifier that is not a keyword is an op statement (the builder
  // reports an unknown op), unless it is close to a keyword: then it is named.
  r = parse("frobnicate $y");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.log, lines({"frobnicate($y)"}));
  r = parse("prnt $y");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:1: error: unknown op or keyword 'prnt'; did you mean 'print'? (`pir help print`)");
}

TEST(Parser, StreamingStopsAtSinkError) {
  // Items before the error reach the sink; the sink's CompileError propagates.
  struct Throwing : RecordingSink {
    DiagnosticEngine* diags = nullptr;
    void run(ast::RunCmd&& c) override { diags->fail(c.loc, "sink says no"); }
  };
  SourceManager sm;
  DiagnosticEngine diags(sm);
  uint32_t f = sm.add("s.pir", "h2d $x : f32[1]\nrun\nd2h $y : f32[1]\n");
  Throwing sink;
  sink.diags = &diags;
  try {
    parseBuffer(f, sink, diags);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.diag.message, "sink says no");
  }
  EXPECT_EQ(sink.log, lines({"h2d $x:f32[1]"}));
}

TEST(Parser, ErrorMessages) {
  auto r = parse("graph @g(%a: f32[2],\n   %b: f32[3] {\n  return\n}\n");
  EXPECT_EQ(r.error,
            "t.pir:2:15: error: expected ')' to close the parameter list opened at 1:9\n"
            "     %b: f32[3] {\n"
            "                ^\n"
            "t.pir:1:9: note: the parameter list opened here\n");
  r = parse("graph @g(%a: f32[2]) {\n  %b = relu %a\n");
  EXPECT_EQ(firstLine(r.error), "t.pir:2:15: error: expected '}' to close the graph body opened at 1:22");
  r = parse("main {\n  %b = relu %a )\n}");
  EXPECT_EQ(firstLine(r.error), "t.pir:2:16: error: expected '}' to close the main body opened at 1:6");
  r = parse("var %W : 3 = 1");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:10: error: expected a type such as f32[2,3]");
  r = parse("var %W : f31[2] = 1");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:10: error: unknown dtype 'f31'");
  r = parse("var %W f32[2] = 1");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:8: error: expected ':' and a type after the name");
  r = parse("write %W [1]");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:10: error: expected '=' after the variable name");
  r = parse("%y = add %x,\n");
  // At the end of the input the error is shown after the last character written.
  EXPECT_EQ(firstLine(r.error), "t.pir:1:13: error: expected an operand");
  r = parse("%y = add %x, )");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:14: error: expected an operand");
  r = parse("save $y \"out.npy");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:9: error: unterminated string");
  r = parse("%y = op %x {s = \"a\\qb\"}");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:20: error: unknown escape sequence: expected \\\", \\\\, \\n, \\t or \\r");
  r = parse("%a, %b\n");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:7: error: expected '=' after the result names");
  r = parse("%a = 3");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:6: error: expected an op name after '='");
  r = parse("const %c : f32[2,2] = [[1, 2], [3]]");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:32: error: ragged list: expected 2 elements, found 1");
  r = parse("const %c : f32[2,2] = [[1, 2], 3]");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:32: error: ragged list: expected a list, found a number");
  r = parse("const %c : f32[2,2] = [1, [2]]");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:27: error: ragged list: expected a number, found a list");
  r = parse("const %c : f32[2] = [1, 2");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:26: error: expected ']' to close the list opened at 1:21");
  r = parse("%y = op %x {a = 1, a = 2}");
  EXPECT_EQ(r.error,
            "t.pir:1:20: error: duplicate attribute 'a'\n  %y = op %x {a = 1, a = 2}\n                     ^\n"
            "t.pir:1:13: note: first given here\n");
  r = parse("%y = op %x {a = 1 b = 2}");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:19: error: expected '}' to close the attribute dictionary opened at 1:12");
  r = parse("h2d x : f32[2]");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:5: error: expected a stream name such as $x");
  r = parse("print");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:6: error: expected a name to print such as $y or %W");
  r = parse("}");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:1: error: expected a declaration, a statement or a session command");
  r = parse("%y = op % x");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:10: error: expected a name after '%'");
  r = parse("var %W : f32[99999999999999999999] = 0");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:14: error: dimension '99999999999999999999' is out of range");
  r = parse("%y = call @g(%x");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:16: error: expected ')' to close the argument list opened at 1:13");
  r = parse("var %W : f32[2] = uniform(0, 1)");
  EXPECT_EQ(firstLine(r.error), "t.pir:1:31: error: expected ',' (a generator takes three numbers)");
}

TEST(Parser, NestingIsBounded) {
  std::string deep = "const %c : f32[1] = " + std::string(100, '[') + "1" + std::string(100, ']');
  auto r = parse(deep);
  EXPECT_EQ(firstLine(r.error), "t.pir:1:85: error: nesting too deep (more than 64 levels)");
  std::string deepAttr = "%y = op {a = " + std::string(100000, '[') + "}";
  r = parse(deepAttr);
  EXPECT_EQ(firstLine(r.error), "t.pir:1:78: error: nesting too deep (more than 64 levels)");
}

TEST(Parser, GarbageNeverCrashes) {
  // Random mutations of a valid program: every outcome is success or a located error.
  const std::string seed =
      "ir {replication = 2}\nh2d $x : f32[2,3]\ngraph @g(%a: f32[2], %w: &f32[2]) -> (f32[2]) {\n"
      "  %b = add %a, [1, 2] {k = (1, \"s\")}\n  return %b\n}\nmain { var %W : f32[2] = uniform(0, 1, 2)\n"
      "  exchange {tile_set = io} { %x = host_load $x } }\nfeed $x = [[1,2,3],[4,5,6]]\nrun 2\nprint $y\n";
  const std::string alphabet = "%@$[](){}<>,;:=&-.\"\\#\n 0123456789abcdefxyz";
  std::mt19937 rng(12345);
  int errors = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string text = seed;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      size_t pos = rng() % (text.size() + 1);
      switch (rng() % 3) {
        case 0:
          text.insert(pos, 1, alphabet[rng() % alphabet.size()]);
          break;
        case 1:
          if (pos < text.size()) text.erase(pos, 1);
          break;
        default:
          if (pos < text.size()) text[pos] = alphabet[rng() % alphabet.size()];
          break;
      }
    }
    auto r = parse(text);
    if (!r.ok) {
      ++errors;
      EXPECT_NE(r.error.find(": error: "), std::string::npos) << r.error;
    }
  }
  EXPECT_GT(errors, 100);
}

TEST(Parser, NeedsMoreInput) {
  EXPECT_FALSE(needsMoreInput("%y = add %x, %b"));
  EXPECT_TRUE(needsMoreInput("graph @sq(%a: f32[2]) -> (f32[2]) {"));
  EXPECT_TRUE(needsMoreInput("graph @sq(%a: f32[2]) -> (f32[2]) {\n  %b = mul %a, %a\n"));
  EXPECT_FALSE(needsMoreInput("graph @sq(%a: f32[2]) -> (f32[2]) {\n  return %a\n}"));
  EXPECT_TRUE(needsMoreInput("feed $x = [[1, 2],"));
  EXPECT_FALSE(needsMoreInput("%y = op %x {s = \"{[(\"}"));
  EXPECT_TRUE(needsMoreInput("save $y \"out"));
  EXPECT_FALSE(needsMoreInput("%y = op %x {s = \"a\\\"}\"}"));
  EXPECT_FALSE(needsMoreInput("print $y # {"));
  EXPECT_FALSE(needsMoreInput("}"));
}

TEST(Parser, ReplBuffersUseSessionLineNumbers) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  uint32_t file = sm.add("<repl>", "graph @g(%a: f32[2]\n{", 10);
  RecordingSink sink;
  try {
    parseBuffer(file, sink, diags);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_EQ(firstLine(diags.format(e.diag)),
              "<repl>:11:1: error: expected ')' to close the parameter list opened at 10:9");
  }
}

// Every keyword that starts a statement, misspelt (its last two letters
// swapped), is named at the misspelt word, wherever it can stand: at top level
// and, for body statements, inside `main { }`.
TEST(Parser, EveryMisspeltStatementKeywordIsNamed) {
  int checked = 0;
  for (const KeywordDoc& k : keywordDocs()) {
    const bool body = k.kind == "statement";
    if (!body && k.kind != "top-level item" && k.kind != "session command") continue;
    if (k.word.size() < 3) continue;  // `ir`: any two-letter word is one edit from many
    std::string typo(k.word);
    std::swap(typo[typo.size() - 2], typo[typo.size() - 1]);
    if (typo == k.word) typo.pop_back();  // `autodiff`: a doubled last letter
    const std::string text = body ? "main {\n  " + typo + " %x\n}\n" : typo + " $x\n";
    ParseResult r = parse(text);
    const std::string where = body ? "t.pir:2:3" : "t.pir:1:1";
    EXPECT_EQ(firstLine(r.error), where + ": error: unknown op or keyword '" + typo + "'; did you mean '" +
                                      std::string(k.word) + "'? (`pir help " + std::string(k.word) + "`)")
        << text;
    ++checked;
  }
  EXPECT_EQ(checked, 15);
}
