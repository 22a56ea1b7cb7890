// JobBoard: every change of a job's state under one lock (job_board.hpp).
#include "engine/job_board.hpp"

#include <algorithm>

namespace cuzk::engine {

namespace {

// Longer waits are "until the job ends": steady_clock arithmetic overflows
// somewhere past 290 years, and no caller means a finite wait that long.
constexpr std::chrono::milliseconds kForever{std::chrono::hours(24 * 365 * 10)};

}  // namespace

void JobBoard::require_accepting() const {
  std::lock_guard lk(mu_);
  if (!accepting_) throw ServiceError(ServiceError::Code::Unavailable, "daemon is shutting down");
}

bool JobBoard::stop_accepting() {
  std::lock_guard lk(mu_);
  if (!accepting_ && stopping_) return false;
  accepting_ = false;
  return true;
}

void JobBoard::end_undispatched(const std::string& why) {
  std::lock_guard lk(mu_);
  for (auto& [id, j] : jobs_.all())
    if (!j->ended && !j->dispatched) end_locked(*j, JobStatus::Cancelled, why);
  cv_.notify_all();
}

void JobBoard::end_all_after(std::chrono::milliseconds grace, const std::string& why) {
  std::unique_lock lk(mu_);
  cv_.wait_for(lk, grace, [&] {
    for (auto& [id, j] : jobs_.all())
      if (!j->ended) return false;
    return true;
  });
  for (auto& [id, j] : jobs_.all())
    if (!j->ended) end_locked(*j, JobStatus::Cancelled, why);
  stopping_ = true;
  cv_.notify_all();
}

bool JobBoard::dispatchable(const Job& job) const {
  std::lock_guard lk(mu_);
  return !job.ended && !stopping_ && accepting_;
}

bool JobBoard::holds_parameters(const Job& job) const {
  std::lock_guard lk(mu_);
  return bool(job.srs);
}

bool JobBoard::hold_parameters(Job& job, SrsManager::Handle handle) {
  std::lock_guard lk(mu_);
  if (job.ended) return false;
  if (handle.load_ms()) job.srs_load_ms = handle.load_ms();
  job.srs = std::move(handle);
  return true;
}

JobBoard::Start JobBoard::wait_to_start(const JobPtr& job, const std::function<bool()>& overtaken,
                                        std::vector<std::unique_ptr<PartitionItem>>& items) {
  std::unique_lock lk(mu_);
  bool better_waits = false;
  cv_.wait(lk, [&] {
    if (stopping_ || job->ended || !accepting_ || preparing_.may_start(job->priority)) return true;
    return better_waits = overtaken();
  });
  if (job->ended || stopping_ || !accepting_) return Start::Gone;
  if (better_waits && !preparing_.may_start(job->priority)) return Start::Overtaken;
  job->dispatched = true;
  job->preparing = true;
  preparing_.begin(job->priority);
  // Each partition pins what its stages read; the job's own pin goes now.
  for (uint32_t p = 0; p < job->partitions; p++) {
    auto item = std::make_unique<PartitionItem>();
    item->job = job;
    item->prepared = job->prepared;
    item->srs = job->srs.share();
    item->partition = p;
    items.push_back(std::move(item));
  }
  job->srs.reset();
  return Start::Go;
}

void JobBoard::wait_ended(const Job& job) {
  std::unique_lock lk(mu_);
  cv_.wait(lk, [&] { return job.ended || stopping_; });
}

bool JobBoard::synthesis_started(Job& job, uint32_t p) {
  std::lock_guard lk(mu_);
  if (job.ended) return false;
  job.states[p] = PartState::Synthesizing;
  if (!job.has_started) {
    job.has_started = true;
    job.first_start = Clock::now();
  }
  if (++job.started == job.partitions) end_preparing_locked(job);
  return true;
}

void JobBoard::synthesis_ended(Job& job, uint32_t p, uint64_t ms) {
  std::lock_guard lk(mu_);
  job.synth_ms[p] = ms;
  if (!job.ended) job.states[p] = PartState::SynthDone;
}

void JobBoard::device_started(Job& job, uint32_t p) {
  std::lock_guard lk(mu_);
  if (!job.ended) job.states[p] = PartState::Gpu;
}

void JobBoard::device_ended(Job& job, uint32_t p, uint64_t ms) {
  std::lock_guard lk(mu_);
  job.gpu_ms[p] = ms;
}

std::optional<std::string> JobBoard::proved(Job& job, uint32_t p, std::string proof) {
  std::lock_guard lk(mu_);
  if (job.ended) return std::nullopt;
  job.proofs[p] = std::move(proof);
  job.states[p] = PartState::Done;
  if (++job.done < job.partitions) return std::nullopt;
  std::string all;
  for (auto& part : job.proofs) all += part;
  job.proofs.clear();
  return all;
}

bool JobBoard::complete(Job& job, std::string proof) {
  std::lock_guard lk(mu_);
  if (job.ended) return false;
  job.proof = std::move(proof);
  end_locked(job, JobStatus::Completed, "");
  return true;
}

bool JobBoard::fail(Job& job, const std::string& msg) {
  std::lock_guard lk(mu_);
  if (job.ended) return false;
  end_locked(job, JobStatus::Failed, msg);
  return true;
}

std::vector<std::pair<JobBoard::JobPtr, bool>> JobBoard::cancel(const std::string& id) {
  std::vector<std::pair<JobPtr, bool>> cancelled;
  std::lock_guard lk(mu_);
  const std::vector<JobPtr> named = jobs_.named(id);
  if (named.empty()) throw ServiceError(ServiceError::Code::NotFound, "unknown job id " + id);
  for (auto& job : named) {
    if (job->ended) continue;
    cancelled.emplace_back(job, job->has_started);  // any partition began synthesis
    end_locked(*job, JobStatus::Cancelled, "cancelled by request");
  }
  return cancelled;
}

void JobBoard::end_preparing_locked(Job& job) {
  if (!job.preparing) return;
  job.preparing = false;
  preparing_.end(job.priority);
  cv_.notify_all();
}

void JobBoard::end_locked(Job& job, JobStatus st, const std::string& err) {
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
  cv_.notify_all();
  budget_.poke();  // its partitions waiting for memory give up
}

ProofResult JobBoard::await(const std::string& id, std::optional<std::chrono::milliseconds> timeout) {
  std::unique_lock lk(mu_);
  std::shared_ptr<Job> job = jobs_.resolve(id);
  auto done = [&] { return job->ended.load(); };
  if (timeout && *timeout < kForever) {
    cv_.wait_for(lk, std::max(*timeout, std::chrono::milliseconds(0)), done);
  } else {
    cv_.wait(lk, done);
  }
  return result_locked(*job, timeout);
}

ProofResult JobBoard::result_locked(const Job& job, std::optional<std::chrono::milliseconds> timeout) {
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

void JobBoard::on_end(const std::string& id, EndNotifier::Callback fn) {
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

}  // namespace cuzk::engine
