#pragma once
// Half-open [start, end) millisecond spans: union, length, complement and
// intersection, all on sorted, disjoint lists.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace cuzk::timeline {

struct Span {
  int64_t start = 0, end = 0;
  int64_t len() const { return end - start; }
  friend bool operator==(const Span&, const Span&) = default;
};

// Sorted, disjoint union of arbitrary spans (empty spans dropped; touching
// spans joined).
inline std::vector<Span> merge_spans(std::vector<Span> v) {
  std::erase_if(v, [](const Span& s) { return s.end <= s.start; });
  std::sort(v.begin(), v.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
  std::vector<Span> out;
  for (const Span& s : v) {
    if (!out.empty() && s.start <= out.back().end) {
      out.back().end = std::max(out.back().end, s.end);
    } else {
      out.push_back(s);
    }
  }
  return out;
}

inline int64_t total_len(const std::vector<Span>& v) {
  int64_t n = 0;
  for (const Span& s : v) n += s.len();
  return n;
}

// The parts of `window` not covered by the sorted, disjoint `busy`.
inline std::vector<Span> complement(const std::vector<Span>& busy, Span window) {
  std::vector<Span> out;
  int64_t cur = window.start;
  for (const Span& s : busy) {
    if (s.end <= cur) continue;
    if (s.start >= window.end) break;
    if (s.start > cur) out.push_back({cur, std::min(s.start, window.end)});
    cur = std::max(cur, s.end);
    if (cur >= window.end) break;
  }
  if (cur < window.end) out.push_back({cur, window.end});
  return out;
}

// Length of the overlap of one span with a sorted, disjoint list.
inline int64_t overlap_len(const std::vector<Span>& v, Span s) {
  auto it =
      std::lower_bound(v.begin(), v.end(), s.start, [](const Span& a, int64_t t) { return a.end <= t; });
  int64_t n = 0;
  for (; it != v.end() && it->start < s.end; ++it)
    n += std::min(it->end, s.end) - std::max(it->start, s.start);
  return n;
}

}  // namespace cuzk::timeline
