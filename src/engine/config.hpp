#pragma once
// Daemon/engine configuration: the keys of docs/PROTOCOL.md §2, with their
// defaults. Parsed from TOML by load_config(); CLI flags override fields.
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cuzk::engine {

struct EngineConfig {
  // [daemon]
  std::string listen = "unix:///run/cuzk/cuzk.sock";
  std::string status_listen;  // "" = off; "host:port" for GET /status and /metrics
  // ours: security of the gRPC listener (server/grpc_server.hpp GrpcServerOptions)
  bool allow_insecure_tcp = false;  // plain TCP without TLS or tokens refused unless set
  std::string token_file;           // "" = no token; else "authorization: Bearer <token>" required
  uint32_t socket_mode = 0660;      // unix socket permission bits
  std::string socket_group;         // "" = the daemon's group; else chown the socket to it
  // [daemon.tls] ours: PEM files; cert_file + key_file turn TLS on,
  // client_ca_file requires client certificates signed by that CA.
  std::string tls_cert_file;
  std::string tls_key_file;
  std::string tls_client_ca_file;
  // [memory]
  uint64_t total_budget_bytes = 0;  // 0 = auto: MemTotal - safety_margin
  uint64_t safety_margin_bytes = 5ull << 30;
  std::chrono::milliseconds eviction_min_idle{5 * 60 * 1000};
  // [gpus]
  std::vector<uint32_t> devices;  // empty = all detected (the CPU backend is one device)
  // What proves: "auto" (the CUDA GPUs when this build has CUDA and finds
  // one, else the CPU), "cpu", "cuda", or "cuda-emulated" (the CUDA code on
  // the CPU, under the SIMT emulator: for tests, slow).
  std::string device_backend = "auto";
  // CUDA: the B-in-G2 MSM on CPU threads beside the GPU instead of on it.
  bool g2_on_host = false;
  uint32_t gpu_workers_per_device = 2;
  uint32_t gpu_threads = 0;  // 0 = all CPUs
  // [synthesis]
  uint32_t synthesis_threads = 0;  // 0 = all CPUs
  // ours: pre-compiled constraints (engine/pce_store.hpp), files in pce_dir
  // ("" = the param_cache directory)
  bool pce_enabled = true;
  std::string pce_dir;
  // [pipeline]
  bool pipeline_enabled = true;
  uint32_t max_parallel_synthesis = 18;
  uint32_t synthesis_concurrency = 1;
  uint32_t max_gpu_queue_depth = 0;  // 0 = pacer off
  // [scheduler]
  uint32_t max_batch_size = 1;
  std::chrono::milliseconds max_batch_wait{10000};
  // [srs]
  std::string param_cache = "/data/zk/params";
  // [logging]
  std::string log_level = "info";
  // ours: verify every assembled proof before returning it
  bool self_check = true;
  // ours: pause synthesis workers while a CPU tail (b_g2_msm) runs (seed 000)
  bool throttle_synthesis_during_tail = false;
  // ours: how long / how many finished results AwaitProof can still fetch
  std::chrono::milliseconds result_retention{30 * 60 * 1000};
  uint32_t result_retention_count = 10000;
  // [limits] ours: admission refuses (RESOURCE_EXHAUSTED) rather than queueing
  // without bound. A payload is the request's vanilla proof bytes.
  uint32_t max_queued_jobs = 1024;                      // jobs admitted and not yet ended
  uint32_t max_partitions_per_request = 64;             // PoRep 10, SnapDeals 16, PoSt 1
  uint64_t max_payload_bytes = 256ull << 20;            // any kind without its own entry
  std::map<std::string, uint64_t> max_payload_by_kind;  // kind_name() -> bytes
  // Part of the total budget that holds the parsed payloads of admitted jobs;
  // 0 = auto: an eighth of the total, at most 4 GiB. Full -> RESOURCE_EXHAUSTED.
  uint64_t payload_budget_bytes = 0;
  // [fleet] ours (docs/FLEET.md): daemons sharing one job queue on
  // PostgreSQL. No database = a single daemon, no fleet code runs.
  struct Fleet {
    std::string database;                        // postgresql:// or postgres:// URI; "" = fleet mode off
    std::string daemon_id;                       // "" = the host name (resolved at start)
    std::chrono::milliseconds lease{30 * 1000};  // a claim's lease, renewed at a third of it
    // Jobs this daemon holds at once (claimed and not ended); 0 = the
    // engine's device workers + 1 (the next job waits locally, not in the
    // database) + reserved_slots.
    uint32_t slots = 0;
    uint32_t reserved_slots = 1;  // kept for CRITICAL/HIGH jobs
    uint32_t max_attempts = 3;    // claims of one job before it fails for good
    std::chrono::milliseconds result_retention{24 * 3600 * 1000};  // ended jobs kept in the database
    std::chrono::milliseconds poll_interval{250};  // claim loop (sooner when a local job ends)
    bool enabled() const { return !database.empty(); }
  } fleet;
};

// Parses a TOML file. Unknown keys and the Rust daemon's deprecated keys
// produce warnings (returned), never errors; malformed values throw
// std::runtime_error naming the key.
struct LoadedConfig {
  EngineConfig config;
  std::vector<std::string> warnings;
};
LoadedConfig load_config_file(const std::string& path);
LoadedConfig load_config_string(const std::string& toml_text, const std::string& origin = "<string>");

// "64GiB", "512MiB", "1.5GB", "12345" -> bytes; throws on bad input.
uint64_t parse_size(const std::string& s);
// "5m", "30s", "250ms", "1h" -> duration; throws on bad input.
std::chrono::milliseconds parse_duration(const std::string& s);

}  // namespace cuzk::engine
