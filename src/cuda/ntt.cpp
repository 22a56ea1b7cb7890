// Host side of the CUDA NTT: domain constants from ntt::Domain, twiddle
// tables made on the device, the stage sequence of cuda/ntt_steps.cuh.
#include "cuda/ntt.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/compat.cuh"
#include "cuda/host_field.hpp"
#include "cuda/h_kernels.hpp"
#include "cuda/kernels.hpp"
#include "ff/arbitrary.hpp"
#include "ntt/ntt.hpp"

CUZK_CUDA_NAMESPACE_BEGIN
namespace {

using ff::Fr;

using detail::dev_ptr;
using detail::pow_table;
using detail::to_dev;

unsigned checked_log(size_t n) {
  if (n < 2 || !std::has_single_bit(n) || n > (size_t(1) << 30))
    throw std::invalid_argument("cuda ntt: size " + std::to_string(n) +
                                " is not a power of two in [2, 2^30]");
  return unsigned(std::countr_zero(n));
}

}  // namespace

DeviceNttDomain::DeviceNttDomain(unsigned log_n, int device) : log_n_(log_n), device_(device) {
  if (log_n < 1 || log_n > 30)
    throw std::invalid_argument("cuda::DeviceNttDomain: log_n = " + std::to_string(log_n) +
                                " outside [1, 30]");
  // The CPU domain with minimal tables: only its constants are used, so that
  // omega, 1/n and g are ntt::'s by construction.
  ntt::DomainConfig cfg;
  cfg.max_table_bytes = 0;
  const ntt::Domain host(log_n, cfg);
  n_inv_ = host.size_inv();
  g_ = host.coset_generator();
  g_inv_ = host.coset_generator_inv();

  set_device(device);
  const uint32_t half = uint32_t(1) << (log_n - 1);
  tw_fwd_ = DeviceBuffer(size_t(half) * sizeof(DevFr));
  tw_inv_ = DeviceBuffer(size_t(half) * sizeof(DevFr));
  check(detail::launch_powers(dev_ptr(tw_fwd_.get()), half, pow_table(host.omega()), DevFr::one(), false,
                              nullptr),
        "twiddles (forward)");
  check(detail::launch_powers(dev_ptr(tw_inv_.get()), half, pow_table(host.omega_inv()), DevFr::one(), false,
                              nullptr),
        "twiddles (inverse)");
  synchronize();
}

void DeviceNttDomain::run(Kind k, Fr* d, void* stream) const {
  set_device(device_);
  DevFr* a = dev_ptr(d);
  const uint32_t n = uint32_t(size());
  const bool inv = k == Kind::inverse || k == Kind::coset_inverse;
  const DevFr* tw = static_cast<const DevFr*>(inv ? tw_inv_.get() : tw_fwd_.get());
  if (k == Kind::coset_forward)  // a[i] *= g^i: evaluations on g*H
    check(detail::launch_powers(a, n, pow_table(g_), DevFr::one(), true, stream), "coset scale");
  // Bit reversal, then the DIT stages in passes of up to 8 on shared-memory
  // tiles (cuda/h_kernels.hpp), the first over contiguous groups.
  check(detail::launch_bitrev(a, log_n_, stream), "bit reversal");
  detail::NttPass p;
  p.log_n = log_n_;
  p.dit = true;
  p.tw_dit = tw;
  for (unsigned lo = 0; lo < log_n_; lo += detail::kMaxPassStages) {
    p.lo = lo;
    p.k = std::min(detail::kMaxPassStages, log_n_ - lo);
    p.gb = std::min({lo, 2u, detail::kMaxTileLog - p.k});
    check(detail::launch_ntt_pass(a, p, stream), "NTT pass");
  }
  if (k == Kind::inverse)  // a[i] *= 1/n (g = 1: the table of 1)
    check(detail::launch_powers(a, n, pow_table(Fr::one()), to_dev(n_inv_), true, stream), "1/n");
  if (k == Kind::coset_inverse)  // a[i] *= g^-i / n
    check(detail::launch_powers(a, n, pow_table(g_inv_), to_dev(n_inv_), true, stream), "coset 1/n");
}

void DeviceNttDomain::forward(Fr* d, void* s) const { run(Kind::forward, d, s); }
void DeviceNttDomain::inverse(Fr* d, void* s) const { run(Kind::inverse, d, s); }
void DeviceNttDomain::coset_forward(Fr* d, void* s) const { run(Kind::coset_forward, d, s); }
void DeviceNttDomain::coset_inverse(Fr* d, void* s) const { run(Kind::coset_inverse, d, s); }

namespace {
template <class Fn>
void on_device(std::span<Fr> a, int device, Fn fn) {
  const DeviceNttDomain dom(checked_log(a.size()), device);
  DeviceBuffer buf(a.size_bytes());
  buf.upload(a.data(), a.size_bytes());
  fn(dom, static_cast<Fr*>(buf.get()));
  synchronize();
  buf.download(a.data(), a.size_bytes());
}
}  // namespace

void ntt_forward(std::span<Fr> a, int device) {
  on_device(a, device, [](const DeviceNttDomain& d, Fr* p) { d.forward(p); });
}
void ntt_inverse(std::span<Fr> a, int device) {
  on_device(a, device, [](const DeviceNttDomain& d, Fr* p) { d.inverse(p); });
}
void ntt_coset_forward(std::span<Fr> a, int device) {
  on_device(a, device, [](const DeviceNttDomain& d, Fr* p) { d.coset_forward(p); });
}
void ntt_coset_inverse(std::span<Fr> a, int device) {
  on_device(a, device, [](const DeviceNttDomain& d, Fr* p) { d.coset_inverse(p); });
}

NttTiming time_ntt(unsigned log_n, int reps, int device) {
  const DeviceNttDomain dom(log_n, device);
  const size_t n = dom.size();
  std::vector<Fr> host(n);
  ff::fill_arbitrary(host, log_n);  // Fr::random would take seconds at 2^27
  DeviceBuffer buf(n * sizeof(Fr));
  Fr* d = static_cast<Fr*>(buf.get());

  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "cudaEventCreate");
  check(cudaEventCreate(&e1), "cudaEventCreate");
  auto timed = [&](auto&& fn) {
    check(cudaEventRecord(e0, nullptr), "cudaEventRecord");
    fn();
    check(cudaEventRecord(e1, nullptr), "cudaEventRecord");
    check(cudaEventSynchronize(e1), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
    return double(ms);
  };
  auto best = [&](auto&& fn) {
    fn();  // warm-up
    synchronize();
    double b = 1e300;
    for (int r = 0; r < std::max(reps, 1); r++) b = std::min(b, timed(fn));
    return b;
  };
  NttTiming t;
  t.h2d_ms = timed([&] { buf.upload(host.data(), n * sizeof(Fr)); });
  t.forward_ms = best([&] { dom.forward(d); });
  t.inverse_ms = best([&] { dom.inverse(d); });
  t.coset_forward_ms = best([&] { dom.coset_forward(d); });
  t.d2h_ms = timed([&] { buf.download(host.data(), n * sizeof(Fr)); });
  (void)cudaEventDestroy(e0);
  (void)cudaEventDestroy(e1);
  return t;
}

CUZK_CUDA_NAMESPACE_END
