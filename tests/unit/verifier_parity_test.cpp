// One verifier: every diagnostics golden (tests/lit/diagnostics) that parses
// is built twice, normally and resolve-only (names resolved, rules not
// checked), and verifyModule on the resolve-only module must report the
// builder's first error: same line, column and text. A rule checked only by
// the builder would make verifyModule accept a module the builder rejects.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/builder.h"
#include "ir/verifier.h"

namespace pir {
namespace {

std::string firstError(const DiagnosticEngine& d) {
  for (const Diagnostic& e : d.all())
    if (e.severity == Severity::Error)
      return std::to_string(e.loc.line) + ":" + std::to_string(e.loc.col) + ": " + e.message;
  return "";
}

struct Outcome {
  std::string normal, resolveOnly, verifier;
};

Outcome check(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string dir = std::filesystem::path(path).parent_path().string();
  Outcome o;
  {
    SourceManager sm;
    DiagnosticEngine d(sm);
    Module m;
    (void)buildFromBuffer(m, d, sm.add(path, text.str()), dir);  // the diagnostics are the result
    o.normal = firstError(d);
  }
  SourceManager sm;
  DiagnosticEngine d(sm);
  Module m;
  if (!buildFromBuffer(m, d, sm.add(path, text.str()), dir, nullptr, {.mode = BuildMode::ResolveOnly})) {
    o.resolveOnly = firstError(d);
    return o;
  }
  DiagnosticEngine v(sm);
  (void)verifyModule(m, v);  // the diagnostics are the result
  o.verifier = firstError(v);
  return o;
}

TEST(VerifierParity, EveryDiagnosticsGoldenGivesTheBuildersErrorThroughVerifyModule) {
  const std::filesystem::path dir = std::filesystem::path(PIR_SOURCE_DIR) / "tests" / "lit" / "diagnostics";
  int checked = 0, viaVerifier = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".pir" || name.rfind("parse_", 0) == 0) continue;
    Outcome o = check(entry.path().string());
    if (o.normal.empty()) continue;  // a golden of warnings or of the session, not of the program
    ++checked;
    if (!o.resolveOnly.empty()) {
      EXPECT_EQ(o.resolveOnly, o.normal) << name << ": a resolution error must be the same in both modes";
      continue;
    }
    ++viaVerifier;
    if (name == "result_type_mismatch.pir") {
      // A written result type is source text, not IR: the module keeps only the
      // type, so the verifier blames the op where the builder points at the type.
      EXPECT_EQ(o.verifier.substr(o.verifier.find(": ")), o.normal.substr(o.normal.find(": "))) << name;
      continue;
    }
    EXPECT_EQ(o.verifier, o.normal) << name;
  }
  EXPECT_GT(checked, 40);
  EXPECT_GT(viaVerifier, 20);
}

}  // namespace
}  // namespace pir
