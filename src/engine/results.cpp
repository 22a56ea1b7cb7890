// Results: assembling a job's partitions (with the self-check), ending jobs
// (completed, failed, cancelled; their end callbacks posted), and the queries
// on them: await, on_end, cancel, preload and evict. An ended job keeps only
// its result; everything it held (payload, parameters pin, admission bytes)
// goes when it ends.
#include <utility>

#include "engine/engine.hpp"
#include "engine/job.hpp"
#include "platform/tsan.hpp"
#include "timeline/event_names.hpp"

namespace cuzk::engine {

namespace {

// Longer waits are "until the job ends": steady_clock arithmetic overflows
// somewhere past 290 years, and no caller means a finite wait that long.
constexpr std::chrono::milliseconds kForever{std::chrono::hours(24 * 365 * 10)};

}  // namespace

void Engine::partition_done(std::unique_ptr<PartitionItem> item, std::string proof, Device& dev) {
  const std::shared_ptr<Job> job = item->job;
  std::string all;
  {
    std::lock_guard lk(mu_);
    if (job->ended) return;
    job->proofs[item->partition] = std::move(proof);
    job->states[item->partition] = PartState::Done;
    if (++job->done < job->partitions) return;
    for (auto& part : job->proofs) all += part;
    job->proofs.clear();
  }
  // Every partition is in: assemble (and self-check) on this finalizer, with
  // the payload and parameters this item holds.
  tl_.emit(timeline::events::kAssembleStart, job->id, "partitions=" + std::to_string(job->partitions));
  std::string verdict;
  if (cfg_.self_check) {
    try {
      platform::arena_execute(dev.arena(),
                              [&] { verdict = item->prepared->verify(all, item->srs.resources()); });
    } catch (const std::exception& e) {
      verdict = e.what();
    }
  }
  tl_.emit(timeline::events::kAssembleEnd, job->id,
           "bytes=" + std::to_string(all.size()) +
               (cfg_.self_check ? (verdict.empty() ? ",verified=1" : ",verified=0") : ""));
  if (!verdict.empty()) {
    fail_job(job, "self-check failed: " + verdict);
    return;
  }
  std::lock_guard lk(mu_);
  if (job->ended) return;
  job->proof = std::move(all);
  finish_locked(*job, JobStatus::Completed, "");
}

void Engine::fail_job(const std::shared_ptr<Job>& job, const std::string& msg) {
  {
    std::lock_guard lk(mu_);
    if (job->ended) return;
    finish_locked(*job, JobStatus::Failed, msg);
  }
  drop_queued_work(*job);
}

void Engine::finish_locked(Job& job, JobStatus st, const std::string& err) {
  job.status = st;
  job.error = err;
  job.finished_at = Clock::now();
  job.ended = true;
  for (auto& s : job.states)
    if (s != PartState::Done) s = PartState::Failed;
  end_preparing_locked(job);
  counts_.record(kind_name(job.kind), st,
                 std::chrono::duration<double>(job.finished_at - job.submitted).count());
  // Keep only the result. Work in flight holds its own references, so these
  // are freed when the last stage lets go (the payload off this thread).
  job.proofs.clear();
  job.proofs.shrink_to_fit();
  // Large payloads are freed by the deallocator, small ones here.
  if (job.prepared && job.prepared->resident_bytes() >= (1u << 20)) dealloc_.defer(std::move(job.prepared));
  else job.prepared.reset();
  job.srs.reset();
  job.admission.release();
  jobs_.ended(job);
  if (!job.on_end.empty()) notifier_.post(std::exchange(job.on_end, {}), result_locked(job, std::nullopt));
  job_cv_.notify_all();
  budget_.poke();  // its partitions waiting for memory give up
}

void Engine::drop_queued_work(const Job& job) {
  // By identity, not id: a retry may already run under the same request id.
  const Job* j = &job;
  auto of_job = [&](const WorkKey&, const auto& item) { return item->job.get() == j; };
  auto a = synth_queue_.remove_if(of_job);
  auto b = device_queue_.remove_if(of_job);
  for (auto& slot : devices_) slot->final_queue.remove_if(of_job);
  auto same = [&](const WorkKey&, const std::shared_ptr<Job>& q) { return q.get() == j; };
  job_queue_.remove_if(same);
  if (!load_queue_.remove_if(same).empty()) {
    std::lock_guard lk(mu_);
    loading_circuits_[job.circuit_id]--;
  }
  for (auto& item : b) dealloc_.defer(std::move(item->work));
}

ProofResult Engine::await(const std::string& id, std::optional<std::chrono::milliseconds> timeout) {
  std::unique_lock lk(mu_);
  std::shared_ptr<Job> job = jobs_.resolve(id);
  auto done = [&] { return job->ended.load(); };
  if (timeout && *timeout < kForever) {
    job_cv_.wait_for(lk, std::max(*timeout, std::chrono::milliseconds(0)), done);
  } else {
    job_cv_.wait(lk, done);
  }
  return result_locked(*job, timeout);
}

ProofResult Engine::result_locked(const Job& job, std::optional<std::chrono::milliseconds> timeout) const {
  ProofResult r;
  r.job_id = job.id;
  if (!job.ended) {
    r.status = JobStatus::Timeout;
    r.error_message =
        "timed out after " + std::to_string(timeout ? timeout->count() : 0) + " ms; job still running";
  } else {
    r.status = job.status;
    r.error_message = job.error;
    r.proof = job.proof;
  }
  const auto end = job.ended ? job.finished_at : Clock::now();
  r.queue_wait_ms = ms_between(job.submitted, job.has_started ? job.first_start : end);
  r.srs_load_ms = job.srs_load_ms;
  for (auto v : job.synth_ms) r.synthesis_ms += v;
  for (auto v : job.gpu_ms) r.gpu_compute_ms += v;
  r.total_ms = ms_between(job.submitted, end);
  return r;
}

void Engine::on_end(const std::string& id, EndNotifier::Callback fn) {
  std::unique_lock lk(mu_);
  const std::shared_ptr<Job> job = jobs_.resolve(id);
  if (!job->ended) {
    job->on_end.push_back(std::move(fn));
    return;
  }
  ProofResult r = result_locked(*job, std::nullopt);
  lk.unlock();
  fn(std::move(r));
}

bool Engine::cancel(const std::string& id) {
  // A job id cancels its job; a request id, every live job submitted under it
  // (docs/PROTOCOL.md §1: a client that cancels a request wants none of it).
  std::vector<std::pair<std::shared_ptr<Job>, bool>> cancelled;  // with "had started"
  bool was_running = false;
  {
    std::lock_guard lk(mu_);
    const std::vector<std::shared_ptr<Job>> named = jobs_.named(id);
    if (named.empty()) throw ServiceError(ServiceError::Code::NotFound, "unknown job id " + id);
    for (auto& job : named) {
      if (job->ended) continue;
      was_running |= job->has_started;  // any partition began synthesis
      cancelled.emplace_back(job, job->has_started);
      finish_locked(*job, JobStatus::Cancelled, "cancelled by request");
    }
  }
  for (auto& [job, started] : cancelled) {
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
