#pragma once
// The SDR parent cache (docs/FILECOIN.md §7.7): for every node its 14 parents
// (6 DRG, then 8 expander) as u32, in memory exactly the bytes of
// rust-fil-proofs' cache file (u32 little-endian, node-major, no header).
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "filecoin/hash/sha256.hpp"
#include "filecoin/sdr/parents.hpp"

namespace cuzk::filecoin {

class ParentCache {
 public:
  // Computes every row of the graph with oneTBB (threads = 0: TBB default).
  static ParentCache build(const SdrGraph& graph, size_t threads = 0);
  // Reads a cache file written by write() or by rust-fil-proofs. Throws
  // std::runtime_error when it cannot be read or its size is not nodes*56.
  static ParentCache read(const std::filesystem::path& path, uint64_t nodes);

  // Writes the raw table; throws std::runtime_error on I/O failure.
  void write(const std::filesystem::path& path) const;

  uint64_t nodes() const { return table_.size() / kParentCount; }
  // The 14 parents of `node` (no bounds check; node < nodes()).
  const uint32_t* parents(uint64_t node) const { return table_.data() + node * kParentCount; }
  std::span<const uint32_t> table() const { return table_; }

  // SHA-256 of the table's bytes: the "digest" of parent_cache.json.
  Digest32 digest() const;

 private:
  std::vector<uint32_t> table_;
};

}  // namespace cuzk::filecoin
