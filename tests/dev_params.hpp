#pragma once
// Development parameters for tests that prove real circuits: generated once
// per build tree (random toxic waste, minutes for the 2 KiB PoRep) into
// CUZK_TEST_CACHE under `name`, then read back by later runs and by other
// suites. `name` should carry the circuit's counts, so that a circuit whose
// counts change gets new parameters (after changing only coefficients, delete
// the cache folder). Concurrent tests generate a file once (a lock file).
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "cache_lock.hpp"
#include "groth16/io.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"

namespace cuzk_test_params {

// The cache file for `blank`'s parameters, generated if missing.
inline std::filesystem::path cached_dev_parameters_file(const std::string& name,
                                                        const cuzk::r1cs::Circuit& blank) {
  namespace fs = std::filesystem;
  const fs::path file = fs::path(CUZK_TEST_CACHE) / name;
  if (fs::exists(file)) return file;
  // One generator per file: under `ctest -j` several tests of a fresh build
  // tree want the same parameters at once; the others wait (rather than spend
  // minutes of both cores each on a copy) and read the file it wrote.
  const cuzk_test::CacheLock lock(file);
  if (fs::exists(file)) return file;
  cuzk::groth16::SecureRng rng;
  auto params = cuzk::groth16::generate_parameters(blank, cuzk::groth16::ToxicWaste::random(rng));
  const fs::path tmp = file.string() + ".tmp" + std::to_string(::getpid());
  cuzk::groth16::write_file(tmp.string(), cuzk::groth16::encode_parameters(params));
  fs::rename(tmp, file);  // whole files only, even with two suites at once
  return file;
}

// The parameters themselves (our own file: points checked on the curve only).
// A damaged cache file is regenerated.
inline cuzk::groth16::Parameters cached_dev_parameters(const std::string& name,
                                                       const cuzk::r1cs::Circuit& blank) {
  const auto file = cached_dev_parameters_file(name, blank);
  try {
    return cuzk::groth16::read_parameters_file(file.string(), cuzk::ec::Check::SkipSubgroup);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "regenerating %s: %s\n", file.c_str(), e.what());
    std::filesystem::remove(file);
    return cuzk::groth16::read_parameters_file(cached_dev_parameters_file(name, blank).string(),
                                               cuzk::ec::Check::SkipSubgroup);
  }
}

}  // namespace cuzk_test_params
