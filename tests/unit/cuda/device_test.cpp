// Device discovery: must answer (0) without a driver or GPU, never throw.
#include <gtest/gtest.h>

#include "cuda/device.hpp"

using namespace cuzk;

TEST(CudaDeviceHost, CountNeverThrows) {
  int n = -1;
  EXPECT_NO_THROW(n = cuda::device_count());
  EXPECT_GE(n, 0);
  EXPECT_EQ(cuda::device_count(), n);  // a failed first probe leaves no error behind
  EXPECT_EQ(cuda::devices().size(), size_t(n));
  EXPECT_FALSE(cuda::runtime_version().empty());
}

TEST(CudaDevice, InfoAndMemory) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  for (const auto& d : cuda::devices()) {
    EXPECT_FALSE(d.name.empty());
    EXPECT_GT(d.total_bytes, 0u);
    EXPECT_GT(d.multiprocessors, 0);
    const auto m = cuda::mem_info(d.ordinal);
    EXPECT_EQ(m.total_bytes, d.total_bytes);
    EXPECT_LE(m.free_bytes, m.total_bytes);
    std::printf(
        "{\"gpu\":%d,\"name\":\"%s\",\"sm\":\"%d.%d\",\"sms\":%d,\"total_gib\":%.1f,\"driver\":\"%s\"}\n",
        d.ordinal, d.name.c_str(), d.sm_major, d.sm_minor, d.multiprocessors,
        double(d.total_bytes) / double(1ull << 30), cuda::driver_version().c_str());
  }
}

TEST(CudaDevice, DeviceBufferRoundTrip) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  std::vector<uint8_t> in(1 << 20), out(in.size());
  for (size_t i = 0; i < in.size(); i++) in[i] = uint8_t(i * 7 + 3);
  cuda::DeviceBuffer b(in.size());
  b.upload(in.data(), in.size());
  b.download(out.data(), out.size());
  EXPECT_EQ(in, out);
  EXPECT_THROW(b.upload(in.data(), in.size() + 1), cuda::Error);
}
