#include "ir/diagnostics.h"

namespace pir {

uint32_t SourceManager::add(std::string name, std::string text, uint32_t firstLine) {
  auto b = std::make_unique<SourceBuffer>();
  b->name = std::move(name);
  b->text = std::move(text);
  b->firstLine = firstLine == 0 ? 1 : firstLine;
  buffers_.push_back(std::move(b));
  return static_cast<uint32_t>(buffers_.size());
}

std::string_view SourceBuffer::lineText(uint32_t line) const {
  if (lineStarts.empty()) {
    lineStarts.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') lineStarts.push_back(i + 1);
  }
  if (line == 0 || line > lineStarts.size()) return {};
  size_t b = lineStarts[line - 1];
  size_t e = text.find('\n', b);
  if (e == std::string::npos) e = text.size();
  if (e > b && text[e - 1] == '\r') --e;
  return std::string_view(text).substr(b, e - b);
}

static const char* severityWord(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

static void formatOne(const SourceManager& sm, std::string& out, Severity sev, SourceLoc loc,
                      const std::string& msg, bool withLine) {
  if (loc.valid()) {
    const SourceBuffer& b = sm.buffer(loc.file);
    out += b.name + ":" + std::to_string(b.displayLine(loc.line)) + ":" + std::to_string(loc.col) + ": ";
    out += severityWord(sev);
    out += ": " + msg + "\n";
    if (!withLine) return;
    std::string_view line = b.lineText(loc.line);
    out += "  ";
    out += line;
    out += "\n  ";
    // Keep tabs in the caret line so the caret lines up under tabbed source.
    for (uint32_t i = 1; i < loc.col && i - 1 < line.size(); ++i) out += line[i - 1] == '\t' ? '\t' : ' ';
    out += "^\n";
  } else {
    out += "pir: ";
    out += severityWord(sev);
    out += ": " + msg + "\n";
  }
}

std::string DiagnosticEngine::format(const Diagnostic& d) const {
  std::string out;
  formatOne(sm_, out, d.severity, d.loc, d.message, true);
  for (const Note& n : d.notes) formatOne(sm_, out, Severity::Note, n.loc, n.message, false);
  return out;
}

void DiagnosticEngine::report(const Diagnostic& d) {
  if (d.severity == Severity::Error) ++errors_;
  if (d.severity == Severity::Warning) ++warnings_;
  diags_.push_back(d);
  if (os_) *os_ << format(d) << std::flush;
}

void DiagnosticEngine::fail(SourceLoc loc, std::string msg, std::vector<Note> notes) {
  Diagnostic d{Severity::Error, loc, std::move(msg), std::move(notes)};
  report(d);
  throw CompileError(std::move(d));
}

}  // namespace pir
