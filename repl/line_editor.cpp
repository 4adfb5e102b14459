#include "repl/line_editor.h"

#include <histedit.h>
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <clocale>
#include <cstdio>
#include <cstring>

#include "pir/tool.h"

namespace pir {

std::string commonPrefix(const std::vector<std::string>& words) {
  if (words.empty()) return {};
  std::string prefix = words.front();
  for (const std::string& w : words) {
    size_t n = 0;
    while (n < prefix.size() && n < w.size() && prefix[n] == w[n]) ++n;
    prefix.resize(n);
  }
  return prefix;
}

static bool isCompletionWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

size_t completionWordStart(std::string_view line) {
  size_t start = line.size();
  while (start > 0 && isCompletionWordChar(line[start - 1])) --start;
  // A sigil belongs to the word; so does the ':' of a meta-command at line start.
  if (start > 0) {
    char c = line[start - 1];
    if (c == '%' || c == '@' || c == '$') --start;
    else if (c == ':' && line.find_first_not_of(" \t") == start - 1) --start;
  }
  return start;
}

TabAction tabAction(std::string_view word, const std::vector<std::string>& candidates) {
  TabAction action;
  if (candidates.empty()) return action;
  if (candidates.size() == 1) {
    const std::string& only = candidates.front();
    if (only.size() >= word.size()) action.insert = only.substr(word.size()) + " ";
    return action;
  }
  std::string prefix = commonPrefix(candidates);
  if (prefix.size() > word.size()) action.insert = prefix.substr(word.size());
  else action.listCandidates = true;
  return action;
}

namespace {

// Set by SIGINT while a line is being read; el_gets then fails with EINTR
// because the handler is installed without SA_RESTART. While a command runs
// (between lines) the same SIGINT asks the running work to stop (api::requestInterrupt);
// readLine clears both before the next line.
extern "C" void onInterrupt(int) { api::requestInterrupt(); }

}  // namespace

struct LineEditor::Impl {
  EditLine* el = nullptr;
  History* history = nullptr;
  std::string historyPath;
  std::string lastEntry;
  std::string prompt;
  Completer completer;
  struct sigaction previousSigint {};
  bool sigintInstalled = false;
  std::string previousCtype;  // LC_CTYPE before the editor set the user's

  static char* promptFn(EditLine* el) {
    Impl* self = nullptr;
    el_get(el, EL_CLIENTDATA, &self);
    return self ? self->prompt.data() : const_cast<char*>("");
  }

  static unsigned char completeFn(EditLine* el, int) {
    Impl* self = nullptr;
    el_get(el, EL_CLIENTDATA, &self);
    if (!self || !self->completer) return CC_ERROR;
    const LineInfo* info = el_line(el);
    std::string_view before(info->buffer, static_cast<size_t>(info->cursor - info->buffer));
    Completion completion = self->completer(before);
    std::string_view word = before.substr(std::min(completion.wordStart, before.size()));
    TabAction action = tabAction(word, completion.candidates);
    if (!action.insert.empty()) {
      if (el_insertstr(el, action.insert.c_str()) == -1) return CC_ERROR;
      return CC_REFRESH;
    }
    if (action.listCandidates) {
      FILE* out = stdout;
      el_get(el, EL_GETFP, 1, &out);
      std::vector<std::string> sorted = completion.candidates;
      std::sort(sorted.begin(), sorted.end());
      size_t width = 0;
      for (auto& c : sorted) width = std::max(width, c.size());
      width += 2;
      size_t perRow = std::max<size_t>(1, 78 / width);
      std::fputc('\n', out);
      for (size_t i = 0; i < sorted.size(); ++i) {
        bool lastInRow = (i + 1) % perRow == 0 || i + 1 == sorted.size();
        if (lastInRow) std::fprintf(out, "%s\n", sorted[i].c_str());
        else std::fprintf(out, "%-*s", static_cast<int>(width), sorted[i].c_str());
      }
      std::fflush(out);
      return CC_REDISPLAY;
    }
    return CC_REFRESH_BEEP;
  }
};

LineEditor::LineEditor(std::string programName, std::string historyPath, Completer completer)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.historyPath = std::move(historyPath);
  s.completer = std::move(completer);
  // libedit edits multibyte (UTF-8) text only under the user's character
  // locale. Only LC_CTYPE changes: number formatting (LC_NUMERIC) stays "C".
  if (const char* ctype = std::setlocale(LC_CTYPE, nullptr)) s.previousCtype = ctype;
  std::setlocale(LC_CTYPE, "");

  HistEvent ev;
  s.history = history_init();
  history(s.history, &ev, H_SETSIZE, kHistorySize);
  if (!s.historyPath.empty()) history(s.history, &ev, H_LOAD, s.historyPath.c_str());  // absent file: fine
  if (history(s.history, &ev, H_FIRST) == 0 && ev.str) {
    s.lastEntry = ev.str;
    if (!s.lastEntry.empty() && s.lastEntry.back() == '\n') s.lastEntry.pop_back();
  }

  s.el = el_init(programName.c_str(), stdin, stdout, stderr);
  el_set(s.el, EL_CLIENTDATA, &s);
  el_set(s.el, EL_EDITOR, "emacs");
  el_set(s.el, EL_PROMPT, &Impl::promptFn);
  el_set(s.el, EL_HIST, history, s.history);
  el_set(s.el, EL_ADDFN, "pir-complete", "complete a pir word", &Impl::completeFn);
  el_set(s.el, EL_BIND, "^I", "pir-complete", nullptr);
  el_set(s.el, EL_BIND, "^R", "em-inc-search-prev", nullptr);
  el_source(s.el, nullptr);  // the user's ~/.editrc may override the bindings

  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a pending read must fail with EINTR
  s.sigintInstalled = sigaction(SIGINT, &action, &s.previousSigint) == 0;
}

LineEditor::~LineEditor() {
  Impl& s = *impl_;
  HistEvent ev;
  // Rewrites the file with the capped in-memory history (loaded + this session).
  if (!s.historyPath.empty()) history(s.history, &ev, H_SAVE, s.historyPath.c_str());
  if (s.el) el_end(s.el);
  if (s.history) history_end(s.history);
  if (s.sigintInstalled) sigaction(SIGINT, &s.previousSigint, nullptr);
  if (!s.previousCtype.empty()) std::setlocale(LC_CTYPE, s.previousCtype.c_str());
}

LineEditor::Status LineEditor::readLine(const std::string& prompt, std::string& line) {
  Impl& s = *impl_;
  s.prompt = prompt;
  api::clearInterrupt();
  const uint64_t signalsBefore = api::interruptSignalCount();
  int count = 0;
  const char* text = el_gets(s.el, &count);
  if (api::interruptSignalCount() != signalsBefore) {
    el_reset(s.el);  // drops the partial line and restores the terminal mode
    std::fputc('\n', stdout);
    std::fflush(stdout);
    return Status::Interrupted;
  }
  if (!text || count <= 0) {
    if (count < 0 && errno == EINTR) return Status::Interrupted;
    return Status::EndOfInput;
  }
  line.assign(text, static_cast<size_t>(count));
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return Status::Line;
}

void LineEditor::addHistory(const std::string& line) {
  Impl& s = *impl_;
  if (line.find_first_not_of(" \t") == std::string::npos || line == s.lastEntry) return;
  s.lastEntry = line;
  HistEvent ev;
  history(s.history, &ev, H_ENTER, line.c_str());
  if (s.historyPath.empty()) return;
  // Append now, so that the line survives a crash or a killed terminal.
  if (FILE* fp = std::fopen(s.historyPath.c_str(), "a")) {
    std::fseek(fp, 0, SEEK_END);
    history(s.history, &ev, H_NSAVE_FP, static_cast<size_t>(1), fp);
    std::fclose(fp);
  }
}

}  // namespace pir
