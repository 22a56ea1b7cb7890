// Host side of the H step on a device (cuda/h_step.hpp): the pass plan,
// twiddle and coset tables, the launch sequence.
#include "cuda/h_step.hpp"

#include <algorithm>
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

// Passes over stages [lo, lo + k): lo = 0, 8, 16, ...; up to four groups per
// block where the pass's low bits allow (coalesced loads).
struct Pass {
  unsigned lo, k, gb;
};
std::vector<Pass> plan(unsigned log_n) {
  std::vector<Pass> v;
  for (unsigned lo = 0; lo < log_n; lo += detail::kMaxPassStages) {
    const unsigned k = std::min(detail::kMaxPassStages, log_n - lo);
    v.push_back({lo, k, std::min({lo, 2u, detail::kMaxTileLog - k})});
  }
  return v;
}

}  // namespace

DeviceHStep::DeviceHStep(const device::HStep& step, int device)
    : log_n_(step.log_n),
      device_(device),
      root_2_32_(step.root_2_32),
      shift_(step.coset.shift),
      output_(step.coset.output) {
  if (log_n_ > 30) throw std::invalid_argument("cuda H step: domain 2^" + std::to_string(log_n_) + " > 2^30");
  ntt::DomainConfig cfg;
  cfg.max_table_bytes = 0;  // only its constants are used
  cfg.root_2_32 = step.root_2_32;
  const ntt::Domain host(log_n_, cfg);
  const Fr z = shift_.pow_vartime(uint64_t(size())) - Fr::one();
  if (z.is_zero()) throw std::invalid_argument("cuda H step: the coset shift lies in the domain");
  n_inv_ = host.size_inv();
  back_scale_ = n_inv_ * z.inverse();
  set_device(device);
  if (log_n_ == 0) return;
  const uint32_t half = uint32_t(1) << (log_n_ - 1);
  tw_fwd_ = DeviceBuffer(size_t(half) * sizeof(DevFr));
  tw_inv_ = DeviceBuffer(size_t(half) * sizeof(DevFr));
  check(detail::launch_powers(dev_ptr(tw_fwd_.get()), half, pow_table(host.omega()), DevFr::one(), false,
                              nullptr),
        "H step: twiddles");
  check(detail::launch_powers(dev_ptr(tw_inv_.get()), half, pow_table(host.omega_inv()), DevFr::one(), false,
                              nullptr),
        "H step: inverse twiddles");
  // Coset factors of the first pass's positions: shift^(u·2^(log_n-k0)).
  k0_ = plan(log_n_).front().k;
  const uint32_t tab = uint32_t(1) << k0_;
  const uint64_t stride = uint64_t(1) << (log_n_ - k0_);
  tab_fwd_ = DeviceBuffer(size_t(tab) * sizeof(DevFr));
  tab_back_ = DeviceBuffer(size_t(tab) * sizeof(DevFr));
  check(detail::launch_powers(dev_ptr(tab_fwd_.get()), tab, pow_table(shift_.pow_vartime(stride)),
                              DevFr::one(), false, nullptr),
        "H step: coset table");
  check(detail::launch_powers(dev_ptr(tab_back_.get()), tab, pow_table(shift_.inverse().pow_vartime(stride)),
                              DevFr::one(), false, nullptr),
        "H step: inverse coset table");
  synchronize();
}

size_t DeviceHStep::output_size() const {
  return output_ == device::qap::Coset::Output::coset_values ? size() : size() - 1;
}

bool DeviceHStep::same_shape(const device::HStep& s) const {
  return s.log_n == log_n_ && s.root_2_32 == root_2_32_ && s.coset.shift == shift_ &&
         s.coset.output == output_;
}

void DeviceHStep::to_coset(Fr* v, void* stream) const {
  if (log_n_ == 0) return;  // one point: its value is its coefficient
  set_device(device_);
  const auto passes = plan(log_n_);
  detail::NttPass p;
  p.log_n = log_n_;
  p.tw_dif = dev_ptr(tw_inv_.get());
  p.tw_dit = dev_ptr(tw_fwd_.get());
  // DIF from the top, the first pass turned (DIF, · shift^j / n, DIT), DIT up.
  for (size_t i = passes.size(); i-- > 1;) {
    p.lo = passes[i].lo, p.k = passes[i].k, p.gb = passes[i].gb;
    p.dif = true, p.scale = false, p.dit = false;
    check(detail::launch_ntt_pass(dev_ptr(v), p, stream), "H step: DIF pass");
  }
  p.lo = 0, p.k = passes[0].k, p.gb = 0;
  p.dif = true, p.scale = true, p.dit = true;
  p.c = to_dev(n_inv_);
  p.shift_pw = pow_table(shift_);
  p.shift_tab = dev_ptr(tab_fwd_.get());
  check(detail::launch_ntt_pass(dev_ptr(v), p, stream), "H step: turning pass");
  p.scale = false;
  for (size_t i = 1; i < passes.size(); i++) {
    p.lo = passes[i].lo, p.k = passes[i].k, p.gb = passes[i].gb;
    p.dif = false, p.dit = true;
    check(detail::launch_ntt_pass(dev_ptr(v), p, stream), "H step: DIT pass");
  }
}

void DeviceHStep::run(Fr* a, Fr* b, Fr* c, arith::Limbs<4>* out, void* stream) const {
  for (Fr* v : {a, b, c}) to_coset(v, stream);
  finish(a, b, c, out, stream);
}

void DeviceHStep::finish(Fr* a, const Fr* b, const Fr* c, arith::Limbs<4>* out, void* stream) const {
  set_device(device_);
  const uint64_t n = size();
  DevFr* o = reinterpret_cast<DevFr*>(out);
  check(detail::launch_combine(dev_ptr(a), dev_ptr(b), dev_ptr(c), n, stream), "H step: a·b - c");
  if (output_ == device::qap::Coset::Output::coset_values) {
    check(detail::launch_to_canonical(o, dev_ptr(a), n, stream), "H step: to canonical");
    return;
  }
  if (log_n_ == 0) return;  // h has n - 1 = 0 coefficients
  const auto passes = plan(log_n_);
  detail::NttPass p;
  p.log_n = log_n_;
  p.tw_dif = dev_ptr(tw_inv_.get());
  for (size_t i = passes.size(); i-- > 0;) {
    p.lo = passes[i].lo, p.k = passes[i].k, p.gb = passes[i].gb;
    p.dif = true, p.dit = false;
    p.scale = i == 0;  // the last pass: · shift^-j / (n·Z)
    if (p.scale) {
      p.c = to_dev(back_scale_);
      p.shift_pw = pow_table(shift_.inverse());
      p.shift_tab = dev_ptr(tab_back_.get());
    }
    check(detail::launch_ntt_pass(dev_ptr(a), p, stream), "H step: inverse DIF pass");
  }
  check(detail::launch_gather_bitrev_canonical(o, dev_ptr(a), log_n_, n - 1, stream), "H step: bit reversal");
}

HTiming time_h(unsigned log_n, int reps, int device) {
  const DeviceHStep hs({log_n, Fr::zero(), device::qap::bellperson_coset()}, device);
  const size_t n = hs.size(), bytes = n * sizeof(Fr);
  std::vector<Fr> host(n);
  ff::fill_arbitrary(host, log_n);
  DeviceBuffer a(bytes), b(bytes), c(bytes), out(std::max<size_t>(hs.output_size(), 1) * sizeof(Fr));
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
  HTiming t;
  t.upload_ms = timed([&] {
    a.upload(host.data(), bytes);
    b.upload(host.data(), bytes);
    c.upload(host.data(), bytes);
  });
  auto run = [&] {
    hs.run(static_cast<Fr*>(a.get()), static_cast<Fr*>(b.get()), static_cast<Fr*>(c.get()),
           static_cast<arith::Limbs<4>*>(out.get()), nullptr);
  };
  run();  // warm-up
  synchronize();
  t.h_ms = 1e300;
  for (int r = 0; r < std::max(reps, 1); r++) t.h_ms = std::min(t.h_ms, timed(run));
  (void)cudaEventDestroy(e0);
  (void)cudaEventDestroy(e1);
  return t;
}

CUZK_CUDA_NAMESPACE_END
