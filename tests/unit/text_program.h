// A module and its session built from program text, for tests: the text's session
// commands run as they are read; values and bytecode are read back afterwards.
#pragma once
#include <gtest/gtest.h>

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "api/session_driver.h"
#include "frontend/builder.h"
#include "vm/session.h"

namespace pir::vm {

struct TextProgram {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  Module m;
  std::ostringstream out, err;
  std::unique_ptr<Session> session;
  std::unique_ptr<pir::SessionDriver> driver;
  std::string fileName;
  bool ok = false;  // the text built and its commands ran

  explicit TextProgram(const std::string& text, SessionOptions options = {}, std::string name = "program.pir")
      : fileName(std::move(name)) {
    diags.setStream(&err);
    session = std::make_unique<Session>(m, diags, out, options);
    driver = std::make_unique<pir::SessionDriver>(m, *session, diags);
    ok = driver->build(sm.add(fileName, text), ".").succeeded();
  }
  // Runs one more session command given as text (like a REPL line).
  bool more(const std::string& text) { return driver->build(sm.add(fileName, text), ".").succeeded(); }
  // The value `print NAME` shows (an empty tensor, the test failed, when there is none).
  HostTensor value(const std::string& name) {
    FailureOr<HostTensor> t = session->valueOf(name, {});
    EXPECT_TRUE(t) << err.str();
    return t.failed() ? HostTensor() : std::move(*t);
  }
  std::vector<std::byte> bytes(const std::string& name) {
    const HostTensor t = value(name);
    return {t.bytes.data(), t.bytes.data() + t.bytes.size()};
  }
  // The bytecode of every graph ("" when it does not compile: the test fails).
  std::string disassembly() {
    FailureOr<std::string> text = session->disassemble(nullptr);
    EXPECT_TRUE(text) << err.str();
    return text.failed() ? std::string() : *text;
  }
};

// Expects `text` (an instruction as `pir disasm` prints it, or part of one) in the
// bytecode of `p`.
inline void expectInstruction(TextProgram& p, const std::string& text) {
  const std::string d = p.disassembly();
  EXPECT_NE(d.find(text), std::string::npos) << d;
}

// Expects each named value to hold the same bytes in `a` and `b`.
inline void expectSameValues(TextProgram& a, TextProgram& b, std::initializer_list<const char*> names) {
  for (const char* name : names) EXPECT_EQ(a.bytes(name), b.bytes(name)) << name;
}

// A program built with fusion (fused chains and sliced groups) on or off; `ok` also
// needs no error reported while its commands ran.
struct FusedProgram : TextProgram {
  FusedProgram(const std::string& text, bool fuse) : TextProgram(text, options(fuse)) {
    ok = ok && diags.errorCount() == 0;
  }
  static SessionOptions options(bool fuse) {
    SessionOptions o;
    o.fuseElementwise = fuse;
    return o;
  }
};

}  // namespace pir::vm
