// The cuzk.toml parser: every key, sizes and durations, warnings for unknown
// and deprecated keys, errors that name the key.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "engine/config.hpp"

namespace {

using namespace cuzk::engine;
using namespace std::chrono_literals;

bool has_warning(const LoadedConfig& c, const std::string& needle) {
  for (const auto& w : c.warnings)
    if (w.find(needle) != std::string::npos) return true;
  return false;
}

std::string error_of(const std::string& toml) {
  try {
    load_config_string(toml, "test.toml");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(ParseSize, UnitsAndForms) {
  EXPECT_EQ(parse_size("12345"), 12345u);
  EXPECT_EQ(parse_size("0"), 0u);
  EXPECT_EQ(parse_size("512MiB"), 512ull << 20);
  EXPECT_EQ(parse_size("64GiB"), 64ull << 30);
  EXPECT_EQ(parse_size("64 GiB"), 64ull << 30);
  EXPECT_EQ(parse_size("64gib"), 64ull << 30);
  EXPECT_EQ(parse_size("5G"), 5ull << 30);
  EXPECT_EQ(parse_size("1.5GB"), 1500000000ull);
  EXPECT_EQ(parse_size("1.5GiB"), 3ull << 29);
  EXPECT_EQ(parse_size("2KiB"), 2048u);
  EXPECT_EQ(parse_size("2kb"), 2000u);
  EXPECT_EQ(parse_size("1TiB"), 1ull << 40);
  EXPECT_EQ(parse_size("100B"), 100u);
  EXPECT_EQ(parse_size(" 7 MiB "), 7ull << 20);
  EXPECT_EQ(parse_size("16383PiB"), 16383ull << 50);
}

TEST(ParseSize, Rejects) {
  for (const char* bad : {"", "GiB", "-1GiB", "12XB", "1.5", "1..5GiB", "abc", "99999999999TiB",
                          "18446744073709551616", "5 G i B"})
    EXPECT_THROW(parse_size(bad), std::runtime_error) << bad;
  try {
    parse_size("12parsecs");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("12parsecs"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("unit"), std::string::npos);
  }
}

TEST(ParseDuration, UnitsAndForms) {
  EXPECT_EQ(parse_duration("5m"), 5min);
  EXPECT_EQ(parse_duration("30s"), 30s);
  EXPECT_EQ(parse_duration("250ms"), 250ms);
  EXPECT_EQ(parse_duration("1h"), 1h);
  EXPECT_EQ(parse_duration("1d"), 24h);
  EXPECT_EQ(parse_duration("1h30m"), 90min);
  EXPECT_EQ(parse_duration("1m 30s"), 90s);
  EXPECT_EQ(parse_duration("1.5s"), 1500ms);
  EXPECT_EQ(parse_duration("2 minutes"), 2min);
  EXPECT_EQ(parse_duration("0s"), 0ms);
  EXPECT_EQ(parse_duration("1500us"), 2ms);  // rounded to the nearest ms
}

TEST(ParseDuration, Rejects) {
  for (const char* bad : {"", "5", "-5s", "5 fortnights", "s", "1h30", "1.2.3s"})
    EXPECT_THROW(parse_duration(bad), std::runtime_error) << bad;
}

TEST(LoadConfig, EmptyGivesDefaults) {
  auto c = load_config_string("");
  EXPECT_TRUE(c.warnings.empty());
  EngineConfig d;
  EXPECT_EQ(c.config.listen, "unix:///run/cuzk/cuzk.sock");
  EXPECT_EQ(c.config.status_listen, "");
  EXPECT_EQ(c.config.total_budget_bytes, 0u);
  EXPECT_EQ(c.config.safety_margin_bytes, 5ull << 30);
  EXPECT_EQ(c.config.eviction_min_idle, 5min);
  EXPECT_TRUE(c.config.devices.empty());
  EXPECT_EQ(c.config.gpu_workers_per_device, 2u);
  EXPECT_EQ(c.config.gpu_threads, 0u);
  EXPECT_EQ(c.config.synthesis_threads, 0u);
  EXPECT_TRUE(c.config.pipeline_enabled);
  EXPECT_EQ(c.config.max_parallel_synthesis, 18u);
  EXPECT_EQ(c.config.synthesis_concurrency, 1u);
  EXPECT_EQ(c.config.max_gpu_queue_depth, 0u);
  EXPECT_EQ(c.config.max_batch_size, 1u);
  EXPECT_EQ(c.config.max_batch_wait, 10000ms);
  EXPECT_EQ(c.config.param_cache, "/data/zk/params");
  EXPECT_EQ(c.config.log_level, "info");
  EXPECT_EQ(c.config.self_check, d.self_check);
}

TEST(LoadConfig, EveryKey) {
  auto c = load_config_string(R"(
[daemon]
listen = "127.0.0.1:9820"
status_listen = "127.0.0.1:9821"
result_retention = "10m"
result_retention_count = 500

[memory]
total_budget = "64GiB"
safety_margin = "2GiB"
eviction_min_idle = "30s"

[gpus]
devices = [0, 2]
gpu_workers_per_device = 3
gpu_threads = 8

[synthesis]
threads = 12

[pipeline]
enabled = false
max_parallel_synthesis = 4
synthesis_concurrency = 2
max_gpu_queue_depth = 3
self_check = false
throttle_synthesis_during_tail = true

[scheduler]
max_batch_size = 5
max_batch_wait_ms = 2500

[srs]
param_cache = "/tmp/params"

[logging]
level = "DEBUG"
)");
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
  const auto& k = c.config;
  EXPECT_EQ(k.listen, "127.0.0.1:9820");
  EXPECT_EQ(k.status_listen, "127.0.0.1:9821");
  EXPECT_EQ(k.result_retention, 10min);
  EXPECT_EQ(k.result_retention_count, 500u);
  EXPECT_EQ(k.total_budget_bytes, 64ull << 30);
  EXPECT_EQ(k.safety_margin_bytes, 2ull << 30);
  EXPECT_EQ(k.eviction_min_idle, 30s);
  EXPECT_EQ(k.devices, (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(k.gpu_workers_per_device, 3u);
  EXPECT_EQ(k.gpu_threads, 8u);
  EXPECT_EQ(k.synthesis_threads, 12u);
  EXPECT_FALSE(k.pipeline_enabled);
  EXPECT_EQ(k.max_parallel_synthesis, 4u);
  EXPECT_EQ(k.synthesis_concurrency, 2u);
  EXPECT_EQ(k.max_gpu_queue_depth, 3u);
  EXPECT_FALSE(k.self_check);
  EXPECT_TRUE(k.throttle_synthesis_during_tail);
  EXPECT_EQ(k.max_batch_size, 5u);
  EXPECT_EQ(k.max_batch_wait, 2500ms);
  EXPECT_EQ(k.param_cache, "/tmp/params");
  EXPECT_EQ(k.log_level, "debug");
}

TEST(LoadConfig, DaemonSecurityKeys) {
  // Defaults: no TLS, no token, TCP refused, socket 0660 in the daemon's group.
  EngineConfig d;
  EXPECT_FALSE(d.allow_insecure_tcp);
  EXPECT_EQ(d.token_file, "");
  EXPECT_EQ(d.socket_mode, 0660u);
  EXPECT_EQ(d.socket_group, "");
  EXPECT_EQ(d.tls_cert_file, "");

  auto c = load_config_string(R"(
[daemon]
listen = "0.0.0.0:9820"
allow_insecure_tcp = true
token_file = "/etc/cuzk/tokens"
socket_mode = "0640"
socket_group = "cuzk"

[daemon.tls]
cert_file = "/etc/cuzk/server.pem"
key_file = "/etc/cuzk/server.key"
client_ca_file = "/etc/cuzk/clients-ca.pem"
)");
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
  const auto& k = c.config;
  EXPECT_EQ(k.listen, "0.0.0.0:9820");
  EXPECT_TRUE(k.allow_insecure_tcp);
  EXPECT_EQ(k.token_file, "/etc/cuzk/tokens");
  EXPECT_EQ(k.socket_mode, 0640u);
  EXPECT_EQ(k.socket_group, "cuzk");
  EXPECT_EQ(k.tls_cert_file, "/etc/cuzk/server.pem");
  EXPECT_EQ(k.tls_key_file, "/etc/cuzk/server.key");
  EXPECT_EQ(k.tls_client_ca_file, "/etc/cuzk/clients-ca.pem");

  // Inline table form, and the forms of a mode.
  auto t = load_config_string("[daemon]\ntls = { cert_file = \"c.pem\", key_file = \"k.pem\" }\n");
  EXPECT_EQ(t.config.tls_cert_file, "c.pem");
  EXPECT_EQ(t.config.tls_key_file, "k.pem");
  EXPECT_EQ(t.config.tls_client_ca_file, "");
  EXPECT_EQ(load_config_string("[daemon]\nsocket_mode = \"600\"").config.socket_mode, 0600u);
  EXPECT_EQ(load_config_string("[daemon]\nsocket_mode = \"0o660\"").config.socket_mode, 0660u);
  EXPECT_EQ(load_config_string("[daemon]\nsocket_mode = 0o666").config.socket_mode, 0666u);
  EXPECT_EQ(load_config_string("[daemon]\nsocket_mode = \"2770\"").config.socket_mode, 02770u);

  // Unknown keys inside [daemon.tls] warn like any other.
  auto w = load_config_string("[daemon.tls]\ncert_file = \"c\"\nkey_file = \"k\"\nca_file = \"x\"\n");
  EXPECT_TRUE(has_warning(w, "unknown key 'daemon.tls.ca_file'"));
  EXPECT_EQ(w.warnings.size(), 1u);
}

TEST(LoadConfig, RemoteExampleIsValid) {
  // config/cuzk-remote.toml, the documented example of a daemon on TCP.
  auto c = load_config_file(std::string(CUZK_TEST_VECTORS) + "/../../config/cuzk-remote.toml");
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
  EXPECT_FALSE(c.config.allow_insecure_tcp);
  EXPECT_FALSE(c.config.token_file.empty());
  EXPECT_FALSE(c.config.tls_cert_file.empty());
  EXPECT_FALSE(c.config.tls_key_file.empty());
  EXPECT_FALSE(c.config.tls_client_ca_file.empty());
}

TEST(LoadConfig, DaemonSecurityErrorsNameTheKey) {
  struct Case {
    const char* toml;
    const char* key;
  };
  const Case cases[] = {
      {"[daemon]\nallow_insecure_tcp = \"yes\"", "daemon.allow_insecure_tcp"},
      {"[daemon]\ntoken_file = 1", "daemon.token_file"},
      {"[daemon]\nsocket_mode = 660", "daemon.socket_mode"},  // decimal: not the mode meant
      {"[daemon]\nsocket_mode = \"0689\"", "daemon.socket_mode"},
      {"[daemon]\nsocket_mode = \"rw-rw----\"", "daemon.socket_mode"},
      {"[daemon]\nsocket_mode = \"\"", "daemon.socket_mode"},
      {"[daemon]\nsocket_mode = \"17777\"", "daemon.socket_mode"},
      {"[daemon]\nsocket_mode = true", "daemon.socket_mode"},
      {"[daemon]\nsocket_group = 1000", "daemon.socket_group"},
      {"[daemon]\ntls = \"on\"", "daemon.tls"},
      {"[daemon.tls]\ncert_file = 5", "daemon.tls.cert_file"},
      {"[daemon.tls]\ncert_file = \"c.pem\"", "daemon.tls.key_file"},
      {"[daemon.tls]\nkey_file = \"k.pem\"", "daemon.tls.cert_file"},
      {"[daemon.tls]\nclient_ca_file = \"ca.pem\"", "daemon.tls.client_ca_file"},
  };
  for (const auto& c : cases) {
    std::string err = error_of(c.toml);
    EXPECT_NE(err.find(std::string("'") + c.key + "'"), std::string::npos) << c.toml << " -> " << err;
    EXPECT_NE(err.find("test.toml"), std::string::npos) << err;
  }
  EXPECT_NE(error_of("[daemon]\nsocket_mode = 660").find("octal"), std::string::npos);
}

TEST(LoadConfig, BudgetForms) {
  EXPECT_EQ(load_config_string("[memory]\ntotal_budget = \"auto\"").config.total_budget_bytes, 0u);
  EXPECT_EQ(load_config_string("[memory]\ntotal_budget = \"AUTO\"").config.total_budget_bytes, 0u);
  EXPECT_EQ(load_config_string("[memory]\ntotal_budget = 1048576").config.total_budget_bytes, 1048576u);
  EXPECT_EQ(load_config_string("[memory]\ntotal_budget = \"512MiB\"").config.total_budget_bytes,
            512ull << 20);
  // Durations as integers: seconds for eviction_min_idle, ms for max_batch_wait_ms.
  EXPECT_EQ(load_config_string("[memory]\neviction_min_idle = 90").config.eviction_min_idle, 90s);
  EXPECT_EQ(load_config_string("[scheduler]\nmax_batch_wait_ms = \"2s\"").config.max_batch_wait, 2s);
  EXPECT_EQ(load_config_string("[logging]\nlevel = \"warning\"").config.log_level, "warn");
}

TEST(LoadConfig, UnknownKeysWarn) {
  auto c = load_config_string(R"(
top_level_thing = 1
[daemon]
listen = "unix:///tmp/x.sock"
lisen = "typo"
[mystery]
a = 1
[pipeline.sub]
x = 1
)",
                              "my.toml");
  EXPECT_EQ(c.config.listen, "unix:///tmp/x.sock");
  EXPECT_TRUE(has_warning(c, "unknown key 'top_level_thing'"));
  EXPECT_TRUE(has_warning(c, "unknown key 'daemon.lisen'"));
  EXPECT_TRUE(has_warning(c, "unknown section [mystery]"));
  EXPECT_TRUE(has_warning(c, "unknown key 'pipeline.sub'"));
  EXPECT_TRUE(has_warning(c, "my.toml"));
  EXPECT_EQ(c.warnings.size(), 4u);
}

TEST(LoadConfig, DeprecatedRustKeysWarnAndAreIgnored) {
  auto c = load_config_string(R"(
partition_workers = 4
[synthesis]
threads = 3
partition_workers = 10
[srs]
preload = ["porep-32g"]
param_cache = "/p"
[memory]
pinned_budget = "40GiB"
working_memory_budget = "100GiB"
[pipeline]
slot_size = 2
synthesis_lookahead = 1
[scheduler]
sort_by_type = true
)");
  EXPECT_EQ(c.config.synthesis_threads, 3u);
  EXPECT_EQ(c.config.param_cache, "/p");
  for (const char* k : {"'partition_workers'", "'synthesis.partition_workers'", "'srs.preload'",
                        "'memory.pinned_budget'", "'memory.working_memory_budget'", "'pipeline.slot_size'",
                        "'pipeline.synthesis_lookahead'", "'scheduler.sort_by_type'"})
    EXPECT_TRUE(has_warning(c, std::string("deprecated key ") + k)) << k;
  EXPECT_EQ(c.warnings.size(), 8u);
}

TEST(LoadConfig, MalformedValuesNameTheKey) {
  struct Case {
    const char* toml;
    const char* key;
  };
  const Case cases[] = {
      {"[daemon]\nlisten = 5", "daemon.listen"},
      {"[memory]\ntotal_budget = \"lots\"", "memory.total_budget"},
      {"[memory]\ntotal_budget = -1", "memory.total_budget"},
      {"[memory]\nsafety_margin = true", "memory.safety_margin"},
      {"[memory]\neviction_min_idle = \"5\"", "memory.eviction_min_idle"},
      {"[memory]\neviction_min_idle = 1.5", "memory.eviction_min_idle"},
      {"[gpus]\ndevices = 0", "gpus.devices"},
      {"[gpus]\ndevices = [0, -1]", "gpus.devices[1]"},
      {"[gpus]\ndevices = [\"0\"]", "gpus.devices[0]"},
      {"[gpus]\ngpu_workers_per_device = 0", "gpus.gpu_workers_per_device"},
      {"[gpus]\ngpu_threads = \"8\"", "gpus.gpu_threads"},
      {"[synthesis]\nthreads = 5000000000", "synthesis.threads"},
      {"[pipeline]\nenabled = \"yes\"", "pipeline.enabled"},
      {"[pipeline]\nmax_parallel_synthesis = 0", "pipeline.max_parallel_synthesis"},
      {"[scheduler]\nmax_batch_size = 0", "scheduler.max_batch_size"},
      {"[scheduler]\nmax_batch_wait_ms = -5", "scheduler.max_batch_wait_ms"},
      {"[srs]\nparam_cache = []", "srs.param_cache"},
      {"[logging]\nlevel = \"loud\"", "logging.level"},
      {"daemon = 5", "daemon"},
  };
  for (const auto& c : cases) {
    std::string err = error_of(c.toml);
    EXPECT_NE(err.find(std::string("'") + c.key + "'"), std::string::npos) << c.toml << " -> " << err;
    EXPECT_NE(err.find("test.toml"), std::string::npos) << err;
  }
}

TEST(LoadConfig, SyntaxErrorsHaveALocation) {
  std::string err = error_of("[daemon]\nlisten = \"unterminated\n");
  EXPECT_NE(err.find("test.toml:2:"), std::string::npos) << err;
  EXPECT_NE(err.find("syntax"), std::string::npos) << err;
}

TEST(LoadConfig, File) {
  auto path =
      std::filesystem::temp_directory_path() / ("cuzk-config-test-" + std::to_string(::getpid()) + ".toml");
  {
    std::ofstream f(path);
    f << "[pipeline]\nmax_parallel_synthesis = 7\n[bogus]\n";
  }
  auto c = load_config_file(path.string());
  EXPECT_EQ(c.config.max_parallel_synthesis, 7u);
  EXPECT_TRUE(has_warning(c, path.string()));
  std::filesystem::remove(path);
  try {
    load_config_file(path.string());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos);
  }
}

// [fleet]: absent = a single daemon (no database); every key parsed; a
// [fleet] without a database, a non-PostgreSQL URI and inconsistent lease /
// slot figures are errors naming the key.
TEST(LoadConfig, FleetAbsentMeansSingleDaemon) {
  auto c = load_config_string("[daemon]\nlisten = \"127.0.0.1:9820\"\n");
  EXPECT_FALSE(c.config.fleet.enabled());
  EXPECT_EQ(c.config.fleet.database, "");
  EXPECT_TRUE(c.warnings.empty());
}

TEST(LoadConfig, FleetEveryKey) {
  auto c = load_config_string(
      "[fleet]\n"
      "database = \"postgresql://cuzk@db1/cuzk?host=/run/postgresql\"\n"
      "daemon_id = \"gpu-7\"\n"
      "lease = \"12s\"\n"
      "slots = 4\n"
      "reserved_slots = 2\n"
      "max_attempts = 5\n"
      "result_retention = \"2h\"\n"
      "poll_interval = \"100ms\"\n"
      "db_timeout = \"3s\"\n");
  EXPECT_TRUE(c.warnings.empty());
  const auto& f = c.config.fleet;
  EXPECT_TRUE(f.enabled());
  EXPECT_EQ(f.database, "postgresql://cuzk@db1/cuzk?host=/run/postgresql");
  EXPECT_EQ(f.daemon_id, "gpu-7");
  EXPECT_EQ(f.lease, 12s);
  EXPECT_EQ(f.slots, 4u);
  EXPECT_EQ(f.reserved_slots, 2u);
  EXPECT_EQ(f.max_attempts, 5u);
  EXPECT_EQ(f.result_retention, 2h);
  EXPECT_EQ(f.poll_interval, 100ms);
  EXPECT_EQ(f.db_timeout, 3s);
}

TEST(LoadConfig, FleetDefaults) {
  auto c = load_config_string("[fleet]\ndatabase = \"postgres://h/db\"\n");
  const auto& f = c.config.fleet;
  EXPECT_TRUE(f.enabled());
  EXPECT_EQ(f.daemon_id, "");  // "<host>/<listen address>", resolved at start
  EXPECT_EQ(f.lease, 30s);
  EXPECT_EQ(f.slots, 0u);
  EXPECT_EQ(f.reserved_slots, 1u);
  EXPECT_EQ(f.max_attempts, 3u);
  EXPECT_EQ(f.result_retention, 24h);
  EXPECT_EQ(f.poll_interval, 250ms);
  EXPECT_EQ(f.db_timeout, 10s);
  // Bare integers: seconds for lease and retention, milliseconds for the poll.
  auto d = load_config_string("[fleet]\ndatabase = \"postgres://h/db\"\nlease = 9\npoll_interval = 40\n");
  EXPECT_EQ(d.config.fleet.lease, 9s);
  EXPECT_EQ(d.config.fleet.poll_interval, 40ms);
}

TEST(LoadConfig, FleetExampleIsValid) {
  // config/cuzk-fleet.toml, the documented example of a fleet daemon.
  auto c = load_config_file(std::string(CUZK_TEST_VECTORS) + "/../../config/cuzk-fleet.toml");
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
  EXPECT_TRUE(c.config.fleet.enabled());
  EXPECT_EQ(c.config.fleet.daemon_id, "gpu1");
  EXPECT_EQ(c.config.fleet.lease, 30s);
  EXPECT_EQ(c.config.fleet.reserved_slots, 1u);
}

TEST(LoadConfig, FleetErrorsNameTheKey) {
  auto err = [](const std::string& body) { return error_of("[fleet]\n" + body); };
  EXPECT_NE(err("lease = \"10s\"\n").find("'fleet.database': required in [fleet]"), std::string::npos);
  EXPECT_NE(err("database = \"mysql://h/db\"\n").find("'fleet.database': expected a postgresql:// URI"),
            std::string::npos);
  EXPECT_NE(err("database = 5\n").find("'fleet.database': expected a string"), std::string::npos);
  const std::string db = "database = \"postgresql://h/db\"\n";
  EXPECT_NE(err(db + "lease = \"500ms\"\n").find("'fleet.lease': at least 1s"), std::string::npos);
  EXPECT_NE(err(db + "lease = \"2s\"\npoll_interval = \"1500ms\"\n").find("'fleet.poll_interval'"),
            std::string::npos);
  EXPECT_NE(err(db + "poll_interval = \"5ms\"\n").find("'fleet.poll_interval': at least 10ms"),
            std::string::npos);
  EXPECT_NE(err(db + "db_timeout = \"50ms\"\n").find("'fleet.db_timeout': at least 100ms"),
            std::string::npos);
  EXPECT_NE(err(db + "slots = 2\nreserved_slots = 2\n").find("'fleet.reserved_slots': must be smaller"),
            std::string::npos);
  EXPECT_NE(err(db + "max_attempts = 0\n").find("'fleet.max_attempts'"), std::string::npos);
  EXPECT_NE(err(db + "daemon_id = \" gpu\"\n").find("'fleet.daemon_id'"), std::string::npos);
  EXPECT_NE(err(db + "lease = \"soon\"\n").find("'fleet.lease'"), std::string::npos);
  EXPECT_NE(err(db + "reserved_slots = -1\n").find("'fleet.reserved_slots'"), std::string::npos);
  // slots = 0 (auto) leaves reserved_slots unchecked here: the bridge adds it.
  EXPECT_EQ(err(db + "slots = 0\nreserved_slots = 3\n"), "");
  // Unknown fleet keys warn like any other.
  auto c = load_config_string("[fleet]\n" + db + "bogus = 1\n");
  EXPECT_TRUE(has_warning(c, "unknown key 'fleet.bogus' ignored"));
}

}  // namespace
