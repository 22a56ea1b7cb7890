#pragma once
// cuzk-bench command families register themselves at static-initialization
// time, so adding a command is adding a file (no central list to edit).
#include <functional>
#include <vector>

#include <CLI/CLI.hpp>

namespace cuzk::bench_cli {

using Registrar = std::function<void(CLI::App&)>;

// Registrars in `order` order (lower first), then by file.
std::vector<std::pair<int, Registrar>>& registry();

struct RegisterCommand {
  RegisterCommand(int order, Registrar r) { registry().emplace_back(order, std::move(r)); }
};

// Commands record their exit status here (CLI11 callbacks cannot return it).
void set_exit_code(int code);
int exit_code();

}  // namespace cuzk::bench_cli
