// An independent check of the gadgets' exact structure: zcash's "hybrid
// Sprout" JoinSplit circuit (librustzcash zcash_proofs circuit/sprout),
// built only from AllocatedBit, Boolean, the SHA-256 gadget (58 compressions
// with constant and allocated inputs) and pack_into_inputs, has a published
// TestConstraintSystem hash: test_sprout_constraints asserts 1,989,085
// constraints, 10 inputs and hash 1a228d3c…b84c. The hash covers every
// variable index and coefficient, so matching it shows our Boolean/UInt32/
// MultiEq/SHA-256/multipack synthesis is bit-identical to bellman's, from
// which bellperson's gadgets descend unchanged. The circuit is rebuilt here
// from its description and synthesized without a witness (the hash does not
// depend on values), streaming the docs/FILECOIN.md §1.4 hash instead of storing 2 M
// constraints. It takes a few seconds and runs in every test run.
#include <gtest/gtest.h>

#include <cstdlib>

#include "gadgets/multipack.hpp"
#include "gadgets/sha256.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/cs_hash.hpp"

using namespace cuzk;
using namespace cuzk::gadgets;

namespace {

// Feeds each constraint to the §1.4 hasher as it is created.
class HashingCS : public ConstraintSystem {
 public:
  HashingCS(uint64_t inputs, uint64_t aux, uint64_t constraints) : h_(inputs, aux, constraints) {}
  std::string finish() { return h_.finish(); }

 protected:
  Variable alloc_impl(const Name&, r1cs::FnRef<Fr()>) override { return Variable::aux(aux_++); }
  Variable alloc_input_impl(const Name&, r1cs::FnRef<Fr()>) override { return Variable::input(inputs_++); }
  void enforce_impl(const Name&, LC&& a, LC&& b, LC&& c) override {
    for (const LC* lc : {&a, &b, &c}) {
      uint64_t n = 0;
      for (const auto& e : lc->inputs()) n += !e.coeff.is_zero();
      for (const auto& e : lc->aux()) n += !e.coeff.is_zero();
      h_.begin_lc(n);
      for (const auto& e : lc->inputs())
        if (!e.coeff.is_zero()) h_.term(true, e.index, e.coeff);
      for (const auto& e : lc->aux())
        if (!e.coeff.is_zero()) h_.term(false, e.index, e.coeff);
    }
  }

 private:
  r1cs::CsHasher h_;
  size_t inputs_ = 1, aux_ = 0;
};

std::string num(const char* p, size_t i) { return p + std::to_string(i); }

std::vector<Boolean> witness_bits(ConstraintSystem& cs, size_t n) {
  std::vector<Boolean> bits;
  for (size_t i = 0; i < n; i++)
    bits.push_back(in_ns(
        cs, [&] { return num("bit ", i); }, [&] { return Boolean(AllocatedBit::alloc(cs, std::nullopt)); }));
  return bits;
}

struct NoteValue {
  std::vector<AllocatedBit> bits;  // LSB first
  static NoteValue alloc(ConstraintSystem& cs) {
    NoteValue v;
    for (size_t i = 0; i < 64; i++)
      v.bits.push_back(in_ns(
          cs, [&] { return num("bit ", i); }, [&] { return AllocatedBit::alloc(cs, std::nullopt); }));
    return v;
  }
  std::vector<Boolean> bits_le() const {  // little-endian bytes, MSB first in each
    std::vector<Boolean> r;
    for (size_t byte = 0; byte < 8; byte++)
      for (size_t k = 8; k-- > 0;) r.push_back(bits[8 * byte + k]);
    return r;
  }
  LC lc() const {
    LC r;
    for (size_t i = 0; i < 64; i++) r.add(pow2(i), bits[i].var);
    return r;
  }
};

std::vector<Boolean> prf(ConstraintSystem& cs, bool a, bool b, bool c, bool d, const std::vector<Boolean>& x,
                         const std::vector<Boolean>& y) {
  std::vector<Boolean> image = {Boolean::constant(a), Boolean::constant(b), Boolean::constant(c),
                                Boolean::constant(d)};
  image.insert(image.end(), x.begin(), x.end());
  image.insert(image.end(), y.begin(), y.end());
  return sha256_block_no_padding(cs, image);
}

std::vector<Boolean> note_comm(ConstraintSystem& cs, const std::vector<Boolean>& a_pk,
                               const std::vector<Boolean>& value, const std::vector<Boolean>& rho,
                               const std::vector<Boolean>& r) {
  std::vector<Boolean> image;
  for (bool b : {1, 0, 1, 1, 0, 0, 0, 0}) image.push_back(Boolean::constant(b));
  for (const auto* v : {&a_pk, &value, &rho, &r}) image.insert(image.end(), v->begin(), v->end());
  return sha256(cs, image);
}

std::vector<Boolean> conditionally_swap_u256(ConstraintSystem& cs, const std::vector<Boolean>& lhs,
                                             const std::vector<Boolean>& rhs, const AllocatedBit& cond) {
  std::vector<Boolean> x_bits, y_bits;
  for (size_t i = 0; i < 256; i++) {
    Namespace ns(cs, [&] { return num("bit ", i); });
    Boolean x = in_ns(cs, "x", [&] { return Boolean(AllocatedBit::alloc(cs, std::nullopt)); });
    cs.enforce("conditional swap for x", rhs[i].lc(Fr::one()) - lhs[i].lc(Fr::one()), cond.var,
               x.lc(Fr::one()) - lhs[i].lc(Fr::one()));
    Boolean y = in_ns(cs, "y", [&] { return Boolean(AllocatedBit::alloc(cs, std::nullopt)); });
    cs.enforce("conditional swap for y", lhs[i].lc(Fr::one()) - rhs[i].lc(Fr::one()), cond.var,
               y.lc(Fr::one()) - rhs[i].lc(Fr::one()));
    x_bits.push_back(x);
    y_bits.push_back(y);
  }
  x_bits.insert(x_bits.end(), y_bits.begin(), y_bits.end());
  return x_bits;
}

std::pair<std::vector<Boolean>, std::vector<Boolean>> input_note(ConstraintSystem& cs, const NoteValue& value,
                                                                 const std::vector<Boolean>& h_sig,
                                                                 bool nonce, const std::vector<Boolean>& rt) {
  auto a_sk = in_ns(cs, "a_sk", [&] { return witness_bits(cs, 252); });
  auto rho = in_ns(cs, "rho", [&] { return witness_bits(cs, 256); });
  auto r = in_ns(cs, "r", [&] { return witness_bits(cs, 256); });
  std::vector<Boolean> zeros(256, Boolean::constant(false));
  auto a_pk = in_ns(cs, "a_pk computation", [&] { return prf(cs, 1, 1, 0, 0, a_sk, zeros); });
  auto nf = in_ns(cs, "nf computation", [&] { return prf(cs, 1, 1, 1, 0, a_sk, rho); });
  auto mac = in_ns(cs, "mac computation", [&] { return prf(cs, 0, nonce, 0, 0, a_sk, h_sig); });
  auto cur = in_ns(cs, "cm computation", [&] { return note_comm(cs, a_pk, value.bits_le(), rho, r); });
  for (size_t i = 0; i < 29; i++) {
    Namespace ns(cs, [&] { return num("layer ", i); });
    AllocatedBit right = in_ns(cs, "cur is right", [&] { return AllocatedBit::alloc(cs, std::nullopt); });
    auto sibling = in_ns(cs, "sibling", [&] { return witness_bits(cs, 256); });
    auto pre =
        in_ns(cs, "conditional swap", [&] { return conditionally_swap_u256(cs, cur, sibling, right); });
    cur = in_ns(cs, "hash of this layer", [&] { return sha256_block_no_padding(cs, pre); });
  }
  AllocatedBit enforce = in_ns(cs, "enforce", [&] { return AllocatedBit::alloc(cs, std::nullopt); });
  cs.enforce("enforce validity", value.lc(), LC(Variable::one()) - enforce.var, LC());
  for (size_t i = 0; i < 256; i++)
    cs.enforce([&] { return num("conditionally enforce correct root for bit ", i); },
               cur[i].lc(Fr::one()) - rt[i].lc(Fr::one()), enforce.var, LC());
  return {nf, mac};
}

std::vector<Boolean> output_note(ConstraintSystem& cs, const NoteValue& value,
                                 const std::vector<Boolean>& phi, const std::vector<Boolean>& h_sig,
                                 bool nonce) {
  auto rho = in_ns(cs, "rho", [&] { return prf(cs, 0, nonce, 1, 0, phi, h_sig); });
  auto a_pk = in_ns(cs, "a_pk", [&] { return witness_bits(cs, 256); });
  auto r = in_ns(cs, "r", [&] { return witness_bits(cs, 256); });
  return in_ns(cs, "cm computation", [&] { return note_comm(cs, a_pk, value.bits_le(), rho, r); });
}

void join_split(ConstraintSystem& cs) {
  NoteValue vpub_old = in_ns(cs, "vpub_old", [&] { return NoteValue::alloc(cs); });
  NoteValue vpub_new = in_ns(cs, "vpub_new", [&] { return NoteValue::alloc(cs); });
  LC lhs = vpub_old.lc(), rhs = vpub_new.lc();
  auto rt = in_ns(cs, "rt", [&] { return witness_bits(cs, 256); });
  auto h_sig = in_ns(cs, "h_sig", [&] { return witness_bits(cs, 256); });
  auto phi = in_ns(cs, "phi", [&] { return witness_bits(cs, 252); });
  std::vector<std::pair<std::vector<Boolean>, std::vector<Boolean>>> inputs;
  for (size_t i = 0; i < 2; i++) {
    Namespace ns(cs, [&] { return num("input ", i); });
    NoteValue value = in_ns(cs, "value", [&] { return NoteValue::alloc(cs); });
    inputs.push_back(in_ns(cs, "note", [&] { return input_note(cs, value, h_sig, i == 1, rt); }));
    lhs += value.lc();
  }
  NoteValue lhs_total = in_ns(cs, "total value of left hand side", [&] { return NoteValue::alloc(cs); });
  cs.enforce("left hand side can be expressed as a 64-bit unsigned integer", lhs, Variable::one(),
             lhs_total.lc());
  std::vector<std::vector<Boolean>> cms;
  for (size_t i = 0; i < 2; i++) {
    Namespace ns(cs, [&] { return num("output ", i); });
    NoteValue value = in_ns(cs, "value", [&] { return NoteValue::alloc(cs); });
    cms.push_back(in_ns(cs, "note", [&] { return output_note(cs, value, phi, h_sig, i == 1); }));
    rhs += value.lc();
  }
  cs.enforce("balance equation", lhs, Variable::one(), rhs);
  std::vector<Boolean> pub;
  auto put = [&](const std::vector<Boolean>& v) { pub.insert(pub.end(), v.begin(), v.end()); };
  put(rt);
  put(h_sig);
  for (const auto& [nf, mac] : inputs) put(nf), put(mac);
  for (const auto& cm : cms) put(cm);
  put(vpub_old.bits_le());
  put(vpub_new.bits_le());
  in_ns(cs, "input packing", [&] { pack_into_inputs(cs, pub); });
}

TEST(SproutJoinSplit, ConstraintSystemHashMatchesZcash) {
  r1cs::CountingCS count;
  join_split(count);
  EXPECT_EQ(count.num_constraints(), 1989085u);
  EXPECT_EQ(count.num_inputs(), 10u);
  HashingCS hcs(count.num_inputs(), count.num_aux(), count.num_constraints());
  join_split(hcs);
  EXPECT_EQ(hcs.finish(), "1a228d3c6377130d1778c7885811dc8b8864049cb5af8aff7e6cd46c5bc4b84c");
}

}  // namespace
