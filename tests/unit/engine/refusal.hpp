#pragma once
// The code and message a refused submission fails with (a test failure, and
// INTERNAL, when it is accepted instead).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "engine/service.hpp"

namespace cuzk::engine::test {

inline std::pair<ServiceError::Code, std::string> refusal(ProvingService& svc, ProofRequest r) {
  try {
    svc.submit(std::move(r));
  } catch (const ServiceError& e) {
    return {e.code(), e.what()};
  }
  ADD_FAILURE() << "submit() accepted the request";
  return {ServiceError::Code::Internal, ""};
}

}  // namespace cuzk::engine::test
