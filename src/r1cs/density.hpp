#pragma once
// Which variables occur (with a non-zero coefficient) in some A- or B-LC:
// the prover multiexps the A and B queries only over those, and the
// parameters store query points only for them (bellperson's DensityTracker).
#include <bit>
#include <cstdint>
#include <vector>

namespace cuzk::r1cs {

class Density {
 public:
  void add_element() {
    if (n_ % 64 == 0) bits_.push_back(0);
    n_++;
  }
  void resize(size_t n) {
    bits_.resize((n + 63) / 64, 0);
    n_ = n;
  }
  void inc(size_t i) {
    uint64_t m = uint64_t(1) << (i % 64);
    if (!(bits_[i / 64] & m)) {
      bits_[i / 64] |= m;
      total_++;
    }
  }
  bool get(size_t i) const { return (bits_[i / 64] >> (i % 64)) & 1; }
  size_t size() const { return n_; }
  size_t total() const { return total_; }  // number of set bits
  const std::vector<uint64_t>& words() const { return bits_; }

  // Appends other's bits. For an input density (`coalesce_one`), other's
  // element 0 is a sub-system's own ONE: it is merged into ours, not appended.
  void extend(const Density& other, bool coalesce_one) {
    size_t start = 0;
    if (coalesce_one && n_ > 0 && other.n_ > 0) {
      if (other.get(0)) inc(0);
      start = 1;
    }
    for (size_t i = start; i < other.n_; i++) {
      add_element();
      if (other.get(i)) inc(n_ - 1);
    }
  }
  friend bool operator==(const Density& a, const Density& b) { return a.n_ == b.n_ && a.bits_ == b.bits_; }

 private:
  std::vector<uint64_t> bits_;
  size_t n_ = 0, total_ = 0;
};

}  // namespace cuzk::r1cs
