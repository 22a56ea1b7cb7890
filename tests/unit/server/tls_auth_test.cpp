// Security of the gRPC listener: TLS with certificates made by OpenSSL (test_pki.hpp)
// (a throwaway CA, a server certificate for 127.0.0.1/localhost, client
// certificates), bearer tokens from a token file, the refusal of plain TCP,
// and the unix socket's mode and group. Real server, real gRPC clients,
// loopback only.
#include <grp.h>
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/v1/proving.grpc.pb.h"
#include "server/auth.hpp"
#include "server/grpc_server.hpp"
#include "temp_dir.hpp"
#include "unit/server/fake_service.hpp"
#include "unit/server/test_pki.hpp"

namespace {

namespace pb = cuzk::v1;
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using cuzk::server::GrpcServer;
using cuzk::server::GrpcServerOptions;
using cuzk::test::FakeService;
using cuzk::test::Pki;
using cuzk::test::slurp;

void write_file(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

// A token file as it should be deployed: readable by its owner only.
void write_tokens(const fs::path& p, const std::string& text) {
  write_file(p, text);
  fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write);
}

// ---- clients ---------------------------------------------------------------

std::shared_ptr<grpc::Channel> insecure_channel(const std::string& target) {
  return grpc::CreateChannel(target, grpc::InsecureChannelCredentials());
}

// ca_pem "" = the system's default roots.
std::shared_ptr<grpc::Channel> tls_channel(const std::string& target, const std::string& ca_pem,
                                           const std::string& cert_pem = "",
                                           const std::string& key_pem = "") {
  grpc::SslCredentialsOptions o;
  o.pem_root_certs = ca_pem;
  o.pem_cert_chain = cert_pem;
  o.pem_private_key = key_pem;
  return grpc::CreateChannel(target, grpc::SslCredentials(o));
}

// GetStatus with `authorization` metadata (none when empty).
grpc::Status get_status(const std::shared_ptr<grpc::Channel>& ch, const std::string& authorization,
                        pb::GetStatusResponse* out = nullptr) {
  auto stub = pb::ProvingEngine::NewStub(ch);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 10s);
  if (!authorization.empty()) ctx.AddMetadata("authorization", authorization);
  pb::GetStatusResponse r;
  auto st = stub->GetStatus(&ctx, pb::GetStatusRequest(), &r);
  if (out) *out = r;
  return st;
}

const char* kTokens = "# cuzk tokens\n\n  tok-alpha-0123456789  \n# old: tok-retired\ntok-beta-9876543210\n";

std::string describe(const grpc::Status& st) {
  return std::to_string(int(st.error_code())) + " " + st.error_message();
}

// ---- TLS + token over TCP --------------------------------------------------

class TlsTokenServer : public ::testing::Test {
 protected:
  void SetUp() override {
    write_tokens(dir.path / "tokens", kTokens);
    server = start({});
    target = "127.0.0.1:" + std::to_string(server->port());
  }
  std::unique_ptr<GrpcServer> start(const std::string& client_ca) {
    GrpcServerOptions o;
    o.listen = "127.0.0.1:0";
    o.tls = {pki.path("server.pem"), pki.path("server.key"), client_ca};
    o.token_file = (dir.path / "tokens").string();
    o.await_slice = 20ms;
    o.max_message_bytes = 1 << 20;
    auto s = std::make_unique<GrpcServer>(fake, o);
    s->start();
    return s;
  }

  cuzk::test::TempDir dir{"cuzk-tls"};
  Pki pki{dir.path};
  FakeService fake;
  std::unique_ptr<GrpcServer> server;
  std::string target;
};

TEST_F(TlsTokenServer, ClientWithoutTheCaIsRefused) {
  // The system roots do not know the test CA; neither does another CA.
  EXPECT_EQ(get_status(tls_channel(target, ""), "Bearer tok-alpha-0123456789").error_code(),
            grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(
      get_status(tls_channel(target, pki.pem("other-ca.pem")), "Bearer tok-alpha-0123456789").error_code(),
      grpc::StatusCode::UNAVAILABLE);
  // Plaintext to a TLS port.
  EXPECT_EQ(get_status(insecure_channel(target), "Bearer tok-alpha-0123456789").error_code(),
            grpc::StatusCode::UNAVAILABLE);
}

// The token is checked before the request message is read: a message over
// the server's limit with a wrong token or none (`auth` null) is
// UNAUTHENTICATED, not RESOURCE_EXHAUSTED, and never reaches the service.
void expect_refused_before_reading(const std::shared_ptr<grpc::Channel>& ch, FakeService& fake,
                                   const char* auth = nullptr) {
  auto stub = pb::ProvingEngine::NewStub(ch);
  for (size_t size : {size_t(10), size_t(2) << 20}) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 10s);
    if (auth) ctx.AddMetadata("authorization", auth);
    pb::SubmitProofRequest req;
    req.set_proof_kind(pb::GENERIC_R1CS);
    req.set_circuit_id("c");
    req.set_vanilla_proof("instant:" + std::string(size, 'p'));
    pb::SubmitProofResponse resp;
    auto st = stub->SubmitProof(&ctx, req, &resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAUTHENTICATED) << size << ": " << describe(st);
  }
  EXPECT_TRUE(fake.snapshot_requests().empty());
}

TEST_F(TlsTokenServer, MissingOrWrongTokenIsUnauthenticated) {
  auto ch = tls_channel(target, pki.pem("ca.pem"));
  for (const char* auth :
       {"", "Bearer ", "Bearer tok-gamma", "Bearer tok-alpha-012345678", "Bearer tok-alpha-01234567890",
        "Bearer tok-retired", "tok-alpha-0123456789", "Basic tok-alpha-0123456789", "Bearer # cuzk tokens"}) {
    auto st = get_status(ch, auth);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAUTHENTICATED) << "'" << auth << "': " << describe(st);
  }
  // Refused on the metadata, before the request message is read (over the
  // server's 1 MiB message limit too).
  expect_refused_before_reading(ch, fake, "Bearer wrong");
}

TEST_F(TlsTokenServer, RightTokenSucceeds) {
  auto ch = tls_channel(target, pki.pem("ca.pem"));
  pb::GetStatusResponse s;
  auto st = get_status(ch, "Bearer tok-alpha-0123456789", &s);
  ASSERT_TRUE(st.ok()) << describe(st);
  EXPECT_EQ(s.uptime_seconds(), 99u);
  // Either token of the file; the scheme is case-insensitive.
  st = get_status(ch, "bearer tok-beta-9876543210");
  EXPECT_TRUE(st.ok()) << describe(st);

  // A whole proof: SubmitProof then AwaitProof.
  auto stub = pb::ProvingEngine::NewStub(ch);
  pb::SubmitProofRequest req;
  req.set_proof_kind(pb::GENERIC_R1CS);
  req.set_circuit_id("c");
  req.set_vanilla_proof("instant:the-proof");
  pb::SubmitProofResponse sr;
  {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer tok-beta-9876543210");
    ASSERT_TRUE(stub->SubmitProof(&ctx, req, &sr).ok());
  }
  grpc::ClientContext ctx;
  ctx.AddMetadata("authorization", "Bearer tok-beta-9876543210");
  pb::AwaitProofRequest ar;
  ar.set_job_id(sr.job_id());
  pb::AwaitProofResponse r;
  ASSERT_TRUE(stub->AwaitProof(&ctx, ar, &r).ok());
  EXPECT_EQ(r.status(), pb::AwaitProofResponse::COMPLETED);
  EXPECT_EQ(r.proof(), "the-proof");
}

TEST_F(TlsTokenServer, ClientCertificateRequiredWhenClientCaIsSet) {
  server.reset();
  server = start(pki.path("ca.pem"));
  target = "127.0.0.1:" + std::to_string(server->port());
  const std::string tok = "Bearer tok-alpha-0123456789";
  // No client certificate: the handshake fails.
  auto st = get_status(tls_channel(target, pki.pem("ca.pem")), tok);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAVAILABLE) << describe(st);
  // A certificate from another CA: refused too.
  st = get_status(
      tls_channel(target, pki.pem("ca.pem"), pki.pem("other-client.pem"), pki.pem("other-client.key")), tok);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAVAILABLE) << describe(st);
  // The right certificate, still with the token check.
  auto ch = tls_channel(target, pki.pem("ca.pem"), pki.pem("client.pem"), pki.pem("client.key"));
  st = get_status(ch, tok);
  EXPECT_TRUE(st.ok()) << describe(st);
  EXPECT_EQ(get_status(ch, "").error_code(), grpc::StatusCode::UNAUTHENTICATED);
}

TEST(TlsUnixSocket, TlsAppliesToAUnixListenerToo) {
  // A configured TLS is never silently dropped: on a unix socket the client
  // verifies the certificate against "localhost", gRPC's authority there.
  cuzk::test::TempDir dir{"cuzk-tls"};
  Pki pki(dir.path);
  FakeService fake;
  const std::string sock = (dir.path / "cuzk.sock").string();
  GrpcServer srv(fake,
                 {.listen = "unix://" + sock, .tls = {pki.path("server.pem"), pki.path("server.key"), ""}});
  srv.start();
  EXPECT_EQ(get_status(insecure_channel("unix:" + sock), "").error_code(), grpc::StatusCode::UNAVAILABLE);
  auto st = get_status(tls_channel("unix:" + sock, pki.pem("ca.pem")), "");
  EXPECT_TRUE(st.ok()) << describe(st);
}

// ---- tokens without TLS ----------------------------------------------------

TEST(TokenAuth, UnixSocketWithToken) {
  cuzk::test::TempDir dir{"cuzk-tls"};
  write_tokens(dir.path / "tokens", kTokens);
  FakeService fake;
  const std::string sock = (dir.path / "cuzk.sock").string();
  GrpcServer srv(fake, {.listen = "unix://" + sock,
                        .token_file = (dir.path / "tokens").string(),
                        .max_message_bytes = 1 << 20});
  srv.start();
  auto ch = insecure_channel("unix:" + sock);
  EXPECT_EQ(get_status(ch, "").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(get_status(ch, "Bearer nope").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  auto st = get_status(ch, "Bearer tok-beta-9876543210");
  EXPECT_TRUE(st.ok()) << describe(st);
  expect_refused_before_reading(ch, fake);
}

TEST(TokenAuth, PlainTcpWithTokenStartsWithoutTheAllowFlag) {
  cuzk::test::TempDir dir{"cuzk-tls"};
  write_tokens(dir.path / "tokens", kTokens);
  FakeService fake;
  GrpcServer srv(fake, {.listen = "127.0.0.1:0", .token_file = (dir.path / "tokens").string()});
  ASSERT_NO_THROW(srv.start());
  auto ch = insecure_channel("127.0.0.1:" + std::to_string(srv.port()));
  EXPECT_EQ(get_status(ch, "").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(get_status(ch, "Bearer tok-alpha-0123456789").ok());
  expect_refused_before_reading(ch, fake);
}

// ---- refusals at start -----------------------------------------------------

std::string start_error(GrpcServer& srv) {
  try {
    srv.start();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(InsecureTcp, RefusedUnlessAllowed) {
  FakeService fake;
  GrpcServer refused(fake, {.listen = "127.0.0.1:0"});
  std::string err = start_error(refused);
  EXPECT_NE(err.find("daemon.allow_insecure_tcp"), std::string::npos) << err;
  EXPECT_NE(err.find("daemon.tls"), std::string::npos) << err;
  EXPECT_NE(err.find("daemon.token_file"), std::string::npos) << err;
  EXPECT_FALSE(refused.running());

  GrpcServer allowed(fake, {.listen = "127.0.0.1:0", .allow_insecure_tcp = true});
  ASSERT_NO_THROW(allowed.start());
  EXPECT_TRUE(allowed.running());
  EXPECT_TRUE(get_status(insecure_channel("127.0.0.1:" + std::to_string(allowed.port())), "").ok());

  // Unix sockets need neither.
  cuzk::test::TempDir dir{"cuzk-tls"};
  GrpcServer unix_srv(fake, {.listen = "unix://" + (dir.path / "s.sock").string()});
  EXPECT_NO_THROW(unix_srv.start());
}

TEST(TlsConfig, BadFilesAreClearErrors) {
  cuzk::test::TempDir dir{"cuzk-tls"};
  Pki pki(dir.path);
  write_tokens(dir.path / "tokens", kTokens);
  write_file(dir.path / "comments-only", "# nothing\n\n");
  write_file(dir.path / "junk.pem", "hello\n");
  FakeService fake;
  struct Case {
    GrpcServerOptions o;
    std::string needle;
  };
  const std::string tokens = (dir.path / "tokens").string();
  std::vector<Case> cases;
  auto tls = [&](std::string cert, std::string key, std::string ca = "") {
    GrpcServerOptions o;
    o.listen = "127.0.0.1:0";
    o.tls = {std::move(cert), std::move(key), std::move(ca)};
    return o;
  };
  cases.push_back({tls(pki.path("server.pem"), ""), "key_file"});
  cases.push_back({tls("", "", pki.path("ca.pem")), "cert_file and key_file"});
  cases.push_back({tls(pki.path("server.pem"), pki.path("missing.key")), "daemon.tls.key_file"});
  cases.push_back({tls(pki.path("server.pem"), pki.path("junk.pem")), "daemon.tls.key_file"});
  cases.push_back({tls(pki.path("junk.pem"), pki.path("server.key")), "daemon.tls.cert_file"});
  cases.push_back({tls(pki.path("server.pem"), pki.path("server.key"), pki.path("nope.pem")),
                   "daemon.tls.client_ca_file"});
  // A key that is not the certificate's: gRPC cannot build the listener.
  cases.push_back({tls(pki.path("server.pem"), pki.path("client.key")), "cannot listen"});
  GrpcServerOptions tok;
  tok.listen = "127.0.0.1:0";
  tok.token_file = (dir.path / "absent").string();
  cases.push_back({tok, "absent"});
  tok.token_file = (dir.path / "comments-only").string();
  cases.push_back({tok, "no token"});
  for (auto& c : cases) {
    GrpcServer srv(fake, c.o);
    std::string err = start_error(srv);
    EXPECT_NE(err.find(c.needle), std::string::npos) << "want '" << c.needle << "', got '" << err << "'";
    EXPECT_FALSE(srv.running());
  }
}

// ---- unix socket permissions -----------------------------------------------

unsigned mode_of(const std::string& path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) return ~0u;
  return st.st_mode & 07777;
}

TEST(UnixSocketPermissions, Mode0660ByDefault) {
  cuzk::test::TempDir dir{"cuzk-tls"};
  FakeService fake;
  const std::string sock = (dir.path / "cuzk.sock").string();
  const mode_t before = ::umask(0);  // the widest umask: the mode must not come from it
  GrpcServer srv(fake, {.listen = "unix://" + sock});
  srv.start();
  const mode_t during = ::umask(before);
  EXPECT_EQ(during, 0u) << "start() must restore the umask";
  EXPECT_EQ(mode_of(sock), 0660u);
  EXPECT_TRUE(get_status(insecure_channel("unix:" + sock), "").ok());
}

TEST(UnixSocketPermissions, ConfiguredModeAndGroup) {
  cuzk::test::TempDir dir{"cuzk-tls"};
  FakeService fake;
  const std::string sock = (dir.path / "cuzk.sock").string();
  // A group other than our own when we may chown to one (root: any group;
  // else a supplementary group), so that the change is visible.
  gid_t gid = ::getegid();
  if (::geteuid() == 0) {
    if (group* ng = ::getgrnam("nogroup")) gid = ng->gr_gid;
  } else {
    std::vector<gid_t> groups(size_t(std::max(0, ::getgroups(0, nullptr))));
    groups.resize(size_t(std::max(0, ::getgroups(int(groups.size()), groups.data()))));
    for (gid_t x : groups)
      if (x != gid) {
        gid = x;
        break;
      }
  }
  group* g = ::getgrgid(gid);
  ASSERT_NE(g, nullptr);
  const std::string gname = g->gr_name;
  if (gid == ::getegid()) std::printf("note: no second group available; the chown is not observable\n");
  GrpcServer srv(fake, {.listen = "unix://" + sock, .socket_mode = 0640, .socket_group = gname});
  srv.start();
  EXPECT_EQ(mode_of(sock), 0640u);
  struct stat st {};
  ASSERT_EQ(lstat(sock.c_str(), &st), 0);
  EXPECT_EQ(st.st_gid, gid);
}

TEST(UnixSocketPermissions, UnknownGroupIsAClearError) {
  cuzk::test::TempDir dir{"cuzk-tls"};
  FakeService fake;
  const std::string sock = (dir.path / "cuzk.sock").string();
  GrpcServer srv(fake, {.listen = "unix://" + sock, .socket_group = "no-such-group-cuzk-test"});
  std::string err = start_error(srv);
  EXPECT_NE(err.find("daemon.socket_group"), std::string::npos) << err;
  EXPECT_NE(err.find("'no-such-group-cuzk-test' does not exist"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(sock));
}

// ---- the token file and comparisons ----------------------------------------

TEST(Tokens, FileFormat) {
  using cuzk::server::parse_tokens;
  EXPECT_EQ(parse_tokens(kTokens, "t"),
            (std::vector<std::string>{"tok-alpha-0123456789", "tok-beta-9876543210"}));
  EXPECT_EQ(parse_tokens("a\r\n  # c\n\tb\t\n", "t"), (std::vector<std::string>{"a", "b"}));
  try {
    parse_tokens("good\nbad token\n", "tokens.txt");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("tokens.txt:2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_tokens("", "t"), std::runtime_error);
  EXPECT_THROW(parse_tokens("# only\n   \n", "t"), std::runtime_error);
  EXPECT_THROW(parse_tokens("t\x01k\n", "t"), std::runtime_error);
}

TEST(Tokens, Comparison) {
  using cuzk::server::constant_time_equal;
  EXPECT_TRUE(constant_time_equal("abc", "abc"));
  EXPECT_TRUE(constant_time_equal("", ""));
  EXPECT_FALSE(constant_time_equal("abc", "abd"));
  EXPECT_FALSE(constant_time_equal("abc", "ab"));
  EXPECT_FALSE(constant_time_equal("ab", "abc"));
  EXPECT_FALSE(constant_time_equal("abc", ""));
  EXPECT_FALSE(constant_time_equal(std::string("a\0", 2), "a"));

  cuzk::server::TokenSet set({"one", "two"});
  EXPECT_TRUE(set.contains("two"));
  EXPECT_FALSE(set.contains("three"));
  EXPECT_TRUE(set.accepts_header("Bearer one"));
  EXPECT_TRUE(set.accepts_header("BEARER two"));
  EXPECT_FALSE(set.accepts_header("Bearer"));
  EXPECT_FALSE(set.accepts_header("Bearerone"));
  EXPECT_FALSE(set.accepts_header("one"));
  EXPECT_FALSE(cuzk::server::TokenSet().accepts_header("Bearer "));
}

}  // namespace
