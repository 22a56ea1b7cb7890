#include "platform/libcrypto.hpp"

#include <dlfcn.h>
#include <openssl/opensslv.h>

#include <stdexcept>
#include <string>

namespace cuzk::platform {
namespace {

#define CUZK_STR2(x) #x
#define CUZK_STR(x) CUZK_STR2(x)
// The soname the headers belong to (libcrypto.so.3 for OpenSSL 3.x).
constexpr const char* kSoname = "libcrypto.so." CUZK_STR(OPENSSL_SHLIB_VERSION);
#undef CUZK_STR
#undef CUZK_STR2

template <class F>
void bind(void* lib, const char* name, F& fn) {
  fn = reinterpret_cast<F>(::dlsym(lib, name));
  if (!fn) throw std::runtime_error(std::string(kSoname) + " has no " + name);
}

Libcrypto open_libcrypto() {
  void* lib = ::dlopen(kSoname, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = ::dlerror();
    throw std::runtime_error(std::string("cannot load ") + kSoname + ": " + (why ? why : "unknown error"));
  }
  Libcrypto c{};
  bind(lib, "EVP_MD_fetch", c.EVP_MD_fetch);
  bind(lib, "EVP_MD_free", c.EVP_MD_free);
  bind(lib, "EVP_MD_CTX_new", c.EVP_MD_CTX_new);
  bind(lib, "EVP_MD_CTX_free", c.EVP_MD_CTX_free);
  bind(lib, "EVP_DigestInit_ex2", c.EVP_DigestInit_ex2);
  bind(lib, "EVP_DigestUpdate", c.EVP_DigestUpdate);
  bind(lib, "EVP_DigestFinal_ex", c.EVP_DigestFinal_ex);
  bind(lib, "EVP_MAC_fetch", c.EVP_MAC_fetch);
  bind(lib, "EVP_MAC_free", c.EVP_MAC_free);
  bind(lib, "EVP_MAC_CTX_new", c.EVP_MAC_CTX_new);
  bind(lib, "EVP_MAC_CTX_free", c.EVP_MAC_CTX_free);
  bind(lib, "EVP_MAC_init", c.EVP_MAC_init);
  bind(lib, "EVP_MAC_update", c.EVP_MAC_update);
  bind(lib, "EVP_MAC_final", c.EVP_MAC_final);
  bind(lib, "OSSL_PARAM_construct_size_t", c.OSSL_PARAM_construct_size_t);
  bind(lib, "OSSL_PARAM_construct_end", c.OSSL_PARAM_construct_end);
  return c;
}

}  // namespace

const Libcrypto& libcrypto() {
  static const Libcrypto c = open_libcrypto();
  return c;
}

}  // namespace cuzk::platform
