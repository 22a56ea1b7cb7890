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
#include "cuda/staging.hpp"
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

// Canonical scalars in device memory, written by work queued on the
// backend's compute stream (every reader runs on that stream, or after it).
// `keep`: device buffers that work still queued reads (a, b, c of the H
// step, a density bitmap), freed with the handle.
class CudaScalars final : public device::Scalars {
 public:
  CudaScalars(size_t n) : buf(std::max<size_t>(n, 1) * sizeof(Scalar)), n(n) {}
  size_t size() const override { return n; }
  Scalar* data() const { return static_cast<Scalar*>(buf.get()); }
  DeviceBuffer buf;
  size_t n;
  std::vector<DeviceBuffer> keep;
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

DevFr* dev_fr(void* p) { return static_cast<DevFr*>(p); }
cudaStream_t as_stream(void* s) { return static_cast<cudaStream_t>(s); }

class CudaBackend final : public device::Backend {
 public:
  CudaBackend(int ordinal, const BackendOptions& o)
      : ordinal_((set_device(ordinal), ordinal)), o_(o), info_(device_info(ordinal)) {}

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

  // Copies go through the stager on the copy stream; the work that needs
  // them waits for their events on the compute stream, so uploads overlap
  // the work already queued (the witness's upload runs beside the H step).
  std::unique_ptr<device::Scalars> load_scalars(std::span<const ff::Fr> values, bool) override {
    set_device(ordinal_);
    auto s = std::make_unique<CudaScalars>(values.size());
    if (!values.empty()) {
      Event copied;
      stager_.upload(s->data(), values.data(), values.size_bytes(), copy_.get(), copied);
      copied.wait_on(compute_.get());
      // ff::Fr and DevFr share their bits: converted in place.
      check(detail::launch_to_canonical(dev_fr(s->data()), dev_fr(s->data()), values.size(), compute_.get()),
            "cuda backend: scalars out of Montgomery form");
    }
    return s;
  }

  std::unique_ptr<device::Scalars> select(std::span<const Run> runs) override {
    set_device(ordinal_);
    size_t total = 0;
    for (const Run& r : runs) {
      device::check_run(r);
      total += r.selected();
    }
    auto out = std::make_unique<CudaScalars>(total);
    size_t at = 0;
    for (const Run& r : runs) {
      const CudaScalars& in = cuda_of(r.scalars);
      if (!r.density) {
        if (r.count)
          check(cudaMemcpyAsync(out->data() + at, in.data() + r.begin, r.count * sizeof(Scalar),
                                cudaMemcpyDeviceToDevice, as_stream(compute_.get())),
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
        // From pageable memory: the calls return once the host bytes are taken.
        check(cudaMemcpyAsync(dw.get(), words.data(), dw.bytes(), cudaMemcpyHostToDevice,
                              as_stream(compute_.get())),
              "cuda backend: select (bitmap)");
        check(cudaMemcpyAsync(db.get(), before.data(), db.bytes(), cudaMemcpyHostToDevice,
                              as_stream(compute_.get())),
              "cuda backend: select (ranks)");
        check(detail::launch_select(dev_fr(out->data() + at), dev_fr(in.data() + r.begin),
                                    static_cast<const uint64_t*>(dw.get()),
                                    static_cast<const uint64_t*>(db.get()), r.count, compute_.get()),
              "cuda backend: select");
        out->keep.push_back(std::move(dw));
        out->keep.push_back(std::move(db));
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
      throw std::invalid_argument("cuda backend: a, b, c must have the domain's " + std::to_string(n) +
                                  " elements");
    const auto hs = h_step(step);
    set_device(ordinal_);
    auto out = std::make_unique<CudaScalars>(hs->output_size());
    ff::Fr* dev_abc[3];
    std::span<ff::Fr> host_abc[3] = {a, b, c};
    for (int v = 0; v < 3; v++) {
      out->keep.emplace_back(host_abc[v].size_bytes());
      dev_abc[v] = static_cast<ff::Fr*>(out->keep.back().get());
    }
    // Each vector's transform starts as soon as it is on the device, while
    // the next one is copied.
    for (int v = 0; v < 3; v++) {
      Event copied;
      stager_.upload(dev_abc[v], host_abc[v].data(), host_abc[v].size_bytes(), copy_.get(), copied);
      copied.wait_on(compute_.get());
      hs->to_coset(dev_abc[v], compute_.get());
    }
    hs->finish(dev_abc[0], dev_abc[1], dev_abc[2], out->data(), compute_.get());
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
      device::check_term(t);
      const CudaBases<C>& b = cuda_of(t.bases);
      size_t first = 0;  // each run takes the next points
      for (const Run& r : t.runs) {
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
    opt.stream = compute_.get();  // after the work that wrote the scalars; synchronous
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
      device::check_term(t);
      auto picked = select(t.runs);
      compute_.synchronize();  // the scalars are written by work on the compute stream
      const auto& cs = cuda_of(picked.get());
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
  // Made on the backend's device (the constructor sets it first).
  Stream compute_, copy_;
  Stager stager_;
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
