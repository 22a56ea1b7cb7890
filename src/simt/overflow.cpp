#include "simt/overflow.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace cuzk::simt::detail {

namespace {

struct sigaction g_previous;
constexpr size_t kAltStackBytes = 64 * 1024;

// This thread's alternate signal stack, unregistered and freed when the
// thread ends.
struct AltStack {
  char* mem = nullptr;
  ~AltStack() {
    if (!mem) return;
    stack_t off;
    std::memset(&off, 0, sizeof off);
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    std::free(mem);
  }
};
thread_local AltStack tl_alt_stack;

void on_segv(int sig, siginfo_t* info, void* uctx) {
  char msg[512];
  if (describe_overflow(info->si_addr, msg, sizeof msg)) {
    (void)!write(STDERR_FILENO, msg, strlen(msg));
    abort();
  }
  // Not ours: the previous disposition takes the fault (it happens again
  // when this handler returns).
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction) {
      g_previous.sa_sigaction(sig, info, uctx);
      return;
    }
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN && g_previous.sa_handler) {
    g_previous.sa_handler(sig);
    return;
  }
  signal(SIGSEGV, SIG_DFL);
}

}  // namespace

void watch_stack_overflows() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_previous);
  });
  if (tl_alt_stack.mem) return;
  stack_t current;
  if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;  // the thread has one
  char* mem = static_cast<char*>(std::malloc(kAltStackBytes));
  if (!mem) return;
  stack_t alt;
  alt.ss_sp = mem;
  alt.ss_size = kAltStackBytes;
  alt.ss_flags = 0;
  if (sigaltstack(&alt, nullptr) == 0) tl_alt_stack.mem = mem;
  else std::free(mem);
}

}  // namespace cuzk::simt::detail
