#pragma once
// The CPU backend: the device seam (device/backend.hpp) over msm:: and ntt::
// on the calling thread's oneTBB arena (the engine runs it inside its
// device's arena, gpus.gpu_threads). Nothing is copied to "upload": bases
// are views of the parameter arrays, and the witness may be read in place in
// Montgomery form. Large scalar buffers come from the process's pool of
// resident buffers (platform/large_vector.hpp), which the daemon enables.
#include <string>

#include "device/backend.hpp"
#include "ntt/ntt.hpp"

namespace cuzk::device {

class CpuBackend final : public Backend {
 public:
  struct Options {
    msm::Options msm;  // threads 0: the calling arena's
    ntt::Options ntt;
    std::string name = "cpu";
  };
  CpuBackend();
  explicit CpuBackend(Options o);
  ~CpuBackend() override;

  std::string name() const override { return o_.name; }
  std::shared_ptr<const G1Bases> upload(msm::Points<G1Curve> points) override;
  std::shared_ptr<const G2Bases> upload(msm::Points<G2Curve> points) override;
  std::unique_ptr<Scalars> load_scalars(std::span<const ff::Fr> values, bool keep_montgomery_view) override;
  std::unique_ptr<Scalars> select(std::span<const Run> runs) override;
  void prepare_h(const HStep& step) override;
  std::unique_ptr<Scalars> compute_h(std::span<ff::Fr> a, std::span<ff::Fr> b, std::span<ff::Fr> c,
                                     const HStep& step) override;
  ec::G1Jacobian msm(std::span<const Term<G1Curve>> terms) override;
  ec::G2Jacobian msm(std::span<const Term<G2Curve>> terms) override;
  using Backend::msm;

  const Options& options() const { return o_; }
  // The canonical integers a handle of this backend holds (empty for a view
  // of Montgomery values): for tests and CPU-only callers.
  static std::span<const Scalar> canonical(const Scalars& s);

 private:
  // The NTT domains of recent H steps (twiddle tables), by size and root:
  // a daemon proving partitions of one circuit builds them once.
  std::shared_ptr<const ntt::Domain> domain(const HStep& step);
  Options o_;
  struct DomainCache;
  std::unique_ptr<DomainCache> domains_;
};

// A process-wide CPU backend with default options (callers that give no device).
CpuBackend& cpu_backend();

}  // namespace cuzk::device
