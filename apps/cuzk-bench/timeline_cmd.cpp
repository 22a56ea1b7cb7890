// cuzk-bench timeline table|jobs|analyze|svg|html|gen-synthetic|bench:
// analysis of the TIMELINE lines a proving daemon writes to stderr
// (docs/TIMELINE.md).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <time.h>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "timeline/analyze.hpp"
#include "timeline/parse.hpp"
#include "timeline/report.hpp"
#include "timeline/synthetic.hpp"

namespace cuzk::bench_cli {
namespace {

namespace tl = cuzk::timeline;

struct Opts {
  std::string log;
  std::string out;
  bool json = false;
  bool full_ids = false;
  bool by_job = false;
  bool follow = false;
  double interval_s = 2;
  int max_updates = 0;
  int run = 0;
  int width = 1400;
  std::string title;
  tl::ParseOptions parse;
  tl::AnalyzeOptions analyze;
};

void add_log_arg(CLI::App* c, Opts& o) {
  c->add_option("LOG", o.log, "daemon stderr log with TIMELINE lines ('-' = standard input)")->required();
  c->add_option("--restart-tolerance-ms", o.parse.restart_tolerance_ms,
                "an offset this far below the largest so far starts a new epoch (daemon restart)")
      ->capture_default_str();
}

void add_analysis_args(CLI::App* c, Opts& o) {
  c->add_option("--run-gap-s", o.analyze.run_gap_s, "device silence that separates runs, seconds")
      ->capture_default_str();
  c->add_option("--idle-gap-ms", o.analyze.idle_gap_ms, "list device idle gaps longer than this")
      ->capture_default_str();
  c->add_option("--workers-per-device", o.analyze.workers_per_device,
                "device workers per device (worker w is on device w / this)")
      ->capture_default_str();
  auto* g = "verdict rules (docs/TIMELINE.md)";
  c->add_option("--device-bound-utilization", o.analyze.device_bound_utilization,
                "device-bound: utilization at least this (0..1)")
      ->capture_default_str()
      ->group(g);
  c->add_option("--device-bound-tolerance", o.analyze.device_bound_tolerance,
                "device-bound: s/proof within this fraction of serial device time")
      ->capture_default_str()
      ->group(g);
  c->add_option("--contention-rise", o.analyze.contention_rise,
                "contention: device ms per partition this fraction above the baseline run")
      ->capture_default_str()
      ->group(g);
  c->add_option("--contention-concurrency-rise", o.analyze.contention_concurrency_rise,
                "contention: synthesis parallelism this fraction above the baseline run")
      ->capture_default_str()
      ->group(g);
  c->add_option("--starved-share", o.analyze.starved_share,
                "synthesis-bound: share of idle time with nothing waiting")
      ->capture_default_str()
      ->group(g);
}

void write_out(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  std::ofstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot write '" + path + "'");
  f << text;
  if (!f) throw std::runtime_error("error writing '" + path + "'");
}

tl::Timeline load(const Opts& o) { return tl::build_timeline(tl::parse_file(o.log, o.parse), o.analyze); }

void hint_if_crowded(const tl::Timeline& t, const Opts& o) {
  if (o.run == 0 && t.model.device.size() > 20000 && t.analysis.runs.size() > 1)
    std::fprintf(stderr, "note: %zu partitions in %zu runs make a crowded picture; --run N draws one run\n",
                 t.model.device.size(), t.analysis.runs.size());
}

std::string file_name(const std::string& path) {
  auto p = path.find_last_of('/');
  return p == std::string::npos ? path : path.substr(p + 1);
}

void cmd_table(const Opts& o) {
  tl::Log log = tl::parse_file(o.log, o.parse);
  write_out("", o.json ? tl::dump_json(tl::table_json(log, o.by_job)) + "\n"
                       : tl::format_table(log, o.by_job, o.full_ids));
}

void cmd_jobs(const Opts& o) {
  auto t = load(o);
  write_out("", o.json ? tl::dump_json(tl::jobs_json(t)) + "\n" : tl::format_jobs(t, o.full_ids));
}

// Re-reads what the daemon appended every interval and prints the analysis
// when something changed. A file that shrinks or is replaced starts over.
void follow(const Opts& o) {
  const bool tty = isatty(STDOUT_FILENO);
  tl::Parser parser(o.parse);
  FILE* f = nullptr;
  ino_t ino = 0;
  long pos = 0;
  std::vector<char> buf(1 << 20);
  for (int poll = 0; o.max_updates <= 0 || poll < o.max_updates; poll++) {
    if (poll > 0) std::this_thread::sleep_for(std::chrono::milliseconds(int64_t(o.interval_s * 1000)));
    struct stat st {};
    bool exists = ::stat(o.log.c_str(), &st) == 0;
    if (f && (!exists || st.st_ino != ino || st.st_size < pos)) {
      std::fclose(f);
      f = nullptr;
      parser = tl::Parser(o.parse);
      pos = 0;
    }
    if (!f && exists) {
      f = std::fopen(o.log.c_str(), "rb");
      ino = st.st_ino;
    }
    bool changed = poll == 0;
    if (f) {
      size_t n;
      while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) {
        parser.feed(std::string_view(buf.data(), n));
        pos += long(n);
        changed = true;
      }
      std::clearerr(f);
    }
    if (!changed) continue;
    auto t = tl::build_timeline(parser.snapshot(), o.analyze);
    std::string text;
    if (o.json) {
      text = tl::dump_json(tl::analysis_json(t), -1) + "\n";
    } else {
      std::time_t now = std::time(nullptr);
      char stamp[32];
      std::strftime(stamp, sizeof stamp, "%H:%M:%S", std::localtime(&now));
      text = (tty ? "\x1b[H\x1b[2J" : "\n") + std::string("--- following ") + o.log + ", " + stamp +
             (exists ? "" : " (waiting for the file)") + " ---\n" + tl::format_analysis(t, o.full_ids);
    }
    write_out("", text);
    std::fflush(stdout);
  }
  if (f) std::fclose(f);
}

void cmd_analyze(const Opts& o) {
  if (o.follow && o.log == "-") throw std::runtime_error("--follow needs a file, not standard input");
  if (o.follow) return follow(o);
  auto t = load(o);
  write_out("", o.json ? tl::dump_json(tl::analysis_json(t)) + "\n" : tl::format_analysis(t, o.full_ids));
}

void cmd_svg(const Opts& o) {
  auto t = load(o);
  tl::SvgOptions so;
  so.width = o.width;
  so.run = o.run;
  so.title = o.title.empty() ? "cuzk timeline: " + file_name(o.log) : o.title;
  hint_if_crowded(t, o);
  write_out(o.out, tl::render_svg(t, so));
}

void cmd_html(const Opts& o) {
  auto t = load(o);
  tl::HtmlOptions ho;
  ho.title = o.title.empty() ? "cuzk timeline: " + file_name(o.log) : o.title;
  ho.source = o.log;
  ho.svg.width = o.width;
  ho.svg.run = o.run;
  hint_if_crowded(t, o);
  write_out(o.out, tl::render_html(t, ho));
}

struct GenOpts {
  tl::SyntheticOptions s;
  std::string out;
  bool no_locks = false;
};

void cmd_gen(const GenOpts& g) {
  tl::SyntheticOptions s = g.s;
  s.locks = !g.no_locks;
  write_out(g.out, tl::generate_synthetic(s));
}

struct BenchOpts {
  uint64_t lines = 1000000;
  int reps = 3;
  bool json = false;
};

void cmd_bench(const BenchOpts& b) {
  using clock = std::chrono::steady_clock;
  tl::SyntheticOptions s;
  s.target_lines = b.lines;
  s.jobs = 20;
  const std::string text = tl::generate_synthetic(s);
  auto cpu_now = [] {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
  };
  auto wall_now = [] {
    return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
  };
  // Per phase: wall and CPU milliseconds.
  std::vector<double> wall[4], cpu[4];
  size_t events = 0, runs = 0;
  for (int i = 0; i < std::max(1, b.reps); i++) {
    double w[5], c[5];
    w[0] = wall_now(), c[0] = cpu_now();
    tl::Log log = tl::parse_text(text);
    w[1] = wall_now(), c[1] = cpu_now();
    events = log.events.size();
    auto t = tl::build_timeline(std::move(log));
    w[2] = wall_now(), c[2] = cpu_now();
    std::string j = tl::dump_json(tl::analysis_json(t));
    w[3] = wall_now(), c[3] = cpu_now();
    runs = t.analysis.runs.size();
    for (int k = 0; k < 3; k++) wall[k].push_back(w[k + 1] - w[k]), cpu[k].push_back(c[k + 1] - c[k]);
    wall[3].push_back(w[3] - w[0]);
    cpu[3].push_back(c[3] - c[0]);
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const char* names[] = {"parse", "analyze", "json", "total"};
  if (b.json) {
    std::printf(
        "{\"bench\":\"timeline\",\"lines\":%llu,\"bytes\":%zu,\"events\":%zu,\"runs\":%zu,\"reps\":%d",
        (unsigned long long)b.lines, text.size(), events, runs, b.reps);
    for (int k = 0; k < 4; k++)
      std::printf(",\"%s_ms\":%.1f,\"%s_cpu_ms\":%.1f", names[k], median(wall[k]), names[k], median(cpu[k]));
    std::printf("}\n");
  } else {
    std::printf("timeline analysis of %llu lines (%.1f MB, %zu events, %zu runs), median of %d:\n",
                (unsigned long long)b.lines, text.size() / 1e6, events, runs, b.reps);
    for (int k = 0; k < 4; k++)
      std::printf("  %-8s %8.1f ms wall %8.1f ms CPU\n", names[k], median(wall[k]), median(cpu[k]));
  }
}

void register_timeline(CLI::App& app) {
  auto* top =
      app.add_subcommand("timeline", "analyse TIMELINE logs: tables, utilization, verdicts, pictures");
  top->require_subcommand(1);
  auto o = std::make_shared<Opts>();
  auto guarded = [](auto fn) {
    return [fn] {
      try {
        fn();
      } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk-bench timeline: %s\n", e.what());
        set_exit_code(1);
      }
    };
  };

  auto* table = top->add_subcommand("table", "every event in time order (or grouped by job)");
  add_log_arg(table, *o);
  table->add_flag("--by-job", o->by_job, "group the events of each job together");
  table->add_flag("--full-ids", o->full_ids, "print whole job ids");
  table->add_flag("--json", o->json, "JSON output");
  table->callback(guarded([o] { cmd_table(*o); }));

  auto* jobs = top->add_subcommand("jobs", "one row per job: synthesis, device work, idle gap; averages");
  add_log_arg(jobs, *o);
  add_analysis_args(jobs, *o);
  jobs->add_flag("--full-ids", o->full_ids, "print whole job ids");
  jobs->add_flag("--json", o->json, "JSON output");
  jobs->callback(guarded([o] { cmd_jobs(*o); }));

  auto* an =
      top->add_subcommand("analyze", "runs, device utilization, idle gaps, workers, transitions, verdict");
  add_log_arg(an, *o);
  add_analysis_args(an, *o);
  an->add_flag("--json", o->json, "JSON output (one object; with --follow one line per update)");
  an->add_flag("--full-ids", o->full_ids, "print whole job ids");
  an->add_flag("--follow", o->follow, "keep reading the log as the daemon writes it");
  an->add_option("--interval-s", o->interval_s, "with --follow: seconds between reads")
      ->capture_default_str();
  an->add_option("--max-updates", o->max_updates, "with --follow: stop after this many reads (0 = never)");
  an->callback(guarded([o] { cmd_analyze(*o); }));

  auto* svg = top->add_subcommand("svg", "waterfall picture (SVG)");
  add_log_arg(svg, *o);
  add_analysis_args(svg, *o);
  svg->add_option("-o,--output", o->out, "SVG file to write ('-' = standard output)")->required();
  svg->add_option("--run", o->run, "draw only this run (1-based)");
  svg->add_option("--width", o->width, "picture width in pixels")->capture_default_str();
  svg->add_option("--title", o->title, "title line");
  svg->callback(guarded([o] { cmd_svg(*o); }));

  auto* html = top->add_subcommand("html", "self-contained HTML report: tables and the waterfall");
  add_log_arg(html, *o);
  add_analysis_args(html, *o);
  html->add_option("-o,--output", o->out, "HTML file to write ('-' = standard output)")->required();
  html->add_option("--run", o->run, "draw only this run (1-based)");
  html->add_option("--width", o->width, "picture width in pixels")->capture_default_str();
  html->add_option("--title", o->title, "title line");
  html->callback(guarded([o] { cmd_html(*o); }));

  auto g = std::make_shared<GenOpts>();
  auto* gen = top->add_subcommand("gen-synthetic", "write a simulated TIMELINE log (benchmarks, examples)");
  gen->add_option("-o,--output", g->out, "log file to write ('-' = standard output)")->required();
  gen->add_option("--lines", g->s.target_lines, "exactly this many lines (adds runs as needed)");
  gen->add_option("--runs", g->s.runs, "runs, when --lines is not given")->capture_default_str();
  gen->add_option("--jobs", g->s.jobs, "jobs per run")->capture_default_str();
  gen->add_option("--partitions", g->s.partitions, "partitions per job")->capture_default_str();
  gen->add_option("--workers", g->s.workers, "device workers sharing one device")->capture_default_str();
  gen->add_option("--synth-slots", g->s.synth_slots, "partitions synthesized at once")->capture_default_str();
  gen->add_option("--synth-ms", g->s.synth_ms, "synthesis time per partition")->capture_default_str();
  gen->add_option("--device-ms", g->s.device_ms, "device time per partition")->capture_default_str();
  gen->add_option("--tail-ms", g->s.tail_ms, "CPU tail after the device")->capture_default_str();
  gen->add_option("--job-interval-ms", g->s.job_interval_ms, "spacing of job arrivals")
      ->capture_default_str();
  gen->add_option("--run-pause-ms", g->s.run_pause_ms, "pause between runs")->capture_default_str();
  gen->add_option("--contention", g->s.contention, "device time growth per partition in synthesis")
      ->capture_default_str();
  gen->add_option("--noise", g->s.noise, "ordinary log lines per event")->capture_default_str();
  gen->add_option("--seed", g->s.seed, "random seed")->capture_default_str();
  gen->add_flag("--no-locks", g->no_locks, "leave out GPU_LOCK/GPU_UNLOCK (like the Rust daemon)");
  gen->callback(guarded([g] { cmd_gen(*g); }));

  auto b = std::make_shared<BenchOpts>();
  auto* bench = top->add_subcommand("bench", "time parse + analysis + JSON of a generated log");
  bench->add_option("--lines", b->lines, "log lines")->capture_default_str();
  bench->add_option("--reps", b->reps, "repetitions (median reported)")->capture_default_str();
  bench->add_flag("--json", b->json, "one JSON object");
  bench->callback(guarded([b] { cmd_bench(*b); }));
}

RegisterCommand reg_timeline_cmd(50, register_timeline);

}  // namespace
}  // namespace cuzk::bench_cli
