#include "vm/mpi_communicator.h"

#ifndef PIR_HAVE_MPI

namespace pir::vm {

std::unique_ptr<Communicator> makeMpiCommunicator(int&, char**&, std::string& error) {
  error = "started by mpirun, but this pir was built without MPI (install libopenmpi-dev and rebuild)";
  return nullptr;
}
void finishMpi(int) {}

}  // namespace pir::vm

#else

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "vm/tensor.h"

namespace pir::vm {
namespace {

bool gInitialised = false, gLost = false;

// Append-only byte buffer and its reader, for outcomes and state.
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
struct Reader {
  const std::byte* p;
  void raw(void* out, size_t n) {
    copyBytes(out, p, n);
    p += n;
  }
  template <class T> T get() {
    T v;
    raw(&v, sizeof v);
    return v;
  }
  std::string str() {
    std::string s(get<uint64_t>(), '\0');
    raw(s.data(), s.size());
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

  void noteWaitingAt(const std::string& where) override;

  void shareStatus(std::vector<ReplicaStatus>& all, int64_t first, int64_t count) override {
    const int64_t bytes = count * static_cast<int64_t>(sizeof(ReplicaStatus));
    std::vector<ReplicaStatus> mine(all.begin() + first, all.begin() + first + count);
    allgather(mine.data(), bytes, all.data());
  }

  void shareInputs(const std::vector<int64_t>& senders, const std::vector<ReplicaStatus>& all,
                   std::vector<const std::byte*>& inputs) override {
    // Each input at a 16-byte aligned offset (kernels read typed elements);
    // every process computes the same layout from the global table.
    const int64_t perRank = static_cast<int64_t>(all.size()) / size_;
    std::vector<int64_t> counts(static_cast<size_t>(size_), 0), offsetOf(all.size(), 0);
    for (int64_t r : senders) {
      const size_t owner = static_cast<size_t>(r / perRank);
      offsetOf[static_cast<size_t>(r)] = counts[owner];
      counts[owner] += (static_cast<int64_t>(all[static_cast<size_t>(r)].inputBytes) + 15) / 16 * 16;
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
      total += counts[static_cast<size_t>(k)];
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
    gatherBlobs(w.bytes, everything, displs);
    const int64_t perRank = count;
    for (int k = 0; k < size_; ++k) {
      if (k == rank_) continue;
      Reader rd{everything.data() + displs[static_cast<size_t>(k)]};
      for (int64_t r = k * perRank; r < (k + 1) * perRank; ++r) {
        ReplicaOutcome& o = all[static_cast<size_t>(r)];
        o.printed.resize(rd.get<uint64_t>());
        for (std::string& line : o.printed) line = rd.str();
        o.trace = rd.str();
        o.written.resize(rd.get<uint64_t>());
        for (size_t i = 0; i < o.written.size(); ++i) o.written[i] = rd.get<uint8_t>() != 0;
        if (rd.get<uint8_t>()) {
          std::string msg = rd.str();
          RuntimeFault f(nullptr, std::move(msg));
          f.loc = getLoc(rd);
          f.aborted = rd.get<uint8_t>() != 0;
          f.notes.resize(rd.get<uint64_t>());
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
    gatherBlobs(mine, everything, displs);  // small: a status text
    const size_t end = size_ > 1 ? static_cast<size_t>(displs[1]) : everything.size();
    return std::string(reinterpret_cast<const char*>(everything.data()), end);
  }

  void shareState(DeviceState& st, const Module& m) override {
    if (gLost) return;
    const int64_t R = static_cast<int64_t>(st.vars.size());
    const int64_t perRank = R / size_;
    const int64_t nht = std::max<int64_t>(1, m.options.numHostTransfers);
    // One replica's state, in a fixed order: variables, remote buffers, main
    // values, then its slices of each d2h stream.
    auto visit = [&](int64_t r, auto&& f) {
      for (HostTensor& v : st.vars[static_cast<size_t>(r)]) f(v.bytes.data(), v.bytes.size());
      for (AlignedBytes& b : st.remote[static_cast<size_t>(r)]) f(b.data(), b.size());
      f(st.mainValues[static_cast<size_t>(r)].data(), st.mainValues[static_cast<size_t>(r)].size());
      for (const auto& res : m.resources) {
        if (res->kind != Resource::Kind::D2H) continue;
        const size_t bytes = HostTensor::byteSize(res->type);
        for (int64_t s = 0; s < nht; ++s)
          f(st.streams[res->index].bytes.data() + static_cast<size_t>(s * R + r) * bytes, bytes);
      }
    };
    Writer w;
    for (int64_t r = rank_ * perRank; r < (rank_ + 1) * perRank; ++r)
      visit(r, [&](const std::byte* p, size_t n) { w.raw(p, n); });
    std::vector<std::byte> everything;
    std::vector<int64_t> displs;
    gatherBlobs(w.bytes, everything, displs);
    for (int k = 0; k < size_; ++k) {
      if (k == rank_) continue;
      Reader rd{everything.data() + displs[static_cast<size_t>(k)]};
      for (int64_t r = k * perRank; r < (k + 1) * perRank; ++r) visit(r, [&](std::byte* p, size_t n) { rd.raw(p, n); });
    }
  }

 private:
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
  void allgather(const void* mine, int64_t bytes, void* all) {
    if (gLost) throw PeerLost("an MPI peer was lost earlier in this job");
    MPI_Request req;
    check(MPI_Iallgather(mine, toInt(bytes, "replica statuses"), MPI_BYTE, all, toInt(bytes, "replica statuses"),
                         MPI_BYTE, MPI_COMM_WORLD, &req),
          "replica statuses");
    await(req, "replica statuses");
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
  // Every process's blob, concatenated (displs: where each starts).
  void gatherBlobs(const std::vector<std::byte>& mine, std::vector<std::byte>& all, std::vector<int64_t>& displs) {
    std::vector<int64_t> sizes(static_cast<size_t>(size_));
    const int64_t own = static_cast<int64_t>(mine.size());
    allgather(&own, sizeof own, sizes.data());
    displs.assign(static_cast<size_t>(size_), 0);
    int64_t total = 0;
    for (int k = 0; k < size_; ++k) {
      displs[static_cast<size_t>(k)] = total;
      total += sizes[static_cast<size_t>(k)];
    }
    all.resize(static_cast<size_t>(total));
    allgatherv(mine.data(), sizes, displs, all.data());
  }
  static void restoreStderr();

  int rank_ = 0, size_ = 1;
  int timeoutSeconds_ = 600;
  AlignedBytes received_;
};

int gSavedStderr = -1;

// What a process stopped by the launcher says: Open MPI's mpirun terminates
// every process of the job when one dies, so a survivor learns of a lost peer
// through SIGTERM. The text is prepared before each wait (a handler may only
// write(2) and _exit(2)).
char gStoppedText[1024] = "pir: error: an MPI peer was lost: mpirun stopped this process\n";
size_t gStoppedLength = std::strlen(gStoppedText);

extern "C" void onStoppedByLauncher(int) {
  const int fd = gSavedStderr >= 0 ? gSavedStderr : STDERR_FILENO;
  ssize_t ignored = write(fd, gStoppedText, gStoppedLength);
  (void)ignored;
  _exit(1);
}

void MpiCommunicator::noteWaitingAt(const std::string& where) {
  std::string text = (where.empty() ? std::string("pir: error: run") : where) +
                     ": an MPI peer was lost: mpirun stopped this process while it waited for the others "
                     "(another process failed or the job was cancelled)\n";
  if (text.size() >= sizeof gStoppedText) text = text.substr(text.size() - sizeof gStoppedText + 1);
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &block, &old);  // the handler never sees half a text
  copyBytes(gStoppedText, text.data(), text.size());
  gStoppedLength = text.size();
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

void MpiCommunicator::restoreStderr() {
  // A survivor's own report of the lost peer must be seen even if rank 0 is gone.
  if (gSavedStderr >= 0) dup2(gSavedStderr, STDERR_FILENO);
}

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
    // the same text, so they are dropped.
    std::fflush(stdout);
    std::fflush(stderr);
    gSavedStderr = dup(STDERR_FILENO);
    const int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) {
      dup2(devnull, STDOUT_FILENO);
      dup2(devnull, STDERR_FILENO);
      close(devnull);
    }
  }
  struct sigaction sa {};
  sa.sa_handler = onStoppedByLauncher;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  return comm;
}

void finishMpi(int status) {
  if (!gInitialised) return;
  std::fflush(stdout);
  std::fflush(stderr);
  if (gLost) _exit(status);  // MPI_Finalize would wait for the lost peer
  MPI_Finalize();
  gInitialised = false;
}

}  // namespace pir::vm

#endif
