#pragma once
// A small pull parser over JSON text for schema-driven readers (c1_json):
// no DOM, so a 32GiB c1 (~40 MB of small numbers) parses in one pass, and it
// keeps the path of members and indices it is inside so that every error
// names where it happened. Errors throw C1FormatError.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::filecoin::json {

class Cursor {
 public:
  explicit Cursor(std::string_view text) : s_(text) {}

  // ---- path bookkeeping ----
  void push(std::string_view key) { path_.push_back({key, 0, true}); }
  void push(size_t index) { path_.push_back({{}, index, false}); }
  void pop() { path_.pop_back(); }
  std::string path() const;  // "a.b[3].c", or "(top level)"
  [[noreturn]] void fail(const std::string& what) const;

  // ---- structure ----
  // Calls on_member(key) for each member with the cursor at its value (the
  // callback consumes it); the key is pushed on the path meanwhile.
  template <class F>
  void object(F&& on_member) {
    expect('{', "an object");
    ws();
    if (take('}')) return;
    for (;;) {
      ws();
      std::string_view key = string_view_token();
      ws();
      if (!take(':')) fail_value("':' after member name");
      push(key);
      on_member(key);
      pop();
      ws();
      if (take('}')) return;
      if (!take(',')) fail_value("',' or '}' in object");
    }
  }
  // Calls on_element(index) for each element, the index on the path.
  template <class F>
  void array(F&& on_element) {
    expect('[', "an array");
    ws();
    if (take(']')) return;
    for (size_t i = 0;; i++) {
      push(i);
      on_element(i);
      pop();
      ws();
      if (take(']')) return;
      if (!take(',')) fail_value("',' or ']' in array");
    }
  }

  // ---- scalars ----
  std::string string();                 // a JSON string, unescaped
  uint64_t unsigned_int(uint64_t max);  // a non-negative integer <= max
  int64_t signed_int();                 // an integer in int64 range
  void null();
  void skip_value();  // any JSON value (unknown members)
  // 32 numbers 0..255 (the serde form of [u8; 32]).
  void bytes32(uint8_t out[32]);
  // End of text: only whitespace may follow.
  void finish();

  size_t offset() const { return pos_; }
  void ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t'))
      pos_++;
  }

 private:
  struct Frame {
    std::string_view key;
    size_t index;
    bool is_key;
  };
  bool take(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      pos_++;
      return true;
    }
    return false;
  }
  void expect(char c, const char* what);
  std::string_view string_view_token();  // a string; escaped ones are kept in keys_
  uint64_t digits(uint64_t max, const char* what);
  [[noreturn]] void fail_value(const char* expected);

  std::string_view s_;
  size_t pos_ = 0;
  std::vector<Frame> path_;
  std::deque<std::string> keys_;  // decoded keys that had escapes (stable addresses)
};

}  // namespace cuzk::filecoin::json
