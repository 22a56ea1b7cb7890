#pragma once
// OpenSSL's libcrypto, opened with dlopen on first use instead of linked.
// Loading it at process start costs ~2.5 ms here (its ~20,000 relocations
// write about 100 pages), a twentieth of a one-shot `cuzk prove` of a
// 5,000-constraint circuit, which hashes nothing once its key is on record.
// It is the system's library (its security updates apply); the function
// types are its headers' own, so a changed signature fails to compile.
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

namespace cuzk::platform {

struct Libcrypto {
  decltype(&::EVP_MD_fetch) EVP_MD_fetch;
  decltype(&::EVP_MD_free) EVP_MD_free;
  decltype(&::EVP_MD_CTX_new) EVP_MD_CTX_new;
  decltype(&::EVP_MD_CTX_free) EVP_MD_CTX_free;
  decltype(&::EVP_DigestInit_ex2) EVP_DigestInit_ex2;
  decltype(&::EVP_DigestUpdate) EVP_DigestUpdate;
  decltype(&::EVP_DigestFinal_ex) EVP_DigestFinal_ex;
  decltype(&::EVP_MAC_fetch) EVP_MAC_fetch;
  decltype(&::EVP_MAC_free) EVP_MAC_free;
  decltype(&::EVP_MAC_CTX_new) EVP_MAC_CTX_new;
  decltype(&::EVP_MAC_CTX_free) EVP_MAC_CTX_free;
  decltype(&::EVP_MAC_init) EVP_MAC_init;
  decltype(&::EVP_MAC_update) EVP_MAC_update;
  decltype(&::EVP_MAC_final) EVP_MAC_final;
  decltype(&::OSSL_PARAM_construct_size_t) OSSL_PARAM_construct_size_t;
  decltype(&::OSSL_PARAM_construct_end) OSSL_PARAM_construct_end;
};

// Opened once, by whichever thread asks first; never closed. Throws
// std::runtime_error naming the library or the function that is missing.
const Libcrypto& libcrypto();

}  // namespace cuzk::platform
