#include "timeline/event.hpp"

#include <algorithm>

#include "timeline/event_names.hpp"

namespace cuzk::timeline {

EventKind kind_of(std::string_view n) {
  if (n == events::kSynthStart) return EventKind::kSynthStart;
  if (n == events::kSynthEnd) return EventKind::kSynthEnd;
  if (n == events::kGpuQueue || n == events::kChanSend) return EventKind::kGpuQueue;
  if (n == events::kGpuPickup) return EventKind::kGpuPickup;
  if (n == events::kGpuStart) return EventKind::kGpuStart;
  if (n == events::kGpuEnd) return EventKind::kGpuEnd;
  if (n == events::kGpuLock) return EventKind::kGpuLock;
  if (n == events::kGpuUnlock) return EventKind::kGpuUnlock;
  return EventKind::kOther;
}

const char* warn_kind_name(WarnKind k) {
  switch (k) {
    case WarnKind::kMalformed: return "malformed";
    case WarnKind::kDuplicate: return "duplicate";
    case WarnKind::kRestart: return "restart";
    case WarnKind::kBadDetail: return "bad-detail";
    case WarnKind::kUnpaired: return "unpaired";
    case WarnKind::kInferred: return "inferred";
    default: return "other";
  }
}

void Warnings::add(WarnKind k, std::string msg) {
  if (counts_[size_t(k)]++ < kKeepPerKind) kept_.emplace_back(k, std::move(msg));
}

uint64_t Warnings::total() const {
  uint64_t n = 0;
  for (auto c : counts_) n += c;
  return n;
}

std::vector<std::string> Warnings::lines() const {
  std::vector<std::string> out;
  out.reserve(kept_.size() + 4);
  for (const auto& [k, m] : kept_) out.push_back(m);
  for (size_t k = 0; k < counts_.size(); k++) {
    if (counts_[k] > kKeepPerKind) {
      out.push_back("... and " + std::to_string(counts_[k] - kKeepPerKind) + " more " +
                    warn_kind_name(WarnKind(k)) + " warnings");
    }
  }
  return out;
}

void Warnings::merge(const Warnings& o) {
  for (const auto& [k, m] : o.kept_) {
    if (counts_[size_t(k)] < kKeepPerKind) kept_.emplace_back(k, m);
    counts_[size_t(k)]++;
  }
  // Messages the other side only counted.
  for (size_t k = 0; k < counts_.size(); k++) {
    uint64_t kept_there = std::min<uint64_t>(o.counts_[k], kKeepPerKind);
    counts_[k] += o.counts_[k] - kept_there;
  }
}

uint16_t Log::epoch_at(int64_t t) const {
  if (epoch_base.size() <= 1) return 0;
  auto it = std::upper_bound(epoch_base.begin(), epoch_base.end(), t);
  if (it == epoch_base.begin()) return 0;
  return uint16_t(it - epoch_base.begin() - 1);
}

int64_t Log::offset_at(int64_t t) const {
  if (epoch_base.empty()) return t;
  return t - epoch_base[epoch_at(t)];
}

}  // namespace cuzk::timeline
