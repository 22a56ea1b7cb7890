#include "filecoin/post/vanilla.hpp"

#include <cctype>
#include <stdexcept>

#include "filecoin/bincode/bincode.hpp"
#include "filecoin/porep/c1_json.hpp"

namespace cuzk::filecoin {

FallbackPoStSectorProof read_post_sector_proof(std::span<const uint8_t> bytes, const std::string& what) {
  BincodeReader r(bytes, what);
  FallbackPoStSectorProof p;
  p.sector_id = r.u64("sector_id");
  p.comm_r = r.domain("comm_r");
  uint64_t n = r.len("vanilla_proof.sectors", 8 + 64);
  p.sectors.resize(n);
  for (auto& s : p.sectors) {
    uint64_t k = r.len("inclusion_proofs", 4 + 64);
    s.inclusion_proofs.reserve(k);
    for (uint64_t i = 0; i < k; i++) s.inclusion_proofs.push_back(r.merkle_proof("inclusion_proofs[]"));
    s.comm_c = r.domain("comm_c");
    s.comm_r_last = r.domain("comm_r_last");
  }
  r.expect_end();
  return p;
}

std::string write_post_sector_proof(const FallbackPoStSectorProof& p) {
  BincodeWriter w;
  w.u64(p.sector_id);
  w.domain(p.comm_r);
  w.u64(p.sectors.size());
  for (const auto& s : p.sectors) {
    w.u64(s.inclusion_proofs.size());
    for (const auto& m : s.inclusion_proofs) w.merkle_proof(m);
    w.domain(s.comm_c);
    w.domain(s.comm_r_last);
  }
  return w.take();
}

std::string vanilla_proofs_to_json(const std::vector<std::string>& blobs) {
  std::string out = "[";
  for (size_t i = 0; i < blobs.size(); i++) {
    if (i) out += ",";
    out += '"';
    out += base64_encode(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(blobs[i].data()), blobs[i].size()));
    out += '"';
  }
  return out + "]";
}

std::vector<std::string> vanilla_proofs_from_json(std::string_view t) {
  size_t i = 0;
  auto ws = [&] {
    while (i < t.size() && std::isspace(uint8_t(t[i]))) i++;
  };
  auto bad = [&](const std::string& msg) {
    throw std::invalid_argument("vanilla proofs JSON at byte " + std::to_string(i) + ": " + msg);
  };
  std::vector<std::string> out;
  ws();
  if (i >= t.size() || t[i] != '[') bad("expected '[' (an array of base64 strings)");
  i++;
  ws();
  if (i < t.size() && t[i] == ']') return out;
  for (;;) {
    ws();
    if (i >= t.size() || t[i] != '"') bad("expected a base64 string");
    size_t end = t.find('"', i + 1);
    if (end == std::string_view::npos) bad("unterminated string");
    try {
      auto bytes = base64_decode(t.substr(i + 1, end - i - 1));
      out.emplace_back(bytes.begin(), bytes.end());
    } catch (const std::exception& e) {
      bad("element " + std::to_string(out.size()) + ": " + e.what());
    }
    i = end + 1;
    ws();
    if (i < t.size() && t[i] == ',') {
      i++;
      continue;
    }
    if (i < t.size() && t[i] == ']') break;
    bad("expected ',' or ']'");
  }
  i++;
  ws();
  if (i != t.size()) bad("trailing characters after the array");
  return out;
}

}  // namespace cuzk::filecoin
