// The device point arithmetic (cuda/ec_device.cuh) against ec::'s XYZZ and
// Jacobian formulas, G1 and G2, on random inputs and on every exceptional
// case (identity on either side, P + P, P + (-P), through mixed and full
// additions): first the same code run on the host, then in a kernel.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuda/ec_layout.hpp"
#include "cuda/msm_launch.hpp"
#include "msm_test_util.hpp"

using namespace cuzk;

namespace {

template <class C>
class CudaEc : public ::testing::Test {};
using EcCurves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(CudaEc, EcCurves);

// Operands of every case: a (XYZZ), b (XYZZ), q (affine), k (small scalar).
template <class C>
struct Cases {
  std::vector<ec::Xyzz<C>> a, b;
  std::vector<ec::Affine<C>> q;
  std::vector<uint32_t> k;

  void add(const ec::Xyzz<C>& x, const ec::Xyzz<C>& y, const ec::Affine<C>& z, uint32_t kk) {
    a.push_back(x);
    b.push_back(y);
    q.push_back(z);
    k.push_back(kk);
  }
};

// A point in XYZZ with ZZ != 1: P + Q computed as xyzz(P) + Q.
template <class C>
ec::Xyzz<C> xyzz_of(const ec::Affine<C>& p, const ec::Affine<C>& q) {
  return ec::Xyzz<C>{p.x, p.y, C::Base::one(), C::Base::one()}.add_mixed(q);
}

template <class C>
Cases<C> make_cases(size_t n_random) {
  std::mt19937_64 rng(17);
  const auto pts = cuda::test::random_points<C>(2 * n_random + 8, rng);
  const auto id = ec::Xyzz<C>::identity();
  const auto inf = ec::Affine<C>::identity();
  Cases<C> c;
  for (size_t i = 0; i + 1 < pts.size(); i += 2) {
    const ec::Xyzz<C> x = xyzz_of(pts[i], pts[i + 1]);
    const ec::Xyzz<C> y = xyzz_of(pts[i + 1], pts[i]);  // the same point, other coordinates
    const ec::Affine<C> xa = x.to_jacobian().to_affine();
    c.add(x, xyzz_of(pts[i + 1], pts[(i + 2) % pts.size()]), pts[(i + 3) % pts.size()], uint32_t(rng()));
    c.add(x, y, xa, uint32_t(rng() % 50));                     // P + P both ways
    c.add(x, y.dbl().add(y.dbl().dbl()).add(x), xa.neg(), 0);  // 7P + P; P + (-P)
    const ec::Xyzz<C> negx{x.X, -x.Y, x.ZZ, x.ZZZ};
    c.add(x, negx, inf, 1);  // P + (-P); P + O
    c.add(id, x, xa, 2);     // O + P
    c.add(x, id, xa, 3);
    c.add(id, id, inf, 0xffffffffu);
  }
  return c;
}

template <class C>
void expect_point(const cuda::DevXyzzOf<C>& got, const ec::Jacobian<C>& want, const char* op, size_t i) {
  ASSERT_EQ(cuda::to_host_jacobian<C>(got).to_affine(), want.to_affine()) << op << " case " << i;
}

template <class C>
ec::Jacobian<C> host_mul(const ec::Xyzz<C>& x, uint32_t k) {
  return ec::mul_vartime(x.to_jacobian(), arith::Limbs<1>{k});
}

}  // namespace

// The formulas compiled for the host: runs everywhere.
TYPED_TEST(CudaEc, HostFormulasMatchEc) {
  using C = TypeParam;
  const Cases<C> c = make_cases<C>(12);
  for (size_t i = 0; i < c.a.size(); i++) {
    const auto a = cuda::to_device<C>(c.a[i]), b = cuda::to_device<C>(c.b[i]);
    const auto q = cuda::to_device<C>(c.q[i]);
    expect_point<C>(a.add(b), c.a[i].add(c.b[i]).to_jacobian(), "add", i);
    expect_point<C>(a.add(q), c.a[i].add_mixed(c.q[i]).to_jacobian(), "add_affine", i);
    expect_point<C>(a.dbl(), c.a[i].to_jacobian().dbl(), "dbl", i);
    expect_point<C>(a.mul_small(c.k[i]), host_mul(c.a[i], c.k[i]), "mul_small", i);
    if (c.q[i].infinity) continue;
    const auto from_q = cuda::DevXyzzOf<C>::from_affine(q);
    expect_point<C>(from_q, ec::Jacobian<C>::from_affine(c.q[i]), "from_affine", i);
    expect_point<C>(cuda::DevXyzzOf<C>::dbl_affine(q.x, q.y), ec::Jacobian<C>::from_affine(c.q[i]).dbl(),
                    "dbl_affine", i);
  }
}

TYPED_TEST(CudaEc, LayoutRoundTrips) {
  using C = TypeParam;
  std::mt19937_64 rng(3);
  for (const auto& p : cuda::test::random_points<C>(4, rng)) {
    EXPECT_EQ(cuda::to_host<C>(cuda::to_device<C>(p)), p);
    EXPECT_EQ(cuda::to_host<C>(cuda::to_device<C>(p.neg())), p.neg());
  }
  EXPECT_TRUE(cuda::to_host<C>(cuda::to_device<C>(ec::Affine<C>::identity())).infinity);
  // Zero-filled memory is the identity (the MSM clears its buckets so).
  cuda::DevXyzzOf<C> zero;
  std::memset(static_cast<void*>(&zero), 0, sizeof zero);
  EXPECT_TRUE(zero.is_identity());
  EXPECT_TRUE(cuda::to_host_jacobian<C>(zero).is_identity());
}

// The same operations in a kernel (a GPU, or the SIMT emulator).
TYPED_TEST(CudaEc, KernelsMatchEc) {
  CUZK_SKIP_WITHOUT_DEVICE();
  using C = TypeParam;
  using X = cuda::DevXyzzOf<C>;
  const Cases<C> c = make_cases<C>(24);
  const size_t n = c.a.size();
  cuda::DeviceBuffer da(n * sizeof(X)), db(n * sizeof(X)), dq(n * sizeof(ec::Affine<C>)),
      dk(n * sizeof(uint32_t)), dr(n * sizeof(X));
  da.upload(c.a.data(), da.bytes());
  db.upload(c.b.data(), db.bytes());
  dq.upload(c.q.data(), dq.bytes());
  dk.upload(c.k.data(), dk.bytes());
  using cuda::msm_dev::EcOp;
  for (EcOp op : {EcOp::add, EcOp::add_affine, EcOp::dbl, EcOp::mul_small}) {
    cuda::check(cuda::msm_dev::launch_ec_op(
                    op, static_cast<const X*>(da.get()), static_cast<const X*>(db.get()),
                    static_cast<const cuda::DevAffineOf<C>*>(dq.get()),
                    static_cast<const uint32_t*>(dk.get()), static_cast<X*>(dr.get()), uint32_t(n), nullptr),
                "launch_ec_op");
    cuda::synchronize();
    std::vector<X> r(n);
    dr.download(r.data(), dr.bytes());
    for (size_t i = 0; i < n; i++) {
      switch (op) {
        case EcOp::add: expect_point<C>(r[i], c.a[i].add(c.b[i]).to_jacobian(), "add", i); break;
        case EcOp::add_affine:
          expect_point<C>(r[i], c.a[i].add_mixed(c.q[i]).to_jacobian(), "add_affine", i);
          break;
        case EcOp::dbl: expect_point<C>(r[i], c.a[i].to_jacobian().dbl(), "dbl", i); break;
        case EcOp::mul_small: expect_point<C>(r[i], host_mul(c.a[i], c.k[i]), "mul_small", i); break;
      }
    }
  }
}
