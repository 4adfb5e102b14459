#include "repl/feed_save.h"

#include "ir/suggest.h"

namespace pir::cli {

bool parseNamedPath(const std::string& text, NamedPath& out, std::string& problem) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    problem = "expected NAME=FILE.npy, got '" + text + "'";
    return false;
  }
  out.name = text.substr(0, eq);
  out.path = text.substr(eq + 1);
  return true;
}

void CommandLineData::beforeCommand(const SessionCommand& cmd) {
  if (cmd.kind == SessionCommand::Kind::Run) feedOnce();
  if (cmd.kind == SessionCommand::Kind::Print || cmd.kind == SessionCommand::Kind::Save) showsValues_ = true;
}

void CommandLineData::feedOnce() {
  if (fed_) return;
  fed_ = true;
  // A --save that names nothing fails now, not after a long run.
  for (const NamedPath& s : saves_) saveTarget(s);
  for (const NamedPath& f : feeds_) {
    std::string name = f.name[0] == '$' ? f.name.substr(1) : f.name;
    std::string what = "--feed " + f.name + "=" + f.path;
    const Resource* r = module_.findResource(name);
    if (!r) diags_.fail({}, what + ": unknown stream $" + name + suggestResource(module_, name));
    if (r->kind != Resource::Kind::H2D) {
      std::vector<Note> notes;
      if (r->loc.valid()) notes.push_back({r->loc, "$" + r->name + " is declared here"});
      diags_.fail({}, what + ": $" + name + " is not an h2d stream", std::move(notes));
    }
    Literal data;
    data.kind = Literal::Kind::Load;
    data.path = data.resolvedPath = f.path;
    session_.feed(name, data, {});
  }
}

// The `$NAME` or `%NAME` a --save names; fails (reported) when there is none.
std::string CommandLineData::saveTarget(const NamedPath& s) const {
  std::string what = "--save " + s.name + "=" + s.path;
  std::string target = s.name;
  if (target[0] != '$' && target[0] != '%') {
    // A bare name: the stream if there is one, else the main-graph value.
    if (module_.findResource(target)) target = "$" + target;
    else if (module_.main->lookup(target)) target = "%" + target;
    else diags_.fail({}, what + ": no stream $" + target + " and no main-graph value %" + target);
  }
  std::string bare = target.substr(1);
  if (target[0] == '$' && !module_.findResource(bare))
    diags_.fail({}, what + ": unknown stream " + target + suggestResource(module_, bare));
  if (target[0] == '%' && !module_.main->lookup(bare))
    diags_.fail({}, what + ": unknown main-graph value " + target + suggestValue(*module_.main, bare));
  return target;
}

void CommandLineData::saveAll() {
  for (const NamedPath& s : saves_) session_.save(saveTarget(s), s.path, {});
}

}  // namespace pir::cli
