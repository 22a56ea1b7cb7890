#pragma once
// The state of the block scheduler, shared by its two halves: block.cpp (the
// threads of a block as fibers, barriers, failures and deadlocks) and warp.cpp
// (the warp operations: shuffles, votes, reductions, matches, __activemask).
// Internal to those two files.
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "simt/block.hpp"
#include "simt/builtins.hpp"
#include "simt/fiber.hpp"

namespace cuzk::simt::detail {

constexpr unsigned kWarpSize = 32;

enum class State : uint8_t { running, at_barrier, at_warp_op, at_activemask, exited };

struct Fiber {
  Context ctx;
  std::unique_ptr<FiberStack> stack;
  unsigned thread = 0;  // the GPU thread (linear index in the block) it runs
  bool idle = true;     // between threads, parked in fiber_main's loop
};

struct Slot {  // one GPU thread of the running block
  Fiber* fiber;
  State state;
  WarpOp op;
  uint32_t mask;
  int src;        // shuffles: the lane read from
  uint64_t site;  // __activemask: where it was called
  uint64_t value, result;
};

struct Block {
  const BlockLaunch* launch = nullptr;
  cuda_api::uint3 idx{0, 0, 0};
  unsigned nthreads = 0, next_unstarted = 0, exited = 0;
  unsigned at_barrier = 0, barrier_true = 0, released_true = 0;
  std::vector<Slot> slots;
  // Lane bit masks per warp: arrived at a warp operation, not exited, parked
  // (waiting anywhere), waiting at __activemask.
  std::vector<uint32_t> warp_arrived, warp_alive, warp_parked, warp_at_active;
  std::vector<unsigned> barrier_waiters;
  std::vector<Fiber*> ready;  // FIFO from ready_head
  size_t ready_head = 0;
  bool failed = false;
  std::string failure;
};

struct HostThread {
  SwitchKind kind = SwitchKind::assembly;
  size_t stack_bytes = 0;
  Context main;
  std::vector<std::unique_ptr<Fiber>> fibers;
  std::vector<Fiber*> idle;
  Fiber* current = nullptr;
  bool in_block = false;
  uint64_t switches = 0;  // of the running block
  Block block;
  unsigned char* shared = nullptr;  // dynamic shared memory
  size_t shared_capacity = 0;

  ~HostThread() {
    if (shared) ::operator delete(shared, std::align_val_t(128));
  }
};

// Records the block's first failure; `t` is the thread it concerns, or -1.
void fail(Block& b, int t, const std::string& why);

// Parks the calling GPU thread in state `s` and runs whatever runs next.
void park(HostThread& h, State s);

// Abandons the calling thread after a failure was recorded: the host
// thread's context takes over and restarts this fiber later.
[[noreturn]] void abandon(HostThread& h);

// The host thread running the calling GPU thread; aborts, naming `what`,
// outside a kernel.
HostThread& kernel_host(const char* what);

// Makes thread `t` runnable again (it was parked).
inline void wake(Block& b, unsigned t) {
  b.slots[t].state = State::running;
  b.warp_parked[t / kWarpSize] &= ~(1u << (t % kWarpSize));
  b.ready.push_back(b.slots[t].fiber);
}

std::string hex(uint32_t v);  // "0x0000ffff"
const char* op_name(WarpOp op);

// warp.cpp: what an arrival, a park or an exit sets off in a warp.
// Completes every group of `warp` whose live lanes have all arrived; wakes
// their lanes except `self` (the caller's own thread, or -1). Returns whether
// self's group completed. A group whose lanes disagree fails the block.
bool try_complete_warp(Block& b, unsigned warp, int self);
// Answers the lanes of `warp` waiting at __activemask once no live lane of
// the warp is running or unstarted; `self` (or -1) is a lane arriving there
// now. Returns whether self was answered (it is not woken).
bool try_resolve_activemask(Block& b, unsigned warp, int self);

}  // namespace cuzk::simt::detail
