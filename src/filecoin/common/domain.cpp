#include "filecoin/common/domain.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "platform/hex.hpp"

namespace cuzk::filecoin {

namespace {
// The integer in the usual most-significant-first hex.
std::string hex_le(const Domain& d) {
  Domain be;
  std::reverse_copy(d.begin(), d.end(), be.begin());
  return "0x" + platform::to_hex(be);
}
}  // namespace

Fr domain_to_fr(const Domain& d) {
  auto x = Fr::from_bytes_le(d);
  if (!x) throw std::invalid_argument("domain element " + hex_le(d) + " is not a canonical Fr (>= r)");
  return *x;
}

Fr domain_to_fr(const Domain& d, std::string_view what) {
  auto x = Fr::from_bytes_le(d);
  if (!x)
    throw std::invalid_argument(std::string(what) + ": not a canonical field element (" + hex_le(d) +
                                " >= r)");
  return *x;
}

std::optional<Domain> domain_from_hex(std::string_view hex) {
  auto bytes = platform::from_hex(hex);
  if (!bytes || bytes->size() != 32) return std::nullopt;
  Domain d;
  std::copy(bytes->begin(), bytes->end(), d.begin());
  return d;
}

Domain fr_to_domain(const Fr& x) {
  Domain d;
  x.to_bytes_le(d);
  return d;
}

std::vector<Fr> domains_to_frs(std::span<const Domain> ds) {
  std::vector<Fr> out;
  out.reserve(ds.size());
  for (const Domain& d : ds) out.push_back(domain_to_fr(d));
  return out;
}

std::vector<Domain> frs_to_domains(std::span<const Fr> xs) {
  std::vector<Domain> out;
  out.reserve(xs.size());
  for (const Fr& x : xs) out.push_back(fr_to_domain(x));
  return out;
}

}  // namespace cuzk::filecoin
