#pragma once
// Stages 3 and 4: each window's buckets reduced to sum_i i * B_i, then the
// windows combined by Horner's rule.
#include <cstdint>
#include <vector>

#include "msm/batch_affine.hpp"
#include "msm/cost_model.hpp"
#include "msm/kernel_domain.hpp"
#include "msm/xyzz_madd.hpp"

namespace cuzk::msm::detail {

// sum_{i=1..M} i * B_i with B_i = bk[i-1] (affine, filled flags).
// Two levels: i = j*m + l; sum = sum_l l*C_l + m * sum_j j*R_j with column
// sums C_l and row sums R_j computed by batch-affine trees (~2 affine
// additions per bucket) and short XYZZ running sums over m + M/m terms.
template <class C>
ec::Jacobian<C> reduce_affine(TreeSummer<C>& ts, const Pt<C>* bk, const uint8_t* fl, uint32_t M,
                              Kernels kernels, size_t batch) {
  using Aff = ec::Affine<C>;
  using Jac = ec::Jacobian<C>;
  using Xz = ec::Xyzz<C>;
  using P = Pt<C>;
  auto running = [](auto&& get, uint32_t cnt) {
    // sum_{t=1..cnt} t * get(t)
    Xz s = Xz::identity(), acc = Xz::identity();
    for (uint32_t t = cnt; t >= 1; t--) {
      Aff a = get(t);
      if (!a.infinity) xyzz_madd(s, P{a.x, a.y}, false);
      acc = acc.add(s);
    }
    return acc.to_jacobian();
  };
  if (M < 16) {
    std::vector<P> b(bk, bk + M);
    from_kernel_domain(kernels, b.data(), M);
    return running(
        [&](uint32_t i) { return fl[i - 1] ? Aff::from_xy(b[i - 1].x, b[i - 1].y) : Aff::identity(); }, M);
  }
  unsigned logM = 0;
  while ((uint32_t(1) << (logM + 1)) <= M) logM++;
  const unsigned h = logM / 2;
  const uint32_t m = uint32_t(1) << h;
  const uint32_t J = M / m;  // rows 1..J (row j covers i in [jm, jm + m - 1])
  std::vector<P> col(m), row(J + 1);
  std::vector<uint8_t> cf(m, 0), rf(J + 1, 0);
  ts.clear();
  ts.ifma = kernels == Kernels::Ifma;
  for (uint32_t l = 1; l < m; l++) {
    uint32_t begin = uint32_t(ts.refs.size());
    for (uint32_t i = l; i <= M; i += m)
      if (fl[i - 1]) ts.refs.push_back(make_ref<C>(bk + i - 1, false));
    if (ts.refs.size() > begin) ts.segs.push_back({l, begin, uint32_t(ts.refs.size())});
  }
  for (uint32_t j = 1; j <= J; j++) {
    uint32_t begin = uint32_t(ts.refs.size());
    for (uint32_t i = j * m, e = std::min(M, j * m + m - 1); i <= e; i++)
      if (fl[i - 1]) ts.refs.push_back(make_ref<C>(bk + i - 1, false));
    if (ts.refs.size() > begin) ts.segs.push_back({m + j, begin, uint32_t(ts.refs.size())});
  }
  auto slot = [&](uint32_t id) { return id < m ? &col[id] : &row[id - m]; };
  ts.run(
      [&](uint32_t id, Ref r) {
        (id < m ? cf[id] : rf[id - m]) = r != 0;
        if (r) store(slot(id), r);
      },
      batch, slot);
  from_kernel_domain(kernels, col.data(), m);
  from_kernel_domain(kernels, row.data(), J + 1);
  Jac tc =
      running([&](uint32_t l) { return cf[l] ? Aff::from_xy(col[l].x, col[l].y) : Aff::identity(); }, m - 1);
  Jac tr = running([&](uint32_t j) { return rf[j] ? Aff::from_xy(row[j].x, row[j].y) : Aff::identity(); }, J);
  for (unsigned i = 0; i < h; i++) tr = tr.dbl();
  return tc.add(tr);
}

// The classic running sum over XYZZ buckets.
template <class C>
ec::Jacobian<C> reduce_xyzz(const std::vector<ec::Xyzz<C>>& bk) {
  using Xz = ec::Xyzz<C>;
  Xz s = Xz::identity(), acc = Xz::identity();
  for (size_t i = bk.size(); i-- > 0;) {
    s = s.add(bk[i]);
    acc = acc.add(s);
  }
  return acc.to_jacobian();
}

// sum_w 2^shift(w) * window_sums[w], by Horner's rule from the top window.
template <class C>
ec::Jacobian<C> combine_windows(const std::vector<ec::Jacobian<C>>& window_sums, const WindowLayout& layout) {
  const int W = int(window_sums.size());
  ec::Jacobian<C> r = window_sums[W - 1];
  for (int w = W - 2; w >= 0; w--) {
    for (unsigned i = 0; i < layout.width(w); i++) r = r.dbl();
    r = r.add(window_sums[w]);
  }
  return r;
}

}  // namespace cuzk::msm::detail
