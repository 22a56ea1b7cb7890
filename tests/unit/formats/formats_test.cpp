// circom .r1cs/.wtns, snarkjs .zkey and JSON readers: valid fixtures
// (tests/interop/fixtures, made by snarkjs 0.7.6 + circom2 --prime bls12381)
// and corrupted copies (truncated, wrong magic, wrong curve, bad points).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fixtures.hpp"
#include "formats/circom.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/zkey.hpp"
#include "groth16/io.hpp"
#include "groth16/prover.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/evaluate.hpp"

using namespace cuzk;
using namespace cuzk::formats;
using ff::Fr;
using test::kCircuits;
using test::kDir;
using test::load;

namespace {

std::string text(const std::string& name) { return read_text_file(kDir + "/" + name); }

// Expects FormatError whose message names the source and contains `needle`.
template <class F>
void expect_error(F&& f, const std::string& source, const std::string& needle) {
  try {
    f();
    FAIL() << "no error; expected one containing \"" << needle << "\"";
  } catch (const FormatError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find(source), std::string::npos) << m;
    EXPECT_NE(m.find(needle), std::string::npos) << m;
  }
}

size_t section_offset(std::span<const uint8_t> b, const char* magic, uint32_t type) {
  auto f = parse_binfile(b, "x", magic, 1, 2);
  return f.find(type)->offset;
}

}  // namespace

TEST(Decimal, RoundTrip) {
  EXPECT_EQ(to_decimal(arith::Limbs<4>{}), "0");
  EXPECT_EQ(to_decimal(arith::Limbs<4>{10000000000000000000ull, 0, 0, 0}), "10000000000000000000");
  auto r = to_decimal(Fr::MODULUS);
  EXPECT_EQ(r, "52435875175126190479447740508185965837690552500527637822603658699938581184513");
  EXPECT_EQ(*parse_decimal<4>(r), Fr::MODULUS);
  EXPECT_FALSE(parse_decimal<4>("12a"));
  EXPECT_FALSE(parse_decimal<4>(""));
  EXPECT_FALSE(parse_decimal<4>(std::string(80, '9')));  // overflows 256 bits
}

TEST(CircomR1cs, FixturesParseAndWitnessesSatisfy) {
  for (auto c : kCircuits) {
    SCOPED_TRACE(c);
    auto cr = parse_circom_r1cs(load(std::string(c) + ".r1cs"), c);
    auto w = parse_wtns(load(std::string(c) + ".wtns"), c);
    ASSERT_EQ(w.size(), cr.r1cs.num_variables());
    EXPECT_TRUE(cr.r1cs.is_satisfied(w));
    // Re-encoded and parsed again: the same system.
    auto again = parse_circom_r1cs(encode_circom_r1cs(cr), "re-encoded");
    EXPECT_EQ(again.r1cs.a.col, cr.r1cs.a.col);
    EXPECT_EQ(again.r1cs.c.val, cr.r1cs.c.val);
    EXPECT_EQ(parse_wtns(encode_wtns(w), "re-encoded"), w);
    // A wrong witness value breaks satisfaction.
    w.back() += Fr::one();
    EXPECT_FALSE(cr.r1cs.is_satisfied(w));
  }
  auto mp = parse_circom_r1cs(load("many_public.r1cs"), "mp");
  EXPECT_EQ(mp.r1cs.num_inputs, 1u + 1 + 24);
}

TEST(CircomR1cs, CorruptedFilesGiveClearErrors) {
  auto good = load("cubic.r1cs");
  for (size_t cut : {size_t(0), size_t(3), size_t(11), size_t(30), good.size() / 2, good.size() - 1}) {
    std::vector<uint8_t> b(good.begin(), good.begin() + cut);
    expect_error([&] { parse_circom_r1cs(b, "cut.r1cs"); }, "cut.r1cs", "truncated");
  }
  auto b = good;
  b[0] = 'x';
  expect_error([&] { parse_circom_r1cs(b, "m.r1cs"); }, "m.r1cs: offset 0", "wrong magic");
  // The prime (section 1 payload + 4): a bn128 file has a different r.
  b = good;
  size_t hdr = section_offset(good, "r1cs", 1);
  b[hdr + 4] ^= 1;
  expect_error([&] { parse_circom_r1cs(b, "p.r1cs"); }, "p.r1cs: offset " + std::to_string(hdr + 4),
               "wrong curve");
  // First constraint's first wire out of range.
  b = good;
  size_t cons = section_offset(good, "r1cs", 2);
  b[cons + 4 + 3] = 0x7f;
  expect_error([&] { parse_circom_r1cs(b, "w.r1cs"); }, "w.r1cs: offset " + std::to_string(cons + 4),
               "out of range");
  // A coefficient >= r.
  b = good;
  for (int i = 0; i < 32; i++) b[cons + 8 + i] = 0xff;
  expect_error([&] { parse_circom_r1cs(b, "v.r1cs"); }, "v.r1cs", "not below the field modulus");
}

TEST(Wtns, CorruptedFilesGiveClearErrors) {
  auto good = load("cubic.wtns");
  for (size_t cut : {size_t(5), size_t(20), good.size() - 7}) {
    std::vector<uint8_t> b(good.begin(), good.begin() + cut);
    expect_error([&] { parse_wtns(b, "cut.wtns"); }, "cut.wtns", "truncated");
  }
  auto b = good;
  b[1] = 'X';
  expect_error([&] { parse_wtns(b, "m.wtns"); }, "m.wtns", "wrong magic");
  b = good;
  size_t hdr = section_offset(good, "wtns", 1);
  b[hdr + 4 + 31] ^= 0x10;
  expect_error([&] { parse_wtns(b, "p.wtns"); }, "p.wtns", "wrong curve");
  b = good;
  size_t vals = section_offset(good, "wtns", 2);
  for (int i = 0; i < 32; i++) b[vals + 32 + i] = 0xff;
  expect_error([&] { parse_wtns(b, "v.wtns"); }, "v.wtns: offset " + std::to_string(vals + 32), "modulus");
}

TEST(Zkey, ProveWithSnarkjsKeysVerifiesAgainstSnarkjsVk) {
  groth16::SecureRng rng;
  for (auto c : kCircuits) {
    SCOPED_TRACE(c);
    Zkey zk = parse_zkey(load(std::string(c) + ".zkey"), c);
    auto vk_json = vk_from_snarkjs_json(text(std::string(c) + ".vk.json"), "vk");
    EXPECT_EQ(zk.vk.ic, vk_json.ic);
    EXPECT_EQ(zk.vk.alpha_g1, vk_json.alpha_g1);
    EXPECT_EQ(zk.vk.delta_g2, vk_json.delta_g2);
    auto w = parse_wtns(load(std::string(c) + ".wtns"), c);
    auto pub = zkey_public_signals(zk, w);
    EXPECT_EQ(pub, public_from_snarkjs_json(text(std::string(c) + ".public.json")));
    auto pvk = groth16::prepare_verifying_key(vk_json);
    groth16::Proof p = prove_zkey(zk, w, rng);
    EXPECT_TRUE(groth16::verify_proof(pvk, p, pub));
    // Through JSON and back.
    auto p2 = proof_from_snarkjs_json(proof_to_snarkjs_json(p));
    EXPECT_EQ(p2, p);
    // Wrong public input, tampered proof: rejected.
    auto bad = pub;
    bad[0] += Fr::one();
    EXPECT_FALSE(groth16::verify_proof(pvk, p, bad));
    auto t = p;
    t.c = p.a;
    EXPECT_FALSE(groth16::verify_proof(pvk, t, pub));
    // An unsatisfying witness gives a proof that does not verify.
    auto w2 = w;
    w2.back() += Fr::one();
    EXPECT_FALSE(groth16::verify_proof(pvk, prove_zkey(zk, w2, rng), pub));
    // snarkjs's own proof verifies; the vk survives our JSON writer.
    auto sp = proof_from_snarkjs_json(text(std::string(c) + ".proof.json"));
    EXPECT_TRUE(groth16::verify_proof(pvk, sp, pub));
    EXPECT_EQ(vk_from_snarkjs_json(vk_to_snarkjs_json(vk_json)).ic, vk_json.ic);
  }
}

TEST(Zkey, CorruptedFilesGiveClearErrors) {
  auto good = load("cubic.zkey");
  for (size_t cut : {size_t(2), size_t(12), size_t(100), good.size() / 2, good.size() - 1}) {
    std::vector<uint8_t> b(good.begin(), good.begin() + cut);
    expect_error([&] { parse_zkey(b, "cut.zkey"); }, "cut.zkey", "truncated");
  }
  auto b = good;
  b[3] = 'Z';
  expect_error([&] { parse_zkey(b, "m.zkey"); }, "m.zkey: offset 0", "wrong magic");
  size_t hdr = section_offset(good, "zkey", 2);
  b = good;
  b[hdr + 4] ^= 2;  // q
  expect_error([&] { parse_zkey(b, "q.zkey"); }, "q.zkey: offset " + std::to_string(hdr + 4), "wrong curve");
  b = good;
  b[hdr + 4 + 48 + 4] ^= 2;  // r
  expect_error([&] { parse_zkey(b, "r.zkey"); }, "r.zkey", "wrong curve");
  // alpha1's x: off the curve.
  b = good;
  size_t alpha = hdr + 4 + 48 + 4 + 32 + 12;
  b[alpha + 5] ^= 1;
  expect_error([&] { parse_zkey(b, "a.zkey"); }, "a.zkey: offset " + std::to_string(alpha), "alpha1");
  // A[1]: not on the curve; C[0] = (0, y): not on the curve either.
  b = good;
  size_t a = section_offset(good, "zkey", 5);
  b[a + 96 + 7] ^= 4;
  expect_error([&] { parse_zkey(b, "p.zkey"); }, "p.zkey: offset " + std::to_string(a + 96), "A[1]");
  // A coordinate >= q.
  b = good;
  for (int i = 0; i < 48; i++) b[a + i] = 0xff;
  expect_error([&] { parse_zkey(b, "big.zkey"); }, "big.zkey", "modulus");
  // Protocol PLONK.
  b = good;
  b[section_offset(good, "zkey", 1)] = 2;
  expect_error([&] { parse_zkey(b, "plonk.zkey"); }, "plonk.zkey", "not Groth16");
}

TEST(SnarkjsJson, BadInputsGiveClearErrors) {
  std::string p = text("cubic.proof.json");
  auto bad_num = p;
  bad_num.replace(bad_num.find("\"1\""), 3, "\"x1\"");
  expect_error([&] { proof_from_snarkjs_json(bad_num, "p.json"); }, "p.json", "not a decimal number");
  // Change a digit of pi_a.x: off the curve.
  auto off = p;
  size_t q = off.find('"', off.find("pi_a") + 6) + 1;
  off[q + 3] = off[q + 3] == '1' ? '2' : '1';
  expect_error([&] { proof_from_snarkjs_json(off, "p.json"); }, "p.json: pi_a", "not on the curve");
  auto curve = p;
  curve.replace(curve.find("bls12381"), 8, "bn128");
  expect_error([&] { proof_from_snarkjs_json(curve, "p.json"); }, "p.json: curve", "not bls12381");
  expect_error([&] { proof_from_snarkjs_json("{\"pi_a\": [", "t.json"); }, "t.json", "invalid JSON");
  expect_error([&] { public_from_snarkjs_json("[\"1\", 2.5]", "pub.json"); }, "pub.json: [1]", "decimal");
  expect_error([&] { public_from_snarkjs_json("[\"" + to_decimal(Fr::MODULUS) + "\"]", "pub.json"); },
               "pub.json: [0]", "modulus");
  std::string vk = text("cubic.vk.json");
  vk.replace(vk.find("\"nPublic\": 1"), 12, "\"nPublic\": 3");
  expect_error([&] { vk_from_snarkjs_json(vk, "vk.json"); }, "vk.json: nPublic", "does not match");
}

TEST(CircomR1cs, BellpersonSetupProveVerify) {
  // cuzk's own development setup on a circom circuit, bellperson-style proof.
  groth16::SecureRng rng;
  auto cr = parse_circom_r1cs(load("many_public.r1cs"), "mp");
  auto w = parse_wtns(load("many_public.wtns"), "mp");
  auto P = groth16::generate_parameters(cr.r1cs, groth16::ToxicWaste::random(rng));
  auto a = r1cs::evaluate(cr.r1cs, r1cs::ShapeDensities::of(cr.r1cs), w);
  groth16::add_input_constraints(a);
  auto proof = groth16::prove_finish(groth16::prove_start(std::move(a), P, rng));
  std::vector<Fr> pub(w.begin() + 1, w.begin() + cr.r1cs.num_inputs);
  auto vk = vk_from_snarkjs_json(vk_to_snarkjs_json(P.vk));
  EXPECT_TRUE(groth16::verify_proof(groth16::prepare_verifying_key(vk), proof, pub));
}

TEST(SnarkjsJson, FormatSniffingLooksPastTheFirstByte) {
  // A binary key from random parameters can begin with whitespace and '[' (its
  // first coordinate's top bytes); it must still be read as binary.
  groth16::SecureRng rng;
  auto cr = parse_circom_r1cs(load("many_public.r1cs"), "mp");
  auto P = groth16::generate_parameters(cr.r1cs, groth16::ToxicWaste::random(rng));
  std::vector<uint8_t> vk = groth16::encode_verifying_key(P.vk);
  EXPECT_FALSE(looks_like_json_text(vk));
  vk[0] = '\n';
  vk[1] = '[';
  EXPECT_FALSE(looks_like_json_text(vk));
  auto proof = groth16::encode_proof(groth16::Proof{});
  proof[0] = '{';
  EXPECT_FALSE(looks_like_json_text(proof));

  auto bytes = [](const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); };
  EXPECT_TRUE(looks_like_json_text(bytes(text("cubic.vk.json"))));
  EXPECT_TRUE(looks_like_json_text(bytes(text("cubic.proof.json"))));
  EXPECT_TRUE(looks_like_json_text(bytes(" \r\n\t[\"1\"]\n")));
  EXPECT_FALSE(looks_like_json_text(bytes("  \n")));
  EXPECT_FALSE(looks_like_json_text(bytes("zkey")));
  EXPECT_FALSE(looks_like_json_text({}));
}
