#pragma once
// The device stage: the device queue, each device's workers (the device
// phase under the device's interlock, then the partition's memory beyond
// its tail goes back) and finalizers (the CPU tail, off the interlock, whose
// proof goes to StageEvents::proved). This is where a backend plugs in: a
// Device (engine/backend.hpp) per slot, made by engine/devices.hpp.
//
// Lock order: a slot's interlock, then JobBoard's lock; workers_mu_ is a
// leaf (nothing is taken under it).
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/deallocator.hpp"
#include "engine/job.hpp"
#include "engine/job_board.hpp"
#include "engine/stage_events.hpp"
#include "engine/timeline_emitter.hpp"
#include "engine/work_queue.hpp"

namespace cuzk::engine {

// One device worker, as GetStatus shows it.
struct WorkerState {
  uint32_t worker_id = 0;
  bool proving = false;    // holds a partition (picked up, not yet handed to the finalizer)
  bool on_device = false;  // inside the device phase (holds the interlock)
  std::string job_id, kind;
  int partition = -1;
  Clock::time_point since{};
  double busy_secs = 0;

  // A partition enters the device phase.
  void start(std::string job, std::string kind_name, uint32_t p) {
    proving = on_device = true;
    job_id = std::move(job);
    kind = std::move(kind_name);
    partition = int(p);
    since = Clock::now();
  }
  // It left the device phase: its time counts as busy.
  void stop() {
    busy_secs += std::chrono::duration<double>(Clock::now() - since).count();
    proving = on_device = false;
    job_id.clear();
    kind.clear();
    partition = -1;
  }
};

class DeviceStage {
 public:
  // What the stage tells the synthesis stage, whose pacing depends on it.
  class Feedback {
   public:
    virtual ~Feedback() = default;
    virtual void device_queue_shrank() = 0;  // a worker took a partition
    virtual void tail_started() = 0;         // a finalizer began a partition's tail
    virtual void tail_ended() = 0;
  };

  DeviceStage(std::vector<std::unique_ptr<Device>> devices, uint32_t workers_per_device, JobBoard& board,
              Deallocator& dealloc, TimelineEmitter& tl, StageEvents& events);
  ~DeviceStage();

  // A worker and a finalizer thread per worker slot.
  void start(Feedback& feedback);
  // A synthesized partition waits for a device worker.
  void push(std::unique_ptr<PartitionItem> item);
  size_t queued() const { return queue_.size(); }
  // Drops the job's partitions waiting here (not those on a device).
  void drop(const Job& job);
  void close();  // the threads finish what they hold and leave
  void join();

  uint32_t worker_count() const;
  // The device's name when there is one, else "" (SubmitResult).
  std::string assigned_device() const;
  // Each device with its workers, as GetStatus shows them.
  std::vector<DeviceStatus> status(std::vector<WorkerStatus>& workers) const;

 private:
  struct Slot {
    std::unique_ptr<Device> device;
    std::mutex interlock;  // held only around the device phase
    WorkQueue<std::unique_ptr<PartitionItem>> final_queue;
    std::vector<WorkerState> workers;  // under workers_mu_
  };
  void worker_loop(Slot& slot, uint32_t worker_id);
  void finalizer_loop(Slot& slot);
  // The item if its job is still alive; otherwise it is dropped (nullptr).
  std::unique_ptr<PartitionItem> take_live(std::unique_ptr<PartitionItem> item);

  std::vector<std::unique_ptr<Slot>> slots_;
  WorkQueue<std::unique_ptr<PartitionItem>> queue_;
  mutable std::mutex workers_mu_;
  JobBoard& board_;
  Deallocator& dealloc_;
  TimelineEmitter& tl_;
  StageEvents& events_;
  Feedback* feedback_ = nullptr;
  std::vector<std::thread> threads_;
};

}  // namespace cuzk::engine
