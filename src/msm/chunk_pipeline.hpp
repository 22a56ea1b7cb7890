#pragma once
// The big scalars' stages A, B and 3 over their super-chunks as one stream of
// jobs (pippenger.hpp), so that no thread waits at the end of a super-chunk
// while another finishes its last task.
//
// Chunk k is `blocks[k]` recode jobs (stage A: entries and digits into buffer
// k mod `buffers`) followed by `tasks` accumulation jobs (stage B, the same
// task list every chunk). Threads claim jobs in that order from one counter;
// a job waits only for what it reads or overwrites:
//   - task t of chunk k: every recode block of chunk k, and task t of chunk
//     k - 1 (the same buckets);
//   - a recode block of chunk k: every task of chunk k - buffers (its buffer).
// Every dependency has a smaller job number, so the smallest unfinished job
// can always run: nothing deadlocks. With two buffers a thread out of tasks
// recodes the next chunk and starts its tasks for the windows already done,
// while the other thread finishes its last task; with one buffer (one
// thread, or one chunk) the jobs run as the stages did one after another.
// When the last chunk's tasks of a window group have all ended, the group's
// windows are queued for reduction (stage 3); a thread takes queued
// reductions before its next job, and while it waits.
#include <tbb/concurrent_queue.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "platform/tsan.hpp"

namespace cuzk::msm::detail {

struct PipelineShape {
  std::vector<size_t> blocks;                      // recode jobs of each chunk
  size_t tasks = 0;                                // accumulation jobs of every chunk
  size_t buffers = 1;                              // chunk k uses buffer k % buffers
  std::vector<int> task_group;                     // the window group of each task
  std::vector<std::pair<int, int>> group_windows;  // windows [w0, w1) of each group
};

// recode(k, b), accumulate(k, t), reduce(w); returns the threads' time in
// recode jobs, in milliseconds.
template <class Recode, class Accumulate, class Reduce>
double run_pipeline(unsigned threads, const PipelineShape& sh, const Recode& recode,
                    const Accumulate& accumulate, const Reduce& reduce) {
  const size_t K = sh.blocks.size(), N = sh.tasks;
  std::vector<size_t> first(K + 1, 0);  // the first job of each chunk
  for (size_t k = 0; k < K; k++) first[k + 1] = first[k] + sh.blocks[k] + N;
  const size_t J = first[K];
  std::unique_ptr<std::atomic<size_t>[]> recoded(new std::atomic<size_t>[K]);
  std::unique_ptr<std::atomic<size_t>[]> accumulated(new std::atomic<size_t>[K]);
  std::unique_ptr<std::atomic<bool>[]> task_done(new std::atomic<bool>[K * N]);
  std::unique_ptr<std::atomic<size_t>[]> open(new std::atomic<size_t>[sh.group_windows.size()]);
  for (size_t k = 0; k < K; k++) recoded[k] = accumulated[k] = 0;
  for (size_t i = 0; i < K * N; i++) task_done[i] = false;
  for (size_t g = 0; g < sh.group_windows.size(); g++) open[g] = 0;
  for (size_t t = 0; t < N; t++) open[size_t(sh.task_group[t])]++;
  std::atomic<size_t> next{0}, finished{0};  // jobs claimed, jobs ended
  std::atomic<int64_t> recode_ns{0};
  tbb::concurrent_queue<int> ready;

  char edge = 0;
  platform::tsan_release(&edge);  // the fork
  tbb::parallel_for(
      size_t(0), size_t(threads),
      [&](size_t) {
        platform::tsan_acquire(&edge);
        const auto reduce_one = [&] {
          int w = 0;
          if (!ready.try_pop(w)) return false;
          reduce(w);
          return true;
        };
        // Waits (reducing meanwhile) until ok() holds.
        const auto wait_for = [&](const auto& ok) {
          while (!ok())
            if (!reduce_one()) std::this_thread::yield();
        };
        size_t k = 0;  // this thread's jobs come in increasing order: k only grows
        for (;;) {
          if (reduce_one()) continue;
          const size_t j = next.fetch_add(1);
          if (j >= J) break;
          while (j >= first[k + 1]) k++;
          const size_t local = j - first[k];
          if (local < sh.blocks[k]) {
            if (k >= sh.buffers) wait_for([&] { return accumulated[k - sh.buffers].load() == N; });
            const auto t0 = std::chrono::steady_clock::now();
            recode(k, local);
            recode_ns +=
                std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
                    .count();
            recoded[k].fetch_add(1);
          } else {
            const size_t t = local - sh.blocks[k];
            wait_for([&] {
              return recoded[k].load() == sh.blocks[k] && (k == 0 || task_done[(k - 1) * N + t].load());
            });
            accumulate(k, t);
            task_done[k * N + t] = true;
            accumulated[k].fetch_add(1);
            if (k + 1 == K && open[size_t(sh.task_group[t])].fetch_sub(1) == 1) {
              const auto [w0, w1] = sh.group_windows[size_t(sh.task_group[t])];
              for (int w = w0; w < w1; w++) ready.push(w);
            }
          }
          finished.fetch_add(1);
        }
        // Out of jobs: reductions until every job has ended and none is queued
        // (a job queues its windows before it counts as ended).
        for (;;) {
          if (reduce_one()) continue;
          if (finished.load() == J && ready.empty()) break;
          std::this_thread::yield();
        }
        platform::tsan_release(&edge);
      },
      tbb::simple_partitioner());
  platform::tsan_acquire(&edge);  // the join
  return double(recode_ns.load()) / 1e6;
}

}  // namespace cuzk::msm::detail
