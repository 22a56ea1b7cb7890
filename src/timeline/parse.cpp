#include "timeline/parse.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "timeline/event_names.hpp"

namespace cuzk::timeline {
namespace {

constexpr std::string_view kTag = "TIMELINE,";
// A thousand years of milliseconds: keeps every sum of offsets far from overflow.
constexpr int64_t kMaxOffsetMs = 31'557'600'000'000;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

template <class Int>
bool to_int(std::string_view s, Int& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

bool valid_event_name(std::string_view n) {
  if (n.empty() || n.size() > 64) return false;
  for (char c : n)
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

std::string where(uint64_t line) { return "line " + std::to_string(line) + ": "; }

// A printable excerpt of a damaged line for a warning.
std::string excerpt(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 60)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (s.size() > 60) out += "...";
  return out;
}

}  // namespace

Parser::Parser(ParseOptions opts) : opts_(opts) {
  log_.epoch_base.push_back(0);
  seen_.assign(1024, 0);
}

void Parser::reserve_for(size_t bytes) {
  const size_t lines = bytes / 80 + 16;  // TIMELINE lines are 60-110 bytes
  log_.events.reserve(lines);
  log_.details.reserve(bytes / 4);
  if (seen_count_ == 0) {
    size_t cap = 1024;
    while (cap < lines * 2) cap *= 2;
    seen_.assign(cap, 0);
  }
}

void Parser::feed(std::string_view chunk) {
  while (!chunk.empty()) {
    const void* nl = std::memchr(chunk.data(), '\n', chunk.size());
    if (!nl) {
      partial_.append(chunk);
      return;
    }
    size_t n = size_t(static_cast<const char*>(nl) - chunk.data());
    if (partial_.empty()) {
      line(chunk.substr(0, n));
    } else {
      partial_.append(chunk.substr(0, n));
      std::string l = std::move(partial_);
      partial_.clear();
      line(l);
    }
    chunk.remove_prefix(n + 1);
  }
}

void Parser::finish() {
  if (partial_.empty()) return;
  std::string l = std::move(partial_);
  partial_.clear();
  line(l);
}

void Parser::line(std::string_view l) {
  log_.lines_total++;
  size_t p = l.starts_with(kTag) ? 0 : l.find(kTag);
  if (p == std::string_view::npos) return;
  log_.lines_timeline++;
  // Two writers without a newline between them leave two records on a line;
  // everything but the last is then cut short.
  while (true) {
    size_t q = l.find(kTag, p + kTag.size());
    if (q == std::string_view::npos) {
      record(l.substr(p + kTag.size()), false);
      return;
    }
    record(l.substr(p + kTag.size(), q - p - kTag.size()), true);
    p = q;
  }
}

bool Parser::seen_before(uint64_t h) {
  if (h == 0) h = 1;
  if ((seen_count_ + 1) * 2 > seen_.size()) {
    std::vector<uint64_t> old(seen_.size() * 2, 0);
    old.swap(seen_);
    size_t mask = seen_.size() - 1;
    for (uint64_t v : old) {
      if (!v) continue;
      size_t i = v & mask;
      while (seen_[i]) i = (i + 1) & mask;
      seen_[i] = v;
    }
  }
  size_t mask = seen_.size() - 1;
  size_t i = (h ^ (h >> 29)) & mask;
  while (seen_[i]) {
    if (seen_[i] == h) return true;
    i = (i + 1) & mask;
  }
  seen_[i] = h;
  seen_count_++;
  return false;
}

void Parser::new_epoch(int64_t offset) {
  int64_t base = log_.epoch_base.back() + epoch_max_ + opts_.epoch_separation_ms;
  log_.warnings.add(WarnKind::kRestart, where(log_.lines_total) + "offset went back from " +
                                            std::to_string(epoch_max_) + " ms to " + std::to_string(offset) +
                                            " ms: the daemon restarted, epoch " + std::to_string(epoch_ + 1) +
                                            " begins");
  log_.epoch_base.push_back(base);
  epoch_++;
  epoch_max_ = -1;
  jobs_.clear();
  std::fill(seen_.begin(), seen_.end(), 0);
  seen_count_ = 0;
}

void Parser::record(std::string_view rec, bool cut_short) {
  std::string_view s = trim(rec);
  const uint64_t lineno = log_.lines_total;
  auto bad = [&](const char* why) {
    log_.malformed++;
    log_.warnings.add(WarnKind::kMalformed, where(lineno) + why + ": \"TIMELINE," + excerpt(s) + "\"");
  };
  size_t c1 = s.find(',');
  if (c1 == std::string_view::npos) return bad("truncated record");
  int64_t offset = 0;
  if (!to_int(s.substr(0, c1), offset) || offset < 0) return bad("offset is not a whole number");
  if (offset > kMaxOffsetMs) return bad("offset out of range");
  std::string_view rest = s.substr(c1 + 1);
  size_t c2 = rest.find(',');
  if (c2 == std::string_view::npos) return bad("truncated record (no job id)");
  std::string_view name = rest.substr(0, c2);
  if (!valid_event_name(name)) return bad("bad event name");
  rest = rest.substr(c2 + 1);
  size_t c3 = rest.find(',');
  std::string_view job = trim(rest.substr(0, c3));
  std::string_view detail = c3 == std::string_view::npos ? std::string_view{} : trim(rest.substr(c3 + 1));
  if (job.empty()) return bad("empty job id");
  if (cut_short) {
    log_.malformed++;
    log_.warnings.add(WarnKind::kMalformed,
                      where(lineno) + "another record starts inside this one; its detail may be cut short");
  }

  if (seen_before(std::hash<std::string_view>{}(s)*31 + epoch_)) {
    log_.duplicates++;
    log_.warnings.add(WarnKind::kDuplicate, where(lineno) + "duplicate of an earlier line, skipped");
    return;
  }
  if (epoch_max_ >= 0 && offset + opts_.restart_tolerance_ms < epoch_max_ && epoch_ < 65535) {
    new_epoch(offset);
    seen_before(std::hash<std::string_view>{}(s)*31 + epoch_);
  }
  epoch_max_ = std::max(epoch_max_, offset);

  Event e;
  e.offset_ms = offset;
  e.epoch = epoch_;
  e.t = log_.epoch_base[epoch_] + offset;
  e.line = lineno;

  // A log has a dozen event names: a linear scan beats hashing.
  uint32_t ni = 0;
  while (ni < log_.names.size() && log_.names[ni] != name) ni++;
  if (ni == log_.names.size()) {
    log_.names.emplace_back(name);
    name_kinds_.push_back(kind_of(name));
  }
  e.name = ni;
  e.kind = name_kinds_[ni];

  auto jit = jobs_.find(job);
  auto add_job = [&](std::string id, uint16_t appearance) {
    log_.jobs.push_back(JobInfo{std::move(id), epoch_, {}});
    cancelled_.push_back(0);
    appearance_.push_back(appearance);
    return uint32_t(log_.jobs.size() - 1);
  };
  if (jit == jobs_.end()) {
    jit = jobs_.emplace(std::string(job), add_job(std::string(job), 1)).first;
  } else if (cancelled_[jit->second] && name == events::kParseStart) {
    // The id is admitted again after its CANCEL: a new job.
    const uint16_t n = uint16_t(std::min<int>(appearance_[jit->second] + 1, 65535));
    jit->second = add_job(std::string(job) + " (" + std::to_string(n) + ")", n);
  }
  e.job = jit->second;
  if (name == events::kCancel) cancelled_[e.job] = 1;

  e.detail_pos = uint32_t(std::min<size_t>(log_.details.size(), UINT32_MAX));
  e.detail_len = uint32_t(std::min<size_t>(detail.size(), UINT32_MAX - e.detail_pos));
  log_.details.append(detail.substr(0, e.detail_len));
  parse_detail(e, detail);
  log_.events.push_back(e);
}

void Parser::parse_detail(Event& e, std::string_view detail) {
  while (!detail.empty()) {
    size_t c = detail.find(',');
    std::string_view tok = trim(detail.substr(0, c));
    detail = c == std::string_view::npos ? std::string_view{} : detail.substr(c + 1);
    size_t eq = tok.find('=');
    if (eq == std::string_view::npos) continue;  // a flag such as "monolithic"
    std::string_view key = tok.substr(0, eq), val = tok.substr(eq + 1);
    bool ok = true;
    if (key == "partition") {
      ok = to_int(val, e.partition) && e.partition >= 0;
      if (!ok) e.partition = -1;
    } else if (key == "worker") {
      ok = to_int(val, e.worker) && e.worker >= 0;
      if (!ok) e.worker = -1;
    } else if (key == "synth_ms" || key == "gpu_ms") {
      ok = to_int(val, e.ms) && e.ms >= 0;
      if (!ok) e.ms = -1;
    } else if (key == "kind" && e.kind == EventKind::kSynthStart) {
      auto& k = log_.jobs[e.job].kind;
      if (k.empty()) k = std::string(val);
    }
    if (!ok) {
      log_.warnings.add(WarnKind::kBadDetail, where(e.line) + log_.names[e.name] + " detail " +
                                                  std::string(key) + "=\"" + excerpt(val) +
                                                  "\" is not a number; ignored");
    }
  }
}

namespace {
// Time order, ties in line order. Logs are nearly sorted already (threads
// print a few ms out of order), so check first and sort small keys, not events.
void sort_events(std::vector<Event>& ev) {
  auto before = [](const Event& a, const Event& b) { return a.t < b.t; };
  if (std::is_sorted(ev.begin(), ev.end(), before)) return;
  std::vector<std::pair<int64_t, uint32_t>> key(ev.size());
  for (size_t i = 0; i < ev.size(); i++) key[i] = {ev[i].t, uint32_t(i)};
  std::sort(key.begin(), key.end());  // index breaks ties: stable
  std::vector<Event> out;
  out.reserve(ev.size());
  for (const auto& k : key) out.push_back(ev[k.second]);
  ev.swap(out);
}
}  // namespace

Log Parser::snapshot() const {
  Log out = log_;
  sort_events(out.events);
  return out;
}

Log Parser::take() {
  Log out = std::move(log_);
  sort_events(out.events);
  *this = Parser(opts_);
  return out;
}

Log parse_text(std::string_view text, const ParseOptions& opts) {
  Parser p(opts);
  p.reserve_for(text.size());
  p.feed(text);
  p.finish();
  return p.take();
}

Log parse_file(const std::string& path, const ParseOptions& opts) {
  FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open timeline log '" + path + "': " + std::strerror(errno));
  Parser p(opts);
  if (f != stdin && std::fseek(f, 0, SEEK_END) == 0) {
    long size = std::ftell(f);
    if (size > 0) p.reserve_for(size_t(size));
    std::rewind(f);
  }
  std::string buf(1 << 20, '\0');
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) p.feed(std::string_view(buf.data(), n));
  bool err = std::ferror(f);
  if (f != stdin) std::fclose(f);
  if (err) throw std::runtime_error("error reading timeline log '" + path + "'");
  p.finish();
  return p.take();
}

}  // namespace cuzk::timeline
