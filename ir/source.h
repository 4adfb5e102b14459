// Source buffers and locations. Every IR item carries a SourceLoc so that the
// verifier, the VM and the REPL can point at the text that made it.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace pir {

// A position in a source buffer. file == 0 means "no location" (generated items).
struct SourceLoc {
  uint32_t file = 0;  // index into SourceManager, 1-based
  uint32_t line = 0;  // 1-based
  uint32_t col = 0;   // 1-based, in bytes (shown as a character column: SourceBuffer::displayColumn)
  bool valid() const { return file != 0; }
};

struct SourceBuffer {
  std::string name;  // as shown in diagnostics: a path, "-" shown as "<stdin>", or "<repl>"
  std::string text;
  // The session line number of the buffer's first line. The REPL gives each
  // input its own buffer but counts lines over the whole session (tools.md §5),
  // so locations stay buffer-relative and only their display is shifted.
  uint32_t firstLine = 1;
  // The text of buffer-relative `line` without its line end; empty past the end.
  // Safe to call from several threads at once: the replicas of a traced run
  // quote their instructions' lines concurrently.
  std::string_view lineText(uint32_t line) const;
  // The line number to show for buffer-relative `line` (diagnostics, disassembly).
  uint32_t displayLine(uint32_t line) const { return line + firstLine - 1; }
  // The column to show for byte column `col` of `line`: 1 + the UTF-8 code points
  // before it, as clang and rustc count (a multi-byte character is one column).
  uint32_t displayColumn(uint32_t line, uint32_t col) const;

 private:
  // Byte offsets of line starts, computed on first use (diagnostics are rare, and a
  // large input would pay 8 bytes a line for nothing), once, whichever thread asks.
  mutable std::once_flag lineStartsOnce_;
  mutable std::vector<size_t> lineStarts_;
};

// Owns all source text of a run. Buffers are never removed, so string_views
// into them stay valid for the life of the manager (the REPL appends one per input).
class SourceManager {
 public:
  uint32_t add(std::string name, std::string text, uint32_t firstLine = 1);
  const SourceBuffer& buffer(uint32_t id) const { return *buffers_.at(id - 1); }
  size_t size() const { return buffers_.size(); }

 private:
  std::vector<std::unique_ptr<SourceBuffer>> buffers_;
};

}  // namespace pir
