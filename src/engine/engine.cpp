#include "engine/engine.hpp"

#include <algorithm>
#include <random>
#include <thread>

#include "engine/cpu_device.hpp"
#include "engine/job.hpp"

namespace cuzk::engine {

namespace {

std::string make_uuid() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  uint64_t a = rng(), b = rng();
  a = (a & ~0xf000ull) | 0x4000ull;                         // version 4
  b = (b & 0x3fffffffffffffffull) | 0x8000000000000000ull;  // variant 1
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", unsigned(a >> 32),
                unsigned((a >> 16) & 0xffff), unsigned(a & 0xffff), unsigned(b >> 48),
                (unsigned long long)(b & 0xffffffffffffull));
  return buf;
}

// FNV-1a over every payload field: identifies "the same request".
uint64_t payload_hash(const ProofRequest& r) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](const void* p, size_t n) {
    auto* c = static_cast<const uint8_t*>(p);
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 1099511628211ull;
    uint64_t sep = n;
    for (int i = 0; i < 8; i++) h = (h ^ ((sep >> (8 * i)) & 0xff)) * 1099511628211ull;
  };
  auto s = [&](const std::string& x) { mix(x.data(), x.size()); };
  auto u = [&](uint64_t x) { mix(&x, sizeof x); };
  u(uint64_t(r.kind));
  u(r.sector_size);
  u(r.registered_proof);
  u(uint64_t(r.priority));
  s(r.vanilla_proof);
  u(r.vanilla_proofs.size());
  for (const auto& v : r.vanilla_proofs) s(v);
  u(r.sector_number);
  u(r.miner_id);
  s(r.randomness);
  u(r.partition_index);
  s(r.comm_r_old);
  s(r.comm_r_new);
  s(r.comm_d_new);
  s(r.circuit_id);
  return h;
}

std::string part_detail(uint32_t p) { return "partition=" + std::to_string(p); }
std::string worker_detail(uint32_t w, uint32_t p) {
  return "worker=" + std::to_string(w) + ",partition=" + std::to_string(p);
}

uint64_t resolve_budget(const EngineConfig& c) {
  if (c.total_budget_bytes) return c.total_budget_bytes;
  uint64_t mem = physical_memory_bytes();
  return mem > c.safety_margin_bytes ? mem - c.safety_margin_bytes : mem / 2;
}

unsigned resolve_threads(unsigned t) {
  unsigned hw = std::thread::hardware_concurrency();
  return t ? t : (hw ? hw : 1);
}

}  // namespace

const char* part_state_name(PartState s) {
  switch (s) {
    case PartState::Pending: return "pending";
    case PartState::Synthesizing: return "synthesizing";
    case PartState::SynthDone: return "synth_done";
    case PartState::Gpu: return "gpu";
    case PartState::Done: return "done";
    case PartState::Failed: return "failed";
  }
  return "unknown";
}

const char* kind_name(ProofKind k) {
  switch (k) {
    case ProofKind::PorepSealCommit: return "porep-c2";
    case ProofKind::SnapDealsUpdate: return "snap-update";
    case ProofKind::WindowPostPartition: return "window-post";
    case ProofKind::WinningPost: return "winning-post";
    case ProofKind::GenericR1cs: return "generic-r1cs";
    default: return "unspecified";
  }
}

Priority default_priority(ProofKind k) {
  switch (k) {
    case ProofKind::WinningPost: return Priority::Critical;
    case ProofKind::WindowPostPartition: return Priority::High;
    default: return Priority::Normal;
  }
}

Engine::Engine(EngineConfig cfg, std::vector<std::unique_ptr<KindHandler>> handlers,
               TimelineEmitter::Sink timeline_sink, std::vector<std::unique_ptr<Device>> devices)
    : cfg_(std::move(cfg)),
      handlers_(std::move(handlers)),
      tl_(std::move(timeline_sink)),
      budget_(resolve_budget(cfg_)),
      srs_(budget_, cfg_.eviction_min_idle, tl_),
      synth_arena_(int(resolve_threads(cfg_.synthesis_threads))),
      started_(Clock::now()) {
  budget_.set_reclaimer([this](uint64_t need) { srs_.reclaim(need); });
  if (devices.empty()) {
    std::vector<uint32_t> ords = cfg_.devices;
    if (ords.empty()) ords.push_back(0);
    for (uint32_t o : ords) devices.push_back(std::make_unique<CpuDevice>(o, cfg_.gpu_threads));
  }
  const uint32_t k = std::max<uint32_t>(1, cfg_.gpu_workers_per_device);
  for (size_t d = 0; d < devices.size(); d++) {
    auto slot = std::make_unique<DeviceSlot>();
    slot->device = std::move(devices[d]);
    for (uint32_t i = 0; i < k; i++) slot->workers.push_back(WorkerState{uint32_t(d * k + i)});
    devices_.push_back(std::move(slot));
  }
  threads_.emplace_back([this] { dispatcher_loop(); });
  const uint32_t synth_workers = std::max<uint32_t>(1, cfg_.max_parallel_synthesis);
  for (uint32_t i = 0; i < synth_workers; i++) threads_.emplace_back([this] { synthesis_loop(); });
  for (auto& slot : devices_) {
    for (auto& w : slot->workers) {
      DeviceSlot* s = slot.get();
      uint32_t id = w.worker_id;
      threads_.emplace_back([this, s, id] { device_loop(*s, id); });
      threads_.emplace_back([this, s] { finalizer_loop(*s); });
    }
  }
}

Engine::~Engine() { shutdown(std::chrono::milliseconds(0)); }

KindHandler* Engine::handler_for(ProofKind k) const {
  for (auto& h : handlers_)
    if (h->kind() == k) return h.get();
  return nullptr;
}

KindHandler* Engine::handler_for_circuit(const std::string& id) const {
  for (auto& h : handlers_) {
    auto ids = h->list_circuits();
    if (std::find(ids.begin(), ids.end(), id) != ids.end()) return h.get();
  }
  return nullptr;
}

// ---------------------------------------------------------------- admission

SubmitResult Engine::submit(const ProofRequest& req) {
  using Code = ServiceError::Code;
  if (req.kind == ProofKind::Unspecified)
    throw ServiceError(Code::InvalidArgument, "proof_kind is required");
  KindHandler* h = handler_for(req.kind);
  if (!h)
    throw ServiceError(Code::InvalidArgument, std::string("proof kind ") + kind_name(req.kind) +
                                                  " (" + std::to_string(int(req.kind)) +
                                                  ") is not supported by this daemon");
  const uint64_t hash = payload_hash(req);
  auto existing = [&]() -> std::optional<SubmitResult> {
    auto it = jobs_.find(req.request_id);
    if (it == jobs_.end()) return std::nullopt;
    if (it->second->payload_hash != hash)
      throw ServiceError(Code::AlreadyExists,
                         "request_id " + req.request_id + " is already used by a different request");
    return SubmitResult{it->second->id, 0, devices_.front()->device->name()};
  };
  {
    std::lock_guard lk(mu_);
    if (!accepting_) throw ServiceError(Code::Unavailable, "daemon is shutting down");
    prune_locked();
    if (!req.request_id.empty())
      if (auto r = existing()) return *r;
  }
  const std::string id = req.request_id.empty() ? make_uuid() : req.request_id;
  tl_.emit("PARSE_START", id, std::string("kind=") + kind_name(req.kind));
  std::unique_ptr<PreparedJob> prepared;
  try {
    prepared = h->prepare(req);
  } catch (const ServiceError& e) {
    tl_.emit("PARSE_END", id, "error=1");
    throw;
  } catch (const std::exception& e) {
    tl_.emit("PARSE_END", id, "error=1");
    throw ServiceError(Code::InvalidArgument, e.what());
  }
  tl_.emit("PARSE_END", id, "partitions=" + std::to_string(prepared->num_partitions()));
  if (prepared->num_partitions() == 0)
    throw ServiceError(Code::InvalidArgument, "request has no partitions to prove");

  auto job = std::make_shared<Job>();
  job->id = id;
  job->kind = req.kind;
  job->priority = req.priority == Priority::Unspecified ? default_priority(req.kind) : req.priority;
  job->payload_hash = hash;
  job->handler = h;
  job->circuit_id = prepared->circuit_id();
  job->partitions = prepared->num_partitions();
  job->prepared = std::move(prepared);
  job->proofs.resize(job->partitions);
  job->states.assign(job->partitions, PartState::Pending);
  job->synth_ms.assign(job->partitions, 0);
  job->gpu_ms.assign(job->partitions, 0);
  job->submitted = Clock::now();

  SubmitResult res;
  {
    std::lock_guard lk(mu_);
    if (!accepting_) throw ServiceError(Code::Unavailable, "daemon is shutting down");
    if (!req.request_id.empty())  // lost a race with an identical submit
      if (auto r = existing()) return *r;
    job->seq = next_seq_++;
    jobs_[id] = job;
    uint32_t ahead = 0;
    job_queue_.for_each([&](const WorkKey& k, const auto&) { ahead += !(job->key(0) < k); });
    res = SubmitResult{id, ahead, devices_.front()->device->name()};
  }
  job_queue_.push(job->key(0), job);
  return res;
}

// ---------------------------------------------------------------- pipeline

void Engine::dispatcher_loop() {
  while (auto first = job_queue_.pop()) {
    std::vector<std::shared_ptr<Job>> batch{*first};
    if (cfg_.max_batch_size > 1) {
      // Collect same-kind, same-circuit jobs until the batch is full or the wait ends.
      auto deadline = Clock::now() + cfg_.max_batch_wait;
      while (batch.size() < cfg_.max_batch_size && Clock::now() < deadline && !stopping_) {
        size_t room = cfg_.max_batch_size - batch.size();
        auto more = job_queue_.remove_if([&](const WorkKey&, const std::shared_ptr<Job>& j) {
          if (!room || j->kind != batch[0]->kind || j->circuit_id != batch[0]->circuit_id)
            return false;
          room--;
          return true;
        });
        for (auto& j : more) batch.push_back(j);
        if (batch.size() < cfg_.max_batch_size)
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      if (batch.size() > 1)
        tl_.emit("BATCH", batch[0]->id, "jobs=" + std::to_string(batch.size()));
    }
    for (auto& job : batch) dispatch(job);
  }
}

void Engine::dispatch(const std::shared_ptr<Job>& job) {
  {
    std::unique_lock lk(mu_);
    job_cv_.wait(lk, [&] {
      return stopping_ || job->ended || !accepting_ ||
             preparing_jobs_ < std::max<uint32_t>(1, cfg_.synthesis_concurrency);
    });
    if (job->ended || stopping_ || !accepting_) return;
    job->dispatched = true;
    job->preparing = true;
    preparing_jobs_++;
  }
  SrsManager::Handle handle;
  try {
    handle = srs_.acquire(job->circuit_id, *job->handler, job->id);
  } catch (const std::exception& e) {
    fail_job(job, "loading parameters for circuit " + job->circuit_id + ": " + e.what());
    return;
  }
  {
    std::lock_guard lk(mu_);
    if (job->ended) return;  // handle released on scope exit
    job->srs_load_ms = handle.load_ms();
    job->srs = std::move(handle);
  }
  for (uint32_t p = 0; p < job->partitions; p++) {
    auto item = std::make_unique<PartitionItem>();
    item->job = job;
    item->partition = p;
    synth_queue_.push(job->key(p), std::move(item));
  }
  if (!cfg_.pipeline_enabled) {
    // One job at a time, whole proof: wait for it before dispatching the next.
    std::unique_lock lk(mu_);
    job_cv_.wait(lk, [&] { return job->ended || stopping_; });
  }
}

void Engine::synthesis_loop() {
  auto gate = [this] {
    if (cfg_.throttle_synthesis_during_tail && tails_running_.load() > 0) return false;
    if (cfg_.max_gpu_queue_depth == 0) return true;
    return device_queue_.size() + synthesizing_.load() < cfg_.max_gpu_queue_depth;
  };
  while (auto next = synth_queue_.pop_when(gate)) {
    std::unique_ptr<PartitionItem> item = std::move(*next);
    auto job = item->job;
    const uint32_t p = item->partition;
    if (job->ended) continue;
    item->reservation = budget_.acquire(job->prepared->partition_bytes(),
                                        [&] { return stopping_.load() || job->ended.load(); });
    if (job->ended || stopping_) continue;
    {
      std::lock_guard lk(mu_);
      job->states[p] = PartState::Synthesizing;
      if (!job->has_started) {
        job->has_started = true;
        job->first_start = Clock::now();
      }
      if (++job->started == job->partitions && job->preparing) {
        job->preparing = false;
        preparing_jobs_--;
        job_cv_.notify_all();
      }
    }
    synthesizing_++;
    tl_.emit("SYNTH_START", job->id, part_detail(p));
    auto t0 = Clock::now();
    try {
      synth_arena_.execute([&] { item->work = job->prepared->synthesize(p, job->srs.resources()); });
    } catch (const std::exception& e) {
      synthesizing_--;
      tl_.emit("SYNTH_END", job->id, part_detail(p) + ",synth_ms=" + std::to_string(ms_between(t0, Clock::now())) + ",error=1");
      fail_job(job, "partition " + std::to_string(p) + ": synthesis failed: " + e.what());
      continue;
    }
    const uint64_t ms = ms_between(t0, Clock::now());
    synthesizing_--;
    tl_.emit("SYNTH_END", job->id, part_detail(p) + ",synth_ms=" + std::to_string(ms));
    {
      std::lock_guard lk(mu_);
      job->synth_ms[p] = ms;
      if (!job->ended) job->states[p] = PartState::SynthDone;
    }
    if (job->ended) {
      dealloc_.defer(std::move(item->work));
      continue;
    }
    tl_.emit("GPU_QUEUE", job->id, part_detail(p));
    device_queue_.push(job->key(p), std::move(item));
  }
}

std::unique_ptr<PartitionItem> Engine::take_live(std::unique_ptr<PartitionItem> item) {
  if (!item->job->ended) return item;
  dealloc_.defer(std::move(item->work));  // freed off the hot path
  return nullptr;
}

void Engine::device_loop(DeviceSlot& slot, uint32_t w) {
  const size_t local = w % slot.workers.size();
  while (auto next = device_queue_.pop()) {
    synth_queue_.notify();  // the pacer's gate depends on the device queue
    std::unique_ptr<PartitionItem> item = take_live(std::move(*next));
    if (!item) continue;
    auto job = item->job;
    const uint32_t p = item->partition;
    tl_.emit("GPU_PICKUP", job->id, worker_detail(w, p));
    {
      std::lock_guard lk(mu_);
      auto& ws = slot.workers[local];
      ws.proving = true;
      ws.job_id = job->id;
      ws.kind = kind_name(job->kind);
      ws.partition = int(p);
      ws.since = Clock::now();
      job->states[p] = PartState::Gpu;
    }
    tl_.emit("GPU_START", job->id, worker_detail(w, p));
    item->gpu_start = Clock::now();
    item->worker = w;
    std::string error;
    {
      std::lock_guard interlock(slot.interlock);
      tl_.emit("GPU_LOCK", job->id, worker_detail(w, p));
      try {
        if (!job->ended) slot.device->arena().execute([&] { item->work->device_phase(*slot.device); });
      } catch (const std::exception& e) {
        error = e.what();
      }
      tl_.emit("GPU_UNLOCK", job->id, worker_detail(w, p));
    }
    {
      std::lock_guard lk(mu_);
      auto& ws = slot.workers[local];
      ws.busy_secs += std::chrono::duration<double>(Clock::now() - ws.since).count();
      ws.proving = false;
      ws.job_id.clear();
      ws.kind.clear();
      ws.partition = -1;
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
    tails_running_++;
    std::string proof, error;
    try {
      slot.device->arena().execute([&] { proof = item->work->finish(*slot.device); });
    } catch (const std::exception& e) {
      error = e.what();
    }
    tails_running_--;
    synth_queue_.notify();  // the throttle's gate
    const uint64_t gpu_ms = ms_between(item->gpu_start, Clock::now());
    tl_.emit("GPU_END", job->id,
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
    partition_done(job, p, std::move(proof), *slot.device);
  }
}

void Engine::partition_done(const std::shared_ptr<Job>& job, uint32_t p, std::string proof,
                            Device& dev) {
  {
    std::lock_guard lk(mu_);
    if (job->ended) return;
    job->proofs[p] = std::move(proof);
    job->states[p] = PartState::Done;
    if (++job->done < job->partitions) return;
  }
  // Every partition is in: assemble (and self-check) on this finalizer.
  tl_.emit("ASSEMBLE_START", job->id, "partitions=" + std::to_string(job->partitions));
  std::string all;
  for (auto& part : job->proofs) all += part;
  std::string verdict;
  if (cfg_.self_check) {
    try {
      dev.arena().execute([&] { verdict = job->prepared->verify(all, job->srs.resources()); });
    } catch (const std::exception& e) {
      verdict = e.what();
    }
  }
  tl_.emit("ASSEMBLE_END", job->id,
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
  drop_queued_work(job->id);
}

void Engine::finish_locked(Job& job, JobStatus st, const std::string& err) {
  job.status = st;
  job.error = err;
  job.finished_at = Clock::now();
  job.ended = true;
  for (auto& s : job.states)
    if (s != PartState::Done) s = PartState::Failed;
  if (job.preparing) {
    job.preparing = false;
    preparing_jobs_--;
  }
  const std::string kind = kind_name(job.kind);
  if (st == JobStatus::Completed) {
    completed_++;
    completed_by_kind_[kind]++;
    durations_s_.push_back(std::chrono::duration<double>(job.finished_at - job.submitted).count());
  } else if (st == JobStatus::Failed) {
    failed_++;
    failed_by_kind_[kind]++;
  }
  // Parameters stay resident for other jobs; this job's pin goes.
  job.srs.reset();
  job_cv_.notify_all();
}

void Engine::drop_queued_work(const std::string& id) {
  auto of_job = [&](const WorkKey&, const auto& item) { return item->job->id == id; };
  auto a = synth_queue_.remove_if(of_job);
  auto b = device_queue_.remove_if(of_job);
  for (auto& slot : devices_) slot->final_queue.remove_if(of_job);
  job_queue_.remove_if([&](const WorkKey&, const std::shared_ptr<Job>& j) { return j->id == id; });
  for (auto& item : b) dealloc_.defer(std::move(item->work));
}

// ---------------------------------------------------------------- queries

ProofResult Engine::await(const std::string& id, std::optional<std::chrono::milliseconds> timeout) {
  std::unique_lock lk(mu_);
  auto it = jobs_.find(id);
  if (it == jobs_.end())
    throw ServiceError(ServiceError::Code::NotFound, "unknown job id " + id);
  std::shared_ptr<Job> job = it->second;
  auto done = [&] { return job->ended.load(); };
  if (timeout) {
    job_cv_.wait_for(lk, *timeout, done);
  } else {
    job_cv_.wait(lk, done);
  }
  ProofResult r;
  r.job_id = job->id;
  const auto now = Clock::now();
  if (!job->ended) {
    r.status = JobStatus::Timeout;
    r.error_message = "timed out after " + std::to_string(timeout->count()) + " ms; job still running";
  } else {
    r.status = job->status;
    r.error_message = job->error;
    r.proof = job->proof;
  }
  const auto end = job->ended ? job->finished_at : now;
  r.queue_wait_ms = ms_between(job->submitted, job->has_started ? job->first_start : end);
  r.srs_load_ms = job->srs_load_ms;
  for (auto v : job->synth_ms) r.synthesis_ms += v;
  for (auto v : job->gpu_ms) r.gpu_compute_ms += v;
  r.total_ms = ms_between(job->submitted, end);
  return r;
}

bool Engine::cancel(const std::string& id) {
  bool was_running = false;
  {
    std::lock_guard lk(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end())
      throw ServiceError(ServiceError::Code::NotFound, "unknown job id " + id);
    Job& job = *it->second;
    if (job.ended) return false;
    was_running = job.has_started;  // any partition began synthesis
    finish_locked(job, JobStatus::Cancelled, "cancelled by request");
  }
  tl_.emit("CANCEL", id, was_running ? "was_running=1" : "was_running=0");
  drop_queued_work(id);
  return was_running;
}

void Engine::prune_locked() {
  const auto now = Clock::now();
  size_t ended = 0;
  for (auto& [id, j] : jobs_) ended += j->ended;
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    const Job& j = *it->second;
    bool old = j.ended && now - j.finished_at > cfg_.result_retention;
    bool over = j.ended && ended > cfg_.result_retention_count;
    if (old || over) {
      ended--;
      it = jobs_.erase(it);
    } else {
      ++it;
    }
  }
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

void Engine::shutdown(std::chrono::milliseconds grace) {
  {
    std::lock_guard lk(mu_);
    if (!accepting_ && stopping_) return;
    accepting_ = false;
  }
  // Jobs not yet dispatched (queued, or held by the batch collector): cancel now.
  job_queue_.remove_if([](const WorkKey&, const std::shared_ptr<Job>&) { return true; });
  {
    std::lock_guard lk(mu_);
    for (auto& [id, j] : jobs_)
      if (!j->ended && !j->dispatched) finish_locked(*j, JobStatus::Cancelled, "daemon shutting down");
    job_cv_.notify_all();
  }
  // Running jobs: let them finish within the grace period.
  {
    std::unique_lock lk(mu_);
    job_cv_.wait_for(lk, grace, [&] {
      for (auto& [id, j] : jobs_)
        if (!j->ended) return false;
      return true;
    });
    for (auto& [id, j] : jobs_)
      if (!j->ended) finish_locked(*j, JobStatus::Cancelled, "daemon shutting down");
    stopping_ = true;
    job_cv_.notify_all();
  }
  job_queue_.close();
  synth_queue_.close();
  device_queue_.close();
  for (auto& slot : devices_) slot->final_queue.close();
  budget_.poke();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

}  // namespace cuzk::engine
