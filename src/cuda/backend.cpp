// The CUDA device backend (cuda/backend.hpp). Built twice, as the whole
// layer is: by nvcc (cuzk::cuda::gpu, make_gpu_backend) and on the SIMT
// emulator (cuzk::cuda::emu, make_emulated_backend).
#include "cuda/backend.hpp"

#include <algorithm>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/compat.cuh"
#include "cuda/device.hpp"
#include "cuda/h_step.hpp"
#include "cuda/msm.hpp"
#include "cuda/scalar_kernels.hpp"
#include "msm/msm.hpp"

CUZK_CUDA_NAMESPACE_BEGIN
namespace {

using device::Run;
using Scalar = arith::Limbs<4>;

// Points for MSMs: resident in device memory, or kept on the host (streamed
// by each MSM) when they do not fit beside the working reserve. The host
// view stays for MSMs on the CPU (g2_on_host); packed points (a .zkey's
// sections) are unpacked into `unpacked` once.
template <class C>
class CudaBases final : public device::Bases<C> {
 public:
  size_t size() const override { return host.size(); }
  uint64_t device_bytes() const override { return resident ? resident->device_bytes() : 0; }
  std::vector<ec::Affine<C>> unpacked;
  std::span<const ec::Affine<C>> host;
  std::unique_ptr<DevicePoints<C>> resident;
};

// Canonical scalars in device memory.
class CudaScalars final : public device::Scalars {
 public:
  CudaScalars(size_t n) : buf(std::max<size_t>(n, 1) * sizeof(Scalar)), n(n) {}
  size_t size() const override { return n; }
  Scalar* data() const { return static_cast<Scalar*>(buf.get()); }
  DeviceBuffer buf;
  size_t n;
};

const CudaScalars& cuda_of(const device::Scalars* s) {
  auto* c = dynamic_cast<const CudaScalars*>(s);
  if (!c) throw std::invalid_argument("cuda backend: scalars of another device");
  return *c;
}
template <class C>
const CudaBases<C>& cuda_of(const device::Bases<C>* b) {
  auto* c = dynamic_cast<const CudaBases<C>*>(b);
  if (!c) throw std::invalid_argument("cuda backend: bases of another device");
  return *c;
}

void check_run(const Run& r) {
  const size_t have = cuda_of(r.scalars).size();
  if (r.begin > have || r.count > have - r.begin)
    throw std::invalid_argument("msm: run [" + std::to_string(r.begin) + ", +" + std::to_string(r.count) +
                                ") outside " + std::to_string(have) + " scalars");
  if (r.density && r.density->size() != r.count)
    throw std::invalid_argument("msm: density of " + std::to_string(r.density->size()) + " bits for a run of " +
                                std::to_string(r.count));
}

DevFr* dev_fr(void* p) { return static_cast<DevFr*>(p); }

class CudaBackend final : public device::Backend {
 public:
  CudaBackend(int ordinal, const BackendOptions& o) : ordinal_(ordinal), o_(o), info_(device_info(ordinal)) {}

  std::string name() const override { return info_.name; }
  bool host_memory() const override { return false; }
  uint64_t memory_total_bytes() const override { return info_.total_bytes; }
  uint64_t memory_free_bytes() const override { return mem_info(ordinal_).free_bytes; }

  std::shared_ptr<const device::G1Bases> upload(msm::Points<ec::G1Curve> points) override {
    return upload_points<ec::G1Curve>(points);
  }
  std::shared_ptr<const device::G2Bases> upload(msm::Points<ec::G2Curve> points) override {
    return upload_points<ec::G2Curve>(points);
  }

  std::unique_ptr<device::Scalars> load_scalars(std::span<const ff::Fr> values, bool) override {
    set_device(ordinal_);
    auto s = std::make_unique<CudaScalars>(values.size());
    if (!values.empty()) {
      s->buf.upload(values.data(), values.size_bytes());  // ff::Fr and DevFr share their bits
      check(detail::launch_to_canonical(dev_fr(s->data()), dev_fr(s->data()), values.size(), nullptr),
            "cuda backend: scalars out of Montgomery form");
      synchronize();
    }
    return s;
  }

  std::unique_ptr<device::Scalars> select(std::span<const Run> runs) override {
    set_device(ordinal_);
    size_t total = 0;
    for (const Run& r : runs) {
      check_run(r);
      total += r.selected();
    }
    auto out = std::make_unique<CudaScalars>(total);
    size_t at = 0;
    for (const Run& r : runs) {
      const CudaScalars& in = cuda_of(r.scalars);
      if (!r.density) {
        if (r.count)
          check(cudaMemcpy(out->data() + at, in.data() + r.begin, r.count * sizeof(Scalar), cudaMemcpyDeviceToDevice),
                "cuda backend: select (copy)");
      } else if (r.count) {
        // Set bits before each word on the host (one pass over the bitmap),
        // the compaction on the device.
        const auto& words = r.density->words();
        std::vector<uint64_t> before(words.size());
        uint64_t acc = 0;
        for (size_t w = 0; w < words.size(); w++) {
          before[w] = acc;
          const uint64_t left = r.count - std::min<uint64_t>(r.count, w * 64);
          const uint64_t m = left >= 64 ? words[w] : words[w] & ((uint64_t(1) << left) - 1);
          acc += uint64_t(__builtin_popcountll(m));
        }
        DeviceBuffer dw(words.size() * sizeof(uint64_t)), db(before.size() * sizeof(uint64_t));
        dw.upload(words.data(), dw.bytes());
        db.upload(before.data(), db.bytes());
        check(detail::launch_select(dev_fr(out->data() + at), dev_fr(in.data() + r.begin),
                                    static_cast<const uint64_t*>(dw.get()), static_cast<const uint64_t*>(db.get()),
                                    r.count, nullptr),
              "cuda backend: select");
        synchronize();
      }
      at += r.selected();
    }
    return out;
  }

  void prepare_h(const device::HStep& step) override { h_step(step); }

  std::unique_ptr<device::Scalars> compute_h(std::span<ff::Fr> a, std::span<ff::Fr> b, std::span<ff::Fr> c,
                                             const device::HStep& step) override {
    const size_t n = size_t(1) << step.log_n;
    if (a.size() != n || b.size() != n || c.size() != n)
      throw std::invalid_argument("cuda backend: a, b, c must have the domain's " + std::to_string(n) + " elements");
    const auto hs = h_step(step);
    set_device(ordinal_);
    DeviceBuffer da(a.size_bytes()), dbuf(b.size_bytes()), dc(c.size_bytes());
    da.upload(a.data(), a.size_bytes());
    dbuf.upload(b.data(), b.size_bytes());
    dc.upload(c.data(), c.size_bytes());
    auto out = std::make_unique<CudaScalars>(hs->output_size());
    hs->run(static_cast<ff::Fr*>(da.get()), static_cast<ff::Fr*>(dbuf.get()), static_cast<ff::Fr*>(dc.get()),
            out->data(), nullptr);
    synchronize();
    return out;
  }

  ec::G1Jacobian msm(std::span<const device::Term<ec::G1Curve>> terms) override { return device_msm(terms); }
  ec::G2Jacobian msm(std::span<const device::Term<ec::G2Curve>> terms) override {
    if (o_.g2_on_host) return host_msm(terms);
    return device_msm(terms);
  }

 private:
  template <class C>
  std::shared_ptr<const device::Bases<C>> upload_points(msm::Points<C> points) {
    auto b = std::make_shared<CudaBases<C>>();
    if (points.is_packed()) {
      b->unpacked.resize(points.size());
      for (size_t i = 0; i < points.size(); i++) b->unpacked[i] = points.packed()[i];
      b->host = b->unpacked;
    } else {
      b->host = std::span<const ec::Affine<C>>(points.affine(), points.size());
    }
    // Resident when the points leave the working reserve free; else each
    // MSM streams them from host memory.
    const uint64_t bytes = b->host.size_bytes();
    const uint64_t reserve = o_.working_reserve_bytes ? o_.working_reserve_bytes : info_.total_bytes / 4;
    set_device(ordinal_);
    if (!b->host.empty() && mem_info(ordinal_).free_bytes >= bytes + reserve) {
      try {
        b->resident = std::make_unique<DevicePoints<C>>(b->host, ordinal_);
      } catch (const Error&) {
        b->resident.reset();  // another allocation won the race: stream these
      }
    }
    return b;
  }

  template <class C>
  ec::Jacobian<C> device_msm(std::span<const device::Term<C>> terms) {
    set_device(ordinal_);
    std::vector<MsmTerm<C>> mt;
    for (const device::Term<C>& t : terms) {
      const CudaBases<C>& b = cuda_of(t.bases);
      if (t.selected() != b.size())
        throw std::invalid_argument("msm: " + std::to_string(t.selected()) + " scalars selected for " +
                                    std::to_string(b.size()) + " bases");
      size_t first = 0;  // each run takes the next points
      for (const Run& r : t.runs) {
        check_run(r);
        const size_t sel = r.selected();
        MsmTerm<C> m;
        m.points = b.resident ? PointSpan<C>::resident(*b.resident, first, sel)
                              : PointSpan<C>::host(b.host.subspan(first, sel));
        m.scalars = ScalarSpan::device(cuda_of(r.scalars).data() + r.begin, r.count);
        if (r.density) m.density = std::span<const uint64_t>(r.density->words());
        mt.push_back(m);
        first += sel;
      }
    }
    MsmOptions opt;
    opt.device = ordinal_;
    return cuda::msm<C>(std::span<const MsmTerm<C>>(mt), opt);
  }

  // The MSM on host threads: the selected scalars copied back, the host
  // points, the CPU Pippenger.
  template <class C>
  ec::Jacobian<C> host_msm(std::span<const device::Term<C>> terms) {
    set_device(ordinal_);
    std::vector<std::vector<Scalar>> scalars;
    std::vector<msm::CanonicalPart<C>> parts;
    for (const device::Term<C>& t : terms) {
      const CudaBases<C>& b = cuda_of(t.bases);
      auto picked = select(t.runs);
      const auto& cs = cuda_of(picked.get());
      if (cs.size() != b.size())
        throw std::invalid_argument("msm: " + std::to_string(cs.size()) + " scalars selected for " +
                                    std::to_string(b.size()) + " bases");
      scalars.emplace_back(cs.size());
      if (cs.size()) cs.buf.download(scalars.back().data(), cs.size() * sizeof(Scalar));
    }
    for (size_t i = 0; i < terms.size(); i++) parts.push_back({cuda_of(terms[i].bases).host, scalars[i]});
    msm::Options mo;
    mo.threads = o_.host_threads;
    return msm::msm_parts_canonical<C>(parts, mo);
  }

  // The tables of recent H shapes (a daemon proving one circuit builds them once).
  std::shared_ptr<const DeviceHStep> h_step(const device::HStep& step) {
    std::lock_guard lk(h_mu_);
    for (auto it = h_steps_.begin(); it != h_steps_.end(); ++it)
      if ((*it)->same_shape(step)) {
        auto hs = *it;
        h_steps_.erase(it);
        h_steps_.push_back(hs);
        return hs;
      }
    auto hs = std::make_shared<const DeviceHStep>(step, ordinal_);
    h_steps_.push_back(hs);
    if (h_steps_.size() > 2) h_steps_.pop_front();  // twiddles take 32·n bytes of device memory
    return hs;
  }

  int ordinal_;
  BackendOptions o_;
  DeviceInfo info_;
  std::mutex h_mu_;
  std::deque<std::shared_ptr<const DeviceHStep>> h_steps_;
};

}  // namespace
CUZK_CUDA_NAMESPACE_END

namespace cuzk::cuda {

#if defined(CUZK_SIMT)
int emulated_device_count() noexcept { return emu::device_count(); }
std::unique_ptr<device::Backend> make_emulated_backend(int ordinal, const BackendOptions& options) {
  return std::make_unique<emu::CudaBackend>(ordinal, options);
}
#else
int gpu_device_count() noexcept { return gpu::device_count(); }
std::unique_ptr<device::Backend> make_gpu_backend(int ordinal, const BackendOptions& options) {
  return std::make_unique<gpu::CudaBackend>(ordinal, options);
}
#endif

}  // namespace cuzk::cuda
