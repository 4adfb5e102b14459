#include "ir/diagnostics.h"

#include <algorithm>

namespace pir {

uint32_t SourceManager::add(std::string name, std::string text, uint32_t firstLine) {
  auto b = std::make_unique<SourceBuffer>();
  b->name = std::move(name);
  // A line ends at LF, CRLF or a lone CR (classic Mac files): a lone CR becomes LF
  // here, once, so the grammar (comments run to the end of a line), line numbers
  // and the quoted source lines of diagnostics all see the same lines.
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) text[i] = '\n';
  b->text = std::move(text);
  b->firstLine = firstLine == 0 ? 1 : firstLine;
  buffers_.push_back(std::move(b));
  return static_cast<uint32_t>(buffers_.size());
}

std::string_view SourceBuffer::lineText(uint32_t line) const {
  std::call_once(lineStartsOnce_, [this] {
    lineStarts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') lineStarts_.push_back(i + 1);
  });
  if (line == 0 || line > lineStarts_.size()) return {};
  size_t b = lineStarts_[line - 1];
  size_t e = text.find('\n', b);
  if (e == std::string::npos) e = text.size();
  if (e > b && text[e - 1] == '\r') --e;
  return std::string_view(text).substr(b, e - b);
}

namespace {

bool isContinuationByte(unsigned char c) { return (c & 0xC0) == 0x80; }

// Decodes the code point starting at s[i] (invalid UTF-8 counts as one
// character per byte) and advances i past it.
uint32_t decodeAt(std::string_view s, size_t& i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  int extra = c >= 0xF0 && c < 0xF8 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  if (c >= 0xF8) extra = 0;
  for (int k = 1; k <= extra; ++k)
    if (i + k >= s.size() || !isContinuationByte(static_cast<unsigned char>(s[i + k]))) extra = 0;
  uint32_t cp = extra == 0 ? c : c & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += 1 + extra;
  return cp;
}

// Terminal cells of a code point for the caret line: 0 for combining marks, 2
// for East Asian wide and fullwidth characters (the common blocks), else 1.
int cellWidth(uint32_t cp) {
  if ((cp >= 0x300 && cp <= 0x36F) || (cp >= 0x200B && cp <= 0x200F) || (cp >= 0xFE00 && cp <= 0xFE0F)) return 0;
  if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
      (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
      (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1FAFF) || (cp >= 0x20000 && cp <= 0x3FFFD))
    return 2;
  return 1;
}

}  // namespace

uint32_t SourceBuffer::displayColumn(uint32_t line, uint32_t col) const {
  std::string_view text = lineText(line);
  size_t end = col == 0 ? 0 : std::min<size_t>(col - 1, text.size());
  uint32_t chars = 1;
  for (size_t i = 0; i < end; ++chars) decodeAt(text, i);
  // A column past the line's end (an error at end of input) keeps its distance.
  if (col - 1 > text.size()) chars += static_cast<uint32_t>(col - 1 - text.size());
  return chars;
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
    out += b.name + ":" + std::to_string(b.displayLine(loc.line)) + ":" + std::to_string(b.displayColumn(loc.line, loc.col)) + ": ";
    out += severityWord(sev);
    out += ": " + msg + "\n";
    if (!withLine) return;
    std::string_view line = b.lineText(loc.line);
    size_t end = loc.col == 0 ? 0 : std::min<size_t>(loc.col - 1, line.size());
    // A long line (generated code, a literal of a million elements on one line) is
    // shown as a window of kShownLineBytes around the caret, cut at characters and
    // marked "...", so a diagnostic stays a few lines whatever the input.
    constexpr size_t kShownLineBytes = 160;
    std::string_view shown = line;
    bool cutBefore = false, cutAfter = false;
    if (line.size() > kShownLineBytes) {
      size_t from = end > kShownLineBytes / 2 ? end - kShownLineBytes / 2 : 0;
      while (from > 0 && isContinuationByte(static_cast<unsigned char>(line[from]))) --from;
      size_t to = std::min(line.size(), from + kShownLineBytes);
      while (to < line.size() && isContinuationByte(static_cast<unsigned char>(line[to]))) ++to;
      shown = line.substr(from, to - from);
      cutBefore = from > 0;
      cutAfter = to < line.size();
      end -= from;
    }
    out += cutBefore ? "  ..." : "  ";
    out += shown;
    out += cutAfter ? "...\n  " : "\n  ";
    if (cutBefore) out += "   ";
    line = shown;
    // One cell per cell of the source before the caret: tabs are kept (the
    // terminal expands both lines alike), wide characters take two spaces.
    for (size_t i = 0; i < end;) {
      if (line[i] == '\t') {
        out += '\t';
        ++i;
        continue;
      }
      out.append(static_cast<size_t>(cellWidth(decodeAt(line, i))), ' ');
    }
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

void DiagnosticEngine::warning(SourceLoc loc, std::string msg, std::vector<Note> notes) {
  switch (warningPolicy_) {
    case WarningPolicy::Ignore: return;
    case WarningPolicy::Error: fail(loc, std::move(msg) + " [-Werror]", std::move(notes));
    case WarningPolicy::Report: report({Severity::Warning, loc, std::move(msg), std::move(notes)}); return;
  }
}

void DiagnosticEngine::fail(SourceLoc loc, std::string msg, std::vector<Note> notes) {
  Diagnostic d{Severity::Error, loc, std::move(msg), std::move(notes)};
  report(d);
  throw CompileError(std::move(d));
}

}  // namespace pir
