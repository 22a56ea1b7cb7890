// CircuitTableHandler: what the Filecoin handlers share, on a table of its
// own (two registered proofs sharing one circuit, one with another circuit)
// in a temporary parameter directory.
#include "engine/circuit_table.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace cuzk::engine {
namespace {

namespace fs = std::filesystem;
using Code = ServiceError::Code;

constexpr KindSpec kTableSpec{.value = ProofKind(77),
                              .name = "table-kind",
                              .wire_name = "TABLE_KIND",
                              .label = "table",
                              .aliases = {},
                              .default_priority = Priority::Normal,
                              .reads = {Field::RegisteredProof},
                              .required = {},
                              .registered_proofs = {true, 4, 6}};

CircuitInfo table_circuit(uint64_t p) {
  if (p == 6) return {"big", "v28-big", 9, 1000};
  return {"small", "v28-small", 3, 10};  // 4 and 5 share it
}

class TableHandler final : public CircuitTableHandler {
 public:
  explicit TableHandler(std::string dir) : CircuitTableHandler(kTableSpec, std::move(dir), table_circuit) {}
  std::unique_ptr<PreparedJob> prepare(ProofRequest& req) override {
    circuit_with_parameters(req.registered_proof);
    invalid("prepared as far as the table goes");
  }
};

struct CircuitTable : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("cuzk-circuit-table-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
  void touch(const std::string& name, size_t bytes) { std::ofstream(dir / name) << std::string(bytes, 'x'); }
};

TEST_F(CircuitTable, PathsListAndSizesFollowTheTable) {
  TableHandler h(dir.string());
  EXPECT_EQ(h.kind(), ProofKind(77));
  EXPECT_EQ(h.param_path("small"), (dir / "v28-small.params").string());
  EXPECT_EQ(h.list_circuits(), std::vector<std::string>{});
  touch("v28-big.params", 1000);
  EXPECT_EQ(h.list_circuits(), std::vector<std::string>{"big"});
  touch("v28-small.params", 10);
  EXPECT_EQ(h.list_circuits(), (std::vector<std::string>{"small", "big"}));  // shared circuits once
  EXPECT_EQ(h.estimate_size("big"), 1100u);                                  // the file plus 10%
  try {
    h.param_path("medium");
    ADD_FAILURE() << "a circuit outside the table has a path";
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.code(), Code::NotFound);
    EXPECT_NE(std::string(e.what()).find("unknown table-kind circuit 'medium'"), std::string::npos)
        << e.what();
  }
}

TEST_F(CircuitTable, MissingParametersNameTheFileAndTheSetupCommand) {
  TableHandler h(dir.string());
  ProofRequest req;
  req.registered_proof = 6;
  try {
    h.prepare(req);
    ADD_FAILURE() << "prepared without parameters";
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.code(), Code::NotFound);
    const std::string msg = e.what();
    EXPECT_NE(msg.find((dir / "v28-big.params").string()), std::string::npos) << msg;
    EXPECT_NE(msg.find("cuzk setup --circuit big"), std::string::npos) << msg;
  }
  touch("v28-big.params", 1);
  try {
    h.prepare(req);
    ADD_FAILURE() << "the test handler never prepares";
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.code(), Code::InvalidArgument);  // past the parameter check
  }
}

TEST(Groth16PartitionBytes, WitnessAbcAndTwoDomains) {
  EXPECT_EQ(groth16_partition_bytes(1), 32u * (4 + 2));
  EXPECT_EQ(groth16_partition_bytes(1024), 32u * (4 * 1024 + 2 * 1024));
  EXPECT_EQ(groth16_partition_bytes(1025), 32u * (4 * 1025 + 2 * 2048));
  // The 32 GiB PoRep partition: 130,278,869 rows over 2^27.
  EXPECT_EQ(groth16_partition_bytes(130'278'869), 32ull * (4 * 130'278'869ull + 2 * (1ull << 27)));
}

}  // namespace
}  // namespace cuzk::engine
