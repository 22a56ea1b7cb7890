#pragma once
// The synthesis stage: the synthesis queue and its workers. A worker takes
// the best partition the pacer lets it (SynthesisPacer), reserves its
// working set from the proving budget (giving it back for a better one that
// arrives meanwhile), synthesizes it in the synthesis arena and hands it to
// the device stage.
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include <oneapi/tbb/task_arena.h>

#include "engine/deallocator.hpp"
#include "engine/device_stage.hpp"
#include "engine/job.hpp"
#include "engine/job_board.hpp"
#include "engine/memory_budget.hpp"
#include "engine/pce_store.hpp"
#include "engine/stage_events.hpp"
#include "engine/synthesis_pacer.hpp"
#include "engine/timeline_emitter.hpp"
#include "engine/work_queue.hpp"

namespace cuzk::engine {

class SynthesisStage final : public DeviceStage::Feedback {
 public:
  struct Options {
    uint32_t workers = 1;               // pipeline.max_parallel_synthesis
    uint32_t threads = 0;               // the arena's threads (synthesis.threads; 0 = all)
    bool throttle_during_tail = false;  // pipeline.throttle_synthesis_during_tail
    uint32_t max_device_queue = 0;      // pipeline.max_gpu_queue_depth
  };
  SynthesisStage(const Options& o, JobBoard& board, MemoryBudget& budget, PceStore& pce, Deallocator& dealloc,
                 TimelineEmitter& tl, DeviceStage& next, StageEvents& events);
  ~SynthesisStage() override;

  void start();
  // A job's partitions, ready to start; workers waiting for memory with
  // worse partitions give them back for these.
  void push(std::vector<std::unique_ptr<PartitionItem>> items);
  // Drops the job's partitions waiting here.
  void drop(const Job& job);
  uint32_t synthesizing() const { return pacer_.synthesizing(); }
  void close();
  void join();

  void device_queue_shrank() override { queue_.notify(); }  // the pacer's gate
  void tail_started() override { pacer_.tail_started(); }
  void tail_ended() override;

 private:
  void worker_loop();
  // Reserves the item's working set; false when the item was given back
  // (a better partition arrived) or its job ended.
  bool reserve(std::unique_ptr<PartitionItem>& item);

  const Options opts_;
  SynthesisPacer pacer_;
  tbb::task_arena arena_;
  WorkQueue<std::unique_ptr<PartitionItem>> queue_;
  JobBoard& board_;
  MemoryBudget& budget_;
  PceStore& pce_;
  Deallocator& dealloc_;
  TimelineEmitter& tl_;
  DeviceStage& next_;
  StageEvents& events_;
  std::vector<std::thread> threads_;
};

}  // namespace cuzk::engine
