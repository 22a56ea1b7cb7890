#include "filecoin/sdr/parent_cache.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <bit>
#include <fstream>
#include <stdexcept>

namespace cuzk::filecoin {

static_assert(std::endian::native == std::endian::little, "the cache file is the in-memory u32 table");

ParentCache ParentCache::build(const SdrGraph& graph, size_t threads) {
  ParentCache c;
  const uint64_t n = graph.nodes();
  c.table_.resize(n * kParentCount);
  uint32_t* t = c.table_.data();
  auto body = [&] {
    tbb::parallel_for(tbb::blocked_range<uint64_t>(0, n, 1024), [&](const tbb::blocked_range<uint64_t>& r) {
      for (uint64_t node = r.begin(); node < r.end(); node++) graph.parents(node, t + node * kParentCount);
    });
  };
  if (threads) {
    tbb::task_arena arena(static_cast<int>(threads));
    arena.execute(body);
  } else {
    body();
  }
  return c;
}

ParentCache ParentCache::read(const std::filesystem::path& path, uint64_t nodes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::runtime_error("parent cache: cannot open " + path.string());
  const auto size = uint64_t(in.tellg());
  const uint64_t want = nodes * kParentCount * sizeof(uint32_t);
  if (size != want)
    throw std::runtime_error("parent cache: " + path.string() + " has " + std::to_string(size) +
                             " bytes, expected " + std::to_string(want) + " for " + std::to_string(nodes) +
                             " nodes");
  ParentCache c;
  c.table_.resize(nodes * kParentCount);
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(c.table_.data()), std::streamsize(want)))
    throw std::runtime_error("parent cache: read of " + path.string() + " failed");
  return c;
}

void ParentCache::write(const std::filesystem::path& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("parent cache: cannot create " + path.string());
  out.write(reinterpret_cast<const char*>(table_.data()), std::streamsize(table_.size() * sizeof(uint32_t)));
  out.close();
  if (!out) throw std::runtime_error("parent cache: write of " + path.string() + " failed");
}

Digest32 ParentCache::digest() const {
  return sha256({reinterpret_cast<const uint8_t*>(table_.data()), table_.size() * sizeof(uint32_t)});
}

}  // namespace cuzk::filecoin
