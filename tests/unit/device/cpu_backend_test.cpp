// The CPU backend against the backend conformance suite, with its own
// options: the caller's arena, and two threads of its own.
#include "unit/device/backend_conformance.hpp"

#include "device/cpu_backend.hpp"

namespace cuzk::device::test {
namespace {

std::unique_ptr<Backend> cpu_default() { return std::make_unique<CpuBackend>(); }
std::unique_ptr<Backend> cpu_two_threads() {
  CpuBackend::Options o;
  o.msm.threads = 2;
  o.ntt.threads = 2;
  o.name = "cpu (2 threads)";
  return std::make_unique<CpuBackend>(o);
}

INSTANTIATE_TEST_SUITE_P(Cpu, BackendConformance,
                         testing::Values(BackendCase{"default", cpu_default, 3000},
                                         BackendCase{"two_threads", cpu_two_threads, 3000}),
                         [](const testing::TestParamInfo<BackendCase>& i) { return i.param.name; });

}  // namespace
}  // namespace cuzk::device::test
