#include "server/timeline_ring.hpp"

#include <algorithm>
#include <charconv>

namespace cuzk::server {

TimelineRing::TimelineRing(size_t max_lines, std::chrono::milliseconds max_age)
    : max_lines_(std::max<size_t>(1, max_lines)), max_age_ms_(max_age.count()) {}

void TimelineRing::add(std::string_view line) {
  constexpr std::string_view kTag = "TIMELINE,";
  if (line.substr(0, kTag.size()) != kTag) return;
  std::string_view rest = line.substr(kTag.size());
  int64_t offset = 0;
  auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), offset);
  if (ec != std::errc() || p == rest.data() + rest.size() || *p != ',') return;
  std::lock_guard lk(mu_);
  lines_.push_back({offset, std::string(line)});
  newest_ = std::max(newest_, offset);
  while (lines_.size() > max_lines_ || (lines_.front().offset < newest_ - max_age_ms_)) {
    lines_.pop_front();
    dropped_++;
    if (lines_.empty()) break;
  }
}

std::string TimelineRing::lines_since(int64_t since_ms) const {
  std::lock_guard lk(mu_);
  std::string out;
  for (const Entry& e : lines_) {
    if (e.offset < since_ms) continue;
    out += e.line;
    out += '\n';
  }
  return out;
}

size_t TimelineRing::size() const {
  std::lock_guard lk(mu_);
  return lines_.size();
}

uint64_t TimelineRing::dropped() const {
  std::lock_guard lk(mu_);
  return dropped_;
}

void TimelineRing::set_clock(Clock c) {
  std::lock_guard lk(mu_);
  clock_ = std::move(c);
}

int64_t TimelineRing::now_ms() const {
  Clock c;
  int64_t newest = 0;
  {
    std::lock_guard lk(mu_);
    c = clock_;
    newest = newest_;
  }
  return c ? c() : newest;
}

}  // namespace cuzk::server
