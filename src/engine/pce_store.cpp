#include "engine/pce_store.hpp"

#include <filesystem>

#include "circuit_fingerprint.hpp"  // generated: CUZK_CIRCUIT_FINGERPRINT
#include "groth16/prover.hpp"
#include "platform/digest.hpp"
#include "timeline/event_names.hpp"

namespace cuzk::engine {

namespace {

uint64_t ms_since(std::chrono::steady_clock::time_point t0) {
  return uint64_t(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count());
}

// A detail value without the separators of a TIMELINE line.
std::string clean(std::string s) {
  for (char& c : s)
    if (c == ',' || c == '\n' || c == '\r') c = ';';
  return s.size() > 200 ? s.substr(0, 200) : s;
}

const char* state_name(int s) {
  static const char* names[] = {"absent", "loading", "extracting", "ready", "failed", "evicted"};
  return names[s];
}

}  // namespace

r1cs::PceDigest PceStore::circuit_digest(const std::string& circuit_id) {
  const std::string text = "cuzk-pce\n" + circuit_id + "\n" CUZK_CIRCUIT_FINGERPRINT;
  return platform::sha256({reinterpret_cast<const uint8_t*>(text.data()), text.size()});
}

PceStore::PceStore(Options o, MemoryBudget& budget, TimelineEmitter& tl)
    : opt_(std::move(o)), budget_(budget), tl_(tl) {
  if (opt_.enabled) worker_ = std::thread([this] { worker_loop(); });
}

PceStore::~PceStore() {
  {
    std::lock_guard lk(mu_);
    stopping_ = true;
    tasks_.clear();
  }
  cv_.notify_all();
  if (worker_.joinable()) worker_.join();
}

std::string PceStore::path_of(const std::string& circuit_id) const {
  return opt_.dir.empty() ? std::string()
                          : (std::filesystem::path(opt_.dir) / (circuit_id + ".pce")).string();
}

Synthesizer::Result PceStore::synthesize(const std::string& job_id, const std::string& circuit_id,
                                         const r1cs::Circuit& witnessed,
                                         const Synthesizer::BlankCircuit& blank) {
  Synthesizer::Result r;
  std::shared_ptr<const r1cs::PrecompiledCircuit> pce;
  const auto take_ready = [&] {  // under mu_
    Entry& e = entries_[circuit_id];
    if (e.state != State::Ready) return;
    pce = e.pce;
    e.users++;
    e.last_use = Clock::now();
  };
  bool load_here = false;
  if (opt_.enabled && blank) {
    std::lock_guard lk(mu_);
    Entry& e = entries_[circuit_id];
    take_ready();
    if (!pce && (e.state == State::Absent || e.state == State::Evicted)) {
      // A file on disk is mapped here, before this synthesis, which then
      // goes through it: mapping and checking it costs a fraction of a
      // synthesis by the gadgets (2 KiB PoRep: 0.1 s against 0.8 s in a
      // fresh process). Without one, the gadgets synthesize while the
      // circuit is extracted in the background.
      const std::string path = path_of(circuit_id);
      std::error_code ec;
      if (!path.empty() && std::filesystem::exists(path, ec)) {
        e.state = State::Loading;
        load_here = true;
      } else {
        schedule_locked(job_id, circuit_id, e, blank);
      }
    }
  }
  if (load_here) {
    const char* rebuild = try_load(job_id, circuit_id);
    std::lock_guard lk(mu_);
    take_ready();
    if (rebuild) {
      Entry& e = entries_[circuit_id];
      e.state = State::Extracting;
      tasks_.push_back(
          [this, job_id, circuit_id, blank, rebuild] { extract(job_id, circuit_id, blank, rebuild); });
      cv_.notify_all();
    }
  }
  if (pce) {
    bool stale = false;
    try {
      r.assignment = pce->synthesize(witnessed);
      r.via_pce = true;
    } catch (const r1cs::PceMismatch& ex) {
      stale = true;
      std::lock_guard lk(mu_);
      Entry& e = entries_[circuit_id];
      e.users--;
      if (e.pce == pce) {  // drop it and the file; the next partition rebuilds
        e.pce.reset();
        e.reservation.release();
        e.state = State::Absent;
        e.error = ex.what();
        std::error_code ec;  // best effort: a file that stays is loaded and dropped again
        if (!opt_.dir.empty()) std::filesystem::remove(path_of(circuit_id), ec);
      }
    } catch (...) {
      std::lock_guard lk(mu_);
      entries_[circuit_id].users--;
      throw;
    }
    if (!stale) {
      std::lock_guard lk(mu_);
      Entry& e = entries_[circuit_id];
      e.users--;
      e.proofs++;
      e.last_use = Clock::now();
      groth16::add_input_constraints(r.assignment);
      return r;
    }
  }
  r.assignment = groth16::synthesize(witnessed);
  return r;
}

void PceStore::schedule_locked(const std::string& job_id, const std::string& id, Entry& e,
                               const Synthesizer::BlankCircuit& blank) {
  const std::string path = path_of(id);
  std::error_code ec;
  if (!path.empty() && std::filesystem::exists(path, ec)) {
    e.state = State::Loading;
    tasks_.push_back([this, job_id, id, blank] { load(job_id, id, blank); });
  } else {
    e.state = State::Extracting;
    tasks_.push_back([this, job_id, id, blank] { extract(job_id, id, blank, "missing"); });
  }
  cv_.notify_all();
}

void PceStore::load(const std::string& job_id, const std::string& id,
                    const Synthesizer::BlankCircuit& blank) {
  if (const char* rebuild = try_load(job_id, id)) extract(job_id, id, blank, rebuild);
}

const char* PceStore::try_load(const std::string& job_id, const std::string& id) {
  const std::string path = path_of(id);
  tl_.emit(timeline::events::kPceLoadStart, job_id, "circuit=" + id);
  const auto t0 = Clock::now();
  try {
    auto pce =
        std::make_shared<const r1cs::PrecompiledCircuit>(r1cs::read_pce_file(path, circuit_digest(id)));
    const uint64_t bytes = pce->bytes();
    if (!install(id, std::move(pce))) {
      tl_.emit(timeline::events::kPceLoadEnd, job_id,
               "circuit=" + id + ",ms=" + std::to_string(ms_since(t0)) + ",error=over budget");
      return nullptr;
    }
    tl_.emit(timeline::events::kPceLoadEnd, job_id,
             "circuit=" + id + ",ms=" + std::to_string(ms_since(t0)) + ",bytes=" + std::to_string(bytes));
    return nullptr;
  } catch (const r1cs::PceFileError& e) {
    const char* reason = e.kind == r1cs::PceFileError::Kind::Stale     ? "stale"
                         : e.kind == r1cs::PceFileError::Kind::Corrupt ? "corrupt"
                                                                       : "missing";
    tl_.emit(timeline::events::kPceLoadEnd, job_id,
             "circuit=" + id + ",ms=" + std::to_string(ms_since(t0)) + ",error=" + clean(e.what()));
    std::error_code ec;
    if (e.kind != r1cs::PceFileError::Kind::Missing) std::filesystem::remove(path, ec);
    return reason;
  } catch (const std::exception& e) {
    tl_.emit(timeline::events::kPceLoadEnd, job_id,
             "circuit=" + id + ",ms=" + std::to_string(ms_since(t0)) + ",error=" + clean(e.what()));
    fail(id, e.what());
    return nullptr;
  }
}

void PceStore::extract(const std::string& job_id, const std::string& id,
                       const Synthesizer::BlankCircuit& blank, const char* reason) {
  {
    std::lock_guard lk(mu_);
    entries_[id].state = State::Extracting;
  }
  tl_.emit(timeline::events::kPceExtractStart, job_id, "circuit=" + id + ",reason=" + reason);
  const auto t0 = Clock::now();
  try {
    // With a directory, the circuit is recorded straight into its file in
    // bounded memory (r1cs/pce_extract.hpp: the 32 GiB PoRep's matrices do
    // not fit in memory beside their recording) and the file is mapped;
    // when it cannot be written, recorded in memory.
    std::shared_ptr<const r1cs::PrecompiledCircuit> pce;
    std::string note;
    if (const std::string path = path_of(id); !path.empty()) {
      try {
        std::filesystem::create_directories(std::filesystem::path(path).parent_path());
        r1cs::extract_pce_file(path, *blank(), circuit_digest(id));
        pce = std::make_shared<const r1cs::PrecompiledCircuit>(r1cs::read_pce_file(path, circuit_digest(id)));
      } catch (const r1cs::SynthesisError&) {
        throw;
      } catch (const std::exception& e) {
        note = ",write_error=" + clean(e.what());
      }
    }
    if (!pce)
      pce = std::make_shared<const r1cs::PrecompiledCircuit>(r1cs::PrecompiledCircuit::record(*blank()));
    const uint64_t bytes = pce->bytes();
    const bool kept = install(id, std::move(pce));
    tl_.emit(timeline::events::kPceExtractEnd, job_id,
             "circuit=" + id + ",reason=" + reason + ",ms=" + std::to_string(ms_since(t0)) +
                 ",bytes=" + std::to_string(bytes) + note + (kept ? "" : ",error=over budget"));
  } catch (const std::exception& e) {
    tl_.emit(timeline::events::kPceExtractEnd, job_id,
             "circuit=" + id + ",reason=" + reason + ",ms=" + std::to_string(ms_since(t0)) +
                 ",error=" + clean(e.what()));
    fail(id, e.what());
  }
}

bool PceStore::install(const std::string& id, std::shared_ptr<const r1cs::PrecompiledCircuit> pce) {
  Reservation rsv;
  // Unlike a partition, a PCE is optional: never one larger than the budget
  // (which an empty budget would grant).
  const bool too_big = pce->bytes() > budget_.limit();
  if (too_big || !budget_.try_acquire(pce->bytes(), rsv)) {
    // Idle PCEs of other circuits may make room (the parameters' reclaimer
    // runs only for blocking acquires).
    if (!too_big) reclaim(pce->bytes());
    if (too_big || !budget_.try_acquire(pce->bytes(), rsv)) {
      std::lock_guard lk(mu_);
      Entry& e = entries_[id];
      // No room now: the next synthesis tries again (a load, when a file
      // was written). Larger than the whole budget: never.
      e.state = too_big ? State::Failed : State::Evicted;
      e.error = too_big ? "larger than the memory budget" : "no room in the memory budget";
      return false;
    }
  }
  std::lock_guard lk(mu_);
  Entry& e = entries_[id];
  e.pce = std::move(pce);
  e.reservation = std::move(rsv);
  e.state = State::Ready;
  e.last_use = Clock::now();
  e.error.clear();
  return true;
}

void PceStore::fail(const std::string& id, const std::string& why) {
  std::lock_guard lk(mu_);
  Entry& e = entries_[id];
  e.state = State::Failed;  // gadgets from now on: a failure would repeat
  e.error = why;
}

uint64_t PceStore::reclaim(uint64_t needed) {
  std::vector<Reservation> freed;  // released outside mu_
  uint64_t got = 0;
  {
    std::lock_guard lk(mu_);
    while (got < needed) {
      Entry* lru = nullptr;
      for (auto& [id, e] : entries_)
        if (e.state == State::Ready && e.users == 0 && (!lru || e.last_use < lru->last_use)) lru = &e;
      if (!lru) break;
      got += lru->reservation.bytes();
      freed.push_back(std::move(lru->reservation));
      lru->pce.reset();
      lru->state = State::Evicted;
    }
  }
  for (auto& r : freed) r.release();
  return got;
}

std::vector<PceStore::Info> PceStore::list() const {
  std::vector<Info> out;
  {
    std::lock_guard lk(mu_);
    for (const auto& [id, e] : entries_) {
      if (e.state == State::Absent) continue;
      Info i;
      i.circuit_id = id;
      i.state = state_name(int(e.state));
      i.bytes = e.pce ? e.pce->bytes() : 0;
      i.proofs = e.proofs;
      i.error = e.error;
      out.push_back(std::move(i));
    }
  }
  for (Info& i : out) {  // file system calls outside the lock
    std::error_code ec;
    i.on_disk = !opt_.dir.empty() && std::filesystem::exists(path_of(i.circuit_id), ec);
  }
  return out;
}

void PceStore::drain() {
  std::unique_lock lk(mu_);
  cv_.wait(lk, [&] { return (tasks_.empty() && !busy_) || stopping_; });
}

void PceStore::worker_loop() {
  std::unique_lock lk(mu_);
  for (;;) {
    cv_.wait(lk, [&] { return stopping_ || !tasks_.empty(); });
    if (stopping_) return;
    auto task = std::move(tasks_.front());
    tasks_.pop_front();
    busy_ = true;
    lk.unlock();
    task();
    lk.lock();
    busy_ = false;
    cv_.notify_all();
  }
}

Synthesizer::Result JobSynthesizer::synthesize(const std::string& circuit_id, const r1cs::Circuit& witnessed,
                                               const BlankCircuit& blank) {
  if (store_) return store_->synthesize(job_id_, circuit_id, witnessed, blank);
  Result r;
  r.assignment = groth16::synthesize(witnessed);
  return r;
}

}  // namespace cuzk::engine
