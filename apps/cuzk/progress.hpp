#pragma once
// Progress where people wait, for the cuzk CLI's long steps and cuzk-bench's
// batch (which includes this header from apps/cuzk/).
//
// On a terminal a count is one line rewritten in place ("\r…\033[K"): done/total,
// percent, rate and ETA. Anywhere else (a log file, a pipe, CI) nothing is
// rewritten: plain lines, throttled, that read well in a log.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>

namespace cuzk::cli {

using ProgressClock = std::chrono::steady_clock;

// Whether `f` is a terminal that understands "\r" and "\033[K" (not TERM=dumb).
inline bool is_live_terminal(FILE* f) {
  const char* term = std::getenv("TERM");
  return ::isatty(::fileno(f)) && !(term && std::string_view(term) == "dumb");
}

// "12 s", "4 min 05 s", "1 h 02 min".
inline std::string human_duration(double s) {
  char b[48];
  if (s < 60) std::snprintf(b, sizeof b, "%.0f s", s);
  else if (s < 3600) std::snprintf(b, sizeof b, "%d min %02d s", int(s / 60), int(s) % 60);
  else std::snprintf(b, sizeof b, "%d h %02d min", int(s / 3600), int(s / 60) % 60);
  return b;
}

// "3/10 (30%) · 1.2/s · ETA 6 s": the count, its rate since the count began
// `elapsed_s` ago and the time left at that rate (none before the first item
// is done). `unit` names an item ("proof": "1.2 proofs/s", "4.1 s/proof").
inline std::string count_text(size_t done, size_t total, double elapsed_s, const char* unit = "") {
  char b[192];
  const double pct = total ? 100.0 * double(done) / double(total) : 0;
  int n = std::snprintf(b, sizeof b, "%zu/%zu (%.0f%%)", done, total, pct);
  if (done > 0 && elapsed_s > 0) {
    const double rate = double(done) / elapsed_s;
    const bool named = *unit != '\0';
    if (rate >= 1)
      n += std::snprintf(b + n, sizeof b - size_t(n), " · %.*f%s%s%s/s", rate >= 100 ? 0 : 1, rate,
                         named ? " " : "", unit, named ? "s" : "");
    else if (named) n += std::snprintf(b + n, sizeof b - size_t(n), " · %.1f s/%s", 1 / rate, unit);
    else n += std::snprintf(b + n, sizeof b - size_t(n), " · %.1f s each", 1 / rate);
    if (done < total)
      std::snprintf(b + n, sizeof b - size_t(n), " · ETA %s",
                    human_duration(double(total - done) / rate).c_str());
  }
  return b;
}

// One line on a terminal, rewritten in place. Callers that print other lines
// to the same terminal clear() it first and redraw() after (under their lock).
class LiveLine {
 public:
  explicit LiveLine(FILE* out) : out_(out) {}
  void show(const std::string& text) {
    std::fprintf(out_, "\r%s\033[K", text.c_str());
    std::fflush(out_);
    text_ = text;
  }
  void clear() {
    if (text_.empty()) return;
    std::fputs("\r\033[K", out_);
    std::fflush(out_);
  }
  void redraw() {
    if (!text_.empty()) show(text_);
  }
  void done() {  // keep the last text as an ordinary line
    if (text_.empty()) return;
    std::fputc('\n', out_);
    std::fflush(out_);
    text_.clear();
  }

 private:
  FILE* out_;
  std::string text_;
};

// Timestamped progress on stderr for the cuzk CLI's long steps: step() is a
// line; stage() counts the items of a stage (in place on a terminal with
// rate and ETA, a line a second otherwise).
struct Progress {
  bool quiet = false;
  bool live = is_live_terminal(stderr);
  ProgressClock::time_point t0 = ProgressClock::now(), last = t0, stage_start = t0;
  std::string stage_name;
  LiveLine line{stderr};
  std::mutex m;  // stages may report from several threads at once
  double since_start(ProgressClock::time_point now) const {
    return std::chrono::duration<double>(now - t0).count();
  }
  void step(const std::string& what) {
    if (quiet) return;
    std::lock_guard lock(m);
    auto now = ProgressClock::now();
    line.done();
    std::fprintf(stderr, "[cuzk %8.3fs] %s\n", since_start(now), what.c_str());
    last = now;
  }
  void stage(std::string_view st, size_t done, size_t total) {
    if (quiet) return;
    std::lock_guard lock(m);
    auto now = ProgressClock::now();
    if (st != stage_name) {
      line.done();
      stage_name = st;
      stage_start = now;
    }
    const bool edge = done == 0 || done == total;
    if (live) {
      if (!edge && now - last < std::chrono::milliseconds(100)) return;
      const double el = std::chrono::duration<double>(now - stage_start).count();
      char head[64];
      std::snprintf(head, sizeof head, "[cuzk %8.3fs]   ", since_start(now));
      line.show(head + std::string(st) + " " + count_text(done, total, el));
      if (done == total) line.done();
    } else {
      if (!edge && now - last < std::chrono::seconds(1)) return;  // throttle
      std::fprintf(stderr, "[cuzk %8.3fs]   %.*s %zu/%zu\n", since_start(now), int(st.size()), st.data(),
                   done, total);
    }
    last = now;
  }
};

}  // namespace cuzk::cli
