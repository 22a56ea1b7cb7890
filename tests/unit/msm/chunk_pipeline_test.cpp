// The super-chunk pipeline (msm/chunk_pipeline.hpp): every job runs once,
// never before what it reads or overwrites is done, and with two buffers a
// thread recodes the next chunk while another still runs the last task.
#include <tbb/task_arena.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "msm/chunk_pipeline.hpp"

using namespace cuzk::msm::detail;

namespace {

// Start and end of a job on one global clock of events.
struct Span {
  int64_t start = -1, end = -1;
  int runs = 0;
};

struct Recorder {
  std::atomic<int64_t> clock{0};
  std::mutex mu;
  std::vector<std::vector<Span>> recode, task;  // [chunk][block or task]
  std::vector<Span> reduce;                     // [window]

  Recorder(const PipelineShape& sh, int windows)
      : recode(sh.blocks.size()), task(sh.blocks.size()), reduce(size_t(windows)) {
    for (size_t k = 0; k < sh.blocks.size(); k++) {
      recode[k].resize(sh.blocks[k]);
      task[k].resize(sh.tasks);
    }
  }
  template <class Body>
  void run(Span& s, const Body& body) {
    {
      std::lock_guard<std::mutex> lock(mu);
      s.start = clock++;
      s.runs++;
    }
    body();
    std::lock_guard<std::mutex> lock(mu);
    s.end = clock++;
  }
};

PipelineShape make_shape(std::mt19937_64& rng, size_t chunks, size_t tasks, size_t buffers, int& windows) {
  PipelineShape sh;
  sh.buffers = buffers;
  sh.tasks = tasks;
  for (size_t k = 0; k < chunks; k++) sh.blocks.push_back(1 + rng() % 4);
  // Groups of one or two windows; a group's tasks are its bucket ranges.
  windows = 0;
  for (size_t t = 0; t < tasks;) {
    const int g = int(sh.group_windows.size());
    const int width = 1 + int(rng() % 2);
    sh.group_windows.push_back({windows, windows + width});
    windows += width;
    const size_t ranges = std::min<size_t>(tasks - t, 1 + rng() % 3);
    for (size_t r = 0; r < ranges; r++, t++) sh.task_group.push_back(g);
  }
  return sh;
}

void check_order(const PipelineShape& sh, const Recorder& rec) {
  const size_t K = sh.blocks.size();
  for (size_t k = 0; k < K; k++) {
    int64_t recoded = -1;
    for (const Span& s : rec.recode[k]) {
      ASSERT_EQ(s.runs, 1);
      recoded = std::max(recoded, s.end);
    }
    for (size_t t = 0; t < sh.tasks; t++) {
      const Span& s = rec.task[k][t];
      ASSERT_EQ(s.runs, 1) << "chunk " << k << " task " << t;
      EXPECT_GT(s.start, recoded) << "task before its chunk's recoding: chunk " << k << " task " << t;
      if (k > 0) {
        EXPECT_GT(s.start, rec.task[k - 1][t].end) << "task before the same task of the chunk before";
      }
    }
    if (k < sh.buffers) continue;
    for (const Span& r : rec.recode[k])
      for (const Span& t : rec.task[k - sh.buffers]) {
        EXPECT_GT(r.start, t.end) << "buffer overwritten while read: chunk " << k;
      }
  }
  for (size_t t = 0; t < sh.tasks; t++) {
    const auto [w0, w1] = sh.group_windows[size_t(sh.task_group[t])];
    for (int w = w0; w < w1; w++)
      EXPECT_GT(rec.reduce[size_t(w)].start, rec.task[K - 1][t].end) << "window " << w;
  }
  for (const Span& s : rec.reduce) EXPECT_EQ(s.runs, 1);
}

// Two chunks of the given recode blocks, two tasks (one window each).
PipelineShape two_chunks_two_windows(std::vector<size_t> blocks, size_t buffers) {
  PipelineShape sh;
  sh.blocks = std::move(blocks);
  sh.tasks = 2;
  sh.buffers = buffers;
  sh.task_group = {0, 1};
  sh.group_windows = {{0, 1}, {1, 2}};
  return sh;
}

}  // namespace

TEST(ChunkPipeline, EveryJobOnceAfterWhatItReadsOrOverwrites) {
  std::mt19937_64 rng(2026);
  for (unsigned threads : {1u, 2u, 4u})
    for (size_t buffers : {1u, 2u})
      for (size_t chunks : {1u, 2u, 5u})
        for (size_t tasks : {1u, 3u, 7u}) {
          int windows = 0;
          const PipelineShape sh = make_shape(rng, chunks, tasks, buffers, windows);
          Recorder rec(sh, windows);
          std::vector<unsigned> delay(64);
          for (unsigned& d : delay) d = unsigned(rng() % 200);
          const auto nap = [&](size_t i) {
            std::this_thread::sleep_for(std::chrono::microseconds(delay[i % 64]));
          };
          tbb::task_arena arena{int(threads)};
          arena.execute([&] {
            run_pipeline(
                threads, sh, [&](size_t k, size_t b) { rec.run(rec.recode[k][b], [&] { nap(k * 7 + b); }); },
                [&](size_t k, size_t t) { rec.run(rec.task[k][t], [&] { nap(k * 5 + t * 3); }); },
                [&](int w) { rec.run(rec.reduce[size_t(w)], [&] { nap(size_t(w)); }); });
          });
          SCOPED_TRACE(testing::Message() << threads << " threads, " << buffers << " buffers, " << chunks
                                          << " chunks, " << tasks << " tasks");
          check_order(sh, rec);
        }
}

// One thread, one buffer: the jobs in order, as the stages ran one after
// another (each chunk's recoding, its tasks, then the reductions).
TEST(ChunkPipeline, OneThreadRunsTheJobsInOrder) {
  const PipelineShape sh = two_chunks_two_windows({2, 3}, 1);
  std::vector<std::string> seen;
  tbb::task_arena arena(1);
  arena.execute([&] {
    run_pipeline(
        1, sh, [&](size_t k, size_t b) { seen.push_back("r" + std::to_string(k) + std::to_string(b)); },
        [&](size_t k, size_t t) { seen.push_back("a" + std::to_string(k) + std::to_string(t)); },
        [&](int w) { seen.push_back("w" + std::to_string(w)); });
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"r00", "r01", "a00", "a01", "r10", "r11", "r12", "a10", "w0",
                                            "a11", "w1"}));
}

// Two threads, two buffers: while chunk 0's last task runs (held until
// chunk 1's recoding has begun, or ten seconds), the other thread recodes
// chunk 1. With the chunks' stages one after another it would not.
TEST(ChunkPipeline, TheNextChunkIsRecodedWhileTheLastTaskRuns) {
  const PipelineShape sh = two_chunks_two_windows({1, 1}, 2);
  std::atomic<bool> recoding_next{false}, overlapped{false};
  tbb::task_arena arena(2);
  arena.execute([&] {
    run_pipeline(
        2, sh,
        [&](size_t k, size_t) {
          if (k == 1) recoding_next = true;
        },
        [&](size_t k, size_t t) {
          if (k != 0 || t != 1) return;
          const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
          while (!recoding_next && std::chrono::steady_clock::now() < until) std::this_thread::yield();
          overlapped = recoding_next.load();
        },
        [&](int) {});
  });
  EXPECT_TRUE(overlapped);
}
