// The emulated build's side of test_cuda_both (cuzk::cuda::emu).
#include <vector>

#include "cuda/device.hpp"
#include "cuda/ntt.hpp"

static_assert(CUZK_SIMT == 1);

namespace cuzk::cuda::test {
int emu_device_count() { return cuda::device_count(); }
std::string emu_device_name() { return cuda::device_info(0).name; }
void emu_ntt_forward(std::vector<ff::Fr>& v) { cuda::ntt_forward(v); }
}  // namespace cuzk::cuda::test
