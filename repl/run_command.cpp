// `pir run FILE [--passes=LIST] [--trace] [--no-fuse] [--threads=N] [--feed N=F] [--save N=F]`,
// `pir profile FILE` and `pir disasm FILE` (tools.md §1): thin over the public
// API (pir/pir.h): the file is parsed and verified whole, then its commands run.
#include <algorithm>
#include <istream>
#include <ostream>

#include "repl/commands.h"

namespace pir::cli {

namespace {

// Writes a failed call's diagnostics; the exit status of a wrong program.
int failed(const api::Status& status, std::ostream& err) {
  err << status.error();
  return 1;
}

}  // namespace

int runCommand(const RunOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  api::Context context({.threads = options.threads,
                        .maxSteps = options.maxSteps,
                        .fuseElementwise = options.fuse,
                        .warnings = options.warnings});
  int status = 0;
  std::optional<api::Module> module = parseProgram(options.file, in, context, err, status);
  if (!module) return status;
  api::SessionOptions sessionOptions;
  sessionOptions.output = &out;
  sessionOptions.trace = options.trace ? &err : nullptr;
  sessionOptions.passes = options.passes;
  sessionOptions.verifyEach = options.verifyEach;
  // The script stops at its first error (runtime.md §8: exit status 1), so a failed
  // run needs no backup; and only main values a command reads are kept
  // (decisions.md "Run backups and snapshots").
  sessionOptions.stopAtFirstError = true;
  for (const NamedPath& s : options.saves)  // --save %NAME or a bare NAME that may be a value
    if (!s.name.empty() && s.name[0] != '$') sessionOptions.alsoRead.push_back(s.name);
  api::Result<api::Session> session = api::Session::create(context, *module, sessionOptions);
  if (!session) return failed(session.status(), err);
  api::ScriptData data;  // --feed, --save
  for (const NamedPath& f : options.feeds) data.feeds.emplace_back(f.name, f.path);
  for (const NamedPath& s : options.saves) data.saves.emplace_back(s.name, s.path);
  if (api::Status s = session->runScript(data); !s) return failed(s, err);
  if (options.profile || options.json || options.timeline) {
    api::ProfileRequest request{.text = options.profile,
                                .mapping = options.mapping,
                                .json = options.json.has_value(),
                                .timeline = options.timeline.has_value()};
    api::Result<api::ProfileReports> reports = session->profileReports(request);
    if (!reports) return failed(reports.status(), err);
    if (options.json && !writeFileAtomically(*options.json, reports->json, err)) return 2;
    if (options.timeline && !writeFileAtomically(*options.timeline, reports->timeline, err)) return 2;
    if (options.profile) (options.profileToOutput ? out : err) << reports->text;
  }
  for (const NamedPath& s : options.saves)
    if (api::Status saved = session->save(s.name, s.path, "--save " + s.name + "=" + s.path); !saved)
      return failed(saved, err);
  // A file without session commands prints its d2h streams; one with neither
  // shows nothing at all, which a newcomer reads as a failure.
  const std::vector<std::string> commands = module->scriptCommands();
  const std::vector<api::ResourceInfo> resources = module->resources();
  const bool defaultRunPrints =
      commands.empty() && std::any_of(resources.begin(), resources.end(), [](const api::ResourceInfo& r) {
        return r.kind == api::ResourceInfo::Kind::DeviceToHost;
      });
  const bool showsValues = !options.saves.empty() || std::any_of(commands.begin(), commands.end(), [](const std::string& c) {
                             return c == "print" || c == "save";
                           });
  if (!options.profileToOutput && !showsValues && !defaultRunPrints)
    err << "pir: note: the run printed nothing: add `print %NAME` or `print $STREAM` after `run`, or pass\n"
           "  --save NAME=OUT.npy (a file without session commands prints its d2h streams; `pir help print`)\n";
  out.flush();
  return 0;
}

int disasmCommand(const DisasmOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  api::Context context({.fuseElementwise = options.fuse});
  int status = 0;
  std::optional<api::Module> module = parseProgram(options.file, in, context, err, status);
  if (!module) return status;
  // The file's own commands read main values: passes keep them.
  if (!options.passes.empty())
    if (api::Status s = module->runPasses(options.passes); !s) return failed(s, err);
  api::Result<api::Session> session = api::Session::create(context, *module);
  if (!session) return failed(session.status(), err);
  api::Result<std::string> text = session->disassemble();
  if (!text) return failed(text.status(), err);
  out << *text;
  return 0;
}

}  // namespace pir::cli
