#pragma once
// The engine's devices from its configuration (gpus.backend, gpus.devices,
// gpus.gpu_threads): CPU devices, CUDA GPUs, or the emulated CUDA device.
#include <memory>
#include <vector>

#include "engine/backend.hpp"
#include "engine/config.hpp"

namespace cuzk::engine {

// `threads` = 0 means every CPU (std::thread::hardware_concurrency).
unsigned resolve_threads(unsigned threads);

// Throws std::runtime_error naming the setting when the backend asked for is
// not in this build or finds no device.
std::vector<std::unique_ptr<Device>> make_devices(const EngineConfig& cfg);

// What "auto" resolves to in this build on this machine.
std::string auto_backend();

}  // namespace cuzk::engine
