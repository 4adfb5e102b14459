// The PEGTL grammar of .pir text (language.md). Rule structs only: the parse
// actions live in frontend/parser.cpp, the error messages in grammar/errors.hpp
// and the control (error raising, bracket tracking) in grammar/control.hpp.
//
// Conventions:
// - `skip` (blanks and comments) is consumed BEFORE a token, never after, so a
//   failing rule leaves the input at the offending token and errors point at it.
// - `expect<R>` is a commit point: if R does not match here, the error message
//   of R (errors.hpp) is raised at the position where R was tried.
// - Every rule fails without consuming input or raises: alternatives are
//   decided by their first token (the few exceptions use explicit lookahead).
// - Rules that open a bracket (`*_open`) and the rules that close it
//   (`*_close`) are distinct types, so the control can report "expected ')' to
//   close the parameter list opened at L:C" and actions can stream statements.
#pragma once
#include <cstring>
#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze_traits.hpp>

namespace pir::grammar {

namespace pg = tao::pegtl;
using pg::at;
using pg::digit;
using pg::eof;
using pg::not_at;
using pg::not_one;
using pg::one;
using pg::opt;
using pg::plus;
using pg::ranges;
using pg::seq;
using pg::sor;
using pg::star;

// expect<R> = R | raise(R) ;  (R is tried with rewind, so the error is located where R starts)
template <typename R>
struct expect : sor<R, pg::raise<R>> {};

// ---------------------------------------------------------------- lexical (§1)

// Scans blanks and comments from `p`: calls newline() at each '\n' and within(n) for
// each run of n bytes inside one line (blanks, or a comment up to its newline);
// returns where they end.
template <bool Semicolons, class Newline, class Within>
inline const char* scanBlanks(const char* p, const char* const end, Newline&& newline, Within&& within) {
  while (p != end) {
    const char c = *p;
    if (c == '\n') {
      newline();
      ++p;
    } else if (c == ' ' || c == '\t' || c == '\r' || (Semicolons && c == ';')) {
      const char* q = p + 1;
      while (q != end && (*q == ' ' || *q == '\t' || *q == '\r' || (Semicolons && *q == ';'))) ++q;
      within(static_cast<std::size_t>(q - p));
      p = q;
    } else if (c == '#') {
      const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
      const char* q = nl ? static_cast<const char*>(nl) : end;
      within(static_cast<std::size_t>(q - p));
      p = q;
    } else {
      break;
    }
  }
  return p;
}

// Blanks and comments run between every two tokens, so they are matched by a
// hand-written loop rather than a combinator per character (parse speed).
// comment = '#' { any byte except newline } ;
// blank = ' ' | '\t' | '\r' | '\n' ;
template <bool Semicolons>
struct blank_run {
  using rule_t = blank_run;
  using subs_t = pg::empty_list;
  template <typename Input>
  static bool match(Input& in) {
    scanBlanks<Semicolons>(
        in.current(), in.end(), [&] { in.bump_to_next_line(1); }, [&](std::size_t n) { in.bump_in_this_line(n); });
    return true;
  }
};
// skip = { blank | comment } ;
struct skip : blank_run<false> {};

// A lookahead: after blanks and comments (as `skip` reads them) comes one of
// `Cs`. Consumes nothing. It lets an optional part that may follow blanks be
// ruled out with one scan of them rather than one per part tried.
// blanks_then<Cs> = &( skip ( Cs ) ) ;
template <char... Cs>
struct blanks_then {
  using rule_t = blanks_then;
  using subs_t = pg::empty_list;
  template <typename Input>
  static bool match(Input& in) {
    const char* const end = in.end();
    const char* p = scanBlanks<false>(in.current(), end, [] {}, [](std::size_t) {});
    return p != end && ((*p == Cs) || ...);
  }
};
// separators = { blank | comment | ';' } ;   (between statements only)
struct separators : blank_run<true> {};

// ident_first = letter | '_' ;
struct ident_first : ranges<'a', 'z', 'A', 'Z', '_'> {};
// ident_char = letter | digit | '_' ;
struct ident_char : ranges<'a', 'z', 'A', 'Z', '0', '9', '_'> {};
// name_char = letter | digit | '_' | '.' ;
struct name_char : ranges<'a', 'z', 'A', 'Z', '0', '9', '_', '_', '.', '.'> {};

// The same classes as tables, for the word rules below: one load per byte.
struct CharClass {
  bool has[256] = {};
  constexpr CharClass(bool digits, bool dot) {
    for (int c = 'a'; c <= 'z'; ++c) has[c] = true;
    for (int c = 'A'; c <= 'Z'; ++c) has[c] = true;
    has[static_cast<unsigned char>('_')] = true;
    if (digits)
      for (int c = '0'; c <= '9'; ++c) has[c] = true;
    if (dot) has[static_cast<unsigned char>('.')] = true;
  }
  constexpr bool operator()(char c) const { return has[static_cast<unsigned char>(c)]; }
};
inline constexpr CharClass kIdentFirst{false, false};
inline constexpr CharClass kIdentChar{true, false};
inline constexpr CharClass kNameChar{true, true};

// The end of the run of `Rest` characters from `p` (no further than `end`).
inline const char* scanClass(const char* p, const char* const end, const CharClass& rest) {
  while (p != end && rest(*p)) ++p;
  return p;
}

// A word: one `First` character, then any number of `Rest` ones. Names and
// identifiers are most of a program's text, so they are matched by one scan
// that moves the input once, not by a combinator that moves it per character.
// A word never holds a line end.
template <const CharClass& First, const CharClass& Rest>
struct word_run {
  using rule_t = word_run;
  using subs_t = pg::empty_list;
  template <typename Input>
  static bool match(Input& in) {
    const char* const p = in.current();
    const char* const end = in.end();
    if (p == end || !First(*p)) return false;
    in.bump_in_this_line(static_cast<std::size_t>(scanClass(p + 1, end, Rest) - p));
    return true;
  }
};
// identifier = ident_first { ident_char } ;
struct identifier : word_run<kIdentFirst, kIdentChar> {};
// name = name_char { name_char } ;
struct name : word_run<kNameChar, kNameChar> {};

// Keywords: the word not followed by an identifier character, one per row of
// grammar/keywords.def.
// kw_X = "X" !ident_char ;
#define PIR_KEYWORD(id, word, ...) \
  struct kw_##id : TAO_PEGTL_KEYWORD(word) {};
#include "grammar/keywords.def"
#undef PIR_KEYWORD
// The number words: reserved like keywords, but numbers, not items of keywords.def.
struct kw_nan : TAO_PEGTL_KEYWORD("nan") {};
struct kw_inf : TAO_PEGTL_KEYWORD("inf") {};

// Every keyword rule above, for tools that offer or recognise keywords
// (frontend/lexical.h derives their spellings from these types).
#define PIR_KEYWORD(id, ...) kw_##id,
using keywords = pg::type_list<
#include "grammar/keywords.def"
    kw_nan, kw_inf>;
#undef PIR_KEYWORD

// Sigil names. The name after a sigil is a commit point.
// value_name_chars = name ;  graph_name_chars = name ;  resource_name_chars = name ;
struct value_name_chars : name {};
struct graph_name_chars : name {};
struct resource_name_chars : name {};
// value_name = '%' name ;
struct value_name : seq<one<'%'>, expect<value_name_chars>> {};
// graph_name = '@' name ;
struct graph_name : seq<one<'@'>, expect<graph_name_chars>> {};
// resource_name = '$' name ;
struct resource_name : seq<one<'$'>, expect<resource_name_chars>> {};

// Numbers: 3  -2  0.5  .5  5.  1e-3  -2.5E+4  nan  inf  -inf
// exponent_digits = digit { digit } ;
struct exponent_digits : plus<digit> {};
// exponent = ( 'e' | 'E' ) [ '+' | '-' ] exponent_digits ;
struct exponent : seq<one<'e', 'E'>, opt<one<'+', '-'>>, expect<exponent_digits>> {};
// mantissa = digit { digit } [ '.' { digit } ] | '.' digit { digit } ;
struct mantissa : sor<seq<plus<digit>, opt<one<'.'>, star<digit>>>, seq<one<'.'>, plus<digit>>> {};
// number = [ '-' ] ( 'nan' | 'inf' | mantissa [ exponent ] ) !name_char ;
struct number : seq<opt<one<'-'>>,
                    sor<kw_nan, kw_inf, seq<mantissa, opt<exponent>>>,
                    not_at<name_char>> {};
// unsigned_integer = digit { digit } !name_char ;
struct unsigned_integer : seq<plus<digit>, not_at<name_char>> {};

// Strings: "..." with the escapes \" \\ \n \t \r. A string may span lines; a raw CR in
// the source is a line end (SourceManager), so a CR in a value is written \r.
// string_open = '"' ;
struct string_open : one<'"'> {};
// escape_code = '"' | '\' | 'n' | 't' | 'r' ;
struct escape_code : one<'"', '\\', 'n', 't', 'r'> {};
// escape = '\' escape_code ;
struct escape : seq<one<'\\'>, expect<escape_code>> {};
// string_body = { escape | any byte except '"' and '\' } ;
struct string_body : star<sor<escape, plus<not_one<'"', '\\'>>>> {};
// string_close = '"' ;
struct string_close : one<'"'> {};
// string = string_open string_body string_close ;
struct string : seq<string_open, string_body, expect<string_close>> {};

// ---------------------------------------------------------------- types (§2)

// dtype_word = identifier ;   (checked against the dtype table by the actions)
struct dtype_word : identifier {};
// dim = unsigned_integer ;
struct dim : unsigned_integer {};
// shape_open = '[' ;  shape_close = ']' ;
struct shape_open : one<'['> {};
struct shape_close : one<']'> {};
// shape = shape_open [ dim { ',' dim } ] shape_close ;
struct shape : seq<shape_open, skip, opt<dim, star<skip, one<','>, skip, expect<dim>>, skip>, expect<shape_close>> {};
// type = dtype_word shape ;
struct type : seq<dtype_word, skip, expect<shape>> {};

// ---------------------------------------------------------------- data (§5)

// lit_number = number ;  lit_true = 'true' ;  lit_false = 'false' ;
struct lit_number : number {};
struct lit_true : kw_true {};
struct lit_false : kw_false {};
// lit_scalar = lit_number | lit_true | lit_false ;
struct lit_scalar : sor<lit_number, lit_true, lit_false> {};
// lit_list_open = '[' ;  lit_list_close = ']' ;
struct lit_list_open : one<'['> {};
struct lit_list_close : one<']'> {};
// lit_element = lit_scalar | lit_list ;
struct lit_list;
struct lit_element : sor<lit_scalar, lit_list> {};
// lit_list = lit_list_open [ lit_element { ',' lit_element } ] lit_list_close ;  (rectangular: checked by actions)
struct lit_list : seq<lit_list_open, skip,
                      opt<lit_element, star<skip, one<','>, skip, expect<lit_element>>, skip>,
                      expect<lit_list_close>> {};
// data_literal = lit_list | lit_scalar ;
struct data_literal : sor<lit_list, lit_scalar> {};

// load_path = string ;
struct load_path : string {};
// generator_open = '(' ;  generator_close = ')' ;  (the parenthesis of load/uniform/normal)
struct generator_open : one<'('> {};
struct generator_close : one<')'> {};
// load_data = 'load' '(' load_path ')' ;
struct load_data : seq<kw_load, skip, expect<generator_open>, skip, expect<load_path>, skip, expect<generator_close>> {};
// data = load_data | data_literal ;
struct data : sor<load_data, data_literal> {};

// generator_arg = number ;
struct generator_arg : number {};
// generator_args = '(' generator_arg ',' generator_arg ',' generator_arg ')' ;
struct generator_comma : one<','> {};
struct generator_args : seq<expect<generator_open>, skip, expect<generator_arg>, skip, expect<generator_comma>, skip,
                            expect<generator_arg>, skip, expect<generator_comma>, skip, expect<generator_arg>, skip,
                            expect<generator_close>> {};
// uniform_init = 'uniform' generator_args ;  normal_init = 'normal' generator_args ;
struct uniform_init : seq<kw_uniform, skip, generator_args> {};
struct normal_init : seq<kw_normal, skip, generator_args> {};
// init = uniform_init | normal_init | 'zeros' | 'ones' | data ;
struct init : sor<uniform_init, normal_init, kw_zeros, kw_ones, data> {};

// ---------------------------------------------------------------- attributes (§5)

// attr_number = number ;  attr_true = 'true' ;  attr_false = 'false' ;  attr_string = string ;
struct attr_number : number {};
struct attr_true : kw_true {};
struct attr_false : kw_false {};
struct attr_string : string {};
// attr_graph = graph_name ;  attr_value_ref = value_name ;  attr_resource = resource_name ;
struct attr_graph : graph_name {};
struct attr_value_ref : value_name {};
struct attr_resource : resource_name {};
// attr_word = identifier ;   (dtype names, enum words, none, all, ...)
struct attr_word : identifier {};
struct attr_value;
// attr_list_open = '[' ;  attr_list_close = ']' ;  attr_tuple_open = '(' ;  attr_tuple_close = ')' ;
struct attr_list_open : one<'['> {};
struct attr_list_close : one<']'> {};
struct attr_tuple_open : one<'('> {};
struct attr_tuple_close : one<')'> {};
// attr_items = [ attr_value { ',' attr_value } ] ;
struct attr_items : opt<attr_value, star<skip, one<','>, skip, expect<attr_value>>, skip> {};
// attr_list = '[' attr_items ']' ;
struct attr_list : seq<attr_list_open, skip, attr_items, expect<attr_list_close>> {};
// attr_tuple = '(' attr_items ')' ;
struct attr_tuple : seq<attr_tuple_open, skip, attr_items, expect<attr_tuple_close>> {};
// attr_value = attr_number | attr_true | attr_false | attr_string | attr_graph | attr_value_ref
//            | attr_resource | attr_list | attr_tuple | attr_word ;
struct attr_value : sor<attr_number, attr_true, attr_false, attr_string, attr_graph, attr_value_ref, attr_resource,
                        attr_list, attr_tuple, attr_word> {};
// attr_key = identifier ;
struct attr_key : identifier {};
// attr_equals = '=' ;
struct attr_equals : one<'='> {};
// attr_entry = attr_key '=' attr_value ;
struct attr_entry : seq<attr_key, skip, expect<attr_equals>, skip, expect<attr_value>> {};
// attr_dict_open = '{' ;  attr_dict_close = '}' ;
struct attr_dict_open : one<'{'> {};
struct attr_dict_close : one<'}'> {};
// attr_dict = '{' [ attr_entry { ',' attr_entry } ] '}' ;
struct attr_dict : seq<attr_dict_open, skip, opt<attr_entry, star<skip, one<','>, skip, expect<attr_entry>>, skip>,
                       expect<attr_dict_close>> {};

// ---------------------------------------------------------------- operands (§5, §6)

// operand_value = value_name ;  operand_resource = resource_name ;  operand_literal = data_literal ;
struct operand_value : value_name {};
struct operand_resource : resource_name {};
struct operand_literal : data_literal {};
// call_arg = operand_value | operand_resource | operand_literal ;
struct call_arg : sor<operand_value, operand_resource, operand_literal> {};
// call_graph = graph_name ;  call_open = '(' ;  call_close = ')' ;
struct call_graph : graph_name {};
struct call_open : one<'('> {};
struct call_close : one<')'> {};
// operand_call = call_graph '(' [ call_arg { ',' call_arg } ] ')' ;
struct operand_call : seq<call_graph, skip, expect<call_open>, skip,
                          opt<call_arg, star<skip, one<','>, skip, expect<call_arg>>, skip>, expect<call_close>> {};
// operand = operand_value | operand_resource | operand_call | operand_literal ;
struct operand : sor<operand_value, operand_resource, operand_call, operand_literal> {};

// The results of the NEXT statement (`%a, %b =`) must not be read as operands of
// an op that has none: results_ahead looks for them without consuming.
// results_ahead = '%' name { ',' '%' name } '=' ;
// (A lookahead before every operand list: one scan that consumes nothing.)
struct results_ahead {
  using rule_t = results_ahead;
  using subs_t = pg::empty_list;
  // After '%' at `p`: the end of the name, or nullptr when there is none.
  static const char* sigilName(const char* p, const char* const end) {
    if (p == end || *p != '%') return nullptr;
    const char* q = scanClass(p + 1, end, kNameChar);
    return q == p + 1 ? nullptr : q;
  }
  template <typename Input>
  static bool match(Input& in) {
    const char* const end = in.end();
    const char* p = sigilName(in.current(), end);
    if (!p) return false;
    for (;;) {
      const char* q = scanBlanks<false>(p, end, [] {}, [](std::size_t) {});
      if (q == end || *q != ',') break;
      q = sigilName(scanBlanks<false>(q + 1, end, [] {}, [](std::size_t) {}), end);
      if (!q) break;
      p = q;
    }
    p = scanBlanks<false>(p, end, [] {}, [](std::size_t) {});
    return p != end && *p == '=';
  }
};
// operands = !results_ahead operand { ',' operand } ;
struct operands : seq<not_at<results_ahead>, operand, star<skip, one<','>, skip, expect<operand>>> {};

// ---------------------------------------------------------------- statements (§5)

// result_name = value_name ;
struct result_name : value_name {};
// results_equals = '=' ;
struct results_equals : one<'='> {};
// results = result_name { ',' result_name } '=' ;
struct results : seq<result_name, star<skip, one<','>, skip, expect<result_name>>, skip, expect<results_equals>> {};
// op_name = identifier ;
struct op_name : identifier {};
// op_attrs = attr_dict ;  result_type = type ;  label = name ;
struct op_attrs : attr_dict {};
struct result_type : type {};
struct label : name {};
// result_types = ':' result_type { ',' result_type } ;
struct result_types : seq<one<':'>, skip, expect<result_type>, star<skip, one<','>, skip, expect<result_type>>> {};
// as_clause = 'as' label ;  using_clause = 'using' label ;
struct as_clause : seq<kw_as, skip, expect<label>> {};
struct using_clause : seq<kw_using, skip, expect<label>> {};
// op_body = op_name [ operands ] [ op_attrs ] [ result_types ] { as_clause | using_clause } ;
// (The parts after the operands start with '{', ':', 'a' or 'u': one look past
// the blanks decides whether to try them, so a plain statement's end is not
// rescanned once per part.)
struct op_body : seq<op_name, opt<skip, operands>,
                     opt<blanks_then<'{', ':', 'a', 'u'>, opt<skip, op_attrs>, opt<skip, result_types>,
                         star<skip, sor<as_clause, using_clause>>>> {};
// result_op_stmt = results op_body ;  bare_op_stmt = op_body ;
struct result_op_stmt : seq<results, skip, expect<op_body>> {};
struct bare_op_stmt : op_body {};
// op_stmt = result_op_stmt | bare_op_stmt ;
struct op_stmt : sor<result_op_stmt, bare_op_stmt> {};

// decl_name = value_name ;  decl_type = type ;  decl_colon = ':' ;  decl_equals = '=' ;
struct decl_name : value_name {};
struct decl_type : type {};
struct decl_colon : one<':'> {};
struct decl_equals : one<'='> {};
// var_init = init ;  const_data = data ;  decl_attrs = attr_dict ;
struct var_init : init {};
struct const_data : data {};
struct decl_attrs : attr_dict {};
// var_decl = 'var' decl_name ':' decl_type '=' var_init [ decl_attrs ] ;
struct var_decl : seq<kw_var, skip, expect<decl_name>, skip, expect<decl_colon>, skip, expect<decl_type>, skip,
                      expect<decl_equals>, skip, expect<var_init>, opt<skip, decl_attrs>> {};
// const_decl = 'const' decl_name ':' decl_type '=' const_data [ decl_attrs ] ;
struct const_decl : seq<kw_const, skip, expect<decl_name>, skip, expect<decl_colon>, skip, expect<decl_type>, skip,
                        expect<decl_equals>, skip, expect<const_data>, opt<skip, decl_attrs>> {};

// return_stmt = 'return' [ operands ] ;
struct return_stmt : seq<kw_return, opt<skip, operands>> {};

// Exchange attributes may come before the body (`exchange {tile_set = io} { ... }`,
// the canonical form) or after it (`exchange { ... } {tile_set = io}`). A leading
// '{' is an attribute dictionary when it starts with `key =` or is `{}` followed by '{':
// a body statement never starts with `identifier =`.
// exchange_attrs_ahead = '{' ( identifier '=' | '}' '{' ) ;
struct exchange_attrs_ahead
    : seq<one<'{'>, skip, sor<seq<identifier, skip, one<'='>>, seq<one<'}'>, skip, one<'{'>>>> {};
// exchange_attrs = attr_dict ;
struct exchange_attrs : attr_dict {};
// exchange_open = '{' ;  exchange_close = '}' ;
struct exchange_open : one<'{'> {};
struct exchange_close : one<'}'> {};
// exchange_stmt = 'exchange' [ exchange_attrs ] '{' { op_stmt } '}' [ exchange_attrs ] ;
struct exchange_stmt : seq<kw_exchange, opt<skip, at<exchange_attrs_ahead>, exchange_attrs>, skip, expect<exchange_open>,
                           separators, star<op_stmt, separators>, expect<exchange_close>, opt<skip, exchange_attrs>> {};

// body_stmt = result_op_stmt | var_decl | const_decl | return_stmt | exchange_stmt | bare_op_stmt ;
// (result_op_stmt first: it is the common case and starts with '%', decided at once)
struct body_stmt : sor<result_op_stmt, var_decl, const_decl, return_stmt, exchange_stmt, bare_op_stmt> {};

// ---------------------------------------------------------------- graphs (§4)

// param_name = value_name ;  param_colon = ':' ;  by_ref = '&' ;  param_type = type ;
struct param_name : value_name {};
struct param_colon : one<':'> {};
struct by_ref : one<'&'> {};
struct param_type : type {};
// param = param_name ':' [ '&' ] param_type ;
struct param : seq<param_name, skip, expect<param_colon>, skip, opt<by_ref, skip>, expect<param_type>> {};
// params_open = '(' ;  params_close = ')' ;
struct params_open : one<'('> {};
struct params_close : one<')'> {};
// params = '(' [ param { ',' param } ] ')' ;
struct params : seq<params_open, skip, opt<param, star<skip, one<','>, skip, expect<param>>, skip>,
                    expect<params_close>> {};
// output_type = type ;  outputs_open = '(' ;  outputs_close = ')' ;
struct output_type : type {};
struct outputs_open : one<'('> {};
struct outputs_close : one<')'> {};
// outputs = '->' '(' [ output_type { ',' output_type } ] ')' ;
struct outputs : seq<TAO_PEGTL_STRING("->"), skip, expect<outputs_open>, skip,
                     opt<output_type, star<skip, one<','>, skip, expect<output_type>>, skip>, expect<outputs_close>> {};
// graph_attrs = 'attributes' attr_dict ;
struct graph_attr_dict : attr_dict {};
struct graph_attrs : seq<kw_attributes, skip, expect<graph_attr_dict>> {};
// graph_decl_name = graph_name ;  graph_open = '{' ;  graph_close = '}' ;
struct graph_decl_name : graph_name {};
struct graph_open : one<'{'> {};
struct graph_close : one<'}'> {};
// graph_def = 'graph' graph_decl_name params [ outputs ] [ graph_attrs ] '{' { body_stmt } '}' ;
struct graph_def : seq<kw_graph, skip, expect<graph_decl_name>, skip, expect<params>, opt<skip, outputs>,
                       opt<skip, graph_attrs>, skip, expect<graph_open>, separators, star<body_stmt, separators>,
                       expect<graph_close>> {};

// main_open = '{' ;  main_close = '}' ;
struct main_open : one<'{'> {};
struct main_close : one<'}'> {};
// main_block = 'main' '{' { body_stmt } '}' ;
struct main_block : seq<kw_main, skip, expect<main_open>, separators, star<body_stmt, separators>, expect<main_close>> {};

// ---------------------------------------------------------------- top-level items (§3)

// ir_dict = attr_dict ;
struct ir_dict : attr_dict {};
// ir_options = 'ir' ir_dict ;
struct ir_options : seq<kw_ir, skip, expect<ir_dict>> {};

// stream_name = resource_name ;  stream_type = type ;  stream_colon = ':' ;
struct stream_name : resource_name {};
struct stream_type : type {};
struct stream_colon : one<':'> {};
// stream_decl = ( 'h2d' | 'd2h' ) stream_name ':' stream_type ;
struct stream_decl : seq<sor<kw_h2d, kw_d2h>, skip, expect<stream_name>, skip, expect<stream_colon>, skip,
                         expect<stream_type>> {};
// buffer_name = resource_name ;  buffer_type = type ;  buffer_attrs = attr_dict ;
struct buffer_name : resource_name {};
struct buffer_type : type {};
struct buffer_attrs : attr_dict {};
// remote_buffer_decl = 'remote_buffer' buffer_name ':' buffer_type [ buffer_attrs ] ;
struct remote_buffer_decl : seq<kw_remote_buffer, skip, expect<buffer_name>, skip, expect<stream_colon>, skip,
                                expect<buffer_type>, opt<skip, buffer_attrs>> {};

// autodiff_fwd = graph_name ;  autodiff_grad = graph_name ;  autodiff_arrow = '->' ;  autodiff_attrs = attr_dict ;
struct autodiff_fwd : graph_name {};
struct autodiff_grad : graph_name {};
struct autodiff_arrow : TAO_PEGTL_STRING("->") {};
struct autodiff_attrs : attr_dict {};
// autodiff = 'autodiff' autodiff_fwd '->' autodiff_grad [ autodiff_attrs ] ;
struct autodiff : seq<kw_autodiff, skip, expect<autodiff_fwd>, skip, expect<autodiff_arrow>, skip,
                      expect<autodiff_grad>, opt<skip, autodiff_attrs>> {};

// Session commands (§11).
// feed_name = resource_name ;  feed_data = data ;  feed_equals = '=' ;
struct feed_name : resource_name {};
struct feed_data : data {};
struct feed_equals : one<'='> {};
// feed_cmd = 'feed' feed_name '=' feed_data ;
struct feed_cmd : seq<kw_feed, skip, expect<feed_name>, skip, expect<feed_equals>, skip, expect<feed_data>> {};
// run_count = unsigned_integer ;
struct run_count : unsigned_integer {};
// run_cmd = 'run' [ run_count ] ;
struct run_cmd : seq<kw_run, opt<skip, run_count>> {};
// target = value_name | resource_name ;
struct target : sor<value_name, resource_name> {};
// print_target = target ;
struct print_target : target {};
// print_cmd = 'print' print_target { ',' print_target } ;
struct print_cmd : seq<kw_print, skip, expect<print_target>, star<skip, one<','>, skip, expect<print_target>>> {};
// write_name = value_name ;  write_data = data ;  write_equals = '=' ;
struct write_name : value_name {};
struct write_equals : one<'='> {};
struct write_data : data {};
// write_cmd = 'write' write_name '=' write_data ;
struct write_cmd : seq<kw_write, skip, expect<write_name>, skip, expect<write_equals>, skip, expect<write_data>> {};
// save_target = target ;  save_path = string ;
struct save_target : target {};
struct save_path : string {};
// save_cmd = 'save' save_target save_path ;
struct save_cmd : seq<kw_save, skip, expect<save_target>, skip, expect<save_path>> {};

// top_item = result_op_stmt | ir_options | stream_decl | remote_buffer_decl | graph_def | main_block | autodiff
//          | feed_cmd | run_cmd | print_cmd | write_cmd | save_cmd | body_stmt ;
struct top_item : sor<result_op_stmt, ir_options, stream_decl, remote_buffer_decl, graph_def, main_block, autodiff, feed_cmd, run_cmd,
                      print_cmd, write_cmd, save_cmd, body_stmt> {};
// end_of_input = eof ;
struct end_of_input : eof {};
// file = separators { top_item separators } end_of_input ;
struct file : seq<separators, star<top_item, separators>, expect<end_of_input>> {};
// A REPL input is a sequence of top-level items, exactly like a file.
// repl_input = file ;
struct repl_input : file {};

}  // namespace pir::grammar

// The hand-written blank rule: it may succeed without consuming (for analyze()).
template <typename Name, bool Semicolons>
struct tao::pegtl::analyze_traits<Name, pir::grammar::blank_run<Semicolons>> : tao::pegtl::analyze_opt_traits<> {};
// The lookahead consumes nothing.
template <typename Name, char... Cs>
struct tao::pegtl::analyze_traits<Name, pir::grammar::blanks_then<Cs...>> : tao::pegtl::analyze_opt_traits<> {};
template <typename Name>
struct tao::pegtl::analyze_traits<Name, pir::grammar::results_ahead> : tao::pegtl::analyze_opt_traits<> {};
// A word consumes at least one character.
template <typename Name, const pir::grammar::CharClass& First, const pir::grammar::CharClass& Rest>
struct tao::pegtl::analyze_traits<Name, pir::grammar::word_run<First, Rest>> : tao::pegtl::analyze_any_traits<> {};
