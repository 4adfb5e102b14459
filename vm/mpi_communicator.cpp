#include "vm/mpi_communicator.h"

#ifndef PIR_HAVE_MPI

namespace pir::vm {

std::unique_ptr<Communicator> makeMpiCommunicator(int&, char**&, std::string& error) {
  error = "started by mpirun, but this pir was built without MPI (install libopenmpi-dev and rebuild)";
  return nullptr;
}
int finishMpi(int status) { return status; }

}  // namespace pir::vm

#else

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <mpi.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <thread>
#include <utility>

#include "vm/tensor.h"

namespace pir::vm {
namespace {

// MPI is initialised once per process, so its state is the process's: whether
// it is up, whether a peer was lost, and where rank ≠ 0's standard error went.
bool gInitialised = false, gLost = false;
int gSavedStderr = -1;  // ranks ≠ 0: the real standard error
int gCapture = -1;      // ranks ≠ 0: what this process wrote to standard error since the last meeting

// Append-only byte buffer and its bounds-checked reader, for outcomes and state.
struct Writer {
  std::vector<std::byte> bytes;
  void raw(const void* p, size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    bytes.insert(bytes.end(), b, b + n);
  }
  template <class T> void put(T v) { raw(&v, sizeof v); }
  void str(const std::string& s) {
    put<uint64_t>(s.size());
    raw(s.data(), s.size());
  }
};
// Reads what another process sent: never past `end` (a malformed message is a
// lost peer, not a read out of bounds).
struct Reader {
  const std::byte* p;
  const std::byte* end;
  int from;
  void need(uint64_t n) const {
    if (n > static_cast<uint64_t>(end - p))
      throw PeerLost("an MPI peer was lost: MPI rank " + std::to_string(from) + " sent a malformed message");
  }
  void raw(void* out, size_t n) {
    need(n);
    copyBytes(out, p, n);
    p += n;
  }
  template <class T> T get() {
    T v;
    raw(&v, sizeof v);
    return v;
  }
  // A count of items of at least `minBytes` each: no more than the bytes left.
  size_t count(size_t minBytes) {
    const uint64_t n = get<uint64_t>();
    if (minBytes > 0 && n > static_cast<uint64_t>(end - p) / minBytes) need(UINT64_MAX);
    return static_cast<size_t>(n);
  }
  std::string str() {
    const size_t n = count(1);
    std::string s(n, '\0');
    raw(s.data(), n);
    return s;
  }
};

void putLoc(Writer& w, SourceLoc l) {
  w.put(l.file);
  w.put(l.line);
  w.put(l.col);
}
SourceLoc getLoc(Reader& r) {
  SourceLoc l;
  l.file = r.get<uint32_t>();
  l.line = r.get<uint32_t>();
  l.col = r.get<uint32_t>();
  return l;
}

// What a process stopped by the launcher says: Open MPI's mpirun terminates
// every process of the job when one dies, so a survivor learns of a lost peer
// through SIGTERM. The text is prepared before each wait and put back to the
// plain one after it (a handler may only write(2) and _exit(2)); once the job's
// end is agreed, the handler leaves silently with the agreed status.
constexpr char kStoppedPlain[] =
    "pir: error: an MPI peer was lost: mpirun stopped this process (another process failed or the job was "
    "cancelled)\n";
char gStoppedText[1024] = {};
size_t gStoppedLength = 0;
volatile sig_atomic_t gAgreedStatus = -1;  // >= 0: the job's end is agreed; leave with it, silently

extern "C" void onStoppedByLauncher(int) {
  const int status = gAgreedStatus;
  if (status >= 0) _exit(status);
  const int fd = gSavedStderr >= 0 ? gSavedStderr : STDERR_FILENO;
  ssize_t ignored = write(fd, gStoppedText, gStoppedLength);
  (void)ignored;
  _exit(1);
}

void setStoppedText(std::string text) {
  if (text.size() >= sizeof gStoppedText) text = text.substr(text.size() - sizeof gStoppedText + 1);
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &block, &old);  // the handler never sees half a text
  copyBytes(gStoppedText, text.data(), text.size());
  gStoppedLength = text.size();
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

// The text this process wrote to standard error since the last meeting, from its
// first error line on (a trace printed before it is the same on every process),
// at most 64 KiB. Rank 0's own standard error is the terminal: empty.
std::string capturedError() {
  if (gCapture < 0) return {};
  std::cerr.flush();
  std::fflush(stderr);
  struct stat st {};
  if (fstat(gCapture, &st) != 0 || st.st_size <= 0) return {};
  // The error is at the end: a long trace before it is skipped.
  const off_t kept = std::min<off_t>(st.st_size, 16 << 20);
  std::string text(static_cast<size_t>(kept), '\0');
  const ssize_t n = pread(gCapture, text.data(), text.size(), st.st_size - kept);
  text.resize(n > 0 ? static_cast<size_t>(n) : 0);
  for (size_t line = 0; line < text.size();) {
    const size_t next = text.find('\n', line);
    const size_t lineEnd = next == std::string::npos ? text.size() : next;
    if (text.substr(line, lineEnd - line).find("error: ") != std::string::npos) {
      text.erase(0, line);
      break;
    }
    line = lineEnd + 1;
  }
  if (text.size() > (64u << 10)) text.resize(64u << 10);
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

// Forgets what was captured: it was followed by a meeting every process reached.
void clearCapture() {
  if (gCapture < 0) return;
  std::cerr.flush();
  std::fflush(stderr);
  if (ftruncate(gCapture, 0) == 0) lseek(STDERR_FILENO, 0, SEEK_SET);
}

// What every process says it is doing at a meeting: the first exchange of each
// collective call. A process that fails on its own (a file only it lacks) meets
// the others with Finish and a nonzero status wherever they are, so they learn
// of it at once instead of waiting out the watchdog; processes that reached
// different meetings run different programs or commands.
enum class Meeting : uint32_t { Statuses = 1, Outcomes, RankZeroText, State, Comparison, Texts, Finish, Count };
struct Header {
  uint32_t meeting = 0;
  int32_t status = 0;  // Finish: the process's exit status
  uint64_t bytes = 0;  // the size of what follows from this process
};

const char* doingText(Meeting m) {
  switch (m) {
    case Meeting::Statuses: return "runs replicas";
    case Meeting::Outcomes: return "has finished a run";
    case Meeting::RankZeroText: return "waits for rank 0 to write a file";
    case Meeting::State: return "gathers the replicas' state (print, save)";
    case Meeting::Comparison:
    case Meeting::Texts: return "compares its program and data with rank 0's";
    case Meeting::Finish: return "has finished its commands";
    case Meeting::Count: break;
  }
  return "sent an unknown message";
}

class MpiCommunicator final : public Communicator {
 public:
  MpiCommunicator() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    // Errors come back as codes (a lost peer is a runtime error, not an abort).
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (const char* s = std::getenv("PIR_MPI_TIMEOUT")) timeoutSeconds_ = std::max(1, std::atoi(s));
  }
  int processes() const override { return size_; }
  int rank() const override { return rank_; }

  void noteWaitingAt(const std::string& where) override {
    where_ = where;
    if (where.empty()) {
      setStoppedText(kStoppedPlain);
      return;
    }
    setStoppedText(where +
                   ": an MPI peer was lost: mpirun stopped this process while it waited for the others "
                   "(another process failed or the job was cancelled)\n");
  }

  void shareStatus(std::vector<ReplicaStatus>& all, int64_t first, int64_t count) override {
    const int64_t bytes = count * static_cast<int64_t>(sizeof(ReplicaStatus));
    const std::vector<Header> heads = meet(Meeting::Statuses, static_cast<uint64_t>(bytes));
    for (int k = 0; k < size_; ++k)
      if (heads[static_cast<size_t>(k)].bytes != static_cast<uint64_t>(bytes))
        lost("MPI rank " + std::to_string(k) + " runs another replica count per process");
    std::vector<ReplicaStatus> mine(all.begin() + first, all.begin() + first + count);
    allgather(mine.data(), bytes, all.data(), "replica statuses");
  }

  void shareInputs(const std::vector<int64_t>& senders, const std::vector<ReplicaStatus>& all,
                   std::vector<const std::byte*>& inputs) override {
    // Each input at a 16-byte aligned offset (kernels read typed elements);
    // every process computes the same layout from the global table, whose
    // input sizes the replica pool has checked against its own program.
    const int64_t perRank = static_cast<int64_t>(all.size()) / size_;
    std::vector<int64_t> counts(static_cast<size_t>(size_), 0), offsetOf(all.size(), 0);
    for (int64_t r : senders) {
      const size_t owner = static_cast<size_t>(r / perRank);
      offsetOf[static_cast<size_t>(r)] = counts[owner];
      counts[owner] = saturatingAddSigned(counts[owner], (static_cast<int64_t>(all[static_cast<size_t>(r)].inputBytes) + 15) / 16 * 16);
    }
    AlignedBytes send(static_cast<size_t>(counts[static_cast<size_t>(rank_)]));
    for (int64_t r : senders)
      if (r / perRank == rank_)
        copyBytes(send.data() + offsetOf[static_cast<size_t>(r)], inputs[static_cast<size_t>(r)],
                    all[static_cast<size_t>(r)].inputBytes);
    std::vector<int64_t> displs(static_cast<size_t>(size_), 0);
    int64_t total = 0;
    for (int k = 0; k < size_; ++k) {
      displs[static_cast<size_t>(k)] = total;
      total = saturatingAddSigned(total, counts[static_cast<size_t>(k)]);
    }
    received_.resize(static_cast<size_t>(total));
    allgatherv(send.data(), counts, displs, received_.data());
    for (int64_t r : senders) {
      const int64_t owner = r / perRank;
      if (owner != rank_)
        inputs[static_cast<size_t>(r)] = received_.data() + displs[static_cast<size_t>(owner)] + offsetOf[static_cast<size_t>(r)];
    }
  }

  void shareOutcomes(std::vector<ReplicaOutcome>& all, int64_t first, int64_t count) override {
    if (gLost) return;
    Writer w;
    for (int64_t r = first; r < first + count; ++r) {
      const ReplicaOutcome& o = all[static_cast<size_t>(r)];
      w.put<uint64_t>(o.printed.size());
      for (const std::string& line : o.printed) w.str(line);
      w.str(o.trace);
      w.put<uint64_t>(o.written.size());
      for (bool b : o.written) w.put<uint8_t>(b);
      w.put<uint8_t>(o.fault.has_value());
      if (o.fault) {
        w.str(o.fault->what());
        putLoc(w, o.fault->loc);
        w.put<uint8_t>(o.fault->aborted);
        w.put<uint64_t>(o.fault->notes.size());
        for (const Note& n : o.fault->notes) {
          putLoc(w, n.loc);
          w.str(n.message);
        }
      }
    }
    std::vector<std::byte> everything;
    std::vector<int64_t> displs;
    gatherBlobs(Meeting::Outcomes, w.bytes, everything, displs);
    const int64_t perRank = count;
    for (int k = 0; k < size_; ++k) {
      if (k == rank_) continue;
      Reader rd = readerOf(everything, displs, k);
      for (int64_t r = k * perRank; r < (k + 1) * perRank; ++r) {
        ReplicaOutcome& o = all[static_cast<size_t>(r)];
        o.printed.resize(rd.count(8));
        for (std::string& line : o.printed) line = rd.str();
        o.trace = rd.str();
        o.written.resize(rd.count(1));
        for (size_t i = 0; i < o.written.size(); ++i) o.written[i] = rd.get<uint8_t>() != 0;
        if (rd.get<uint8_t>()) {
          std::string msg = rd.str();
          RuntimeFault f(nullptr, std::move(msg));
          f.loc = getLoc(rd);
          f.aborted = rd.get<uint8_t>() != 0;
          f.notes.resize(rd.count(20));
          for (Note& n : f.notes) {
            n.loc = getLoc(rd);
            n.message = rd.str();
          }
          o.fault.emplace(std::move(f));
        }
      }
    }
  }

  std::string fromRankZero(const std::string& text) override {
    if (gLost) return text;
    std::vector<std::byte> mine(text.size());
    copyBytes(mine.data(), text.data(), text.size());
    std::vector<std::byte> everything;
    std::vector<int64_t> displs;
    gatherBlobs(Meeting::RankZeroText, mine, everything, displs);  // small: a status text
    const size_t end = size_ > 1 ? static_cast<size_t>(displs[1]) : everything.size();
    return std::string(reinterpret_cast<const char*>(everything.data()), end);
  }

  Disagreement compareWithRankZero(const std::vector<uint64_t>& items) override {
    std::vector<std::byte> mine(items.size() * sizeof(uint64_t));
    copyBytes(mine.data(), items.data(), mine.size());
    std::vector<std::byte> everything;
    std::vector<int64_t> displs;
    gatherBlobs(Meeting::Comparison, mine, everything, displs);
    auto listOf = [&](int k, size_t& n) {
      const size_t begin = static_cast<size_t>(displs[static_cast<size_t>(k)]);
      const size_t end = k + 1 < size_ ? static_cast<size_t>(displs[static_cast<size_t>(k) + 1]) : everything.size();
      n = (end - begin) / sizeof(uint64_t);
      return everything.data() + begin;
    };
    size_t n0 = 0;
    const std::byte* zero = listOf(0, n0);
    for (int k = 1; k < size_; ++k) {
      size_t nk = 0;
      const std::byte* list = listOf(k, nk);
      for (size_t i = 0; i < std::max(n0, nk); ++i)
        if (i >= n0 || i >= nk || std::memcmp(zero + i * sizeof(uint64_t), list + i * sizeof(uint64_t), sizeof(uint64_t)) != 0)
          return Disagreement{k, i};
    }
    return {};
  }

  std::vector<std::string> gatherTexts(const std::string& text) override {
    std::vector<std::byte> mine(text.size());
    copyBytes(mine.data(), text.data(), text.size());
    std::vector<std::byte> everything;
    std::vector<int64_t> displs;
    gatherBlobs(Meeting::Texts, mine, everything, displs);
    return textsOf(everything, displs);
  }

  void shareState(DeviceState& st, const Module& m) override {
    if (gLost) return;
    const int64_t R = static_cast<int64_t>(st.vars.size());
    const int64_t perRank = R / size_;
    const int64_t nht = std::max<int64_t>(1, m.options.numHostTransfers);
    // One replica's state, in a fixed order: variables, remote buffers, main
    // values, then its slices of each d2h stream.
    // `at(buffer)`: its bytes, read-only (shared copy-on-write buffers stay
    // shared) when sending, writable when receiving.
    auto visit = [&](int64_t r, auto&& at, auto&& f) {
      for (HostTensor& v : st.vars[static_cast<size_t>(r)]) f(at(v.bytes), v.bytes.size());
      for (AlignedBytes& b : st.remote[static_cast<size_t>(r)]) f(at(b), b.size());
      f(at(st.mainValues[static_cast<size_t>(r)]), st.mainValues[static_cast<size_t>(r)].size());
      for (const auto& res : m.resources) {
        if (res->kind != Resource::Kind::D2H) continue;
        const size_t bytes = HostTensor::byteSize(res->type);
        for (int64_t s = 0; s < nht; ++s)
          f(at(st.streams[res->index].bytes) + static_cast<size_t>(s * R + r) * bytes, bytes);
      }
    };
    auto readable = [](AlignedBytes& b) { return std::as_const(b).data(); };
    auto writable = [](AlignedBytes& b) { return b.data(); };
    // This process's state and everyone's, held at once: charged to the budget
    // before anything is exchanged (a process without the room fails on its own).
    uint64_t localBytes = 0;
    for (int64_t r = rank_ * perRank; r < (rank_ + 1) * perRank; ++r)
      visit(r, readable, [&](const std::byte*, size_t n) { localBytes = saturatingAdd(localBytes, n); });
    const uint64_t held = saturatingMul(localBytes, static_cast<uint64_t>(size_) + 1);
    chargeHostMemory(held);
    struct Release {
      uint64_t bytes;
      ~Release() { releaseHostMemory(bytes); }
    } release{held};
    Writer w;
    w.bytes.reserve(static_cast<size_t>(localBytes));
    for (int64_t r = rank_ * perRank; r < (rank_ + 1) * perRank; ++r)
      visit(r, readable, [&](const std::byte* p, size_t n) { w.raw(p, n); });
    std::vector<std::byte> everything;
    std::vector<int64_t> displs;
    gatherBlobs(Meeting::State, w.bytes, everything, displs);
    for (int k = 0; k < size_; ++k) {
      if (k == rank_) continue;
      Reader rd = readerOf(everything, displs, k);
      if (static_cast<size_t>(rd.end - rd.p) != w.bytes.size())
        lost("MPI rank " + std::to_string(k) + " holds " + std::to_string(rd.end - rd.p) +
             " bytes of replica state, this process " + std::to_string(w.bytes.size()));
      for (int64_t r = k * perRank; r < (k + 1) * perRank; ++r)
        visit(r, writable, [&](std::byte* p, size_t n) { rd.raw(p, n); });
    }
  }

  // Meets the others with this process's exit status. When every process
  // finished well, returns 0; otherwise the job ends in the meeting (endJob).
  int finish(int status) {
    if (gLost) return status;
    meet(Meeting::Finish, 0, status);
    return status;
  }

 private:
  static int64_t saturatingAddSigned(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

  Reader readerOf(const std::vector<std::byte>& everything, const std::vector<int64_t>& displs, int k) const {
    const std::byte* begin = everything.data() + displs[static_cast<size_t>(k)];
    const std::byte* end = k + 1 < size_ ? everything.data() + displs[static_cast<size_t>(k) + 1] : everything.data() + everything.size();
    return Reader{begin, end, k};
  }
  std::vector<std::string> textsOf(const std::vector<std::byte>& everything, const std::vector<int64_t>& displs) const {
    std::vector<std::string> texts;
    for (int k = 0; k < size_; ++k) {
      Reader rd = readerOf(everything, displs, k);
      texts.emplace_back(reinterpret_cast<const char*>(rd.p), static_cast<size_t>(rd.end - rd.p));
    }
    return texts;
  }

  // Every process's header for this meeting. A process that finished with an
  // error, or one at another meeting, ends the job (endJob): every process sees
  // the same headers, so all take that decision together.
  std::vector<Header> meet(Meeting what, uint64_t bytes, int status = 0) {
    if (gLost) throw PeerLost("an MPI peer was lost earlier in this job");
    Header mine;
    mine.meeting = static_cast<uint32_t>(what);
    mine.status = status;
    mine.bytes = bytes;
    std::vector<Header> heads(static_cast<size_t>(size_));
    allgather(&mine, sizeof mine, heads.data(), "the processes' progress");
    int failed = -1;
    bool same = true;
    for (int k = 0; k < size_; ++k) {
      const Header& h = heads[static_cast<size_t>(k)];
      if (h.meeting == static_cast<uint32_t>(Meeting::Finish) && h.status != 0 && failed < 0) failed = k;
      if (h.meeting != mine.meeting) same = false;
    }
    // (All at Finish with one failed: it may have failed after the last meeting.)
    if (!same || failed >= 0) endJob(heads, failed);
    clearCapture();
    return heads;
  }

  // The job cannot go on: process `failed` finished with an error (rank 0
  // prints the error it reported, unless rank 0 failed and printed its own), or
  // (failed < 0) the processes reached different meetings. Every process
  // finalises MPI and exits with the failed process's status (1 when diverged).
  [[noreturn]] void endJob(const std::vector<Header>& heads, int failed) {
    Writer w;
    w.str(failed == rank_ ? capturedError() : std::string());
    w.str(where_);
    std::vector<std::byte> everything;
    std::vector<int64_t> displs;
    gatherRaw(w.bytes, everything, displs, "the reason the job stops");
    const int status = failed >= 0 ? heads[static_cast<size_t>(failed)].status : 1;
    if (rank_ == 0) {
      std::vector<std::string> errors, wheres;
      for (int k = 0; k < size_; ++k) {
        Reader rd = readerOf(everything, displs, k);
        errors.push_back(rd.str());
        wheres.push_back(rd.str());
      }
      std::cout.flush();
      std::fflush(stdout);
      std::string text;
      if (failed > 0) {
        text = errors[static_cast<size_t>(failed)];
        if (text.empty()) text = "pir: error: MPI rank " + std::to_string(failed) + " failed (exit status " + std::to_string(status) + ")\n";
        text += "pir: note: the error above is MPI rank " + std::to_string(failed) + "'s alone; the job stops\n";
      } else if (failed < 0) {
        // Located at rank 0's waiting collective when it waits at one.
        std::string where = wheres[0];
        text = (where.empty() ? std::string("pir: error") : where) + ": the MPI processes diverged (they run different programs or commands):";
        for (int k = 0; k < size_; ++k) {
          const Header& h = heads[static_cast<size_t>(k)];
          const Meeting m = h.meeting > 0 && h.meeting < static_cast<uint32_t>(Meeting::Count) ? static_cast<Meeting>(h.meeting) : Meeting::Count;
          text += std::string(k ? "," : "") + " rank " + std::to_string(k) + " " + doingText(m);
          if (k > 0 && m == Meeting::Statuses && !wheres[static_cast<size_t>(k)].empty()) {
            std::string at = wheres[static_cast<size_t>(k)];
            const size_t e = at.find(": error: ");
            if (e != std::string::npos) at.replace(e, 9, " ");
            text += " at " + at;
          }
        }
        text += "\n";
      }
      std::cerr << text;
      std::cerr.flush();
    }
    leave(status);
  }

  [[noreturn]] void leave(int status) {
    gAgreedStatus = status;
    std::cout.flush();
    std::cerr.flush();
    std::fflush(stdout);
    std::fflush(stderr);
    MPI_Finalize();
    gInitialised = false;
    _exit(status);
  }

  // Waits for a non-blocking collective; a failed one or one that outlives the
  // watchdog means a peer is gone.
  void await(MPI_Request& req, const char* what) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds_);
    for (int spins = 0;; ++spins) {
      int done = 0;
      const int rc = MPI_Test(&req, &done, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS) lost(std::string("the exchange of ") + what + " failed: " + errorText(rc));
      if (done) return;
      if (std::chrono::steady_clock::now() > deadline)
        lost(std::string("no answer from the other processes within ") + std::to_string(timeoutSeconds_) +
             " s (PIR_MPI_TIMEOUT) while exchanging " + what);
      if (spins > 1000) std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }
  [[noreturn]] void lost(const std::string& why) {
    gLost = true;
    restoreStderr();
    throw PeerLost("an MPI peer was lost: " + why);
  }
  static std::string errorText(int rc) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    return std::string(text, static_cast<size_t>(len));
  }
  void check(int rc, const char* what) {
    if (rc != MPI_SUCCESS) lost(std::string("the exchange of ") + what + " failed: " + errorText(rc));
  }
  static int toInt(int64_t n, const char* what) {
    if (n > INT_MAX) throw PeerLost(std::string("the exchange of ") + what + " exceeds 2 GiB per process");
    return static_cast<int>(n);
  }
  void allgather(const void* mine, int64_t bytes, void* all, const char* what) {
    if (gLost) throw PeerLost("an MPI peer was lost earlier in this job");
    MPI_Request req;
    check(MPI_Iallgather(mine, toInt(bytes, what), MPI_BYTE, all, toInt(bytes, what), MPI_BYTE, MPI_COMM_WORLD, &req),
          what);
    await(req, what);
  }
  void allgatherv(const void* mine, const std::vector<int64_t>& counts, const std::vector<int64_t>& displs, void* all) {
    if (gLost) throw PeerLost("an MPI peer was lost earlier in this job");
    std::vector<int> c(counts.size()), d(displs.size());
    for (size_t k = 0; k < counts.size(); ++k) {
      c[k] = toInt(counts[k], "collective inputs");
      d[k] = toInt(displs[k], "collective inputs");
    }
    MPI_Request req;
    check(MPI_Iallgatherv(mine, c[static_cast<size_t>(rank_)], MPI_BYTE, all, c.data(), d.data(), MPI_BYTE,
                          MPI_COMM_WORLD, &req),
          "collective inputs");
    await(req, "collective inputs");
  }
  // Every process's blob, concatenated (displs: where each starts), from sizes.
  void gatherSized(const std::vector<std::byte>& mine, const std::vector<int64_t>& sizes, std::vector<std::byte>& all,
                   std::vector<int64_t>& displs) {
    displs.assign(static_cast<size_t>(size_), 0);
    int64_t total = 0;
    for (int k = 0; k < size_; ++k) {
      displs[static_cast<size_t>(k)] = total;
      total = saturatingAddSigned(total, sizes[static_cast<size_t>(k)]);
    }
    all.resize(static_cast<size_t>(total));
    allgatherv(mine.data(), sizes, displs, all.data());
  }
  // A meeting whose headers carry the sizes, then the blobs.
  void gatherBlobs(Meeting what, const std::vector<std::byte>& mine, std::vector<std::byte>& all,
                   std::vector<int64_t>& displs) {
    const std::vector<Header> heads = meet(what, mine.size());
    std::vector<int64_t> sizes(static_cast<size_t>(size_));
    for (int k = 0; k < size_; ++k) {
      const uint64_t n = heads[static_cast<size_t>(k)].bytes;
      if (n > static_cast<uint64_t>(INT_MAX)) lost("MPI rank " + std::to_string(k) + " announced " + std::to_string(n) + " bytes (more than 2 GiB)");
      sizes[static_cast<size_t>(k)] = static_cast<int64_t>(n);
    }
    gatherSized(mine, sizes, all, displs);
  }
  // The same without a meeting (inside endJob, where every process already agreed).
  void gatherRaw(const std::vector<std::byte>& mine, std::vector<std::byte>& all, std::vector<int64_t>& displs,
                 const char* what) {
    std::vector<int64_t> sizes(static_cast<size_t>(size_));
    const int64_t own = static_cast<int64_t>(mine.size());
    allgather(&own, sizeof own, sizes.data(), what);
    for (int64_t n : sizes)
      if (n < 0 || n > INT_MAX) lost(std::string("a malformed exchange of ") + what);
    gatherSized(mine, sizes, all, displs);
  }
  static void restoreStderr() {
    // A survivor's own report of the lost peer must be seen even if rank 0 is gone.
    if (gSavedStderr >= 0) dup2(gSavedStderr, STDERR_FILENO);
    gCapture = -1;
  }

  int rank_ = 0, size_ = 1;
  int timeoutSeconds_ = 600;
  std::string where_;  // noteWaitingAt's text: where this process's replicas wait
  AlignedBytes received_;
};

MpiCommunicator* gCommunicator = nullptr;

}  // namespace

std::unique_ptr<Communicator> makeMpiCommunicator(int& argc, char**& argv, std::string& error) {
  int provided = 0;
  // MPI calls come from whichever thread runs the session, one at a time (the pool's
  // workers never call MPI).
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
    error = "MPI_Init failed";
    return nullptr;
  }
  gInitialised = true;
  auto comm = std::make_unique<MpiCommunicator>();
  if (comm->rank() != 0) {
    // Rank 0 prints (runtime.md §5): the others' output and diagnostics are
    // the same text, so their output is dropped and their standard error is
    // kept only since the last meeting, for rank 0 to print should this
    // process fail on its own.
    std::fflush(stdout);
    std::fflush(stderr);
    gSavedStderr = dup(STDERR_FILENO);
    const int devnull = open("/dev/null", O_WRONLY);
    gCapture = memfd_create("pir-stderr", MFD_CLOEXEC);
    if (devnull >= 0) {
      dup2(devnull, STDOUT_FILENO);
      dup2(gCapture >= 0 ? gCapture : devnull, STDERR_FILENO);
      close(devnull);
    }
  }
  setStoppedText(kStoppedPlain);
  struct sigaction sa {};
  sa.sa_handler = onStoppedByLauncher;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  gCommunicator = comm.get();
  return comm;
}

int finishMpi(int status) {
  if (!gInitialised) return status;
  std::cout.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  if (gLost || !gCommunicator) _exit(status);  // MPI_Finalize would wait for the lost peer
  status = gCommunicator->finish(status);
  gAgreedStatus = status;  // from here on, a SIGTERM is mpirun ending the job: nothing to report
  MPI_Finalize();
  gInitialised = false;
  return status;
}

}  // namespace pir::vm

#endif
