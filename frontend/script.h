// The script of a .pir text: its session commands (language.md §11), apart from
// the program. Parsing yields the module and this list; a session runs it after
// the parse (api/session_driver.h), so a text is parsed and verified whole
// before any of its commands runs.
#pragma once
#include <vector>

#include "ir/ir.h"

namespace pir {

struct ScriptCommand {
  SessionCommand command;
  // The program as defined when the command was read: the command runs that
  // program (language.md §11), not the whole text's.
  ProgramPoint point;
  // Per entry of command.names (print/save): the main value a `%` target named
  // when the command was read (a later definition may rename a generated name),
  // nullptr for a `$` stream.
  std::vector<const Value*> values;
};

using Script = std::vector<ScriptCommand>;

}  // namespace pir
