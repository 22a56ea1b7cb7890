// The fleet queue's request payload (fleet_bridge.hpp): a versioned binary
// encoding of every ProofRequest field, and the payload digest that makes a
// job's identity.
#include <stdexcept>

#include "engine/fleet_bridge.hpp"
#include "platform/digest.hpp"
#include "platform/hex.hpp"

namespace cuzk::engine {

namespace {

// ---- request payload encoding ------------------------------------------------
// "CZKR", version 1, then every field in a fixed order: integers as 8 bytes
// little-endian, strings as their 8-byte length and bytes.
constexpr char kMagic[4] = {'C', 'Z', 'K', 'R'};
constexpr uint8_t kVersion = 1;

void put_u64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; i++) out.push_back(char(uint8_t(v >> (8 * i))));
}
void put_str(std::string& out, const std::string& s) {
  put_u64(out, s.size());
  out += s;
}

class Reader {
 public:
  explicit Reader(const std::string& b) : b_(b) {}
  uint64_t u64(const char* field) {
    need(8, field);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= uint64_t(uint8_t(b_[pos_ + i])) << (8 * i);
    pos_ += 8;
    return v;
  }
  uint32_t u32(const char* field) {
    const uint64_t v = u64(field);
    if (v > 0xffffffffu) throw std::runtime_error(std::string("request payload: ") + field + " out of range");
    return uint32_t(v);
  }
  std::string str(const char* field) {
    const uint64_t n = u64(field);
    need(n, field);
    std::string s = b_.substr(pos_, size_t(n));
    pos_ += size_t(n);
    return s;
  }
  void need(uint64_t n, const char* field) const {
    if (n > b_.size() - pos_)
      throw std::runtime_error(std::string("request payload truncated at ") + field + " (offset " +
                               std::to_string(pos_) + " of " + std::to_string(b_.size()) + ")");
  }
  size_t pos() const { return pos_; }
  void skip(size_t n) { pos_ += n; }

 private:
  const std::string& b_;
  size_t pos_ = 0;
};

}  // namespace

std::string encode_request(const ProofRequest& r) {
  std::string out(kMagic, 4);
  out.push_back(char(kVersion));
  put_str(out, r.request_id);
  put_u64(out, uint64_t(r.kind));
  put_u64(out, r.sector_size);
  put_u64(out, r.registered_proof);
  put_u64(out, uint64_t(r.priority));
  put_str(out, r.vanilla_proof);
  put_u64(out, r.vanilla_proofs.size());
  for (const auto& v : r.vanilla_proofs) put_str(out, v);
  put_u64(out, r.sector_number);
  put_u64(out, r.miner_id);
  put_str(out, r.randomness);
  put_u64(out, r.partition_index);
  put_str(out, r.comm_r_old);
  put_str(out, r.comm_r_new);
  put_str(out, r.comm_d_new);
  put_str(out, r.circuit_id);
  return out;
}

std::string request_digest(const ProofRequest& r) {
  ProofRequest copy = r;  // the encoding of every field but the priority
  copy.priority = Priority::Unspecified;
  const std::string bytes = encode_request(copy);
  return platform::to_hex(platform::sha256({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}));
}

ProofRequest decode_request(const std::string& b) {
  if (b.size() < 5 || b.compare(0, 4, std::string(kMagic, 4)) != 0)
    throw std::runtime_error("request payload: not a cuzk request (bad magic)");
  if (uint8_t(b[4]) != kVersion)
    throw std::runtime_error("request payload: version " + std::to_string(int(uint8_t(b[4]))) +
                             " is not supported (this daemon reads version " + std::to_string(int(kVersion)) +
                             ")");
  Reader rd(b);
  rd.skip(5);
  ProofRequest r;
  r.request_id = rd.str("request_id");
  const uint64_t kind = rd.u64("kind");
  if (kind > 1000)
    throw std::runtime_error("request payload: kind " + std::to_string(kind) + " out of range");
  r.kind = ProofKind(int(kind));
  r.sector_size = rd.u64("sector_size");
  r.registered_proof = rd.u64("registered_proof");
  const uint64_t prio = rd.u64("priority");
  if (prio > uint64_t(Priority::Critical))
    throw std::runtime_error("request payload: priority " + std::to_string(prio) + " out of range");
  r.priority = Priority(int(prio));
  r.vanilla_proof = rd.str("vanilla_proof");
  const uint64_t n = rd.u64("vanilla_proofs count");
  rd.need(n > UINT64_MAX / 8 ? UINT64_MAX : n * 8, "vanilla_proofs");  // 8 bytes each at least
  r.vanilla_proofs.reserve(size_t(n));
  for (uint64_t i = 0; i < n; i++) r.vanilla_proofs.push_back(rd.str("vanilla_proofs"));
  r.sector_number = rd.u64("sector_number");
  r.miner_id = rd.u64("miner_id");
  r.randomness = rd.str("randomness");
  r.partition_index = rd.u32("partition_index");
  r.comm_r_old = rd.str("comm_r_old");
  r.comm_r_new = rd.str("comm_r_new");
  r.comm_d_new = rd.str("comm_d_new");
  r.circuit_id = rd.str("circuit_id");
  if (rd.pos() != b.size())
    throw std::runtime_error("request payload: " + std::to_string(b.size() - rd.pos()) + " trailing bytes");
  return r;
}

}  // namespace cuzk::engine
