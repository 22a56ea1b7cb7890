#include "commands.hpp"

namespace cuzk::bench_cli {
static int g_exit_code = 0;
void set_exit_code(int code) { g_exit_code = code; }
int exit_code() { return g_exit_code; }
std::vector<std::pair<int, Registrar>>& registry() {
  static std::vector<std::pair<int, Registrar>> r;
  return r;
}
}  // namespace cuzk::bench_cli
