// Error messages of the .pir grammar: one for every commit point `expect<R>`
// (PEGTL 3.2's must_if-style `message<Rule>` table), plus the bracket traits the
// control uses to say where an unclosed bracket was opened (tools.md §2).
#pragma once
#include "grammar/grammar.hpp"

namespace pir::grammar {

// The message raised when `expect<R>` fails: what was expected at that point.
template <typename R>
inline constexpr const char* error_message = nullptr;

// Rules that open a bracket: the control records where they matched.
template <typename R>
inline constexpr bool opens_bracket = false;

// Rules that close the innermost open bracket. The value describes the bracket
// for the note; the control appends " opened at L:C" to the error message.
template <typename R>
inline constexpr const char* closes_bracket = nullptr;

// Errors reported at the innermost opener instead of the failure point.
template <typename R>
inline constexpr bool error_at_opener = false;

// The must_if-style error table (PEGTL 3.2: `Errors::message<Rule>`).
struct errors {
  template <typename R>
  static constexpr const char* message = error_message<R>;
};

#define PIR_GRAMMAR_ERROR(rule, text) \
  template <>                         \
  inline constexpr const char* error_message<rule> = text
#define PIR_GRAMMAR_OPENER(rule) \
  template <>                    \
  inline constexpr bool opens_bracket<rule> = true
#define PIR_GRAMMAR_CLOSER(rule, token, what)                              \
  template <>                                                              \
  inline constexpr const char* error_message<rule> = "expected " token " to close " what; \
  template <>                                                              \
  inline constexpr const char* closes_bracket<rule> = what

// Names.
PIR_GRAMMAR_ERROR(value_name_chars, "expected a name after '%'");
PIR_GRAMMAR_ERROR(graph_name_chars, "expected a name after '@'");
PIR_GRAMMAR_ERROR(resource_name_chars, "expected a name after '$'");

// Numbers and strings.
PIR_GRAMMAR_ERROR(exponent_digits, "expected digits in the exponent");
PIR_GRAMMAR_ERROR(escape_code, "unknown escape sequence: expected \\\", \\\\, \\n, \\t or \\r");
PIR_GRAMMAR_OPENER(string_open);
PIR_GRAMMAR_ERROR(string_close, "unterminated string");
template <>
inline constexpr const char* closes_bracket<string_close> = "the string";
template <>
inline constexpr bool error_at_opener<string_close> = true;

// Types.
PIR_GRAMMAR_ERROR(shape, "expected '[' and the dimensions after the dtype, as in f32[2,3]");
PIR_GRAMMAR_ERROR(dim, "expected a dimension (a non-negative integer)");
PIR_GRAMMAR_OPENER(shape_open);
PIR_GRAMMAR_CLOSER(shape_close, "']'", "the shape");
#define PIR_TYPE_MESSAGE "expected a type such as f32[2,3]"
PIR_GRAMMAR_ERROR(result_type, PIR_TYPE_MESSAGE);
PIR_GRAMMAR_ERROR(decl_type, PIR_TYPE_MESSAGE);
PIR_GRAMMAR_ERROR(param_type, PIR_TYPE_MESSAGE);
PIR_GRAMMAR_ERROR(output_type, PIR_TYPE_MESSAGE);
PIR_GRAMMAR_ERROR(stream_type, PIR_TYPE_MESSAGE);
PIR_GRAMMAR_ERROR(buffer_type, PIR_TYPE_MESSAGE);
#undef PIR_TYPE_MESSAGE

// Data.
PIR_GRAMMAR_OPENER(lit_list_open);
PIR_GRAMMAR_CLOSER(lit_list_close, "']'", "the list");
PIR_GRAMMAR_ERROR(lit_element, "expected a number, true, false or a nested list");
PIR_GRAMMAR_OPENER(generator_open);
PIR_GRAMMAR_ERROR(generator_open, "expected '(' and the arguments");
PIR_GRAMMAR_CLOSER(generator_close, "')'", "the argument list");
PIR_GRAMMAR_ERROR(generator_arg, "expected a number");
PIR_GRAMMAR_ERROR(generator_comma, "expected ',' (a generator takes three numbers)");
PIR_GRAMMAR_ERROR(load_path, "expected a file name string such as \"data.npy\"");
#define PIR_DATA_MESSAGE "expected data: a number, true, false, a nested list or load(\"file.npy\")"
PIR_GRAMMAR_ERROR(const_data, PIR_DATA_MESSAGE);
PIR_GRAMMAR_ERROR(feed_data, PIR_DATA_MESSAGE);
PIR_GRAMMAR_ERROR(write_data, PIR_DATA_MESSAGE);
#undef PIR_DATA_MESSAGE
PIR_GRAMMAR_ERROR(var_init,
                  "expected an initial value: a number, a nested list, load(\"file.npy\"), "
                  "uniform(low, high, seed), normal(mean, std, seed), zeros or ones");

// Attributes.
PIR_GRAMMAR_OPENER(attr_list_open);
PIR_GRAMMAR_CLOSER(attr_list_close, "']'", "the list");
PIR_GRAMMAR_OPENER(attr_tuple_open);
PIR_GRAMMAR_CLOSER(attr_tuple_close, "')'", "the tuple");
PIR_GRAMMAR_ERROR(attr_value, "expected an attribute value");
PIR_GRAMMAR_ERROR(attr_equals, "expected '=' after the attribute name");
PIR_GRAMMAR_ERROR(attr_entry, "expected an attribute name");
PIR_GRAMMAR_OPENER(attr_dict_open);
PIR_GRAMMAR_CLOSER(attr_dict_close, "'}'", "the attribute dictionary");
PIR_GRAMMAR_ERROR(graph_attr_dict, "expected '{' and the graph attributes after 'attributes'");
PIR_GRAMMAR_ERROR(ir_dict, "expected '{' and the IR options after 'ir'");

// Operands and op statements.
PIR_GRAMMAR_ERROR(operand, "expected an operand");
PIR_GRAMMAR_ERROR(call_arg, "expected an operand");
PIR_GRAMMAR_OPENER(call_open);
PIR_GRAMMAR_ERROR(call_open, "expected '(' and the arguments of the call");
PIR_GRAMMAR_CLOSER(call_close, "')'", "the argument list");
PIR_GRAMMAR_ERROR(result_name, "expected a result name such as %r");
PIR_GRAMMAR_ERROR(results_equals, "expected '=' after the result names");
PIR_GRAMMAR_ERROR(op_body, "expected an op name after '='");
PIR_GRAMMAR_ERROR(label, "expected a call-site label");

// Declarations.
PIR_GRAMMAR_ERROR(decl_name, "expected a value name such as %W");
PIR_GRAMMAR_ERROR(decl_colon, "expected ':' and a type after the name");
PIR_GRAMMAR_ERROR(decl_equals, "expected '=' and a value after the type");

// Exchange blocks.
PIR_GRAMMAR_OPENER(exchange_open);
PIR_GRAMMAR_ERROR(exchange_open, "expected '{' to open the exchange block");
PIR_GRAMMAR_CLOSER(exchange_close, "'}'", "the exchange block");

// Graphs and main.
PIR_GRAMMAR_ERROR(graph_decl_name, "expected a graph name such as @g");
PIR_GRAMMAR_OPENER(params_open);
PIR_GRAMMAR_ERROR(params, "expected '(' and the parameter list");
PIR_GRAMMAR_ERROR(param, "expected a parameter such as %x: f32[2]");
PIR_GRAMMAR_ERROR(param_colon, "expected ':' and a type after the parameter name");
PIR_GRAMMAR_CLOSER(params_close, "')'", "the parameter list");
PIR_GRAMMAR_OPENER(outputs_open);
PIR_GRAMMAR_ERROR(outputs_open, "expected '(' and the output types after '->'");
PIR_GRAMMAR_CLOSER(outputs_close, "')'", "the output type list");
PIR_GRAMMAR_OPENER(graph_open);
PIR_GRAMMAR_ERROR(graph_open, "expected '{' to open the graph body");
PIR_GRAMMAR_CLOSER(graph_close, "'}'", "the graph body");
PIR_GRAMMAR_OPENER(main_open);
PIR_GRAMMAR_ERROR(main_open, "expected '{' after 'main'");
PIR_GRAMMAR_CLOSER(main_close, "'}'", "the main body");

// Top-level items.
PIR_GRAMMAR_ERROR(stream_name, "expected a stream name such as $x");
PIR_GRAMMAR_ERROR(stream_colon, "expected ':' and a type after the name");
PIR_GRAMMAR_ERROR(buffer_name, "expected a buffer name such as $buf");
PIR_GRAMMAR_ERROR(autodiff_fwd, "expected the forward graph such as @fwd");
PIR_GRAMMAR_ERROR(autodiff_arrow, "expected '->' after the forward graph");
PIR_GRAMMAR_ERROR(autodiff_grad, "expected the name of the gradient graph such as @fwd_grad");
PIR_GRAMMAR_ERROR(feed_name, "expected a stream name such as $x");
PIR_GRAMMAR_ERROR(feed_equals, "expected '=' after the stream name");
PIR_GRAMMAR_ERROR(write_name, "expected a variable name such as %W");
PIR_GRAMMAR_ERROR(write_equals, "expected '=' after the variable name");
PIR_GRAMMAR_ERROR(print_target, "expected a name to print such as $y or %W");
PIR_GRAMMAR_ERROR(save_target, "expected a name to save such as $y or %W");
PIR_GRAMMAR_ERROR(save_path, "expected a file name string such as \"out.npy\"");
PIR_GRAMMAR_ERROR(end_of_input, "expected a declaration, a statement or a session command");

#undef PIR_GRAMMAR_ERROR
#undef PIR_GRAMMAR_OPENER
#undef PIR_GRAMMAR_CLOSER

}  // namespace pir::grammar
