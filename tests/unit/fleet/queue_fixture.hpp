// The queue tests' fixture: a Queue on the database FleetTest starts, and
// job specs and claim requests in the tests' shorthand.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "unit/fleet/fleet_fixture.hpp"

namespace cuzk::test {

using namespace std::chrono_literals;
using cuzk::fleet::CancelOutcome;
using cuzk::fleet::ClaimedJob;
using cuzk::fleet::ClaimRequest;
using cuzk::fleet::CompleteOutcome;
using cuzk::fleet::Database;
using cuzk::fleet::FailOutcome;
using cuzk::fleet::JobSpec;
using cuzk::fleet::JobState;
using cuzk::fleet::Queue;
using cuzk::fleet::QueueError;

// engine::Priority values
constexpr int kLow = 1, kNormal = 2, kHigh = 3, kCritical = 4;
// engine::ProofKind values
constexpr int kPorep = 1, kWinning = 4;

class QueueTest : public cuzk::test::FleetTest {
 protected:
  void SetUp() override {
    FleetTest::SetUp();
    if (!IsSkipped()) q_ = std::make_unique<Queue>(db());
  }
  Queue& q() { return *q_; }

  JobSpec job(const std::string& id, int priority = kNormal, const std::string& circuit = "c",
              const std::string& payload = "payload") {
    JobSpec s;
    s.request_id = id;
    s.kind = kPorep;
    s.priority = priority;
    s.circuit_id = circuit;
    s.payload = payload.empty() ? id : payload;
    return s;
  }
  // A job named by its request id alone (the tests below name jobs so).
  JobSpec named(const std::string& id, int priority = kNormal, const std::string& circuit = "c",
                const std::string& payload = "payload") {
    JobSpec s = job(id, priority, circuit, payload);
    s.name_is_request_id = true;
    return s;
  }
  ClaimRequest claimer(const std::string& daemon, int slots, std::chrono::milliseconds lease = 30s) {
    ClaimRequest r;
    r.daemon_id = daemon;
    r.free_slots = slots;
    r.lease = lease;
    return r;
  }
  static std::vector<std::string> ids(const std::vector<ClaimedJob>& jobs) {
    std::vector<std::string> out;
    for (const auto& j : jobs) out.push_back(j.job_id);
    return out;
  }

  std::unique_ptr<Queue> q_;
};

}  // namespace cuzk::test
