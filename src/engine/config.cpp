// TOML parser for EngineConfig (docs/PROTOCOL.md §2).
//
// Policy: unknown sections/keys and the Rust daemon's deprecated keys are
// warnings (returned to the caller, who logs them); a known key with a value
// of the wrong type or an unparsable size/duration is an error that names
// the key and the origin.
#include "engine/config.hpp"

#include <toml++/toml.h>

#include <cctype>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "engine/kinds/registry.hpp"

namespace cuzk::engine {

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) b++;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) e--;
  return s.substr(b, e - b);
}

// A non-negative decimal number "123" or "1.5" at s[pos...]; advances pos.
// Returns false when no digits are present.
bool read_number(const std::string& s, size_t& pos, std::string& int_part, std::string& frac_part) {
  int_part.clear();
  frac_part.clear();
  size_t p = pos;
  while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) int_part += s[p++];
  if (p < s.size() && s[p] == '.') {
    p++;
    while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) frac_part += s[p++];
  }
  if (int_part.empty() && frac_part.empty()) return false;
  pos = p;
  return true;
}

using u128 = unsigned __int128;
constexpr u128 kU64Max = std::numeric_limits<uint64_t>::max();

// int_part.frac_part * mult / div, exact in 128 bits, truncated toward zero;
// throws when the result exceeds 64 bits.
uint64_t scale(const std::string& int_part, const std::string& frac_part, u128 mult, u128 div,
               const std::string& what) {
  u128 ip = 0;
  for (char c : int_part) {
    ip = ip * 10 + u128(c - '0');
    if (ip > kU64Max) throw std::runtime_error(what + ": value too large");
  }
  u128 v = ip * mult;
  if (ip != 0 && v / ip != mult) throw std::runtime_error(what + ": value too large");
  // Fraction: at most 18 significant digits.
  std::string f = frac_part.substr(0, 18);
  u128 fnum = 0, fden = 1;
  for (char c : f) {
    fnum = fnum * 10 + u128(c - '0');
    fden *= 10;
  }
  v += fnum * mult / fden;
  v /= div;
  if (v > kU64Max) throw std::runtime_error(what + ": value too large");
  return static_cast<uint64_t>(v);
}

}  // namespace

uint64_t parse_size(const std::string& input) {
  const std::string s = trim(input);
  const std::string what = "invalid size \"" + input + "\"";
  if (s.empty()) throw std::runtime_error(what + ": empty");
  if (s[0] == '-') throw std::runtime_error(what + ": negative");
  size_t pos = 0;
  std::string ip, fp;
  if (!read_number(s, pos, ip, fp)) throw std::runtime_error(what + ": expected a number");
  std::string unit = lower(trim(s.substr(pos)));
  static const std::map<std::string, u128> units = {
      {"", 1},
      {"b", 1},
      {"k", 1ull << 10},
      {"ki", 1ull << 10},
      {"kib", 1ull << 10},
      {"kb", 1000ull},
      {"m", 1ull << 20},
      {"mi", 1ull << 20},
      {"mib", 1ull << 20},
      {"mb", 1000000ull},
      {"g", 1ull << 30},
      {"gi", 1ull << 30},
      {"gib", 1ull << 30},
      {"gb", 1000000000ull},
      {"t", 1ull << 40},
      {"ti", 1ull << 40},
      {"tib", 1ull << 40},
      {"tb", 1000000000000ull},
      {"p", 1ull << 50},
      {"pi", 1ull << 50},
      {"pib", 1ull << 50},
      {"pb", 1000000000000000ull},
  };
  auto it = units.find(unit);
  if (it == units.end())
    throw std::runtime_error(what + ": unknown unit '" + unit +
                             "' (use B, KiB, MiB, GiB, TiB or KB, MB, GB, TB)");
  if (it->second == 1 && !fp.empty()) throw std::runtime_error(what + ": fractional byte count");
  return scale(ip, fp, it->second, 1, what);
}

std::chrono::milliseconds parse_duration(const std::string& input) {
  const std::string s = trim(input);
  const std::string what = "invalid duration \"" + input + "\"";
  if (s.empty()) throw std::runtime_error(what + ": empty");
  if (s[0] == '-') throw std::runtime_error(what + ": negative");
  // Units in microseconds so that fractions of ms round sensibly.
  static const std::map<std::string, u128> units = {
      {"us", 1ull},          {"ms", 1000ull},         {"s", 1000000ull},        {"sec", 1000000ull},
      {"secs", 1000000ull},  {"second", 1000000ull},  {"seconds", 1000000ull},  {"m", 60000000ull},
      {"min", 60000000ull},  {"mins", 60000000ull},   {"minute", 60000000ull},  {"minutes", 60000000ull},
      {"h", 3600000000ull},  {"hr", 3600000000ull},   {"hour", 3600000000ull},  {"hours", 3600000000ull},
      {"d", 86400000000ull}, {"day", 86400000000ull}, {"days", 86400000000ull},
  };
  size_t pos = 0;
  u128 total_us = 0;
  int parts = 0;
  while (pos < s.size()) {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) pos++;
    if (pos >= s.size()) break;
    std::string ip, fp;
    if (!read_number(s, pos, ip, fp)) throw std::runtime_error(what + ": expected a number");
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) pos++;
    std::string unit;
    while (pos < s.size() && std::isalpha(static_cast<unsigned char>(s[pos]))) unit += s[pos++];
    unit = lower(unit);
    if (unit.empty()) throw std::runtime_error(what + ": missing unit (e.g. 250ms, 30s, 5m, 1h)");
    auto it = units.find(unit);
    if (it == units.end())
      throw std::runtime_error(what + ": unknown unit '" + unit + "' (use ms, s, m, h, d)");
    total_us += scale(ip, fp, it->second, 1, what);
    if (total_us > kU64Max) throw std::runtime_error(what + ": value too large");
    parts++;
  }
  if (parts == 0) throw std::runtime_error(what + ": expected a number");
  return std::chrono::milliseconds(static_cast<int64_t>((total_us + 500) / 1000));
}

namespace {

// Rust daemon keys we accept and ignore (docs/PROTOCOL.md §2).
const std::set<std::string> kDeprecatedLeaf = {
    "partition_workers", "pinned_budget",       "working_memory_budget",
    "slot_size",         "synthesis_lookahead", "sort_by_type",
};

const char* type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    default: return "nothing";
  }
}

class Parser {
 public:
  Parser(EngineConfig& cfg, std::vector<std::string>& warnings, std::string origin)
      : cfg_(cfg), warnings_(warnings), origin_(std::move(origin)) {
    add_daemon_keys();
    add_memory_keys();
    add_gpus_keys();
    add_synthesis_keys();
    add_pipeline_keys();
    add_limits_keys();
    add_fleet_keys();
    add_srs_and_logging_keys();
  }

  // Checks across keys, after every key is read.
  void finish() {
    const bool cert = !cfg_.tls_cert_file.empty(), key = !cfg_.tls_key_file.empty();
    if (cert && !key) fail("daemon.tls.key_file", "required when daemon.tls.cert_file is set");
    if (key && !cert) fail("daemon.tls.cert_file", "required when daemon.tls.key_file is set");
    if (!cfg_.tls_client_ca_file.empty() && !cert)
      fail("daemon.tls.client_ca_file", "needs daemon.tls.cert_file and daemon.tls.key_file (TLS)");
    if (fleet_section_ && cfg_.fleet.database.empty())
      fail("fleet.database",
           "required in [fleet] (a postgresql:// URI); leave [fleet] out for a single daemon");
    const auto& fl = cfg_.fleet;
    if (fl.enabled()) {
      if (fl.lease < std::chrono::seconds(1)) fail("fleet.lease", "at least 1s");
      if (fl.poll_interval < std::chrono::milliseconds(10)) fail("fleet.poll_interval", "at least 10ms");
      if (fl.poll_interval * 2 > fl.lease)
        fail("fleet.poll_interval",
             "must be at most half of fleet.lease (leases are renewed in the claim loop)");
      if (fl.slots != 0 && fl.reserved_slots >= fl.slots)
        fail("fleet.reserved_slots", "must be smaller than fleet.slots (" + std::to_string(fl.slots) +
                                         "), or no NORMAL/LOW job could ever be claimed");
      if (fl.max_attempts > 100) fail("fleet.max_attempts", "at most 100");
      if (fl.db_timeout < std::chrono::milliseconds(100)) fail("fleet.db_timeout", "at least 100ms");
    }
  }

  void run(const toml::table& root) {
    for (auto&& [key, node] : root) {
      const std::string name(key.str());
      auto sec = sections_.find(name);
      if (sec == sections_.end()) {
        if (kDeprecatedLeaf.count(name)) {
          deprecated(name);
        } else if (node.is_table()) {
          warn("unknown section [" + name + "] ignored");
        } else {
          warn("unknown key '" + name + "' ignored");
        }
        continue;
      }
      const toml::table* tbl = node.as_table();
      if (!tbl) fail(name, std::string("expected a table, got ") + type_name(node));
      if (name == "fleet") fleet_section_ = true;
      for (auto&& [k2, n2] : *tbl) {
        const std::string leaf(k2.str());
        const std::string full = name + "." + leaf;
        auto h = sec->second.find(leaf);
        if (h != sec->second.end()) {
          h->second(full, n2);
        } else if (kDeprecatedLeaf.count(leaf) || full == "srs.preload") {
          deprecated(full);
        } else {
          warn("unknown key '" + full + "' ignored");
        }
      }
    }
  }

 private:
  using Handler = std::function<void(const std::string&, const toml::node&)>;

  // One handler per known key, section by section.
  void add_daemon_keys() {
    auto& d = sections_["daemon"];
    d["listen"] = [this](const std::string& k, const toml::node& n) { cfg_.listen = str(k, n); };
    d["status_listen"] = [this](const std::string& k, const toml::node& n) {
      cfg_.status_listen = str(k, n);
    };
    d["result_retention"] = [this](const std::string& k, const toml::node& n) {
      cfg_.result_retention = dur(k, n, 1000);
    };
    d["result_retention_count"] = [this](const std::string& k, const toml::node& n) {
      cfg_.result_retention_count = u32(k, n, 1);
    };
    d["allow_insecure_tcp"] = [this](const std::string& k, const toml::node& n) {
      cfg_.allow_insecure_tcp = boolean(k, n);
    };
    d["token_file"] = [this](const std::string& k, const toml::node& n) { cfg_.token_file = str(k, n); };
    d["socket_mode"] = [this](const std::string& k, const toml::node& n) { cfg_.socket_mode = mode(k, n); };
    d["socket_group"] = [this](const std::string& k, const toml::node& n) { cfg_.socket_group = str(k, n); };
    // [daemon.tls]: a table of its own keys.
    d["tls"] = [this](const std::string& k, const toml::node& n) {
      auto* t = n.as_table();
      if (!t) fail(k, std::string("expected a table ([daemon.tls]), got ") + type_name(n));
      const std::map<std::string, std::string*> keys = {{"cert_file", &cfg_.tls_cert_file},
                                                        {"key_file", &cfg_.tls_key_file},
                                                        {"client_ca_file", &cfg_.tls_client_ca_file}};
      for (auto&& [kk, v] : *t) {
        const std::string leaf(kk.str());
        auto it = keys.find(leaf);
        if (it == keys.end()) {
          warn("unknown key '" + k + "." + leaf + "' ignored");
          continue;
        }
        *it->second = str(k + "." + leaf, v);
      }
    };
  }
  void add_memory_keys() {
    auto& m = sections_["memory"];
    m["total_budget"] = [this](const std::string& k, const toml::node& n) {
      if (auto s = n.as_string(); s && lower(trim(s->get())) == "auto") {
        cfg_.total_budget_bytes = 0;
        return;
      }
      cfg_.total_budget_bytes = size(k, n);
    };
    m["safety_margin"] = [this](const std::string& k, const toml::node& n) {
      cfg_.safety_margin_bytes = size(k, n);
    };
    m["eviction_min_idle"] = [this](const std::string& k, const toml::node& n) {
      cfg_.eviction_min_idle = dur(k, n, 1000);
    };
  }
  void add_gpus_keys() {
    auto& g = sections_["gpus"];
    g["devices"] = [this](const std::string& k, const toml::node& n) {
      auto* arr = n.as_array();
      if (!arr) fail(k, std::string("expected an array of device ordinals, got ") + type_name(n));
      std::vector<uint32_t> devs;
      for (size_t i = 0; i < arr->size(); i++)
        devs.push_back(u32(k + "[" + std::to_string(i) + "]", *arr->get(i), 0));
      cfg_.devices = std::move(devs);
    };
    g["gpu_workers_per_device"] = [this](const std::string& k, const toml::node& n) {
      cfg_.gpu_workers_per_device = u32(k, n, 1);
    };
    g["gpu_threads"] = [this](const std::string& k, const toml::node& n) { cfg_.gpu_threads = u32(k, n, 0); };
    g["g2_on_host"] = [this](const std::string& k, const toml::node& n) { cfg_.g2_on_host = boolean(k, n); };
    g["backend"] = [this](const std::string& k, const toml::node& n) {
      const std::string v = str(k, n);
      if (v != "auto" && v != "cpu" && v != "cuda" && v != "cuda-emulated")
        fail(k, "expected \"auto\", \"cpu\", \"cuda\" or \"cuda-emulated\", got \"" + v + "\"");
      cfg_.device_backend = v;
    };
  }
  void add_synthesis_keys() {
    sections_["synthesis"]["threads"] = [this](const std::string& k, const toml::node& n) {
      cfg_.synthesis_threads = u32(k, n, 0);
    };
    sections_["synthesis"]["pce"] = [this](const std::string& k, const toml::node& n) {
      cfg_.pce_enabled = boolean(k, n);
    };
    sections_["synthesis"]["pce_dir"] = [this](const std::string& k, const toml::node& n) {
      cfg_.pce_dir = str(k, n);
    };
  }
  // [pipeline] and [scheduler].
  void add_pipeline_keys() {
    auto& p = sections_["pipeline"];
    p["enabled"] = [this](const std::string& k, const toml::node& n) {
      cfg_.pipeline_enabled = boolean(k, n);
    };
    p["max_parallel_synthesis"] = [this](const std::string& k, const toml::node& n) {
      cfg_.max_parallel_synthesis = u32(k, n, 1);
    };
    p["synthesis_concurrency"] = [this](const std::string& k, const toml::node& n) {
      cfg_.synthesis_concurrency = u32(k, n, 1);
    };
    p["max_gpu_queue_depth"] = [this](const std::string& k, const toml::node& n) {
      cfg_.max_gpu_queue_depth = u32(k, n, 0);
    };
    p["self_check"] = [this](const std::string& k, const toml::node& n) { cfg_.self_check = boolean(k, n); };
    p["throttle_synthesis_during_tail"] = [this](const std::string& k, const toml::node& n) {
      cfg_.throttle_synthesis_during_tail = boolean(k, n);
    };

    auto& s = sections_["scheduler"];
    s["max_batch_size"] = [this](const std::string& k, const toml::node& n) {
      cfg_.max_batch_size = u32(k, n, 1);
    };
    s["max_batch_wait_ms"] = [this](const std::string& k, const toml::node& n) {
      cfg_.max_batch_wait = dur(k, n, 1);
    };
  }
  void add_limits_keys() {
    auto& l = sections_["limits"];
    l["max_queued_jobs"] = [this](const std::string& k, const toml::node& n) {
      cfg_.max_queued_jobs = u32(k, n, 1);
    };
    l["max_partitions_per_request"] = [this](const std::string& k, const toml::node& n) {
      cfg_.max_partitions_per_request = u32(k, n, 1);
    };
    l["payload_budget"] = [this](const std::string& k, const toml::node& n) {
      if (auto s = n.as_string(); s && lower(trim(s->get())) == "auto") {
        cfg_.payload_budget_bytes = 0;
        return;
      }
      cfg_.payload_budget_bytes = size(k, n);
    };
    // A size for every kind, or a table of sizes by kind name.
    l["max_payload"] = [this](const std::string& k, const toml::node& n) {
      auto* t = n.as_table();
      if (!t) {
        cfg_.max_payload_bytes = size(k, n);
        return;
      }
      for (auto&& [kk, v] : *t) {
        const std::string kind(kk.str());
        if (!find_kind(kind)) fail(k + "." + kind, "unknown proof kind (use " + kind_names() + ")");
        cfg_.max_payload_by_kind[kind] = size(k + "." + kind, v);
      }
    };
  }
  void add_fleet_keys() {
    auto& f = sections_["fleet"];
    f["database"] = [this](const std::string& k, const toml::node& n) {
      std::string v = trim(str(k, n));
      if (v.rfind("postgresql://", 0) != 0 && v.rfind("postgres://", 0) != 0)
        fail(k, "expected a postgresql:// URI (e.g. \"postgresql://cuzk@db-host/cuzk\")");
      cfg_.fleet.database = v;
    };
    f["daemon_id"] = [this](const std::string& k, const toml::node& n) {
      std::string v = str(k, n);
      if (v.empty() || v.size() > 200 || v != trim(v))
        fail(k, "expected 1 to 200 characters without edge spaces");
      for (unsigned char c : v)
        if (c < 0x20 || c > 0x7e) fail(k, "printable ASCII only");
      cfg_.fleet.daemon_id = v;
    };
    f["lease"] = [this](const std::string& k, const toml::node& n) { cfg_.fleet.lease = dur(k, n, 1000); };
    f["slots"] = [this](const std::string& k, const toml::node& n) { cfg_.fleet.slots = u32(k, n, 0); };
    f["reserved_slots"] = [this](const std::string& k, const toml::node& n) {
      cfg_.fleet.reserved_slots = u32(k, n, 0);
    };
    f["max_attempts"] = [this](const std::string& k, const toml::node& n) {
      cfg_.fleet.max_attempts = u32(k, n, 1);
    };
    f["result_retention"] = [this](const std::string& k, const toml::node& n) {
      cfg_.fleet.result_retention = dur(k, n, 1000);
    };
    f["poll_interval"] = [this](const std::string& k, const toml::node& n) {
      cfg_.fleet.poll_interval = dur(k, n, 1);
    };
    f["db_timeout"] = [this](const std::string& k, const toml::node& n) {
      cfg_.fleet.db_timeout = dur(k, n, 1000);
    };
  }
  // [srs] and [logging].
  void add_srs_and_logging_keys() {
    sections_["srs"]["param_cache"] = [this](const std::string& k, const toml::node& n) {
      cfg_.param_cache = str(k, n);
    };

    sections_["logging"]["level"] = [this](const std::string& k, const toml::node& n) {
      std::string v = lower(trim(str(k, n)));
      if (v == "warning") v = "warn";
      if (v == "fatal") v = "critical";
      static const std::set<std::string> ok = {"trace", "debug", "info", "warn", "error", "critical", "off"};
      if (!ok.count(v))
        fail(k,
             "unknown log level \"" + str(k, n) + "\" (use trace, debug, info, warn, error, critical, off)");
      cfg_.log_level = v;
    };
  }

  [[noreturn]] void fail(const std::string& key, const std::string& msg) const {
    throw std::runtime_error(origin_ + ": config key '" + key + "': " + msg);
  }
  void warn(const std::string& msg) { warnings_.push_back(origin_ + ": " + msg); }
  void deprecated(const std::string& key) {
    warn("deprecated key '" + key + "' (Rust cuzk daemon) is ignored");
  }

  std::string str(const std::string& k, const toml::node& n) const {
    auto* s = n.as_string();
    if (!s) fail(k, std::string("expected a string, got ") + type_name(n));
    return s->get();
  }
  bool boolean(const std::string& k, const toml::node& n) const {
    auto* b = n.as_boolean();
    if (!b) fail(k, std::string("expected true or false, got ") + type_name(n));
    return b->get();
  }
  uint32_t u32(const std::string& k, const toml::node& n, uint32_t min) const {
    auto* i = n.as_integer();
    if (!i) fail(k, std::string("expected an integer, got ") + type_name(n));
    int64_t v = i->get();
    if (v < int64_t(min) || v > int64_t(std::numeric_limits<uint32_t>::max()))
      fail(k, "value " + std::to_string(v) + " out of range [" + std::to_string(min) + ", " +
                  std::to_string(std::numeric_limits<uint32_t>::max()) + "]");
    return static_cast<uint32_t>(v);
  }
  // A permission mode: a string of octal digits ("0660", "660", "0o660") or
  // an octal TOML literal (0o660). A decimal integer is refused: 660 is
  // not 0660.
  uint32_t mode(const std::string& k, const toml::node& n) const {
    uint64_t v = 0;
    if (auto* i = n.as_integer()) {
      if ((i->flags() & toml::value_flags::format_as_octal) == toml::value_flags::none)
        fail(k, "write the mode in octal, as a string such as \"0660\" (a decimal " +
                    std::to_string(i->get()) + " is not an octal mode)");
      if (i->get() < 0) fail(k, "negative mode");
      v = static_cast<uint64_t>(i->get());
    } else if (auto* s = n.as_string()) {
      std::string t = trim(s->get());
      if (t.rfind("0o", 0) == 0 || t.rfind("0O", 0) == 0) t = t.substr(2);
      if (t.empty() || t.size() > 5 || t.find_first_not_of("01234567") != std::string::npos)
        fail(k, "invalid mode \"" + s->get() + "\" (octal digits, such as \"0660\")");
      v = std::stoull(t, nullptr, 8);
    } else {
      fail(k, std::string("expected a mode such as \"0660\", got ") + type_name(n));
    }
    if (v > 07777) fail(k, "mode out of range (at most 07777)");
    return static_cast<uint32_t>(v);
  }
  // Strings like "64GiB"; a bare integer is bytes.
  uint64_t size(const std::string& k, const toml::node& n) const {
    if (auto* i = n.as_integer()) {
      if (i->get() < 0) fail(k, "negative size " + std::to_string(i->get()));
      return static_cast<uint64_t>(i->get());
    }
    auto* s = n.as_string();
    if (!s) fail(k, std::string("expected a size such as \"64GiB\", got ") + type_name(n));
    try {
      return parse_size(s->get());
    } catch (const std::exception& e) {
      fail(k, e.what());
    }
  }
  // Strings like "5m"; a bare integer is in units of int_unit_ms milliseconds.
  std::chrono::milliseconds dur(const std::string& k, const toml::node& n, int64_t int_unit_ms) const {
    if (auto* i = n.as_integer()) {
      if (i->get() < 0) fail(k, "negative duration " + std::to_string(i->get()));
      if (i->get() > std::numeric_limits<int64_t>::max() / int_unit_ms) fail(k, "duration too large");
      return std::chrono::milliseconds(i->get() * int_unit_ms);
    }
    auto* s = n.as_string();
    if (!s) fail(k, std::string("expected a duration such as \"30s\", got ") + type_name(n));
    try {
      return parse_duration(s->get());
    } catch (const std::exception& e) {
      fail(k, e.what());
    }
  }

  EngineConfig& cfg_;
  std::vector<std::string>& warnings_;
  std::string origin_;
  bool fleet_section_ = false;  // [fleet] present (then fleet.database is required)
  std::map<std::string, std::map<std::string, Handler>> sections_;
};

LoadedConfig parse_table(const toml::table& root, const std::string& origin) {
  LoadedConfig out;
  Parser p(out.config, out.warnings, origin);
  p.run(root);
  p.finish();
  return out;
}

std::string describe(const toml::parse_error& e, const std::string& origin) {
  std::ostringstream os;
  const auto& b = e.source().begin;
  os << origin << ":" << b.line << ":" << b.column << ": TOML syntax error: " << e.description();
  return os.str();
}

}  // namespace

LoadedConfig load_config_string(const std::string& toml_text, const std::string& origin) {
  toml::table root;
  try {
    root = toml::parse(toml_text, origin);
  } catch (const toml::parse_error& e) {
    throw std::runtime_error(describe(e, origin));
  }
  return parse_table(root, origin);
}

LoadedConfig load_config_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read config file '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw std::runtime_error("error reading config file '" + path + "'");
  return load_config_string(ss.str(), path);
}

}  // namespace cuzk::engine
