#pragma once
// What a pipeline stage reports that reaches beyond the stage: a job that
// fails (its queued work goes from every stage) and a partition's proof (the
// last one assembles the job's). The engine implements it (results.cpp).
#include <memory>
#include <string>

#include "engine/backend.hpp"
#include "engine/job.hpp"

namespace cuzk::engine {

class StageEvents {
 public:
  virtual ~StageEvents() = default;
  // Ends the job FAILED with `msg` (if it has not ended) and drops its
  // queued work in every stage.
  virtual void fail(const std::shared_ptr<Job>& job, const std::string& msg) = 0;
  // The proof of the item's partition, made on `dev` (on its finalizer).
  virtual void proved(std::unique_ptr<PartitionItem> item, std::string proof, Device& dev) = 0;
};

}  // namespace cuzk::engine
