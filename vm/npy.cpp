#include "vm/npy.h"

#include <algorithm>

#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <vector>

#include "ir/checked_math.h"
#include "ir/interrupt.h"
#include "vm/tensor.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pir::vm {

static_assert(std::endian::native == std::endian::little,
              "NPY data is copied as little-endian; a big-endian host needs byte swaps");

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

[[noreturn]] void fail(std::string_view name, const std::string& what) {
  throw NpyError(std::string(name) + ": " + what);
}

// ---- the header: a Python dict literal ------------------------------------------
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }  (keys in any order,
// any whitespace, single or double quotes, trailing commas).

struct HeaderFields {
  std::optional<std::string> descr;
  std::optional<bool> fortranOrder;
  std::optional<std::vector<int64_t>> shape;
};

class HeaderParser {
 public:
  HeaderParser(std::string_view text, std::string_view name) : text_(text), name_(name) {}

  HeaderFields parse() {
    HeaderFields fields;
    expect('{');
    while (true) {
      skipSpace();
      if (peek() == '}') break;
      const std::string key = parseString();
      expect(':');
      skipSpace();
      if (key == "descr") {
        if (peek() == '[') fail(name_, "unsupported dtype: structured arrays are not supported");
        if (peek() != '\'' && peek() != '"') malformed("descr is not a string");
        fields.descr = parseString();
      } else if (key == "fortran_order") {
        fields.fortranOrder = parseBool();
      } else if (key == "shape") {
        fields.shape = parseShape();
      } else {
        malformed("unknown key '" + key + "'");
      }
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != '}') malformed("expected ',' or '}'");
    }
    ++pos_;
    skipSpace();
    if (pos_ != text_.size()) malformed("text after the dictionary");
    if (!fields.descr || !fields.fortranOrder || !fields.shape)
      malformed("the header must give descr, fortran_order and shape");
    return fields;
  }

 private:
  [[noreturn]] void malformed(const std::string& why) { fail(name_, "malformed NPY header: " + why); }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r'))
      ++pos_;
  }
  void expect(char c) {
    skipSpace();
    if (peek() != c) malformed(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string parseString() {
    skipSpace();
    const char quote = peek();
    if (quote != '\'' && quote != '"') malformed("expected a quoted key");
    const size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) malformed("unterminated string");
    std::string s(text_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return s;
  }
  bool parseBool() {
    if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    malformed("fortran_order is not True or False");
  }
  std::vector<int64_t> parseShape() {
    if (peek() != '(') malformed("shape is not a tuple");
    ++pos_;
    std::vector<int64_t> dims;
    while (true) {
      skipSpace();
      if (peek() == ')') break;
      if (peek() < '0' || peek() > '9') malformed("shape entries must be non-negative integers");
      int64_t dim = 0;
      while (peek() >= '0' && peek() <= '9') {
        const int digit = peek() - '0';
        if (dim > (std::numeric_limits<int64_t>::max() - digit) / 10) malformed("shape entry too large");
        dim = dim * 10 + digit;
        ++pos_;
      }
      if (peek() == 'L') ++pos_;  // Python 2 long literal
      dims.push_back(dim);
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != ')') malformed("expected ',' or ')' in shape");
    }
    ++pos_;
    return dims;
  }

  std::string_view text_;
  std::string_view name_;
  size_t pos_ = 0;
};

// ---- descr ----------------------------------------------------------------------

struct FileDType {
  DType stored;      // what pir keeps
  int fileBytes;     // bytes per element in the file
  bool is64BitInt;   // <i8 / <u8, narrowed to i32 / u32 with a range check
};

FileDType parseDescr(const std::string& descr, std::string_view name) {
  if (descr.size() < 2) fail(name, "unsupported dtype '" + descr + "'");
  const char order = descr[0];
  const std::string_view code = std::string_view(descr).substr(1);
  if (code == "O" || code.starts_with("O")) fail(name, "object arrays are not supported (dtype '" + descr + "')");
  if (order != '<' && order != '>' && order != '|' && order != '=')
    fail(name, "unsupported dtype '" + descr + "'");

  struct Entry {
    std::string_view code;
    DType stored;
    int bytes;
    bool is64;
  };
  static constexpr Entry kEntries[] = {
      {"b1", DType::Bool, 1, false}, {"i1", DType::I8, 1, false},  {"i2", DType::I16, 2, false},
      {"i4", DType::I32, 4, false},  {"i8", DType::I32, 8, true},  {"u1", DType::U8, 1, false},
      {"u2", DType::U16, 2, false},  {"u4", DType::U32, 4, false}, {"u8", DType::U32, 8, true},
      {"f2", DType::F16, 2, false},  {"f4", DType::F32, 4, false}, {"f8", DType::F64, 8, false},
  };
  for (const Entry& e : kEntries) {
    if (e.code != code) continue;
    // Byte order only matters for multi-byte types; numpy writes '|' for 1-byte ones.
    if (e.bytes > 1 && order == '>') fail(name, "big-endian arrays are not supported (dtype '" + descr + "')");
    if (e.bytes > 1 && order == '|') fail(name, "unsupported dtype '" + descr + "' (no byte order)");
    return {e.stored, e.bytes, e.is64};
  }
  fail(name, "unsupported dtype '" + descr +
                 "' (supported: |b1 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 <f2 <f4 <f8)");
}

template <class T>
T readLittle(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// ---- writing --------------------------------------------------------------------

std::string shapeTuple(const Shape& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ',';
  s += ')';
  return s;
}

}  // namespace

std::string_view npyDescr(DType dtype) {
  switch (dtype) {
    case DType::Bool: return "|b1";
    case DType::I8: return "|i1";
    case DType::I16: return "<i2";
    case DType::I32: return "<i4";
    case DType::U8: return "|u1";
    case DType::U16: return "<u2";
    case DType::U32: return "<u4";
    case DType::F16: return "<f2";
    case DType::F32: return "<f4";
    case DType::F64: return "<f8";
  }
  return "";
}

namespace {

// Headers are a few hundred bytes; NumPy itself refuses more than 10,000 by default.
constexpr uint64_t kMaxHeaderBytes = uint64_t(1) << 20;

// What the header says: where the data starts and how much of it there is.
struct NpyLayout {
  FileDType fileType;
  Shape shape;
  uint64_t dataStart = 0;
  uint64_t count = 0;      // elements
  uint64_t dataBytes = 0;  // count × file element size
};

// Checks magic, version and header length from the file's first (up to) 12 bytes;
// returns where the header ends (= where the data starts).
uint64_t headerEnd(std::string_view start, uint64_t fileSize, std::string_view name) {
  if (start.size() < kMagic.size() || start.substr(0, kMagic.size()) != kMagic)
    fail(name, "not an NPY file (bad magic string)");
  if (start.size() < 8) fail(name, "truncated NPY file (no version)");
  const int major = static_cast<unsigned char>(start[6]);
  const int minor = static_cast<unsigned char>(start[7]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    fail(name, "unsupported NPY version " + std::to_string(major) + "." + std::to_string(minor) +
                   " (supported: 1.0, 2.0, 3.0)");
  const size_t lengthBytes = major == 1 ? 2 : 4;
  if (start.size() < 8 + lengthBytes) fail(name, "truncated NPY file (no header length)");
  const uint64_t headerLength = major == 1 ? readLittle<uint16_t>(start.data() + 8)
                                           : readLittle<uint32_t>(start.data() + 8);
  const uint64_t end = 8 + lengthBytes + headerLength;
  if (end > fileSize) fail(name, "truncated NPY file (header cut short)");
  if (headerLength > kMaxHeaderBytes)
    fail(name, "malformed NPY header: " + std::to_string(headerLength) + " bytes long (at most " +
                   std::to_string(kMaxHeaderBytes) + ")");
  return end;
}

// Parses the header (`prefix` is the file's first headerEnd() bytes) and checks
// the file size against what the shape needs, before anything is allocated:
// fewer bytes is a truncated file, more is an error too (nothing is ignored).
NpyLayout parseLayout(std::string_view prefix, uint64_t fileSize, std::string_view name) {
  const size_t headerStart = prefix[6] == 1 ? 10 : 12;
  const HeaderFields fields = HeaderParser(prefix.substr(headerStart), name).parse();
  NpyLayout layout;
  layout.fileType = parseDescr(*fields.descr, name);
  if (*fields.fortranOrder) fail(name, "Fortran-order arrays are not supported (save with C order)");
  layout.shape = *fields.shape;
  layout.dataStart = prefix.size();
  const uint64_t available = fileSize - layout.dataStart;
  // Element count with overflow checks; a zero dimension makes the array empty
  // whatever else overflowed.
  std::optional<uint64_t> count = 1;
  for (int64_t dim : layout.shape)
    if (count) count = checkedMul(*count, static_cast<uint64_t>(dim));
  for (int64_t dim : layout.shape)
    if (dim == 0) count = 0;
  const uint64_t elementBytes = static_cast<uint64_t>(layout.fileType.fileBytes);
  std::optional<uint64_t> needed = count ? checkedMul(*count, elementBytes) : std::nullopt;
  if (!needed || *needed > available)
    fail(name, "truncated NPY file: shape " + shapeToString(layout.shape) + " needs " +
                   (needed ? std::to_string(*needed) : std::string("more")) + " data bytes, the file has " +
                   std::to_string(available));
  if (*needed < available)
    fail(name, "file has " + std::to_string(available - *needed) + " bytes after the data (shape " +
                   shapeToString(layout.shape) + " needs " + std::to_string(*needed) + ")");
  layout.count = *count;
  layout.dataBytes = *needed;
  return layout;
}

// Converts `n` file elements at `source` into result elements [first, first + n).
void decode(const NpyLayout& layout, const char* source, uint64_t first, uint64_t n, NpyArray& result,
            std::string_view name) {
  const FileDType& fileType = layout.fileType;
  if (fileType.is64BitInt) {
    for (uint64_t k = 0; k < n; ++k) {
      const char* p = source + k * 8;
      const uint64_t i = first + k;
      if (fileType.stored == DType::I32) {
        const int64_t v = readLittle<int64_t>(p);
        if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
          fail(name, "value " + std::to_string(v) + " at index " + std::to_string(i) +
                         " does not fit in i32 (64-bit integers are stored as i32)");
        result.tensor.as<int32_t>()[i] = static_cast<int32_t>(v);
      } else {
        const uint64_t v = readLittle<uint64_t>(p);
        if (v > std::numeric_limits<uint32_t>::max())
          fail(name, "value " + std::to_string(v) + " at index " + std::to_string(i) +
                         " does not fit in u32 (64-bit integers are stored as u32)");
        result.tensor.as<uint32_t>()[i] = static_cast<uint32_t>(v);
      }
    }
    return;
  }
  const uint64_t bytes = n * static_cast<uint64_t>(fileType.fileBytes);
  std::byte* target = result.tensor.bytes.data() + first * static_cast<uint64_t>(fileType.fileBytes);
  if (source != reinterpret_cast<const char*>(target)) copyBytes(target, source, bytes);
  if (fileType.stored == DType::Bool)
    for (uint64_t k = 0; k < bytes; ++k) target[k] = static_cast<std::byte>(target[k] != std::byte{0});
}

NpyArray allocateFor(const NpyLayout& layout) {
  NpyArray result;
  result.narrowed = layout.fileType.is64BitInt;
  result.tensor = HostTensor(TensorType{layout.fileType.stored, layout.shape});
  return result;
}

}  // namespace

NpyArray parseNpy(std::string_view bytes, std::string_view name) {
  const uint64_t end = headerEnd(bytes.substr(0, 12), bytes.size(), name);
  const NpyLayout layout = parseLayout(bytes.substr(0, end), bytes.size(), name);
  NpyArray result = allocateFor(layout);
  decode(layout, bytes.data() + layout.dataStart, 0, layout.count, result, name);
  return result;
}

// Reads the header first, checks the size the shape implies against the file's,
// then reads exactly the data (straight into the tensor, or in chunks when 64-bit
// integers are narrowed): a file costs what its array costs, whatever it claims.
NpyArray readNpy(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, std::string("cannot open file: ") + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail(path, std::string("cannot read file: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) fail(path, "cannot read: is a directory");
  if (!S_ISREG(st.st_mode)) fail(path, "cannot read: not a regular file");
  const uint64_t fileSize = static_cast<uint64_t>(st.st_size);
  auto readExactly = [&](char* into, uint64_t n) {
    uint64_t done = 0;
    while (done < n) {
      // Blocks of 64 MiB: Ctrl-C (ir/interrupt.h) is polled between them.
      if (interruptRequested()) fail(path, kInterruptedMessage);
      const ssize_t r = ::read(fd, into + done, static_cast<size_t>(std::min<uint64_t>(n - done, 1u << 26)));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) fail(path, std::string("cannot read file: ") + std::strerror(errno));
      if (r == 0) fail(path, "truncated NPY file (the file shrank while being read)");
      done += static_cast<uint64_t>(r);
    }
  };
  std::string prefix(static_cast<size_t>(std::min<uint64_t>(fileSize, 12)), '\0');
  readExactly(prefix.data(), prefix.size());
  const uint64_t end = headerEnd(prefix, fileSize, path);
  const size_t known = prefix.size();
  prefix.resize(static_cast<size_t>(end));
  if (end > known) readExactly(prefix.data() + known, end - known);
  const NpyLayout layout = parseLayout(prefix, fileSize, path);
  NpyArray result = allocateFor(layout);
  if (!layout.fileType.is64BitInt) {
    char* target = reinterpret_cast<char*>(result.tensor.bytes.data());
    readExactly(target, layout.dataBytes);
    decode(layout, target, 0, layout.count, result, path);
  } else {
    constexpr uint64_t kChunk = 8192;  // elements
    std::vector<char> chunk(kChunk * 8);
    for (uint64_t first = 0; first < layout.count; first += kChunk) {
      const uint64_t n = std::min(kChunk, layout.count - first);
      readExactly(chunk.data(), n * 8);
      decode(layout, chunk.data(), first, n, result, path);
    }
  }
  return result;
}

std::string encodeNpy(DType dtype, const Shape& shape, const void* data) {
  std::string header = "{'descr': '" + std::string(npyDescr(dtype)) + "', 'fortran_order': False, 'shape': " +
                       shapeTuple(shape) + ", }";
  // magic(6) + version(2) + length(2) + header + '\n' padded to a multiple of 64.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  if (header.size() > std::numeric_limits<uint16_t>::max())
    throw NpyError("NPY header too long for version 1.0 (shape of rank " + std::to_string(shape.size()) + ")");
  const size_t dataBytes = static_cast<size_t>(numElements(shape)) * static_cast<size_t>(dtypeSize(dtype));
  std::string out;
  out.reserve(10 + header.size() + dataBytes);
  out += kMagic;
  out += '\x01';
  out += '\x00';
  const auto length = static_cast<uint16_t>(header.size());
  out += static_cast<char>(length & 0xff);
  out += static_cast<char>(length >> 8);
  out += header;
  if (dataBytes) out.append(static_cast<const char*>(data), dataBytes);
  if (dtype == DType::Bool)  // numpy bools are exactly 0 or 1
    for (size_t i = out.size() - dataBytes; i < out.size(); ++i) out[i] = out[i] != 0;
  return out;
}

void writeNpy(const std::string& path, DType dtype, const Shape& shape, const void* data) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) fail(path, "cannot write: is a directory");
  const std::string bytes = encodeNpy(dtype, shape, data);
  // mkstemp in the target's directory, so the rename stays on one filesystem.
  std::string tempPath = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(tempPath.data());
  if (fd < 0) fail(path, std::string("cannot create a temporary file: ") + std::strerror(errno));
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t r = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (r < 0) {
      if (errno == EINTR) continue;
      const std::string reason = std::strerror(errno);
      ::close(fd);
      ::unlink(tempPath.c_str());
      fail(path, "cannot write: " + reason);
    }
    written += static_cast<size_t>(r);
  }
  // mkstemp creates 0600; give the file the permissions a plain create would have.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::close(fd) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(tempPath.c_str());
    fail(path, "cannot write: " + reason);
  }
  if (std::rename(tempPath.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(tempPath.c_str());
    fail(path, "cannot rename the temporary file into place: " + reason);
  }
}

}  // namespace pir::vm
