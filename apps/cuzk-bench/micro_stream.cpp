// cuzk-bench micro stream: the machine's streaming memory bandwidth, in the
// manner of STREAM (McCalpin): arrays far larger than the caches, four
// kernels over 64-bit words, bytes counted as STREAM counts them (what the
// kernel names, not the write-allocate reads the hardware adds):
//   copy   c[i] = a[i]              16 B per element
//   scale  b[i] = 3 c[i]            16 B
//   add    c[i] = a[i] + b[i]       24 B
//   triad  a[i] = b[i] + 3 c[i]     24 B
// plus read (a sum of a[i], 8 B), write (a[i] = i, 8 B) and write_nt (the
// same with streaming stores), what a synthesis streams: the pre-compiled
// matrices read, the witness and the a/b/c vectors written; and
// write_nt_bits / write_nt_random, streaming stores of 32-byte elements 0 or
// ONE / of random bits (the data decides the speed on some machines).
//
//   cuzk-bench micro stream --mib 1024 --threads 1 2 --reps 5 [--json]
//
// The arrays are written once before timing (page faults are not
// bandwidth); threads split every array into equal contiguous ranges. The
// best of --reps is reported, as STREAM does, and the median beside it.
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <chrono>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "micro_common.hpp"
#include "micro_stream.hpp"
#include "ff/bls12_381.hpp"
#include "platform/raw_array.hpp"

namespace cuzk::bench_cli {
namespace {

struct StreamOpts {
  size_t mib = 1024;  // per array
  std::vector<unsigned> threads{1};
  int reps = 5;
  bool json = false;
};

struct StreamKernel {
  const char* name;
  double bytes_per_elem;
  std::function<void(size_t, size_t)> body;  // over [lo, hi)
};

// The elements of p (four words each) that lie whole in words [lo, hi), with
// streaming stores: each ONE or 0 by the top bit of a Weyl sequence (`bits`),
// or else one of four fixed elements of random bits in turn.
void stream_elements(uint64_t* p, size_t lo, size_t hi, const std::array<uint64_t, 4>& one, bool bits) {
  static constexpr uint64_t kRandom[4][4] = {
      {0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9, 0x94d049bb133111eb, 0x2545f4914f6cdd1d},
      {0xd6e8feb86659fd93, 0xa0761d6478bd642f, 0xe7037ed1a0b428db, 0x8ebc6af09c88c6e3},
      {0x589965cc75374cc3, 0x1d8e4e27c47d124f, 0xc2b2ae3d27d4eb4f, 0x165667b19e3779f9},
      {0x27d4eb2f165667c5, 0x85ebca77c2b2ae63, 0xff51afd7ed558ccd, 0xc4ceb9fe1a85ec53}};
  for (size_t e = (lo + 3) / 4; e < hi / 4; e++) {
    const uint64_t* x = bits ? nullptr : kRandom[e & 3];
    const uint64_t keep = bits ? uint64_t(0) - ((e * 0x9e3779b97f4a7c15ull) >> 63) : 0;
    uint64_t v[4];
    for (int k = 0; k < 4; k++) v[k] = bits ? one[size_t(k)] & keep : x[k];
#if defined(__AVX__)
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p + 4 * e),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v)));
#elif defined(__x86_64__)
    for (int k = 0; k < 4; k++) _mm_stream_si64(reinterpret_cast<long long*>(p + 4 * e + k), (long long)v[k]);
#else
    for (int k = 0; k < 4; k++) p[4 * e + k] = v[k];
#endif
  }
#if defined(__x86_64__)
  _mm_sfence();
#endif
}

}  // namespace

std::vector<StreamResult> measure_stream(size_t mib, unsigned threads, int reps) {
  const size_t n = mib * (size_t(1) << 20) / sizeof(uint64_t);
  const std::array<uint64_t, 4> one_words = ff::Fr::one().v;
  platform::RawArray<uint64_t> a(n), b(n), c(n);
  std::vector<uint64_t> sums(256);
  tbb::task_arena arena{int(threads)};
  const unsigned T = unsigned(arena.max_concurrency());
  // The arrays written once before timing (page faults are not bandwidth),
  // by the threads that time them.
  const auto each_range = [&](const std::function<void(size_t, size_t)>& body) {
    arena.execute([&] {
      tbb::parallel_for(
          size_t(0), size_t(T), [&](size_t t) { body(n * t / T, n * (t + 1) / T); },
          tbb::static_partitioner());
    });
  };
  uint64_t* pa = a.data();
  uint64_t* pb = b.data();
  uint64_t* pc = c.data();
  each_range([=](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; i++) {
      pa[i] = i;
      pb[i] = 2 * i;
      pc[i] = 0;
    }
  });
  std::vector<StreamKernel> kernels = {
      {"copy", 16,
       [=](size_t lo, size_t hi) {
         for (size_t i = lo; i < hi; i++) pc[i] = pa[i];
       }},
      {"scale", 16,
       [=](size_t lo, size_t hi) {
         for (size_t i = lo; i < hi; i++) pb[i] = 3 * pc[i];
       }},
      {"add", 24,
       [=](size_t lo, size_t hi) {
         for (size_t i = lo; i < hi; i++) pc[i] = pa[i] + pb[i];
       }},
      {"triad", 24,
       [=](size_t lo, size_t hi) {
         for (size_t i = lo; i < hi; i++) pa[i] = pb[i] + 3 * pc[i];
       }},
      {"read", 8,
       [=, &sums](size_t lo, size_t hi) {
         uint64_t s = 0;
         for (size_t i = lo; i < hi; i++) s += pa[i];
         sums[(lo * 97 / (hi - lo + 1)) % sums.size()] += s;
       }},
      {"write", 8,
       [=](size_t lo, size_t hi) {
         for (size_t i = lo; i < hi; i++) pa[i] = i;
       }},
      // Streaming (non-temporal) stores: no read of the line before it is
      // written (how synthesis writes the a/b/c of large circuits).
      {"write_nt", 8,
       [=](size_t lo, size_t hi) {
#if defined(__x86_64__)
         for (size_t i = lo; i < hi; i++) _mm_stream_si64(reinterpret_cast<long long*>(pa + i), (long long)i);
         _mm_sfence();
#else
         for (size_t i = lo; i < hi; i++) pa[i] = i;
#endif
       }},
      // The same streaming stores of what synthesis writes: 32-byte field
      // elements, each 0 or ONE by a fixed pseudo-random bit (w, and a/b/c
      // of the hash circuits, hold almost nothing else), and elements of
      // random bits. On the development VM the memory system writes a line
      // half or wholly zero faster than one of random bits, so these say what
      // a synthesis's own data streams at beside the word kernels' figure.
      {"write_nt_bits", 8, [=](size_t lo, size_t hi) { stream_elements(pa, lo, hi, one_words, true); }},
      {"write_nt_random", 8, [=](size_t lo, size_t hi) { stream_elements(pa, lo, hi, one_words, false); }},
  };
  std::vector<StreamResult> out;
  for (const StreamKernel& k : kernels) {
    std::vector<double> gbs;
    for (int r = 0; r < reps + 1; r++) {  // the first pass warms up
      const auto t0 = std::chrono::steady_clock::now();
      each_range(k.body);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (r) gbs.push_back(k.bytes_per_elem * double(n) / s / 1e9);
    }
    const Stats st = stats_of(gbs);
    out.push_back({k.name, T, k.bytes_per_elem, st.max, st.median});
  }
  do_not_optimize(sums);
  return out;
}

namespace {

void run_stream(const StreamOpts& o) {
  for (unsigned th : o.threads)
    for (const StreamResult& r : measure_stream(o.mib, th, o.reps)) {
      if (o.json) {
        nlohmann::json j = {{"bench", "stream"},       {"kernel", r.kernel},
                            {"threads", r.threads},    {"array_mib", o.mib},
                            {"best_gb_s", r.best_gbs}, {"median_gb_s", r.median_gbs},
                            {"reps", o.reps},          {"bytes_per_elem", r.bytes_per_elem}};
        std::printf("%s\n", j.dump().c_str());
      } else {
        std::printf("stream %-5s threads=%u arrays=%zu MiB  best %6.2f GB/s  median %6.2f GB/s\n",
                    r.kernel.c_str(), r.threads, o.mib, r.best_gbs, r.median_gbs);
      }
      std::fflush(stdout);
    }
}

void register_micro_stream(CLI::App& app) {
  auto* micro = micro_command(app);
  auto o = std::make_shared<StreamOpts>();
  auto* cmd =
      micro->add_subcommand("stream", "streaming memory bandwidth (STREAM-like copy/scale/add/triad)");
  cmd->add_option("--mib", o->mib, "MiB per array (three arrays)")->capture_default_str();
  cmd->add_option("--threads", o->threads, "thread counts (one or more)");
  cmd->add_option("--reps", o->reps, "timed passes per kernel (best and median reported)")
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "one JSON object per line");
  cmd->callback([o] { run_stream(*o); });
}

RegisterCommand reg_micro_stream(38, register_micro_stream);

}  // namespace
}  // namespace cuzk::bench_cli
