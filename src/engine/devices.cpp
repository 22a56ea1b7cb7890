#include "engine/devices.hpp"

#include <unistd.h>

#include <stdexcept>
#include <string>
#include <thread>

#include "device/cpu_backend.hpp"
#include "engine/memory_budget.hpp"
#if defined(CUZK_HAVE_CUDA) || defined(CUZK_HAVE_CUDA_EMU)
#include "cuda/backend.hpp"
#endif

namespace cuzk::engine {

unsigned resolve_threads(unsigned t) {
  unsigned hw = std::thread::hardware_concurrency();
  return t ? t : (hw ? hw : 1);
}

Device::Device(uint32_t ordinal, std::unique_ptr<device::Backend> backend, unsigned host_threads)
    : ordinal_(ordinal), backend_(std::move(backend)), arena_(int(resolve_threads(host_threads))) {}

Device::~Device() = default;

uint64_t Device::memory_total_bytes() const {
  return backend_->host_memory() ? usable_memory_bytes() : backend_->memory_total_bytes();
}

uint64_t Device::memory_free_bytes() const {
  if (!backend_->host_memory()) return backend_->memory_free_bytes();
  long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

std::string auto_backend() {
#if defined(CUZK_HAVE_CUDA)
  if (cuda::gpu_device_count() > 0) return "cuda";
#endif
  return "cpu";
}

namespace {

std::vector<uint32_t> ordinals(const EngineConfig& cfg, uint32_t available) {
  if (!cfg.devices.empty()) {
    for (uint32_t o : cfg.devices)
      if (o >= available)
        throw std::runtime_error("gpus.devices names device " + std::to_string(o) + ", but only " +
                                 std::to_string(available) + " " + cfg.device_backend + " device(s) exist");
    return cfg.devices;
  }
  std::vector<uint32_t> all;
  for (uint32_t o = 0; o < available; o++) all.push_back(o);
  return all;
}

}  // namespace

std::vector<std::unique_ptr<Device>> make_devices(const EngineConfig& cfg) {
  const std::string kind = cfg.device_backend == "auto" ? auto_backend() : cfg.device_backend;
  std::vector<std::unique_ptr<Device>> out;
  if (kind == "cpu") {
    // Each entry of gpus.devices is one CPU device with its own arena.
    std::vector<uint32_t> ords = cfg.devices;
    if (ords.empty()) ords.push_back(0);
    const unsigned t = resolve_threads(cfg.gpu_threads);
    for (uint32_t o : ords) {
      device::CpuBackend::Options opt;
      opt.name = "cpu" + std::to_string(o) + " (" + std::to_string(t) + " threads)";
      out.push_back(std::make_unique<Device>(o, std::make_unique<device::CpuBackend>(opt), t));
    }
    return out;
  }
#if defined(CUZK_HAVE_CUDA) || defined(CUZK_HAVE_CUDA_EMU)
  cuda::BackendOptions opt;
  opt.host_threads = cfg.gpu_threads;
  opt.g2_on_host = cfg.g2_on_host;
#endif
  if (kind == "cuda") {
#if defined(CUZK_HAVE_CUDA)
    const int n = cuda::gpu_device_count();
    if (n <= 0)
      throw std::runtime_error("gpus.backend = \"cuda\": no CUDA device found (driver, CUDA_VISIBLE_DEVICES)");
    for (uint32_t o : ordinals(cfg, uint32_t(n)))
      out.push_back(std::make_unique<Device>(o, cuda::make_gpu_backend(int(o), opt), cfg.gpu_threads));
    return out;
#else
    throw std::runtime_error(
        "gpus.backend = \"cuda\": this build has no CUDA backend (nvcc was not found; CUZK_CUDA=ON requires it)");
#endif
  }
  if (kind == "cuda-emulated") {
#if defined(CUZK_HAVE_CUDA_EMU)
    for (uint32_t o : ordinals(cfg, uint32_t(cuda::emulated_device_count())))
      out.push_back(std::make_unique<Device>(o, cuda::make_emulated_backend(int(o), opt), cfg.gpu_threads));
    return out;
#else
    throw std::runtime_error("gpus.backend = \"cuda-emulated\": this build has no SIMT emulator (CUZK_CUDA_EMU=OFF)");
#endif
  }
  (void)ordinals;
  throw std::runtime_error("gpus.backend: unknown backend \"" + kind + "\"");
}

}  // namespace cuzk::engine
