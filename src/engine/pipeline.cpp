// The per-partition pipeline: synthesis workers (CPU, the synthesis arena),
// device workers (the device phase under the device's interlock) and
// finalizers (the CPU tail off the lock). Each stage reads only what its
// PartitionItem holds, so ending a job never frees memory a stage is using;
// an ended job's items are dropped at the next stage boundary.
#include "engine/engine.hpp"
#include "engine/job.hpp"
#include "platform/tsan.hpp"
#include "timeline/event_names.hpp"

namespace cuzk::engine {

namespace {

std::string part_detail(uint32_t p) { return "partition=" + std::to_string(p); }
std::string worker_detail(uint32_t w, uint32_t p) {
  return "worker=" + std::to_string(w) + ",partition=" + std::to_string(p);
}

}  // namespace

void Engine::synthesis_loop() {
  auto gate = [this] { return pacer_.may_take(device_queue_.size()); };
  const auto take_slot = [this] { pacer_.took(); };
  const auto release_slot = [this] {
    pacer_.released();
    synth_queue_.notify();  // the pacer's gate
  };
  struct Release {
    decltype(release_slot)& f;
    ~Release() { f(); }
  };
  while (auto next = synth_queue_.pop_when(gate, take_slot)) {
    Release release{release_slot};
    std::unique_ptr<PartitionItem> item = std::move(*next);
    auto job = item->job;
    const uint32_t p = item->partition;
    if (job->ended) continue;
    // Memory in the pipeline's order. While this worker waits, a better
    // partition may be queued (a CRITICAL job dispatched meanwhile): the
    // worker then gives this one back and takes that one, so that a higher
    // priority is never stuck behind the workers' held partitions.
    const WorkKey key = job->key(p);
    bool overtaken = false;
    item->reservation = budget_.acquire(
        item->prepared->partition_bytes(),
        [&] {
          if (stopping_.load() || job->ended.load()) return true;
          auto top = synth_queue_.top_key();
          return overtaken = top && *top < key;
        },
        key);
    if (job->ended || stopping_) continue;
    if (!item->reservation.bytes() && overtaken) {
      synth_queue_.push(key, std::move(item));
      continue;
    }
    {
      std::lock_guard lk(mu_);
      if (job->ended) continue;
      job->states[p] = PartState::Synthesizing;
      if (!job->has_started) {
        job->has_started = true;
        job->first_start = Clock::now();
      }
      if (++job->started == job->partitions) end_preparing_locked(*job);
    }
    tl_.emit(timeline::events::kSynthStart, job->id, part_detail(p));
    auto t0 = Clock::now();
    try {
      JobSynthesizer synth(&pce_, job->id);
      platform::arena_execute(
          synth_arena_, [&] { item->work = item->prepared->synthesize(p, item->srs.resources(), synth); });
    } catch (const std::exception& e) {
      tl_.emit(timeline::events::kSynthEnd, job->id,
               part_detail(p) + ",synth_ms=" + std::to_string(ms_between(t0, Clock::now())) + ",error=1");
      fail_job(job, "partition " + std::to_string(p) + ": synthesis failed: " + e.what());
      continue;
    }
    const uint64_t ms = ms_between(t0, Clock::now());
    tl_.emit(timeline::events::kSynthEnd, job->id,
             part_detail(p) + ",synth_ms=" + std::to_string(ms) + (item->work->via_pce() ? ",pce=1" : ""));
    {
      std::lock_guard lk(mu_);
      job->synth_ms[p] = ms;
      if (!job->ended) job->states[p] = PartState::SynthDone;
    }
    if (job->ended) {
      dealloc_.defer(std::move(item->work));
      continue;
    }
    tl_.emit(timeline::events::kGpuQueue, job->id, part_detail(p));
    device_queue_.push(job->key(p), std::move(item));
    // The slot is released after the push: the gate counts this partition
    // until it is in the device queue.
  }
}

std::unique_ptr<PartitionItem> Engine::take_live(std::unique_ptr<PartitionItem> item) {
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

void Engine::device_loop(DeviceSlot& slot, uint32_t w) {
  const size_t local = w % slot.workers.size();
  for (;;) {
    // The interlock first, then the best partition waiting at that moment: a
    // worker that picked one before waiting for the device would run it
    // even if a CRITICAL partition arrived meanwhile.
    std::unique_lock interlock(slot.interlock);
    auto next = device_queue_.pop();
    if (!next) break;       // closed
    synth_queue_.notify();  // the pacer's gate depends on the device queue
    std::unique_ptr<PartitionItem> item = take_live(std::move(*next));
    if (!item) continue;
    auto job = item->job;
    const uint32_t p = item->partition;
    tl_.emit(timeline::events::kGpuPickup, job->id, worker_detail(w, p));
    {
      std::lock_guard lk(mu_);
      slot.workers[local].start(job->id, kind_name(job->kind), p);
      if (!job->ended) job->states[p] = PartState::Gpu;
    }
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
      std::lock_guard lk(mu_);
      slot.workers[local].stop();
    }
    if (!error.empty()) {
      fail_job(job, "partition " + std::to_string(p) + ": device phase failed: " + error);
      dealloc_.defer(std::move(item->work));
      continue;
    }
    item->reservation.release_part(item->work->bytes_freed_after_device());
    slot.final_queue.push(job->key(p), std::move(item));
  }
}

void Engine::finalizer_loop(DeviceSlot& slot) {
  while (auto next = slot.final_queue.pop()) {
    std::unique_ptr<PartitionItem> item = take_live(std::move(*next));
    if (!item) continue;
    auto job = item->job;
    const uint32_t p = item->partition;
    pacer_.tail_started();
    std::string proof, error;
    try {
      platform::arena_execute(slot.device->arena(), [&] { proof = item->work->finish(*slot.device); });
    } catch (const std::exception& e) {
      error = e.what();
    }
    pacer_.tail_ended();
    synth_queue_.notify();  // the throttle's gate
    const uint64_t gpu_ms = ms_between(item->gpu_start, Clock::now());
    tl_.emit(timeline::events::kGpuEnd, job->id,
             worker_detail(item->worker, p) + ",gpu_ms=" + std::to_string(gpu_ms) +
                 (error.empty() ? "" : ",error=1"));
    dealloc_.defer(std::move(item->work));
    item->reservation.release();
    if (!error.empty()) {
      fail_job(job, "partition " + std::to_string(p) + ": proof finalization failed: " + error);
      continue;
    }
    {
      std::lock_guard lk(mu_);
      job->gpu_ms[p] = gpu_ms;
    }
    partition_done(std::move(item), std::move(proof), *slot.device);
  }
}

}  // namespace cuzk::engine
