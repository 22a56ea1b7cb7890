// The device MSM's other inputs against the CPU MSM: points in chunks
// (resident and streamed from host memory), scalars in device memory,
// densities (Groth16's A/B queries), several terms in one call, and the
// errors it reports.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "msm_test_util.hpp"

using namespace cuzk;
using cuda::MsmOptions;
using cuda::MsmStats;
using cuda::test::ScalarKind;
using cuda::test::Scalars;

namespace {

template <class C>
class CudaMsmInputs : public ::testing::Test {};
using MsmInputCurves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(CudaMsmInputs, MsmInputCurves);

template <class C>
constexpr size_t size_for(size_t g1) {
  return std::is_same_v<C, ec::G2Curve> ? g1 / 3 : g1;
}

template <class C>
ec::Affine<C> run_terms(std::span<const cuda::MsmTerm<C>> terms, const MsmOptions& opt,
                        MsmStats* st = nullptr) {
  return cuda::msm<C>(terms, opt, st).to_affine();
}

}  // namespace

TYPED_TEST(CudaMsmInputs, ChunksResidentAndStreamed) {
  CUZK_SKIP_WITHOUT_DEVICE();
  using C = TypeParam;
  std::mt19937_64 rng(5);
  const size_t n = size_for<C>(900);
  const auto pts = cuda::test::random_points<C>(n, rng);
  const cuda::DevicePoints<C> dp(pts);
  for (ScalarKind kind : {ScalarKind::uniform, ScalarKind::filecoin}) {
    const auto s = cuda::test::make_scalars(kind, n, rng);
    const auto want = cuda::test::cpu_msm<C>(pts, s);
    cuda::DeviceBuffer ds(s.size() * sizeof(s[0]));
    ds.upload(s.data(), ds.bytes());
    const auto dev_scalars = cuda::ScalarSpan::device(static_cast<const arith::Limbs<4>*>(ds.get()), n);
    for (size_t chunk : {size_t(0), size_t(7), size_t(128)}) {
      MsmOptions opt;
      opt.chunk_points = chunk;
      const std::string what = std::string(cuda::test::kind_name(kind)) + " chunk " + std::to_string(chunk);
      MsmStats st;
      const cuda::MsmTerm<C> resident{cuda::PointSpan<C>::resident(dp), cuda::ScalarSpan::host(s)};
      EXPECT_EQ(run_terms<C>({&resident, 1}, opt, &st), want) << "resident, " << what;
      EXPECT_EQ(st.chunks, chunk ? (n + chunk - 1) / chunk : 1) << what;
      const cuda::MsmTerm<C> streamed{cuda::PointSpan<C>::host(pts), cuda::ScalarSpan::host(s)};
      EXPECT_EQ(run_terms<C>({&streamed, 1}, opt), want) << "streamed, " << what;
      const cuda::MsmTerm<C> dev{cuda::PointSpan<C>::host(pts), dev_scalars};
      EXPECT_EQ(run_terms<C>({&dev, 1}, opt), want) << "streamed, device scalars, " << what;
    }
  }
}

// A scratch budget too small for all the points at once: the planner cuts
// them into chunks by itself.
TYPED_TEST(CudaMsmInputs, SmallScratchBudgetMakesChunks) {
  CUZK_SKIP_WITHOUT_DEVICE();
  using C = TypeParam;
  std::mt19937_64 rng(6);
  const size_t n = std::is_same_v<C, ec::G2Curve> ? 300 : 600;
  const auto pts = cuda::test::random_points<C>(n, rng);
  const auto s = cuda::test::make_scalars(ScalarKind::uniform, n, rng);
  MsmOptions opt;
  opt.window_bits = 6;
  opt.scratch_bytes = 1 << 20;
  MsmStats st;
  const cuda::MsmTerm<C> t{cuda::PointSpan<C>::host(pts), cuda::ScalarSpan::host(s)};
  EXPECT_EQ(run_terms<C>({&t, 1}, opt, &st), cuda::test::cpu_msm<C>(pts, s));
  EXPECT_GT(st.chunks, 1u);
}

TYPED_TEST(CudaMsmInputs, Density) {
  CUZK_SKIP_WITHOUT_DEVICE();
  using C = TypeParam;
  std::mt19937_64 rng(7);
  const size_t S = size_for<C>(1000) + 37;  // not a multiple of 64
  for (double fill : {0.0, 0.05, 0.5, 1.0}) {
    const auto all = cuda::test::make_scalars(ScalarKind::edge, S, rng);
    auto density = cuda::test::random_density(S, fill, rng);
    density.push_back(~0ull);  // words beyond the scalars are ignored
    const Scalars sel = cuda::test::selected(all, density);
    const auto pts = cuda::test::random_points<C>(sel.size(), rng);
    const auto want = cuda::test::cpu_msm<C>(pts, sel);
    const cuda::DevicePoints<C> dp(pts);
    cuda::DeviceBuffer ds(all.size() * sizeof(all[0]));
    ds.upload(all.data(), ds.bytes());
    const auto dev_all = cuda::ScalarSpan::device(static_cast<const arith::Limbs<4>*>(ds.get()), all.size());
    for (size_t chunk : {size_t(0), size_t(50)}) {
      MsmOptions opt;
      opt.chunk_points = chunk;
      const std::string what = "fill " + std::to_string(fill) + " chunk " + std::to_string(chunk);
      const cuda::MsmTerm<C> t{cuda::PointSpan<C>::resident(dp), cuda::ScalarSpan::host(all), density};
      EXPECT_EQ(run_terms<C>({&t, 1}, opt), want) << what;
      const cuda::MsmTerm<C> h{cuda::PointSpan<C>::host(pts), cuda::ScalarSpan::host(all), density};
      EXPECT_EQ(run_terms<C>({&h, 1}, opt), want) << "streamed, " << what;
      const cuda::MsmTerm<C> d{cuda::PointSpan<C>::resident(dp), dev_all, density};
      EXPECT_EQ(run_terms<C>({&d, 1}, opt), want) << "device scalars, " << what;
    }
  }
}

// A Groth16 B query's shape: points [0, a) pair with the inputs selected by
// one density, points [a, n) with the aux scalars selected by another;
// plus a streamed term. One call, one sum.
TYPED_TEST(CudaMsmInputs, SeveralTerms) {
  CUZK_SKIP_WITHOUT_DEVICE();
  using C = TypeParam;
  std::mt19937_64 rng(8);
  const size_t n_in = 40, n_aux = size_for<C>(700);
  const auto inputs = cuda::test::make_scalars(ScalarKind::filecoin, n_in, rng);
  const auto aux = cuda::test::make_scalars(ScalarKind::uniform, n_aux, rng);
  const auto d_in = cuda::test::random_density(n_in, 0.7, rng);
  const auto d_aux = cuda::test::random_density(n_aux, 0.6, rng);
  const Scalars sel_in = cuda::test::selected(inputs, d_in), sel_aux = cuda::test::selected(aux, d_aux);
  const auto pts = cuda::test::random_points<C>(sel_in.size() + sel_aux.size(), rng);
  const cuda::DevicePoints<C> dp(pts);
  const size_t n_host = size_for<C>(300);
  const auto host_pts = cuda::test::random_points<C>(n_host, rng);
  const auto host_s = cuda::test::make_scalars(ScalarKind::edge, n_host, rng);

  std::vector<ec::Affine<C>> all_pts = pts;
  all_pts.insert(all_pts.end(), host_pts.begin(), host_pts.end());
  Scalars all_s = sel_in;
  all_s.insert(all_s.end(), sel_aux.begin(), sel_aux.end());
  all_s.insert(all_s.end(), host_s.begin(), host_s.end());
  const auto want = cuda::test::cpu_msm<C>(all_pts, all_s);

  const cuda::MsmTerm<C> terms[] = {
      {cuda::PointSpan<C>::resident(dp, 0, sel_in.size()), cuda::ScalarSpan::host(inputs), d_in},
      {cuda::PointSpan<C>::resident(dp, sel_in.size()), cuda::ScalarSpan::host(aux), d_aux},
      {cuda::PointSpan<C>::host(host_pts), cuda::ScalarSpan::host(host_s)}};
  for (size_t chunk : {size_t(0), size_t(64)}) {
    MsmOptions opt;
    opt.chunk_points = chunk;
    EXPECT_EQ(run_terms<C>(terms, opt), want) << "chunk " << chunk;
  }
  EXPECT_TRUE(run_terms<C>({}, {}).infinity);
}

TYPED_TEST(CudaMsmInputs, RejectsInconsistentInputs) {
  CUZK_SKIP_WITHOUT_DEVICE();
  using C = TypeParam;
  std::mt19937_64 rng(9);
  const auto pts = cuda::test::random_points<C>(10, rng);
  const auto s = cuda::test::make_scalars(ScalarKind::uniform, 11, rng);
  const cuda::MsmTerm<C> mismatch{cuda::PointSpan<C>::host(pts), cuda::ScalarSpan::host(s)};
  EXPECT_THROW(run_terms<C>({&mismatch, 1}, {}), std::invalid_argument);
  const std::vector<uint64_t> nine = {0x1ff};  // 9 of the 11 scalars for 10 points
  const cuda::MsmTerm<C> bad_density{cuda::PointSpan<C>::host(pts), cuda::ScalarSpan::host(s), nine};
  EXPECT_THROW(run_terms<C>({&bad_density, 1}, {}), std::invalid_argument);
  const cuda::MsmTerm<C> ok{cuda::PointSpan<C>::host(pts), cuda::ScalarSpan::host({s.data(), 10})};
  MsmOptions wide;
  wide.window_bits = cuda::kMaxWindowBits + 1;
  EXPECT_THROW(run_terms<C>({&ok, 1}, wide), std::invalid_argument);
  MsmOptions few;
  few.partials_per_thread = 3;
  EXPECT_THROW(run_terms<C>({&ok, 1}, few), std::invalid_argument);
  EXPECT_EQ(run_terms<C>({&ok, 1}, {}), cuda::test::cpu_msm<C>(pts, Scalars(s.begin(), s.begin() + 10)));
  // A CUDA failure (here: no such device) is a cuda::Error that names the call.
  MsmOptions nowhere;
  nowhere.device = 1000;
  try {
    run_terms<C>({&ok, 1}, nowhere);
    ADD_FAILURE() << "no error for device 1000";
  } catch (const cuda::Error& e) {
    EXPECT_NE(std::string(e.what()).find("cuda::msm: cudaSetDevice"), std::string::npos) << e.what();
  }
  // More points than any device holds (2^40): the allocation's error, named.
  try {
    (void)cuda::DevicePoints<C>::repeated(pts, size_t(1) << 40);
    ADD_FAILURE() << "no error for 2^40 points";
  } catch (const cuda::Error& e) {
    EXPECT_NE(std::string(e.what()).find("cuda::msm: cudaMalloc"), std::string::npos) << e.what();
  }
  // The layer still works after both failures.
  EXPECT_EQ(run_terms<C>({&ok, 1}, {}), cuda::test::cpu_msm<C>(pts, Scalars(s.begin(), s.begin() + 10)));
}
