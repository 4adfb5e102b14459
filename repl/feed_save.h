// `pir run FILE --feed NAME=DATA.npy --save NAME=OUT.npy`: data from and to the
// command line, so a script file need not hold its data. The session feeds and
// saves them (api::ScriptData, api::Session::save); this reads the arguments.
#pragma once
#include <string>

#include "repl/commands.h"

namespace pir::cli {

// Splits `NAME=PATH`; false (with `problem` set) if either side is empty.
bool parseNamedPath(const std::string& text, NamedPath& out, std::string& problem);

}  // namespace pir::cli
