// cuzk-bench stress: mixed proof kinds at given arrival rates for a duration
// (open loop), with a bounded number of requests in flight, optional random
// cancellation, progress on stderr, and per-kind latency percentiles and
// failures at the end.
//
//   cuzk-bench -a unix:///tmp/cuzk.sock stress --duration 2m
//     --mix "r1cs@2/s,circuit=toy,witness=w0.bin,witness=w1.bin"
//     --mix "winning@6/min,vanilla=win.json,priority=critical"
//
// A --mix entry is KIND@RATE followed by comma-separated key=value inputs:
// circuit, witness (repeat), vanilla, c1, priority, registered_proof,
// sector_size, partition, randomness, label. RATE is per second, or with
// /s, /m (/min), /h. Missing inputs fall back to the command's own flags.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "client_common.hpp"
#include "commands.hpp"
#include "engine/config.hpp"  // parse_duration

namespace cuzk::bench_cli {
namespace {

using Clock = std::chrono::steady_clock;

struct MixEntry {
  std::string label;
  double rate_per_s = 0;
  pb::SubmitProofRequest tmpl;
};

struct StressOpts {
  std::vector<std::string> mix;
  JobOptions defaults;  // -t ... with --rate: a one-kind mix; also fallbacks for --mix inputs
  double rate = 0;
  std::string duration = "60s";
  uint32_t max_in_flight = 32;
  double cancel_fraction = 0;
  uint32_t cancel_delay_ms = 500;
  std::string drain_timeout = "10m";
  double progress_s = 5;
  bool poisson = false;
  uint64_t seed = 0;
};

double parse_rate(const std::string& s) {
  std::string num = s, unit = "s";
  if (auto p = s.find('/'); p != std::string::npos) {
    num = s.substr(0, p);
    unit = s.substr(p + 1);
  }
  double v = 0;
  try {
    size_t used = 0;
    v = std::stod(num, &used);
    if (used != num.size()) throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    throw std::runtime_error("invalid rate '" + s + "' (e.g. 2, 0.5/s, 6/min)");
  }
  if (!(v > 0)) throw std::runtime_error("rate must be > 0 in '" + s + "'");
  if (unit == "s" || unit == "sec") return v;
  if (unit == "m" || unit == "min") return v / 60.0;
  if (unit == "h" || unit == "hr") return v / 3600.0;
  throw std::runtime_error("invalid rate unit in '" + s + "' (use /s, /min, /h)");
}

MixEntry parse_mix(const std::string& spec, const JobOptions& defaults) {
  auto at = spec.find('@');
  if (at == std::string::npos)
    throw std::runtime_error("--mix '" + spec + "': expected KIND@RATE[,key=value...]");
  std::vector<std::string> parts;
  {
    std::string rest = spec.substr(at + 1), cur;
    for (char c : rest) {
      if (c == ',') {
        parts.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    parts.push_back(cur);
  }
  MixEntry e;
  JobOptions o = defaults;
  o.type = spec.substr(0, at);
  o.witness.clear();
  e.rate_per_s = parse_rate(parts[0]);
  std::vector<std::string> witness;
  for (size_t i = 1; i < parts.size(); i++) {
    auto eq = parts[i].find('=');
    if (eq == std::string::npos)
      throw std::runtime_error("--mix '" + spec + "': expected key=value, got '" + parts[i] + "'");
    std::string k = parts[i].substr(0, eq), v = parts[i].substr(eq + 1);
    if (k == "circuit") o.circuit = v;
    else if (k == "witness") witness.push_back(v);
    else if (k == "vanilla") o.vanilla = v;
    else if (k == "c1") o.c1 = v;
    else if (k == "priority") o.priority = v;
    else if (k == "registered_proof") o.registered_proof = std::stoull(v);
    else if (k == "sector_size") o.sector_size = std::stoull(v);
    else if (k == "partition") o.partition = uint32_t(std::stoul(v));
    else if (k == "randomness") o.randomness = v;
    else if (k == "label") e.label = v;
    else throw std::runtime_error("--mix '" + spec + "': unknown key '" + k + "'");
  }
  o.witness = witness.empty() ? defaults.witness : witness;
  e.tmpl = build_request(o);
  if (e.label.empty()) {
    e.label = kind_label(e.tmpl.proof_kind());
    if (!o.circuit.empty() && e.tmpl.proof_kind() == pb::GENERIC_R1CS) e.label += ":" + o.circuit;
    if (!o.priority.empty()) e.label += "/" + o.priority;
  }
  return e;
}

struct Task {
  size_t entry;
  Clock::time_point scheduled;
  uint64_t seq;
};

// Per-label results.
struct KindStats {
  uint64_t sent = 0, completed = 0, failed = 0, cancelled = 0, timeout = 0, errors = 0, shed = 0;
  std::vector<double> latency_s;  // completed only, from scheduled arrival to result
  std::vector<std::string> failures;
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t rank = size_t(std::ceil(p / 100.0 * double(v.size())));
  return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

// The --mix entries, then the -t/--rate kind.
std::vector<MixEntry> build_mix(const StressOpts& o) {
  std::vector<MixEntry> mix;
  for (const auto& m : o.mix) mix.push_back(parse_mix(m, o.defaults));
  if (!o.defaults.type.empty()) {
    if (!(o.rate > 0)) throw std::runtime_error("-t/--type needs --rate (proofs per second)");
    MixEntry e;
    e.tmpl = build_request(o.defaults);
    e.rate_per_s = o.rate;
    e.label = kind_label(e.tmpl.proof_kind());
    if (e.tmpl.proof_kind() == pb::GENERIC_R1CS) e.label += ":" + o.defaults.circuit;
    mix.push_back(std::move(e));
  }
  if (mix.empty()) throw std::runtime_error("nothing to run: give --mix KIND@RATE,... or -t TYPE --rate R");
  return mix;
}

void check_limits(const StressOpts& o) {
  if (o.max_in_flight == 0) throw std::runtime_error("--max-in-flight must be > 0");
  if (o.cancel_fraction < 0 || o.cancel_fraction > 1)
    throw std::runtime_error("--cancel-fraction must be in [0, 1]");
}

void print_plan(const StressOpts& o, const std::vector<MixEntry>& mix, std::chrono::milliseconds duration) {
  std::printf("=== Stress ===\n");
  std::printf("duration:      %ss\n", secs1(std::chrono::duration<double>(duration).count()).c_str());
  std::printf("max in flight: %u\n", o.max_in_flight);
  if (o.cancel_fraction > 0) std::printf("cancel:        %.1f%%\n", o.cancel_fraction * 100);
  for (const auto& e : mix)
    std::printf("mix:           %-24s %.3f/s (%s arrivals)\n", e.label.c_str(), e.rate_per_s,
                o.poisson ? "poisson" : "fixed-interval");
  std::printf("\n");
  std::fflush(stdout);
}

// What one request came to: an RPC error (err), or the daemon's answer.
struct RequestOutcome {
  std::string job_id;
  std::string err;
  pb::AwaitProofResponse resp;
  bool ok = false;  // resp holds the answer (TIMEOUT too, past the drain)
};

// One stress run: an arrival thread per mix entry fills a bounded queue
// (arrivals beyond it are shed), max_in_flight workers take requests from
// it, and a ticker prints progress; the counts go to per-label KindStats.
class StressRun {
 public:
  StressRun(const StressOpts& o, const std::vector<MixEntry>& mix, std::chrono::milliseconds duration,
            std::chrono::milliseconds drain, pb::ProvingEngine::Stub& stub)
      : o_(o),
        mix_(mix),
        duration_(duration),
        stub_(stub),
        queue_cap_(size_t(o.max_in_flight) * 4),
        start_(Clock::now()),
        end_(start_ + duration),
        give_up_(end_ + drain) {
    for (const auto& e : mix_) stats_[e.label];
  }

  // Arrivals until the end of the duration, then the drain; returns when
  // every worker has finished.
  void run() {
    std::vector<std::thread> dispatchers;
    for (size_t i = 0; i < mix_.size(); i++) dispatchers.emplace_back([this, i] { dispatch(i); });
    std::vector<std::thread> workers;
    for (uint32_t w = 0; w < o_.max_in_flight; w++) workers.emplace_back([this, w] { work(w); });
    std::thread ticker;
    if (o_.progress_s > 0) ticker = std::thread([this] { print_progress(); });

    for (auto& t : dispatchers) t.join();
    std::this_thread::sleep_until(end_);  // the last arrival may come before the end
    dispatch_end_ = Clock::now();
    {
      std::lock_guard<std::mutex> lk(mu_);
      dispatch_done_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers) t.join();
    all_end_ = Clock::now();
    {
      std::lock_guard<std::mutex> lk(tick_mu_);
      tick_stop_ = true;
    }
    tick_cv_.notify_all();
    if (ticker.joinable()) ticker.join();
  }

  // The table, the failures, and the result line. Returns the number of
  // failed, errored and timed-out requests.
  uint64_t print_summary() {
    std::printf("=== Stress Summary ===\n");
    std::printf("duration:      %ss (+%ss drain)\n", secs1(secs(dispatch_end_ - start_)).c_str(),
                secs1(secs(all_end_ - dispatch_end_)).c_str());
    std::printf("%-24s %6s %6s %6s %6s %6s %6s %6s %8s %8s %8s %8s %9s\n", "kind", "sent", "ok", "failed",
                "cancel", "tmout", "errors", "shed", "p50(s)", "p90(s)", "p99(s)", "max(s)", "ok/min");
    uint64_t bad_total = 0;
    const double wall = secs(all_end_ - start_);
    for (const auto& e : mix_) {
      auto& s = stats_[e.label];
      if (&e != &mix_.front() && std::any_of(mix_.begin(), mix_.begin() + (&e - &mix_.front()),
                                             [&](const MixEntry& p) { return p.label == e.label; }))
        continue;  // same label twice: one row
      std::printf("%-24s %6llu %6llu %6llu %6llu %6llu %6llu %6llu %8.2f %8.2f %8.2f %8.2f %9.2f\n",
                  e.label.c_str(), (unsigned long long)s.sent, (unsigned long long)s.completed,
                  (unsigned long long)s.failed, (unsigned long long)s.cancelled,
                  (unsigned long long)s.timeout, (unsigned long long)s.errors, (unsigned long long)s.shed,
                  percentile(s.latency_s, 50), percentile(s.latency_s, 90), percentile(s.latency_s, 99),
                  percentile(s.latency_s, 100), wall > 0 ? double(s.completed) / wall * 60.0 : 0.0);
      bad_total += s.failed + s.errors + s.timeout;
    }
    bool header = false;
    for (const auto& [label, s] : stats_)
      for (const auto& f : s.failures) {
        if (!header) std::printf("\nfailures:\n");
        header = true;
        std::printf("  %s %s\n", label.c_str(), f.c_str());
      }
    std::printf("\nresult:        %s\n", bad_total == 0 ? "PASS (no failures)" : "FAIL");
    std::fflush(stdout);
    return bad_total;
  }

 private:
  const StressOpts& o_;
  const std::vector<MixEntry>& mix_;
  const std::chrono::milliseconds duration_;
  pb::ProvingEngine::Stub& stub_;
  const size_t queue_cap_;
  const Clock::time_point start_, end_, give_up_;
  Clock::time_point dispatch_end_, all_end_;

  std::mutex mu_;  // guards queue_, dispatch_done_, stats_
  std::condition_variable cv_;
  std::deque<Task> queue_;
  bool dispatch_done_ = false;
  std::map<std::string, KindStats> stats_;
  std::atomic<uint64_t> in_flight_{0}, seq_{0};

  std::mutex tick_mu_;
  std::condition_variable tick_cv_;
  bool tick_stop_ = false;

  // Arrivals of mix entry i (fixed intervals or Poisson) until the end.
  void dispatch(size_t i) {
    std::mt19937_64 rng(o_.seed ? o_.seed + i : std::random_device{}());
    std::exponential_distribution<double> expo(mix_[i].rate_per_s);
    const double interval = 1.0 / mix_[i].rate_per_s;
    auto next = start_ + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(o_.poisson ? expo(rng) : 0.0));
    while (next < end_) {
      std::this_thread::sleep_until(next);
      {
        std::lock_guard<std::mutex> lk(mu_);
        auto& st = stats_[mix_[i].label];
        if (queue_.size() >= queue_cap_) {
          st.shed++;
        } else {
          st.sent++;
          queue_.push_back({i, next, seq_++});
        }
      }
      cv_.notify_one();
      next += std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(o_.poisson ? expo(rng) : interval));
    }
  }

  // Worker w: one request at a time until the queue is empty and the
  // arrivals are over.
  void work(uint32_t w) {
    std::mt19937_64 rng(o_.seed ? o_.seed * 7919 + w : std::random_device{}());
    std::uniform_real_distribution<double> unif(0, 1);
    for (;;) {
      Task t;
      {
        std::unique_lock<std::mutex> lk(mu_);
        cv_.wait(lk, [&] { return !queue_.empty() || dispatch_done_; });
        if (queue_.empty()) return;
        t = queue_.front();
        queue_.pop_front();
      }
      const auto& e = mix_[t.entry];
      in_flight_++;
      pb::SubmitProofRequest req = e.tmpl;
      req.set_request_id(new_uuid());
      RequestOutcome out;
      submit(req, out);
      if (out.err.empty() && o_.cancel_fraction > 0 && unif(rng) < o_.cancel_fraction)
        cancel_after(std::chrono::milliseconds(uint64_t(unif(rng) * o_.cancel_delay_ms)), out);
      await_result(out);
      const double lat = secs(Clock::now() - t.scheduled);
      in_flight_--;
      record(e.label, t, lat, out);
    }
  }

  void submit(const pb::SubmitProofRequest& req, RequestOutcome& out) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(5));
    pb::SubmitProofResponse sr;
    auto st = stub_.SubmitProof(&ctx, req, &sr);
    if (!st.ok()) out.err = "SubmitProof: " + describe(st);
    out.job_id = sr.job_id();
  }

  void cancel_after(std::chrono::milliseconds delay, RequestOutcome& out) {
    std::this_thread::sleep_for(delay);
    grpc::ClientContext ctx;
    pb::CancelProofRequest cr;
    cr.set_job_id(out.job_id);
    pb::CancelProofResponse cresp;
    auto st = stub_.CancelProof(&ctx, cr, &cresp);
    // NOT_FOUND is fine: the job may have finished and been pruned.
    if (!st.ok() && st.error_code() != grpc::StatusCode::NOT_FOUND) out.err = "CancelProof: " + describe(st);
  }

  // AwaitProof in slices of at most 30 s until an answer, an RPC error, or
  // the end of the drain (then the outcome is a TIMEOUT).
  void await_result(RequestOutcome& out) {
    while (out.err.empty()) {
      auto left = give_up_ - Clock::now();
      if (left <= Clock::duration::zero()) {
        out.resp.set_status(pb::AwaitProofResponse::TIMEOUT);
        out.ok = true;
        break;
      }
      auto slice = std::min<Clock::duration>(left, std::chrono::seconds(30));
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + slice + std::chrono::minutes(1));
      pb::AwaitProofRequest ar;
      ar.set_job_id(out.job_id);
      ar.set_timeout_ms(uint64_t(
          std::max<int64_t>(1, std::chrono::duration_cast<std::chrono::milliseconds>(slice).count())));
      auto st = stub_.AwaitProof(&ctx, ar, &out.resp);
      if (!st.ok()) {
        out.err = "AwaitProof: " + describe(st);
        break;
      }
      if (out.resp.status() != pb::AwaitProofResponse::TIMEOUT) {
        out.ok = true;
        break;
      }
    }
  }

  void record(const std::string& label, const Task& t, double latency_s, const RequestOutcome& out) {
    std::lock_guard<std::mutex> lk(mu_);
    KindStats& s = stats_[label];
    if (!out.ok) {
      s.errors++;
      if (s.failures.size() < 10) s.failures.push_back("#" + std::to_string(t.seq) + " " + out.err);
      return;
    }
    switch (out.resp.status()) {
      case pb::AwaitProofResponse::COMPLETED:
        s.completed++;
        s.latency_s.push_back(latency_s);
        break;
      case pb::AwaitProofResponse::CANCELLED: s.cancelled++; break;
      case pb::AwaitProofResponse::TIMEOUT: s.timeout++; break;
      default:
        s.failed++;
        if (s.failures.size() < 10)
          s.failures.push_back("#" + std::to_string(t.seq) + " " + out.job_id + " " +
                               status_label(out.resp.status()) + ": " + out.resp.error_message());
    }
  }

  // A line on stderr every progress_s seconds until the run ends.
  void print_progress() {
    std::unique_lock<std::mutex> lk(tick_mu_);
    while (!tick_cv_.wait_for(lk, std::chrono::duration<double>(o_.progress_s), [&] { return tick_stop_; })) {
      uint64_t sent = 0, done = 0, bad = 0, canc = 0, shed = 0;
      size_t queued = 0;
      {
        std::lock_guard<std::mutex> g(mu_);
        for (auto& [k, s] : stats_) {
          sent += s.sent;
          done += s.completed;
          bad += s.failed + s.errors + s.timeout;
          canc += s.cancelled;
          shed += s.shed;
        }
        queued = queue_.size();
      }
      std::fprintf(stderr,
                   "[stress %5.0fs/%.0fs] sent=%llu completed=%llu failed=%llu cancelled=%llu "
                   "in_flight=%llu queued=%zu shed=%llu\n",
                   secs(Clock::now() - start_), std::chrono::duration<double>(duration_).count(),
                   (unsigned long long)sent, (unsigned long long)done, (unsigned long long)bad,
                   (unsigned long long)canc, (unsigned long long)in_flight_.load(), queued,
                   (unsigned long long)shed);
      std::fflush(stderr);
    }
  }
};

void run_stress(const StressOpts& o) {
  const std::vector<MixEntry> mix = build_mix(o);
  check_limits(o);
  const auto duration = engine::parse_duration(o.duration);
  const auto drain = engine::parse_duration(o.drain_timeout);

  auto stub = make_stub(connect_daemon(daemon_address()));
  print_plan(o, mix, duration);

  StressRun run(o, mix, duration, drain, *stub);
  run.run();
  set_exit_code(run.print_summary() == 0 ? 0 : 1);
}

void register_stress(CLI::App& app) {
  auto o = std::make_shared<StressOpts>();
  auto* s = app.add_subcommand("stress", "mixed proof kinds at given rates for a duration");
  add_addr_option(s);
  s->add_option("--mix", o->mix,
                "KIND@RATE[,key=value...] (repeat); keys: circuit, witness, vanilla, c1, priority, "
                "registered_proof, sector_size, partition, randomness, label");
  s->add_option("-t,--type", o->defaults.type, "one kind instead of --mix (with --rate)");
  s->add_option("--rate", o->rate, "arrivals per second for -t");
  s->add_option("--c1", o->defaults.c1, "default PoRep C1 file");
  s->add_option("--vanilla", o->defaults.vanilla, "default vanilla proofs file");
  s->add_option("--circuit", o->defaults.circuit, "default r1cs circuit id");
  s->add_option("--witness", o->defaults.witness, "default r1cs witness files (repeat)");
  s->add_option("--priority", o->defaults.priority, "default priority");
  s->add_option("--duration", o->duration, "how long to issue requests (e.g. 60s, 5m)")
      ->capture_default_str();
  s->add_option("--max-in-flight", o->max_in_flight, "requests outstanding at once")->capture_default_str();
  s->add_option("--cancel-fraction", o->cancel_fraction, "fraction of jobs cancelled at random")
      ->capture_default_str();
  s->add_option("--cancel-delay-ms", o->cancel_delay_ms, "cancel within this many ms of submit")
      ->capture_default_str();
  s->add_option("--drain-timeout", o->drain_timeout, "wait this long for outstanding jobs at the end")
      ->capture_default_str();
  s->add_option("--progress", o->progress_s, "seconds between progress lines on stderr (0 = off)")
      ->capture_default_str();
  s->add_flag("--poisson", o->poisson, "exponential inter-arrival times instead of fixed intervals");
  s->add_option("--seed", o->seed, "random seed (0 = random)");
  s->callback([o] { run_stress(*o); });
}

RegisterCommand reg_client_stress(41, register_stress);

}  // namespace
}  // namespace cuzk::bench_cli
