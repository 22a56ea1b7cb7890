// The device stage (device_stage.hpp): device workers under the interlock,
// finalizers off it. Each stage reads only what its PartitionItem holds, so
// ending a job never frees memory a stage is using; an ended job's items are
// dropped at the next stage boundary.
#include "engine/device_stage.hpp"

#include <algorithm>

#include "platform/tsan.hpp"
#include "timeline/event_names.hpp"

namespace cuzk::engine {

namespace {

std::string worker_detail(uint32_t w, uint32_t p) {
  return "worker=" + std::to_string(w) + ",partition=" + std::to_string(p);
}

}  // namespace

DeviceStage::DeviceStage(std::vector<std::unique_ptr<Device>> devices, uint32_t workers_per_device,
                         JobBoard& board, Deallocator& dealloc, TimelineEmitter& tl, StageEvents& events)
    : board_(board), dealloc_(dealloc), tl_(tl), events_(events) {
  const uint32_t k = std::max<uint32_t>(1, workers_per_device);
  for (size_t d = 0; d < devices.size(); d++) {
    auto slot = std::make_unique<Slot>();
    slot->device = std::move(devices[d]);
    for (uint32_t i = 0; i < k; i++) {
      WorkerState w;
      w.worker_id = uint32_t(d * k + i);
      slot->workers.push_back(std::move(w));
    }
    slots_.push_back(std::move(slot));
  }
}

DeviceStage::~DeviceStage() {
  close();
  join();
}

void DeviceStage::start(Feedback& feedback) {
  feedback_ = &feedback;
  for (auto& slot : slots_) {
    for (size_t i = 0; i < slot->workers.size(); i++) {
      Slot* s = slot.get();
      threads_.emplace_back([this, s, i] { worker_loop(*s, uint32_t(i)); });
      threads_.emplace_back([this, s] { finalizer_loop(*s); });
    }
  }
}

void DeviceStage::push(std::unique_ptr<PartitionItem> item) {
  const WorkKey key = item->job->key(item->partition);
  queue_.push(key, std::move(item));
}

void DeviceStage::drop(const Job& job) {
  // By identity, not id: a retry may already run under the same request id.
  auto of_job = [&](const WorkKey&, const auto& item) { return item->job.get() == &job; };
  for (auto& item : queue_.remove_if(of_job)) dealloc_.defer(std::move(item->work));
  for (auto& slot : slots_) slot->final_queue.remove_if(of_job);
}

void DeviceStage::close() {
  queue_.close();
  for (auto& slot : slots_) slot->final_queue.close();
}

void DeviceStage::join() {
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

uint32_t DeviceStage::worker_count() const {
  uint32_t n = 0;
  for (auto& slot : slots_) n += uint32_t(slot->workers.size());
  return n;
}

std::string DeviceStage::assigned_device() const {
  return slots_.size() == 1 ? slots_.front()->device->name() : std::string();
}

std::vector<DeviceStatus> DeviceStage::status(std::vector<WorkerStatus>& workers) const {
  // Device memory figures may be system calls: read them before the lock.
  std::vector<DeviceStatus> out;
  for (auto& slot : slots_) {
    DeviceStatus ds;
    ds.ordinal = slot->device->ordinal();
    ds.name = slot->device->name();
    ds.host_memory = slot->device->host_memory();
    ds.memory_total_bytes = slot->device->memory_total_bytes();
    ds.memory_free_bytes = slot->device->memory_free_bytes();
    ds.workers = uint32_t(slot->workers.size());
    out.push_back(std::move(ds));
  }
  std::lock_guard lk(workers_mu_);
  const auto now = Clock::now();
  for (size_t d = 0; d < slots_.size(); d++) {
    DeviceStatus& ds = out[d];
    const WorkerState* shown = nullptr;
    for (auto& w : slots_[d]->workers) {
      ds.busy_workers += w.proving;
      if (w.proving && (!shown || (w.on_device && !shown->on_device))) shown = &w;
      WorkerStatus ws;
      ws.ordinal = ds.ordinal;
      ws.worker_id = w.worker_id;
      ws.current_job_id = w.job_id;
      ws.current_proof_kind = w.kind;
      ws.current_partition = w.partition;
      ws.busy_secs = w.busy_secs + (w.proving ? std::chrono::duration<double>(now - w.since).count() : 0);
      workers.push_back(ws);
    }
    if (shown) {
      ds.current_job_id = shown->job_id;
      ds.current_proof_kind = shown->kind;
    }
  }
  return out;
}

std::unique_ptr<PartitionItem> DeviceStage::take_live(std::unique_ptr<PartitionItem> item) {
  if (!item->job->ended) return item;
  // Past the device phase: close its interval, so the device time it took
  // is seen (the analysis marks the job cancelled).
  if (item->gpu_start != Clock::time_point{})
    tl_.emit(timeline::events::kGpuEnd, item->job->id,
             worker_detail(item->worker, item->partition) +
                 ",gpu_ms=" + std::to_string(ms_between(item->gpu_start, Clock::now())) + ",dropped=1");
  dealloc_.defer(std::move(item->work));  // freed off the hot path
  return nullptr;
}

void DeviceStage::worker_loop(Slot& slot, uint32_t local) {
  const uint32_t w = slot.workers[local].worker_id;  // set before the threads start
  for (;;) {
    // The interlock first, then the best partition waiting at that moment: a
    // worker that picked one before waiting for the device would run it
    // even if a CRITICAL partition arrived meanwhile.
    std::unique_lock interlock(slot.interlock);
    auto next = queue_.pop();
    if (!next) break;  // closed
    feedback_->device_queue_shrank();
    std::unique_ptr<PartitionItem> item = take_live(std::move(*next));
    if (!item) continue;
    auto job = item->job;
    const uint32_t p = item->partition;
    tl_.emit(timeline::events::kGpuPickup, job->id, worker_detail(w, p));
    {
      std::lock_guard lk(workers_mu_);
      slot.workers[local].start(job->id, kind_name(job->kind), p);
    }
    board_.device_started(*job, p);
    tl_.emit(timeline::events::kGpuStart, job->id, worker_detail(w, p));
    item->gpu_start = Clock::now();
    item->worker = w;
    std::string error;
    tl_.emit(timeline::events::kGpuLock, job->id, worker_detail(w, p));
    try {
      if (!job->ended)
        platform::arena_execute(slot.device->arena(), [&] { item->work->device_phase(*slot.device); });
    } catch (const std::exception& e) {
      error = e.what();
    }
    tl_.emit(timeline::events::kGpuUnlock, job->id, worker_detail(w, p));
    interlock.unlock();
    {
      std::lock_guard lk(workers_mu_);
      slot.workers[local].stop();
    }
    if (!error.empty()) {
      events_.fail(job, "partition " + std::to_string(p) + ": device phase failed: " + error);
      dealloc_.defer(std::move(item->work));
      continue;
    }
    item->reservation.release_part(item->work->bytes_freed_after_device());
    slot.final_queue.push(job->key(p), std::move(item));
  }
}

void DeviceStage::finalizer_loop(Slot& slot) {
  while (auto next = slot.final_queue.pop()) {
    std::unique_ptr<PartitionItem> item = take_live(std::move(*next));
    if (!item) continue;
    auto job = item->job;
    const uint32_t p = item->partition;
    feedback_->tail_started();
    std::string proof, error;
    try {
      platform::arena_execute(slot.device->arena(), [&] { proof = item->work->finish(*slot.device); });
    } catch (const std::exception& e) {
      error = e.what();
    }
    feedback_->tail_ended();
    const uint64_t gpu_ms = ms_between(item->gpu_start, Clock::now());
    tl_.emit(timeline::events::kGpuEnd, job->id,
             worker_detail(item->worker, p) + ",gpu_ms=" + std::to_string(gpu_ms) +
                 (error.empty() ? "" : ",error=1"));
    dealloc_.defer(std::move(item->work));
    item->reservation.release();
    if (!error.empty()) {
      events_.fail(job, "partition " + std::to_string(p) + ": proof finalization failed: " + error);
      continue;
    }
    board_.device_ended(*job, p, gpu_ms);
    events_.proved(std::move(item), std::move(proof), *slot.device);
  }
}

}  // namespace cuzk::engine
