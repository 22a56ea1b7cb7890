#pragma once
// The byte layout of .pce files (documented in r1cs/pce_file.hpp), shared by
// the in-memory writer, the reader and the streaming extractor.
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "r1cs/pce.hpp"

namespace cuzk::r1cs::pce_format {

inline constexpr char kMagic[8] = {'C', 'U', 'Z', 'K', 'P', 'C', 'E', '\n'};
inline constexpr uint32_t kVersion = 2;
inline constexpr uint64_t kFrBytes = 32;
inline constexpr uint64_t kTrailerBytes = 32;  // SHA-256 of every byte before it
static_assert(std::endian::native == std::endian::little, ".pce files are written in host order");

// Bytes before the first matrix: magic, version, 0, digest, counts, part marks.
inline uint64_t header_bytes(uint64_t parts) { return 8 + 4 + 4 + 32 + 3 * 8 + 8 + 24 * parts; }
// One matrix: nnz, table length, row offsets, columns, coefficient indices, table.
inline uint64_t matrix_bytes(uint64_t rows, uint64_t nnz, uint64_t table_len) {
  return 16 + 4 * (rows + 1) + 8 * nnz + kFrBytes * table_len;
}

class Bytes {
 public:
  void raw(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  void u32(uint32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
  const std::vector<uint8_t>& data() const { return out_; }

 private:
  std::vector<uint8_t> out_;
};

template <class Digest>
void put_header(Bytes& b, const Digest& digest, uint64_t num_inputs, uint64_t num_aux, uint64_t rows,
                std::span<const SynthesisCounts> parts) {
  b.raw(kMagic, sizeof kMagic);
  b.u32(kVersion);
  b.u32(0);
  b.raw(digest.data(), digest.size());
  b.u64(num_inputs);
  b.u64(num_aux);
  b.u64(rows);
  b.u64(parts.size());
  for (const SynthesisCounts& c : parts) {
    b.u64(c.aux);
    b.u64(c.inputs);
    b.u64(c.constraints);
  }
}

inline void put_table(Bytes& b, std::span<const Fr> table) {
  for (const Fr& x : table) {
    uint8_t e[kFrBytes];
    x.to_bytes_le(std::span<uint8_t, kFrBytes>(e));
    b.raw(e, kFrBytes);
  }
}

}  // namespace cuzk::r1cs::pce_format
