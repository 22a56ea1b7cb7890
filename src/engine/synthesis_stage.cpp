// The synthesis stage (synthesis_stage.hpp).
#include "engine/synthesis_stage.hpp"

#include <algorithm>

#include "engine/devices.hpp"
#include "platform/tsan.hpp"
#include "timeline/event_names.hpp"

namespace cuzk::engine {

namespace {

std::string part_detail(uint32_t p) { return "partition=" + std::to_string(p); }

}  // namespace

SynthesisStage::SynthesisStage(const Options& o, JobBoard& board, MemoryBudget& budget, PceStore& pce,
                               Deallocator& dealloc, TimelineEmitter& tl, DeviceStage& next,
                               StageEvents& events)
    : opts_(o),
      pacer_(o.throttle_during_tail, o.max_device_queue),
      arena_(int(resolve_threads(o.threads))),
      board_(board),
      budget_(budget),
      pce_(pce),
      dealloc_(dealloc),
      tl_(tl),
      next_(next),
      events_(events) {}

SynthesisStage::~SynthesisStage() {
  close();
  join();
}

void SynthesisStage::start() {
  for (uint32_t i = 0; i < std::max<uint32_t>(1, opts_.workers); i++)
    threads_.emplace_back([this] { worker_loop(); });
}

void SynthesisStage::push(std::vector<std::unique_ptr<PartitionItem>> items) {
  for (auto& item : items) {
    const WorkKey key = item->job->key(item->partition);
    queue_.push(key, std::move(item));
  }
  budget_.poke();
}

void SynthesisStage::drop(const Job& job) {
  queue_.remove_if([&](const WorkKey&, const auto& item) { return item->job.get() == &job; });
}

void SynthesisStage::close() { queue_.close(); }

void SynthesisStage::join() {
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

void SynthesisStage::tail_ended() {
  pacer_.tail_ended();
  queue_.notify();  // the throttle's gate
}

bool SynthesisStage::reserve(std::unique_ptr<PartitionItem>& item) {
  // Memory in the pipeline's order among waiters (two workers that pop
  // partitions together may still reach the budget in either order). While
  // this worker waits, a better partition may be queued (a CRITICAL job
  // dispatched meanwhile): the worker then gives this one back and takes
  // that one, so that a higher priority is never stuck behind the workers'
  // held partitions.
  const Job& job = *item->job;
  const WorkKey key = job.key(item->partition);
  bool overtaken = false;
  item->reservation = budget_.acquire(
      item->prepared->partition_bytes(),
      [&] {
        if (board_.stopping() || job.ended.load()) return true;
        auto top = queue_.top_key();
        return overtaken = top && *top < key;
      },
      key, /*reuses_pooled=*/true);
  if (job.ended || board_.stopping()) return false;
  if (!item->reservation.bytes() && overtaken) {
    queue_.push(key, std::move(item));
    return false;
  }
  return true;
}

void SynthesisStage::worker_loop() {
  auto gate = [this] { return pacer_.may_take(next_.queued()); };
  const auto take_slot = [this] { pacer_.took(); };
  const auto release_slot = [this] {
    pacer_.released();
    queue_.notify();  // the pacer's gate
  };
  struct Release {
    decltype(release_slot)& f;
    ~Release() { f(); }
  };
  while (auto next = queue_.pop_when(gate, take_slot)) {
    Release release{release_slot};
    std::unique_ptr<PartitionItem> item = std::move(*next);
    auto job = item->job;
    const uint32_t p = item->partition;
    if (job->ended || !reserve(item)) continue;
    if (!board_.synthesis_started(*job, p)) continue;
    tl_.emit(timeline::events::kSynthStart, job->id, part_detail(p));
    auto t0 = Clock::now();
    try {
      JobSynthesizer synth(&pce_, job->id);
      platform::arena_execute(
          arena_, [&] { item->work = item->prepared->synthesize(p, item->srs.resources(), synth); });
    } catch (const std::exception& e) {
      tl_.emit(timeline::events::kSynthEnd, job->id,
               part_detail(p) + ",synth_ms=" + std::to_string(ms_between(t0, Clock::now())) + ",error=1");
      events_.fail(job, "partition " + std::to_string(p) + ": synthesis failed: " + e.what());
      continue;
    }
    // Its buffers are allocated: pooled ones it did not take are the pool's again.
    item->reservation.settle();
    const uint64_t ms = ms_between(t0, Clock::now());
    tl_.emit(timeline::events::kSynthEnd, job->id,
             part_detail(p) + ",synth_ms=" + std::to_string(ms) + (item->work->via_pce() ? ",pce=1" : ""));
    board_.synthesis_ended(*job, p, ms);
    if (job->ended) {
      dealloc_.defer(std::move(item->work));
      continue;
    }
    tl_.emit(timeline::events::kGpuQueue, job->id, part_detail(p));
    next_.push(std::move(item));
    // The slot is released after the push: the gate counts this partition
    // until it is in the device queue.
  }
}

}  // namespace cuzk::engine
