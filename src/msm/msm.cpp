// Explicit instantiations of the MSM for G1 and G2 (callers include msm.hpp only).
#include "msm/msm.hpp"

#include "msm/pippenger.hpp"

namespace cuzk::msm {

namespace detail {

template <class C>
ec::Jacobian<C> msm_tuned(std::span<const ec::Affine<C>> points,
                          std::span<const arith::Limbs<4>> scalars, const Options& opt,
                          const Tuning& tuning, Plan* plan) {
  return run_engine<C>(points, scalars.size(), CanonicalScalars{scalars}, opt, tuning, plan);
}

template <class C>
ec::Jacobian<C> msm_tuned(std::span<const ec::Affine<C>> points, std::span<const ff::Fr> scalars,
                          const Options& opt, const Tuning& tuning, Plan* plan) {
  return run_engine<C>(points, scalars.size(), FrScalars{scalars}, opt, tuning, plan);
}

template ec::Jacobian<ec::G1Curve> msm_tuned<ec::G1Curve>(std::span<const ec::G1Affine>,
                                                          std::span<const ff::Fr>, const Options&,
                                                          const Tuning&, Plan*);
template ec::Jacobian<ec::G2Curve> msm_tuned<ec::G2Curve>(std::span<const ec::G2Affine>,
                                                          std::span<const ff::Fr>, const Options&,
                                                          const Tuning&, Plan*);
template ec::Jacobian<ec::G1Curve> msm_tuned<ec::G1Curve>(std::span<const ec::G1Affine>,
                                                          std::span<const arith::Limbs<4>>,
                                                          const Options&, const Tuning&, Plan*);
template ec::Jacobian<ec::G2Curve> msm_tuned<ec::G2Curve>(std::span<const ec::G2Affine>,
                                                          std::span<const arith::Limbs<4>>,
                                                          const Options&, const Tuning&, Plan*);

}  // namespace detail

template <class C>
ec::Jacobian<C> msm(std::span<const ec::Affine<C>> points, std::span<const ff::Fr> scalars,
                    const Options& opt) {
  return detail::msm_tuned<C>(points, scalars, opt, detail::Tuning{}, nullptr);
}

template <class C>
ec::Jacobian<C> msm_canonical(std::span<const ec::Affine<C>> points,
                              std::span<const arith::Limbs<4>> scalars, const Options& opt) {
  return detail::msm_tuned<C>(points, scalars, opt, detail::Tuning{}, nullptr);
}

template ec::Jacobian<ec::G1Curve> msm<ec::G1Curve>(std::span<const ec::G1Affine>,
                                                    std::span<const ff::Fr>, const Options&);
template ec::Jacobian<ec::G2Curve> msm<ec::G2Curve>(std::span<const ec::G2Affine>,
                                                    std::span<const ff::Fr>, const Options&);
template ec::Jacobian<ec::G1Curve> msm_canonical<ec::G1Curve>(std::span<const ec::G1Affine>,
                                                              std::span<const arith::Limbs<4>>,
                                                              const Options&);
template ec::Jacobian<ec::G2Curve> msm_canonical<ec::G2Curve>(std::span<const ec::G2Affine>,
                                                              std::span<const arith::Limbs<4>>,
                                                              const Options&);

}  // namespace cuzk::msm
