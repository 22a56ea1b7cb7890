#pragma once
// The CUDA device backend (device/backend.hpp): the heavy half of Groth16 on
// a GPU, or on the SIMT emulator (the same kernels on host threads, for CI
// and for `gpus.backend = "cuda-emulated"`).
//
//   upload        parameter points into device memory (resident: the HOT
//                 tier), or, when they do not fit beside the working
//                 reserve, kept in host memory and streamed chunk by chunk
//                 by each MSM (cuda/msm.hpp);
//   load_scalars  the witness copied once per proof and converted out of
//                 Montgomery form on the device; L, A and B read it there;
//   select        density-filtered scalars compacted on the device;
//   compute_h     the QAP step on the device (cuda/h_step.hpp), h left there
//                 for its MSM;
//   msm           Pippenger on the device (cuda/msm.hpp), or for G2 on host
//                 threads beside it when BackendOptions::g2_on_host.
//
// A plain C++ header: the engine includes it without CUDA's headers, and
// both builds (nvcc: make_gpu_backend, the emulator: make_emulated_backend)
// can be linked into one binary.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "device/backend.hpp"

namespace cuzk::cuda {

struct BackendOptions {
  // Threads of the host work the backend keeps on the CPU (the G2 MSM with
  // g2_on_host); 0: the calling arena's.
  unsigned host_threads = 0;
  // B in G2 on CPU threads instead of the device (whichever measures faster
  // on a given machine; the default keeps everything on the device).
  bool g2_on_host = false;
  // Device memory left free when deciding whether parameters stay resident
  // (the working set of a partition: a, b, c, the witness, MSM scratch);
  // 0: a quarter of the device's memory.
  uint64_t working_reserve_bytes = 0;
};

// CUDA GPUs (after CUDA_VISIBLE_DEVICES); 0 without a driver or a GPU.
// Defined by the nvcc build (CUZK_HAVE_CUDA).
int gpu_device_count() noexcept;
std::unique_ptr<device::Backend> make_gpu_backend(int ordinal, const BackendOptions& options = {});

// Emulated devices (the SIMT emulator: src/simt/; CUZK_SIMT_DEVICES, 1 by
// default). Defined by the emulator build (CUZK_HAVE_CUDA_EMU).
int emulated_device_count() noexcept;
std::unique_ptr<device::Backend> make_emulated_backend(int ordinal, const BackendOptions& options = {});

}  // namespace cuzk::cuda
