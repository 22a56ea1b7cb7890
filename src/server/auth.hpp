#pragma once
// Bearer tokens for the gRPC service (daemon.token_file, cuzk-bench
// --token-file): the client sends "authorization: Bearer <token>" metadata on
// every call; the server accepts a call whose token is one of the configured
// ones and answers UNAUTHENTICATED otherwise.
//
// Token file format: one token per line; surrounding whitespace is trimmed;
// blank lines and lines whose first non-blank character is '#' are ignored.
// A token is printable ASCII without spaces (it travels as a metadata value).
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::server {

// Parses the text of a token file; `origin` names it in errors. Throws
// std::runtime_error on a malformed line (with its number) and when the text
// holds no token at all.
std::vector<std::string> parse_tokens(const std::string& text, const std::string& origin);
// Reads and parses a token file; errors name the file.
std::vector<std::string> read_token_file(const std::string& path);

// Equality in time that depends on the lengths only, not on where the
// strings first differ.
bool constant_time_equal(std::string_view a, std::string_view b);

// The metadata key and the value a client sends for `token`.
inline constexpr const char* kAuthorizationKey = "authorization";
std::string bearer_value(const std::string& token);

class TokenSet {
 public:
  TokenSet() = default;
  explicit TokenSet(std::vector<std::string> tokens) : tokens_(std::move(tokens)) {}
  bool empty() const { return tokens_.empty(); }
  size_t size() const { return tokens_.size(); }

  // True when `token` is one of the set. Compares against every token, in
  // constant time each, without stopping at a match.
  bool contains(std::string_view token) const;
  // True when `header` is "Bearer <token>" (scheme case-insensitive) with a
  // token of the set.
  bool accepts_header(std::string_view header) const;
  // True when any "authorization" value of the call's metadata is accepted.
  template <class Multimap>
  bool accepts_metadata(const Multimap& md) const {
    bool ok = false;
    auto range = md.equal_range(typename Multimap::key_type(kAuthorizationKey));
    for (auto it = range.first; it != range.second; ++it)
      ok |= accepts_header(std::string_view(it->second.data(), it->second.size()));
    return ok;
  }

 private:
  std::vector<std::string> tokens_;
};

}  // namespace cuzk::server
