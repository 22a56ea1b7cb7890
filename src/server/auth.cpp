#include "server/auth.hpp"

#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cuzk::server {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<std::string> parse_tokens(const std::string& text, const std::string& origin) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    number++;
    std::string_view t = trim(line);
    if (t.empty() || t.front() == '#') continue;
    for (char c : t) {
      auto u = static_cast<unsigned char>(c);
      if (u <= 0x20 || u >= 0x7f)
        throw std::runtime_error(origin + ":" + std::to_string(number) +
                                 ": a token must be printable ASCII without spaces");
    }
    out.emplace_back(t);
  }
  if (out.empty()) throw std::runtime_error(origin + ": no token in the file (one token per line)");
  return out;
}

std::vector<std::string> read_token_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read token file '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw std::runtime_error("error reading token file '" + path + "'");
  return parse_tokens(ss.str(), "token file '" + path + "'");
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  // Walks all of `a` whatever `b` holds; a length mismatch is folded into
  // the accumulated difference instead of returning early.
  size_t diff = a.size() ^ b.size();
  for (size_t i = 0; i < a.size(); i++) {
    unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(a[i]) ^ y;
  }
  return diff == 0;
}

std::string bearer_value(const std::string& token) { return "Bearer " + token; }

bool TokenSet::contains(std::string_view token) const {
  bool found = false;
  for (const auto& t : tokens_) found |= constant_time_equal(t, token);
  return found;
}

bool TokenSet::accepts_header(std::string_view header) const {
  constexpr std::string_view scheme = "bearer ";
  if (header.size() < scheme.size()) return false;
  for (size_t i = 0; i < scheme.size(); i++)
    if (std::tolower(static_cast<unsigned char>(header[i])) != scheme[i]) return false;
  std::string_view token = trim(header.substr(scheme.size()));
  if (token.empty()) return false;
  return contains(token);
}

}  // namespace cuzk::server
