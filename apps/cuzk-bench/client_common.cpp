#include "client_common.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "engine/kinds/registry.hpp"
#include "server/address.hpp"
#include "server/auth.hpp"

namespace cuzk::bench_cli {

std::string& daemon_address() {
  static std::string addr = "http://127.0.0.1:9820";
  return addr;
}

ClientSecurity& client_security() {
  static ClientSecurity s;
  return s;
}

std::string client_token() {
  const auto& s = client_security();
  if (!s.token_file.empty()) return server::read_token_file(s.token_file).front();
  const char* env = std::getenv("CUZK_TOKEN");
  if (!env || !*env) return "";
  std::vector<std::string> t = server::parse_tokens(env, "environment variable CUZK_TOKEN");
  if (t.size() != 1) throw std::runtime_error("CUZK_TOKEN: expected one token");
  return t.front();
}

// The connection flags on the top-level app too (cuzk-bench --tls-ca X status),
// after the client commands have added the global -a.
RegisterCommand reg_security(41, [](CLI::App& app) { add_security_options(&app); });

void add_security_options(CLI::App* app) {
  auto& s = client_security();
  const std::string group = "Daemon connection";
  app->add_option("--tls-ca", s.tls_ca,
                  "connect with TLS, trusting this CA (PEM) for the daemon's certificate")
      ->type_name("FILE")
      ->group(group);
  app->add_option("--tls-cert", s.tls_cert,
                  "TLS client certificate (PEM), for a daemon with daemon.tls.client_ca_file")
      ->type_name("FILE")
      ->group(group);
  app->add_option("--tls-key", s.tls_key, "private key (PEM) of --tls-cert")->type_name("FILE")->group(group);
  app->add_option("--tls-server-name", s.tls_server_name,
                  "name the daemon's certificate must carry (default: the host of --addr)")
      ->type_name("NAME")
      ->group(group);
  app->add_option("--token-file", s.token_file,
                  "send the first token of FILE as 'authorization: Bearer' (default: $CUZK_TOKEN)")
      ->type_name("FILE")
      ->group(group);
}

void add_addr_option(CLI::App* sub) {
  sub->add_option("-a,--addr", daemon_address(),
                  "daemon address: unix:///path/to.sock or [http://]host:port");
  add_security_options(sub);
}

namespace {

// Adds "authorization: Bearer <token>" to every call of the channel, on any
// transport (call credentials would need TLS, and tokens also guard unix
// sockets and plain TCP).
class TokenInterceptor final : public grpc::experimental::Interceptor {
 public:
  explicit TokenInterceptor(const std::string* value) : value_(value) {}
  void Intercept(grpc::experimental::InterceptorBatchMethods* m) override {
    if (m->QueryInterceptionHookPoint(grpc::experimental::InterceptionHookPoints::PRE_SEND_INITIAL_METADATA))
      m->GetSendInitialMetadata()->emplace(server::kAuthorizationKey, *value_);
    m->Proceed();
  }

 private:
  const std::string* value_;
};

class TokenInterceptorFactory final : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  explicit TokenInterceptorFactory(std::string token) : value_(server::bearer_value(token)) {}
  grpc::experimental::Interceptor* CreateClientInterceptor(grpc::experimental::ClientRpcInfo*) override {
    return new TokenInterceptor(&value_);
  }

 private:
  std::string value_;  // lives as long as the channel, which owns the factory
};

std::string read_pem_flag(const char* flag, const std::string& path) {
  try {
    return read_file(path);
  } catch (const std::exception&) {
    throw std::runtime_error(std::string(flag) + ": cannot read '" + path + "'");
  }
}

}  // namespace

std::shared_ptr<grpc::Channel> connect_daemon(const std::string& addr, std::chrono::seconds wait) {
  server::Address a;
  try {
    a = server::parse_address(addr);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(e.what());
  }
  const auto& sec = client_security();
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(256 << 20);
  args.SetMaxSendMessageSize(256 << 20);
  std::shared_ptr<grpc::ChannelCredentials> creds = grpc::InsecureChannelCredentials();
  if (sec.tls()) {
    if (sec.tls_cert.empty() != sec.tls_key.empty())
      throw std::runtime_error("--tls-cert and --tls-key go together");
    grpc::SslCredentialsOptions o;
    if (!sec.tls_ca.empty()) o.pem_root_certs = read_pem_flag("--tls-ca", sec.tls_ca);
    if (!sec.tls_cert.empty()) {
      o.pem_cert_chain = read_pem_flag("--tls-cert", sec.tls_cert);
      o.pem_private_key = read_pem_flag("--tls-key", sec.tls_key);
    }
    creds = grpc::SslCredentials(o);
    if (!sec.tls_server_name.empty()) args.SetSslTargetNameOverride(sec.tls_server_name);
  }
  std::vector<std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>> interceptors;
  if (std::string token = client_token(); !token.empty())
    interceptors.push_back(std::make_unique<TokenInterceptorFactory>(std::move(token)));
  auto ch = grpc::experimental::CreateCustomChannelWithInterceptors(a.grpc_target(), creds, args,
                                                                    std::move(interceptors));
  if (!ch->WaitForConnected(std::chrono::system_clock::now() + wait))
    throw std::runtime_error("cannot connect to the daemon at " + addr +
                             (sec.tls() ? " (TLS: check --tls-ca, --tls-cert/--tls-key and the "
                                          "certificate's names)"
                                        : ""));
  return ch;
}

std::unique_ptr<pb::ProvingEngine::Stub> make_stub(const std::shared_ptr<grpc::Channel>& ch) {
  return pb::ProvingEngine::NewStub(ch);
}

void add_job_options(CLI::App* sub, JobOptions& o, bool with_partition) {
  std::string labels;
  for (const engine::KindSpec* k : engine::all_kinds())
    labels += (labels.empty() ? "" : ", ") + std::string(k->label);
  sub->add_option("-t,--type", o.type, "proof type: " + labels)->required();
  sub->add_option("--c1", o.c1, "PoRep: C1 output JSON wrapper");
  sub->add_option("--vanilla", o.vanilla,
                  "PoSt/SnapDeals: JSON array of base64 vanilla proofs (or one raw proof)");
  sub->add_option("--circuit", o.circuit, "r1cs: registered circuit id");
  sub->add_option("--witness", o.witness, "r1cs: witness file, one per partition (repeat)");
  sub->add_option("--priority", o.priority, "low, normal, high, critical (default: the kind's)");
  sub->add_option("--registered-proof", o.registered_proof, "registered proof type (numeric)");
  sub->add_option("--sector-num", o.sector_num, "sector number");
  sub->add_option("--miner-id", o.miner_id, "miner id");
  sub->add_option("--sector-size", o.sector_size,
                  "sector size in bytes (default: unspecified; PoRep takes it from the C1 input)");
  if (with_partition) sub->add_option("--partition", o.partition, "WindowPoSt partition index");
  sub->add_option("--randomness", o.randomness, "PoSt: 32-byte randomness (hex)");
  sub->add_option("--comm-r-old", o.comm_r_old, "SnapDeals: comm_r_old (hex)");
  sub->add_option("--comm-r-new", o.comm_r_new, "SnapDeals: comm_r_new (hex)");
  sub->add_option("--comm-d-new", o.comm_d_new, "SnapDeals: comm_d_new (hex)");
}

namespace {
std::string lower(std::string s) {
  for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

// The kinds and their names are the registry's (engine/kinds/registry.hpp):
// a kind answers to its label (-t porep), its name and its aliases.
pb::ProofKind parse_kind(const std::string& s) {
  const std::string k = lower(s);
  std::string labels;
  for (const engine::KindSpec* spec : engine::all_kinds()) {
    bool match = k == spec->label || k == spec->name;
    for (std::string_view a : spec->aliases) match = match || (!a.empty() && k == a);
    if (match) return static_cast<pb::ProofKind>(int(spec->value));
    labels += (labels.empty() ? "" : ", ") + std::string(spec->label);
  }
  throw std::runtime_error("unknown proof type '" + s + "' (use " + labels + ")");
}

const char* kind_label(pb::ProofKind k) {
  const engine::KindSpec* spec = engine::find_kind(static_cast<engine::ProofKind>(int(k)));
  return spec ? spec->label.data() : "unknown";  // the labels are literals
}

pb::Priority parse_priority(const std::string& s) {
  const std::string p = lower(s);
  if (p.empty() || p == "default" || p == "unspecified") return pb::PRIORITY_UNSPECIFIED;
  if (p == "low") return pb::LOW;
  if (p == "normal") return pb::NORMAL;
  if (p == "high") return pb::HIGH;
  if (p == "critical") return pb::CRITICAL;
  throw std::runtime_error("unknown priority '" + s + "' (use low, normal, high, critical)");
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string base64_decode(const std::string& s) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
  };
  std::string out;
  out.reserve(s.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  size_t pad = 0;
  for (char c : s) {
    if (c == '=') {
      pad++;
      continue;
    }
    if (c == '\n' || c == '\r' || c == ' ') continue;
    int v = val(c);
    if (v < 0 || pad) throw std::runtime_error("invalid base64");
    acc = (acc << 6) | uint32_t(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(char((acc >> bits) & 0xff));
    }
  }
  if (bits >= 6) throw std::runtime_error("invalid base64 length");
  return out;
}

std::string to_hex(const std::string& bytes) {
  static const char* d = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(d[c >> 4]);
    out.push_back(d[c & 15]);
  }
  return out;
}

std::string from_hex(const std::string& hex_in, const std::string& what) {
  std::string hex = hex_in;
  if (hex.rfind("0x", 0) == 0 || hex.rfind("0X", 0) == 0) hex = hex.substr(2);
  if (hex.size() % 2) throw std::runtime_error("invalid hex for " + what + ": odd length");
  auto nib = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::runtime_error("invalid hex for " + what);
  };
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) out.push_back(char(nib(hex[i]) * 16 + nib(hex[i + 1])));
  return out;
}

pb::SubmitProofRequest build_request(const JobOptions& o) {
  pb::SubmitProofRequest r;
  const auto kind = parse_kind(o.type);
  r.set_proof_kind(kind);
  r.set_priority(parse_priority(o.priority));
  r.set_registered_proof(o.registered_proof);
  r.set_sector_size(o.sector_size);
  r.set_sector_number(o.sector_num);
  r.set_miner_id(o.miner_id);
  r.set_partition_index(o.partition);

  auto load_vanilla = [&](const std::string& path) {
    std::string data = read_file(path);
    // Go's json.Marshal([][]byte): an array of base64 strings; else one raw proof.
    auto j = nlohmann::json::parse(data, nullptr, /*allow_exceptions=*/false);
    if (j.is_array() && std::all_of(j.begin(), j.end(), [](const auto& e) { return e.is_string(); })) {
      for (const auto& e : j) r.add_vanilla_proofs(base64_decode(e.template get<std::string>()));
    } else {
      r.add_vanilla_proofs(std::move(data));
    }
  };

  // What the options fill follows from the fields the kind reads.
  const engine::KindSpec& spec = *engine::find_kind(static_cast<engine::ProofKind>(int(kind)));
  if (spec.reads.has(engine::Field::VanillaProof)) {
    if (o.c1.empty()) throw std::runtime_error(std::string("--c1 is required for ") + kind_label(kind));
    r.set_vanilla_proof(read_file(o.c1));
  } else if (spec.reads.has(engine::Field::CircuitId)) {
    if (o.circuit.empty())
      throw std::runtime_error(std::string("--circuit is required for ") + kind_label(kind));
    r.set_circuit_id(o.circuit);
    if (!o.witness.empty()) {
      for (const auto& w : o.witness) r.add_vanilla_proofs(read_file(w));
    } else if (!o.vanilla.empty()) {
      load_vanilla(o.vanilla);
    } else {
      throw std::runtime_error(std::string("--witness FILE (one per partition) is required for ") +
                               kind_label(kind));
    }
  } else {
    if (o.vanilla.empty())
      throw std::runtime_error(std::string("--vanilla is required for ") + kind_label(kind));
    load_vanilla(o.vanilla);
  }
  r.set_randomness(o.randomness.empty() ? std::string(32, '\0') : from_hex(o.randomness, "--randomness"));
  if (!o.comm_r_old.empty()) r.set_comm_r_old(from_hex(o.comm_r_old, "--comm-r-old"));
  if (!o.comm_r_new.empty()) r.set_comm_r_new(from_hex(o.comm_r_new, "--comm-r-new"));
  if (!o.comm_d_new.empty()) r.set_comm_d_new(from_hex(o.comm_d_new, "--comm-d-new"));
  return r;
}

std::string new_uuid() {
  static thread_local std::mt19937_64 rng([] {
    std::random_device rd;
    return (uint64_t(rd()) << 32) ^ rd();
  }());
  uint64_t hi = rng(), lo = rng();
  hi = (hi & ~0xf000ull) | 0x4000ull;        // version 4
  lo = (lo & ~(3ull << 62)) | (2ull << 62);  // variant 10
  char buf[37];
  std::snprintf(buf, sizeof(buf), "%08x-%04x-%04x-%04x-%012llx", uint32_t(hi >> 32),
                uint32_t((hi >> 16) & 0xffff), uint32_t(hi & 0xffff), uint32_t(lo >> 48),
                static_cast<unsigned long long>(lo & 0xffffffffffffull));
  return buf;
}

const char* status_label(int status) {
  switch (status) {
    case 1: return "COMPLETED";
    case 2: return "FAILED";
    case 3: return "CANCELLED";
    case 4: return "TIMEOUT";
    default: return "UNKNOWN";
  }
}

std::string code_name(grpc::StatusCode c) {
  switch (c) {
    case grpc::StatusCode::OK: return "OK";
    case grpc::StatusCode::CANCELLED: return "CANCELLED";
    case grpc::StatusCode::UNKNOWN: return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND: return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS: return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED: return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED: return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE: return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED: return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL: return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE: return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS: return "DATA_LOSS";
    case grpc::StatusCode::UNAUTHENTICATED: return "UNAUTHENTICATED";
    default: return "CODE_" + std::to_string(int(c));
  }
}

std::string describe(const grpc::Status& st) {
  return code_name(st.error_code()) + ": " + st.error_message();
}

ProofOutcome submit_and_await(pb::ProvingEngine::Stub& stub, const pb::SubmitProofRequest& req) {
  return submit_and_await(stub, req, std::chrono::seconds(30),
                          [](std::chrono::steady_clock::duration, const std::string&) {});
}

std::string secs1(double s) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f", s);
  return buf;
}

}  // namespace cuzk::bench_cli
