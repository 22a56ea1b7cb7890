#include "gadgets/poseidon.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "gadgets/poseidon_witness.hpp"

namespace cuzk::gadgets {

namespace {

// neptune's Elt: an allocated number or a pending linear combination.
struct Elt {
  bool allocated = false;
  AllocatedNum a;
  Num n;

  static Elt from(const AllocatedNum& x) { return {true, x, {}}; }
  static Elt from(Num x) { return {false, {}, std::move(x)}; }

  // acc += s·self (neptune: acc.add(self.scale(s)), an allocated number
  // counting as 1·var), without materialising the scaled copy; the LC only
  // where the system builds constraints.
  void add_scaled_to(Num& acc, const Fr& s, bool with_lc) const {
    const std::optional<Fr>& v = allocated ? a.value : n.value;
    if (acc.value && v) *acc.value += s * *v;
    else acc.value.reset();
    if (!with_lc) return;
    if (allocated) acc.lc.add(s, a.var);
    else acc.lc = merge_scaled(acc.lc, s, n.lc);
  }

  // "allocate for Elt::Num" and, if enforced,
  // "enforce num allocation preserves lc": lc·ONE = v.
  AllocatedNum ensure_allocated(ConstraintSystem& cs, bool enforce) const {
    if (allocated) return a;
    AllocatedNum v = in_ns(cs, "allocate for Elt::Num", [&] { return AllocatedNum::alloc(cs, n.value); });
    if (enforce)
      cs.enforce_with(
          "enforce num allocation preserves lc", [&] { return n.lc; }, [] { return LC(Variable::one()); },
          [&] { return LC(v.var); });
    return v;
  }
};

std::optional<Fr> opt_add(std::optional<Fr> x, const Fr* k) {
  if (x && k) *x += *k;
  return x;
}

// (l + to_add)^2: "squared sum" / "squared sum constraint".
AllocatedNum square_sum(ConstraintSystem& cs, const Fr& to_add, const AllocatedNum& l) {
  std::optional<Fr> v;
  if (l.value) v = (*l.value + to_add).square();
  AllocatedNum res = in_ns(cs, "squared sum", [&] { return AllocatedNum::alloc(cs, v); });
  const auto s = [&] { return LC(l.var).add(to_add, Variable::one()); };
  cs.enforce_with("squared sum constraint", s, s, [&] { return LC(res.var); });
  return res;
}

// a·(b + pre) + post: "mul_sum" and one of four constraint forms.
AllocatedNum mul_sum(ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b, const Fr* pre,
                     const Fr* post) {
  std::optional<Fr> v;
  if (a.value && b.value) v = *opt_add(b.value, pre) * *a.value;
  v = opt_add(v, post);
  AllocatedNum res = in_ns(cs, "mul_sum", [&] { return AllocatedNum::alloc(cs, v); });
  const char* name = post ? (pre ? "mul sum constraint pre-post-add" : "mul sum constraint post-add")
                          : (pre ? "mul sum constraint pre-add" : "mul sum constraint");
  cs.enforce_with(
      name,
      [&] {
        LC lhs(b.var);
        if (pre) lhs.add(*pre, Variable::one());
        return lhs;
      },
      [&] { return LC(a.var); },
      [&] {
        LC rhs(res.var);
        if (post) rhs.add(-*post, Variable::one());
        return rhs;
      });
  return res;
}

// l^5 (+ post): "S-box input", "l^2", "l^4", "(l4 * l) + rk)".
Elt quintic_s_box(ConstraintSystem& cs, const Elt& e, const Fr* post) {
  AllocatedNum l = in_ns(cs, "S-box input", [&] { return e.ensure_allocated(cs, true); });
  AllocatedNum l2 = in_ns(cs, "l^2", [&] { return l.square(cs); });
  AllocatedNum l4 = in_ns(cs, "l^4", [&] { return l2.square(cs); });
  return Elt::from(in_ns(cs, "(l4 * l) + rk)", [&] { return mul_sum(cs, l4, l, nullptr, post); }));
}

// (l + pre)^5 + post, for the first round.
Elt quintic_s_box_pre_add(ConstraintSystem& cs, const Elt& e, const Fr& pre, const Fr& post) {
  AllocatedNum l = in_ns(cs, "S-box input", [&] { return e.ensure_allocated(cs, true); });
  AllocatedNum l2 = in_ns(cs, "(l+rk)^2", [&] { return square_sum(cs, pre, l); });
  AllocatedNum l4 = in_ns(cs, "l^4", [&] { return l2.square(cs); });
  return Elt::from(in_ns(cs, "l4 * (l + rk)", [&] { return mul_sum(cs, l4, l, &pre, &post); }));
}

class PoseidonCircuit {
 public:
  PoseidonCircuit(std::vector<Elt> elements, const PoseidonConstants& c) : c_(c), e_(std::move(elements)) {}

  AllocatedNum hash(ConstraintSystem& cs) {
    with_lc_ = cs.builds_constraints();
    in_ns(cs, "first round", [&] { full_round(cs, true, false); });
    for (size_t i = 1; i < c_.half_full_rounds; i++)
      in_ns(
          cs, [&] { return "initial full round " + std::to_string(i); },
          [&] { full_round(cs, false, false); });
    for (size_t i = 0; i < c_.partial_rounds; i++)
      in_ns(
          cs, [&] { return "partial round " + std::to_string(i); }, [&] { partial_round(cs); });
    for (size_t i = 0; i + 1 < c_.half_full_rounds; i++)
      in_ns(
          cs, [&] { return "final full round " + std::to_string(i); }, [&] { full_round(cs, false, false); });
    in_ns(cs, "terminal full round", [&] { full_round(cs, false, true); });
    return in_ns(cs, "hash result", [&] { return e_[1].ensure_allocated(cs, true); });
  }

 private:
  void full_round(ConstraintSystem& cs, bool first, bool last) {
    const size_t t = c_.width;
    const Fr* pre = first ? &c_.compressed_round_constants[offset_] : nullptr;
    if (first) offset_ += t;
    const Fr* post = (first || !last) ? &c_.compressed_round_constants[offset_] : nullptr;
    if (post) offset_ += t;
    for (size_t i = 0; i < t; i++) {
      if (first && i == 0) {
        // The tag is a constant, so its first S-box is too.
        Fr x = e_[0].n.value.value() + pre[0];
        e_[0] = Elt::from(Num::constant(x.square().square() * x + post[0]));
        continue;
      }
      e_[i] = in_ns(
          cs, [&] { return "quintic s-box " + std::to_string(i); },
          [&] {
            return first ? quintic_s_box_pre_add(cs, e_[i], pre[i], post[i])
                         : quintic_s_box(cs, e_[i], post ? &post[i] : nullptr);
          });
    }
    product_mds();
  }

  void partial_round(ConstraintSystem& cs) {
    const Fr* key = &c_.compressed_round_constants[offset_++];
    e_[0] = in_ns(cs, "solitary quintic s-box", [&] { return quintic_s_box(cs, e_[0], key); });
    product_mds();
  }

  void product_mds() {
    const size_t half = c_.half_full_rounds, sparse_offset = half - 1;
    if (round_ == sparse_offset) product_dense(c_.pre_sparse);
    else if (round_ > sparse_offset && round_ < half + c_.partial_rounds)
      product_sparse(c_.sparse[round_ - sparse_offset - 1]);
    else product_dense(c_.mds);
    round_++;
  }

  // Σ_i elements[i]·scalars[i], as neptune's scalar_product fold.
  Num scalar_product(const Fr* scalars, size_t stride) const {
    Num acc = Num::zero();
    for (size_t i = 0; i < e_.size(); i++) e_[i].add_scaled_to(acc, scalars[i * stride], with_lc_);
    return acc;
  }

  void product_dense(const FrMatrix& m) {
    std::vector<Elt> r;
    r.reserve(e_.size());
    for (size_t j = 0; j < e_.size(); j++) r.push_back(Elt::from(scalar_product(&m.a[j], m.n)));
    e_ = std::move(r);
  }

  void product_sparse(const PoseidonSparseMatrix& m) {
    std::vector<Elt> r;
    r.reserve(e_.size());
    r.push_back(Elt::from(scalar_product(m.w_hat.data(), 1)));
    for (size_t j = 1; j < e_.size(); j++) {
      if (e_[j].allocated) throw std::logic_error("poseidon: sparse round on an allocated element");
      Num x = std::move(e_[j].n);  // e_ is replaced below
      e_[0].add_scaled_to(x, m.v_rest[j - 1], with_lc_);
      r.push_back(Elt::from(std::move(x)));
    }
    e_ = std::move(r);
  }

  const PoseidonConstants& c_;
  std::vector<Elt> e_;
  size_t offset_ = 0, round_ = 0;
  bool with_lc_ = true;
};

}  // namespace

AllocatedNum poseidon_hash(ConstraintSystem& cs, std::span<const AllocatedNum> preimage,
                           const PoseidonConstants& c, const Fr& tag) {
  if (preimage.size() != c.arity) throw std::invalid_argument("poseidon gadget: preimage length != arity");
  if (!cs.builds_constraints() && std::all_of(preimage.begin(), preimage.end(),
                                              [](const AllocatedNum& x) { return x.value.has_value(); }))
    return detail::poseidon_hash_witness(cs, preimage, c, tag);  // the same allocations, faster
  std::vector<Elt> elements;
  elements.reserve(c.width);
  elements.push_back(Elt::from(Num::constant(tag)));
  for (const auto& x : preimage) elements.push_back(Elt::from(x));
  return PoseidonCircuit(std::move(elements), c).hash(cs);
}

AllocatedNum poseidon_hash_md(ConstraintSystem& cs, std::span<const AllocatedNum> elements,
                              const PoseidonConstants& c, const Fr& tag) {
  if (elements.size() < 2) throw std::invalid_argument("poseidon_hash_md needs more than one element");
  const size_t arity = c.arity;
  AllocatedNum hash = elements[0];
  std::vector<AllocatedNum> preimage(arity, hash);
  for (size_t off = 1, step = 0; off < elements.size(); off += arity - 1, step++) {
    size_t n = std::min(arity - 1, elements.size() - off);
    preimage[0] = hash;
    for (size_t i = 0; i < n; i++) preimage[i + 1] = elements[off + i];
    for (size_t i = n + 1; i < arity; i++)
      preimage[i] = in_ns(
          cs, [&] { return "padding " + std::to_string(i); },
          [&] { return AllocatedNum::alloc(cs, Fr::zero()); });
    hash = in_ns(
        cs, [&] { return "hash md " + std::to_string(step); },
        [&] { return poseidon_hash(cs, preimage, c, tag); });
  }
  return hash;
}

}  // namespace cuzk::gadgets
