#pragma once
// Read-only memory-mapped file (RAII). Large parameter files are mapped, not
// read, so the page cache holds them and several processes share them.
#include <cstdint>
#include <span>
#include <string>

namespace cuzk::platform {

struct MapOptions {
  // Every page mapped up front (MAP_POPULATE: one batched walk instead of a
  // fault per page), for files that are read whole right away.
  bool populate = false;
  // Huge pages advised before the first access (MADV_HUGEPAGE), for large
  // files read again and again (a pre-compiled circuit: every synthesis
  // streams its 7 GB of arrays). Linux then fills the page cache from disk
  // in 2 MiB folios and maps them whole, one TLB entry per 2 MiB instead of
  // per 4 KiB; pages already cached in smaller folios stay as they are.
  bool huge_pages = false;
};

class MappedFile {
 public:
  MappedFile() = default;
  // Throws std::runtime_error naming the path on failure.
  explicit MappedFile(const std::string& path, MapOptions o = {});
  MappedFile(MappedFile&& o) noexcept { swap(o); }
  MappedFile& operator=(MappedFile&& o) noexcept {
    MappedFile tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  bool is_open() const { return data_ != nullptr || (size_ == 0 && !path_.empty()); }

 private:
  void swap(MappedFile& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(path_, o.path_);
  }
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  std::string path_;
};

}  // namespace cuzk::platform
