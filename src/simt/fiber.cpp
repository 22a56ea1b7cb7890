#include "simt/fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace cuzk::simt::detail {

namespace {

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "simt: %s: %s\n", what, std::strerror(errno));
  std::abort();
}

size_t page_size() {
  static const size_t p = size_t(sysconf(_SC_PAGESIZE));
  return p;
}

}  // namespace

FiberStack::FiberStack(size_t bytes) {
  const size_t page = page_size();
  guard_ = (kGuardBytes + page - 1) / page * page;
  mapped_ = guard_ + (bytes + page - 1) / page * page;
  void* p =
      mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  base_ = static_cast<char*>(p);
  // Stacks grow down: the guard is at the lowest addresses.
  if (mprotect(base_, guard_, PROT_NONE) != 0) die("mprotect of a fiber stack's guard page");
}

FiberStack::~FiberStack() {
  if (base_) munmap(base_, mapped_);
}

// ---- assembly switch (x86-64 System V, ELF) -------------------------------
#if defined(__x86_64__) && defined(__ELF__)
#define CUZK_SIMT_ASM_SWITCH 1
// cuzk_simt_switch(void** save_sp, void* load_sp): pushes the callee-saved
// registers and the floating-point control state, stores rsp in *save_sp,
// loads load_sp and pops the same frame from the other stack.
// cuzk_simt_fiber_start: where a new fiber's first switch "returns" to; it
// calls entry(arg) from r13/r12 of the prepared frame.
// clang-format off
__asm__(
    ".text\n"
    ".p2align 4\n"
    ".globl cuzk_simt_switch\n"
    ".hidden cuzk_simt_switch\n"
    ".type cuzk_simt_switch,@function\n"
    "cuzk_simt_switch:\n"
    "  pushq %rbp\n"
    "  pushq %rbx\n"
    "  pushq %r12\n"
    "  pushq %r13\n"
    "  pushq %r14\n"
    "  pushq %r15\n"
    "  subq $8, %rsp\n"
    "  stmxcsr (%rsp)\n"
    "  fnstcw 4(%rsp)\n"
    "  movq %rsp, (%rdi)\n"
    "  movq %rsi, %rsp\n"
    "  ldmxcsr (%rsp)\n"
    "  fldcw 4(%rsp)\n"
    "  addq $8, %rsp\n"
    "  popq %r15\n"
    "  popq %r14\n"
    "  popq %r13\n"
    "  popq %r12\n"
    "  popq %rbx\n"
    "  popq %rbp\n"
    "  ret\n"
    ".size cuzk_simt_switch, .-cuzk_simt_switch\n"
    ".p2align 4\n"
    ".globl cuzk_simt_fiber_start\n"
    ".hidden cuzk_simt_fiber_start\n"
    ".type cuzk_simt_fiber_start,@function\n"
    "cuzk_simt_fiber_start:\n"
    "  .cfi_startproc\n"
    "  .cfi_undefined rip\n"
    "  movq %r12, %rdi\n"
    "  callq *%r13\n"
    "  ud2\n"
    "  .cfi_endproc\n"
    ".size cuzk_simt_fiber_start, .-cuzk_simt_fiber_start\n");
// clang-format on
extern "C" void cuzk_simt_switch(void** save_sp, void* load_sp);
extern "C" void cuzk_simt_fiber_start();
#endif

bool assembly_switch_available() {
#if defined(CUZK_SIMT_ASM_SWITCH)
  return true;
#else
  return false;
#endif
}

// ---- ucontext switch ---------------------------------------------------------
namespace {
// makecontext passes only int arguments: the address of the fiber's start
// record (entry and argument) travels through this, read by the trampoline
// at the fiber's first instruction.
thread_local void* tl_start_arg = nullptr;

struct UcStart {
  FiberEntry entry;
  void* arg;
};

void uc_trampoline() {
  // The UcStart lives at the top of the fiber's own stack (make_context).
  const UcStart* s = static_cast<const UcStart*>(tl_start_arg);
  s->entry(s->arg);
  std::abort();  // entries never return
}
}  // namespace

void make_context(SwitchKind kind, Context& ctx, const FiberStack& stack, FiberEntry entry, void* arg) {
  if (kind == SwitchKind::assembly) {
#if defined(CUZK_SIMT_ASM_SWITCH)
    // The frame cuzk_simt_switch pops: [fp control][r15][r14][r13][r12][rbx][rbp][return address],
    // placed so that rsp is 16-byte aligned after the `ret` (as before a call).
    auto top = reinterpret_cast<uintptr_t>(stack.top()) & ~uintptr_t(15);
    auto* f = reinterpret_cast<uint64_t*>(top - 64);
    uint32_t mxcsr;
    uint16_t fpucw;
    __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
    __asm__ volatile("fnstcw %0" : "=m"(fpucw));
    f[0] = uint64_t(mxcsr) | (uint64_t(fpucw) << 32);
    f[1] = 0;                                  // r15
    f[2] = 0;                                  // r14
    f[3] = reinterpret_cast<uint64_t>(entry);  // r13
    f[4] = reinterpret_cast<uint64_t>(arg);    // r12
    f[5] = 0;                                  // rbx
    f[6] = 0;                                  // rbp
    f[7] = reinterpret_cast<uint64_t>(&cuzk_simt_fiber_start);
    ctx.sp = f;
    return;
#else
    std::fprintf(stderr, "simt: the assembly fiber switch is not available on this platform\n");
    std::abort();
#endif
  }
  // ucontext: the entry and argument at the top of the stack, the context below.
  auto top = reinterpret_cast<uintptr_t>(stack.top()) & ~uintptr_t(15);
  auto* start = reinterpret_cast<UcStart*>(top - 16);
  start->entry = entry;
  start->arg = arg;
  if (getcontext(&ctx.uc) != 0) die("getcontext");
  ctx.uc.uc_stack.ss_sp = stack.bottom();
  ctx.uc.uc_stack.ss_size = size_t(reinterpret_cast<char*>(start) - stack.bottom());
  ctx.uc.uc_link = nullptr;
  makecontext(&ctx.uc, uc_trampoline, 0);
  ctx.sp = start;  // marks "not started yet" for switch_context
}

void switch_context(SwitchKind kind, Context& from, Context& to) {
#if defined(CUZK_SIMT_ASM_SWITCH)
  if (kind == SwitchKind::assembly) {
    cuzk_simt_switch(&from.sp, to.sp);
    return;
  }
#endif
  // A fiber that has not run yet finds its start record through these.
  tl_start_arg = to.sp;
  if (swapcontext(&from.uc, &to.uc) != 0) die("swapcontext");
}

}  // namespace cuzk::simt::detail
