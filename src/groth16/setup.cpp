#include "groth16/setup.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <mutex>

#include "ff/batch_inverse.hpp"
#include "groth16/domain.hpp"
#include "groth16/fixed_base.hpp"

namespace cuzk::groth16 {

namespace {

constexpr size_t kChunk = 4096;

template <class F>
void parallel_chunks(size_t n, F&& f) {
  tbb::parallel_for(size_t(0), (n + kChunk - 1) / kChunk,
                    [&](size_t c) { f(c * kChunk, std::min(n, (c + 1) * kChunk)); });
}

// L_i(τ) = Z(τ)/m · ω^i/(τ - ω^i) for i < rows: the Lagrange basis of the
// domain at τ, so that a column's polynomial at τ is Σ_i coeff_i·L_i(τ).
std::vector<Fr> lagrange_at_tau(size_t rows, unsigned log_m, const Fr& tau, const Fr& z_tau) {
  const Fr omega = domain_root_of_unity(log_m);
  const Fr z_over_m = z_tau * Fr::from_u64(uint64_t(1) << log_m).inverse();
  std::vector<Fr> out(rows);
  parallel_chunks(rows, [&](size_t lo, size_t hi) {
    std::vector<Fr> w(hi - lo), den(hi - lo);
    Fr wi = omega.pow_vartime(uint64_t(lo));
    for (size_t i = lo; i < hi; i++, wi *= omega) {
      w[i - lo] = wi;
      den[i - lo] = tau - wi;
    }
    ff::batch_inverse<Fr>(std::span<Fr>(den));
    for (size_t i = lo; i < hi; i++) out[i] = z_over_m * w[i - lo] * den[i - lo];
  });
  return out;
}

// Column sums Σ_rows coeff·L_row: a sequential scatter per matrix (the three
// matrices run in parallel); O(nnz), fine for development-sized circuits.
std::vector<Fr> eval_columns(const r1cs::CsrMatrix& m, const std::vector<Fr>& lag, size_t nvars) {
  std::vector<Fr> acc(nvars);
  for (size_t i = 0; i < m.rows(); i++)
    for (uint64_t k = m.row_ptr[i]; k < m.row_ptr[i + 1]; k++) acc[m.col[k]] += m.val[k] * lag[i];
  return acc;
}

class Progress {
 public:
  explicit Progress(const SetupOptions& o) : fn_(o.progress) {}
  std::function<void(size_t)> stage(std::string_view name, size_t total) {
    if (!fn_) return {};
    report(name, 0, total);
    auto done = std::make_shared<size_t>(0);
    return [this, name, total, done](size_t n) {
      std::lock_guard<std::mutex> g(mu_);
      *done += n;
      fn_(name, *done, total);
    };
  }
  void report(std::string_view name, size_t done, size_t total) {
    if (!fn_) return;
    std::lock_guard<std::mutex> g(mu_);
    fn_(name, done, total);
  }

 private:
  std::function<void(std::string_view, size_t, size_t)> fn_;
  std::mutex mu_;
};

template <class C>
std::vector<ec::Affine<C>> mul_all(const FixedBaseTable<C>& table, const std::vector<Fr>& scalars,
                                   Progress& progress, std::string_view stage) {
  std::vector<ec::Affine<C>> out(scalars.size());
  fixed_base_mul_batch<C>(table, scalars, out, progress.stage(stage, scalars.size()));
  return out;
}

Parameters generate(r1cs::R1cs r, const ToxicWaste& tw, Progress& progress) {
  if (tw.gamma.is_zero() || tw.delta.is_zero())
    throw std::invalid_argument("toxic waste: gamma and delta must be non-zero");
  r.add_input_constraints();
  const size_t rows = r.num_constraints(), n_in = r.num_inputs, n_aux = r.num_aux;
  const size_t nvars = n_in + n_aux;
  const unsigned log_m = domain_log_size(rows);
  const size_t m = size_t(1) << log_m;
  const Fr z_tau = tw.tau.pow_vartime(uint64_t(m)) - Fr::one();
  if (z_tau.is_zero()) throw std::invalid_argument("toxic waste: tau lies in the FFT domain");

  progress.report("evaluate", 0, 1);
  const std::vector<Fr> lag = lagrange_at_tau(rows, log_m, tw.tau, z_tau);
  std::vector<Fr> at, bt, ct;
  tbb::parallel_invoke([&] { at = eval_columns(r.a, lag, nvars); },
                       [&] { bt = eval_columns(r.b, lag, nvars); },
                       [&] { ct = eval_columns(r.c, lag, nvars); });
  const r1cs::Density a_dense = r.a.column_density(nvars), b_dense = r.b.column_density(nvars);
  progress.report("evaluate", 1, 1);

  const Fr gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();
  std::vector<Fr> ic_s(n_in), l_s(n_aux), a_s, b_s, h_s(m - 1);
  parallel_chunks(nvars, [&](size_t lo, size_t hi) {
    for (size_t v = lo; v < hi; v++) {
      Fr k = tw.beta * at[v] + tw.alpha * bt[v] + ct[v];
      if (v < n_in) {
        ic_s[v] = k * gamma_inv;
      } else {
        if (k.is_zero())
          throw r1cs::SynthesisError("unconstrained variable: aux " + std::to_string(v - n_in));
        l_s[v - n_in] = k * delta_inv;
      }
    }
  });
  for (size_t v = 0; v < nvars; v++) {
    if (v < n_in && !a_dense.get(v)) throw std::logic_error("input missing from A");
    if (a_dense.get(v)) a_s.push_back(at[v]);
    if (b_dense.get(v)) b_s.push_back(bt[v]);
  }
  const Fr h_base = z_tau * delta_inv;
  parallel_chunks(m - 1, [&](size_t lo, size_t hi) {
    Fr t = tw.tau.pow_vartime(uint64_t(lo)) * h_base;
    for (size_t i = lo; i < hi; i++, t *= tw.tau) h_s[i] = t;
  });
  at.clear(), bt.clear(), ct.clear();

  const auto g1 = ec::G1Curve::generator();
  const auto g2 = ec::G2Curve::generator();
  // One G1 table for every query, sized for the longest.
  const size_t g1_count = std::max({h_s.size(), l_s.size(), a_s.size(), b_s.size(), ic_s.size()});
  const FixedBaseTable<ec::G1Curve> t1(g1, fixed_base_window(g1_count));
  Parameters p;
  p.h = mul_all(t1, h_s, progress, "h");
  p.l = mul_all(t1, l_s, progress, "l");
  p.a = mul_all(t1, a_s, progress, "a");
  p.b_g1 = mul_all(t1, b_s, progress, "b_g1");
  p.b_g2 = mul_all(FixedBaseTable<ec::G2Curve>(g2, fixed_base_window(b_s.size())), b_s, progress, "b_g2");
  p.vk.ic = mul_all(t1, ic_s, progress, "ic");
  auto g1mul = [&](const Fr& k) { return ec::mul_vartime(ec::G1Jacobian::from_affine(g1), k).to_affine(); };
  auto g2mul = [&](const Fr& k) { return ec::mul_vartime(ec::G2Jacobian::from_affine(g2), k).to_affine(); };
  p.vk.alpha_g1 = g1mul(tw.alpha);
  p.vk.beta_g1 = g1mul(tw.beta);
  p.vk.beta_g2 = g2mul(tw.beta);
  p.vk.gamma_g2 = g2mul(tw.gamma);
  p.vk.delta_g1 = g1mul(tw.delta);
  p.vk.delta_g2 = g2mul(tw.delta);
  return p;
}

}  // namespace

Parameters generate_parameters(const r1cs::Circuit& circuit, const ToxicWaste& tw, const SetupOptions& opts) {
  r1cs::ShapeRecorder rec;
  circuit.synthesize(rec);
  return generate_parameters(rec.finish(), tw, opts);
}

Parameters generate_parameters(r1cs::R1cs shape, const ToxicWaste& tw, const SetupOptions& opts) {
  Progress progress(opts);
  tbb::task_arena arena(opts.threads ? int(opts.threads) : tbb::task_arena::automatic);
  return arena.execute([&] { return generate(std::move(shape), tw, progress); });
}

}  // namespace cuzk::groth16
