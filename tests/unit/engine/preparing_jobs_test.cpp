// PreparingJobs: the synthesis_concurrency bound and its one exception.
#include "engine/preparing_jobs.hpp"

#include <gtest/gtest.h>

namespace cuzk::engine {
namespace {

TEST(PreparingJobs, BoundedByTheLimitExceptAboveEveryPreparingPriority) {
  PreparingJobs p(2);
  EXPECT_TRUE(p.may_start(Priority::Low));
  p.begin(Priority::Normal);
  EXPECT_TRUE(p.may_start(Priority::Low));  // under the limit: any priority
  p.begin(Priority::Low);
  EXPECT_EQ(p.count(), 2u);
  EXPECT_FALSE(p.may_start(Priority::Low));
  EXPECT_FALSE(p.may_start(Priority::Normal));  // equal is not above
  EXPECT_TRUE(p.may_start(Priority::High));
  p.begin(Priority::Critical);  // over the limit, above both
  EXPECT_FALSE(p.may_start(Priority::High));
  EXPECT_FALSE(p.may_start(Priority::Critical));
  p.end(Priority::Critical);
  EXPECT_TRUE(p.may_start(Priority::High));
  p.end(Priority::Normal);
  EXPECT_TRUE(p.may_start(Priority::Low));  // one preparing, limit 2
  p.end(Priority::Low);
  EXPECT_EQ(p.count(), 0u);
}

TEST(PreparingJobs, ALimitOfZeroMeansOne) {
  PreparingJobs p(0);
  EXPECT_TRUE(p.may_start(Priority::Normal));
  p.begin(Priority::Normal);
  EXPECT_FALSE(p.may_start(Priority::Normal));
}

}  // namespace
}  // namespace cuzk::engine
