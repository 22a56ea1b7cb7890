// A proof kind added the way every kind is (a KindSpec and a handler
// factory, engine/kinds/kind_spec.hpp), registered before the engine starts:
// the configuration, the name tables, the handlers the engine is built with
// and its status and metrics must all know it from the registry alone.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <mutex>

#include "engine/handlers.hpp"
#include "engine/kinds/builtin.hpp"
#include "engine/kinds/registry.hpp"
#include "engine_fixture.hpp"

namespace cuzk::engine {
namespace {

namespace fs = std::filesystem;
using test::Events;
using test::fake_proof;
using test::FakeHandler;

// The scheduler tests' fake proofs (fake_kind.hpp), under a number and a name
// no built-in kind has.
class TestKindHandler final : public FakeHandler {
 public:
  ProofKind kind() const override;
};

struct TestKind {
  static constexpr KindSpec spec{
      .value = ProofKind(200),
      .name = "test-kind",
      .wire_name = "TEST_KIND",
      .label = "test",
      .aliases = {"test-kind-alias"},
      .default_priority = Priority::High,
      .reads = {Field::CircuitId, Field::VanillaProofs},
      .required = {Field::CircuitId},
      .registered_proofs = {},
  };
  static std::unique_ptr<KindHandler> handler(const std::string& param_dir) {
    auto h = std::make_unique<TestKindHandler>();
    h->param_file = (fs::path(param_dir) / "fake.params").string();
    return h;
  }
};

ProofKind TestKindHandler::kind() const { return TestKind::spec.value; }

void register_test_kind() {
  static std::once_flag once;
  std::call_once(once, [] { register_kind<TestKind>(); });
}

TEST(KindRegistry, ListsTheBuiltinKindsInOrder) {
  std::vector<std::string> names;
  for (const KindSpec* k : all_kinds()) names.emplace_back(k->name);
  ASSERT_GE(names.size(), 5u);
  names.resize(5);
  EXPECT_EQ(names, (std::vector<std::string>{"porep-c2", "snap-update", "window-post", "winning-post",
                                             "generic-r1cs"}));
  EXPECT_EQ(find_kind(ProofKind::WinningPost), &kinds::WinningPost::spec);
  EXPECT_EQ(find_kind("snap-update"), &kinds::SnapUpdate::spec);
  EXPECT_EQ(default_priority(ProofKind::WinningPost), Priority::Critical);
  EXPECT_EQ(default_priority(ProofKind::WindowPostPartition), Priority::High);
  EXPECT_STREQ(kind_name(ProofKind(77)), "unspecified");
}

TEST(KindRegistry, ARegisteredKindIsKnownByNumberAndName) {
  register_test_kind();
  EXPECT_EQ(find_kind(ProofKind(200)), &TestKind::spec);
  EXPECT_EQ(find_kind("test-kind"), &TestKind::spec);
  EXPECT_STREQ(kind_name(ProofKind(200)), "test-kind");
  EXPECT_EQ(default_priority(ProofKind(200)), Priority::High);
  EXPECT_NE(kind_names().find("test-kind"), std::string::npos);
  // A number or a name is one kind's.
  EXPECT_THROW(register_kind<TestKind>(), std::invalid_argument);
  static constexpr KindSpec kSameName{.value = ProofKind(201),
                                      .name = "porep-c2",
                                      .wire_name = "",
                                      .label = "",
                                      .aliases = {},
                                      .default_priority = Priority::Normal,
                                      .reads = {},
                                      .required = {},
                                      .registered_proofs = {}};
  EXPECT_THROW(register_kind(kSameName, &TestKind::handler), std::invalid_argument);
  EXPECT_EQ(find_kind(ProofKind(201)), nullptr);
}

TEST(KindRegistry, RequiredFieldsComeFromTheSpec) {
  ProofRequest r;
  r.kind = ProofKind(200);
  const FieldInfo* missing = missing_required(r, TestKind::spec);
  ASSERT_NE(missing, nullptr);
  EXPECT_EQ(missing->name, "circuit_id");
  r.circuit_id = "fake";
  EXPECT_EQ(missing_required(r, TestKind::spec), nullptr);
  EXPECT_EQ(missing_required(ProofRequest{}, kinds::PorepC2::spec), nullptr);  // requires nothing
}

TEST(KindRegistry, TheConfigurationTakesARegisteredKindsName) {
  register_test_kind();
  const auto loaded = load_config_string("[limits]\nmax_payload = { test-kind = \"3MiB\" }\n");
  EXPECT_EQ(loaded.config.max_payload_by_kind.at("test-kind"), 3ull << 20);
  try {
    load_config_string("[limits]\nmax_payload = { no-such-kind = \"3MiB\" }\n");
    FAIL() << "an unknown kind's name was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("test-kind"), std::string::npos) << e.what();
  }
}

// The engine is built with default_handlers, as the daemon builds it: the
// registered kind's handler is among them, and its jobs are proved, named
// and counted under its name.
TEST(KindRegistry, ARegisteredKindIsProvedThroughTheEngine) {
  register_test_kind();
  const fs::path dir = fs::temp_directory_path() / ("cuzk-kind-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "fake.params") << "fake parameters";
  EngineConfig cfg = test::small_config();
  cfg.param_cache = dir.string();
  cfg.total_budget_bytes = 1ull << 30;
  Events events;
  {
    Engine engine(cfg, default_handlers(cfg), [&](const std::string& l) { events.add(l); });
    ProofRequest r;
    r.request_id = "registered-kind";
    r.kind = ProofKind(200);
    r.circuit_id = "fake";
    r.vanilla_proofs = {"1,1", "2,1"};
    engine.submit(r);
    const ProofResult res = engine.await("registered-kind", std::nullopt);
    ASSERT_EQ(res.status, JobStatus::Completed) << res.error_message;
    EXPECT_EQ(res.proof, fake_proof("1,1", 0) + fake_proof("2,1", 1));
    const auto parse = events.of("PARSE_START");
    ASSERT_EQ(parse.size(), 1u);
    EXPECT_NE(parse[0].find("kind=test-kind"), std::string::npos) << parse[0];
    EXPECT_NE(engine.metrics_text().find("cuzk_proofs_completed{proof_kind=\"test-kind\"} 1"),
              std::string::npos);
    EXPECT_NE(engine.status_json().find("\"test-kind\""), std::string::npos);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::engine
