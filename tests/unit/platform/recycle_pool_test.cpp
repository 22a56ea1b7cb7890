// The recycling pool's account (every byte in and out reported) and
// free_recycled (frees across element types, the largest buffers first).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "platform/large_vector.hpp"
#include "platform/raw_array.hpp"
#include "platform/recycle_pool.hpp"

using namespace cuzk::platform;

namespace {

// Element types of their own, so other tests' buffers are not in their pools.
struct PoolProbeA {
  uint64_t x[4];
};
struct PoolProbeB {
  uint64_t x[2];
};

struct CountingAccount : RecycleAccount {
  size_t in = 0, out = 0, gone = 0, blocks_in = 0;
  void pooled(size_t bytes, Kind kind) override {
    in += bytes;
    if (kind == Kind::Block) blocks_in += bytes;
  }
  void reused(size_t bytes, Kind) override { out += bytes; }
  void freed(size_t bytes, Kind) override { gone += bytes; }
  size_t held() const { return in - out - gone; }
};

// Sets an account for a test and takes it away again.
struct ScopedAccount {
  explicit ScopedAccount(RecycleAccount* a) : a_(a) { old_ = set_recycle_account(a); }
  ~ScopedAccount() { set_recycle_account(old_); }
  RecycleAccount* a_;
  RecycleAccount* old_;
};

// A buffer of its own (not one taken from the pool).
template <class T>
std::vector<T> filled(size_t mib) {
  return std::vector<T>((mib << 20) / sizeof(T));
}

}  // namespace

TEST(RecyclePool, TheAccountHearsOfEveryByteInAndOut) {
  ScopedRecycleLimit recycling(size_t(1) << 30);
  drop_recycled<PoolProbeA>();
  drop_recycled_blocks();
  CountingAccount acct;
  ScopedAccount scoped(&acct);

  auto v = filled<PoolProbeA>(8);
  const PoolProbeA* p = v.data();
  recycle_large(v);
  EXPECT_EQ(acct.in, size_t(8) << 20);
  {
    RawArray<uint64_t> block((size_t(2) << 20) / 8);
  }  // a RawArray's block enters its own pool, reported the same way
  EXPECT_EQ(acct.in, size_t(10) << 20);
  EXPECT_EQ(acct.blocks_in, size_t(2) << 20);  // told apart from the vector
  std::vector<PoolProbeA> again;
  reserve_large(again, (size_t(8) << 20) / sizeof(PoolProbeA));
  EXPECT_EQ(again.data(), p);
  EXPECT_EQ(acct.out, size_t(8) << 20);
  // A buffer the pool refuses (limit reached) is neither pooled nor reported.
  {
    ScopedRecycleLimit full(recycled_bytes());
    recycle_large(again);
  }
  EXPECT_EQ(acct.in, size_t(10) << 20);
  drop_recycled_blocks();
  EXPECT_EQ(acct.gone, size_t(2) << 20);
  EXPECT_EQ(acct.held(), 0u);
}

TEST(RecyclePool, FreeRecycledFreesBlocksThenTheLargestBuffersAcrossTypes) {
  ScopedRecycleLimit recycling(size_t(1) << 30);
  free_recycled(SIZE_MAX);  // other tests' buffers, if any
  CountingAccount acct;
  ScopedAccount scoped(&acct);

  for (size_t mib : {6, 24, 12}) {
    auto v = filled<PoolProbeA>(mib);
    recycle_large(v);
  }
  auto w = filled<PoolProbeB>(16);
  recycle_large(w);
  EXPECT_EQ(acct.held(), size_t(58) << 20);

  { RawArray<uint64_t> block((size_t(4) << 20) / 8); }
  EXPECT_EQ(acct.held(), size_t(62) << 20);

  // 20 MiB asked: the block first (scratch), then within one type the
  // 24 MiB buffer alone answers the rest, or another type's 16 MiB; either
  // way the 6 MiB one stays.
  const size_t freed = free_recycled(size_t(20) << 20);
  EXPECT_GE(freed, size_t(20) << 20);
  EXPECT_EQ(acct.gone, freed);
  std::vector<PoolProbeA> small;
  reserve_large(small, (size_t(6) << 20) / sizeof(PoolProbeA));
  EXPECT_EQ(acct.out, size_t(6) << 20) << "the smallest buffer was not kept";
  EXPECT_EQ(free_recycled_blocks(SIZE_MAX), 0u) << "the block was not freed first";

  // Asked for more than there is: everything goes.
  free_recycled(SIZE_MAX);
  EXPECT_EQ(recycled_bytes(), 0u);
  EXPECT_EQ(acct.held(), 0u);
}

TEST(RecyclePool, UnsetOnlyRemovesTheAccountStillSet) {
  CountingAccount a, b;
  RecycleAccount* old = set_recycle_account(&a);
  set_recycle_account(&b);
  unset_recycle_account(&a);  // not a's any more: stays b
  ScopedRecycleLimit recycling(size_t(1) << 30);
  drop_recycled<PoolProbeA>();
  auto v = filled<PoolProbeA>(8);
  recycle_large(v);
  EXPECT_EQ(a.in, 0u);
  EXPECT_EQ(b.in, size_t(8) << 20);
  drop_recycled<PoolProbeA>();
  unset_recycle_account(&b);
  auto u = filled<PoolProbeA>(8);
  recycle_large(u);
  EXPECT_EQ(b.in, size_t(8) << 20);  // no account now
  drop_recycled<PoolProbeA>();
  set_recycle_account(old);
}
