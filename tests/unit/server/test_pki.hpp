#pragma once
// A throwaway PKI for the TLS tests, made with OpenSSL's C API: a CA, a
// server certificate for 127.0.0.1/localhost, client certificates, and a
// second CA with a client of its own (Pki below).
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

namespace cuzk::test {

namespace pki_detail {

namespace fs = std::filesystem;

using KeyPtr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using CertPtr = std::unique_ptr<X509, decltype(&X509_free)>;

inline void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("OpenSSL: ") + what + " failed");
}

inline KeyPtr new_key() {
  KeyPtr k(EVP_EC_gen("P-256"), EVP_PKEY_free);
  check(k != nullptr, "EVP_EC_gen");
  return k;
}

inline void add_ext(X509* cert, X509V3_CTX* ctx, int nid, const char* value) {
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, ctx, nid, value);
  check(ext != nullptr, "X509V3_EXT_conf_nid");
  check(X509_add_ext(cert, ext, -1) == 1, "X509_add_ext");
  X509_EXTENSION_free(ext);
}

enum class Role { Ca, Server, Client };

// A certificate for `key` named `cn`, signed by (issuer, issuer_key), or
// self-signed when issuer is null.
inline CertPtr make_cert(EVP_PKEY* key, const std::string& cn, Role role, X509* issuer,
                         EVP_PKEY* issuer_key) {
  static long serial = 1;
  CertPtr c(X509_new(), X509_free);
  check(c != nullptr, "X509_new");
  X509* x = c.get();
  check(X509_set_version(x, 2) == 1, "X509_set_version");
  check(ASN1_INTEGER_set(X509_get_serialNumber(x), serial++) == 1, "serial");
  check(X509_gmtime_adj(X509_getm_notBefore(x), -3600) != nullptr, "notBefore");
  check(X509_gmtime_adj(X509_getm_notAfter(x), 24 * 3600) != nullptr, "notAfter");
  check(X509_set_pubkey(x, key) == 1, "X509_set_pubkey");
  X509_NAME* name = X509_get_subject_name(x);
  check(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                   reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0) == 1,
        "subject");
  check(X509_set_issuer_name(x, issuer ? X509_get_subject_name(issuer) : name) == 1, "issuer");
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer ? issuer : x, x, nullptr, nullptr, 0);
  add_ext(x, &ctx, NID_subject_key_identifier, "hash");
  add_ext(x, &ctx, NID_authority_key_identifier, "keyid:always");
  switch (role) {
    case Role::Ca:
      add_ext(x, &ctx, NID_basic_constraints, "critical,CA:TRUE");
      add_ext(x, &ctx, NID_key_usage, "critical,keyCertSign,cRLSign");
      break;
    case Role::Server:
      add_ext(x, &ctx, NID_basic_constraints, "CA:FALSE");
      add_ext(x, &ctx, NID_key_usage, "critical,digitalSignature,keyEncipherment");
      add_ext(x, &ctx, NID_ext_key_usage, "serverAuth");
      add_ext(x, &ctx, NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost");
      break;
    case Role::Client:
      add_ext(x, &ctx, NID_basic_constraints, "CA:FALSE");
      add_ext(x, &ctx, NID_key_usage, "critical,digitalSignature,keyEncipherment");
      add_ext(x, &ctx, NID_ext_key_usage, "clientAuth");
      break;
  }
  check(X509_sign(x, issuer_key ? issuer_key : key, EVP_sha256()) > 0, "X509_sign");
  return c;
}

inline void write_pem(const fs::path& p, X509* cert) {
  FILE* f = std::fopen(p.c_str(), "w");
  check(f != nullptr, "fopen");
  int ok = PEM_write_X509(f, cert);
  std::fclose(f);
  check(ok == 1, "PEM_write_X509");
}

inline void write_pem(const fs::path& p, EVP_PKEY* key) {
  FILE* f = std::fopen(p.c_str(), "w");
  check(f != nullptr, "fopen");
  int ok = PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(f);
  check(ok == 1, "PEM_write_PrivateKey");
}

}  // namespace pki_detail

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// ca.pem; server.pem/server.key (signed by ca); client.pem/client.key (signed
// by ca); other-ca.pem and other-client.pem/.key signed by that other CA.
struct Pki {
  std::filesystem::path dir;
  explicit Pki(const std::filesystem::path& d) : dir(d) {
    using namespace pki_detail;
    auto ca_key = new_key();
    auto ca = make_cert(ca_key.get(), "cuzk test CA", Role::Ca, nullptr, nullptr);
    auto srv_key = new_key();
    auto srv = make_cert(srv_key.get(), "localhost", Role::Server, ca.get(), ca_key.get());
    auto cli_key = new_key();
    auto cli = make_cert(cli_key.get(), "curio-1", Role::Client, ca.get(), ca_key.get());
    auto other_key = new_key();
    auto other = make_cert(other_key.get(), "some other CA", Role::Ca, nullptr, nullptr);
    auto ocli_key = new_key();
    auto ocli = make_cert(ocli_key.get(), "intruder", Role::Client, other.get(), other_key.get());
    write_pem(dir / "ca.pem", ca.get());
    write_pem(dir / "server.pem", srv.get());
    write_pem(dir / "server.key", srv_key.get());
    write_pem(dir / "client.pem", cli.get());
    write_pem(dir / "client.key", cli_key.get());
    write_pem(dir / "other-ca.pem", other.get());
    write_pem(dir / "other-client.pem", ocli.get());
    write_pem(dir / "other-client.key", ocli_key.get());
  }
  std::string path(const char* name) const { return (dir / name).string(); }
  std::string pem(const char* name) const { return slurp(dir / name); }
};

}  // namespace cuzk::test
