// The CUDA backend (cuda/backend.hpp) against the device backend
// conformance suite: every kernel of the device phase (H on the coset,
// scalar conversion and compaction, G1/G2 MSMs with densities and several
// terms) against the CPU references, bit for bit. Built into test_cuda (a
// GPU; skipped without one) and test_cuda_emu (the SIMT emulator, in CI);
// the emulated case also runs with parameters that do not fit the device
// memory (streamed chunk by chunk).
#include "unit/device/backend_conformance.hpp"

#include "cuda/backend.hpp"
#include "cuda/device.hpp"

namespace cuzk::device::test {
namespace {

std::unique_ptr<Backend> make(const cuda::BackendOptions& o) {
#if defined(CUZK_SIMT)
  return cuda::make_emulated_backend(0, o);
#else
  return cuda::make_gpu_backend(0, o);
#endif
}

std::unique_ptr<Backend> resident() { return make({}); }
std::unique_ptr<Backend> g2_on_host() {
  cuda::BackendOptions o;
  o.g2_on_host = true;
  return make(o);
}
// A working reserve larger than the device: no parameters stay resident,
// every MSM streams its points from host memory.
std::unique_ptr<Backend> streamed() {
  cuda::BackendOptions o;
  o.working_reserve_bytes = uint64_t(1) << 60;
  return make(o);
}

std::string no_device() { return cuda::device_count() == 0 ? "no CUDA device" : ""; }

INSTANTIATE_TEST_SUITE_P(Cuda, BackendConformance,
                         testing::Values(BackendCase{"resident", resident, 2048, no_device},
                                         BackendCase{"g2_on_host", g2_on_host, 64, no_device},
                                         BackendCase{"streamed", streamed, 1024, no_device}),
                         [](const testing::TestParamInfo<BackendCase>& i) { return i.param.name; });

}  // namespace
}  // namespace cuzk::device::test
