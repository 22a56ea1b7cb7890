#pragma once
// Pre-compiled constraints per circuit (r1cs/pce.hpp) for the synthesis
// workers, kept like a parameter tier: in memory while it fits the budget
// (charged to it, evicted least recently used when the budget needs room),
// on disk as <dir>/<circuit_id>.pce next to the parameters.
//
// When the circuit's .pce file exists, the first synthesis maps it (in its
// own thread, a fraction of a synthesis by the gadgets) and goes through
// it. Without one (or when it is stale or damaged), the first partition is
// synthesized by the gadgets (a cold start) while one background thread
// records the circuit straight into the file in bounded memory
// (r1cs/pce_extract.hpp) and maps that. A mapped PCE lives in the page
// cache, shared and evictable, and is charged to the budget all the same.
// Later partitions go through the PCE. TIMELINE:
//   PCE_LOAD_START / PCE_LOAD_END        circuit=<id>[,ms=,bytes=][,error=<why>]
//   PCE_EXTRACT_START / PCE_EXTRACT_END  circuit=<id>,reason=missing|stale|corrupt[,ms=,bytes=][,error=<why>]
// under the id of the job whose synthesis started them.
//
// A file carries a digest of the circuit id and the build's circuit code
// (cmake/circuit_fingerprint.cmake), so a file recorded by other code is
// rebuilt, never used; a PCE whose counts disagree with a witnessed circuit
// is dropped and rebuilt the same way.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/backend.hpp"
#include "engine/memory_budget.hpp"
#include "engine/timeline_emitter.hpp"
#include "r1cs/pce.hpp"
#include "r1cs/pce_extract.hpp"
#include "r1cs/pce_file.hpp"

namespace cuzk::engine {

class PceStore {
 public:
  struct Options {
    bool enabled = true;
    std::string dir;  // "" = memory only (nothing read or written)
  };
  PceStore(Options o, MemoryBudget& budget, TimelineEmitter& tl);
  ~PceStore();  // waits for the background thread's current task
  PceStore(const PceStore&) = delete;
  PceStore& operator=(const PceStore&) = delete;

  // Synthesizer::synthesize on behalf of job `job_id` (its TIMELINE id).
  Synthesizer::Result synthesize(const std::string& job_id, const std::string& circuit_id,
                                 const r1cs::Circuit& witnessed, const Synthesizer::BlankCircuit& blank);

  struct Info {
    std::string circuit_id;
    std::string state;    // loading | extracting | ready | failed | evicted
    uint64_t bytes = 0;   // in memory
    uint64_t proofs = 0;  // partitions synthesized through it
    bool on_disk = false;
    std::string error;
  };
  std::vector<Info> list() const;
  // Evicts idle PCEs (no synthesis running on them), least recently used
  // first, until `needed` bytes are freed or none is left. Returns bytes freed.
  uint64_t reclaim(uint64_t needed);
  // Waits until the background thread has nothing to do (tests, tools).
  void drain();

  std::string path_of(const std::string& circuit_id) const;
  // SHA-256 of the circuit id and the build's circuit-code fingerprint.
  static r1cs::PceDigest circuit_digest(const std::string& circuit_id);

 private:
  using Clock = std::chrono::steady_clock;
  enum class State { Absent, Loading, Extracting, Ready, Failed, Evicted };
  struct Entry {
    State state = State::Absent;
    std::shared_ptr<const r1cs::PrecompiledCircuit> pce;
    Reservation reservation;
    Clock::time_point last_use{};
    uint64_t proofs = 0;
    uint32_t users = 0;
    std::string error;
  };

  // Queues a load (file present) or an extraction; under mu_.
  void schedule_locked(const std::string& job_id, const std::string& id, Entry& e,
                       const Synthesizer::BlankCircuit& blank);
  void load(const std::string& job_id, const std::string& id, const Synthesizer::BlankCircuit& blank);
  // Maps and installs the circuit's file; returns the reason to rebuild it
  // ("stale", "corrupt", "missing"; the file removed), or nullptr (loaded,
  // or failed for good, or over budget).
  const char* try_load(const std::string& job_id, const std::string& id);
  void extract(const std::string& job_id, const std::string& id, const Synthesizer::BlankCircuit& blank,
               const char* reason);
  // Charges the budget and makes `pce` the circuit's; false when it does not fit.
  bool install(const std::string& id, std::shared_ptr<const r1cs::PrecompiledCircuit> pce);
  void fail(const std::string& id, const std::string& why);
  void worker_loop();

  Options opt_;
  MemoryBudget& budget_;
  TimelineEmitter& tl_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Entry> entries_;
  std::deque<std::function<void()>> tasks_;
  bool busy_ = false, stopping_ = false;
  std::thread worker_;
};

// A Synthesizer for one job: the store's, or the gadgets when store is null.
class JobSynthesizer final : public Synthesizer {
 public:
  JobSynthesizer(PceStore* store, std::string job_id) : store_(store), job_id_(std::move(job_id)) {}
  Result synthesize(const std::string& circuit_id, const r1cs::Circuit& witnessed,
                    const BlankCircuit& blank) override;

 private:
  PceStore* store_;
  std::string job_id_;
};

}  // namespace cuzk::engine
