// The grammar has no left recursion or empty loops (PEGTL's analyze), and its
// rules accept and reject the lexical forms of language.md §1-§2.
#include <gtest/gtest.h>

#include <string>
#include <tao/pegtl/contrib/analyze.hpp>

#include "grammar/control.hpp"
#include "grammar/grammar.hpp"

namespace pg = tao::pegtl;
namespace g = pir::grammar;

namespace {

// True when Rule matches the whole of `text` (actions off, default control).
template <typename Rule>
bool matchesAll(const std::string& text) {
  pg::memory_input in(text, "test");
  try {
    return pg::parse<pg::seq<Rule, pg::eof>>(in);
  } catch (const pg::parse_error&) {
    return false;
  }
}

// The error message raised by the grammar's control for `text`, or "" on success.
template <typename Rule>
std::string raisedMessage(const std::string& text) {
  pg::memory_input in(text, "test");
  try {
    pg::parse<pg::seq<Rule, g::expect<g::end_of_input>>, pg::nothing, g::control>(in);
    return "";
  } catch (const pg::parse_error& e) {
    return std::string(e.message());
  }
}

}  // namespace

TEST(Grammar, AnalyzeFindsNoIssues) {
  EXPECT_EQ(pg::analyze<g::file>(), 0u);
  EXPECT_EQ(pg::analyze<g::repl_input>(), 0u);
}

TEST(Grammar, Numbers) {
  for (const char* ok : {"3", "-2", "0.5", ".5", "5.", "1e-3", "-2.5E+4", "nan", "inf", "-inf", "0"})
    EXPECT_TRUE(matchesAll<g::number>(ok)) << ok;
  for (const char* bad : {"-", "e3", "1.5.3", "3abc", "info", "--1", "+"})
    EXPECT_FALSE(matchesAll<g::number>(bad)) << bad;
  EXPECT_EQ(raisedMessage<g::number>("1e+"), "expected digits in the exponent");
}

TEST(Grammar, NamesAndSigils) {
  for (const char* ok : {"%0", "%layer1.W", "%grad.x", "%_a"}) EXPECT_TRUE(matchesAll<g::value_name>(ok)) << ok;
  EXPECT_TRUE(matchesAll<g::graph_name>("@main"));
  EXPECT_TRUE(matchesAll<g::resource_name>("$x.y_1"));
  EXPECT_FALSE(matchesAll<g::value_name>("x"));
  EXPECT_EQ(raisedMessage<g::value_name>("% x"), "expected a name after '%'");
  EXPECT_TRUE(matchesAll<g::identifier>("relu_"));
  EXPECT_FALSE(matchesAll<g::identifier>("1abc"));
  // Keywords do not match the prefix of a longer word.
  EXPECT_FALSE(matchesAll<g::kw_print>("print_tensor"));
  EXPECT_TRUE(matchesAll<g::kw_print>("print"));
}

TEST(Grammar, StringsAndComments) {
  EXPECT_TRUE(matchesAll<g::string>(R"("a \"q\" \\ \n \t \r b")"));
  EXPECT_TRUE(matchesAll<g::string>("\"two\nlines\""));
  EXPECT_EQ(raisedMessage<g::string>(R"("bad \q")"), "unknown escape sequence: expected \\\", \\\\, \\n, \\t or \\r");
  EXPECT_EQ(raisedMessage<g::string>(R"("open)"), "unterminated string");
  EXPECT_TRUE(matchesAll<g::skip>("  # comment\n\t# another\n"));
  EXPECT_TRUE(matchesAll<g::separators>(" ; ;\n# c\n;"));
}

TEST(Grammar, Types) {
  for (const char* ok : {"f32[2,3]", "bool[]", "i32[ 5 ]", "float16[0]", "f31[2]"})
    EXPECT_TRUE(matchesAll<g::type>(ok)) << ok;  // dtype words are checked by the actions
  EXPECT_EQ(raisedMessage<g::type>("f32"), "expected '[' and the dimensions after the dtype, as in f32[2,3]");
  EXPECT_EQ(raisedMessage<g::type>("f32[2,]"), "expected a dimension (a non-negative integer)");
  EXPECT_EQ(raisedMessage<g::type>("f32[2"), "expected ']' to close the shape");
}

TEST(Grammar, StatementsAndItems) {
  for (const char* ok : {"%y = add %x, %b", "host_store $y, %y", "%a, %b = split %x {splits = [1, 1]} : f32[1], f32[1]",
                         "%y = call @f(%x, 1.0, [1, 2]) as fwd0", "%d = call @g(1.0) using fwd0",
                         "%z = conditional %c, @t(%a), @e(%b)", "foo", "var %W : f32[2] = uniform(-1, 1, 7) {ipu = 0}",
                         "const %c : i32[] = 3", "return", "return %a, %b",
                         "exchange {tile_set = io} { %a = host_load $x }", "exchange { %a = host_load $x } {tile_set = io}",
                         "exchange {}"})
    EXPECT_TRUE(matchesAll<g::body_stmt>(ok)) << ok;
  for (const char* ok : {"ir {replication = 2}", "h2d $x : f32[2,3]", "d2h $y : f32[2]",
                         "remote_buffer $b : f32[4] {entries = 3}", "graph @g(%a: f32[2], %w: &f32[2]) -> (f32[2]) { return %a }",
                         "graph @g() attributes {grad_of = @f, activations = [%a]} { return }", "main { %x = host_load $x }",
                         "autodiff @f -> @f_grad {grads_required = [%x]}", "feed $x = [[1, 2], [3, 4]]", "run", "run 10",
                         "print $y, %W", "write %W = load(\"w.npy\")", "save $y \"out.npy\""})
    EXPECT_TRUE(matchesAll<g::top_item>(ok)) << ok;
  EXPECT_TRUE(matchesAll<g::file>("h2d $x : f32[2]; %a = relu %x\n%b = init {shape = [2], dtype = f32}\n%c = relu %b\n"));
  EXPECT_FALSE(matchesAll<g::file>("h2d $x f32[2]"));
}
