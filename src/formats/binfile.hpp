#pragma once
// The iden3 "binfile" container shared by circom's .r1cs/.wtns and snarkjs's
// .zkey: a 4-byte magic, u32 version, u32 section count, then sections of
// (u32 type, u64 size, payload), all little-endian.
//
// Every read is bounds-checked; failures throw FormatError naming the source
// and the absolute byte offset.
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "arith/limbs.hpp"

namespace cuzk::formats {

struct FormatError : std::runtime_error {
  // Binary files: "SOURCE: offset N: WHAT".
  FormatError(std::string_view source, size_t offset, const std::string& what)
      : std::runtime_error(std::string(source) + ": offset " + std::to_string(offset) + ": " + what) {}
  // Text files (JSON): "SOURCE: WHERE: WHAT".
  FormatError(std::string_view source, std::string_view where, const std::string& what)
      : std::runtime_error(std::string(source) + ": " + std::string(where) + ": " + what) {}
};

// A cursor over a byte span; `base` is the absolute offset of bytes[0].
class Cursor {
 public:
  Cursor(std::span<const uint8_t> bytes, std::string_view source, size_t base = 0)
      : b_(bytes), src_(source), base_(base) {}

  size_t offset() const { return base_ + pos_; }
  size_t remaining() const { return b_.size() - pos_; }
  bool at_end() const { return pos_ == b_.size(); }
  std::string_view source() const { return src_; }

  [[noreturn]] void fail(const std::string& what) const { throw FormatError(src_, offset(), what); }
  [[noreturn]] void fail_at(size_t abs_offset, const std::string& what) const {
    throw FormatError(src_, abs_offset, what);
  }

  std::span<const uint8_t> take(size_t n, std::string_view what) {
    if (n > remaining())
      fail("truncated: " + std::string(what) + " needs " + std::to_string(n) + " bytes, " +
           std::to_string(remaining()) + " left");
    auto s = b_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  uint32_t u32(std::string_view what) {
    auto s = take(4, what);
    return uint32_t(s[0]) | uint32_t(s[1]) << 8 | uint32_t(s[2]) << 16 | uint32_t(s[3]) << 24;
  }
  uint64_t u64(std::string_view what) {
    uint64_t lo = u32(what), hi = u32(what);
    return lo | hi << 32;
  }
  void skip(size_t n, std::string_view what) { take(n, what); }

 private:
  std::span<const uint8_t> b_;
  std::string_view src_;
  size_t base_;
  size_t pos_ = 0;
};

template <size_t N>
arith::Limbs<N> load_le(std::span<const uint8_t> s) {
  arith::Limbs<N> r{};
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(r.data(), s.data(), s.size() < N * 8 ? s.size() : N * 8);  // hot in the .zkey reader
  } else {
    for (size_t i = 0; i < N * 8 && i < s.size(); i++) r[i / 8] |= uint64_t(s[i]) << (8 * (i % 8));
  }
  return r;
}

struct Section {
  uint32_t type;
  size_t offset;  // absolute offset of the payload
  uint64_t size;
};

struct BinFile {
  uint32_t version = 0;
  std::vector<Section> sections;
  // The unique section of this type; throws (naming `what`) if it is missing
  // or repeated.
  const Section& unique(std::span<const uint8_t> bytes, std::string_view source, uint32_t type,
                        std::string_view what) const;
  const Section* find(uint32_t type) const;
};

// Parses the container; checks magic, version range and that every section
// lies inside the file.
BinFile parse_binfile(std::span<const uint8_t> bytes, std::string_view source, const char magic[4],
                      uint32_t min_version, uint32_t max_version);

// A cursor over one section's payload.
inline Cursor section_cursor(std::span<const uint8_t> bytes, std::string_view source, const Section& s) {
  return Cursor(bytes.subspan(s.offset, s.size), source, s.offset);
}

// Reads a whole file (throws FormatError on I/O failure).
std::vector<uint8_t> read_binary_file(const std::string& path);
void write_binary_file(const std::string& path, std::span<const uint8_t> bytes);

}  // namespace cuzk::formats
