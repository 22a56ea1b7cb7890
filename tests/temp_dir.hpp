#pragma once
// A fresh directory under /tmp for one test, removed with everything in it
// when the object goes out of scope.
#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace cuzk::test {

struct TempDir {
  std::filesystem::path path;
  // `prefix` names the directory: /tmp/<prefix>-XXXXXX.
  explicit TempDir(const std::string& prefix = "cuzk-test") {
    std::string tmpl = "/tmp/" + prefix + "-XXXXXX";
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed for " + tmpl);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

}  // namespace cuzk::test
