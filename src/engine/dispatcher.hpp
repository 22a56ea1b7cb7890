#pragma once
// The dispatcher stage: takes jobs from the job queue in priority order,
// batches same-circuit jobs, makes sure their parameters are resident and
// starts their partitions (into the synthesis stage). Loading parameters is
// file I/O that can take minutes, so it runs on loader threads: a job whose
// parameters are not HOT goes to the load queue and comes back through the
// job queue once they are, while the dispatcher serves the jobs behind it
// (a CRITICAL job is not held up by a NORMAL job's load).
//
// Lock order: JobBoard's lock, then the queues' locks; loading_mu_ is a
// leaf (nothing is taken under it).
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/job.hpp"
#include "engine/job_board.hpp"
#include "engine/srs_manager.hpp"
#include "engine/stage_events.hpp"
#include "engine/synthesis_stage.hpp"
#include "engine/timeline_emitter.hpp"
#include "engine/work_queue.hpp"

namespace cuzk::engine {

class Dispatcher {
 public:
  struct Options {
    uint32_t max_batch_size = 1;                  // pipeline.max_batch_size
    std::chrono::milliseconds max_batch_wait{0};  // pipeline.max_batch_wait
    bool pipeline = true;                         // pipeline.enabled: false = one job at a time
    uint32_t loaders = 1;                         // loads run one at a time, in priority order
  };
  Dispatcher(const Options& o, JobBoard& board, SrsManager& srs, SynthesisStage& next, TimelineEmitter& tl,
             StageEvents& events);
  ~Dispatcher();

  void start();
  // Queues an admitted job; returns how many queued jobs are ahead of it.
  uint32_t enqueue(const std::shared_ptr<Job>& job);
  // Drops the job from the job and load queues.
  void drop(const Job& job);
  // Empties both queues (shutdown: the jobs end CANCELLED on the board).
  void clear();
  void close();
  void join();

 private:
  void dispatcher_loop();
  void loader_loop();
  // The job's batch: it and the same-circuit jobs that arrive within
  // pipeline.max_batch_wait, up to max_batch_size.
  std::vector<std::shared_ptr<Job>> batch_around(const std::shared_ptr<Job>& first);
  // True when the job holds its parameters (HOT); false when it went to a
  // loader thread (it comes back through the job queue) or has ended.
  bool pin_parameters(const std::shared_ptr<Job>& job);
  // Starts a job's partitions once the board lets it; gives it back to the
  // job queue when a better job arrives while it waits.
  void dispatch(const std::shared_ptr<Job>& job);
  void fail_load(const std::shared_ptr<Job>& job, const std::string& error);

  const Options opts_;
  JobBoard& board_;
  SrsManager& srs_;
  SynthesisStage& next_;
  TimelineEmitter& tl_;
  StageEvents& events_;
  WorkQueue<std::shared_ptr<Job>> jobs_;
  WorkQueue<std::shared_ptr<Job>> loads_;  // jobs whose parameters are not HOT
  std::mutex loading_mu_;
  std::map<std::string, uint32_t> loading_;  // jobs with a loader, by circuit
  std::vector<std::thread> threads_;
};

}  // namespace cuzk::engine
