#include "formats/circom.hpp"

#include <algorithm>

#include "r1cs/r1cs_file.hpp"

namespace cuzk::formats {

namespace {

void put_u32(std::vector<uint8_t>& o, uint32_t v) {
  for (int i = 0; i < 4; i++) o.push_back(uint8_t(v >> (8 * i)));
}
void put_u64(std::vector<uint8_t>& o, uint64_t v) {
  put_u32(o, uint32_t(v));
  put_u32(o, uint32_t(v >> 32));
}
void put_fr(std::vector<uint8_t>& o, const Fr& x) {
  uint8_t b[32];
  x.to_bytes_le(std::span<uint8_t, 32>(b, 32));
  o.insert(o.end(), b, b + 32);
}
void put_r(std::vector<uint8_t>& o) {
  for (size_t i = 0; i < 32; i++) o.push_back(uint8_t(Fr::MODULUS[i / 8] >> (8 * (i % 8))));
}
void begin_section(std::vector<uint8_t>& o, uint32_t type, size_t& size_at) {
  put_u32(o, type);
  size_at = o.size();
  put_u64(o, 0);
}
void end_section(std::vector<uint8_t>& o, size_t size_at) {
  uint64_t n = o.size() - size_at - 8;
  for (int i = 0; i < 8; i++) o[size_at + i] = uint8_t(n >> (8 * i));
}

}  // namespace

void check_prime_is_bls12_381_r(Cursor& c, std::string_view what) {
  size_t at = c.offset();
  uint32_t n8 = c.u32("field size n8");
  if (n8 != 32)
    c.fail_at(at, std::string(what) + ": field element size " + std::to_string(n8) +
                      " bytes is not BLS12-381's scalar field (32 bytes; compile with --prime bls12381)");
  size_t pat = c.offset();
  auto p = load_le<4>(c.take(32, "prime"));
  if (p != Fr::MODULUS)
    c.fail_at(pat,
              std::string(what) +
                  ": prime is not BLS12-381's scalar field r (wrong curve? compile with --prime bls12381)");
}

Fr read_fr_canonical(Cursor& c, std::string_view what) {
  size_t at = c.offset();
  auto v = load_le<4>(c.take(32, what));
  auto f = Fr::from_canonical(v);
  if (!f) c.fail_at(at, std::string(what) + ": value is not below the field modulus r");
  return *f;
}

CircomR1cs parse_circom_r1cs(std::span<const uint8_t> bytes, std::string_view source) {
  BinFile f = parse_binfile(bytes, source, "r1cs", 1, 1);
  CircomR1cs out;
  {
    const Section& s = f.unique(bytes, source, 1, "header");
    Cursor c = section_cursor(bytes, source, s);
    check_prime_is_bls12_381_r(c, "r1cs header");
    out.n_wires = c.u32("nWires");
    out.n_pub_out = c.u32("nPubOut");
    out.n_pub_in = c.u32("nPubIn");
    out.n_prv_in = c.u32("nPrvIn");
    out.n_labels = c.u64("nLabels");
    out.n_constraints = c.u32("nConstraints");
    if (out.n_wires == 0) c.fail("nWires is 0 (wire 0 is the constant ONE)");
    if (uint64_t(1) + out.n_pub_out + out.n_pub_in + out.n_prv_in > out.n_wires)
      c.fail("1 + outputs + public inputs + private inputs exceeds nWires " + std::to_string(out.n_wires));
  }
  if (f.find(4) || f.find(5))
    throw FormatError(source, f.find(4) ? f.find(4)->offset : f.find(5)->offset,
                      "custom gates (PLONK) are not supported by Groth16");
  const Section& s = f.unique(bytes, source, 2, "constraints");
  Cursor c = section_cursor(bytes, source, s);
  r1cs::R1cs& r = out.r1cs;
  r.num_inputs = 1 + out.num_public();
  r.num_aux = out.n_wires - r.num_inputs;
  // An input constraint row needs at least 12 bytes; check before reserving.
  if (uint64_t(out.n_constraints) * 12 > s.size)
    c.fail("truncated: " + std::to_string(out.n_constraints) + " constraints cannot fit in " +
           std::to_string(s.size) + " bytes");
  r1cs::CsrMatrix* mats[3] = {&r.a, &r.b, &r.c};
  const char* names[3] = {"A", "B", "C"};
  std::vector<std::pair<uint32_t, Fr>> terms;
  for (uint32_t i = 0; i < out.n_constraints; i++) {
    for (int m = 0; m < 3; m++) {
      uint32_t nt = c.u32("term count");
      if (uint64_t(nt) * 36 > c.remaining())
        c.fail("truncated: constraint " + std::to_string(i) + " " + names[m] + " has " + std::to_string(nt) +
               " terms, " + std::to_string(c.remaining()) + " bytes left");
      terms.clear();
      for (uint32_t t = 0; t < nt; t++) {
        size_t at = c.offset();
        uint32_t w = c.u32("wire");
        if (w >= out.n_wires)
          c.fail_at(at, "constraint " + std::to_string(i) + " " + names[m] + ": wire " + std::to_string(w) +
                            " out of range (nWires " + std::to_string(out.n_wires) + ")");
        terms.emplace_back(w, read_fr_canonical(c, "coefficient"));
      }
      std::stable_sort(terms.begin(), terms.end(), [](auto& x, auto& y) { return x.first < y.first; });
      auto& M = *mats[m];
      for (size_t k = 0; k < terms.size();) {
        Fr acc = terms[k].second;
        size_t j = k + 1;
        for (; j < terms.size() && terms[j].first == terms[k].first; j++) acc += terms[j].second;
        if (!acc.is_zero()) {
          M.col.push_back(terms[k].first);
          M.val.push_back(acc);
        }
        k = j;
      }
      M.row_ptr.push_back(M.col.size());
    }
  }
  if (!c.at_end()) c.fail(std::to_string(c.remaining()) + " unexpected bytes after the constraints");
  if (const Section* l = f.find(3); l && l->size != out.n_wires * uint64_t(8))
    throw FormatError(source, l->offset,
                      "wire map section has " + std::to_string(l->size) + " bytes, expected " +
                          std::to_string(out.n_wires * uint64_t(8)));
  return out;
}

CircomR1cs read_circom_r1cs_file(const std::string& path) {
  auto b = read_binary_file(path);
  return parse_circom_r1cs(b, path);
}

std::vector<Fr> parse_wtns(std::span<const uint8_t> bytes, std::string_view source) {
  BinFile f = parse_binfile(bytes, source, "wtns", 1, 2);
  uint32_t n;
  {
    Cursor c = section_cursor(bytes, source, f.unique(bytes, source, 1, "header"));
    check_prime_is_bls12_381_r(c, "wtns header");
    n = c.u32("nWitness");
  }
  const Section& s = f.unique(bytes, source, 2, "witness values");
  Cursor c = section_cursor(bytes, source, s);
  if (s.size != uint64_t(n) * 32)
    c.fail("witness section has " + std::to_string(s.size) + " bytes, expected " + std::to_string(n) +
           " values of 32 bytes");
  std::vector<Fr> w(n);
  for (uint32_t i = 0; i < n; i++) w[i] = read_fr_canonical(c, "witness value " + std::to_string(i));
  if (n == 0 || !w[0].is_one()) throw FormatError(source, s.offset, "witness[0] must be the constant 1");
  return w;
}

std::vector<Fr> read_wtns_file(const std::string& path) {
  auto b = read_binary_file(path);
  return parse_wtns(b, path);
}

std::vector<uint8_t> encode_wtns(std::span<const Fr> witness) {
  std::vector<uint8_t> o = {'w', 't', 'n', 's'};
  put_u32(o, 2);
  put_u32(o, 2);
  size_t at;
  begin_section(o, 1, at);
  put_u32(o, 32);
  put_r(o);
  put_u32(o, uint32_t(witness.size()));
  end_section(o, at);
  begin_section(o, 2, at);
  for (auto& x : witness) put_fr(o, x);
  end_section(o, at);
  return o;
}

std::vector<uint8_t> encode_circom_r1cs(const CircomR1cs& cr) {
  std::vector<uint8_t> o = {'r', '1', 'c', 's'};
  put_u32(o, 1);
  put_u32(o, 2);
  size_t at;
  begin_section(o, 1, at);
  put_u32(o, 32);
  put_r(o);
  put_u32(o, cr.n_wires);
  put_u32(o, cr.n_pub_out);
  put_u32(o, cr.n_pub_in);
  put_u32(o, cr.n_prv_in);
  put_u64(o, cr.n_labels);
  put_u32(o, uint32_t(cr.r1cs.num_constraints()));
  end_section(o, at);
  begin_section(o, 2, at);
  const r1cs::CsrMatrix* mats[3] = {&cr.r1cs.a, &cr.r1cs.b, &cr.r1cs.c};
  for (size_t i = 0; i < cr.r1cs.num_constraints(); i++)
    for (auto* M : mats) {
      put_u32(o, uint32_t(M->row_ptr[i + 1] - M->row_ptr[i]));
      for (uint64_t k = M->row_ptr[i]; k < M->row_ptr[i + 1]; k++) {
        put_u32(o, M->col[k]);
        put_fr(o, M->val[k]);
      }
    }
  end_section(o, at);
  return o;
}

LoadedCircuit read_any_r1cs_file(const std::string& path) {
  auto b = read_binary_file(path);
  if (b.size() >= 4 && std::memcmp(b.data(), "r1cs", 4) == 0)
    return {parse_circom_r1cs(b, path).r1cs, "circom r1cs"};
  if (b.size() >= 8 && std::memcmp(b.data(), "CUZKR1CS", 8) == 0) {
    try {
      return {r1cs::parse_r1cs(b, path), "cuzk-r1cs"};
    } catch (const r1cs::FormatError& e) {
      throw std::runtime_error(e.what());
    }
  }
  throw FormatError(path, size_t(0), "not a circuit file (expected circom \"r1cs\" or \"CUZKR1CS\" magic)");
}

std::vector<Fr> read_any_witness_file(const std::string& path) {
  auto b = read_binary_file(path);
  if (b.size() >= 4 && std::memcmp(b.data(), "wtns", 4) == 0) return parse_wtns(b, path);
  if (b.size() >= 8 && std::memcmp(b.data(), "CUZKWTNS", 8) == 0) return r1cs::parse_witness(b, path);
  throw FormatError(path, size_t(0), "not a witness file (expected \"wtns\" or \"CUZKWTNS\" magic)");
}

}  // namespace cuzk::formats
