// The standard grpc.health.v1.Health service on the daemon's gRPC server:
// SERVING for the whole server and for cuzk.v1.ProvingEngine while it accepts
// work, NOT_SERVING once it drains (stop_accepting), NOT_FOUND for a service
// it does not have; Watch reports the change.
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "cuzk/v1/proving.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "server/grpc_server.hpp"
#include "temp_dir.hpp"
#include "unit/server/fake_service.hpp"

namespace {

namespace hv1 = grpc::health::v1;
using namespace std::chrono_literals;

struct HealthTest : ::testing::Test {
  cuzk::test::TempDir dir{"cuzk-health"};
  cuzk::test::FakeService fake;
  std::unique_ptr<cuzk::server::GrpcServer> server;
  std::unique_ptr<hv1::Health::Stub> stub;

  void SetUp() override {
    cuzk::server::GrpcServerOptions o;
    o.listen = "unix://" + (dir.path / "cuzk.sock").string();
    server = std::make_unique<cuzk::server::GrpcServer>(fake, o);
    server->start();
    stub = hv1::Health::NewStub(
        grpc::CreateChannel("unix:" + (dir.path / "cuzk.sock").string(), grpc::InsecureChannelCredentials()));
  }
  void TearDown() override {
    fake.cancel_all();
    server.reset();
  }

  grpc::Status check(const std::string& service, hv1::HealthCheckResponse* out) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 10s);
    hv1::HealthCheckRequest req;
    req.set_service(service);
    return stub->Check(&ctx, req, out);
  }
};

TEST_F(HealthTest, ServingWhileAcceptingThenNotServingWhileDraining) {
  hv1::HealthCheckResponse r;
  ASSERT_TRUE(check("", &r).ok());
  EXPECT_EQ(r.status(), hv1::HealthCheckResponse::SERVING);
  ASSERT_TRUE(check("cuzk.v1.ProvingEngine", &r).ok());
  EXPECT_EQ(r.status(), hv1::HealthCheckResponse::SERVING);
  EXPECT_EQ(check("no.such.Service", &r).error_code(), grpc::StatusCode::NOT_FOUND);

  // Watch sees the drain as it happens.
  grpc::ClientContext wctx;
  wctx.set_deadline(std::chrono::system_clock::now() + 10s);
  hv1::HealthCheckRequest wreq;
  wreq.set_service("cuzk.v1.ProvingEngine");
  auto watch = stub->Watch(&wctx, wreq);
  hv1::HealthCheckResponse w;
  ASSERT_TRUE(watch->Read(&w));
  EXPECT_EQ(w.status(), hv1::HealthCheckResponse::SERVING);

  server->stop_accepting();
  ASSERT_TRUE(watch->Read(&w));
  EXPECT_EQ(w.status(), hv1::HealthCheckResponse::NOT_SERVING);
  wctx.TryCancel();
  ASSERT_TRUE(check("", &r).ok());
  EXPECT_EQ(r.status(), hv1::HealthCheckResponse::NOT_SERVING);
  ASSERT_TRUE(check("cuzk.v1.ProvingEngine", &r).ok());
  EXPECT_EQ(r.status(), hv1::HealthCheckResponse::NOT_SERVING);
}

TEST(HealthWithTokens, AnswersWithoutATokenWhileTheServiceNeedsOne) {
  // Load balancers probe without credentials; the health answer tells only
  // whether the daemon takes work.
  cuzk::test::TempDir dir{"cuzk-health"};
  const auto tokens = dir.path / "tokens";
  std::ofstream(tokens) << "tok-health-0123456789\n";
  std::filesystem::permissions(tokens,
                               std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  cuzk::test::FakeService fake;
  const std::string sock = (dir.path / "cuzk.sock").string();
  cuzk::server::GrpcServer srv(fake, {.listen = "unix://" + sock, .token_file = tokens.string()});
  srv.start();
  auto ch = grpc::CreateChannel("unix:" + sock, grpc::InsecureChannelCredentials());
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 10s);
  hv1::HealthCheckRequest req;
  hv1::HealthCheckResponse r;
  ASSERT_TRUE(hv1::Health::NewStub(ch)->Check(&ctx, req, &r).ok());
  EXPECT_EQ(r.status(), hv1::HealthCheckResponse::SERVING);
  grpc::ClientContext sctx;
  sctx.set_deadline(std::chrono::system_clock::now() + 10s);
  cuzk::v1::GetStatusRequest sreq;
  cuzk::v1::GetStatusResponse sres;
  EXPECT_EQ(cuzk::v1::ProvingEngine::NewStub(ch)->GetStatus(&sctx, sreq, &sres).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  fake.cancel_all();
}

}  // namespace
