// The nvcc build's side of test_cuda_both (cuzk::cuda::gpu), compiled
// without CUZK_SIMT although the target links the emulated layer too.
#undef CUZK_SIMT
#include "cuda/device.hpp"

namespace cuzk::cuda::test {
int gpu_device_count() { return cuda::device_count(); }
std::string gpu_runtime_version() { return cuda::runtime_version(); }
}  // namespace cuzk::cuda::test
