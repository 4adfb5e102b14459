// A name string of 16 bytes (a std::string is 32): names of up to 15 bytes,
// nearly every value name a program has (`v123456`, `x`, `grad_w1`), are kept
// inside the object; a longer one in a heap block of its own. A program holds
// one name per value, so a million-value graph saves 16 MB. Immutable but
// assignable, like a std::string that is only ever replaced whole; it reads as
// a std::string_view and converts to a std::string where one is needed.
#pragma once
#include <compare>
#include <cstdint>
#include <cstring>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pir {

class SmallName {
 public:
  static constexpr size_t kInlineCapacity = 15;

  SmallName() { setEmpty(); }
  SmallName(std::string_view text) { init(text); }  // NOLINT: implicit, as std::string's
  SmallName(const std::string& text) { init(text); }  // NOLINT
  SmallName(const char* text) { init(text); }  // NOLINT
  SmallName(const SmallName& o) { init(o.view()); }
  SmallName(SmallName&& o) noexcept {
    std::memcpy(bytes_, o.bytes_, sizeof bytes_);
    o.setEmpty();
  }
  SmallName& operator=(const SmallName& o) {
    if (this != &o) assign(o.view());
    return *this;
  }
  SmallName& operator=(SmallName&& o) noexcept {
    if (this != &o) {
      release();
      std::memcpy(bytes_, o.bytes_, sizeof bytes_);
      o.setEmpty();
    }
    return *this;
  }
  SmallName& operator=(std::string_view text) {
    assign(text);
    return *this;
  }
  SmallName& operator=(const std::string& text) { return *this = std::string_view(text); }
  SmallName& operator=(const char* text) { return *this = std::string_view(text); }
  ~SmallName() { release(); }

  size_t size() const { return onHeap() ? heapSize() : bytes_[kTag]; }
  size_t length() const { return size(); }
  bool empty() const { return size() == 0; }
  const char* data() const { return onHeap() ? heapData() : bytes_; }
  const char* begin() const { return data(); }
  const char* end() const { return data() + size(); }
  char operator[](size_t i) const { return data()[i]; }
  char front() const { return data()[0]; }
  char back() const { return data()[size() - 1]; }
  std::string_view view() const { return {data(), size()}; }
  std::string str() const { return std::string(view()); }
  operator std::string_view() const { return view(); }  // NOLINT
  operator std::string() const { return str(); }  // NOLINT
  bool startsWith(std::string_view p) const { return view().starts_with(p); }
  size_t find(char c, size_t from = 0) const { return view().find(c, from); }
  size_t find(std::string_view s, size_t from = 0) const { return view().find(s, from); }
  size_t rfind(char c, size_t from = std::string_view::npos) const { return view().rfind(c, from); }
  std::string substr(size_t pos, size_t n = std::string_view::npos) const { return std::string(view().substr(pos, n)); }
  int compare(std::string_view o) const { return view().compare(o); }
  // True when the text is kept inside the object (for tests).
  bool isInline() const { return !onHeap(); }

  // Equality with a text, compared in line for a name kept inside the object
  // (a scope lookup compares one; a library call costs more than the bytes).
  bool equals(std::string_view o) const {
    if (onHeap()) return view() == o;
    const size_t n = static_cast<unsigned char>(bytes_[kTag]);
    if (n != o.size()) return false;
    for (size_t i = 0; i < n; ++i)
      if (bytes_[i] != o[i]) return false;
    return true;
  }

  friend bool operator==(const SmallName& a, const SmallName& b) { return a.equals(b.view()); }
  friend bool operator==(const SmallName& a, std::string_view b) { return a.equals(b); }
  friend bool operator==(const SmallName& a, const std::string& b) { return a.view() == std::string_view(b); }
  friend bool operator==(const SmallName& a, const char* b) { return a.view() == std::string_view(b); }
  friend std::strong_ordering operator<=>(const SmallName& a, const SmallName& b) { return a.view() <=> b.view(); }
  friend std::strong_ordering operator<=>(const SmallName& a, std::string_view b) { return a.view() <=> b; }
  friend std::string operator+(const std::string& a, const SmallName& b) { return std::string(a).append(b.view()); }
  friend std::string operator+(std::string&& a, const SmallName& b) { return std::move(a.append(b.view())); }
  friend std::string operator+(const char* a, const SmallName& b) { return std::string(a).append(b.view()); }
  friend std::string operator+(char a, const SmallName& b) { return std::string(1, a).append(b.view()); }
  friend std::string operator+(const SmallName& a, const std::string& b) { return a.str() + b; }
  friend std::string operator+(const SmallName& a, const char* b) { return a.str() + b; }
  friend std::string operator+(const SmallName& a, char b) { return a.str() + b; }
  friend std::string operator+(const SmallName& a, const SmallName& b) { return a.str().append(b.view()); }
  friend std::string& operator+=(std::string& a, const SmallName& b) { return a.append(b.view()); }
  friend std::ostream& operator<<(std::ostream& os, const SmallName& n) { return os << n.view(); }

 private:
  // bytes_[15] is the size (0..15) of an inline text, or kHeapTag; a heap text
  // keeps its block's address in bytes_[0..7] and its size in bytes_[8..11].
  static constexpr size_t kTag = 15;
  static constexpr unsigned char kHeapTag = 0xff;
  bool onHeap() const { return static_cast<unsigned char>(bytes_[kTag]) == kHeapTag; }
  const char* heapData() const {
    const char* p;
    std::memcpy(&p, bytes_, sizeof p);
    return p;
  }
  size_t heapSize() const {
    uint32_t n;
    std::memcpy(&n, bytes_ + 8, sizeof n);
    return n;
  }
  void setEmpty() {
    std::memset(bytes_, 0, sizeof bytes_);
  }
  void init(std::string_view text) {
    if (text.size() <= kInlineCapacity) {
      std::memset(bytes_, 0, sizeof bytes_);
      if (!text.empty()) std::memcpy(bytes_, text.data(), text.size());
      bytes_[kTag] = static_cast<char>(text.size());
      return;
    }
    if (text.size() > UINT32_MAX) throw std::length_error("SmallName: name too long");
    char* block = new char[text.size()];
    std::memcpy(block, text.data(), text.size());
    const auto n = static_cast<uint32_t>(text.size());
    std::memset(bytes_, 0, sizeof bytes_);
    std::memcpy(bytes_, &block, sizeof block);
    std::memcpy(bytes_ + 8, &n, sizeof n);
    bytes_[kTag] = static_cast<char>(kHeapTag);
  }
  void assign(std::string_view text) {
    // `text` may be this name's own text: copy before releasing it.
    SmallName copy(text);
    *this = std::move(copy);
  }
  void release() {
    if (onHeap()) delete[] heapData();
    setEmpty();
  }

  alignas(8) char bytes_[16];
};

}  // namespace pir

template <>
struct std::hash<pir::SmallName> {
  size_t operator()(const pir::SmallName& n) const noexcept { return std::hash<std::string_view>()(n.view()); }
};
