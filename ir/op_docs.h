// The op reference generated from the op table (ir/ops.def): `pir help ops`,
// `pir help OP` and docs/ops.md come from here, so they cannot disagree with what
// the parser, verifier and VM accept.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace pir {

// `pir help ops`: one line per op (name, operands, attributes, grad), grouped by section.
std::string opReferenceText();
// `pir help ops --markdown`: the whole of docs/ops.md.
std::string opReferenceMarkdown();
// `pir help OP` (an op name or alias): signature, attributes and defaults, dtype
// rules, result types, gradient, in-place variant, aliases. nullopt if unknown.
std::optional<std::string> opHelp(std::string_view name);

}  // namespace pir
