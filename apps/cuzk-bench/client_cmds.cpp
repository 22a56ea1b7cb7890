// cuzk-bench gRPC client commands: single, batch, status, preload, evict,
// metrics (output lines as the Rust cuzk-bench, docs/PROTOCOL.md §5).
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

#include "../cuzk/progress.hpp"  // the CLI's progress helpers (terminal line, rate, ETA)
#include "client_common.hpp"
#include "commands.hpp"

namespace cuzk::bench_cli {
namespace {

namespace cli = cuzk::cli;

using Clock = std::chrono::steady_clock;

// Calls `tick` every interval_s seconds on its own thread until destroyed.
class Ticker {
 public:
  template <class F>
  Ticker(double interval_s, F&& tick) {
    if (interval_s <= 0) return;
    th_ = std::thread([this, interval_s, tick = std::forward<F>(tick)] {
      std::unique_lock<std::mutex> lk(mu_);
      while (!cv_.wait_for(lk, std::chrono::duration<double>(interval_s), [&] { return stop_; })) tick();
    });
  }
  ~Ticker() {
    {
      std::lock_guard<std::mutex> lk(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (th_.joinable()) th_.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread th_;
};

// ---- single ----

struct SingleOpts {
  JobOptions job;
  std::string request_id;
  std::string out;
};

void print_result(const pb::AwaitProofResponse& r, Clock::duration wall) {
  std::printf("\n=== Proof Result ===\n");
  std::printf("status:    %s\n", status_label(r.status()));
  std::printf("job_id:    %s\n", r.job_id().c_str());
  if (r.status() == pb::AwaitProofResponse::COMPLETED) {
    std::printf("timings:   total=%llu ms (queue=%llu ms, srs=%llu ms, synth=%llu ms, gpu=%llu ms)\n",
                (unsigned long long)r.total_ms(), (unsigned long long)r.queue_wait_ms(),
                (unsigned long long)r.srs_load_ms(), (unsigned long long)r.synthesis_ms(),
                (unsigned long long)r.gpu_compute_ms());
    std::printf("wall time: %lld ms\n",
                (long long)std::chrono::duration_cast<std::chrono::milliseconds>(wall).count());
    const std::string& p = r.proof();
    std::string hex = p.size() <= 256 ? to_hex(p) : to_hex(p.substr(0, 128)) + "...";
    std::printf("proof:     %zu bytes (hex: %s)\n", p.size(), hex.c_str());
  } else {
    std::printf("error:     %s\n", r.error_message().c_str());
  }
  std::fflush(stdout);
}

void run_single(const SingleOpts& o) {
  auto req = build_request(o.job);
  req.set_request_id(o.request_id.empty() ? new_uuid() : o.request_id);
  auto stub = make_stub(connect_daemon(daemon_address()));
  auto out =
      submit_and_await(*stub, req, std::chrono::seconds(10), [](Clock::duration el, const std::string& id) {
        std::fprintf(stderr, "waiting for %s ... %.0fs\n", id.c_str(), secs(el));
        std::fflush(stderr);
      });
  if (!out.rpc_ok) throw std::runtime_error(out.rpc_error);
  print_result(out.resp, out.wall);
  if (!o.out.empty() && out.resp.status() == pb::AwaitProofResponse::COMPLETED) {
    std::ofstream f(o.out, std::ios::binary);
    f << out.resp.proof();
    if (!f) throw std::runtime_error("cannot write '" + o.out + "'");
  }
  set_exit_code(out.resp.status() == pb::AwaitProofResponse::COMPLETED ? 0 : 1);
}

// ---- batch ----

struct BatchOpts {
  JobOptions job;
  uint32_t count = 3;
  uint32_t concurrency = 1;
  double progress_s = 30;
};

void run_batch(const BatchOpts& o) {
  if (o.count == 0) throw std::runtime_error("--count must be > 0");
  const uint32_t conc = std::max<uint32_t>(1, std::min(o.concurrency, o.count));
  auto tmpl = build_request(o.job);
  auto stub = make_stub(connect_daemon(daemon_address()));

  std::printf("=== Batch Benchmark ===\n");
  std::printf("proof type:  %s\n", o.job.type.c_str());
  std::printf("count:       %u\n", o.count);
  std::printf("concurrency: %u\n", conc);
  std::printf("\n");
  std::fflush(stdout);

  std::vector<ProofOutcome> results(o.count);
  std::atomic<uint32_t> next{0}, done{0};
  std::mutex print_mu;
  const auto batch_start = Clock::now();
  // Progress on stderr (stdout keeps the exact result lines): on a terminal
  // one line kept up to date in place, else a plain line every --progress seconds.
  const bool live = o.progress_s > 0 && cli::is_live_terminal(stderr);
  cli::LiveLine live_line(stderr);
  auto progress_text = [&] {
    const uint32_t d = done.load(), started = std::min(next.load(), o.count);
    const double el = secs(Clock::now() - batch_start);
    return "[batch " + secs1(el) + "s] " + cli::count_text(d, o.count, el, "proof") + " · " +
           std::to_string(started - d) + " in flight";
  };

  auto worker = [&] {
    for (;;) {
      uint32_t i = next.fetch_add(1);
      if (i >= o.count) return;
      pb::SubmitProofRequest req = tmpl;
      req.set_request_id(new_uuid());
      ProofOutcome out = submit_and_await(*stub, req);
      std::lock_guard<std::mutex> lk(print_mu);
      if (live) live_line.clear();
      uint32_t k = ++done;
      const char* label = out.rpc_ok ? status_label(out.resp.status()) : "ERROR";
      std::printf("  [%u/%u] %s \u2014 %ss (prove=%llu ms, queue=%llu ms)\n", k, o.count, label,
                  secs1(secs(out.wall)).c_str(), (unsigned long long)out.resp.gpu_compute_ms(),
                  (unsigned long long)out.resp.queue_wait_ms());
      if (!out.rpc_ok) std::printf("        error: %s\n", out.rpc_error.c_str());
      else if (out.resp.status() != pb::AwaitProofResponse::COMPLETED)
        std::printf("        error: %s\n", out.resp.error_message().c_str());
      std::fflush(stdout);
      if (live) live_line.show(progress_text());
      results[i] = std::move(out);
    }
  };
  {
    Ticker ticker(live ? 0.25 : o.progress_s, [&] {
      std::lock_guard<std::mutex> lk(print_mu);
      if (live) {
        live_line.show(progress_text());
      } else {
        std::fprintf(stderr, "%s\n", progress_text().c_str());
        std::fflush(stderr);
      }
    });
    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < conc; t++) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
  }
  if (live) live_line.clear();
  const double batch_s = secs(Clock::now() - batch_start);

  std::vector<double> wall, prove;
  for (const auto& r : results)
    if (r.rpc_ok && r.resp.status() == pb::AwaitProofResponse::COMPLETED) {
      wall.push_back(secs(r.wall));
      prove.push_back(double(r.resp.gpu_compute_ms()) / 1000.0);
    }
  const size_t completed = wall.size();
  const size_t failed = results.size() - completed;
  std::printf("\n=== Batch Summary ===\n");
  std::printf("total time:    %ss\n", secs1(batch_s).c_str());
  std::printf("completed:     %zu\n", completed);
  std::printf("failed:        %zu\n", failed);
  if (completed > 0) {
    auto avg = [](const std::vector<double>& v) {
      double s = 0;
      for (double x : v) s += x;
      return s / double(v.size());
    };
    auto [wmin, wmax] = std::minmax_element(wall.begin(), wall.end());
    auto [pmin, pmax] = std::minmax_element(prove.begin(), prove.end());
    std::printf("wall time:     avg=%ss min=%ss max=%ss\n", secs1(avg(wall)).c_str(), secs1(*wmin).c_str(),
                secs1(*wmax).c_str());
    std::printf("prove time:    avg=%ss min=%ss max=%ss\n", secs1(avg(prove)).c_str(), secs1(*pmin).c_str(),
                secs1(*pmax).c_str());
    std::printf("throughput:    %.3f proofs/min (%ss/proof)\n", double(completed) / batch_s * 60.0,
                secs1(batch_s / double(completed)).c_str());
  }
  std::fflush(stdout);
  set_exit_code(failed == 0 ? 0 : 1);
}

// ---- status / preload / evict / metrics ----

const char* tier_name(int t) {
  switch (t) {
    case pb::SRSStatus::HOT: return "HOT";
    case pb::SRSStatus::WARM: return "WARM";
    case pb::SRSStatus::COLD: return "COLD";
    default: return "?";
  }
}

struct StatusOpts {
  bool watch = false;
  double interval_s = 2;
  uint32_t count = 0;  // --watch: stop after this many refreshes (0 = until interrupted)
};

// The daemon's state as `status` prints it.
std::string status_text(pb::ProvingEngine::Stub& stub) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  pb::GetStatusResponse r;
  auto st = stub.GetStatus(&ctx, pb::GetStatusRequest(), &r);
  if (!st.ok()) throw std::runtime_error("GetStatus RPC failed: " + describe(st));
  std::string out;
  auto line = [&out](const char* fmt, auto... args) {
    if constexpr (sizeof...(args) == 0) {
      out += fmt;  // a heading: no format to apply
    } else {
      char b[1024];
      std::snprintf(b, sizeof b, fmt, args...);
      out += b;
    }
  };
  line("=== cuzk daemon status ===\n");
  line("uptime:           %llus\n", (unsigned long long)r.uptime_seconds());
  line("proofs completed: %llu\n", (unsigned long long)r.total_proofs_completed());
  line("proofs failed:    %llu\n", (unsigned long long)r.total_proofs_failed());
  line("memory budget:    %llu / %llu MiB used\n", (unsigned long long)(r.memory_budget_used_bytes() >> 20),
       (unsigned long long)(r.memory_budget_limit_bytes() >> 20));
  if (r.pinned_memory_limit_bytes() > 0)
    line("pinned memory:    %llu / %llu MiB used\n", (unsigned long long)(r.pinned_memory_bytes() >> 20),
         (unsigned long long)(r.pinned_memory_limit_bytes() >> 20));
  if (r.gpus_size() > 0) {
    line("\nDevices:\n");
    for (const auto& g : r.gpus()) {
      std::string job = g.current_job_id().empty()
                            ? std::string("idle")
                            : "proving " + g.current_proof_kind() + " (" + g.current_job_id() + ")";
      line("  [%u] %s \u2014 %llu MiB free of %llu MiB %s \u2014 %u/%u workers busy \u2014 %s\n", g.ordinal(),
           g.name().c_str(), (unsigned long long)(g.vram_free_bytes() >> 20),
           (unsigned long long)(g.vram_total_bytes() >> 20), g.host_memory() ? "host RAM" : "VRAM",
           g.busy_workers(), g.workers(), job.c_str());
    }
  }
  if (r.loaded_srs_size() > 0) {
    line("\nLoaded SRS:\n");
    for (const auto& s : r.loaded_srs())
      line("  %s (tier=%s, size=%llu bytes, refs=%u)\n", s.circuit_id().c_str(), tier_name(s.tier()),
           (unsigned long long)s.size_bytes(), s.ref_count());
  }
  if (r.queues_size() > 0) {
    line("\nQueues:\n");
    for (const auto& q : r.queues())
      line("  %s: pending=%u, in_progress=%u\n", q.proof_kind().c_str(), q.pending(), q.in_progress());
  }
  return out;
}

// `status`, or with --watch the same refreshed every interval: redrawn in
// place on a terminal, else printed again under a time stamp.
void run_status(const StatusOpts& o) {
  auto stub = make_stub(connect_daemon(daemon_address()));
  if (!o.watch) {
    std::fputs(status_text(*stub).c_str(), stdout);
    std::fflush(stdout);
    return;
  }
  const bool tty = cli::is_live_terminal(stdout);
  if (tty) std::fputs("\033[H\033[2J", stdout);
  for (uint32_t i = 0; o.count == 0 || i < o.count; i++) {
    if (i) std::this_thread::sleep_for(std::chrono::duration<double>(o.interval_s));
    std::string text;
    try {
      text = status_text(*stub);
    } catch (const std::exception& e) {
      text = std::string("(no answer: ") + e.what() + ")\n";
    }
    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%H:%M:%S", std::localtime(&now));
    if (tty) {
      // Home, each line cleared to its end, the rest of the screen cleared.
      std::string screen = "\033[H";
      size_t start = 0;
      for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
        screen += text.substr(start, nl - start) + "\033[K\n";
      screen +=
          std::string("\n") + stamp + " · every " + secs1(o.interval_s) + " s · Ctrl-C to stop\033[K\033[J";
      std::fputs(screen.c_str(), stdout);
    } else {
      std::printf("--- %s ---\n%s\n", stamp, text.c_str());
    }
    std::fflush(stdout);
  }
  if (tty) std::fputc('\n', stdout);
}

void run_preload(const std::string& circuit) {
  auto stub = make_stub(connect_daemon(daemon_address()));
  grpc::ClientContext ctx;
  pb::PreloadSrsRequest req;
  req.set_circuit_id(circuit);
  pb::PreloadSrsResponse r;
  auto st = stub->PreloadSRS(&ctx, req, &r);
  if (!st.ok()) throw std::runtime_error("PreloadSRS RPC failed: " + describe(st));
  if (r.already_loaded()) std::printf("%s already loaded\n", circuit.c_str());
  else std::printf("%s loaded in %llu ms\n", circuit.c_str(), (unsigned long long)r.load_time_ms());
}

void run_evict(const std::string& circuit) {
  auto stub = make_stub(connect_daemon(daemon_address()));
  grpc::ClientContext ctx;
  pb::EvictSrsRequest req;
  req.set_circuit_id(circuit);
  pb::EvictSrsResponse r;
  auto st = stub->EvictSRS(&ctx, req, &r);
  if (!st.ok()) throw std::runtime_error("EvictSRS RPC failed: " + describe(st));
  if (r.was_loaded())
    std::printf("%s evicted (%llu bytes freed)\n", circuit.c_str(), (unsigned long long)r.freed_bytes());
  else std::printf("%s was not loaded\n", circuit.c_str());
}

void run_cancel(const std::string& job_id) {
  auto stub = make_stub(connect_daemon(daemon_address()));
  grpc::ClientContext ctx;
  pb::CancelProofRequest req;
  req.set_job_id(job_id);
  pb::CancelProofResponse r;
  auto st = stub->CancelProof(&ctx, req, &r);
  if (!st.ok()) throw std::runtime_error("CancelProof RPC failed: " + describe(st));
  std::printf("%s cancelled (%s)\n", job_id.c_str(), r.was_running() ? "was running" : "was pending");
}

void run_metrics() {
  auto stub = make_stub(connect_daemon(daemon_address()));
  grpc::ClientContext ctx;
  pb::GetMetricsResponse r;
  auto st = stub->GetMetrics(&ctx, pb::GetMetricsRequest(), &r);
  if (!st.ok()) throw std::runtime_error("GetMetrics RPC failed: " + describe(st));
  std::fputs(r.prometheus_text().c_str(), stdout);
}

void register_client(CLI::App& app) {
  app.add_option(
      "-a,--addr", daemon_address(),
      "daemon address: unix:///path/to.sock or [http://]host:port (default http://127.0.0.1:9820)");

  auto so = std::make_shared<SingleOpts>();
  auto* single = app.add_subcommand("single", "run one proof through the daemon");
  add_addr_option(single);
  add_job_options(single, so->job, true);
  single->add_option("--request-id", so->request_id, "request id (default: a fresh UUID)");
  single->add_option("--out", so->out, "write the proof bytes to FILE");
  single->callback([so] { run_single(*so); });

  auto bo = std::make_shared<BatchOpts>();
  auto* batch = app.add_subcommand("batch", "run N identical proofs and report throughput");
  add_addr_option(batch);
  add_job_options(batch, bo->job, false);
  batch->add_option("-c,--count", bo->count, "number of proofs")->capture_default_str();
  batch->add_option("-j,--concurrency", bo->concurrency, "proofs in flight at once")->capture_default_str();
  batch->add_option("--progress", bo->progress_s, "seconds between progress lines on stderr (0 = off)")
      ->capture_default_str();
  batch->callback([bo] { run_batch(*bo); });

  auto sto = std::make_shared<StatusOpts>();
  auto* status = app.add_subcommand("status", "query daemon status");
  add_addr_option(status);
  status->add_flag("-w,--watch", sto->watch, "refresh until interrupted (in place on a terminal)");
  status->add_option("--interval", sto->interval_s, "seconds between refreshes with --watch")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  status->add_option("--count", sto->count, "with --watch: stop after N refreshes (0 = never)");
  status->callback([sto] { run_status(*sto); });

  auto circuit = std::make_shared<std::string>();
  auto* preload = app.add_subcommand("preload", "load a circuit's parameters into the hot tier");
  add_addr_option(preload);
  preload->add_option("-c,--circuit-id", *circuit, "circuit id (e.g. porep-32g)")->required();
  preload->callback([circuit] { run_preload(*circuit); });

  auto ecircuit = std::make_shared<std::string>();
  auto* evict = app.add_subcommand("evict", "evict a circuit's parameters");
  add_addr_option(evict);
  evict->add_option("-c,--circuit-id", *ecircuit, "circuit id")->required();
  evict->callback([ecircuit] { run_evict(*ecircuit); });

  auto job = std::make_shared<std::string>();
  auto* cancel = app.add_subcommand("cancel", "cancel a job");
  add_addr_option(cancel);
  cancel->add_option("job_id", *job, "job id")->required();
  cancel->callback([job] { run_cancel(*job); });

  auto* metrics = app.add_subcommand("metrics", "print the daemon's Prometheus metrics");
  add_addr_option(metrics);
  metrics->callback([] { run_metrics(); });
}

RegisterCommand reg_client_cmds(40, register_client);

}  // namespace
}  // namespace cuzk::bench_cli
