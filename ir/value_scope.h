// The `%` namespace of one graph: name -> Value.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pir {

struct Value;

// Two stores behind one map:
//
// - Numbered names, a prefix and a decimal number (`v12`, `12`, `x.3`; at most 9
//   digits, no leading zero), live in a run per prefix: the values' ids by
//   number. A program numbered in order (generated, or printed by pir) then
//   touches its scope sequentially, where a hashed slot per new name would be a
//   cache miss per statement in a large graph. A run takes a number below twice
//   its count plus kRunSlack, so it is at least about half full; there are at
//   most kMaxRuns runs, each made by a number below kRunSlack.
// - Every other name, and a numbered one no run takes, lives in the hashed slots:
//   open addressing with linear probing and backward-shift deletion. A slot is 8
//   bytes, 32 bits of the name's hash and the value's id; the key is the Value's
//   own name.
//
// Invariants: a name is held in at most one place; every value held is the
// graph's, at `values[v->id]`, under its own name; Numbered::hashed[b] counts
// the hashed entries whose names are numbered with a prefix hash in bucket b, so
// a numbered name that misses its run probes the hashed slots only when a hashed
// entry of its bucket exists.
class ValueScope {
 public:
  explicit ValueScope(const std::vector<std::unique_ptr<Value>>& values) : values_(&values) {}
  Value* find(std::string_view name) const;
  bool contains(std::string_view name) const { return find(name) != nullptr; }
  // Adds `v` under v->name; an existing entry of that name is replaced.
  void insert(Value* v);
  // Adds `v` under v->name unless an entry has that name (then changes
  // nothing); returns whether it added `v`. One probe where contains() then
  // insert() take two.
  bool insertIfAbsent(Value* v);
  // Removes the entry for v->name if it is `v`.
  void erase(const Value* v);
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // A hint that about n names will be held: the hashed slots grow to it at once
  // when names that need them are a sixteenth of it (a program whose names are
  // numbered never makes them).
  void reserve(size_t n) { reserveHint_ = n; }
  void clear();
  // A hint that `name` is about to be looked up or inserted: starts loading its
  // slot into the cache (in a large table, that load is a cache miss the caller
  // can overlap with other work). Changes nothing.
  void prefetch(std::string_view name) const;
  // Calls f(Value*) for every entry, in no particular order (completion, dumps).
  template <class F> void forEach(F&& f) const {
    for (auto& s : slots_)
      if (s.idPlusOne) f(valueOf(s.idPlusOne));
    if (numbered_)
      for (auto& run : numbered_->runs)
        for (uint32_t idPlusOne : run.ids)
          if (idPlusOne) f(valueOf(idPlusOne));
  }

  static constexpr size_t kMaxRuns = 64;
  static constexpr uint32_t kRunSlack = 64;

 private:
  struct Slot {
    uint32_t hash = 0;
    uint32_t idPlusOne = 0;  // 0: empty slot
  };
  struct Run {
    std::string prefix;
    uint32_t prefixHash = 0;
    uint32_t count = 0;          // nonzero entries of ids
    std::vector<uint32_t> ids;   // by number: id + 1, or 0
  };
  static constexpr uint8_t kNoRun = 0xff;
  static constexpr size_t kRunIndexSize = 2 * kMaxRuns;
  static constexpr size_t kBuckets = 64;
  static constexpr size_t kPrefetchSlots = size_t(1) << 16;  // 512 KiB of slots
  static_assert(kMaxRuns < kNoRun && (kRunIndexSize & (kRunIndexSize - 1)) == 0);
  // What numbered names need, made with the first one held (a graph without
  // them pays one pointer).
  struct Numbered {
    Numbered() { runIndex.fill(kNoRun); }
    std::vector<Run> runs;
    // The runs by prefix: open addressing over the prefix's hash, linear
    // probing, each slot a run's index or kNoRun; at most half full.
    std::array<uint8_t, kRunIndexSize> runIndex;
    // Hashed entries with numbered names, by their prefix hash modulo kBuckets.
    std::array<uint32_t, kBuckets> hashed{};
  };
  // A name split for lookup: numbered or not, and if so its prefix's hash, its
  // run's index (or -1) and its number.
  struct Key {
    bool numbered = false;
    std::string_view prefix;
    uint32_t prefixHash = 0;
    int run = -1;
    uint32_t number = 0;
  };

  Value* valueOf(uint32_t idPlusOne) const { return (*values_)[idPlusOne - 1].get(); }
  Key keyOf(std::string_view name) const;
  // The run that may hold key's number, made if there is none and may be one;
  // grown to the number if it takes it; nullptr if the number is for the
  // hashed slots.
  Run* runTaking(Key& key);
  bool mayBeHashed(const Key& key) const {
    return !key.numbered || (numbered_ && numbered_->hashed[key.prefixHash % kBuckets] != 0);
  }
  Numbered& numbered();

  size_t findSlot(std::string_view name, uint32_t hash) const;  // the slot of `name`, or the empty slot ending its probe
  Value* findHashed(std::string_view name) const;
  // Adds v, or with `replace` puts v in place of an entry of its name; returns
  // whether it added an entry.
  bool insertHashed(Value* v, const Key& key, bool replace);
  // Removes the entry for `name` (if `only` is given, only when it is `only`);
  // returns whether it removed one.
  bool eraseHashed(std::string_view name, const Key& key, const Value* only);
  void growHashed();
  void rehash(size_t minimumEntries);

  const std::vector<std::unique_ptr<Value>>* values_;  // the graph's value list, by id
  std::vector<Slot> slots_;  // size 0 or a power of two
  size_t hashedSize_ = 0;    // entries in slots_
  std::unique_ptr<Numbered> numbered_;
  size_t size_ = 0;          // entries in all
  size_t reserveHint_ = 0;
};

}  // namespace pir
