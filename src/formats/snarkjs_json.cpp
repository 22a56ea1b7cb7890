#include "formats/snarkjs_json.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "ec/subgroup.hpp"

namespace cuzk::formats {

using ec::G1Affine;
using ec::G2Affine;
using ff::Fp;
using ff::Fp2;
using ff::Fr;
using json = nlohmann::ordered_json;

template <size_t N>
std::string to_decimal(const arith::Limbs<N>& x) {
  arith::Limbs<N> v = x;
  std::string out;
  // Repeated division by 10^19 (fits a u64 digit group).
  constexpr uint64_t kBase = 10000000000000000000ull;
  while (!arith::is_zero(v)) {
    unsigned __int128 rem = 0;
    for (size_t i = N; i-- > 0;) {
      unsigned __int128 cur = (rem << 64) | v[i];
      v[i] = uint64_t(cur / kBase);
      rem = cur % kBase;
    }
    uint64_t d = uint64_t(rem);
    for (int k = 0; k < 19; k++) {
      out.push_back(char('0' + d % 10));
      d /= 10;
    }
  }
  while (out.size() > 1 && out.back() == '0') out.pop_back();
  if (out.empty()) out = "0";
  return {out.rbegin(), out.rend()};
}

template <size_t N>
std::optional<arith::Limbs<N>> parse_decimal(std::string_view s) {
  if (s.empty() || s.size() > 20 * N) return std::nullopt;
  arith::Limbs<N> v{};
  for (char ch : s) {
    if (ch < '0' || ch > '9') return std::nullopt;
    uint64_t carry = uint64_t(ch - '0');
    for (size_t i = 0; i < N; i++) {
      unsigned __int128 cur = (unsigned __int128)v[i] * 10 + carry;
      v[i] = uint64_t(cur);
      carry = uint64_t(cur >> 64);
    }
    if (carry) return std::nullopt;
  }
  return v;
}

template std::string to_decimal<4>(const arith::Limbs<4>&);
template std::string to_decimal<6>(const arith::Limbs<6>&);
template std::optional<arith::Limbs<4>> parse_decimal<4>(std::string_view);
template std::optional<arith::Limbs<6>> parse_decimal<6>(std::string_view);

namespace {

std::string dec(const Fp& x) { return to_decimal(x.to_canonical()); }

json g1_json(const G1Affine& p) {
  if (p.is_identity()) return json::array({"0", "1", "0"});
  return json::array({dec(p.x), dec(p.y), "1"});
}
json fp2_json(const Fp2& x) { return json::array({dec(x.c0), dec(x.c1)}); }
json g2_json(const G2Affine& p) {
  if (p.is_identity())
    return json::array({json::array({"0", "0"}), json::array({"1", "0"}), json::array({"0", "0"})});
  return json::array({fp2_json(p.x), fp2_json(p.y), json::array({"1", "0"})});
}

struct Ctx {
  std::string_view source;
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw FormatError(source, std::string_view(where.empty() ? "(top level)" : where), what);
  }
};

const json& member(const Ctx& c, const json& j, const char* key, const std::string& where) {
  if (!j.is_object()) c.fail(where, "expected a JSON object");
  auto it = j.find(key);
  if (it == j.end()) c.fail(where, std::string("missing \"") + key + "\"");
  return *it;
}

template <class F>
F number(const Ctx& c, const json& j, const std::string& where) {
  std::string s;
  if (j.is_string()) s = j.get<std::string>();
  else if (j.is_number_unsigned()) s = std::to_string(j.get<uint64_t>());
  else c.fail(where, "expected a decimal string");
  auto v = parse_decimal<F::N>(s);
  if (!v) c.fail(where, "not a decimal number: \"" + s.substr(0, 40) + "\"");
  auto f = F::from_canonical(*v);
  if (!f) c.fail(where, "value is not below the field modulus");
  return *f;
}

const json& array_of(const Ctx& c, const json& j, size_t n, const std::string& where) {
  if (!j.is_array() || j.size() != n) c.fail(where, "expected an array of " + std::to_string(n));
  return j;
}

Fp2 fp2(const Ctx& c, const json& j, const std::string& where) {
  array_of(c, j, 2, where);
  return {number<Fp>(c, j[0], where + "[0]"), number<Fp>(c, j[1], where + "[1]")};
}

template <class P, class Base, class Read>
P point(const Ctx& c, const json& j, const std::string& where, Read read, const char* group) {
  if (!j.is_array() || (j.size() != 3 && j.size() != 2))
    c.fail(where, std::string("expected a ") + group + " point [x, y, z]");
  Base x = read(j[0], where + "[0]"), y = read(j[1], where + "[1]");
  Base z = j.size() == 3 ? read(j[2], where + "[2]") : Base::one();
  if (z.is_zero()) return P::identity();
  P p;
  if (z == Base::one()) {
    p = P::from_xy(x, y);
  } else {
    Base zi = z.inverse(), zi2 = zi.square();
    p = P::from_xy(x * zi2, y * zi2 * zi);
  }
  if (!p.is_on_curve()) c.fail(where, std::string(group) + " point is not on the curve");
  if (!ec::is_in_subgroup(p)) c.fail(where, std::string(group) + " point is not in the prime-order subgroup");
  return p;
}

G1Affine g1(const Ctx& c, const json& j, const std::string& where) {
  return point<G1Affine, Fp>(
      c, j, where, [&](const json& e, const std::string& w) { return number<Fp>(c, e, w); }, "G1");
}
G2Affine g2(const Ctx& c, const json& j, const std::string& where) {
  return point<G2Affine, Fp2>(
      c, j, where, [&](const json& e, const std::string& w) { return fp2(c, e, w); }, "G2");
}

json parse(const Ctx& c, std::string_view text) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    c.fail("byte " + std::to_string(e.byte), std::string("invalid JSON: ") + e.what());
  }
}

void check_tags(const Ctx& c, const json& j) {
  if (auto it = j.find("protocol"); it != j.end() && *it != "groth16")
    c.fail("protocol", "not a Groth16 file (protocol " + it->dump() + ")");
  if (auto it = j.find("curve"); it != j.end() && *it != "bls12381")
    c.fail("curve", "curve " + it->dump() + " is not bls12381 (only BLS12-381 is supported)");
}

}  // namespace

std::string proof_to_snarkjs_json(const groth16::Proof& p) {
  json j;
  j["pi_a"] = g1_json(p.a);
  j["pi_b"] = g2_json(p.b);
  j["pi_c"] = g1_json(p.c);
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  return j.dump(1) + "\n";
}

groth16::Proof proof_from_snarkjs_json(std::string_view text, std::string_view source) {
  Ctx c{source};
  json j = parse(c, text);
  if (!j.is_object()) c.fail("", "expected a JSON object");
  check_tags(c, j);
  groth16::Proof p;
  p.a = g1(c, member(c, j, "pi_a", ""), "pi_a");
  p.b = g2(c, member(c, j, "pi_b", ""), "pi_b");
  p.c = g1(c, member(c, j, "pi_c", ""), "pi_c");
  return p;
}

std::string vk_to_snarkjs_json(const groth16::VerifyingKey& vk) {
  json j;
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  j["nPublic"] = vk.ic.empty() ? 0 : vk.ic.size() - 1;
  j["vk_alpha_1"] = g1_json(vk.alpha_g1);
  j["vk_beta_2"] = g2_json(vk.beta_g2);
  j["vk_gamma_2"] = g2_json(vk.gamma_g2);
  j["vk_delta_2"] = g2_json(vk.delta_g2);
  json ic = json::array();
  for (auto& p : vk.ic) ic.push_back(g1_json(p));
  j["IC"] = ic;
  return j.dump(1) + "\n";
}

groth16::VerifyingKey vk_from_snarkjs_json(std::string_view text, std::string_view source) {
  Ctx c{source};
  json j = parse(c, text);
  if (!j.is_object()) c.fail("", "expected a JSON object");
  check_tags(c, j);
  groth16::VerifyingKey vk;
  vk.alpha_g1 = g1(c, member(c, j, "vk_alpha_1", ""), "vk_alpha_1");
  vk.beta_g2 = g2(c, member(c, j, "vk_beta_2", ""), "vk_beta_2");
  vk.gamma_g2 = g2(c, member(c, j, "vk_gamma_2", ""), "vk_gamma_2");
  vk.delta_g2 = g2(c, member(c, j, "vk_delta_2", ""), "vk_delta_2");
  const json& ic = member(c, j, "IC", "");
  if (!ic.is_array() || ic.empty()) c.fail("IC", "expected a non-empty array of G1 points");
  for (size_t i = 0; i < ic.size(); i++) vk.ic.push_back(g1(c, ic[i], "IC[" + std::to_string(i) + "]"));
  if (auto it = j.find("nPublic"); it != j.end()) {
    if (!it->is_number_unsigned() || it->get<uint64_t>() + 1 != vk.ic.size())
      c.fail("nPublic",
             "nPublic " + it->dump() + " does not match IC (" + std::to_string(vk.ic.size()) + " points)");
  }
  return vk;
}

std::string public_to_snarkjs_json(std::span<const Fr> inputs) {
  json j = json::array();
  for (auto& x : inputs) j.push_back(to_decimal(x.to_canonical()));
  return j.dump(1) + "\n";
}

std::vector<Fr> public_from_snarkjs_json(std::string_view text, std::string_view source) {
  Ctx c{source};
  json j = parse(c, text);
  if (!j.is_array()) c.fail("", "expected an array of decimal strings");
  std::vector<Fr> out;
  for (size_t i = 0; i < j.size(); i++) out.push_back(number<Fr>(c, j[i], "[" + std::to_string(i) + "]"));
  return out;
}

bool looks_like_json_text(std::span<const uint8_t> head) {
  auto space = [](uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  size_t i = 0;
  while (i < head.size() && space(head[i])) ++i;
  if (i == head.size() || (head[i] != '{' && head[i] != '[')) return false;
  for (; i < head.size(); ++i)
    if (!space(head[i]) && (head[i] < 0x20 || head[i] > 0x7e)) return false;
  return true;
}

bool file_looks_like_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open file");
  std::vector<uint8_t> head(4096);
  in.read(reinterpret_cast<char*>(head.data()), std::streamsize(head.size()));
  head.resize(size_t(in.gcount()));
  return looks_like_json_text(head);
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text_file(const std::string& path, const std::string& text) {
  write_binary_file(path,
                    std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

}  // namespace cuzk::formats
