#pragma once
// What the engine needs from a proof kind and from a device. The engine
// schedules; these do the work:
//
//   KindHandler::prepare(request)      parse + validate input  -> PreparedJob
//   SrsManager::acquire(circuit_id)    resident parameters     -> CircuitResources
//   PreparedJob::synthesize(p)         CPU synthesis pool      -> PartitionWork
//     (through the Synthesizer: pre-compiled constraints or the gadgets)
//   PartitionWork::device_phase(dev)   under the device interlock (NTTs, G1 MSMs)
//   PartitionWork::finish(dev)         CPU tail (B in G2), off the lock -> 192 bytes
//   PreparedJob::verify(proof)         self-check of the assembled proof
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device/backend.hpp"
#include "engine/service.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/proving_assignment.hpp"

#include <span>

#include <oneapi/tbb/task_arena.h>

namespace cuzk::engine {

// Parameters (and anything else per circuit) kept resident by the SrsManager.
class CircuitResources {
 public:
  virtual ~CircuitResources() = default;
  virtual uint64_t size_bytes() const = 0;
  // Device memory its uploads hold (a GPU's VRAM), over all devices.
  virtual uint64_t device_bytes() const { return 0; }
};

// One device of the engine: a device backend (device/backend.hpp: the CPU,
// a CUDA GPU, the emulated CUDA device) with the thread arena for the CPU
// work around it (gpus.gpu_threads). Adding a kind of device means writing a
// device::Backend and creating it in engine/devices.cpp.
class Device {
 public:
  // host_threads 0: every CPU.
  Device(uint32_t ordinal, std::unique_ptr<device::Backend> backend, unsigned host_threads);
  ~Device();
  uint32_t ordinal() const { return ordinal_; }
  std::string name() const { return backend_->name(); }
  // Device memory; for a backend that computes in host memory, this
  // process's usable RAM and the free RAM.
  uint64_t memory_total_bytes() const;
  uint64_t memory_free_bytes() const;
  bool host_memory() const { return backend_->host_memory(); }
  tbb::task_arena& arena() { return arena_; }
  // The NTTs and MSMs of a partition; called from inside arena().
  device::Backend& backend() { return *backend_; }

 private:
  uint32_t ordinal_;
  std::unique_ptr<device::Backend> backend_;
  tbb::task_arena arena_;
};

// How a job turns one partition's circuit into the prover's assignment
// (input·0 = 0 rows appended, as groth16::synthesize): through the circuit's
// pre-compiled constraints when the engine holds them (engine/pce_store.hpp),
// else by the gadgets. `blank` makes the circuit without its witness, which
// the engine records in the background; null for circuits never pre-compiled.
class Synthesizer {
 public:
  using BlankCircuit = std::function<std::unique_ptr<r1cs::Circuit>()>;
  struct Result {
    r1cs::ProvingAssignment assignment;
    bool via_pce = false;
  };
  virtual ~Synthesizer() = default;
  virtual Result synthesize(const std::string& circuit_id, const r1cs::Circuit& witnessed,
                            const BlankCircuit& blank) = 0;
};

// One synthesized partition travelling through the device stages.
class PartitionWork {
 public:
  virtual ~PartitionWork() = default;
  virtual void device_phase(Device& dev) = 0;   // held under the interlock
  virtual std::string finish(Device& dev) = 0;  // returns the 192-byte proof
  // Bytes that can be released right after device_phase (e.g. a/b/c vectors).
  virtual uint64_t bytes_freed_after_device() const { return 0; }
  // True when synthesis went through pre-compiled constraints (SYNTH_END pce=1).
  virtual bool via_pce() const { return false; }
};

class PreparedJob {
 public:
  virtual ~PreparedJob() = default;
  virtual std::string circuit_id() const = 0;
  virtual uint32_t num_partitions() const = 0;
  // Working-set estimate of one partition from synthesis to finalization.
  virtual uint64_t partition_bytes() const = 0;
  // Bytes the parsed payload holds until the job ends (charged to the budget
  // at admission).
  virtual uint64_t resident_bytes() const = 0;
  // Throws on a bad partition input; the engine fails the job naming p.
  // Called from several synthesis threads at once for different p: it may
  // write only state of its own partition.
  virtual std::unique_ptr<PartitionWork> synthesize(uint32_t p, CircuitResources& res,
                                                    Synthesizer& synth) = 0;
  // Checks the assembled proof (all partitions concatenated). Returns "" when
  // valid, else a message naming the failing partition.
  virtual std::string verify(const std::string& proof, CircuitResources& res) = 0;
};

class KindHandler {
 public:
  virtual ~KindHandler() = default;
  virtual ProofKind kind() const = 0;
  // Parses and validates the request (cheaply but completely: a payload that
  // cannot be proved is refused here, before any synthesis); throws
  // ServiceError(InvalidArgument / NotFound) with a message naming the
  // problem. May move the payload out of `req`.
  virtual std::unique_ptr<PreparedJob> prepare(ProofRequest& req) = 0;
  // The circuit's parameter file (the SrsManager maps it: the WARM tier).
  // Throws ServiceError(NotFound) for unknown circuits.
  virtual std::string param_path(const std::string& circuit_id) = 0;
  // Decodes a circuit's resources from its mapped parameter file (throws on
  // corrupted files, naming file and offset). Called by the SrsManager.
  virtual std::shared_ptr<CircuitResources> load(const std::string& circuit_id,
                                                 std::span<const uint8_t> mapped) = 0;
  // Resident size once loaded (for budget planning); 0 if unknown.
  virtual uint64_t estimate_size(const std::string& circuit_id) = 0;
  // Circuit ids present in the parameter directory.
  virtual std::vector<std::string> list_circuits() = 0;
};

}  // namespace cuzk::engine
