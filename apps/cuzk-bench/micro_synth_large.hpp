#pragma once
// `cuzk-bench micro synth` for the PoRep partitions that cannot be sealed or
// held whole here (micro_synth_large.cpp).
#include <cstddef>
#include <cstdint>
#include <string>

#include "filecoin/common/registered_proof.hpp"

namespace cuzk::bench_cli {

struct LargeSynthOpts {
  std::string circuit;
  std::string pce_file;                 // "" = <circuit>.pce in the working directory
  size_t chunk_rows = size_t(1) << 22;  // rows of a, b, c per evaluation chunk
  size_t stream_mib = 1024;  // per array of the bandwidth measurement (4x the 260 MB L3 lscpu reports)
  unsigned threads = 0;      // 0 = all
  int reps = 3;
  uint64_t seed = 1;               // of the random C1
  std::string stores = "auto";     // a/b/c's stores: auto (the library's choice) | plain | streaming
  std::string recycle = "budget";  // w's buffer: budget (reused as the daemon does) | off (fresh pages)
  bool json = false;
};

void run_synth_large(const LargeSynthOpts& o, const filecoin::PorepConfig& cfg);

}  // namespace cuzk::bench_cli
