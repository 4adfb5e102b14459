// NPY files (tools.md §4): read versions 1.0-3.0, write 1.0 atomically.
//
// Readable: little-endian (or byte-order-free) C-order arrays of |b1 |i1 <i2 <i4 <i8
// |u1 <u2 <u4 <u8 <f2 <f4 <f8. 64-bit integers are stored as i32/u32 (pir has no
// 64-bit integers); a value outside that range is an error. Byte-order chars: '<'
// and '=' (this host is little-endian) for every type, '|' and '>' too for 1-byte types.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

#include "ir/dtype.h"
#include "vm/tensor.h"

namespace pir::vm {

// Every read/write failure; what() says which problem (and names the file).
struct NpyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct NpyArray {
  HostTensor tensor;        // dtype, shape and row-major data in vm/tensor.h storage
  bool narrowed = false;    // the file held <i8/<u8, stored as i32/u32
};

// Reads a whole file. Never allocates more than the file's size implies: a header
// whose shape needs more bytes than the file holds is a "truncated" error.
NpyArray readNpy(const std::string& path);
// The same, on the bytes of a file; `name` only prefixes error messages.
NpyArray parseNpy(std::string_view fileBytes, std::string_view name = "<memory>");

// Writes NPY 1.0 (header padded to a 64-byte boundary) to a temporary file in the
// same directory, then renames it over `path`: a failure never leaves a partial file.
// `data` is row-major storage as in vm/tensor.h.
void writeNpy(const std::string& path, DType dtype, const Shape& shape, const void* data);
inline void writeNpy(const std::string& path, const HostTensor& t) {
  writeNpy(path, t.type.dtype, t.type.shape, t.data());
}
// The exact bytes writeNpy would write.
std::string encodeNpy(DType dtype, const Shape& shape, const void* data);

// The NPY descr of a dtype: "|b1", "<f2", ...
std::string_view npyDescr(DType dtype);

}  // namespace pir::vm
