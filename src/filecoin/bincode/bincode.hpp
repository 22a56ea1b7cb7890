#pragma once
// bincode 1.3 with its default options, as rust-fil-proofs serializes the
// vanilla proofs Curio sends for PoSt and SnapDeals (docs/FILECOIN.md §7.12):
// little-endian, u64/usize as 8 bytes, Vec<T> = u64 length then the items,
// enum = u32 variant index then the fields, 32-byte domains raw.
// A reader that names the field and byte offset of whatever is wrong, and a
// writer that produces the same bytes, so the two round-trip exactly.
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "filecoin/common/merkle_proof.hpp"

namespace cuzk::filecoin {

class BincodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class BincodeReader {
 public:
  // `what` names the buffer in errors ("vanilla_proofs[3]").
  BincodeReader(std::span<const uint8_t> bytes, std::string what) : b_(bytes), what_(std::move(what)) {}

  uint32_t u32(const char* field);
  uint64_t u64(const char* field);
  Domain domain(const char* field);
  // A Vec length, checked against the bytes left (each item at least
  // `min_item_bytes`), so a corrupt length cannot ask for gigabytes.
  uint64_t len(const char* field, size_t min_item_bytes);
  // A Vec<u8> (or String): its length, checked, then the bytes.
  std::string bytes(const char* field);
  MerkleProof merkle_proof(const char* field);
  void expect_end();

  size_t offset() const { return pos_; }
  [[noreturn]] void fail(const std::string& field, const std::string& msg) const;

 private:
  void need(size_t n, const char* field) const;
  std::vector<MerklePathElement> path(const char* field);
  std::span<const uint8_t> b_;
  std::string what_;
  size_t pos_ = 0;
};

class BincodeWriter {
 public:
  void u32(uint32_t v);
  void u64(uint64_t v);
  void domain(const Domain& d);
  void merkle_proof(const MerkleProof& p);
  void bytes(std::string_view b);  // a Vec<u8>: the length, then the bytes
  void raw(std::string_view b);    // bytes as they are (a header of the caller's)
  std::string take() { return std::move(out_); }

 private:
  void path(const std::vector<MerklePathElement>& p);
  std::string out_;
};

}  // namespace cuzk::filecoin
