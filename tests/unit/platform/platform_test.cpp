// The platform layer: CPU feature detection against the kernel's own view
// (/proc/cpuinfo flags), the kernel switches and their environment
// variables, memory-mapped files and uninitialised aligned arrays.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "platform/cpu_features.hpp"
#include "platform/hex.hpp"
#include "platform/large_vector.hpp"
#include "platform/mapped_file.hpp"
#include "platform/raw_array.hpp"

using namespace cuzk::platform;
namespace fs = std::filesystem;

namespace {

// The flags Linux reports for the first CPU.
std::set<std::string> cpuinfo_flags() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    std::set<std::string> out;
    for (std::string w; words >> w;) out.insert(w);
    return out;
  }
  return {};
}

}  // namespace

TEST(CpuFeatures, AgreeWithProcCpuinfo) {
  auto flags = cpuinfo_flags();
  if (flags.empty()) GTEST_SKIP() << "no /proc/cpuinfo flags";
  const CpuFeatures& f = cpu_features();
  EXPECT_EQ(f.bmi2, flags.count("bmi2") == 1);
  EXPECT_EQ(f.adx, flags.count("adx") == 1);
  EXPECT_EQ(f.avx2, flags.count("avx2") == 1);
  EXPECT_EQ(f.sha, flags.count("sha_ni") == 1);
  // IFMA needs the whole AVX-512 set the kernels use (the OS's ZMM state is
  // implied when the kernel lists the flags).
  const bool ifma = flags.count("avx512f") && flags.count("avx512vl") && flags.count("avx512bw") &&
                    flags.count("avx512dq") && flags.count("avx512ifma") && flags.count("avx512_vbmi2");
  EXPECT_EQ(f.ifma, ifma);
}

TEST(CpuFeatures, SwitchesFollowTheCpuAndTheEnvironment) {
  const CpuFeatures& f = cpu_features();
  const bool env_no_asm = env_flag("CUZK_NO_ASM"), env_no_ifma = env_flag("CUZK_NO_IFMA");
  if (!env_no_asm) {
    EXPECT_EQ(use_adx(), f.bmi2 && f.adx);
  }
  if (!env_no_asm && !env_no_ifma) {
    EXPECT_EQ(use_ifma(), f.ifma);
  }
  set_use_adx(false);
  EXPECT_FALSE(use_adx());
  set_use_adx(true);
  EXPECT_EQ(use_adx(), f.bmi2 && f.adx);  // ignored where the CPU lacks it
  set_use_ifma(false);
  EXPECT_FALSE(use_ifma());
  set_use_ifma(true);
  EXPECT_EQ(use_ifma(), f.ifma);
  ::setenv("CUZK_TEST_FLAG", "0", 1);
  EXPECT_FALSE(env_flag("CUZK_TEST_FLAG"));
  ::setenv("CUZK_TEST_FLAG", "", 1);
  EXPECT_FALSE(env_flag("CUZK_TEST_FLAG"));
  ::setenv("CUZK_TEST_FLAG", "1", 1);
  EXPECT_TRUE(env_flag("CUZK_TEST_FLAG"));
  ::unsetenv("CUZK_TEST_FLAG");
  EXPECT_FALSE(env_flag("CUZK_TEST_FLAG"));
}

TEST(MappedFile, MapsContentsAndNamesThePathOnErrors) {
  const fs::path p = fs::temp_directory_path() / ("cuzk-map-" + std::to_string(::getpid()));
  std::string text(100000, '\0');
  for (size_t i = 0; i < text.size(); i++) text[i] = char(i * 7 + 3);
  std::ofstream(p, std::ios::binary) << text;
  for (const MapOptions o : {MapOptions{}, MapOptions{.populate = true}, MapOptions{.huge_pages = true},
                             MapOptions{.populate = true, .huge_pages = true}}) {
    MappedFile m(p.string(), o);
    ASSERT_TRUE(m.is_open());
    ASSERT_EQ(m.size(), text.size());
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(m.bytes().data()), m.size()), text);
    MappedFile moved = std::move(m);
    EXPECT_EQ(moved.size(), text.size());
    EXPECT_EQ(moved.path(), p.string());
  }
  std::ofstream(p, std::ios::binary | std::ios::trunc);  // empty files map to nothing, still open
  MappedFile empty(p.string());
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_TRUE(empty.is_open());
  fs::remove(p);
  try {
    MappedFile missing(p.string());
    ADD_FAILURE() << "a missing file was mapped";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
  }
  EXPECT_FALSE(MappedFile().is_open());
}

TEST(RawArray, SizesAlignmentAndMoves) {
  RawArray<uint64_t> small(10);
  EXPECT_EQ(small.size(), 10u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small.data()) % 64, 0u);
  for (size_t i = 0; i < small.size(); i++) small[i] = i * i;
  uint64_t sum = 0;
  for (uint64_t v : small) sum += v;
  EXPECT_EQ(sum, 285u);
  RawArray<uint64_t> big(1 << 20);  // 8 MiB: 2 MiB aligned for huge pages
  EXPECT_EQ(reinterpret_cast<uintptr_t>(big.data()) % (2 << 20), 0u);
  big[big.size() - 1] = 42;
  RawArray<uint64_t> moved = std::move(big);
  EXPECT_EQ(moved[moved.size() - 1], 42u);
  EXPECT_EQ(moved.span().size(), size_t(1) << 20);
  moved.reset(0);
  EXPECT_TRUE(moved.empty());
  EXPECT_EQ(moved.data(), nullptr);
}

TEST(RawArray, LargeBuffersAreRecycledWhenRecyclingIsOn) {
  drop_recycled_blocks();
  const size_t before = recycled_bytes();
  const size_t n = (size_t(16) << 20) / sizeof(uint64_t);  // 16 MiB
  {
    ScopedRecycleLimit off(0);
    RawArray<uint64_t> a(n);
    a[0] = 1;
  }
  EXPECT_EQ(recycled_bytes(), before);  // recycling off: freed
  ScopedRecycleLimit recycling(size_t(1) << 30);
  const uint64_t* p = nullptr;
  {
    RawArray<uint64_t> a(n);
    p = a.data();
    a[n - 1] = 42;
  }
  EXPECT_EQ(recycled_bytes(), before + n * sizeof(uint64_t));
  RawArray<uint64_t> tiny(n * 3 / 8);  // 6 MiB: more than twice too large for it, not taken
  EXPECT_NE(tiny.data(), p);
  // Another element type and a slightly smaller size get the block, as it was.
  RawArray<uint32_t> b(2 * n - 100);
  EXPECT_EQ(reinterpret_cast<const void*>(b.data()), reinterpret_cast<const void*>(p));
  EXPECT_EQ(reinterpret_cast<const uint64_t*>(b.data())[n - 1], 42u);
  EXPECT_EQ(recycled_bytes(), before);
  b.reset(0);  // the whole block goes back, not the array's part of it
  EXPECT_EQ(recycled_bytes(), before + n * sizeof(uint64_t));
  RawArray<uint64_t> small(100);  // small arrays never enter the pool
  small.reset(0);
  EXPECT_EQ(recycled_bytes(), before + n * sizeof(uint64_t));
  // Mid-sized ones do (an MSM's buckets, 1.5 MB a window) and come back.
  const size_t mid = (size_t(1) << 20) / sizeof(uint64_t);
  const uint64_t* q = nullptr;
  {
    RawArray<uint64_t> m(mid);
    q = m.data();
  }
  EXPECT_EQ(recycled_bytes(), before + (n + mid) * sizeof(uint64_t));
  RawArray<uint64_t> m2(mid - 8);
  EXPECT_EQ(m2.data(), q);
  m2.reset(0);
  drop_recycled_blocks();
  EXPECT_EQ(recycled_bytes(), before);
}

// A type of its own, so other tests' buffers are not in its pool.
struct RecycleProbe {
  uint64_t x[4];
};

TEST(LargeVector, RecycledBuffersAreReusedWithinTheirLimits) {
  ScopedRecycleLimit recycling(size_t(1) << 30);
  drop_recycled<RecycleProbe>();
  const size_t n = (size_t(16) << 20) / sizeof(RecycleProbe);  // 16 MiB
  std::vector<RecycleProbe> v;
  reserve_large(v, n);
  v.resize(n, RecycleProbe{{7, 7, 7, 7}});
  const RecycleProbe* p = v.data();
  const size_t before = recycled_bytes();
  recycle_large(v);
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.capacity(), 0u);
  EXPECT_EQ(recycled_bytes(), before + n * sizeof(RecycleProbe));

  // Too large a buffer for the request (more than twice): not taken.
  std::vector<RecycleProbe> small;
  reserve_large(small, n / 3);
  EXPECT_NE(small.data(), p);
  // The kept buffer comes back, empty, and keeps what was in the vector.
  std::vector<RecycleProbe> w = {RecycleProbe{{1, 2, 3, 4}}};
  reserve_large(w, n - 10);
  EXPECT_EQ(w.data(), p);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].x[3], 4u);
  EXPECT_EQ(recycled_bytes(), before);

  // Small buffers are not kept; with the limit at zero, nothing is.
  std::vector<RecycleProbe> tiny(16);
  recycle_large(tiny);
  EXPECT_EQ(recycled_bytes(), before);
  {
    ScopedRecycleLimit off(0);
    recycle_large(w);
    EXPECT_EQ(recycled_bytes(), before);
  }

  // The smallest buffer that fits is the one taken.
  std::vector<RecycleProbe> big, bigger;
  reserve_large(big, n);
  reserve_large(bigger, n + n / 2);
  const RecycleProbe* pb = big.data();
  recycle_large(bigger);
  recycle_large(big);
  std::vector<RecycleProbe> again;
  reserve_large(again, n);
  EXPECT_EQ(again.data(), pb);
  drop_recycled<RecycleProbe>();
  EXPECT_EQ(recycled_bytes(), before);
}

// size_large: a recycled buffer keeps what it held (the caller writes every
// element); a new one is zero.
TEST(LargeVector, SizeLargeKeepsRecycledContents) {
  ScopedRecycleLimit recycling(size_t(1) << 30);
  drop_recycled<RecycleProbe>();
  const size_t n = (size_t(8) << 20) / sizeof(RecycleProbe);
  std::vector<RecycleProbe> fresh;
  size_large(fresh, n / 2, n);
  EXPECT_EQ(fresh.size(), n / 2);
  EXPECT_GE(fresh.capacity(), n);
  EXPECT_EQ(fresh[n / 2 - 1].x[0], 0u);
  std::fill(fresh.begin(), fresh.end(), RecycleProbe{{9, 9, 9, 9}});
  fresh.resize(n, RecycleProbe{{8, 8, 8, 8}});
  const RecycleProbe* p = fresh.data();
  recycle_large(fresh);
  std::vector<RecycleProbe> again;
  size_large(again, n / 4, n);
  ASSERT_EQ(again.data(), p);
  EXPECT_EQ(again.size(), n / 4);
  EXPECT_EQ(again[n / 4 - 1].x[3], 9u);  // not zeroed
  drop_recycled<RecycleProbe>();
}

TEST(Hex, RoundTripsAndRejects) {
  std::vector<uint8_t> bytes = {0x00, 0x7f, 0x80, 0xff, 0x12};
  EXPECT_EQ(to_hex(std::span<const uint8_t>(bytes)), "007f80ff12");
  EXPECT_EQ(*from_hex("007F80ff12"), bytes);
  EXPECT_FALSE(from_hex("abc"));
  EXPECT_FALSE(from_hex("zz"));
}
