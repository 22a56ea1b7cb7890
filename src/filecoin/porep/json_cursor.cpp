#include "filecoin/porep/json_cursor.hpp"

#include "filecoin/porep/c1_json.hpp"

namespace cuzk::filecoin::json {
namespace {

constexpr size_t kMaxSkipDepth = 256;  // guards the recursion on hostile input

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xc0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += char(0xe0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3f));
    out += char(0x80 | (cp & 0x3f));
  } else {
    out += char(0xf0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3f));
    out += char(0x80 | ((cp >> 6) & 0x3f));
    out += char(0x80 | (cp & 0x3f));
  }
}

std::string describe(std::string_view s, size_t pos) {
  if (pos >= s.size()) return "end of input";
  unsigned char c = s[pos];
  if (c >= 0x20 && c < 0x7f) return std::string("'") + char(c) + "'";
  char buf[8];
  snprintf(buf, sizeof buf, "0x%02x", c);
  return buf;
}

}  // namespace

std::string Cursor::path() const {
  if (path_.empty()) return "(top level)";
  std::string p;
  for (const Frame& f : path_) {
    if (f.is_key) {
      if (!p.empty()) p += '.';
      p += f.key;
    } else {
      p += '[' + std::to_string(f.index) + ']';
    }
  }
  return p;
}

void Cursor::fail(const std::string& what) const {
  throw C1FormatError(path() + ": " + what + " (at byte " + std::to_string(pos_) + ")");
}

void Cursor::fail_value(const char* expected) {
  if (pos_ >= s_.size()) fail(std::string("unexpected end of input, expected ") + expected);
  fail(std::string("expected ") + expected + ", got " + describe(s_, pos_));
}

void Cursor::expect(char c, const char* what) {
  ws();
  if (!take(c)) fail_value(what);
}

std::string_view Cursor::string_view_token() {
  if (!take('"')) fail_value("a string");
  size_t start = pos_;
  bool escaped = false;
  while (pos_ < s_.size() && s_[pos_] != '"') {
    unsigned char c = s_[pos_];
    if (c < 0x20) fail("control character in string");
    if (c == '\\') {
      escaped = true;
      pos_++;  // the escaped character, checked when decoding
    }
    pos_++;
  }
  if (pos_ >= s_.size()) fail("unexpected end of input inside a string");
  std::string_view raw = s_.substr(start, pos_ - start);
  pos_++;  // closing quote
  if (!escaped) return raw;

  std::string out;
  for (size_t i = 0; i < raw.size(); i++) {
    if (raw[i] != '\\') {
      out += raw[i];
      continue;
    }
    char e = raw[++i];
    switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        auto hex4 = [&](size_t at) -> uint32_t {
          if (at + 4 > raw.size()) fail("truncated \\u escape");
          uint32_t v = 0;
          for (size_t k = at; k < at + 4; k++) {
            char h = raw[k];
            v <<= 4;
            if (h >= '0' && h <= '9') v |= h - '0';
            else if (h >= 'a' && h <= 'f') v |= h - 'a' + 10;
            else if (h >= 'A' && h <= 'F') v |= h - 'A' + 10;
            else fail("bad \\u escape");
          }
          return v;
        };
        uint32_t cp = hex4(i + 1);
        i += 4;
        if (cp >= 0xd800 && cp < 0xdc00) {  // a surrogate pair
          if (i + 2 >= raw.size() || raw[i + 1] != '\\' || raw[i + 2] != 'u')
            fail("lone surrogate in \\u escape");
          uint32_t lo = hex4(i + 3);
          if (lo < 0xdc00 || lo >= 0xe000) fail("bad surrogate pair in \\u escape");
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          i += 6;
        } else if (cp >= 0xdc00 && cp < 0xe000) {
          fail("lone surrogate in \\u escape");
        }
        append_utf8(out, cp);
        break;
      }
      default: fail(std::string("bad escape \\") + e);
    }
  }
  keys_.push_back(std::move(out));
  return keys_.back();
}

std::string Cursor::string() {
  ws();
  return std::string(string_view_token());
}

uint64_t Cursor::digits(uint64_t max, const char* what) {
  if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9') fail_value(what);
  if (s_[pos_] == '0' && pos_ + 1 < s_.size() && s_[pos_ + 1] >= '0' && s_[pos_ + 1] <= '9')
    fail("number with a leading zero");
  uint64_t v = 0;
  bool overflow = false;
  while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
    uint64_t d = uint64_t(s_[pos_] - '0');
    if (v > (UINT64_MAX - d) / 10) overflow = true;
    v = v * 10 + d;
    pos_++;
  }
  if (pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E'))
    fail(std::string("expected ") + what + ", got a fractional or exponent number");
  if (overflow) fail("integer too large");
  if (v > max) fail("value " + std::to_string(v) + " out of range 0.." + std::to_string(max));
  return v;
}

uint64_t Cursor::unsigned_int(uint64_t max) {
  ws();
  if (pos_ < s_.size() && s_[pos_] == '-') fail("expected a non-negative integer, got a negative number");
  return digits(max, "a non-negative integer");
}

int64_t Cursor::signed_int() {
  ws();
  bool neg = take('-');
  uint64_t mag = digits(uint64_t(INT64_MAX) + (neg ? 1 : 0), "an integer");
  return neg ? int64_t(0 - mag) : int64_t(mag);
}

void Cursor::null() {
  ws();
  std::string_view rest = s_.substr(pos_, 4);
  if (rest.size() < 4 && std::string_view("null").starts_with(rest))
    fail("unexpected end of input, expected null");
  if (rest != "null") fail_value("null");
  pos_ += 4;
}

void Cursor::bytes32(uint8_t out[32]) {
  expect('[', "an array of 32 bytes");
  ws();
  size_t n = 0;
  if (!take(']')) {
    for (;;) {
      ws();
      if (pos_ < s_.size() && s_[pos_] == '-') {
        push(n);
        fail("value out of byte range 0..255 (negative)");
      }
      push(n);
      uint64_t v = digits(255, "a byte (0..255)");
      pop();
      if (n < 32) out[n] = uint8_t(v);
      n++;
      ws();
      if (take(']')) break;
      if (!take(',')) fail_value("',' or ']' in byte array");
    }
  }
  if (n != 32) fail("expected 32 bytes, got " + std::to_string(n));
}

void Cursor::skip_value() {
  // Iterative over containers would need a stack too; a bounded recursion is simpler.
  struct Skipper {
    Cursor& c;
    void value(size_t depth) {
      if (depth > kMaxSkipDepth) c.fail("nesting too deep");
      c.ws();
      if (c.pos_ >= c.s_.size()) c.fail_value("a value");
      char ch = c.s_[c.pos_];
      if (ch == '{') {
        c.object([&](std::string_view) { value(depth + 1); });
      } else if (ch == '[') {
        c.array([&](size_t) { value(depth + 1); });
      } else if (ch == '"') {
        c.string_view_token();
      } else if (ch == 't' && c.s_.substr(c.pos_, 4) == "true") {
        c.pos_ += 4;
      } else if (ch == 'f' && c.s_.substr(c.pos_, 5) == "false") {
        c.pos_ += 5;
      } else if (ch == 'n') {
        c.null();
      } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
        number();
      } else {
        c.fail_value("a value");
      }
    }
    void number() {  // full JSON number grammar
      auto digit = [&] { return c.pos_ < c.s_.size() && c.s_[c.pos_] >= '0' && c.s_[c.pos_] <= '9'; };
      c.take('-');
      if (!digit()) c.fail_value("a digit");
      if (!c.take('0'))
        while (digit()) c.pos_++;
      if (c.take('.')) {
        if (!digit()) c.fail_value("a digit");
        while (digit()) c.pos_++;
      }
      if (c.take('e') || c.take('E')) {
        if (!c.take('+')) c.take('-');
        if (!digit()) c.fail_value("a digit");
        while (digit()) c.pos_++;
      }
    }
  };
  Skipper{*this}.value(0);
}

void Cursor::finish() {
  ws();
  if (pos_ != s_.size()) fail("trailing characters after the JSON value");
}

}  // namespace cuzk::filecoin::json
