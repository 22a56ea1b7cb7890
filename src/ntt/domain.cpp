// Domain constants and twiddle tables.
#include <algorithm>
#include <stdexcept>
#include <string>

#include <tbb/parallel_for.h>

#include "ntt/kernels_ifma.hpp"
#include "ntt/ntt.hpp"
#include "ntt/plan.hpp"
#include "platform/cpu_features.hpp"

namespace cuzk::ntt {

struct Domain::Tables {
  std::vector<Fr> fwd, inv;
  std::vector<uint64_t> fwd52, inv52;  // the same in the IFMA kernels' form
  bool full = false;
};

Fr root_of_unity_2_32() {
  static const Fr w = Fr::from_u64(kCosetGenerator).pow_vartime(Fr::T_ODD);
  return w;
}

namespace {

// Fills z[k] = w^brev_{L-1}(k) for k < z.size(), where w has order 2^L:
// z[k + 2^j] = z[k] * w^(2^(L-2-j)) for k < 2^j (the bits are disjoint).
void fill_bitrev_powers(std::vector<Fr>& z, const Fr& w, unsigned L) {
  if (z.empty()) return;
  z[0] = Fr::one();
  for (unsigned j = 0; (size_t(1) << j) < z.size(); j++) {
    const size_t half = size_t(1) << j;
    Fr step = w;
    for (unsigned i = 0; i + 2 + j < L; i++) step = step.square();  // w^(2^(L-2-j))
    const size_t end = std::min(z.size(), 2 * half);
    auto body = [&](size_t b, size_t e) {
      for (size_t k = b; k < e; k++) z[k] = z[k - half] * step;
    };
    if (end - half >= (size_t(1) << 14)) {
      tbb::parallel_for(tbb::blocked_range<size_t>(half, end, size_t(1) << 12),
                        [&](const tbb::blocked_range<size_t>& r) { body(r.begin(), r.end()); });
    } else {
      body(half, end);
    }
  }
}

}  // namespace

Domain::Domain(unsigned log_n, const DomainConfig& cfg) : log_n_(log_n) {
  if (log_n > Fr::S)
    throw std::invalid_argument("ntt::Domain: log_n = " + std::to_string(log_n) +
                                " exceeds the two-adicity of Fr (32)");
  Fr w = cfg.root_2_32.is_zero() ? root_of_unity_2_32() : cfg.root_2_32;
  if (!cfg.root_2_32.is_zero()) {
    Fr half = w;  // w^(2^31) = -1 exactly when w has order 2^32
    for (unsigned i = 1; i < Fr::S; i++) half = half.square();
    if (half != -Fr::one())
      throw std::invalid_argument("ntt::Domain: root_2_32 is not a primitive 2^32-th root");
  }
  for (unsigned i = log_n; i < Fr::S; i++) w = w.square();
  omega_ = w;
  omega_inv_ = w.inverse();
  const Fr two_inv = Fr::from_u64(2).inverse();
  size_inv_ = Fr::one();
  for (unsigned i = 0; i < log_n; i++) size_inv_ *= two_inv;
  g_ = Fr::from_u64(kCosetGenerator);
  g_inv_ = g_.inverse();
  Fr gn = g_;
  for (unsigned i = 0; i < log_n; i++) gn = gn.square();
  z_coset_ = gn - Fr::one();

  tables_ = std::make_unique<Tables>();
  const size_t n = size();
  size_t entries = n / 2;
  // 2 tables x n/2 entries x 32 bytes.
  tables_->full = n * sizeof(Fr) <= cfg.max_table_bytes || log_n <= detail::plan().block_log;
  if (!tables_->full) entries = size_t(1) << (log_n - detail::column_bits(log_n) - 1);
  tables_->fwd.resize(entries);
  tables_->inv.resize(entries);
  fill_bitrev_powers(tables_->fwd, omega_, log_n);
  fill_bitrev_powers(tables_->inv, omega_inv_, log_n);
  if (platform::use_ifma()) {
    tables_->fwd52 = detail::ifma::convert_twiddles(tables_->fwd);
    tables_->inv52 = detail::ifma::convert_twiddles(tables_->inv);
  }
}

Domain::~Domain() = default;
Domain::Domain(Domain&&) noexcept = default;
Domain& Domain::operator=(Domain&&) noexcept = default;

std::span<const Fr> Domain::twiddles(Direction d) const {
  return d == Direction::forward ? std::span<const Fr>(tables_->fwd) : std::span<const Fr>(tables_->inv);
}

bool Domain::full_twiddles() const { return tables_->full; }

std::span<const uint64_t> Domain::twiddles52(Direction d) const {
  return d == Direction::forward ? std::span<const uint64_t>(tables_->fwd52)
                                 : std::span<const uint64_t>(tables_->inv52);
}

}  // namespace cuzk::ntt
