#include "platform/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace cuzk::platform {

MappedFile::MappedFile(const std::string& path, MapOptions o) : path_(path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    throw std::runtime_error("cannot stat " + path + ": " + std::strerror(e));
  }
  size_ = size_t(st.st_size);
  if (size_ > 0) {
    // Populating after the advice: MAP_POPULATE would fault the pages in
    // before madvise could ask for huge ones.
    const bool populate_now = o.populate && !o.huge_pages;
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED | (populate_now ? MAP_POPULATE : 0), fd, 0);
    if (p == MAP_FAILED) {
      int e = errno;
      ::close(fd);
      throw std::runtime_error("cannot map " + path + ": " + std::strerror(e));
    }
#if defined(MADV_HUGEPAGE)
    if (o.huge_pages) ::madvise(p, size_, MADV_HUGEPAGE);
#endif
    ::madvise(p, size_, MADV_SEQUENTIAL);
#if defined(MADV_POPULATE_READ)
    if (o.populate && !populate_now) ::madvise(p, size_, MADV_POPULATE_READ);
#endif
    data_ = static_cast<const uint8_t*>(p);
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

}  // namespace cuzk::platform
