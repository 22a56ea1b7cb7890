// cuzk's MSM against blst's Pippenger, side by side in one process: the same
// points and scalars, the two alternating rep by rep, both results checked
// equal. Built and run by scripts/bench-vs-blst.sh, which builds blst from
// its public source (not part of the project's build; the project builds and
// tests without it).
//
//   msm_vs_blst [--group g1 g2] [--log-n 16 18] [--scalars uniform filecoin]
//               [--threads 1] [--reps 5]
//
// blst's C entry points (blst_p1s_mult_pippenger / blst_p2s_...) run on the
// calling thread, so it is always one thread; --threads sets cuzk's. One line
// per configuration: medians, minimums and blst / cuzk. CUZK_NO_IFMA=1 or
// CUZK_NO_ASM=1 in the environment time cuzk's other kernels.
#include <blst.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "ec/encoding.hpp"
#include "micro_common.hpp"
#include "micro_msm_inputs.hpp"
#include "msm/msm.hpp"
#include "platform/cpu_features.hpp"
#include "platform/large_vector.hpp"

namespace {

using namespace cuzk;
using bench_cli::stats_of;

template <class C>
struct Blst;
template <>
struct Blst<ec::G1Curve> {
  using Aff = blst_p1_affine;
  using Jac = blst_p1;
  static constexpr size_t kRaw = 96, kCompressed = 48;
  static bool decode(Aff* out, const uint8_t* raw) { return blst_p1_deserialize(out, raw) == BLST_SUCCESS; }
  static size_t scratch_bytes(size_t n) { return blst_p1s_mult_pippenger_scratch_sizeof(n); }
  static void msm(Jac* r, const Aff* pts, size_t n, const uint8_t* sc, limb_t* scratch) {
    const Aff* pp[2] = {pts, nullptr};
    const uint8_t* sp[2] = {sc, nullptr};
    blst_p1s_mult_pippenger(r, pp, n, sp, 255, scratch);
  }
  static void compress(uint8_t* out, const Jac* p) { blst_p1_compress(out, p); }
};
template <>
struct Blst<ec::G2Curve> {
  using Aff = blst_p2_affine;
  using Jac = blst_p2;
  static constexpr size_t kRaw = 192, kCompressed = 96;
  static bool decode(Aff* out, const uint8_t* raw) { return blst_p2_deserialize(out, raw) == BLST_SUCCESS; }
  static size_t scratch_bytes(size_t n) { return blst_p2s_mult_pippenger_scratch_sizeof(n); }
  static void msm(Jac* r, const Aff* pts, size_t n, const uint8_t* sc, limb_t* scratch) {
    const Aff* pp[2] = {pts, nullptr};
    const uint8_t* sp[2] = {sc, nullptr};
    blst_p2s_mult_pippenger(r, pp, n, sp, 255, scratch);
  }
  static void compress(uint8_t* out, const Jac* p) { blst_p2_compress(out, p); }
};

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

template <class C>
int run(const char* gname, const std::vector<int>& log_ns, const std::vector<std::string>& kinds,
        unsigned threads, int reps) {
  using B = Blst<C>;
  int max_log = 0;
  for (int l : log_ns) max_log = std::max(max_log, l);
  const auto pts = bench_cli::make_msm_points<C>(size_t(1) << max_log, 1234);
  // blst's copies in 2 MiB pages too, as cuzk's (micro_msm_inputs.hpp).
  auto bpts = platform::large_vector<typename B::Aff>(pts.size());
  for (size_t i = 0; i < pts.size(); i++) {
    const auto raw = ec::to_uncompressed<C>(pts[i]);
    if (!B::decode(&bpts[i], raw.data())) {
      std::fprintf(stderr, "blst rejected point %zu\n", i);
      return 1;
    }
  }
  int failures = 0;
  for (int log_n : log_ns) {
    const size_t n = size_t(1) << log_n;
    for (const std::string& kind : kinds) {
      const auto ks = bench_cli::make_msm_scalars(n, kind, 5678 + uint64_t(log_n));
      auto can = platform::large_vector<arith::Limbs<4>>(n);
      auto bytes = platform::large_vector<uint8_t>(32 * n);
      for (size_t i = 0; i < n; i++) {
        can[i] = ks[i].to_canonical();
        for (size_t j = 0; j < 4; j++)
          for (size_t b = 0; b < 8; b++) bytes[32 * i + 8 * j + b] = uint8_t(can[i][j] >> (8 * b));
      }
      std::vector<limb_t> scratch(B::scratch_bytes(n) / sizeof(limb_t) + 1);
      const std::span<const ec::Affine<C>> ps(pts.data(), n);
      const msm::Options opt{threads, 0};
      std::vector<double> tb, tc;
      typename B::Jac rb;
      ec::Jacobian<C> rc;
      // One untimed run of each first (page faults of fresh buffers, clocks).
      for (int r = -1; r < reps; r++) {
        auto t0 = std::chrono::steady_clock::now();
        B::msm(&rb, bpts.data(), n, bytes.data(), scratch.data());
        const double b_ms = ms_since(t0);
        t0 = std::chrono::steady_clock::now();
        rc = msm::msm_canonical<C>(ps, can, opt);
        const double c_ms = ms_since(t0);
        if (r >= 0) {
          tb.push_back(b_ms);
          tc.push_back(c_ms);
        }
      }
      uint8_t eb[B::kCompressed];
      B::compress(eb, &rb);
      const auto ec_ = ec::to_compressed<C>(rc.to_affine());
      const bool same = std::memcmp(eb, ec_.data(), B::kCompressed) == 0;
      failures += !same;
      const auto sb = stats_of(tb), sc = stats_of(tc);
      std::printf(
          "%s n=2^%d scalars=%-8s cuzk threads=%u%s: blst %9.1f ms (min %9.1f)  cuzk %8.1f ms (min %8.1f)  "
          "blst/cuzk %.2f (of minimums %.2f)  results %s\n",
          gname, log_n, kind.c_str(), threads,
          platform::use_ifma()  ? " ifma"
          : platform::use_adx() ? " mulx"
                                : " portable",
          sb.median, sb.min, sc.median, sc.min, sb.median / sc.median, sb.min / sc.min,
          same ? "equal" : "DIFFER");
      std::fflush(stdout);
    }
  }
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  // blst's scratch is allocated once and reused (below); cuzk's is reused
  // through the recycling pool, as in the daemon (engine.cpp).
  cuzk::platform::set_recycle_limit(size_t(1) << 30);
  std::vector<std::string> groups{"g1"}, kinds{"uniform"};
  std::vector<int> log_ns{16};
  unsigned threads = 1;
  int reps = 5;
  std::vector<std::string>* list = nullptr;
  std::vector<int>* ints = nullptr;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a.rfind("--", 0) == 0) {
      list = nullptr;
      ints = nullptr;
      if (a == "--group") (list = &groups)->clear();
      else if (a == "--scalars") (list = &kinds)->clear();
      else if (a == "--log-n") (ints = &log_ns)->clear();
      else if (a == "--threads" && i + 1 < argc) threads = unsigned(std::atoi(argv[++i]));
      else if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
      else {
        std::fprintf(stderr,
                     "usage: %s [--group g1 g2] [--log-n N...] [--scalars uniform filecoin] "
                     "[--threads T] [--reps R]\n",
                     argv[0]);
        return 2;
      }
    } else if (list) {
      list->push_back(a);
    } else if (ints) {
      ints->push_back(std::atoi(a.c_str()));
    }
  }
  int failures = 0;
  for (const auto& g : groups) {
    if (g == "g1") failures += run<ec::G1Curve>("g1", log_ns, kinds, threads, reps);
    else if (g == "g2") failures += run<ec::G2Curve>("g2", log_ns, kinds, threads, reps);
  }
  if (failures) std::fprintf(stderr, "%d configuration(s) gave different results\n", failures);
  return failures ? 1 : 0;
}
