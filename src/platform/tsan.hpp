// ThreadSanitizer and hand-offs through libtbb.so, which is not instrumented.
//
// tbb::task_arena::execute(f) runs f on the calling thread when it finds a
// free slot in the arena, and otherwise hands f to one of the arena's worker
// threads while the caller waits (the engine's device arenas are shared by
// several worker and finalizer threads, so this happens under load). TBB
// orders f before the return of execute, but TSan does not see that edge, and
// the worker's stack is often lost to TSan's bounded history, so the report
// (the caller's next write to what f read) has no TBB frame that
// tests/tsan.supp could match. arena_execute(arena, f) is arena.execute(f)
// and, in a -fsanitize=thread build, tells TSan about the two edges TBB
// provides: the caller's work before the call happens before f, and f
// happens before the call returns. Nothing else is hidden: f's own accesses,
// and every access on other threads, are still checked.
#pragma once

#include <utility>

#if defined(__SANITIZE_THREAD__)
#define CUZK_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CUZK_TSAN 1
#endif
#endif
#ifdef CUZK_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace cuzk::platform {

// Edges TBB provides but TSan cannot see, told to it by hand: a release at
// e happens before every later acquire at e. For a parallel loop whose bodies
// wait on each other through atomics (msm/chunk_pipeline.hpp): release
// before the loop and at the end of each body, acquire at the start of each
// body and after the loop. Nothing in a plain build.
inline void tsan_release([[maybe_unused]] char* e) {
#ifdef CUZK_TSAN
  __tsan_release(e);
#endif
}
inline void tsan_acquire([[maybe_unused]] char* e) {
#ifdef CUZK_TSAN
  __tsan_acquire(e);
#endif
}

template <class Arena, class F>
decltype(auto) arena_execute(Arena& arena, F&& f) {
#ifdef CUZK_TSAN
  char edge = 0;  // its address names the synchronization for TSan
  struct Acquire {
    char* at;
    ~Acquire() { __tsan_acquire(at); }
  };
  struct Release {
    char* at;
    ~Release() { __tsan_release(at); }
  };
  __tsan_release(&edge);
  Acquire returned{&edge};  // also when f throws
  return arena.execute([&]() -> decltype(auto) {
    __tsan_acquire(&edge);
    Release done{&edge};
    return std::forward<F>(f)();
  });
#else
  return arena.execute(std::forward<F>(f));
#endif
}

}  // namespace cuzk::platform
