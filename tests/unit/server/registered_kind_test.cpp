// The server's request check takes its kinds from the registry
// (engine/kinds/registry.hpp): a kind registered at start is accepted under
// its number, and the fields its spec requires are checked for it.
#include <gtest/gtest.h>

#include "engine/backend.hpp"
#include "engine/kinds/registry.hpp"
#include "server/request.hpp"

namespace cuzk::server {
namespace {

namespace pb = ::cuzk::v1;

constexpr engine::KindSpec kSpec{
    .value = engine::ProofKind(210),
    .name = "server-test-kind",
    .wire_name = "SERVER_TEST_KIND",
    .label = "server-test",
    .aliases = {},
    .default_priority = engine::Priority::Low,
    .reads = {engine::Field::Randomness, engine::Field::VanillaProofs},
    .required = {engine::Field::Randomness},
    .registered_proofs = {},
};

std::unique_ptr<engine::KindHandler> no_handler(const std::string&) { return nullptr; }

// A request of kind 210 with vanilla_proofs, and randomness when asked.
pb::SubmitProofRequest request(bool with_randomness) {
  pb::SubmitProofRequest in;
  in.set_proof_kind(static_cast<pb::ProofKind>(210));
  in.add_vanilla_proofs("proof");
  if (with_randomness) in.set_randomness(std::string(32, '\x01'));
  return in;
}

TEST(ServerRequest, TakesARegisteredKindAndChecksWhatItRequires) {
  ASSERT_EQ(engine::find_kind(engine::ProofKind(210)), nullptr);
  {
    auto in = request(true);
    engine::ProofRequest out;
    EXPECT_EQ(to_request(in, out).error_code(), grpc::StatusCode::INVALID_ARGUMENT);  // not yet a kind
  }
  engine::register_kind(kSpec, &no_handler);
  {
    auto in = request(false);
    engine::ProofRequest out;
    auto st = to_request(in, out);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(st.error_message(), "randomness is required for SERVER_TEST_KIND");
  }
  auto in = request(true);
  engine::ProofRequest out;
  ASSERT_TRUE(to_request(in, out).ok());
  EXPECT_EQ(out.kind, engine::ProofKind(210));
  EXPECT_EQ(out.vanilla_proofs, std::vector<std::string>{"proof"});
  EXPECT_EQ(engine::default_priority(out.kind), engine::Priority::Low);
}

}  // namespace
}  // namespace cuzk::server
