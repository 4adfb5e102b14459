#include "ir/value_scope.h"

#include <algorithm>

#include "ir/ir.h"
#include "ir/name_hash.h"

namespace pir {

namespace {
bool isDigit(char c) { return c >= '0' && c <= '9'; }
// Equal text; prefixes are short, where a call to memcmp costs more than the loop.
bool sameText(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}
}  // namespace

ValueScope::Key ValueScope::keyOf(std::string_view name) const {
  Key key;
  constexpr size_t kMaxDigits = 9;  // every number fits 32 bits
  const size_t end = name.size();
  if (end == 0 || !isDigit(name[end - 1])) return key;
  uint32_t number = 0, scale = 1;
  size_t start = end;
  for (; start > 0 && isDigit(name[start - 1]); --start, scale *= 10) {
    if (end - start == kMaxDigits) return key;
    number += static_cast<uint32_t>(name[start - 1] - '0') * scale;
  }
  if (end - start > 1 && name[start] == '0') return key;
  key.numbered = true;
  key.number = number;
  key.prefix = name.substr(0, start);
  key.prefixHash = hashName(key.prefix);
  if (!numbered_) return key;
  const Numbered& n = *numbered_;
  for (size_t i = key.prefixHash % kRunIndexSize; n.runIndex[i] != kNoRun; i = (i + 1) % kRunIndexSize) {
    const Run& run = n.runs[n.runIndex[i]];
    if (run.prefixHash == key.prefixHash && sameText(run.prefix, key.prefix)) {
      key.run = n.runIndex[i];
      break;
    }
  }
  return key;
}

ValueScope::Numbered& ValueScope::numbered() {
  if (!numbered_) numbered_ = std::make_unique<Numbered>();
  return *numbered_;
}

ValueScope::Run* ValueScope::runTaking(Key& key) {
  if (!key.numbered) return nullptr;
  Numbered& n = numbered();
  if (key.run < 0) {
    if (n.runs.size() >= kMaxRuns || key.number >= kRunSlack) return nullptr;
    key.run = static_cast<int>(n.runs.size());
    size_t i = key.prefixHash % kRunIndexSize;
    while (n.runIndex[i] != kNoRun) i = (i + 1) % kRunIndexSize;
    n.runIndex[i] = static_cast<uint8_t>(key.run);
    n.runs.push_back(Run{std::string(key.prefix), key.prefixHash, 0, {}});
  }
  Run& run = n.runs[static_cast<size_t>(key.run)];
  if (key.number < run.ids.size()) return &run;
  const size_t limit = 2 * static_cast<size_t>(run.count) + kRunSlack;  // keeps the run about half full
  if (key.number >= limit) return nullptr;
  run.ids.resize(std::min(limit, std::max<size_t>(key.number + 1, run.ids.size() * 2)));
  return &run;
}

Value* ValueScope::find(std::string_view name) const {
  const Key key = keyOf(name);
  if (key.run >= 0) {
    const Run& run = numbered_->runs[static_cast<size_t>(key.run)];
    if (key.number < run.ids.size() && run.ids[key.number]) return valueOf(run.ids[key.number]);
  }
  return mayBeHashed(key) ? findHashed(name) : nullptr;
}

void ValueScope::insert(Value* v) {
  Key key = keyOf(v->name);
  if (Run* run = runTaking(key)) {
    uint32_t& slot = run->ids[key.number];
    if (!slot) {
      if (mayBeHashed(key)) eraseHashed(v->name, key, nullptr);  // the name moves into its run
      ++run->count;
      ++size_;
    }
    slot = v->id + 1;
    return;
  }
  insertHashed(v, key, true);
}

bool ValueScope::insertIfAbsent(Value* v) {
  Key key = keyOf(v->name);
  if (Run* run = runTaking(key)) {
    uint32_t& slot = run->ids[key.number];
    if (slot || (mayBeHashed(key) && findHashed(v->name))) return false;
    slot = v->id + 1;
    ++run->count;
    ++size_;
    return true;
  }
  return insertHashed(v, key, false);
}

void ValueScope::erase(const Value* v) {
  const Key key = keyOf(v->name);
  if (key.run >= 0) {
    Run& run = numbered_->runs[static_cast<size_t>(key.run)];
    if (key.number < run.ids.size() && run.ids[key.number] == v->id + 1) {
      run.ids[key.number] = 0;
      --run.count;
      --size_;
      return;
    }
  }
  if (mayBeHashed(key)) eraseHashed(v->name, key, v);
}

void ValueScope::clear() {
  slots_.clear();
  hashedSize_ = 0;
  numbered_.reset();
  size_ = 0;
}

void ValueScope::prefetch(std::string_view name) const {
  // Only a hashed table larger than the caches misses; a run is read in order.
  if (slots_.size() < kPrefetchSlots) return;
  const Key key = keyOf(name);
  if (key.numbered && !mayBeHashed(key)) return;
  __builtin_prefetch(&slots_[hashName(name) & (slots_.size() - 1)]);
}

// ---- the hashed slots ----------------------------------------------------------

size_t ValueScope::findSlot(std::string_view name, uint32_t hash) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (!s.idPlusOne || (s.hash == hash && valueOf(s.idPlusOne)->name == name)) return i;
  }
}

Value* ValueScope::findHashed(std::string_view name) const {
  if (slots_.empty()) return nullptr;
  const Slot& s = slots_[findSlot(name, hashName(name))];
  return s.idPlusOne ? valueOf(s.idPlusOne) : nullptr;
}

bool ValueScope::insertHashed(Value* v, const Key& key, bool replace) {
  if ((hashedSize_ + 1) * 4 > slots_.size() * 3) growHashed();  // load factor <= 3/4
  const uint32_t h = hashName(v->name);
  Slot& s = slots_[findSlot(v->name, h)];
  if (s.idPlusOne) {
    if (replace) s.idPlusOne = v->id + 1;
    return false;
  }
  s = Slot{h, v->id + 1};
  ++hashedSize_;
  ++size_;
  if (key.numbered) ++numbered().hashed[key.prefixHash % kBuckets];
  return true;
}

bool ValueScope::eraseHashed(std::string_view name, const Key& key, const Value* only) {
  if (slots_.empty()) return false;
  const size_t mask = slots_.size() - 1;
  const size_t i = findSlot(name, hashName(name));
  if (!slots_[i].idPlusOne || (only && valueOf(slots_[i].idPlusOne) != only)) return false;
  // Backward-shift deletion: move later entries of the probe run into the hole.
  size_t hole = i;
  for (size_t j = (i + 1) & mask; slots_[j].idPlusOne; j = (j + 1) & mask) {
    const size_t home = slots_[j].hash & mask;
    // Entry j may move to the hole if its home is not in (hole, j] cyclically.
    const bool between = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
    if (!between) {
      slots_[hole] = slots_[j];
      hole = j;
    }
  }
  slots_[hole] = Slot{};
  --hashedSize_;
  --size_;
  if (key.numbered) --numbered_->hashed[key.prefixHash % kBuckets];
  return true;
}

void ValueScope::growHashed() {
  size_t entries = std::max<size_t>(slots_.size(), 12);
  // Names that need hashing are common in this graph: go to the expected size at once.
  if (reserveHint_ > entries && (hashedSize_ + 1) * 16 >= reserveHint_) entries = reserveHint_;
  rehash(entries);
}

void ValueScope::rehash(size_t minimumEntries) {
  size_t want = 16;
  while (want * 3 < minimumEntries * 4) want *= 2;
  if (want <= slots_.size()) return;
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(want, Slot{});
  const size_t mask = want - 1;
  for (const Slot& s : old) {
    if (!s.idPlusOne) continue;
    size_t i = s.hash & mask;
    while (slots_[i].idPlusOne) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

}  // namespace pir
