// Terminal line editing for the REPL through BSD libedit (tools.md §5):
// persistent history, Ctrl-R incremental search, Tab completion, Ctrl-C
// abandoning the line being typed and Ctrl-D ending the session.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pir {

// What Tab should offer: the candidates for the word that ends at the cursor.
struct Completion {
  size_t wordStart = 0;                 // byte offset in the line of the word being completed
  std::vector<std::string> candidates;  // whole words (they start with the typed word)
};

// Computes completions for `lineBeforeCursor`.
using Completer = std::function<Completion(std::string_view lineBeforeCursor)>;

// The longest common prefix of `words` ("" for none).
std::string commonPrefix(const std::vector<std::string>& words);

// The start of the word that ends at the end of `line`: completion words are
// made of name characters plus a leading sigil (`%`, `@`, `$`) or `:`.
size_t completionWordStart(std::string_view line);

// What a Tab press does to the typed `word` given the candidates: the text to
// insert after the cursor, and whether the candidates should be listed (several
// remain and none extends the word further). A unique candidate is completed
// and followed by a space.
struct TabAction {
  std::string insert;
  bool listCandidates = false;
};
TabAction tabAction(std::string_view word, const std::vector<std::string>& candidates);

class LineEditor {
 public:
  enum class Status { Line, EndOfInput, Interrupted };

  // `historyPath` "" keeps history in memory only. The history file is read
  // now, appended to after each line and rewritten (capped) on destruction.
  LineEditor(std::string programName, std::string historyPath, Completer completer);
  ~LineEditor();
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  // Reads one line (without its newline) after showing `prompt`.
  // Interrupted: Ctrl-C was pressed; the partial line is dropped.
  Status readLine(const std::string& prompt, std::string& line);

  // Adds a non-blank line to the history (memory and file).
  void addHistory(const std::string& line);

  static constexpr int kHistorySize = 1000;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pir
