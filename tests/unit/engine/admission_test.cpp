// Admission: Curio's request-id semantics (retries under the same id), the
// limits that refuse work with RESOURCE_EXHAUSTED instead of queueing it
// without bound, request-id and timeout edge cases. After every refusal the
// next job must still complete.
#include <gtest/gtest.h>

#include "engine_fixture.hpp"
#include "refusal.hpp"

using namespace cuzk::engine;
using namespace cuzk::engine::test;
using Code = ServiceError::Code;

namespace {

void still_serving(Fixture& f, const std::string& id) {
  f.engine->submit(req({"1,1", "1,1"}, id));
  auto r = f.engine->await(id, std::nullopt);
  EXPECT_EQ(r.status, JobStatus::Completed) << id << ": " << r.error_message;
}

}  // namespace

TEST(Admission, FailedJobsAreRetriedUnderTheSameId) {
  Fixture f(small_config());
  f.engine->submit(req({"1,1,fail-device"}, "porep-1000-7"));
  EXPECT_EQ(f.engine->await("porep-1000-7", std::nullopt).status, JobStatus::Failed);
  // Same payload again: a new attempt (Curio retries failed tasks as they are).
  f.engine->submit(req({"1,1,fail-device"}, "porep-1000-7"));
  EXPECT_EQ(f.engine->await("porep-1000-7", std::nullopt).status, JobStatus::Failed);
  EXPECT_EQ(f.events.of("GPU_START").size(), 2u);
  // A new payload (a fresh vanilla proof) under the same id: proved.
  f.engine->submit(req({"1,1", "1,1"}, "porep-1000-7"));
  auto r = f.engine->await("porep-1000-7", std::nullopt);
  ASSERT_EQ(r.status, JobStatus::Completed) << r.error_message;
  EXPECT_EQ(r.proof.substr(0, 192), fake_proof("1,1", 0));
  auto st = f.engine->status();
  EXPECT_EQ(st.total_proofs_failed, 2u);
  EXPECT_EQ(st.total_proofs_completed, 1u);
}

TEST(Admission, CancelledJobsAreRetriedUnderTheSameId) {
  Fixture f(small_config());
  f.engine->submit(req({"200,1", "200,1"}, "porep-1000-8"));
  std::this_thread::sleep_for(30ms);
  f.engine->cancel("porep-1000-8");
  EXPECT_EQ(f.engine->await("porep-1000-8", std::nullopt).status, JobStatus::Cancelled);
  // The retry must not be dropped by the cancelled attempt's clean-up.
  f.engine->submit(req({"200,1", "200,1"}, "porep-1000-8"));
  auto r = f.engine->await("porep-1000-8", std::nullopt);
  EXPECT_EQ(r.status, JobStatus::Completed) << r.error_message;
  EXPECT_EQ(r.proof.size(), 2u * 192);
}

TEST(Admission, LiveAndCompletedJobsAreDeduplicatedByPayloadNotPriority) {
  Fixture f(small_config());
  auto a = f.engine->submit(req({"100,1"}, "porep-1-1", Priority::Normal));
  // A retry while running, at another priority: the same job.
  auto b = f.engine->submit(req({"100,1"}, "porep-1-1", Priority::High));
  EXPECT_EQ(a.job_id, b.job_id);
  EXPECT_EQ(f.engine->await("porep-1-1", std::nullopt).status, JobStatus::Completed);
  // Completed: the same payload returns the kept proof without proving again.
  EXPECT_EQ(f.engine->submit(req({"100,1"}, "porep-1-1", Priority::Low)).job_id, a.job_id);
  EXPECT_EQ(f.events.of("GPU_END").size(), 1u);
}

// Curio sends every partition of a WindowPoSt deadline under one request id
// (its partition index is always 0), and re-proofs reuse ids: the same id
// with another payload is another job, at once or later.
TEST(Admission, OneRequestIdWithDifferentPayloadsIsSeveralJobs) {
  Fixture f(small_config());
  const std::string id = "wdpost-1000-0-[204 110 44 217 152 219 151 34]";
  auto p0 = f.engine->submit(req({"100,1"}, id, Priority::High));
  auto p1 = f.engine->submit(req({"100,2"}, id, Priority::High));  // concurrently
  ASSERT_NE(p0.job_id, p1.job_id);
  EXPECT_EQ(f.engine->await(p0.job_id, std::nullopt).proof, fake_proof("100,1", 0));
  EXPECT_EQ(f.engine->await(p1.job_id, std::nullopt).proof, fake_proof("100,2", 0));
  // Later, within the retention: a re-proof with one sector fewer.
  auto p2 = f.engine->submit(req({"1,3"}, id, Priority::High));
  EXPECT_NE(p2.job_id, p0.job_id);
  EXPECT_NE(p2.job_id, p1.job_id);
  EXPECT_EQ(f.engine->await(id, std::nullopt).proof, fake_proof("1,3", 0));  // the newest
  // Each job's events carry its own id.
  EXPECT_EQ(f.events.of("GPU_END").size(), 3u);
  for (const auto& j : {p0, p1, p2}) {
    size_t n = 0;
    for (const auto& l : f.events.of("GPU_END")) n += l.find("," + j.job_id + ",") != std::string::npos;
    EXPECT_EQ(n, 1u) << j.job_id;
  }
  // Results stay apart: the first partition's proof is still its own.
  EXPECT_EQ(f.engine->await(p0.job_id, std::nullopt).proof, fake_proof("100,1", 0));
}

TEST(Admission, CancelByRequestIdCancelsEveryLiveJobOfItByJobIdOnlyThatOne) {
  Fixture f(small_config());
  auto a = f.engine->submit(req({"300,1"}, "snap-1-9"));
  auto b = f.engine->submit(req({"300,2"}, "snap-1-9"));
  auto c = f.engine->submit(req({"300,3"}, "snap-1-9"));
  f.engine->cancel(a.job_id);
  EXPECT_EQ(f.engine->await(a.job_id, std::nullopt).status, JobStatus::Cancelled);
  f.engine->cancel("snap-1-9");
  EXPECT_EQ(f.engine->await(b.job_id, std::nullopt).status, JobStatus::Cancelled);
  EXPECT_EQ(f.engine->await(c.job_id, std::nullopt).status, JobStatus::Cancelled);
  EXPECT_EQ(f.events.of("CANCEL").size(), 3u);
  EXPECT_FALSE(f.engine->cancel("snap-1-9"));  // nothing live is left
  try {
    f.engine->cancel("snap-1-10");
    ADD_FAILURE() << "cancel of an unknown id succeeded";
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.code(), Code::NotFound);
  }
}

TEST(Admission, ExpiredResultsFreeTheirId) {
  EngineConfig c = small_config();
  c.result_retention = 0ms;
  Fixture f(c);
  f.engine->submit(req({"1,1"}, "porep-2-2"));
  ASSERT_EQ(f.engine->await("porep-2-2", std::nullopt).status, JobStatus::Completed);
  std::this_thread::sleep_for(5ms);
  f.engine->submit(req({"1,2"}, "porep-2-2"));  // a different payload: a new job
  EXPECT_EQ(f.engine->await("porep-2-2", std::nullopt).status, JobStatus::Completed);
  EXPECT_EQ(f.events.of("GPU_END").size(), 2u);
}

TEST(Admission, RequestIdsThatWouldBreakTimelineLinesAreRefused) {
  Fixture f(small_config());
  for (std::string bad : {std::string("a,b"), std::string(" leading space"), std::string("trailing space "),
                          std::string("line\nbreak"), std::string("tab\t"), std::string("nul\0x", 5),
                          std::string(257, 'x'), std::string("caf\xc3\xa9")}) {
    auto [code, msg] = refusal(*f.engine, req({"1,1"}, bad));
    EXPECT_EQ(code, Code::InvalidArgument) << bad;
    EXPECT_NE(msg.find("request_id"), std::string::npos) << msg;
  }
  still_serving(f, std::string(256, 'y'));
  // Curio's WindowPoSt ids: Go's %d of the randomness bytes, with spaces.
  still_serving(f, "wdpost-1000-0-[90 90 90 90 90 90 90 90]");
  EXPECT_EQ(f.events.of("PARSE_START").size(), 2u);  // the refused ones were never logged
}

TEST(Admission, LimitsRefuseWithResourceExhausted) {
  EngineConfig c = small_config();
  c.max_queued_jobs = 2;
  c.max_partitions_per_request = 3;
  c.max_payload_bytes = 1000;
  c.max_payload_by_kind["generic-r1cs"] = 2000;  // the kind's own entry wins
  c.max_parallel_synthesis = 1;
  Fixture f(c);
  auto [code, msg] = refusal(*f.engine, req({"1,1", "1,1", "1,1", "1,1"}));
  EXPECT_EQ(code, Code::ResourceExhausted);
  EXPECT_NE(msg.find("max_partitions_per_request"), std::string::npos) << msg;
  std::tie(code, msg) = refusal(*f.engine, req({"1,1," + std::string(2100, 'p')}));
  EXPECT_EQ(code, Code::ResourceExhausted);
  EXPECT_NE(msg.find("limits.max_payload"), std::string::npos) << msg;
  f.engine->submit(req({"300,1," + std::string(1500, 'p')}, "big-but-allowed"));
  f.engine->submit(req({"300,1"}, "q2"));
  std::tie(code, msg) = refusal(*f.engine, req({"1,1"}, "q3"));
  EXPECT_EQ(code, Code::ResourceExhausted);
  EXPECT_NE(msg.find("max_queued_jobs"), std::string::npos) << msg;
  EXPECT_EQ(f.engine->await("q2", std::nullopt).status, JobStatus::Completed);
  EXPECT_EQ(f.engine->await("big-but-allowed", std::nullopt).status, JobStatus::Completed);
  still_serving(f, "after-limits");
}

TEST(Admission, APartitionThatCanNeverFitIsRefusedAtSubmission) {
  EngineConfig c = small_config();
  c.total_budget_bytes = 16ull << 20;
  Fixture f(c, 64ull << 20);  // 64 MiB partitions, 4 MiB parameters, 16 MiB budget
  auto [code, msg] = refusal(*f.engine, req({"1,1"}, "too-big"));
  EXPECT_EQ(code, Code::ResourceExhausted);
  EXPECT_NE(msg.find("memory budget"), std::string::npos) << msg;
  EXPECT_THROW(f.engine->await("too-big", 1ms), ServiceError);  // no job was left waiting
  // Its parse is logged as refused, so the timeline shows no job that never was.
  const auto parsed = f.events.of("PARSE_END");
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_NE(parsed[0].find("error=1"), std::string::npos) << parsed[0];
  // Fleet mode asks check() before claiming: it refuses the same way.
  try {
    f.engine->check(req({"1,1"}, "too-big"));
    ADD_FAILURE() << "check() passed a partition that can never fit";
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.code(), Code::ResourceExhausted);
    EXPECT_NE(std::string(e.what()).find("memory budget"), std::string::npos) << e.what();
  }
  f.handler->partition_bytes = 1 << 20;
  EXPECT_EQ(f.engine->check(req({"1,1", "1,1"}, "fits")).partitions, 2u);
  still_serving(f, "fits");
}

TEST(Admission, PayloadsAreChargedToTheirPoolUntilTheJobEnds) {
  EngineConfig c = small_config();
  c.payload_budget_bytes = 8192;
  c.max_parallel_synthesis = 1;
  Fixture f(c);
  const std::string pad(2000, 'p');  // ~3.5 KiB charged per job with its bookkeeping
  f.engine->submit(req({"300,1," + pad}, "p1"));
  f.engine->submit(req({"1,1," + pad}, "p2"));
  EXPECT_GE(f.engine->payload_budget().used(), 7000u);
  auto [code, msg] = refusal(*f.engine, req({"1,1," + pad}, "p3"));
  EXPECT_EQ(code, Code::ResourceExhausted);
  EXPECT_NE(msg.find("payload budget full"), std::string::npos) << msg;
  EXPECT_EQ(f.engine->await("p1", std::nullopt).status, JobStatus::Completed);
  EXPECT_EQ(f.engine->await("p2", std::nullopt).status, JobStatus::Completed);
  EXPECT_EQ(f.engine->payload_budget().used(), 0u);  // ended jobs keep only their result
  f.engine->submit(req({"1,1," + pad}, "p3"));
  EXPECT_EQ(f.engine->await("p3", std::nullopt).status, JobStatus::Completed);
}

TEST(Admission, AwaitTakesAnyTimeoutWithoutOverflow) {
  Fixture f(small_config());
  f.engine->submit(req({"50,1"}, "t"));
  for (auto t : {std::chrono::milliseconds::max(), std::chrono::milliseconds(INT64_MAX / 2),
                 std::chrono::milliseconds(1LL << 40)}) {
    auto r = f.engine->await("t", t);
    EXPECT_EQ(r.status, JobStatus::Completed) << t.count();
  }
  auto r = f.engine->await("t", std::chrono::milliseconds(-5));
  EXPECT_EQ(r.status, JobStatus::Completed);  // already ended: no wait needed
}
