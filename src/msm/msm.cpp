// Explicit instantiations of the MSM for G1 and G2 (callers include msm.hpp only).
#include "msm/msm.hpp"

#include <stdexcept>

#include "msm/pippenger.hpp"

namespace cuzk::msm {

namespace detail {

template <class C>
ec::Jacobian<C> msm_tuned(std::span<const ec::Affine<C>> points, std::span<const arith::Limbs<4>> scalars,
                          const Options& opt, const Tuning& tuning, Plan* plan) {
  return run_pippenger<C>(PointSeq<C>(Points<C>(points)), scalars.size(), CanonicalScalars{scalars}, opt,
                          tuning, plan);
}

template <class C>
ec::Jacobian<C> msm_tuned(std::span<const ec::Affine<C>> points, std::span<const ff::Fr> scalars,
                          const Options& opt, const Tuning& tuning, Plan* plan) {
  return run_pippenger<C>(PointSeq<C>(Points<C>(points)), scalars.size(), FrScalars{Concat<ff::Fr>(scalars)},
                          opt, tuning, plan);
}

template ec::Jacobian<ec::G1Curve> msm_tuned<ec::G1Curve>(std::span<const ec::G1Affine>,
                                                          std::span<const ff::Fr>, const Options&,
                                                          const Tuning&, Plan*);
template ec::Jacobian<ec::G2Curve> msm_tuned<ec::G2Curve>(std::span<const ec::G2Affine>,
                                                          std::span<const ff::Fr>, const Options&,
                                                          const Tuning&, Plan*);
template ec::Jacobian<ec::G1Curve> msm_tuned<ec::G1Curve>(std::span<const ec::G1Affine>,
                                                          std::span<const arith::Limbs<4>>, const Options&,
                                                          const Tuning&, Plan*);
template ec::Jacobian<ec::G2Curve> msm_tuned<ec::G2Curve>(std::span<const ec::G2Affine>,
                                                          std::span<const arith::Limbs<4>>, const Options&,
                                                          const Tuning&, Plan*);

}  // namespace detail

template <class C>
ec::Jacobian<C> msm(Points<C> points, std::span<const ff::Fr> scalars, const Options& opt) {
  const Part<C> part{points, scalars};
  return msm_parts<C>(std::span<const Part<C>>(&part, 1), opt);
}

template <class C>
ec::Jacobian<C> msm_canonical(std::span<const ec::Affine<C>> points, std::span<const arith::Limbs<4>> scalars,
                              const Options& opt) {
  return detail::msm_tuned<C>(points, scalars, opt, detail::Tuning{}, nullptr);
}

template <class C>
ec::Jacobian<C> msm_parts(std::span<const Part<C>> parts, const Options& opt) {
  if (parts.size() > kMaxParts) throw std::invalid_argument("msm_parts: more than kMaxParts parts");
  detail::PointSeq<C> points;
  detail::Concat<ff::Fr> scalars;
  for (const Part<C>& p : parts) {
    if (p.points.size() != p.scalars.size())
      throw std::invalid_argument("msm: points and scalars differ in length");
    points.add(p.points);
    scalars.add(p.scalars);
  }
  return detail::run_pippenger<C>(points, scalars.size(), detail::FrScalars{scalars}, opt, detail::Tuning{},
                                  nullptr);
}

template <class C>
ec::Jacobian<C> msm_parts_canonical(std::span<const CanonicalPart<C>> parts, const Options& opt) {
  if (parts.size() > kMaxParts) throw std::invalid_argument("msm_parts_canonical: more than kMaxParts parts");
  detail::PointSeq<C> points;
  detail::Concat<arith::Limbs<4>> scalars;
  for (const CanonicalPart<C>& p : parts) {
    if (p.points.size() != p.scalars.size())
      throw std::invalid_argument("msm: points and scalars differ in length");
    points.add(p.points);
    scalars.add(p.scalars);
  }
  return detail::run_pippenger<C>(points, scalars.size(), detail::CanonicalPartsScalars{scalars}, opt,
                                  detail::Tuning{}, nullptr);
}

template ec::Jacobian<ec::G1Curve> msm_parts_canonical<ec::G1Curve>(
    std::span<const CanonicalPart<ec::G1Curve>>, const Options&);
template ec::Jacobian<ec::G2Curve> msm_parts_canonical<ec::G2Curve>(
    std::span<const CanonicalPart<ec::G2Curve>>, const Options&);
template ec::Jacobian<ec::G1Curve> msm<ec::G1Curve>(Points<ec::G1Curve>, std::span<const ff::Fr>,
                                                    const Options&);
template ec::Jacobian<ec::G2Curve> msm<ec::G2Curve>(Points<ec::G2Curve>, std::span<const ff::Fr>,
                                                    const Options&);
template ec::Jacobian<ec::G1Curve> msm_parts<ec::G1Curve>(std::span<const Part<ec::G1Curve>>, const Options&);
template ec::Jacobian<ec::G2Curve> msm_parts<ec::G2Curve>(std::span<const Part<ec::G2Curve>>, const Options&);
template ec::Jacobian<ec::G1Curve> msm_canonical<ec::G1Curve>(std::span<const ec::G1Affine>,
                                                              std::span<const arith::Limbs<4>>,
                                                              const Options&);
template ec::Jacobian<ec::G2Curve> msm_canonical<ec::G2Curve>(std::span<const ec::G2Affine>,
                                                              std::span<const arith::Limbs<4>>,
                                                              const Options&);

}  // namespace cuzk::msm
