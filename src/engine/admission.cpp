// Admission (admission.hpp).
#include "engine/admission.hpp"

#include <random>

#include "engine/job.hpp"
#include "engine/request_codec.hpp"
#include "timeline/event_names.hpp"

namespace cuzk::engine {

namespace {

using Code = ServiceError::Code;

constexpr size_t kMaxRequestIdBytes = 256;
// Job record, per-partition state vectors and the 192-byte proofs.
constexpr uint64_t kJobOverheadBytes = 1024, kPartitionOverheadBytes = 512;

}  // namespace

std::string new_job_id() {
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

namespace {

std::string mib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / 1048576.0);
  return buf;
}

}  // namespace

// The id is written into TIMELINE lines (comma-separated) and logs: printable
// ASCII without commas or spaces.
void validate_request_id(const std::string& id) {
  if (id.size() > kMaxRequestIdBytes)
    throw ServiceError(Code::InvalidArgument, "request_id is " + std::to_string(id.size()) +
                                                  " bytes, at most " + std::to_string(kMaxRequestIdBytes) +
                                                  " are allowed");
  // Commas and control characters would break TIMELINE lines; inner spaces
  // are allowed because Curio's WindowPoSt ids have them (Go's %d of the
  // randomness bytes: "wdpost-<miner>-<partition>-[90 90 ...]"), edge spaces
  // are not (log readers trim them).
  for (size_t i = 0; i < id.size(); i++) {
    unsigned char c = uint8_t(id[i]);
    const bool edge_space = c == ' ' && (i == 0 || i + 1 == id.size());
    if (c < 0x20 || c >= 0x7f || c == ',' || edge_space)
      throw ServiceError(Code::InvalidArgument,
                         "request_id has a disallowed character at byte " + std::to_string(i) + " (code " +
                             std::to_string(c) +
                             "): use printable ASCII without commas (spaces only inside), e.g. "
                             "porep-<miner>-<sector>");
  }
}

void Admission::check_request(const ProofRequest& req) const {
  if (req.kind == ProofKind::Unspecified) throw ServiceError(Code::InvalidArgument, "proof_kind is required");
  if (!handler_of(handlers_, req.kind))
    throw ServiceError(Code::InvalidArgument, std::string("proof kind ") + kind_name(req.kind) + " (" +
                                                  std::to_string(int(req.kind)) +
                                                  ") is not supported by this daemon");
  validate_request_id(req.request_id);
  const uint64_t bytes = payload_size(req);
  auto it = cfg_.max_payload_by_kind.find(kind_name(req.kind));
  const uint64_t limit = it != cfg_.max_payload_by_kind.end() ? it->second : cfg_.max_payload_bytes;
  if (bytes > limit)
    throw ServiceError(Code::ResourceExhausted, std::string(kind_name(req.kind)) + " payload of " +
                                                    mib(bytes) + " exceeds limits.max_payload (" +
                                                    mib(limit) + ")");
}

KindHandler* handler_of(const std::vector<std::unique_ptr<KindHandler>>& handlers, ProofKind k) {
  for (auto& h : handlers)
    if (h->kind() == k) return h.get();
  return nullptr;
}

Admission::Admission(const EngineConfig& cfg, const std::vector<std::unique_ptr<KindHandler>>& handlers,
                     MemoryBudget& payload_budget, const MemoryBudget& budget, JobBoard& board,
                     Dispatcher& dispatcher, const DeviceStage& devices, TimelineEmitter& tl)
    : cfg_(cfg),
      handlers_(handlers),
      payload_budget_(payload_budget),
      budget_(budget),
      board_(board),
      dispatcher_(dispatcher),
      devices_(devices),
      tl_(tl) {}

std::string job_id_for(const std::string& request_id, uint64_t seq) {
  return request_id + "#" + std::to_string(seq);
}

std::optional<SubmitResult> Admission::existing(const JobTable& jobs, const ProofRequest& req,
                                                const PayloadDigest& d) const {
  if (auto job = jobs.reusable(req.request_id, d))
    return SubmitResult{job->id, 0, devices_.assigned_device()};
  return std::nullopt;
}

SubmitResult Admission::submit(ProofRequest req) {
  check_request(req);
  const PayloadDigest digest = payload_digest(req);
  std::string id;
  uint64_t seq = 0;
  const std::optional<SubmitResult> found =
      board_.admitting([&](JobTable& jobs) -> std::optional<SubmitResult> {
        jobs.prune(Clock::now(), cfg_.result_retention_count, cfg_.result_retention);
        if (!req.request_id.empty())
          if (auto r = existing(jobs, req, digest)) return r;
        if (jobs.live() >= cfg_.max_queued_jobs)
          throw ServiceError(Code::ResourceExhausted,
                             "queue full: " + std::to_string(jobs.live()) +
                                 " jobs admitted and not finished (limits.max_queued_jobs)");
        // The number is taken now, in submission order, so that the parse events
        // carry the job's id; a refused request leaves a gap in the numbering.
        seq = jobs.take_seq();
        id = req.request_id.empty() ? new_job_id() : job_id_for(req.request_id, seq);
        return std::nullopt;
      });
  if (found) return *found;
  const ProofKind kind = req.kind;
  const Priority priority = req.priority;
  tl_.emit(timeline::events::kParseStart, id, std::string("kind=") + kind_name(kind));
  std::shared_ptr<PreparedJob> prepared;
  try {
    prepared = prepare_request(req);
  } catch (const ServiceError&) {
    tl_.emit(timeline::events::kParseEnd, id, "error=1");
    throw;
  }
  const uint32_t parts = prepared->num_partitions();
  tl_.emit(timeline::events::kParseEnd, id, "partitions=" + std::to_string(parts));
  auto job = std::make_shared<Job>();
  const uint64_t held = prepared->resident_bytes() + kJobOverheadBytes + kPartitionOverheadBytes * parts;
  if (!payload_budget_.try_acquire(held, job->admission))
    throw ServiceError(Code::ResourceExhausted, "payload budget full: " + mib(payload_budget_.used()) +
                                                    " of " + mib(payload_budget_.limit()) +
                                                    " held by admitted jobs, this one needs " + mib(held) +
                                                    " (limits.payload_budget); retry when jobs finish");
  job->id = id;
  job->request_id = req.request_id;
  job->kind = kind;
  job->priority = priority == Priority::Unspecified ? default_priority(kind) : priority;
  job->digest = digest;
  job->handler = handler_of(handlers_, kind);
  job->circuit_id = prepared->circuit_id();
  job->partitions = parts;
  job->prepared = std::move(prepared);
  job->proofs.resize(parts);
  job->states.assign(parts, PartState::Pending);
  job->synth_ms.assign(parts, 0);
  job->gpu_ms.assign(parts, 0);
  job->submitted = Clock::now();

  const SubmitResult res = board_.admitting([&](JobTable& jobs) {
    if (!req.request_id.empty()) {
      if (auto r = existing(jobs, req, digest)) return *r;  // lost a race with an identical submit
    }
    job->seq = seq;
    jobs.add(job);
    return SubmitResult{id, dispatcher_.enqueue(job), devices_.assigned_device()};
  });
  board_.notify();  // a dispatcher holding a lower-priority job gives it back (dispatcher.cpp)
  return res;
}

std::unique_ptr<PreparedJob> Admission::prepare_request(ProofRequest& req) const {
  KindHandler* h = handler_of(handlers_, req.kind);
  std::unique_ptr<PreparedJob> prepared;
  try {
    prepared = h->prepare(req);
  } catch (const ServiceError&) {
    throw;
  } catch (const std::exception& e) {
    throw ServiceError(Code::InvalidArgument, e.what());
  }
  const uint32_t parts = prepared->num_partitions();
  if (parts == 0) throw ServiceError(Code::InvalidArgument, "request has no partitions to prove");
  if (parts > cfg_.max_partitions_per_request)
    throw ServiceError(Code::ResourceExhausted, "request has " + std::to_string(parts) +
                                                    " partitions, limits.max_partitions_per_request is " +
                                                    std::to_string(cfg_.max_partitions_per_request));
  // A partition that cannot fit beside its parameters would wait forever.
  const uint64_t need = prepared->partition_bytes() + h->estimate_size(prepared->circuit_id());
  if (need > budget_.limit())
    throw ServiceError(Code::ResourceExhausted,
                       "a partition of " + prepared->circuit_id() + " needs " + mib(need) +
                           " with its parameters, the memory budget for proving is " + mib(budget_.limit()) +
                           " (memory.total_budget)");
  return prepared;
}

Admission::Checked Admission::check(const ProofRequest& req) const {
  check_request(req);
  board_.require_accepting();
  ProofRequest copy = req;  // prepare may move the payload out
  const std::unique_ptr<PreparedJob> prepared = prepare_request(copy);
  return Checked{prepared->circuit_id(), prepared->num_partitions()};
}

}  // namespace cuzk::engine
