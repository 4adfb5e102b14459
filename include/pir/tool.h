// What a command-line tool over pir needs besides programs and sessions
// (docs/api.md "Tools"): the reference texts of `pir help`, suggestions for a
// mistyped word, the version, the process's interrupt and host-memory budget,
// and the MPI process group. The `pir` executable is built over this and pir.h.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pir::api {

// "0.1.0" (the `pir --version` number).
std::string version();

// ---- reference texts ----------------------------------------------------------
// One op: attributes, dtype rules, result type, gradient, in-place variant,
// aliases (`pir help matmul`); nullopt for a word that names no op or alias.
std::optional<std::string> opHelp(std::string_view name);
// Every op (`pir help ops`), as text or as the Markdown of docs/ops.md.
std::string opReference(bool markdown = false);
// Every op name and alias a statement may use.
std::vector<std::string> opNames();
// A keyword or session command of the language (`pir help var`); nullopt for another word.
std::optional<std::string> keywordHelp(std::string_view word);
// Every keyword, one line each (`pir help keywords`), or the Markdown of language.md §13.
std::string keywordReference(bool markdown = false);
// The keywords keywordHelp knows, in reference order.
std::vector<std::string> keywordNames();
// Every word the grammar reserves (keywords, session commands, literals such
// as `true`), for completion.
std::vector<std::string> keywordSpellings();
// The element type names ("f32", "i32", ...), in DType order.
std::vector<std::string> dtypeNames();
// " (did you mean 'SIGIL+NAME'?)" for the candidate closest to `word`, or "" when none is close.
std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates, std::string_view sigil = "");

// ---- the process ----------------------------------------------------------------
// Ctrl-C: raises the process's one interrupt source, which asks what runs in
// every context (a run, a parse, a preview) to stop at its next safe point with
// the located error "interrupted", until clearInterrupt. Async-signal-safe: what
// a SIGINT handler calls.
void requestInterrupt();
// How many interrupts the process has had (async-signal-safe): a caller that
// must know whether one came during a call compares the counts around it.
uint64_t interruptSignalCount();
bool interruptRequested();
void clearInterrupt();

// The budget of host memory for tensors of every session of the process (`--max-memory`).
void setHostMemoryLimit(uint64_t bytes);
uint64_t hostMemoryLimit();
uint64_t hostMemoryInUse();
// "64M", "3G", "1024": bytes (K, M, G, T suffixes); nullopt for other text.
std::optional<uint64_t> parseByteSize(std::string_view text);
// Applies PIR_MAX_MEMORY when set; its problem when the value is bad.
std::optional<std::string> applyHostMemoryEnvironment();

// MPI (decisions.md "Replicas"): under mpirun, joins the process group and
// silences every rank but 0; false when that fails (reported). A process on
// its own is a group of one.
bool initProcessGroup(int& argc, char**& argv);
// Leaves the group with the exit status agreed by all processes.
int finishProcessGroup(int status);
int processCount();

}  // namespace pir::api
