#pragma once
// An exclusive lock on `<path>.lock`, held for the object's lifetime: tests
// that build a shared cache entry (development parameters, a PostgreSQL
// template cluster) under `ctest -j` make it once, the others wait and then
// find it made.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace cuzk_test {

class CacheLock {
 public:
  explicit CacheLock(const std::filesystem::path& path) {
    std::filesystem::create_directories(path.parent_path());
    const std::string lock_path = path.string() + ".lock";
    fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::runtime_error("cannot open " + lock_path);
    ::flock(fd_, LOCK_EX);
  }
  ~CacheLock() { ::close(fd_); }  // closing releases the lock
  CacheLock(const CacheLock&) = delete;
  CacheLock& operator=(const CacheLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace cuzk_test
