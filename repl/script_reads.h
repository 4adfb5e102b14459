// Which main-graph values a script's session commands can read after a run, for
// `pir run FILE`: the VM then frees every other main value after its last use
// (vm/compiler.h, SessionOptions::keptMainNames; decisions.md "Run backups and
// snapshots"). The session reads commands as it builds, so the file is scanned
// ahead of time, lexically.
#pragma once
#include <set>
#include <string>
#include <string_view>

namespace pir::cli {

// The names (without '%') of every `%value` a `print` or `save` command in `text`
// names, following the grammar's print_cmd / save_cmd (language.md §11). An
// over-approximation, never an under-approximation: a `print` or `save` word
// anywhere (in a comment or string too) counts, so no command that parses is missed.
std::set<std::string> valuesNamedByCommands(std::string_view text);

}  // namespace pir::cli
