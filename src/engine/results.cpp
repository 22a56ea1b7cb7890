// Results: assembling a job's partitions (with the self-check), failing and
// cancelling jobs (their queued work dropped from every stage), and the
// queries on them: await, on_end, preload and evict. Ending a job is the
// board's (JobBoard): an ended job keeps only its result.
#include <utility>

#include "engine/engine.hpp"
#include "engine/job.hpp"
#include "platform/tsan.hpp"
#include "timeline/event_names.hpp"

namespace cuzk::engine {

void Engine::proved(std::unique_ptr<PartitionItem> item, std::string proof, Device& dev) {
  const std::shared_ptr<Job> job = item->job;
  std::optional<std::string> all = board_.proved(*job, item->partition, std::move(proof));
  if (!all) return;
  // Every partition is in: assemble (and self-check) on this finalizer, with
  // the payload and parameters this item holds.
  tl_.emit(timeline::events::kAssembleStart, job->id, "partitions=" + std::to_string(job->partitions));
  std::string verdict;
  if (cfg_.self_check) {
    try {
      platform::arena_execute(dev.arena(),
                              [&] { verdict = item->prepared->verify(*all, item->srs.resources()); });
    } catch (const std::exception& e) {
      verdict = e.what();
    }
  }
  tl_.emit(timeline::events::kAssembleEnd, job->id,
           "bytes=" + std::to_string(all->size()) +
               (cfg_.self_check ? (verdict.empty() ? ",verified=1" : ",verified=0") : ""));
  if (!verdict.empty()) {
    fail(job, "self-check failed: " + verdict);
    return;
  }
  board_.complete(*job, std::move(*all));
}

void Engine::fail(const std::shared_ptr<Job>& job, const std::string& msg) {
  if (board_.fail(*job, msg)) drop_queued_work(*job);
}

void Engine::drop_queued_work(const Job& job) {
  dispatcher_.drop(job);
  synthesis_.drop(job);
  devices_.drop(job);
}

ProofResult Engine::await(const std::string& id, std::optional<std::chrono::milliseconds> timeout) {
  return board_.await(id, timeout);
}

void Engine::on_end(const std::string& id, EndNotifier::Callback fn) { board_.on_end(id, std::move(fn)); }

bool Engine::cancel(const std::string& id) {
  // A job id cancels its job; a request id, every live job submitted under it
  // (docs/PROTOCOL.md §1: a client that cancels a request wants none of it).
  bool was_running = false;  // any partition began synthesis
  for (auto& [job, started] : board_.cancel(id)) {
    was_running |= started;
    tl_.emit(timeline::events::kCancel, job->id, started ? "was_running=1" : "was_running=0");
    drop_queued_work(*job);
  }
  return was_running;
}

PreloadResult Engine::preload(const std::string& circuit_id) {
  KindHandler* h = handler_for_circuit(circuit_id);
  if (!h)
    throw ServiceError(ServiceError::Code::NotFound,
                       "no parameters for circuit " + circuit_id + " in " + cfg_.param_cache);
  try {
    return srs_.preload(circuit_id, *h);
  } catch (const ServiceError&) {
    throw;
  } catch (const std::exception& e) {
    throw ServiceError(ServiceError::Code::FailedPrecondition,
                       "loading " + circuit_id + " failed: " + e.what());
  }
}

EvictResult Engine::evict(const std::string& circuit_id) { return srs_.evict(circuit_id); }

}  // namespace cuzk::engine
