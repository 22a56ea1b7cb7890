#pragma once
// The streaming-bandwidth measurement of `cuzk-bench micro stream`, for other
// benchmarks that state a memory-bandwidth bound (micro synth).
#include <cstddef>
#include <string>
#include <vector>

namespace cuzk::bench_cli {

struct StreamResult {
  std::string kernel;  // copy, scale, add, triad, read, write, write_nt, write_nt_bits, write_nt_random
  unsigned threads;
  double bytes_per_elem;  // as STREAM counts them (no write-allocate reads)
  double best_gbs, median_gbs;
};

// Every kernel over three arrays of `mib` MiB on `threads` threads, `reps`
// timed passes each (after one warm-up).
std::vector<StreamResult> measure_stream(size_t mib, unsigned threads, int reps);

}  // namespace cuzk::bench_cli
