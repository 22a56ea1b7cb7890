// Groth16 proving with a snarkjs .zkey (formats::prove_zkey), the way
// snarkjs's groth16 prover does it, arranged for speed:
//  - A·w and B·w accumulate in snarkjs's row order (the key lists its
//    coefficients row by row), each thread owning a range of rows, while the
//    twiddle tables are built, on snarkjs's own domain (ffjavascript's root
//    of unity): no permutation in or out of another order;
//  - the QAP step (to the odd coset, a·b − c) and the MSMs go through the
//    device seam (device/backend.hpp), as the bellperson-layout prover's
//    do; on the CPU backend the witness and the key's point sections are
//    read in place;
//  - C and H (and r·B1 when the witness is not 0/1-heavy) go into one MSM
//    (msm_parts: the key's point arrays as they are, no copy): Pippenger's
//    cost per point falls as n grows;
//  - the A and B2 MSMs, which need only the witness, run beside the h
//    scalars and the C+H MSM, all in one TBB arena: each MSM's parallel loops
//    leave gaps (at 2^13 points a G1 MSM runs only 1.4× faster on 2 threads
//    than on 1) that the others' tasks fill. scripts/ab-prove.sh-style
//    alternating runs: 2^13 constraints 101.5 → 96.4 ms, 2^16 437 → 430 ms.
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>

#include "device/cpu_backend.hpp"
#include "ec/scalar_mul.hpp"
#include "formats/zkey.hpp"
#include "msm/msm.hpp"

namespace cuzk::formats {

using ec::G1Affine;
using ec::G1Jacobian;
using ec::G2Jacobian;
using ff::Fr;

namespace {

// ffjavascript's primitive 2^32-th root, 5^t (5 is the smallest quadratic
// non-residue of r).
Fr ffjs_root_2_32() { return Fr::from_u64(5).pow_vartime(Fr::T_ODD); }

unsigned log2_exact(size_t n) {
  unsigned l = 0;
  while ((size_t(1) << l) < n) l++;
  return l;
}

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// A·w and B·w on the domain, in snarkjs's row order, while the device
// prepares the H step (the twiddle tables); C·w is their pointwise product
// (the zkey carries no C matrix).
struct Evaluations {
  platform::RawArray<Fr> a, b, c;
};
Evaluations zkey_evaluations(const Zkey& zk, std::span<const Fr> w, device::Backend& dev,
                             const device::HStep& step) {
  const size_t n = zk.domain_size;
  // Uninitialised: each accumulating task zeroes its own rows first (in
  // parallel, with the first-touch page faults).
  Evaluations e{platform::RawArray<Fr>(n), platform::RawArray<Fr>(n), {}};
  auto& a = e.a;
  auto& b = e.b;
  auto accumulate = [&] {
    // Rows in snarkjs's order, where the key lists its coefficients row by
    // row (cache-friendly writes); each task owns a range of rows and skips
    // the others, so every task reads the whole list: at most 8 of them. The
    // coefficients are read as the file stores them, R times too large
    // (ZkeyCoefs::value_times_r): one multiplication by R^-1 per row at the end.
    const size_t parts = size_t(std::clamp(tbb::this_task_arena::max_concurrency(), 1, 8));
    const ZkeyCoefs& k = zk.coeffs;
    tbb::parallel_for(size_t(0), parts, [&](size_t p) {
      const size_t lo = n * p / parts, hi = n * (p + 1) / parts;
      std::fill(a.begin() + lo, a.begin() + hi, Fr::zero());
      std::fill(b.begin() + lo, b.begin() + hi, Fr::zero());
      for (size_t i = 0; i < k.size(); i++) {
        const uint32_t row = k.constraint(i);
        if (row < lo || row >= hi) continue;
        (k.matrix(i) == 0 ? a : b)[row] += k.value_times_r(i) * w[k.signal(i)];
      }
      const Fr r_inv = ZkeyCoefs::r_inv();
      for (size_t i = lo; i < hi; i++) {
        a[i] *= r_inv;
        b[i] *= r_inv;
      }
    });
  };
  tbb::parallel_invoke([&] { dev.prepare_h(step); }, accumulate);
  e.c = platform::RawArray<Fr>(n);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 4096), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i < r.end(); i++) e.c[i] = a[i] * b[i];
  });
  return e;
}

// snarkjs's domain <ω> (ω from ffjavascript's root) and its odd coset: the
// transforms run in snarkjs's point order, the order of the key's rows and
// of its H points.
device::HStep odd_coset_step(const Zkey& zk) {
  const unsigned log_n = log2_exact(zk.domain_size);
  return {log_n, ffjs_root_2_32(), device::qap::odd_coset(log_n, ffjs_root_2_32())};
}

}  // namespace

platform::RawArray<Fr> zkey_h_scalars(const Zkey& zk, std::span<const Fr> w) {
  device::CpuBackend cpu;
  const device::HStep step = odd_coset_step(zk);
  Evaluations ev = zkey_evaluations(zk, w, cpu, step);
  cpu.compute_h(ev.a.span(), ev.b.span(), ev.c.span(), step);  // the values stay in a
  return std::move(ev.a);
}

std::vector<Fr> zkey_public_signals(const Zkey& zk, std::span<const Fr> w) {
  return {w.begin() + 1, w.begin() + 1 + zk.n_public};
}

groth16::Proof prove_zkey(const Zkey& zk, std::span<const Fr> w, const Fr& r, const Fr& s,
                          const ZkeyProveOptions& o) {
  if (w.size() != zk.n_vars)
    throw std::invalid_argument("witness has " + std::to_string(w.size()) +
                                " values, the zkey expects nVars = " + std::to_string(zk.n_vars));
  if (!w[0].is_one()) throw std::invalid_argument("witness[0] must be 1");
  if (zk.a.size() != zk.n_vars || zk.b1.size() != zk.n_vars || zk.b2.size() != zk.n_vars ||
      zk.c.size() + zk.n_public + 1 != zk.n_vars || zk.h.size() != zk.domain_size)
    throw std::invalid_argument("zkey has no proving key matching nVars/domainSize (read with vk_only?)");
  const auto t_start = Clock::now();
  ZkeyProveTimes tm;
  auto progress = [&](std::string_view st, size_t d, size_t t) {
    if (o.progress) o.progress(st, d, t);
  };
  auto stage = [&](std::string_view name, size_t count, double& ms, auto&& f) {
    progress(name, 0, count);
    auto t = Clock::now();
    f();
    ms = ms_since(t);
    progress(name, count, count);
  };
  // Every MSM's scratch within 32 MiB on the CPU: C+H (229k scalars at 2^16)
  // runs in two passes over one scratch; a single 64 MB pass of fresh pages
  // took 10-30 ms longer here.
  device::CpuBackend cpu({.msm = msm::Options{.scratch_bytes = size_t(32) << 20}, .ntt = {}, .name = "cpu"});
  device::Backend& dev = o.backend ? *o.backend : cpu;
  using device::all_of;
  using device::Run;
  // The key's sections as they are (no copy on the CPU), the witness in place.
  const auto bases_a = dev.upload(msm::Points<ec::G1Curve>(zk.a));
  const auto bases_b1 = dev.upload(msm::Points<ec::G1Curve>(zk.b1));
  const auto bases_c = dev.upload(msm::Points<ec::G1Curve>(zk.c));
  const auto bases_h = dev.upload(msm::Points<ec::G1Curve>(zk.h));
  const auto bases_b2 = dev.upload(msm::Points<ec::G2Curve>(zk.b2));
  const auto wd = dev.load_scalars(w, /*keep_montgomery_view=*/true);

  G1Jacobian pa, pch, pb1 = G1Jacobian::identity();
  G2Jacobian pb;
  // π_A = α + A·w + r·δ, π_B = β + B·w + s·δ (G2; its G1 twin π_B1 likewise),
  // π_C = C·w + H·h + s·π_A + r·π_B1 − rs·δ = C·w + H·h + s·π_A + r·(B1·w) + r·β1.
  // Each task finishes its own terms (scalar multiplications included), so
  // only π_C's s·π_A + the C/H part is left for the end.
  auto J1 = [](const G1Affine& p) { return G1Jacobian::from_affine(p); };
  auto h_then_ch = [&] {
    const device::HStep step = odd_coset_step(zk);
    Evaluations ev;
    std::unique_ptr<device::Scalars> h;
    stage("h scalars", zk.domain_size, tm.h_scalars_ms, [&] {
      ev = zkey_evaluations(zk, w, dev, step);
      h = dev.compute_h(ev.a.span(), ev.b.span(), ev.c.span(), step);  // may refer to ev.a
    });
    // π_B1 only enters π_C, as r·π_B1, so r·w_i·B1_i can join the C/H MSM,
    // unless many w_i are 1: scalar-1 points are summed almost for free, and
    // r·1 is a full-size scalar.
    size_t ones = 0, big = 0;
    for (size_t i = 0; i < zk.n_vars; i++) {
      if (zk.b1.is_identity(i) || w[i].is_zero()) continue;
      (w[i].is_one() ? ones : big)++;
    }
    using Fold = ZkeyProveOptions::FoldB1;
    tm.b1_merged = o.fold_b1 == Fold::Always || (o.fold_b1 == Fold::Auto && ones * 8 <= big);
    if (!tm.b1_merged)
      stage("msm B1", zk.n_vars, tm.msm_b1_ms, [&] { pb1 = dev.msm(*bases_b1, all_of(*wd)); });

    // C, H and r·B1 as terms of one MSM (identity points and zero scalars
    // are dropped inside).
    std::vector<Fr> rw;
    std::unique_ptr<device::Scalars> rwd;
    if (tm.b1_merged) {
      rw.resize(zk.n_vars);
      tbb::parallel_for(tbb::blocked_range<size_t>(0, zk.n_vars, 8192),
                        [&](const tbb::blocked_range<size_t>& rg) {
                          for (size_t i = rg.begin(); i < rg.end(); i++) rw[i] = r * w[i];
                        });
      rwd = dev.load_scalars(rw, /*keep_montgomery_view=*/true);
    }
    const Run c_run{wd.get(), zk.n_public + 1, zk.c.size(), nullptr}, h_run = all_of(*h);
    std::vector<device::Term<ec::G1Curve>> terms{{bases_c.get(), {&c_run, 1}}, {bases_h.get(), {&h_run, 1}}};
    const Run rw_run = rwd ? all_of(*rwd) : Run{};
    if (tm.b1_merged) terms.push_back({bases_b1.get(), {&rw_run, 1}});
    const size_t n_ch = zk.c.size() + zk.h.size() + (tm.b1_merged ? ones + big : 0);
    stage("msm C+H", n_ch, tm.msm_ch_ms,
          [&] { pch = dev.msm(std::span<const device::Term<ec::G1Curve>>(terms)); });
    pch = pch.add(ec::mul_vartime(J1(zk.vk.beta_g1), r));
    if (!tm.b1_merged) pch = pch.add(ec::mul_vartime(pb1, r));
  };
  G1Jacobian s_pa;
  auto msm_a = [&] {
    stage("msm A", zk.n_vars, tm.msm_a_ms, [&] { pa = dev.msm(*bases_a, all_of(*wd)); });
    pa = pa.add(J1(zk.vk.alpha_g1)).add(ec::mul_vartime(J1(zk.vk.delta_g1), r));
    s_pa = ec::mul_vartime(pa, s);
  };
  auto msm_b2 = [&] {
    stage("msm B2", zk.n_vars, tm.msm_b2_ms, [&] { pb = dev.msm(*bases_b2, all_of(*wd)); });
    pb = pb.add(G2Jacobian::from_affine(zk.vk.beta_g2))
             .add(ec::mul_vartime(G2Jacobian::from_affine(zk.vk.delta_g2), s));
  };
  if (o.overlap_stages) {
    tbb::parallel_invoke(h_then_ch, msm_a, msm_b2);
  } else {
    h_then_ch();
    msm_a();
    msm_b2();
  }

  const G1Jacobian pc = pch.add(s_pa);
  tm.total_ms = ms_since(t_start);
  if (o.times) *o.times = tm;
  return {pa.to_affine(), pb.to_affine(), pc.to_affine()};
}

}  // namespace cuzk::formats
