// Bridge's reports (fleet/bridge.hpp): /metrics (the engine's, plus the
// cuzk_fleet_* gauges and counters) and /status (the engine's, plus the
// `fleet` object: this daemon's figures, the fleet queue's depth, and the
// daemons of the fleet with the jobs they hold; docs/PROTOCOL.md §6).
#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "fleet/engine_names.hpp"
#include "fleet/bridge.hpp"
#include "fleet/database.hpp"
#include "fleet/queue.hpp"

namespace cuzk::fleet {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// The daemons and leases of /status are read again when older than this...
constexpr auto kViewMaxAge = 1s;
// ...within this deadline (or fleet.db_timeout when shorter): the status
// listener shows the error rather than wait for a database that does not answer.
constexpr auto kViewTimeout = 2s;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

nlohmann::json view_json(const fleet::FleetView& v, const std::string& self) {
  auto daemons = nlohmann::json::array();
  for (const auto& d : v.daemons) {
    auto jobs = nlohmann::json::array();
    for (const auto& j : d.jobs)
      jobs.push_back({{"job_id", j.job_id},
                      {"proof_kind", kind_name(ProofKind(j.kind))},
                      {"priority", priority_name(Priority(j.priority))},
                      {"circuit_id", j.circuit_id},
                      {"lease_remaining_s", j.lease_remaining_s},
                      {"attempts", j.attempts},
                      {"max_attempts", j.max_attempts}});
    daemons.push_back({{"daemon_id", d.daemon_id},
                       {"this_daemon", d.daemon_id == self},
                       {"heartbeat_age_s", d.heartbeat_age_s ? nlohmann::json(*d.heartbeat_age_s) : nullptr},
                       {"capacity", d.capacity},
                       {"jobs", std::move(jobs)}});
  }
  return {{"daemons", std::move(daemons)}, {"truncated", v.truncated}};
}

}  // namespace

std::string Bridge::fleet_view_json(Clock::time_point* read_at) const {
  std::lock_guard lk(view_mu_);  // one read at a time; the others then take its result
  if (view_json_.empty() || Clock::now() - view_at_ >= kViewMaxAge) {
    nlohmann::json j;
    try {
      j = view_json(read_fleet_view(std::min<std::chrono::milliseconds>(kViewTimeout, cfg_.db_timeout)),
                    cfg_.daemon_id);
    } catch (const std::exception& e) {
      j = {{"error", e.what()}};
    }
    view_json_ = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    view_at_ = Clock::now();
  }
  *read_at = view_at_;
  return view_json_;
}

std::string Bridge::metrics_text() const {
  std::ostringstream o;
  o << engine_.metrics_text();
  Counters c;
  std::vector<DepthRow> depth;
  size_t running = 0;
  {
    std::lock_guard lk(mu_);
    c = counters_;
    depth = depth_;
    running = running_.size();
  }
  auto head = [&](const char* name, const char* help, const char* type) {
    o << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << "\n";
  };
  head("cuzk_fleet_queue_jobs",
       "Jobs in the fleet queue by kind, priority and state (refreshed every second).", "gauge");
  for (const auto& d : depth)
    o << "cuzk_fleet_queue_jobs{kind=\"" << kind_name(ProofKind(d.kind)) << "\",priority=\""
      << priority_name(Priority(d.priority)) << "\",state=\"" << (d.claimed ? "claimed" : "queued") << "\"} "
      << d.jobs << "\n";
  head("cuzk_fleet_slots", "Jobs this daemon proves at once in the fleet.", "gauge");
  o << "cuzk_fleet_slots " << slots_ << "\n";
  head("cuzk_fleet_running_jobs", "Claimed jobs running on this daemon.", "gauge");
  o << "cuzk_fleet_running_jobs " << running << "\n";
  const std::pair<const char*, uint64_t> totals[] = {
      {"cuzk_fleet_claims_total", c.claims},
      {"cuzk_fleet_lease_expiries_total", c.lease_expiries},
      {"cuzk_fleet_completed_total", c.completed},
      {"cuzk_fleet_results_discarded_total", c.discarded_late},
      {"cuzk_fleet_failures_total", c.failed},
      {"cuzk_fleet_leases_lost_total", c.leases_lost},
      {"cuzk_fleet_db_errors_total", c.db_errors},
      {"cuzk_fleet_released_total", c.released},
      {"cuzk_fleet_reclaim_holdoffs_total", c.reclaim_holdoffs},
  };
  const char* helps[] = {
      "Jobs this daemon claimed from the fleet queue.",
      "Expired leases (of any daemon) this daemon returned to the queue.",
      "Results this daemon stored in the fleet queue.",
      "Results discarded because this daemon's lease had expired (late completions).",
      "Job failures this daemon reported (requeued or final).",
      "Running jobs cancelled here because their lease could not be renewed.",
      "Claim-loop steps that failed on the database.",
      "Claimed jobs handed back to the queue without an attempt (no room, no parameters, shutdown).",
      "Stalls of the claim loop after which reclaiming other daemons' leases waited a lease.",
  };
  for (size_t i = 0; i < std::size(totals); i++) {
    head(totals[i].first, helps[i], "counter");
    o << totals[i].first << ' ' << totals[i].second << "\n";
  }
  return o.str();
}

std::string Bridge::status_json() const {
  auto j = nlohmann::json::parse(engine_.status_json());
  const Counters c = counters();
  size_t running = 0;
  std::vector<DepthRow> depth;
  {
    std::lock_guard lk(mu_);
    running = running_.size();
    depth = depth_;
  }
  int64_t queued = 0, claimed = 0;
  auto rows = nlohmann::json::array();
  for (const auto& d : depth) {
    (d.claimed ? claimed : queued) += d.jobs;
    rows.push_back({{"proof_kind", kind_name(ProofKind(d.kind))},
                    {"priority", priority_name(Priority(d.priority))},
                    {"state", d.claimed ? "claimed" : "queued"},
                    {"jobs", d.jobs}});
  }
  auto fleet =
      nlohmann::json{{"daemon_id", cfg_.daemon_id},
                     {"database", fleet::Database::redact(cfg_.database)},
                     {"lease_s", seconds(cfg_.lease)},
                     {"slots", slots_},
                     {"running", running},
                     {"claims", c.claims},
                     {"completed", c.completed},
                     {"lease_expiries", c.lease_expiries},
                     {"results_discarded", c.discarded_late},
                     {"released", c.released},
                     {"queue", {{"queued", queued}, {"claimed", claimed}, {"by_kind", std::move(rows)}}}};
  // The daemons and their leases: the last read, its age, or the error of it.
  Clock::time_point at;
  const auto view = nlohmann::json::parse(fleet_view_json(&at));
  fleet["view_age_s"] = seconds(Clock::now() - at);
  if (view.contains("error")) {
    fleet["view_error"] = view["error"];
  } else {
    fleet["daemons"] = view["daemons"];
    fleet["view_truncated"] = view["truncated"];
  }
  j["fleet"] = std::move(fleet);
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace cuzk::fleet
