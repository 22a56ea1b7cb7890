// The device MSM's planner (cuda/msm_plan.hpp), host only: the scratch it
// plans fits the budget, the pair indices fit 32 bits, windows grow with n,
// the caller's overrides win, and a tight budget makes chunks.
#include <gtest/gtest.h>

#include "cuda/msm_plan.hpp"

using namespace cuzk;
namespace plan = cuda::msm_plan;

namespace {

plan::Request request(size_t n, double budget, bool g2 = false, bool streamed = false) {
  plan::Request r;
  r.term_points = {n};
  r.sizes = {g2 ? 384u : 192u, g2 ? 200u : 104u, streamed, streamed, 1.0};
  r.budget_bytes = budget;
  return r;
}

constexpr double GiB = double(uint64_t(1) << 30);

}  // namespace

TEST(CudaMsmPlan, FitsTheBudgetAndThePairIndices) {
  for (bool g2 : {false, true})
    for (bool streamed : {false, true})
      for (double budget : {64.0 * (1 << 20), 1.0 * GiB, 8.0 * GiB})
        for (unsigned log_n : {0u, 1u, 4u, 10u, 16u, 20u, 24u, 26u, 27u}) {
          const plan::Plan p = plan::make_plan(request(size_t(1) << log_n, budget, g2, streamed));
          SCOPED_TRACE(testing::Message() << "g2 " << g2 << " streamed " << streamed << " budget " << budget
                                          << " log_n " << log_n << " c " << p.c);
          EXPECT_GE(p.c, 1u);
          EXPECT_LE(p.c, plan::kMaxPlanWindowBits);
          EXPECT_EQ(p.W, (256 + p.c - 1) / p.c);
          EXPECT_LE(p.bytes, budget);
          EXPECT_LT(uint64_t(p.chunk_points) * (p.W + 1), uint64_t(1) << 32);
          EXPECT_LE(p.chunk_points, plan::kMaxChunkPoints);
          EXPECT_GE(p.per_pair, 1u);
          EXPECT_GE(p.per_partial, 4u);
          EXPECT_LE(p.per_bucket, uint32_t(1) << (p.c - 1));
          EXPECT_EQ(p.chunks, ((size_t(1) << log_n) + p.chunk_points - 1) / p.chunk_points);
        }
}

TEST(CudaMsmPlan, WindowsGrowWithSize) {
  unsigned prev = 0;
  for (unsigned log_n = 0; log_n <= 26; log_n++) {
    const plan::Plan p = plan::make_plan(request(size_t(1) << log_n, 8 * GiB));
    EXPECT_GE(p.c, prev) << log_n;
    prev = p.c;
  }
  // Small inputs take small windows, 2^26 points wide ones in chunks of 2^24.
  EXPECT_LE(plan::make_plan(request(16, 8 * GiB)).c, 4u);
  const plan::Plan big = plan::make_plan(request(size_t(1) << 26, 8 * GiB));
  EXPECT_GE(big.c, 15u);
  EXPECT_EQ(big.chunk_points, plan::kMaxChunkPoints);
}

TEST(CudaMsmPlan, OverridesAndTightBudgets) {
  plan::Request r = request(5000, 8 * GiB);
  r.window_bits = 7;
  r.chunk_points = 300;
  r.pairs_per_thread = 3;
  r.partials_per_thread = 5;
  r.buckets_per_thread = 1000;  // more than the 64 buckets of a window
  const plan::Plan p = plan::make_plan(r);
  EXPECT_EQ(p.c, 7u);
  EXPECT_EQ(p.chunk_points, 300u);
  EXPECT_EQ(p.chunks, 17u);
  EXPECT_EQ(p.per_pair, 3u);
  EXPECT_EQ(p.per_partial, 5u);
  EXPECT_EQ(p.per_bucket, 64u);

  const plan::Plan tight = plan::make_plan(request(size_t(1) << 22, 256.0 * (1 << 20)));
  EXPECT_GT(tight.chunks, 1u);
  EXPECT_LE(tight.bytes, 256.0 * (1 << 20));
}

// Several terms: chunks never straddle two terms.
TEST(CudaMsmPlan, ChunksPerTerm) {
  plan::Request r = request(0, 8 * GiB);
  r.term_points = {10, 0, 25};
  r.chunk_points = 8;
  const plan::Plan p = plan::make_plan(r);
  EXPECT_EQ(p.chunk_points, 8u);
  EXPECT_EQ(p.chunks, 2u + 0u + 4u);
}
