// The natural-order transforms of the prover API, composed from the building
// blocks (ntt_nr + bit_reverse + scalings).
#include "ntt/exec.hpp"
#include "ntt/ntt.hpp"

namespace cuzk::ntt {

void forward(std::span<Fr> a, const Domain& d, const Options& o) {
  ntt_nr(a, d, Direction::forward, o);
  bit_reverse(a, o);
}

void inverse(std::span<Fr> a, const Domain& d, const Options& o) {
  ntt_nr(a, d, Direction::inverse, o);
  detail::bit_reverse_scaled(a, &d.size_inv(), o);  // 1/n folded into the permutation
}

void coset_forward(std::span<Fr> a, const Domain& d, const Options& o) {
  detail::check_size(a, d, "coset_forward");
  scale_powers(a, Fr::one(), d.coset_generator(), o);
  forward(a, d, o);
}

void coset_inverse(std::span<Fr> a, const Domain& d, const Options& o) {
  ntt_nr(a, d, Direction::inverse, o);
  bit_reverse(a, o);
  scale_powers(a, d.size_inv(), d.coset_generator_inv(), o);
}

void divide_by_vanishing_on_coset(std::span<Fr> a, const Domain& d, const Options& o) {
  detail::check_size(a, d, "divide_by_vanishing_on_coset");
  scale(a, d.vanishing_on_coset().inverse(), o);
}

}  // namespace cuzk::ntt
