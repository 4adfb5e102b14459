// A BuildListener in front of the SessionDriver that counts the runs the
// session commands make, for the profile's "runs executed".
#pragma once
#include <cstdint>

#include "frontend/builder.h"
#include "repl/session_driver.h"

namespace pir::cli {

class RunCounter final : public BuildListener {
 public:
  explicit RunCounter(SessionDriver& driver) : driver_(driver) {}
  void valueDefined(const Value& v) override { driver_.valueDefined(v); }
  void graphDefined(const Graph& g) override { driver_.graphDefined(g); }
  void resourceDefined(const Resource& r) override { driver_.resourceDefined(r); }
  void command(const SessionCommand& c) override {
    driver_.command(c);
    if (c.kind == SessionCommand::Kind::Run) runs_ += c.count;
  }
  // After SessionDriver::finish(): a file without commands ran once.
  int64_t runs() const { return driver_.sawCommand() ? runs_ : 1; }

 private:
  SessionDriver& driver_;
  int64_t runs_ = 0;
};

}  // namespace pir::cli
