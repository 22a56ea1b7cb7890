// The block scheduler: the threads of one CUDA block as fibers of one host
// thread.
//
// A fiber runs GPU threads one after another: it takes the next thread not
// yet started, runs the kernel for it, and takes the next, so a kernel that
// never waits runs every thread of the block straight through on one fiber,
// without a switch. A thread that waits (__syncthreads, a shuffle, a vote)
// parks its fiber; the next fiber to run is a woken one if any, else a fresh
// or idle fiber takes the next unstarted thread. A barrier releases when
// every thread of the block has arrived; a warp operation completes when
// every lane named in its mask that has not exited has arrived (CUDA's rule),
// checking that they all called the same operation with the same mask. When
// nothing can run and threads still wait, the block has deadlocked: the
// launch fails with the reason instead of hanging.
//
// Fibers and their stacks belong to the host thread and are reused by every
// block it runs; a failed block's abandoned fibers are restarted, not
// unwound. The warp operations are in warp.cpp, the state both files share
// in block_state.hpp.
#include "simt/block.hpp"

#include <atomic>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "simt/control.hpp"
#include "simt/fiber.hpp"
#include "simt/overflow.hpp"
#include "simt/block_state.hpp"
#include "simt/state.hpp"

namespace cuzk::simt::detail {

using cuda_api::uint3;

namespace {

thread_local std::unique_ptr<HostThread> tl_host;
std::atomic<uint64_t> g_switches{0};

HostThread& host() {
  if (!tl_host) {
    tl_host = std::make_unique<HostThread>();
    watch_stack_overflows();
  }
  return *tl_host;
}

[[noreturn]] void fatal(const char* what) {
  std::fprintf(stderr, "simt: %s\n", what);
  std::abort();
}

uint3 thread_idx(const Block& b, unsigned t) {
  const unsigned bx = b.launch->block.x, by = b.launch->block.y;
  return {t % bx, (t / bx) % by, t / (bx * by)};
}

std::string coords(uint3 v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}

void fiber_main(void* arg);

Fiber* take_idle_fiber(HostThread& h) {
  if (!h.idle.empty()) {
    Fiber* f = h.idle.back();
    h.idle.pop_back();
    return f;
  }
  auto f = std::make_unique<Fiber>();
  f->stack = std::make_unique<FiberStack>(h.stack_bytes);
  make_context(h.kind, f->ctx, *f->stack, fiber_main, f.get());
  h.fibers.push_back(std::move(f));
  return h.fibers.back().get();
}

// The fiber to run next, or null for the host thread's own context (the
// block is done, failed or deadlocked).
Fiber* next_runnable(HostThread& h) {
  Block& b = h.block;
  if (b.failed) return nullptr;
  if (b.ready_head < b.ready.size()) {
    Fiber* f = b.ready[b.ready_head++];
    if (b.ready_head == b.ready.size()) {
      b.ready.clear();
      b.ready_head = 0;
    }
    return f;
  }
  if (b.next_unstarted < b.nthreads) return take_idle_fiber(h);
  return nullptr;
}

// Suspends `self` and resumes whatever runs next.
void switch_away(HostThread& h, Fiber* self) {
  Fiber* to = next_runnable(h);
  h.current = to;
  if (to) {
    to->idle = false;
    cuda_api::threadIdx = thread_idx(h.block, to->thread);
  }
  h.switches++;
  switch_context(h.kind, self->ctx, to ? to->ctx : h.main);
}

}  // namespace

void fail(Block& b, int t, const std::string& why) {
  if (b.failed) return;
  b.failed = true;
  b.failure = "kernel '" + std::string(b.launch->name) + "' block " + coords(b.idx);
  if (t >= 0) b.failure += " thread " + coords(thread_idx(b, unsigned(t)));
  b.failure += ": " + why;
}

void park(HostThread& h, State s) {
  Fiber* self = h.current;
  Block& b = h.block;
  const unsigned t = self->thread;
  b.slots[t].state = s;
  b.warp_parked[t / kWarpSize] |= 1u << (t % kWarpSize);
  if (b.warp_at_active[t / kWarpSize]) try_resolve_activemask(b, t / kWarpSize, -1);
  switch_away(h, self);
}

[[noreturn]] void abandon(HostThread& h) {
  switch_away(h, h.current);
  fatal("an abandoned fiber was resumed");
}

namespace {

void thread_exited(Block& b, unsigned t) {
  b.slots[t].state = State::exited;
  b.exited++;
  const unsigned w = t / kWarpSize;
  b.warp_alive[w] &= ~(1u << (t % kWarpSize));
  // Lanes waiting for this one at a warp operation no longer need it.
  if (b.warp_arrived[w]) try_complete_warp(b, w, -1);
  if (b.warp_at_active[w]) try_resolve_activemask(b, w, -1);
}

void fiber_main(void* arg) {
  Fiber* self = static_cast<Fiber*>(arg);
  HostThread& h = host();
  for (;;) {
    Block& b = h.block;
    while (!b.failed && b.next_unstarted < b.nthreads) {
      const unsigned t = b.next_unstarted++;
      self->thread = t;
      b.slots[t].fiber = self;
      b.slots[t].state = State::running;
      cuda_api::threadIdx = thread_idx(b, t);
      try {
        b.launch->body.invoke(b.launch->body.object);
      } catch (const std::exception& e) {
        fail(b, int(t), std::string("exception: ") + e.what());
      } catch (...) {
        fail(b, int(t), "exception (not a std::exception)");
      }
      if (!b.failed) thread_exited(b, t);
    }
    self->idle = true;
    h.idle.push_back(self);
    switch_away(h, self);
  }
}

// Why the block cannot go on although threads still wait.
std::string deadlock_reason(const Block& b) {
  auto lanes_at = [&](unsigned w, State st) {
    uint32_t m = 0;
    for (unsigned i = 0; i < kWarpSize && w * kWarpSize + i < b.nthreads; i++)
      if (b.slots[w * kWarpSize + i].state == st && w * kWarpSize + i < b.next_unstarted) m |= 1u << i;
    return m;
  };
  if (b.at_barrier > 0 && b.exited > 0) {
    unsigned first_exited = 0;
    while (b.slots[first_exited].state != State::exited) first_exited++;
    return "deadlock: " + std::to_string(b.at_barrier) + " of the block's " + std::to_string(b.nthreads) +
           " threads wait at __syncthreads while " + std::to_string(b.exited) + " have exited (thread " +
           coords(thread_idx(b, first_exited)) +
           " among them): a barrier that not every thread of the block reaches";
  }
  for (unsigned w = 0; w * kWarpSize < b.nthreads; w++) {
    const uint32_t arrived = b.warp_arrived[w];
    if (!arrived) continue;
    const Slot& lead = b.slots[w * kWarpSize + unsigned(std::countr_zero(arrived))];
    const uint32_t missing = lead.mask & b.warp_alive[w] & ~arrived;
    std::string r = "deadlock: warp " + std::to_string(w) + ": lanes " + hex(arrived) + " wait at " +
                    op_name(lead.op) + " with mask " + hex(lead.mask) + "; lanes " + hex(missing) +
                    " of the mask never arrive";
    const uint32_t at_bar = lanes_at(w, State::at_barrier) & missing;
    if (at_bar) r += " (lanes " + hex(at_bar) + " wait at __syncthreads)";
    return r;
  }
  return "deadlock: " + std::to_string(b.at_barrier) + " threads wait at __syncthreads, " +
         std::to_string(b.nthreads - b.exited - b.at_barrier) + " elsewhere";
}

// After a failure: fibers that still hold a thread's frame start afresh.
void recover(HostThread& h) {
  for (auto& f : h.fibers) {
    if (f->idle) continue;
    make_context(h.kind, f->ctx, *f->stack, fiber_main, f.get());
    f->idle = true;
    h.idle.push_back(f.get());
  }
}

void configure(HostThread& h) {
  const Settings& s = settings();
  const SwitchKind kind = s.fiber_switch.load();
  const size_t stack = s.stack_bytes.load();
  if (kind == h.kind && stack == h.stack_bytes) return;
  h.idle.clear();
  h.fibers.clear();
  h.kind = kind;
  h.stack_bytes = stack;
}

}  // namespace

bool in_block() { return tl_host && tl_host->in_block; }

bool describe_overflow(const void* addr, char* buf, size_t n) {
  const HostThread* h = tl_host.get();
  if (!h) return false;
  for (const auto& f : h->fibers) {
    if (!f->stack->in_guard(addr)) continue;
    const Block& b = h->block;
    if (h->in_block && b.launch && f->thread < b.nthreads) {
      const uint3 t = thread_idx(b, f->thread);
      std::snprintf(buf, n,
                    "simt: kernel '%s' block (%u,%u,%u) thread (%u,%u,%u) overflowed its %zu KiB stack; "
                    "raise CUZK_SIMT_STACK_KIB or cudaDeviceSetLimit(cudaLimitStackSize)\n",
                    b.launch->name, b.idx.x, b.idx.y, b.idx.z, t.x, t.y, t.z, f->stack->bytes() / 1024);
    } else {
      std::snprintf(buf, n, "simt: a fiber overflowed its %zu KiB stack\n", f->stack->bytes() / 1024);
    }
    return true;
  }
  return false;
}

}  // namespace cuzk::simt::detail

namespace cuzk::simt {
uint64_t fiber_switch_count() { return detail::g_switches.load(std::memory_order_relaxed); }
}  // namespace cuzk::simt

namespace cuzk::simt::detail {

bool run_block(const BlockLaunch& launch, uint3 block_idx, std::string* failure) {
  HostThread& h = host();
  configure(h);
  Block& b = h.block;
  b.launch = &launch;
  b.idx = block_idx;
  b.nthreads = launch.block.x * launch.block.y * launch.block.z;
  b.next_unstarted = b.exited = b.at_barrier = b.barrier_true = 0;
  if (b.slots.size() < b.nthreads) b.slots.resize(b.nthreads);
  const unsigned nwarps = (b.nthreads + kWarpSize - 1) / kWarpSize;
  b.warp_arrived.assign(nwarps, 0);
  b.warp_alive.assign(nwarps, ~0u);
  b.warp_parked.assign(nwarps, 0);
  b.warp_at_active.assign(nwarps, 0);
  if (b.nthreads % kWarpSize) b.warp_alive.back() = (1u << (b.nthreads % kWarpSize)) - 1;
  b.barrier_waiters.clear();
  b.ready.clear();
  b.ready_head = 0;
  b.failed = false;
  b.failure.clear();

  if (launch.dynamic_shared_bytes > h.shared_capacity) {
    if (h.shared) ::operator delete(h.shared, std::align_val_t(128));
    h.shared =
        static_cast<unsigned char*>(::operator new(launch.dynamic_shared_bytes, std::align_val_t(128)));
    h.shared_capacity = launch.dynamic_shared_bytes;
  }
  tl_dynamic_shared = launch.dynamic_shared_bytes ? h.shared : nullptr;
  cuda_api::blockIdx = block_idx;
  cuda_api::blockDim = launch.block;
  cuda_api::gridDim = launch.grid;

  h.in_block = true;
  Fiber* first = take_idle_fiber(h);
  first->idle = false;
  h.current = first;
  h.switches = 1;
  switch_context(h.kind, h.main, first->ctx);
  h.in_block = false;
  h.current = nullptr;
  g_switches.fetch_add(h.switches, std::memory_order_relaxed);

  bool ok = true;
  if (b.failed) {
    *failure = b.failure;
    ok = false;
  } else if (b.exited != b.nthreads) {
    fail(b, -1, deadlock_reason(b));
    *failure = b.failure;
    ok = false;
  }
  if (!ok) recover(h);
  return ok;
}

// ---- what kernels call (simt/builtins.hpp; the warp operations are in warp.cpp) ----

HostThread& kernel_host(const char* what) {
  if (!tl_host || !tl_host->in_block || !tl_host->current) {
    std::fprintf(stderr, "simt: %s called outside a kernel\n", what);
    std::abort();
  }
  return *tl_host;
}

int block_barrier(BarrierKind kind, int predicate) {
  HostThread& h = kernel_host("__syncthreads");
  Block& b = h.block;
  const unsigned t = h.current->thread;
  b.at_barrier++;
  if (predicate) b.barrier_true++;
  if (b.at_barrier == b.nthreads) {  // the last to arrive releases the others
    b.released_true = b.barrier_true;
    for (unsigned w : b.barrier_waiters) wake(b, w);
    b.barrier_waiters.clear();
    b.at_barrier = b.barrier_true = 0;
  } else {
    b.barrier_waiters.push_back(t);
    park(h, State::at_barrier);
  }
  // released_true stays until the next release, which needs this thread.
  switch (kind) {
    case BarrierKind::plain: return 0;
    case BarrierKind::count: return int(b.released_true);
    case BarrierKind::all: return b.released_true == b.nthreads;
    case BarrierKind::any: return b.released_true > 0;
  }
  return 0;
}

void kernel_trap(const char* why) {
  HostThread& h = kernel_host(why);
  fail(h.block, int(h.current->thread), why);
  abandon(h);
}

}  // namespace cuzk::simt::detail
