// Host side of the device MSM (cuda/msm.hpp): validation and planning, the
// device buffers, the pipeline of chunks over a compute and a copy stream,
// the windows' final combination on the host.
#include "cuda/msm.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuda/compat.cuh"
#include "cuda/ec_layout.hpp"
#include "cuda/msm_launch.hpp"
#include "cuda/msm_plan.hpp"
#include "cuda/msm_segments.cuh"

CUZK_CUDA_NAMESPACE_BEGIN

namespace {

// The bucket-sum kernel's occupancy: the option, else CUZK_CUDA_MSM_BLOCKS_PER_SM
// (a tuning knob: 1 or 4), else kDefaultBlocksPerSm.
unsigned blocks_per_sm(unsigned option) {
  if (option) return option;
  if (const char* e = std::getenv("CUZK_CUDA_MSM_BLOCKS_PER_SM"))
    return unsigned(std::strtoul(e, nullptr, 10));
  return kDefaultBlocksPerSm;
}

using msm_dev::DevScalar;
using msm_dev::Windows;
namespace plan = msm_plan;

static_assert(sizeof(DevScalar) == sizeof(arith::Limbs<4>), "a DevScalar reads an arith::Limbs<4> as it is");
static_assert(plan::kMaxPlanWindowBits == unsigned(kMaxWindowBits));

// Throws cuda::Error naming the call. The runtime also keeps a failed
// call's error as the thread's "last error", which the next launch check
// would report as its own: it is cleared first.
void call(int code, const char* what) {
  if (code == 0) return;
  (void)cudaGetLastError();
  check(code, (std::string("cuda::msm: ") + what).c_str());
}

// Device memory, or cuda::Error naming the MSM, the buffer and its size.
DeviceBuffer allocate_or_throw(size_t bytes, const char* what) {
  try {
    return DeviceBuffer(bytes);
  } catch (const Error& e) {
    (void)cudaGetLastError();
    throw Error(e.code(), std::string("cuda::msm: ") + e.what() + " (" + what + ", " + std::to_string(bytes) +
                              " bytes)");
  }
}

template <class T>
T* ptr(const DeviceBuffer& b) {
  return static_cast<T*>(b.get());
}

// A stream of our own (blocking: it orders with the legacy default stream,
// as the caller's copies do) or the caller's.
class Stream {
 public:
  explicit Stream(void* borrowed = nullptr) : s_(static_cast<cudaStream_t>(borrowed)) {
    if (!s_) {
      call(cudaStreamCreate(&s_), "cudaStreamCreate");
      owned_ = true;
    }
  }
  ~Stream() {
    if (owned_) (void)cudaStreamDestroy(s_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
  bool owned_ = false;
};

class Event {
 public:
  Event() { call(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming), "cudaEventCreateWithFlags"); }
  ~Event() { (void)cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

// A term's density on the host: the bitmap cut to the scalars' length, the
// set bits before each word, and where the k-th set bit is.
struct TermDensity {
  std::vector<uint64_t> words, prefix;  // prefix.size() = words.size() + 1
  DeviceBuffer d_words, d_prefix;

  TermDensity() = default;
  TermDensity(std::span<const uint64_t> density, size_t scalars) {
    const size_t nw = (scalars + 63) / 64;
    if (density.size() < nw)
      throw std::invalid_argument("cuda::msm: the density has " + std::to_string(density.size()) +
                                  " words for " + std::to_string(scalars) + " scalars");
    words.assign(density.begin(), density.begin() + std::ptrdiff_t(nw));
    if (scalars % 64) words.back() &= (uint64_t(1) << (scalars % 64)) - 1;
    prefix.resize(nw + 1);
    prefix[0] = 0;
    for (size_t i = 0; i < nw; i++) prefix[i + 1] = prefix[i] + uint64_t(std::popcount(words[i]));
  }
  uint64_t selected() const { return prefix.back(); }
  // Index of the k-th (from 0) set bit, k < selected().
  size_t select(uint64_t k) const {
    const size_t w = size_t(std::upper_bound(prefix.begin(), prefix.end(), k) - prefix.begin()) - 1;
    uint64_t x = words[w];
    for (uint64_t r = k - prefix[w]; r > 0; r--) x &= x - 1;
    return w * 64 + size_t(std::countr_zero(x));
  }
};

struct Chunk {
  size_t term;
  size_t p0, p1;  // points [p0, p1) of the term
  size_t s0, s1;  // its scalars [s0, s1)
};

// Partial-sum slots of one reduction level: keys and XYZZ values.
template <class X>
struct Slots {
  DeviceBuffer keys, vals;
  uint32_t* k() const { return ptr<uint32_t>(keys); }
  X* v() const { return ptr<X>(vals); }
};

template <class C>
class Run {
  using F = typename DevCurve<C>::Field;
  using X = DevXyzz<F>;
  using A = DevAffine<F>;
  using Host = ec::Affine<C>;

 public:
  Run(std::span<const MsmTerm<C>> terms, const MsmOptions& opt) : terms_(terms), opt_(opt) {}

  ec::Jacobian<C> operator()(MsmStats* stats) {
    validate();
    if (total_ == 0) return ec::Jacobian<C>::identity();
    call(cudaSetDevice(device_), "cudaSetDevice");
    choose_plan();
    allocate();
    Stream compute(opt_.stream), copy;
    for (auto& e : slot_ready_) e.emplace();
    for (auto& e : slot_free_) e.emplace();
    cs_ = compute.get();
    copy_ = copy.get();
    call(cudaMemsetAsync(buckets_.get(), 0, buckets_.bytes(), cs_), "cudaMemsetAsync (buckets)");
    upload_densities();
    process_chunks();
    const ec::Jacobian<C> r = finish();
    if (stats) {
      stats->window_bits = int(win_.c);
      stats->windows = int(win_.W);
      stats->chunks = chunks_.size();
      stats->pairs = pairs_;
      stats->max_levels = max_levels_;
      stats->scratch_bytes = scratch_bytes_;
    }
    return r;
  }

 private:
  void validate() {
    bool have_device = false;
    device_ = opt_.device;
    if (opt_.window_bits < 0 || opt_.window_bits > kMaxWindowBits)
      throw std::invalid_argument("cuda::msm: window_bits " + std::to_string(opt_.window_bits) +
                                  " outside [0, " + std::to_string(kMaxWindowBits) + "]");
    if (opt_.partials_per_thread != 0 && opt_.partials_per_thread < 4)
      throw std::invalid_argument("cuda::msm: partials_per_thread must be 0 or >= 4");
    for (const MsmTerm<C>& t : terms_) {
      if (t.points.size && !t.points.data) throw std::invalid_argument("cuda::msm: null points");
      if (t.scalars.size && !t.scalars.data) throw std::invalid_argument("cuda::msm: null scalars");
      if (t.points.on_device) {
        if (have_device && t.points.device != device_)
          throw std::invalid_argument("cuda::msm: resident points on two devices");
        have_device = true;
        device_ = t.points.device;
      }
      if (t.density.empty()) {
        if (t.scalars.size != t.points.size)
          throw std::invalid_argument("cuda::msm: " + std::to_string(t.points.size) + " points but " +
                                      std::to_string(t.scalars.size) + " scalars");
        densities_.emplace_back();
      } else {
        TermDensity& d = densities_.emplace_back(TermDensity(t.density, t.scalars.size));
        if (d.selected() != t.points.size)
          throw std::invalid_argument("cuda::msm: the density selects " + std::to_string(d.selected()) +
                                      " scalars for " + std::to_string(t.points.size) + " points");
      }
      total_ += t.points.size;
      stage_points_ |= t.points.size && !t.points.on_device;
      stage_scalars_ |= t.points.size && !t.scalars.on_device;
      if (t.points.size) spread_ = std::max(spread_, double(t.scalars.size) / double(t.points.size));
    }
  }

  void choose_plan() {
    double budget = double(opt_.scratch_bytes);
    if (budget == 0) {
      size_t free_b = 0, total_b = 0;
      call(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
      budget = std::min(double(free_b) * 0.75, 8.0 * double(uint64_t(1) << 30));
    }
    plan::Request req{{},
                      {sizeof(X), sizeof(A), stage_points_, stage_scalars_, spread_},
                      budget,
                      opt_.window_bits,
                      opt_.chunk_points,
                      opt_.pairs_per_thread,
                      opt_.partials_per_thread,
                      opt_.buckets_per_thread};
    for (const MsmTerm<C>& t : terms_) req.term_points.push_back(t.points.size);
    const plan::Plan p = plan::make_plan(req);
    win_ = Windows{p.c, p.W};
    chunk_points_ = p.chunk_points;
    max_pairs_ = p.max_pairs;
    per1_ = p.per_pair;
    blocks_per_sm_ = blocks_per_sm(opt_.blocks_per_sm);
    perp_ = p.per_partial;
    perb_ = p.per_bucket;
    segs_ = plan::ceil_div(win_.buckets(), perb_);

    for (size_t ti = 0; ti < terms_.size(); ti++) {
      const MsmTerm<C>& t = terms_[ti];
      for (size_t p0 = 0; p0 < t.points.size; p0 += chunk_points_) {
        Chunk ch{ti, p0, std::min(t.points.size, p0 + chunk_points_), p0, 0};
        ch.s1 = ch.p1;
        if (!t.density.empty()) {
          ch.s0 = densities_[ti].select(ch.p0);
          ch.s1 = densities_[ti].select(ch.p1 - 1) + 1;
        }
        if (ch.s1 - ch.s0 > UINT32_MAX)
          throw std::invalid_argument("cuda::msm: a chunk's density spans more than 2^32 scalars");
        max_scalar_range_ = std::max(max_scalar_range_, ch.s1 - ch.s0);
        chunks_.push_back(ch);
      }
    }
  }

  DeviceBuffer buffer(size_t bytes) {
    scratch_bytes_ += bytes;
    return allocate_or_throw(bytes, "scratch");
  }

  void allocate() {
    const uint64_t keys = uint64_t(win_.ones_key()) + 1;  // buckets, then the scalar-1 sum
    buckets_ = buffer(keys * sizeof(X));
    counts_ = buffer((keys + 1) * sizeof(uint32_t));  // + the total: the scan's last entry
    cursor_ = buffer(keys * sizeof(uint32_t));
    for (uint64_t n = keys + 1; n > msm_dev::kScanTile;) {
      n = plan::ceil_div(n, msm_dev::kScanTile);
      scan_sums_.push_back(buffer(n * sizeof(uint32_t)));
    }
    scalars_ = buffer(chunk_points_ * sizeof(DevScalar));
    keys_ = buffer(max_pairs_ * sizeof(uint32_t));
    refs_ = buffer(max_pairs_ * sizeof(uint32_t));
    slots_[0] = slots(plan::level1_slots(max_pairs_, per1_));
    slots_[1] = slots(plan::level2_slots(max_pairs_, per1_, perp_));
    if (stage_points_)
      for (auto& b : stage_points_buf_) b = buffer(chunk_points_ * sizeof(A));
    if (stage_scalars_)
      for (auto& b : stage_scalars_buf_) b = buffer(max_scalar_range_ * sizeof(DevScalar));
    const uint64_t seg_total = uint64_t(win_.W) * segs_;
    seg_ = slots(seg_total);
    wslots_[0] = slots(plan::level1_slots(seg_total, perp_));
    wslots_[1] = slots(plan::level2_slots(seg_total, perp_, perp_));
    window_sums_ = buffer(win_.W * sizeof(X));
  }
  Slots<X> slots(uint64_t n) {
    Slots<X> s;
    s.keys = buffer(n * sizeof(uint32_t));
    s.vals = buffer(n * sizeof(X));
    return s;
  }

  void upload_densities() {
    for (size_t ti = 0; ti < terms_.size(); ti++) {
      TermDensity& d = densities_[ti];
      if (terms_[ti].density.empty() || terms_[ti].points.size == 0) continue;
      d.d_words = buffer(d.words.size() * sizeof(uint64_t));
      d.d_prefix = buffer(d.prefix.size() * sizeof(uint64_t));
      call(cudaMemcpyAsync(d.d_words.get(), d.words.data(), d.d_words.bytes(), cudaMemcpyHostToDevice, cs_),
           "cudaMemcpyAsync (density)");
      call(
          cudaMemcpyAsync(d.d_prefix.get(), d.prefix.data(), d.d_prefix.bytes(), cudaMemcpyHostToDevice, cs_),
          "cudaMemcpyAsync (density prefix)");
    }
  }

  // Uploads chunk i's host points and scalars into staging slot i % 2 on
  // the copy stream, once the chunk that used the slot before is done.
  void upload(size_t i) {
    const Chunk& ch = chunks_[i];
    const MsmTerm<C>& t = terms_[ch.term];
    const size_t slot = i % 2;
    staged_[slot] = false;
    if (t.points.on_device && t.scalars.on_device) return;
    call(cudaStreamWaitEvent(copy_, slot_free_[slot]->get(), 0), "cudaStreamWaitEvent (staging slot)");
    if (!t.points.on_device)
      call(cudaMemcpyAsync(stage_points_buf_[slot].get(), t.points.data + ch.p0,
                           (ch.p1 - ch.p0) * sizeof(Host), cudaMemcpyHostToDevice, copy_),
           "cudaMemcpyAsync (points chunk)");
    if (!t.scalars.on_device)
      call(cudaMemcpyAsync(stage_scalars_buf_[slot].get(), t.scalars.data + ch.s0,
                           (ch.s1 - ch.s0) * sizeof(DevScalar), cudaMemcpyHostToDevice, copy_),
           "cudaMemcpyAsync (scalars chunk)");
    call(cudaEventRecord(slot_ready_[slot]->get(), copy_), "cudaEventRecord (chunk uploaded)");
    staged_[slot] = true;
  }

  void process_chunks() {
    if (!chunks_.empty()) upload(0);
    for (size_t i = 0; i < chunks_.size(); i++) {
      if (i + 1 < chunks_.size()) upload(i + 1);
      const size_t slot = i % 2;
      if (staged_[slot])
        call(cudaStreamWaitEvent(cs_, slot_ready_[slot]->get(), 0), "cudaStreamWaitEvent (chunk)");
      sort_chunk(chunks_[i], slot);
      call(cudaEventRecord(slot_free_[slot]->get(), cs_), "cudaEventRecord (slot free)");
    }
  }

  void scan(uint32_t* data, uint64_t n, size_t level) {
    if (n <= msm_dev::kScanTile) {
      call(msm_dev::launch_scan_tiles(data, uint32_t(n), nullptr, cs_), "scan kernel");
      return;
    }
    uint32_t* sums = ptr<uint32_t>(scan_sums_[level]);
    call(msm_dev::launch_scan_tiles(data, uint32_t(n), sums, cs_), "scan kernel");
    scan(sums, plan::ceil_div(n, msm_dev::kScanTile), level + 1);
    call(msm_dev::launch_scan_add(data, uint32_t(n), sums, cs_), "scan add kernel");
  }

  // The levels of a reduction (msm_dev::run_levels) whose first level
  // `first` launches; the later ones sum the slots in `bufs` into out.
  template <class First>
  unsigned reduce(uint64_t m, uint32_t per_first, bool exact_first, Slots<X>* bufs, X* out, First&& first) {
    return msm_dev::run_levels(
        m, per_first, exact_first, perp_,
        [&](unsigned l, uint64_t size, uint32_t per, bool exact, bool last) {
          uint32_t* pk = last ? nullptr : bufs[l % 2].k();
          X* pv = last ? nullptr : bufs[l % 2].v();
          if (l == 0) {
            first(uint32_t(size), per, exact, pk, pv);
            return;
          }
          const Slots<X>& in = bufs[(l - 1) % 2];
          call(msm_dev::launch_sum_partials<F>(in.k(), in.v(), uint32_t(size), per, exact, out, pk, pv, cs_),
               "segmented sum kernel (partials)");
        });
  }

  void sort_chunk(const Chunk& ch, size_t slot) {
    const MsmTerm<C>& t = terms_[ch.term];
    const TermDensity& d = densities_[ch.term];
    const uint32_t n = uint32_t(ch.p1 - ch.p0);
    const DevScalar* src = t.scalars.on_device ? reinterpret_cast<const DevScalar*>(t.scalars.data + ch.s0)
                                               : ptr<DevScalar>(stage_scalars_buf_[slot]);
    const A* points = t.points.on_device ? reinterpret_cast<const A*>(t.points.data + ch.p0)
                                         : ptr<A>(stage_points_buf_[slot]);
    const bool dens = !t.density.empty();
    call(msm_dev::launch_prepare_scalars(
             src, uint32_t(ch.s1 - ch.s0), ch.s0, dens ? ptr<uint64_t>(d.d_words) : nullptr,
             dens ? ptr<uint64_t>(d.d_prefix) : nullptr, ch.p0, ptr<DevScalar>(scalars_), cs_),
         "scalar kernel");
    const uint64_t keys = uint64_t(win_.ones_key()) + 1;
    call(cudaMemsetAsync(counts_.get(), 0, counts_.bytes(), cs_), "cudaMemsetAsync (counts)");
    call(msm_dev::launch_count_pairs(ptr<DevScalar>(scalars_), n, win_, ptr<uint32_t>(counts_), cs_),
         "count kernel");
    scan(ptr<uint32_t>(counts_), keys + 1, 0);
    call(cudaMemcpyAsync(cursor_.get(), counts_.get(), cursor_.bytes(), cudaMemcpyDeviceToDevice, cs_),
         "cudaMemcpyAsync (cursor)");
    call(msm_dev::launch_scatter_pairs(ptr<DevScalar>(scalars_), n, win_, ptr<uint32_t>(cursor_),
                                       ptr<uint32_t>(keys_), ptr<uint32_t>(refs_), cs_),
         "scatter kernel");
    uint32_t m = 0;
    call(cudaMemcpyAsync(&m, ptr<uint32_t>(counts_) + keys, sizeof m, cudaMemcpyDeviceToHost, cs_),
         "cudaMemcpyAsync (pair count)");
    call(cudaStreamSynchronize(cs_), "cudaStreamSynchronize (pair count)");
    pairs_ += m;
    if (m == 0) return;

    const unsigned levels =
        reduce(m, per1_, true, slots_, ptr<X>(buckets_),
               [&](uint32_t size, uint32_t per, bool, uint32_t* pk, X* pv) {
                 call(msm_dev::launch_sum_pairs<F>(ptr<uint32_t>(keys_), ptr<uint32_t>(refs_), points, size,
                                                   per, blocks_per_sm_, ptr<X>(buckets_), pk, pv, cs_),
                      "segmented sum kernel (pairs)");
               });
    max_levels_ = std::max(max_levels_, levels);
  }

  ec::Jacobian<C> finish() {
    X* sums = ptr<X>(window_sums_);
    call(cudaMemsetAsync(sums, 0, window_sums_.bytes(), cs_), "cudaMemsetAsync (window sums)");
    call(msm_dev::launch_window_segments<F>(ptr<X>(buckets_), win_, perb_, segs_, seg_.k(), seg_.v(), cs_),
         "window running-sum kernel");
    reduce(uint64_t(win_.W) * segs_, perp_, true, wslots_, sums,
           [&](uint32_t size, uint32_t per, bool exact, uint32_t* pk, X* pv) {
             call(msm_dev::launch_sum_partials<F>(seg_.k(), seg_.v(), size, per, exact, sums, pk, pv, cs_),
                  "segmented sum kernel (windows)");
           });

    std::vector<X> windows(win_.W);
    X ones;
    call(cudaMemcpyAsync(windows.data(), sums, windows.size() * sizeof(X), cudaMemcpyDeviceToHost, cs_),
         "cudaMemcpyAsync (window sums)");
    call(cudaMemcpyAsync(&ones, ptr<X>(buckets_) + win_.ones_key(), sizeof(X), cudaMemcpyDeviceToHost, cs_),
         "cudaMemcpyAsync (scalar-1 sum)");
    call(cudaStreamSynchronize(cs_), "cudaStreamSynchronize (results)");

    // Horner over the windows, top first: c doublings each.
    ec::Jacobian<C> acc = ec::Jacobian<C>::identity();
    for (size_t w = windows.size(); w-- > 0;) {
      for (unsigned b = 0; b < win_.c; b++) acc = acc.dbl();
      acc = acc.add(to_host_jacobian<C>(windows[w]));
    }
    return acc.add(to_host_jacobian<C>(ones));
  }

  std::span<const MsmTerm<C>> terms_;
  MsmOptions opt_;
  std::vector<TermDensity> densities_;
  int device_ = 0;
  size_t total_ = 0;
  bool stage_points_ = false, stage_scalars_ = false;
  double spread_ = 1;

  Windows win_{};
  size_t chunk_points_ = 0, max_scalar_range_ = 0;
  uint64_t max_pairs_ = 0;
  uint32_t per1_ = 0, perp_ = 0, perb_ = 0, segs_ = 0;
  unsigned blocks_per_sm_ = 1;
  std::vector<Chunk> chunks_;

  DeviceBuffer buckets_, counts_, cursor_, scalars_, keys_, refs_, window_sums_;
  std::vector<DeviceBuffer> scan_sums_;
  Slots<X> slots_[2], seg_, wslots_[2];  // partial sums: pairs, windows (msm_dev::run_levels)
  DeviceBuffer stage_points_buf_[2], stage_scalars_buf_[2];
  std::optional<Event> slot_ready_[2], slot_free_[2];  // made once the device is set
  bool staged_[2] = {false, false};
  cudaStream_t cs_ = nullptr, copy_ = nullptr;

  size_t pairs_ = 0, scratch_bytes_ = 0;
  unsigned max_levels_ = 0;
};

}  // namespace

template <class C>
DevicePoints<C>::DevicePoints(std::span<const ec::Affine<C>> points, int device)
    : n_(points.size()), device_(device) {
  call(cudaSetDevice(device), "cudaSetDevice (DevicePoints)");
  buf_ = allocate_or_throw(points.size_bytes(), "DevicePoints");
  if (!points.empty()) {
    call(cudaMemcpy(buf_.get(), points.data(), points.size_bytes(), cudaMemcpyHostToDevice),
         "cudaMemcpy (DevicePoints upload)");
    call(cudaDeviceSynchronize(), "cudaDeviceSynchronize (DevicePoints upload)");
  }
}

template <class C>
DevicePoints<C> DevicePoints<C>::repeated(std::span<const ec::Affine<C>> pattern, size_t n, int device) {
  if (pattern.empty() && n) throw std::invalid_argument("cuda::DevicePoints::repeated: empty pattern");
  DevicePoints<C> p(pattern.subspan(0, std::min(pattern.size(), n)), device);
  if (n <= pattern.size()) return p;
  DeviceBuffer all = allocate_or_throw(n * sizeof(ec::Affine<C>), "DevicePoints::repeated");
  call(cudaMemcpy(all.get(), p.buf_.get(), p.buf_.bytes(), cudaMemcpyDeviceToDevice), "cudaMemcpy (repeat)");
  auto* base = static_cast<char*>(all.get());
  for (size_t have = pattern.size(); have < n;) {  // doubling copies
    const size_t len = std::min(have, n - have);
    call(cudaMemcpy(base + have * sizeof(ec::Affine<C>), base, len * sizeof(ec::Affine<C>),
                    cudaMemcpyDeviceToDevice),
         "cudaMemcpy (repeat)");
    have += len;
  }
  p.buf_ = std::move(all);
  p.n_ = n;
  return p;
}

template <class C>
PointSpan<C> PointSpan<C>::resident(const DevicePoints<C>& p, size_t first, size_t count) {
  if (first > p.size()) throw std::invalid_argument("cuda::PointSpan::resident: first beyond the points");
  count = std::min(count, p.size() - first);
  return {p.data() + first, count, true, p.device()};
}

template <class C>
ec::Jacobian<C> msm(std::span<const MsmTerm<C>> terms, const MsmOptions& opt, MsmStats* stats) {
  return Run<C>(terms, opt)(stats);
}

#define CUZK_MSM_INSTANTIATE(C)                                                         \
  template class DevicePoints<C>;                                                       \
  template PointSpan<C> PointSpan<C>::resident(const DevicePoints<C>&, size_t, size_t); \
  template ec::Jacobian<C> msm<C>(std::span<const MsmTerm<C>>, const MsmOptions&, MsmStats*);
CUZK_MSM_INSTANTIATE(ec::G1Curve)
CUZK_MSM_INSTANTIATE(ec::G2Curve)
#undef CUZK_MSM_INSTANTIATE

CUZK_CUDA_NAMESPACE_END
