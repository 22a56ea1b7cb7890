#pragma once
// Bucket accumulation by direct scheduling (IFMA kernels only): each entry is
// added straight into its bucket, bucket += entry, in batches of additions
// that share one inversion. A batch may touch a bucket once; an entry whose
// bucket is already in the batch is deferred to the next batch, and one that
// meets a busy bucket again is handed back to the caller (who sums the few
// left-overs with the sorted tree of batch_affine.hpp, which copes with any
// distribution). Every entry is looked at most twice.
//
// Against the sorted tree this drops the counting sort, the segment lists,
// the per-round reference arrays and the result arena: with many buckets
// (2^15 for a 16-bit window) a batch of 2048 rarely meets a busy bucket
// (about 3% of the entries are deferred once), and the entries are read in
// order while the buckets (a few MB) take the random accesses. Narrow windows
// (few buckets) go several at a time, so that a batch still spreads over
// thousands of buckets.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "msm/batch_affine.hpp"
#include "msm/ifma_kernels.hpp"

namespace cuzk::msm::detail {

template <class C>
class BucketScheduler {
 public:
  // Adds every entry e < E whose bucket index |dg[e]| - 1 - lo is below
  // `span` into bk[lo + that index] (negated where dg[e] < 0). Buckets are
  // affine points in the kernel domain, fl[i] (0 or 1) telling whether bk[i]
  // holds a point (an empty one just receives a copy); while a batch is
  // open, bit 1 of fl marks the buckets it touches, and all are 0 or 1
  // again on return. Entries that find their bucket busy twice are appended
  // to `left`, not added.
  //
  // With copies = 2^k > 1 (and lo = 0), bk holds `copies` arrays of `span`
  // buckets and entry e goes to copy e mod copies of its bucket: a window
  // of few buckets behaves like one of many (the caller adds the copies up).
  //
  // `part`: [lo, lo + span) is only part of the window's buckets (the
  // window is split between tasks). The entries of the range are then
  // picked out first, without a branch per entry: of a window split in two,
  // every other entry falls outside at random, and a skip decided in the
  // main loop mispredicted about half the time (the two-thread MSM spent
  // 2.7 times the one-thread CPU time here).
  void run(const Pt<C>* entries, const int32_t* dg, size_t E, uint32_t lo, uint32_t span, Pt<C>* bk,
           uint8_t* fl, size_t batch, std::vector<uint32_t>& left, uint32_t copies = 1, bool part = false) {
    run_impl<false>(entries, dg, E, lo, span, bk, fl, batch, left, copies, part, {});
  }

  // Whole windows w0 .. w0 + n - 1 at once (2 <= n <= kMaxWindows): window
  // w0 + i's digits at dg + i * E, its buckets and flags at bk + offset[i] and
  // fl + offset[i] (offset[0] = 0), span = the most buckets of one of them.
  // The entries are listed window by window for each point, so the jobs of a
  // batch spread over all their buckets, as copies do, but each is a bucket
  // of its own window: nothing to add up afterwards. Entry e of window w0 + i
  // is e << 3 | i here (in `left`).
  static constexpr unsigned kMaxWindows = 8, kWindowBits = 3;
  struct Windows {
    unsigned n = 1;
    uint32_t offset[kMaxWindows] = {};
  };
  void run_windows(const Pt<C>* entries, const int32_t* dg, size_t E, uint32_t span, Pt<C>* bk, uint8_t* fl,
                   size_t batch, std::vector<uint32_t>& left, const Windows& ws) {
    if (E >> (32 - kWindowBits) || ws.n > kMaxWindows)
      throw std::length_error("bucket scheduler: too many entries or windows for one run");
    run_impl<true>(entries, dg, E, 0, span, bk, fl, batch, left, 1, false, ws);
  }

 private:
  template <bool kMulti>
  void run_impl(const Pt<C>* entries, const int32_t* dg, size_t E, uint32_t lo, uint32_t span, Pt<C>* bk,
                uint8_t* fl, size_t batch, std::vector<uint32_t>& left, uint32_t copies, bool part,
                const Windows& ws) {
    const uint32_t copy_mask = copies - 1;
    constexpr unsigned lw = kWindowBits;
    constexpr uint32_t wmask = kMaxWindows - 1;
    const uint32_t nw = ws.n;
    retry_.clear();
    defer_.clear();
    jobs_.clear();
    const uint32_t* order = nullptr;  // the entries to read, when not all
    size_t count = E;
    if (part) {
      in_range_.resize(E);
      count = 0;
      for (size_t e = 0; e < E; e++) {
        const int32_t d = dg[e];
        in_range_[count] = uint32_t(e);
        count += uint32_t(d < 0 ? -d : d) - 1 - lo < span;
      }
      order = in_range_.data();
    }
    size_t next = 0, r = 0;  // the next new entry, the next retry
    uint32_t next_w = 0;     // with several windows: the next new entry's window
    touched_.resize(batch);
    // A batch fills each empty bucket of the range at most once.
    fills_.resize(size_t(span) * (kMulti ? nw : copies));
    for (;;) {
      // The batch is filled with everything it writes in locals: fl is a byte
      // pointer, and its stores may alias any member, so members would be
      // reloaded after each one.
      ifma::JobList::Appender jw = jobs_.appender(batch);
      uint32_t* const touched = touched_.data();
      size_t nt = 0;
      Fill* const fills = fills_.data();
      size_t nf = 0;
      const uint32_t* const retry = retry_.data();
      const size_t nretry = retry_.size();
      while (jw.n < batch) {  // (the list is empty between batches)
        uint32_t e;
        bool again = r < nretry;
        if (again) e = retry[r++];
        else if (next < count) {
          if constexpr (kMulti) {
            e = uint32_t(next) << lw | next_w;
            if (++next_w == nw) {
              next_w = 0;
              next++;
            }
          } else {
            e = order ? order[next++] : uint32_t(next++);
          }
        } else {
          break;
        }
        // e: the entry as listed; x: the point's index.
        uint32_t x = e, i0 = 0;
        const int32_t* dw = dg;
        if constexpr (kMulti) {
          x = e >> lw;
          dw = dg + size_t(e & wmask) * E;
          i0 = ws.offset[e & wmask];
        }
        const int32_t d = dw[x];
        const uint32_t b = uint32_t(d < 0 ? -d : d) - 1 - lo;  // wraps for d == 0 or below lo
        if (b >= span) continue;
        const uint32_t i = i0 + lo + b + span * (e & copy_mask);
        const uint8_t st = fl[i];
        Pt<C>* dst = bk + i;
        if (st == kFilled) [[likely]] {
          fl[i] = kFilled | kBusy;
          touched[nt++] = i;
          jw.push(reinterpret_cast<const uint64_t*>(dst), reinterpret_cast<const uint64_t*>(entries + x),
                  reinterpret_cast<uint64_t*>(dst), d < 0 ? ifma::NEG_B : 0);
        } else if (st & kBusy) {
          (again ? left : defer_).push_back(e);
        } else {  // an empty bucket: its copy waits for fill_buckets()
          fills[nf++] = {i, make_ref<C>(entries + x, d < 0)};
          fl[i] = kFilled;
        }
      }
      jobs_.commit(jw);
      fill_buckets(bk, fills, nf);
      if (jobs_.size() == 0) break;  // input and retries exhausted (nothing deferred without a job)
      flush(fl, nt);
      // What this batch deferred goes after the retries not yet looked at.
      if (r == retry_.size()) {
        retry_.swap(defer_);
        r = 0;
      } else {
        retry_.insert(retry_.end(), defer_.begin(), defer_.end());
      }
      defer_.clear();
    }
  }

  static constexpr uint8_t kFilled = 1, kBusy = 2;

  // An empty bucket's first point, copied before the batch's additions (one
  // of which may read the bucket). Copied in the listing loop, each such
  // bucket (not touched since the last MSM) was a cache miss waited for, a
  // tenth of the scheduling's time in a 2^18 Filecoin-like G1 MSM; here the
  // copies' lines are fetched some ahead, many at once.
  struct Fill {
    uint32_t bucket;
    Ref src;
  };
  static void fill_buckets(Pt<C>* bk, const Fill* fills, size_t n) {
    constexpr size_t kAhead = 8;
    for (size_t k = 0; k < n; k++) {
      if (k + kAhead < n) {
        const Fill& f = fills[k + kAhead];
        prefetch_pt(ref_ptr<C>(f.src));
        const char* d = reinterpret_cast<const char*>(bk + f.bucket);
        __builtin_prefetch(d, 1);
        __builtin_prefetch(d + sizeof(Pt<C>) - 1, 1);
      }
      store(bk + fills[k].bucket, fills[k].src);
    }
  }

  // Runs the batch's jobs; nt = their count, their buckets in touched_.
  void flush(uint8_t* fl, size_t nt) {
    const size_t n = jobs_.size();
    jobs_.pad();
    for (size_t j = 0; j < nt; j++) fl[touched_[j]] = kFilled;
    ifma_add_jobs<C>(jobs_, 0, n, dbl_, special_, [&](size_t j) { fl[touched_[j]] = 0; });
    jobs_.clear();
  }

  ifma::JobList jobs_, dbl_;
  std::vector<uint32_t> touched_;  // the bucket of each job of the open batch (its first entries)
  std::vector<Fill> fills_;        // the open batch's empty buckets and their first points
  std::vector<uint32_t> retry_, defer_, special_;
  std::vector<uint32_t> in_range_;  // a part's entries (run with part = true)
};

}  // namespace cuzk::msm::detail
