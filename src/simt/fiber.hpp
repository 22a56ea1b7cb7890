#pragma once
// Fibers: user-mode threads with their own stacks, switched explicitly. The
// SIMT emulator runs the threads of one CUDA block as fibers of one host
// thread (simt/block.cpp); a fiber switches only where the kernel waits for
// other threads (__syncthreads, shuffles, votes).
//
// Two ways to switch, chosen per stack pool:
//   - assembly (x86-64 System V): saves the callee-saved registers, MXCSR and
//     the x87 control word on the stack and swaps stack pointers (a few ns);
//   - ucontext (POSIX swapcontext): portable, but every switch also saves and
//     restores the signal mask with a system call (hundreds of ns).
// bench/simt/switch_bench.cpp measures both.
#include <cstddef>
#include <memory>
#include <vector>

#include <ucontext.h>

namespace cuzk::simt::detail {

enum class SwitchKind { assembly, ucontext };

// True when this build has the assembly switch (x86-64 ELF).
bool assembly_switch_available();

// A stack of `bytes` usable bytes above an inaccessible guard region of
// 64 KiB (an overflow faults instead of writing over another fiber's stack;
// the emulated code is built with -fstack-clash-protection, so that a large
// frame probes its pages in order and cannot jump over the guard).
class FiberStack {
 public:
  static constexpr size_t kGuardBytes = 64 * 1024;
  explicit FiberStack(size_t bytes);
  ~FiberStack();
  FiberStack(const FiberStack&) = delete;
  FiberStack& operator=(const FiberStack&) = delete;
  char* top() const { return base_ + mapped_; }
  char* bottom() const { return base_ + guard_; }
  size_t bytes() const { return mapped_ - guard_; }
  bool in_guard(const void* p) const { return p >= base_ && p < bottom(); }

 private:
  char* base_ = nullptr;
  size_t mapped_ = 0, guard_ = 0;
};

// Where a suspended fiber (or the host thread that runs fibers) resumes.
struct Context {
  void* sp = nullptr;  // assembly switch: the saved stack pointer
  ucontext_t uc;       // ucontext switch
};

using FiberEntry = void (*)(void* arg);

// Prepares `ctx` so that the first switch to it calls entry(arg) on `stack`.
// entry must never return (it switches away for good instead).
void make_context(SwitchKind kind, Context& ctx, const FiberStack& stack, FiberEntry entry, void* arg);

// Saves the running context in `from` and resumes `to` (from != to).
void switch_context(SwitchKind kind, Context& from, Context& to);

}  // namespace cuzk::simt::detail
