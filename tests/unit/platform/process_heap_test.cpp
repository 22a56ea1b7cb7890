// platform::reserve_huge_page_heap changes malloc for the whole process and
// must run before any other thread has its own malloc arena, so its checks
// run in a fresh process: this test binary again, started with
// CUZK_HEAP_CHILD=1, which runs them before main and exits with the number
// of the first failed check (0: all passed).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "platform/process_heap.hpp"

using namespace cuzk::platform;

namespace {

// What /proc/self/smaps says about the mapping holding p: its
// "THPeligible" value (-1 when the line or the mapping is missing).
int thp_eligible(const void* p) {
  std::ifstream in("/proc/self/smaps");
  const auto a = reinterpret_cast<uintptr_t>(p);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = lo <= a && a < hi;
      continue;
    }
    if (inside && line.rfind("THPeligible:", 0) == 0) return std::atoi(line.c_str() + 12);
  }
  return -1;
}

bool thp_available() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string s;
  std::getline(in, s);
  return !s.empty() && s.find("[never]") == std::string::npos;
}

bool sanitized() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  return true;
#endif
#endif
  return false;
}

// The checks of a fresh process (CUZK_HEAP_CHILD=1: the reserve; =2: the
// same with CUZK_NO_HUGE_HEAP=1 set).
int child_checks(bool turned_off) {
  if (turned_off) {
    HugeHeap h = reserve_huge_page_heap();
    return h.applied || h.bytes != 0 ? 10 : 0;
  }
  HugeHeap h = reserve_huge_page_heap(size_t(64) << 20);
  if (!h.applied) return 1;
  if (h.begin % (size_t(2) << 20) != 0 || h.bytes < (size_t(62) << 20)) return 2;
  auto inside = [&](const void* p, size_t n) {
    auto a = reinterpret_cast<uintptr_t>(p);
    return a >= h.begin && a + n <= h.begin + h.bytes;
  };
  // A block of 4 MiB (below the 32 MiB threshold) from this thread and one
  // from another thread: both in the advised range, on huge-page-eligible
  // mappings. The first block starts at the range's start, give or take a
  // block header (no partial huge page of small pages in front of it).
  void* a = std::malloc(size_t(4) << 20);
  void* b = nullptr;
  std::thread([&] { b = std::malloc(size_t(3) << 20); }).join();
  const auto at = reinterpret_cast<uintptr_t>(a);
  if (at + 64 < h.begin || at > h.begin + 64) return 3;
  if (!inside(static_cast<char*>(a) + 64, (size_t(4) << 20) - 64) || !inside(b, size_t(3) << 20)) return 4;
  std::memset(a, 1, size_t(4) << 20);
  if (thp_eligible(a) != 1 || thp_eligible(b) != 1) return 5;
  // Freed blocks stay in the heap and are handed out again.
  std::free(a);
  void* c = std::malloc(size_t(4) << 20);
  if (c != a) return 6;
  std::free(b);
  std::free(c);
  return 0;
}

// Before main (and before gtest or anything else starts a thread).
[[maybe_unused]] const int child_hook = [] {
  const char* mode = std::getenv("CUZK_HEAP_CHILD");
  if (mode && *mode) _exit(child_checks(std::strcmp(mode, "2") == 0));
  return 0;
}();

// Runs this test binary again in the given child mode; its exit status.
int run_child(const char* mode) {
  pid_t pid = fork();
  if (pid == 0) {
    ::setenv("CUZK_HEAP_CHILD", mode, 1);
    if (std::strcmp(mode, "2") == 0) ::setenv("CUZK_NO_HUGE_HEAP", "1", 1);
    else ::unsetenv("CUZK_NO_HUGE_HEAP");
    char self[] = "/proc/self/exe";
    char* argv[] = {self, nullptr};
    execv(self, argv);
    _exit(99);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

}  // namespace

TEST(ProcessHeap, BlocksOfEveryThreadComeFromTheAdvisedHeap) {
#if !defined(__GLIBC__)
  GTEST_SKIP() << "glibc malloc only";
#endif
  if (sanitized()) GTEST_SKIP() << "the sanitizers replace malloc";
  if (!thp_available()) GTEST_SKIP() << "transparent huge pages are off on this kernel";
  EXPECT_EQ(run_child("1"), 0) << "the number of the failed check in child_checks";
}

TEST(ProcessHeap, EnvironmentTurnsItOff) { EXPECT_EQ(run_child("2"), 0); }
