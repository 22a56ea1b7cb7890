#include "cuda/field.hpp"

#include <random>
#include <stdexcept>
#include <vector>

#include "cuda/compat.cuh"
#include "cuda/device.hpp"
#include "cuda/kernels.hpp"

CUZK_CUDA_NAMESPACE_BEGIN
namespace {

using detail::FieldOp;

template <class Host, class Dev, class Launch>
void batch(FieldOp op, std::span<const Host> a, std::span<const Host> b, std::span<Host> out, int device,
           Launch launch) {
  if (a.size() != b.size() || a.size() != out.size())
    throw std::invalid_argument("cuda field batch: sizes of a, b and out differ");
  if (a.empty()) return;
  set_device(device);
  const size_t bytes = a.size_bytes();
  DeviceBuffer da(bytes), db(bytes), dr(bytes);
  da.upload(a.data(), bytes);
  db.upload(b.data(), bytes);
  // Host elements are device elements bit for bit (cuda/params_check.cpp).
  check(launch(op, static_cast<Dev*>(dr.get()), static_cast<const Dev*>(da.get()),
               static_cast<const Dev*>(db.get()), uint64_t(a.size()), nullptr),
        "field kernel");
  synchronize();
  dr.download(out.data(), bytes);
}

void fr(FieldOp op, std::span<const ff::Fr> a, std::span<const ff::Fr> b, std::span<ff::Fr> out, int device) {
  batch<ff::Fr, DevFr>(op, a, b, out, device, detail::launch_fr_op);
}
void fp(FieldOp op, std::span<const ff::Fp> a, std::span<const ff::Fp> b, std::span<ff::Fp> out, int device) {
  batch<ff::Fp, DevFp>(op, a, b, out, device, detail::launch_fp_op);
}

}  // namespace

void fr_add_batch(std::span<const ff::Fr> a, std::span<const ff::Fr> b, std::span<ff::Fr> out, int device) {
  fr(FieldOp::add, a, b, out, device);
}
void fr_sub_batch(std::span<const ff::Fr> a, std::span<const ff::Fr> b, std::span<ff::Fr> out, int device) {
  fr(FieldOp::sub, a, b, out, device);
}
void fr_mul_batch(std::span<const ff::Fr> a, std::span<const ff::Fr> b, std::span<ff::Fr> out, int device) {
  fr(FieldOp::mul, a, b, out, device);
}
void fp_add_batch(std::span<const ff::Fp> a, std::span<const ff::Fp> b, std::span<ff::Fp> out, int device) {
  fp(FieldOp::add, a, b, out, device);
}
void fp_sub_batch(std::span<const ff::Fp> a, std::span<const ff::Fp> b, std::span<ff::Fp> out, int device) {
  fp(FieldOp::sub, a, b, out, device);
}
void fp_mul_batch(std::span<const ff::Fp> a, std::span<const ff::Fp> b, std::span<ff::Fp> out, int device) {
  fp(FieldOp::mul, a, b, out, device);
}

void fr_mul_chain(std::span<ff::Fr> x, std::span<const ff::Fr> y, unsigned rounds, int device) {
  if (x.size() != y.size()) throw std::invalid_argument("cuda fr_mul_chain: sizes of x and y differ");
  if (x.empty()) return;
  set_device(device);
  DeviceBuffer dx(x.size_bytes()), dy(y.size_bytes());
  dx.upload(x.data(), x.size_bytes());
  dy.upload(y.data(), y.size_bytes());
  check(detail::launch_fr_mul_chain(static_cast<DevFr*>(dx.get()), static_cast<const DevFr*>(dy.get()),
                                    x.size(), rounds, nullptr),
        "fr_mul_chain");
  synchronize();
  dx.download(x.data(), x.size_bytes());
}

double fr_mul_throughput(uint64_t n, unsigned rounds, int device) {
  set_device(device);
  std::vector<ff::Fr> h(n);
  std::mt19937_64 rng(1);
  for (auto& v : h) v = ff::Fr::random(rng);
  DeviceBuffer dx(n * sizeof(ff::Fr)), dy(n * sizeof(ff::Fr));
  dx.upload(h.data(), n * sizeof(ff::Fr));
  dy.upload(h.data(), n * sizeof(ff::Fr));
  auto* x = static_cast<DevFr*>(dx.get());
  auto* y = static_cast<const DevFr*>(dy.get());
  check(detail::launch_fr_mul_chain(x, y, n, 1, nullptr), "fr_mul_chain warm-up");
  synchronize();
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "cudaEventCreate");
  check(cudaEventCreate(&e1), "cudaEventCreate");
  check(cudaEventRecord(e0, nullptr), "cudaEventRecord");
  check(detail::launch_fr_mul_chain(x, y, n, rounds, nullptr), "fr_mul_chain");
  check(cudaEventRecord(e1, nullptr), "cudaEventRecord");
  check(cudaEventSynchronize(e1), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
  (void)cudaEventDestroy(e0);
  (void)cudaEventDestroy(e1);
  return double(n) * 2.0 * rounds / (double(ms) * 1e-3);
}

CUZK_CUDA_NAMESPACE_END
