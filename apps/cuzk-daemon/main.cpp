// cuzk-daemon: the proving daemon. Loads cuzk.toml, builds the engine, serves
// cuzk.v1.ProvingEngine over gRPC (unix socket or TCP) and, optionally, HTTP
// GET / (the live dashboard), /status and /metrics.
//
// Security: TCP needs [daemon.tls] and/or daemon.token_file, or
// daemon.allow_insecure_tcp = true (then a warning is logged); the unix
// socket gets daemon.socket_mode (0660) and daemon.socket_group.
//
// SIGINT/SIGTERM: new SubmitProof/Prove calls get UNAVAILABLE, running
// partitions get --shutdown-grace to finish, every waiter is answered
// (COMPLETED or CANCELLED), then the listeners close and the socket file is
// removed. A second signal exits at once.
#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "engine/config.hpp"
#include "engine/engine.hpp"
#include "fleet/bridge.hpp"
#include "fleet/database.hpp"
#include "engine/handlers.hpp"
#include "server/address.hpp"
#include "server/grpc_server.hpp"
#include "server/http_status.hpp"
#include "server/timeline_ring.hpp"

namespace {

using namespace std::chrono_literals;
namespace eng = cuzk::engine;
namespace srv = cuzk::server;

struct Cli {
  std::string config;
  std::optional<std::string> listen, status_listen, param_cache, log_level;
  std::string shutdown_grace = "30s";
};

void setup_logging(const std::string& level) {
  auto logger = spdlog::stderr_color_mt("cuzk");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%^%l%$] %v");
  spdlog::set_level(spdlog::level::from_str(level));
  spdlog::flush_on(spdlog::level::warn);
}

int run(const Cli& cli) {
  // Block the shutdown signals before any thread exists, so that every
  // thread inherits the mask and only sigwait() below receives them.
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &sigs, nullptr);
  signal(SIGPIPE, SIG_IGN);

  eng::LoadedConfig loaded;
  if (!cli.config.empty()) loaded = eng::load_config_file(cli.config);
  eng::EngineConfig& cfg = loaded.config;
  if (cli.listen) cfg.listen = *cli.listen;
  if (cli.status_listen) cfg.status_listen = *cli.status_listen;
  if (cli.param_cache) cfg.param_cache = *cli.param_cache;
  if (cli.log_level) cfg.log_level = *cli.log_level;
  const auto grace = eng::parse_duration(cli.shutdown_grace);

  setup_logging(cfg.log_level);
  for (const auto& w : loaded.warnings) spdlog::warn("config: {}", w);
  spdlog::info("cuzk-daemon starting (config: {}, params: {})",
               cli.config.empty() ? std::string("built-in defaults") : cli.config, cfg.param_cache);

  // TIMELINE lines go to stderr as always, and the recent ones stay in
  // memory for the status listener's live views (GET /, /live, /metrics).
  auto ring = std::make_shared<srv::TimelineRing>();
  auto sink = [ring](const std::string& line) {
    std::string l = line + '\n';
    std::fwrite(l.data(), 1, l.size(), stderr);
    std::fflush(stderr);
    ring->add(line);
  };
  auto engine = std::make_unique<eng::Engine>(cfg, eng::default_handlers(cfg), sink);
  ring->set_clock([e = engine.get()] { return int64_t(e->timeline().now_ms()); });
  // Fleet mode ([fleet] database): jobs go through the shared queue; the
  // RPCs are served by the bridge in front of the local engine.
  std::unique_ptr<cuzk::fleet::Bridge> fleet;
  if (cfg.fleet.enabled()) {
    // Two daemons of one host need two identities: the default names the
    // listener too (and stays the same across restarts).
    if (cfg.fleet.daemon_id.empty()) cfg.fleet.daemon_id = cuzk::fleet::default_daemon_id(cfg.listen);
    fleet = std::make_unique<cuzk::fleet::Bridge>(*engine, cfg.fleet);
    spdlog::info("fleet mode: daemon {} on {} ({} slots, {} reserved for CRITICAL/HIGH, lease {} ms)",
                 fleet->daemon_id(), cuzk::fleet::Database::redact(cfg.fleet.database), fleet->slots(),
                 cfg.fleet.reserved_slots, cfg.fleet.lease.count());
  }
  eng::ProvingService& service = fleet ? static_cast<eng::ProvingService&>(*fleet) : *engine;

  srv::GrpcServerOptions gopts;
  gopts.listen = cfg.listen;
  gopts.allow_insecure_tcp = cfg.allow_insecure_tcp;
  gopts.tls = {cfg.tls_cert_file, cfg.tls_key_file, cfg.tls_client_ca_file};
  gopts.token_file = cfg.token_file;
  gopts.socket_mode = cfg.socket_mode;
  gopts.socket_group = cfg.socket_group;
  // Requests being received are held before admission charges them: as much
  // as the payload budget, at most 1 GiB (docs/PROTOCOL.md §1 Transport).
  gopts.receive_budget_bytes = std::min<uint64_t>(engine->payload_budget().limit(), 1ull << 30);
  srv::GrpcServer grpc_server(service, gopts);
  grpc_server.start();

  std::unique_ptr<srv::HttpStatusServer> http;
  if (!cfg.status_listen.empty()) {
    // The HTTP endpoint has neither TLS nor tokens (read-only, but it shows
    // job ids and the queue): say so when it is not local (an empty host, as
    // in ":9090", is every interface).
    if (auto a = srv::parse_address(cfg.status_listen);
        !a.is_unix && a.host != "127.0.0.1" && a.host != "::1" && a.host != "localhost")
      spdlog::warn(
          "daemon.status_listen {} is reachable from other hosts and serves the dashboard, /status and "
          "/metrics without TLS or token (use 127.0.0.1 or a unix socket, and a tunnel)",
          a.host.empty() ? "on every interface (" + a.to_string() + ")" : a.to_string());
    http = std::make_unique<srv::HttpStatusServer>(service, cfg.status_listen, ring.get());
    http->start();
  }
  spdlog::info("ready: gRPC on {}{}", grpc_server.bound_address(),
               http ? ", HTTP status on " + http->bound_address() : std::string());

  int sig = 0;
  sigwait(&sigs, &sig);
  spdlog::info("{} received: draining (grace {} ms)", sig == SIGINT ? "SIGINT" : "SIGTERM", grace.count());

  // A second signal: leave now, but do not leave the socket behind.
  std::string unix_path;
  try {
    auto a = srv::parse_address(cfg.listen);
    if (a.is_unix) unix_path = a.path;
  } catch (...) {
  }
  std::thread([sigs, unix_path]() mutable {
    int s2 = 0;
    sigwait(&sigs, &s2);
    std::fprintf(stderr, "cuzk-daemon: second signal, exiting immediately\n");
    if (!unix_path.empty()) srv::remove_unix_socket(unix_path);
    std::_Exit(130);
  }).detach();

  grpc_server.stop_accepting();       // SubmitProof/Prove -> UNAVAILABLE
  if (fleet) fleet->shutdown(grace);  // stops claiming, then the engine; unfinished jobs go back to the queue
  else engine->shutdown(grace);       // finishes or cancels work; answers every waiter
  grpc_server.shutdown(5s);           // waiters have their answers; close and remove the socket
  if (http) http->stop();
  ring->set_clock({});  // the engine's clock goes with it
  fleet.reset();
  engine.reset();
  spdlog::info("cuzk-daemon stopped");
  spdlog::shutdown();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cuzk-daemon: Groth16 proving daemon (cuzk.v1 gRPC)"};
  Cli cli;
  app.add_option("-c,--config", cli.config, "configuration file (cuzk.toml)")->check(CLI::ExistingFile);
  app.add_option("-l,--listen", cli.listen, "gRPC address: unix:///path/to.sock or host:port");
  app.add_option("--status-listen", cli.status_listen,
                 "HTTP address for the dashboard (GET /), /status and /metrics");
  app.add_option("--param-cache", cli.param_cache, "parameter directory (srs.param_cache)");
  app.add_option("--log-level", cli.log_level, "trace, debug, info, warn, error, critical, off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
  app.add_option("--shutdown-grace", cli.shutdown_grace,
                 "how long running partitions may finish after SIGINT/SIGTERM")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  try {
    return run(cli);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk-daemon: error: %s\n", e.what());
    return 1;
  }
}
