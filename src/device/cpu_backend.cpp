#include "device/cpu_backend.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "platform/large_vector.hpp"

namespace cuzk::device {

namespace {

template <class C>
class CpuBases final : public Bases<C> {
 public:
  explicit CpuBases(msm::Points<C> p) : points(p) {}
  size_t size() const override { return points.size(); }
  uint64_t device_bytes() const override { return 0; }
  msm::Points<C> points;
};

// Canonical integers (owned, pooled), or a view of Montgomery values.
class CpuScalars final : public Scalars {
 public:
  CpuScalars() = default;
  explicit CpuScalars(std::span<const ff::Fr> view) : montgomery(view), is_view(true) {}
  ~CpuScalars() override { platform::recycle_large(canonical); }
  size_t size() const override { return is_view ? montgomery.size() : canonical.size(); }
  std::vector<Scalar> canonical;
  std::span<const ff::Fr> montgomery;
  bool is_view = false;
};

template <class F>
void parallel_range(size_t n, F&& f) {
  constexpr size_t kGrain = 1 << 14;
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, kGrain), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i < r.end(); i++) f(i);
  });
}

std::unique_ptr<CpuScalars> canonical_of(std::span<const ff::Fr> v) {
  auto s = std::make_unique<CpuScalars>();
  platform::size_large(s->canonical, v.size());
  parallel_range(v.size(), [&](size_t i) { s->canonical[i] = v[i].to_canonical(); });
  return s;
}

const CpuScalars& cpu(const Scalars* s) {
  auto* c = dynamic_cast<const CpuScalars*>(s);
  if (!c) throw std::invalid_argument("cpu backend: scalars of another device");
  return *c;
}

template <class C>
const CpuBases<C>& cpu(const Bases<C>* b) {
  auto* c = dynamic_cast<const CpuBases<C>*>(b);
  if (!c) throw std::invalid_argument("cpu backend: bases of another device");
  return *c;
}

// One term's scalars as the MSM reads them: a span in place when the term is
// one whole run, else gathered (density-filtered runs, several runs).
struct TermScalars {
  bool montgomery = false;
  std::span<const Scalar> canonical_span;
  std::span<const ff::Fr> montgomery_span;
  std::vector<Scalar> canonical_buf;
  std::vector<ff::Fr> montgomery_buf;
  ~TermScalars() {
    platform::recycle_large(canonical_buf);
    platform::recycle_large(montgomery_buf);
  }
};

// Fills `out` with the selected scalars of the runs, in order: canonical
// integers (Scalar), or Montgomery values (ff::Fr, from views only).
template <class T>
void gather(std::span<const Run> runs, std::vector<T>& out, size_t total) {
  platform::reserve_large(out, total);
  for (const Run& r : runs) {
    const CpuScalars& s = cpu(r.scalars);
    for (size_t j = 0; j < r.count; j++) {
      if (r.density && !r.density->get(j)) continue;
      const size_t i = r.begin + j;
      if constexpr (std::is_same_v<T, Scalar>) {
        out.push_back(s.is_view ? s.montgomery[i].to_canonical() : s.canonical[i]);
      } else {
        out.push_back(s.montgomery[i]);
      }
    }
  }
}

void resolve(std::span<const Run> runs, bool force_canonical, TermScalars& t) {
  size_t total = 0;
  bool all_views = true;
  for (const Run& r : runs) {
    total += r.selected();
    all_views &= cpu(r.scalars).is_view;
  }
  t.montgomery = all_views && !force_canonical;
  if (runs.size() == 1 && !runs[0].density) {
    const CpuScalars& s = cpu(runs[0].scalars);
    if (t.montgomery) {
      t.montgomery_span = s.montgomery.subspan(runs[0].begin, runs[0].count);
      return;
    }
    if (!s.is_view) {
      t.canonical_span = std::span<const Scalar>(s.canonical).subspan(runs[0].begin, runs[0].count);
      return;
    }
  }
  if (t.montgomery) {
    gather(runs, t.montgomery_buf, total);
    t.montgomery_span = t.montgomery_buf;
  } else {
    gather(runs, t.canonical_buf, total);
    t.canonical_span = t.canonical_buf;
  }
}

template <class C>
ec::Jacobian<C> cpu_msm(std::span<const Term<C>> terms, const msm::Options& o) {
  if (terms.size() > msm::kMaxParts)
    throw std::invalid_argument("msm: " + std::to_string(terms.size()) + " terms, at most " +
                                std::to_string(msm::kMaxParts));
  if (terms.empty()) return ec::Jacobian<C>::identity();
  // Montgomery views are read in place only when every term is one.
  bool all_views = true;
  for (const Term<C>& t : terms)
    for (const Run& r : t.runs) all_views &= cpu(r.scalars).is_view;
  std::vector<TermScalars> ts(terms.size());
  for (size_t k = 0; k < terms.size(); k++) {
    check_term(terms[k]);
    resolve(terms[k].runs, !all_views, ts[k]);
  }
  if (all_views) {
    std::vector<msm::Part<C>> parts;
    for (size_t k = 0; k < terms.size(); k++)
      parts.push_back({cpu(terms[k].bases).points, ts[k].montgomery_span});
    return msm::msm_parts<C>(parts, o);
  }
  const msm::Points<C>& p0 = cpu(terms[0].bases).points;
  if (terms.size() == 1 && !p0.is_packed())
    return msm::msm_canonical<C>(std::span<const ec::Affine<C>>(p0.affine(), p0.size()), ts[0].canonical_span,
                                 o);
  std::vector<msm::CanonicalPart<C>> parts;
  for (size_t k = 0; k < terms.size(); k++)
    parts.push_back({cpu(terms[k].bases).points, ts[k].canonical_span});
  return msm::msm_parts_canonical<C>(parts, o);
}

}  // namespace

struct CpuBackend::DomainCache {
  static constexpr size_t kKeep = 4;  // sizes in use at once (a daemon serving several kinds)
  std::mutex mu;
  struct Entry {
    unsigned log_n;
    ff::Fr root;
    std::shared_ptr<const ntt::Domain> domain;
  };
  std::deque<Entry> entries;  // most recently used last
};

CpuBackend::CpuBackend() : domains_(std::make_unique<DomainCache>()) {}
CpuBackend::CpuBackend(Options o) : o_(o), domains_(std::make_unique<DomainCache>()) {}
CpuBackend::~CpuBackend() = default;

std::shared_ptr<const ntt::Domain> CpuBackend::domain(const HStep& step) {
  {
    std::lock_guard lk(domains_->mu);
    auto& es = domains_->entries;
    for (auto it = es.begin(); it != es.end(); ++it)
      if (it->log_n == step.log_n && it->root == step.root_2_32) {
        DomainCache::Entry e = *it;
        es.erase(it);
        es.push_back(e);
        return e.domain;
      }
  }
  // Built outside the lock (2^27: a few hundred ms); two threads racing on
  // one shape both build it, one copy is kept.
  auto d = std::make_shared<const ntt::Domain>(step.log_n, ntt::DomainConfig{.root_2_32 = step.root_2_32});
  std::lock_guard lk(domains_->mu);
  auto& es = domains_->entries;
  es.push_back({step.log_n, step.root_2_32, d});
  if (es.size() > DomainCache::kKeep) es.pop_front();
  return d;
}

void CpuBackend::prepare_h(const HStep& step) { domain(step); }

std::shared_ptr<const G1Bases> CpuBackend::upload(msm::Points<G1Curve> points) {
  return std::make_shared<CpuBases<G1Curve>>(points);
}
std::shared_ptr<const G2Bases> CpuBackend::upload(msm::Points<G2Curve> points) {
  return std::make_shared<CpuBases<G2Curve>>(points);
}

std::unique_ptr<Scalars> CpuBackend::load_scalars(std::span<const ff::Fr> values, bool keep_montgomery_view) {
  if (keep_montgomery_view) return std::make_unique<CpuScalars>(values);
  return canonical_of(values);
}

std::unique_ptr<Scalars> CpuBackend::select(std::span<const Run> runs) {
  size_t total = 0;
  for (const Run& r : runs) {
    check_run(r);
    total += r.selected();
  }
  auto out = std::make_unique<CpuScalars>();
  gather(runs, out->canonical, total);
  return out;
}

std::span<const Scalar> CpuBackend::canonical(const Scalars& s) {
  const CpuScalars& c = cpu(&s);
  return c.is_view ? std::span<const Scalar>() : std::span<const Scalar>(c.canonical);
}

std::unique_ptr<Scalars> CpuBackend::compute_h(std::span<ff::Fr> a, std::span<ff::Fr> b, std::span<ff::Fr> c,
                                               const HStep& step) {
  const auto d = domain(step);
  qap::compute_h(a, b, c, *d, step.coset, {o_.ntt, step.times});
  if (step.coset.output == qap::Coset::Output::coset_values) return std::make_unique<CpuScalars>(a);
  // deg h <= n - 2: the top coefficient is zero for a satisfied circuit.
  return canonical_of(a.first(a.size() - 1));
}

ec::G1Jacobian CpuBackend::msm(std::span<const Term<G1Curve>> terms) {
  return cpu_msm<G1Curve>(terms, o_.msm);
}
ec::G2Jacobian CpuBackend::msm(std::span<const Term<G2Curve>> terms) {
  return cpu_msm<G2Curve>(terms, o_.msm);
}

CpuBackend& cpu_backend() {
  static CpuBackend b;
  return b;
}

}  // namespace cuzk::device
