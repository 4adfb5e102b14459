// NPY read/write (tools.md §4): every dtype round-trips, files numpy writes are read,
// and every kind of broken file is a clear NpyError.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ir/half.h"
#include "vm/host_memory.h"
#include "vm/npy.h"

using namespace pir;
using namespace pir::vm;
namespace fs = std::filesystem;

namespace {

class NpyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pir_npy_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string writeRaw(const std::string& name, const std::string& bytes) const {
    std::ofstream(path(name), std::ios::binary) << bytes;
    return path(name);
  }
  fs::path dir_;
};

// A file as numpy writes it: magic, version, little-endian header length, header
// padded with spaces to a 64-byte boundary (16 for version 1.0 of old numpy), '\n'.
std::string npyFile(const std::string& dict, const std::string& data, int major = 1, size_t align = 64) {
  const size_t lengthBytes = major == 1 ? 2 : 4;
  std::string header = dict;
  const size_t unpadded = 8 + lengthBytes + header.size() + 1;
  header.append((align - unpadded % align) % align, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  for (size_t i = 0; i < lengthBytes; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return out + header + data;
}

template <class T>
std::string bytesOf(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

// Expects an NpyError whose message contains `part`.
template <class F>
void expectNpyError(F&& f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one containing '" << part << "'";
  } catch (const NpyError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST_F(NpyTest, EveryDTypeRoundTrips) {
  const Shape shape{2, 3};
  auto check = [&](DType dtype, const auto& values) {
    const std::string file = path(std::string(dtypeName(dtype)) + ".npy");
    writeNpy(file, dtype, shape, values.data());
    const NpyArray read = readNpy(file);
    EXPECT_EQ(read.tensor.type, (TensorType{dtype, shape}));
    EXPECT_FALSE(read.narrowed);
    ASSERT_EQ(read.tensor.bytes.size(), values.size() * sizeof(values[0]));
    EXPECT_EQ(std::memcmp(read.tensor.data(), values.data(), read.tensor.bytes.size()), 0) << dtypeName(dtype);
  };
  check(DType::Bool, std::vector<uint8_t>{1, 0, 0, 1, 1, 0});
  check(DType::I8, std::vector<int8_t>{-128, -1, 0, 1, 2, 127});
  check(DType::I16, std::vector<int16_t>{-32768, -1, 0, 1, 300, 32767});
  check(DType::I32, std::vector<int32_t>{INT32_MIN, -1, 0, 1, 70000, INT32_MAX});
  check(DType::U8, std::vector<uint8_t>{0, 1, 2, 128, 254, 255});
  check(DType::U16, std::vector<uint16_t>{0, 1, 2, 1000, 40000, 65535});
  check(DType::U32, std::vector<uint32_t>{0, 1, 2, 1000, 3000000000u, UINT32_MAX});
  check(DType::F16, std::vector<uint16_t>{floatToHalf(0.1f), floatToHalf(-2.0f), 0x7c00, 0x0001, 0x8000, 0x7bff});
  check(DType::F32, std::vector<float>{0.1f, -2.5f, 1e-8f, 3e38f, -0.0f, 1.0f});
  check(DType::F64, std::vector<double>{0.1, -2.5, 1e-300, 1e300, -0.0, 1.0});
}

TEST_F(NpyTest, WritesNumpyCompatibleVersion1Header) {
  const std::vector<float> values{1, 2, 3, 4, 5, 6};
  const std::string bytes = encodeNpy(DType::F32, {2, 3}, values.data());
  ASSERT_GE(bytes.size(), 10u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const size_t headerLength = static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8;
  EXPECT_EQ((10 + headerLength) % 64, 0u);
  const std::string header = bytes.substr(10, headerLength);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 0), 0u) << header;
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(bytes.size(), 10 + headerLength + 24);
  EXPECT_EQ(bytes.substr(10 + headerLength), bytesOf(values));

  const std::string scalar = encodeNpy(DType::Bool, {}, values.data());
  EXPECT_NE(scalar.find("'descr': '|b1'"), std::string::npos);
  EXPECT_NE(scalar.find("'shape': ()"), std::string::npos);
  const std::string vector = encodeNpy(DType::F16, {5}, values.data());
  EXPECT_NE(vector.find("'descr': '<f2'"), std::string::npos);
  EXPECT_NE(vector.find("'shape': (5,)"), std::string::npos);
}

TEST_F(NpyTest, ScalarsAndEmptyArrays) {
  const double pi = 3.14159;
  writeNpy(path("s.npy"), DType::F64, {}, &pi);
  const NpyArray scalar = readNpy(path("s.npy"));
  EXPECT_TRUE(scalar.tensor.type.shape.empty());
  EXPECT_EQ(scalar.tensor.as<double>()[0], pi);

  writeNpy(path("e.npy"), DType::I32, {0, 4}, nullptr);
  const NpyArray empty = readNpy(path("e.npy"));
  EXPECT_EQ(empty.tensor.type, (TensorType{DType::I32, {0, 4}}));
  EXPECT_EQ(empty.tensor.numElements(), 0);
}

TEST_F(NpyTest, ReadsVersions2And3AndNumpyHeaderVariants) {
  const std::vector<float> values{1.5f, -2};
  for (int major : {1, 2, 3}) {
    const NpyArray a = parseNpy(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", bytesOf(values), major));
    EXPECT_EQ(a.tensor.type, (TensorType{DType::F32, {2}})) << major;
    EXPECT_EQ(a.tensor.as<float>()[1], -2.0f);
  }
  // Keys in another order, double quotes, no trailing comma, 16-byte padding, '=' order.
  const NpyArray b = parseNpy(npyFile("{\"shape\":(1,2),\"fortran_order\":False,\"descr\":\"=f4\"}", bytesOf(values), 1, 16));
  EXPECT_EQ(b.tensor.type, (TensorType{DType::F32, {1, 2}}));
  // 1-byte types with '|' (numpy's spelling), and with '<'.
  const NpyArray c = parseNpy(npyFile("{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }", "\x01\x02\x03"));
  EXPECT_EQ(c.tensor.type.dtype, DType::U8);
  EXPECT_EQ(c.tensor.as<uint8_t>()[2], 3);
  const NpyArray d = parseNpy(npyFile("{'descr': '<i1', 'fortran_order': False, 'shape': (1,), }", "\xff"));
  EXPECT_EQ(d.tensor.as<int8_t>()[0], -1);
  // Booleans other than 0/1 in the file normalise to 1.
  const NpyArray e = parseNpy(npyFile("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", std::string("\x00\x05", 2)));
  EXPECT_EQ(e.tensor.as<uint8_t>()[0], 0);
  EXPECT_EQ(e.tensor.as<uint8_t>()[1], 1);
}

TEST_F(NpyTest, SixtyFourBitIntegersNarrowWithRangeCheck) {
  const NpyArray i = parseNpy(npyFile("{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }",
                                      bytesOf(std::vector<int64_t>{-5, 0, INT32_MAX})));
  EXPECT_TRUE(i.narrowed);
  EXPECT_EQ(i.tensor.type, (TensorType{DType::I32, {3}}));
  EXPECT_EQ(i.tensor.as<int32_t>()[0], -5);
  EXPECT_EQ(i.tensor.as<int32_t>()[2], INT32_MAX);

  const NpyArray u = parseNpy(npyFile("{'descr': '<u8', 'fortran_order': False, 'shape': (1,), }",
                                      bytesOf(std::vector<uint64_t>{UINT32_MAX})));
  EXPECT_EQ(u.tensor.type.dtype, DType::U32);
  EXPECT_EQ(u.tensor.as<uint32_t>()[0], UINT32_MAX);

  expectNpyError([] { parseNpy(npyFile("{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }",
                                       bytesOf(std::vector<int64_t>{1, int64_t{1} << 40}))); },
                 "does not fit in i32");
  expectNpyError([] { parseNpy(npyFile("{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }",
                                       bytesOf(std::vector<int64_t>{int64_t{INT32_MIN} - 1}))); },
                 "does not fit in i32");
  expectNpyError([] { parseNpy(npyFile("{'descr': '<u8', 'fortran_order': False, 'shape': (1,), }",
                                       bytesOf(std::vector<uint64_t>{uint64_t{1} << 32}))); },
                 "does not fit in u32");
}

TEST_F(NpyTest, BrokenFilesSayWhichProblem) {
  const std::string four(4, '\0');
  expectNpyError([&] { readNpy(path("missing.npy")); }, "cannot open");
  expectNpyError([&] { readNpy(writeRaw("text.npy", "hello, this is not numpy")); }, "not an NPY file");
  expectNpyError([&] { readNpy(writeRaw("empty.npy", "")); }, "not an NPY file");
  expectNpyError([&] { parseNpy(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", four, 4)); },
                 "unsupported NPY version 4.0");
  expectNpyError([&] { parseNpy(npyFile("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", four)); },
                 "Fortran-order");
  expectNpyError([&] { parseNpy(npyFile("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", four)); },
                 "big-endian");
  expectNpyError([&] { parseNpy(npyFile("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", four)); },
                 "object arrays");
  expectNpyError([&] { parseNpy(npyFile("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", four)); },
                 "unsupported dtype '<c8'");
  expectNpyError([&] { parseNpy(npyFile("{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }", four)); },
                 "unsupported dtype");
  expectNpyError([&] { parseNpy(npyFile("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", four)); },
                 "structured");
  expectNpyError([&] { parseNpy(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", four)); },
                 "truncated");
  expectNpyError([&] { parseNpy(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3 }", four)); },
                 "malformed NPY header");
  expectNpyError([&] { parseNpy(npyFile("{'descr': '<f4', 'shape': (1,), }", four)); },
                 "must give descr, fortran_order and shape");
  expectNpyError([&] { parseNpy(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", four)); },
                 "malformed NPY header");
  expectNpyError([&] { parseNpy(npyFile("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }", four)); },
                 "malformed NPY header");
  // The header length points past the end of the file.
  std::string cut = npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", four);
  expectNpyError([&] { parseNpy(cut.substr(0, 30)); }, "truncated");
  expectNpyError([&] { parseNpy(cut.substr(0, 9)); }, "truncated");
}

TEST_F(NpyTest, HugeClaimedShapeIsTruncatedNotAllocated) {
  // 2^62 floats, or a product that overflows 64 bits: rejected before any allocation.
  expectNpyError([] { parseNpy(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904,), }", "")); },
                 "truncated");
  expectNpyError([] { parseNpy(npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }", "")); },
                 "truncated");
  expectNpyError([] { parseNpy(npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999,), }", "")); },
                 "malformed");
  // A zero dimension makes an empty array even next to a huge one.
  const NpyArray empty = parseNpy(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4611686018427387904), }", ""));
  EXPECT_EQ(empty.tensor.numElements(), 0);
}

// The reader parses the header first and reads only the bytes the shape needs:
// extra bytes are an error found without reading them (a valid f32[2]
// with 3 GB of trailing bytes cost 3 GB). The big file is sparse: free to make.
TEST_F(NpyTest, TrailingBytesAreAnErrorAndNeverRead) {
  const std::string two = npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", bytesOf<float>({1, 2}));
  expectNpyError([&] { parseNpy(two + "xyz"); }, "file has 3 bytes after the data (shape [2] needs 8)");
  const std::string big = writeRaw("big.npy", two);
  fs::resize_file(big, uint64_t(3) << 30);
  const uint64_t before = hostMemoryInUse();
  expectNpyError([&] { readNpy(big); }, "file has " + std::to_string((uint64_t(3) << 30) - two.size()) + " bytes after the data");
  EXPECT_EQ(hostMemoryInUse(), before);
  const NpyArray ok = readNpy(writeRaw("ok.npy", two));
  EXPECT_EQ(ok.tensor.get(1), 2.0);
  // A header that claims to be longer than any real one is refused before it is read.
  std::string longHeader = std::string("\x93NUMPY\x02\x00", 8) + std::string("\xff\xff\xff\x7f", 4);
  expectNpyError([&] { readNpy(writeRaw("long.npy", longHeader)); }, "truncated");
  expectNpyError([&] { readNpy(dir_.string()); }, "is a directory");
  expectNpyError([&] { writeNpy(dir_.string(), ok.tensor); }, "cannot write: is a directory");
}

TEST_F(NpyTest, WriteIsAtomicAndLeavesNoTemporaryFiles) {
  const std::vector<int32_t> first{1, 2}, second{3, 4, 5};
  writeNpy(path("a.npy"), DType::I32, {2}, first.data());
  writeNpy(path("a.npy"), DType::I32, {3}, second.data());  // replaces
  EXPECT_EQ(readNpy(path("a.npy")).tensor.type.shape, (Shape{3}));
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1);
  // A directory that does not exist: an error, and nothing written.
  expectNpyError([&] { writeNpy(path("no/such/dir/b.npy"), DType::I32, {2}, first.data()); }, "cannot create");
}

}  // namespace
