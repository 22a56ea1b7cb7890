// SynthesisPacer: the device-queue bound and the tail throttle.
#include "engine/synthesis_pacer.hpp"

#include <gtest/gtest.h>

namespace cuzk::engine {
namespace {

TEST(SynthesisPacer, QueuedPlusSynthesizingStayUnderTheDepth) {
  SynthesisPacer p(false, 3);
  EXPECT_TRUE(p.may_take(2));
  EXPECT_FALSE(p.may_take(3));
  p.took();
  p.took();
  EXPECT_EQ(p.synthesizing(), 2u);
  EXPECT_FALSE(p.may_take(1));  // 1 queued + 2 in synthesis
  EXPECT_TRUE(p.may_take(0));
  p.released();
  EXPECT_TRUE(p.may_take(1));
  p.tail_started();  // no throttle configured: tails do not matter
  EXPECT_TRUE(p.may_take(1));
}

TEST(SynthesisPacer, DepthZeroIsUnboundedAndTheThrottleHoldsDuringTails) {
  SynthesisPacer off(false, 0);
  for (int i = 0; i < 100; i++) off.took();
  EXPECT_TRUE(off.may_take(1000));
  SynthesisPacer p(true, 0);
  EXPECT_TRUE(p.may_take(0));
  p.tail_started();
  p.tail_started();
  EXPECT_FALSE(p.may_take(0));
  p.tail_ended();
  EXPECT_FALSE(p.may_take(0));
  p.tail_ended();
  EXPECT_TRUE(p.may_take(0));
}

}  // namespace
}  // namespace cuzk::engine
