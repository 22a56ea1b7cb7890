#include "cuda/device.hpp"

#include "cuda/compat.cuh"

CUZK_CUDA_NAMESPACE_BEGIN

Error::Error(int code, const std::string& what) : std::runtime_error(what), code_(code) {}

void check(int code, const char* what) {
  if (code == cudaSuccess) return;
  throw Error(code, std::string(what) + ": " + cudaGetErrorString(static_cast<cudaError_t>(code)));
}

int device_count() noexcept {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    // cudaErrorNoDevice, cudaErrorInsufficientDriver (no libcuda) and any other
    // initialisation failure all mean "no usable GPU"; the runtime records the
    // error as sticky-free, but clear it so a later call does not report it.
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

DeviceInfo device_info(int ordinal) {
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, ordinal), "cudaGetDeviceProperties");
  DeviceInfo d;
  d.ordinal = ordinal;
  d.name = p.name;
  d.total_bytes = p.totalGlobalMem;
  d.sm_major = p.major;
  d.sm_minor = p.minor;
  d.multiprocessors = p.multiProcessorCount;
  return d;
}

std::vector<DeviceInfo> devices() {
  std::vector<DeviceInfo> v;
  const int n = device_count();
  for (int i = 0; i < n; i++) v.push_back(device_info(i));
  return v;
}

MemInfo mem_info(int ordinal) {
  int prev = 0;
  check(cudaGetDevice(&prev), "cudaGetDevice");
  check(cudaSetDevice(ordinal), "cudaSetDevice");
  size_t free_b = 0, total_b = 0;
  const cudaError_t e = cudaMemGetInfo(&free_b, &total_b);
  (void)cudaSetDevice(prev);
  check(e, "cudaMemGetInfo");
  return {free_b, total_b};
}

namespace {
std::string version_string(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }
}  // namespace

std::string runtime_version() {
  int v = 0;
  if (cudaRuntimeGetVersion(&v) != cudaSuccess) return "";
  return version_string(v);
}

std::string driver_version() {
  int v = 0;
  // Returns 0 (not an error) when no driver is installed.
  if (cudaDriverGetVersion(&v) != cudaSuccess || v == 0) return "";
  return version_string(v);
}

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
  if (bytes) check(cudaMalloc(&p_, bytes), "cudaMalloc");
}
DeviceBuffer::~DeviceBuffer() {
  if (p_) (void)cudaFree(p_);
}
DeviceBuffer::DeviceBuffer(DeviceBuffer&& o) noexcept : p_(o.p_), bytes_(o.bytes_) {
  o.p_ = nullptr;
  o.bytes_ = 0;
}
DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    if (p_) (void)cudaFree(p_);
    p_ = o.p_;
    bytes_ = o.bytes_;
    o.p_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}
void DeviceBuffer::upload(const void* host, size_t bytes) {
  if (bytes > bytes_) throw Error(cudaErrorInvalidValue, "DeviceBuffer::upload: larger than the buffer");
  check(cudaMemcpy(p_, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy H2D");
}
void DeviceBuffer::download(void* host, size_t bytes) const {
  if (bytes > bytes_) throw Error(cudaErrorInvalidValue, "DeviceBuffer::download: larger than the buffer");
  check(cudaMemcpy(host, p_, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
}

void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }
void set_device(int ordinal) { check(cudaSetDevice(ordinal), "cudaSetDevice"); }

CUZK_CUDA_NAMESPACE_END
