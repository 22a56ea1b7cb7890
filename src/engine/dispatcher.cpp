// The dispatcher stage (dispatcher.hpp).
#include "engine/dispatcher.hpp"

#include "timeline/event_names.hpp"

namespace cuzk::engine {

Dispatcher::Dispatcher(const Options& o, JobBoard& board, SrsManager& srs, SynthesisStage& next,
                       TimelineEmitter& tl, StageEvents& events)
    : opts_(o), board_(board), srs_(srs), next_(next), tl_(tl), events_(events) {}

Dispatcher::~Dispatcher() {
  close();
  join();
}

void Dispatcher::start() {
  threads_.emplace_back([this] { dispatcher_loop(); });
  for (uint32_t i = 0; i < std::max<uint32_t>(1, opts_.loaders); i++)
    threads_.emplace_back([this] { loader_loop(); });
}

uint32_t Dispatcher::enqueue(const std::shared_ptr<Job>& job) {
  uint32_t ahead = 0;
  jobs_.for_each([&](const WorkKey& k, const auto&) { ahead += !(job->key(0) < k); });
  jobs_.push(job->key(0), job);
  return ahead;
}

void Dispatcher::drop(const Job& job) {
  // By identity, not id: a retry may already run under the same request id.
  auto same = [&](const WorkKey&, const std::shared_ptr<Job>& q) { return q.get() == &job; };
  jobs_.remove_if(same);
  if (!loads_.remove_if(same).empty()) {
    std::lock_guard lk(loading_mu_);
    loading_[job.circuit_id]--;
  }
}

void Dispatcher::clear() {
  auto all = [](const WorkKey&, const std::shared_ptr<Job>&) { return true; };
  jobs_.remove_if(all);
  loads_.remove_if(all);
}

void Dispatcher::close() {
  jobs_.close();
  loads_.close();
}

void Dispatcher::join() {
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

void Dispatcher::dispatcher_loop() {
  while (auto first = jobs_.pop()) {
    // Parameters first: a batch forms around a job that is ready to start.
    if (!pin_parameters(*first)) continue;
    for (auto& job : batch_around(*first))
      if (pin_parameters(job)) dispatch(job);
  }
}

std::vector<std::shared_ptr<Job>> Dispatcher::batch_around(const std::shared_ptr<Job>& first) {
  std::vector<std::shared_ptr<Job>> batch{first};
  if (opts_.max_batch_size <= 1) return batch;
  // Collect same-kind, same-circuit jobs until the batch is full or the wait ends.
  auto deadline = Clock::now() + opts_.max_batch_wait;
  while (batch.size() < opts_.max_batch_size && Clock::now() < deadline && !board_.stopping()) {
    size_t room = opts_.max_batch_size - batch.size();
    auto more = jobs_.remove_if([&](const WorkKey&, const std::shared_ptr<Job>& j) {
      if (!room || j->kind != first->kind || j->circuit_id != first->circuit_id) return false;
      room--;
      return true;
    });
    for (auto& j : more) batch.push_back(j);
    if (batch.size() < opts_.max_batch_size) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (batch.size() > 1) tl_.emit(timeline::events::kBatch, first->id, "jobs=" + std::to_string(batch.size()));
  return batch;
}

void Dispatcher::loader_loop() {
  while (auto next = loads_.pop()) {
    std::shared_ptr<Job> job = std::move(*next);
    SrsManager::Handle handle;
    std::string error;
    if (!job->ended) {
      try {
        handle = srs_.acquire(job->circuit_id, *job->handler, job->id, int(job->priority));
      } catch (const std::exception& e) {
        error = e.what();
      }
    }
    // Back to the dispatcher (in priority order) before the circuit counts as loaded.
    if (error.empty() && board_.hold_parameters(*job, std::move(handle))) {
      jobs_.push(job->key(0), job);
      board_.notify();  // a dispatcher holding a lower-priority job gives it back
    }
    {
      std::lock_guard lk(loading_mu_);
      loading_[job->circuit_id]--;
    }
    if (!error.empty()) fail_load(job, error);
  }
}

void Dispatcher::fail_load(const std::shared_ptr<Job>& job, const std::string& error) {
  events_.fail(job, "loading parameters for circuit " + job->circuit_id + ": " + error);
}

bool Dispatcher::pin_parameters(const std::shared_ptr<Job>& job) {
  if (!board_.dispatchable(*job)) return false;
  if (board_.holds_parameters(*job)) return true;  // a loader pinned them
  // Behind a job still loading the same circuit, wait in the load queue too,
  // so that the older job starts first.
  bool hot;
  {
    std::lock_guard lk(loading_mu_);
    auto it = loading_.find(job->circuit_id);
    hot = it == loading_.end() || it->second == 0;
  }
  SrsManager::Handle handle;
  if (hot) handle = srs_.acquire_if_hot(job->circuit_id);
  if (!handle && !opts_.pipeline) {
    // One job at a time: nothing else could run meanwhile anyway.
    try {
      handle = srs_.acquire(job->circuit_id, *job->handler, job->id, int(job->priority));
    } catch (const std::exception& e) {
      fail_load(job, e.what());
      return false;
    }
  }
  if (handle) return board_.hold_parameters(*job, std::move(handle));
  if (job->ended) return false;
  {
    std::lock_guard lk(loading_mu_);
    loading_[job->circuit_id]++;
  }
  loads_.push(job->key(0), job);
  return false;
}

void Dispatcher::dispatch(const std::shared_ptr<Job>& job) {
  // Waits for a slot; gives the job back to the queue when a better one
  // arrives meanwhile (admission and the loaders notify the board), so the
  // dispatcher is never held by one job while a higher-priority job waits.
  std::vector<std::unique_ptr<PartitionItem>> items;
  const auto overtaken = [&] {
    auto top = jobs_.top_key();
    return top && *top < job->key(0);
  };
  switch (board_.wait_to_start(job, overtaken, items)) {
    case JobBoard::Start::Gone: return;
    case JobBoard::Start::Overtaken: jobs_.push(job->key(0), job); return;  // it keeps its parameters
    case JobBoard::Start::Go: break;
  }
  next_.push(std::move(items));
  // One job at a time, whole proof: wait for it before dispatching the next.
  if (!opts_.pipeline) board_.wait_ended(*job);
}

}  // namespace cuzk::engine
