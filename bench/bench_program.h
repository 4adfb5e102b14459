// A .pir program built into a session as `pir run` builds it (commands included),
// for benchmarks that time session->run(1).
#pragma once
#include <chrono>
#include <memory>
#include <sstream>
#include <string>

#include "frontend/builder.h"
#include "api/session_driver.h"
#include "vm/session.h"

namespace pir::bench {

struct BenchProgram {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  Module m;
  std::ostringstream out, err;  // what the program prints / its diagnostics
  std::unique_ptr<vm::Session> session;
  std::unique_ptr<pir::SessionDriver> driver;
  bool ok = false;  // built without errors

  // `dir`: where the program's relative file names (load("x.npy")) resolve.
  BenchProgram(const std::string& text, int threads, const std::string& dir = ".") {
    diags.setStream(&err);
    vm::SessionOptions options;
    options.threads = threads;
    session = std::make_unique<vm::Session>(m, diags, out, options);
    driver = std::make_unique<pir::SessionDriver>(m, *session, diags);
    ok = driver->build(sm.add("bench.pir", text), dir) && diags.errorCount() == 0;
  }
  double secondsPerRun() {
    const auto t0 = std::chrono::steady_clock::now();
    (void)session->run(1);  // an error is reported to `err` (the benchmark checks errorCount)
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
};

}  // namespace pir::bench
