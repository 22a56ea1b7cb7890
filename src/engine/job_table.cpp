#include "engine/job_table.hpp"

#include <algorithm>

namespace cuzk::engine {

void JobCounts::record(const std::string& kind, JobStatus status, double secs) {
  if (status == JobStatus::Completed) {
    completed++;
    completed_by_kind[kind]++;
    duration_sum_s += secs;
    for (size_t b = 0; b < kDurationBounds.size(); b++) duration_buckets[b] += secs <= kDurationBounds[b];
  } else if (status == JobStatus::Failed) {
    failed++;
    failed_by_kind[kind]++;
  }
}

void JobTable::add(JobPtr job) {
  if (!job->request_id.empty()) by_request_[job->request_id].push_back(job);
  jobs_[job->id] = std::move(job);
  live_++;
}

JobTable::JobPtr JobTable::reusable(const std::string& request_id, const PayloadDigest& d) const {
  auto it = by_request_.find(request_id);
  if (it == by_request_.end()) return nullptr;
  // Newest first: a retry of a FAILED job is the one that answers.
  for (auto j = it->second.rbegin(); j != it->second.rend(); ++j)
    if ((*j)->digest == d && (!(*j)->ended || (*j)->status == JobStatus::Completed)) return *j;
  return nullptr;
}

JobTable::JobPtr JobTable::resolve(const std::string& id) const {
  if (auto it = jobs_.find(id); it != jobs_.end()) return it->second;
  if (auto it = by_request_.find(id); it != by_request_.end() && !it->second.empty())
    return it->second.back();
  throw ServiceError(ServiceError::Code::NotFound, "unknown job id " + id);
}

std::vector<JobTable::JobPtr> JobTable::named(const std::string& id) const {
  if (auto it = jobs_.find(id); it != jobs_.end()) return {it->second};
  if (auto it = by_request_.find(id); it != by_request_.end()) return it->second;
  return {};
}

void JobTable::ended(const Job& job) {
  live_--;
  if (auto it = jobs_.find(job.id); it != jobs_.end()) ended_order_.push_back(it->second);
}

void JobTable::prune(Clock::time_point now, size_t keep, Clock::duration keep_for) {
  while (!ended_order_.empty()) {
    const JobPtr& oldest = ended_order_.front();
    if (ended_order_.size() <= keep && now - oldest->finished_at <= keep_for) break;
    if (auto r = by_request_.find(oldest->request_id); r != by_request_.end()) {
      std::erase(r->second, oldest);
      if (r->second.empty()) by_request_.erase(r);
    }
    jobs_.erase(oldest->id);
    ended_order_.pop_front();
  }
}

std::vector<JobTable::JobPtr> JobTable::recently_ended(size_t n) const {
  std::vector<JobPtr> out;
  for (auto it = ended_order_.rbegin(); it != ended_order_.rend() && out.size() < n; ++it) out.push_back(*it);
  return out;
}

}  // namespace cuzk::engine
