// The daemon's TOML configuration (cuzk.toml), as `cuzk-daemon --config` reads it.
#include <string>

#include "engine/config.hpp"
#include "fuzz_common.hpp"

using namespace cuzk;

CUZK_FUZZ_TARGET {
  fuzz::refusals_expected([&] { engine::load_config_string(std::string(fuzz::text(data, size)), "fuzz"); });
  return 0;
}
