#include "engine/request_codec.hpp"

#include <string_view>
#include <type_traits>

#include "engine/request_fields.hpp"
#include "filecoin/bincode/bincode.hpp"
#include "platform/digest.hpp"
#include "platform/hex.hpp"

namespace cuzk::engine {

namespace {

constexpr std::string_view kMagic = "CZKR";
constexpr uint8_t kVersion = 1;

// Writes every field to `out` (a BincodeWriter, or the hashing sink below).
template <class Sink>
void write_fields(const ProofRequest& r, Sink& out, bool with_priority) {
  for_each_field(r, [&](Field f, const auto& m) {
    using T = std::decay_t<decltype(m)>;
    if constexpr (std::is_same_v<T, std::string>) {
      out.bytes(m);
    } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      out.u64(m.size());
      for (const auto& v : m) out.bytes(v);
    } else if constexpr (std::is_enum_v<T>) {
      out.u64(f == Field::Priority && !with_priority ? 0 : uint64_t(int(m)));
    } else {
      out.u64(m);
    }
  });
}

// The bytes write_fields would produce, hashed as they come (a payload is
// not copied to be hashed).
class HashSink {
 public:
  void u64(uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = uint8_t(v >> (8 * i));
    h_.update(b, 8);
  }
  void bytes(std::string_view s) {
    u64(s.size());
    h_.update(s.data(), s.size());
  }
  void raw(std::string_view s) { h_.update(s.data(), s.size()); }
  PayloadDigest finish() { return h_.finish(); }

 private:
  platform::Sha256 h_;
};

}  // namespace

std::string encode_request(const ProofRequest& r) {
  filecoin::BincodeWriter w;
  w.raw(kMagic);
  w.raw(std::string_view(reinterpret_cast<const char*>(&kVersion), 1));
  write_fields(r, w, true);
  return w.take();
}

PayloadDigest payload_digest(const ProofRequest& r) {
  HashSink h;
  h.raw(kMagic);
  h.raw(std::string_view(reinterpret_cast<const char*>(&kVersion), 1));
  write_fields(r, h, false);
  return h.finish();
}

std::string request_digest(const ProofRequest& r) { return platform::to_hex(payload_digest(r)); }

ProofRequest decode_request(const std::string& b) {
  if (b.size() < 5 || std::string_view(b).substr(0, 4) != kMagic)
    throw std::runtime_error("request payload: not a cuzk request (bad magic)");
  if (uint8_t(b[4]) != kVersion)
    throw std::runtime_error("request payload: version " + std::to_string(int(uint8_t(b[4]))) +
                             " is not supported (this daemon reads version " + std::to_string(int(kVersion)) +
                             ")");
  filecoin::BincodeReader rd({reinterpret_cast<const uint8_t*>(b.data()) + 5, b.size() - 5},
                             "request payload (after its 5-byte header)");
  ProofRequest r;
  for_each_field(r, [&](Field f, auto& m) {
    using T = std::decay_t<decltype(m)>;
    const char* name = field_info(f).name.data();  // the names are literals: NUL-terminated
    auto bounded = [&](uint64_t max) {
      const uint64_t v = rd.u64(name);
      if (v > max)
        rd.fail(name, std::to_string(v) + " is out of range (at most " + std::to_string(max) + ")");
      return v;
    };
    if constexpr (std::is_same_v<T, std::string>) {
      m = rd.bytes(name);
    } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      const uint64_t n = rd.len(name, 8);  // each proof is 8 bytes at least
      m.reserve(size_t(n));
      for (uint64_t i = 0; i < n; i++) m.push_back(rd.bytes(name));
    } else if constexpr (std::is_same_v<T, ProofKind>) {
      m = ProofKind(int(bounded(1000)));
    } else if constexpr (std::is_same_v<T, Priority>) {
      m = Priority(int(bounded(uint64_t(Priority::Critical))));
    } else if constexpr (std::is_same_v<T, uint32_t>) {
      m = uint32_t(bounded(0xffffffffu));
    } else {
      m = rd.u64(name);
    }
  });
  rd.expect_end();
  return r;
}

uint64_t payload_size(const ProofRequest& r) {
  uint64_t n = 0;
  for_each_field(r, [&](Field f, const auto& m) {
    using T = std::decay_t<decltype(m)>;
    if (!field_info(f).payload) return;
    if constexpr (std::is_same_v<T, std::string>) n += m.size();
    if constexpr (std::is_same_v<T, std::vector<std::string>>)
      for (const auto& v : m) n += v.size();
  });
  return n;
}

}  // namespace cuzk::engine
