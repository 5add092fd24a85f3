#pragma once
// Which particles a run of a pair list names, as at most two bands of indices (engine/core/thread_team.hpp's pair
// loops clear and add a part's own force arrays over these bands only).
//
// A Verlet list in cell order (ordered by i, j > i) names particles near its i's, except the partners across the
// periodic faces of the axis the cells run along last, which lie near the other end of the arrays: counted in one
// band they stretched the first parts' bands to the end (a rehearsal of workload (a) 100k on 16 threads: 30-40 % more
// time in those parts, docs/performance.md). So the member of a pair more than n / 2 above the other goes into a band
// of its own.
//
// Finding the bands reads the pairs, about 1 ns a pair: 5-7 % of the dipole pass when every part read its pairs for
// it each step. The bands are minima and maxima, so those of a run are those of its pieces put together: the lists
// keep them per chunk of kPairBandChunk pairs (PairListBands, made with the list), and a part reads only the pairs
// at its ends that do not fill a chunk.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lodestone {

// The particles whose forces a part of a pair loop may change: a band [lo, hi) and a second one [far_lo, far_hi),
// empty unless far_lo < far_hi, above the first and apart from it (a periodic list's partners across the faces).
struct ParticleWindow {
  size_t lo = 0, hi = 0;
  size_t far_lo = 0, far_hi = 0;
};

// Calls fn(lo, hi) for each band of w within [from, to), the lower first.
template <class Fn>
void for_each_band(const ParticleWindow& w, size_t from, size_t to, Fn&& fn) {
  if (std::max(from, w.lo) < std::min(to, w.hi)) fn(std::max(from, w.lo), std::min(to, w.hi));
  if (std::max(from, w.far_lo) < std::min(to, w.far_hi)) fn(std::max(from, w.far_lo), std::min(to, w.far_hi));
}

// The extremes of a run of pairs over n particles: the lower members' least index (lo), the greatest index of a
// member in the near band (near_hi: the upper member of a pair, or the lower one when the pair is far), and the
// least and greatest upper member of the far pairs (far_lo, far_hi). Empty: lo > near_hi.
struct PairBands {
  std::int64_t lo = INT64_MAX, near_hi = -1;
  std::int64_t far_lo = INT64_MAX, far_hi = -1;

  void add(std::int64_t i, std::int64_t j, std::int64_t half) {
    const std::int64_t a = std::min(i, j), b = std::max(i, j);
    const bool far = b - a > half;
    lo = std::min(lo, a);
    near_hi = std::max(near_hi, far ? a : b);
    far_lo = std::min(far_lo, far ? b : far_lo);
    far_hi = std::max(far_hi, far ? b : far_hi);
  }
  void add(const PairBands& o) {
    lo = std::min(lo, o.lo);
    near_hi = std::max(near_hi, o.near_hi);
    far_lo = std::min(far_lo, o.far_lo);
    far_hi = std::max(far_hi, o.far_hi);
  }
  // One band, unless the far band lies apart from the near one.
  ParticleWindow window() const {
    if (lo > near_hi) return {};
    if (far_hi < 0 || far_lo <= near_hi + 1)
      return {static_cast<size_t>(lo), static_cast<size_t>(std::max(near_hi, far_hi)) + 1};
    return {static_cast<size_t>(lo), static_cast<size_t>(near_hi) + 1, static_cast<size_t>(far_lo),
            static_cast<size_t>(far_hi) + 1};
  }
};

// The bands of the pairs [begin, end) (anything with members i and j: IndexPair, engine/core/state.hpp) over n
// particles, read pair by pair.
template <class Pair>
PairBands bands_of_pairs(const Pair* pairs, size_t begin, size_t end, size_t n) {
  const auto half = static_cast<std::int64_t>(n / 2);
  PairBands bands;
  for (size_t k = begin; k < end; ++k) bands.add(pairs[k].i, pairs[k].j, half);
  return bands;
}

template <class Pair>
ParticleWindow pair_list_window(const Pair* pairs, size_t begin, size_t end, size_t n) {
  return bands_of_pairs(pairs, begin, end, n).window();
}

// Pairs per chunk of PairListBands: a part reads at most twice this many pairs to find its window.
inline constexpr size_t kPairBandChunk = 512;

// The bands of a whole list of `pairs` pairs over `particles` particles, chunk by chunk, as of the list's build
// `build` (NeighborLists::builds): only a list of that build, length and particle count may use them.
struct PairListBands {
  std::uint64_t build = 0;
  size_t particles = 0, pairs = 0;
  std::vector<PairBands> chunks;  // chunk c: pairs [c kPairBandChunk, (c + 1) kPairBandChunk)

  static size_t chunks_for(size_t list_pairs) { return (list_pairs + kPairBandChunk - 1) / kPairBandChunk; }
  // Empty chunks for a list, to be filled by summarise_pair_bands.
  void reset(std::uint64_t list_build, size_t list_particles, size_t list_pairs) {
    build = list_build;
    particles = list_particles;
    pairs = list_pairs;
    chunks.assign(chunks_for(list_pairs), PairBands{});
  }
  bool describes(std::uint64_t list_build, size_t list_particles, size_t list_pairs) const {
    return build == list_build && particles == list_particles && pairs == list_pairs &&
           chunks.size() == chunks_for(pairs);
  }
};

// The chunks [chunk_begin, chunk_end) of `out` (reset for the list) from the list's pairs.
template <class Pair>
void summarise_pair_bands(const Pair* pairs, size_t chunk_begin, size_t chunk_end, PairListBands& out) {
  for (size_t c = chunk_begin; c < chunk_end; ++c)
    out.chunks[c] =
        bands_of_pairs(pairs, c * kPairBandChunk, std::min(out.pairs, (c + 1) * kPairBandChunk), out.particles);
}

// The window of the pairs [begin, end) from the chunks they fill and the pairs of the chunks they cut: the same
// window as pair_list_window reads pair by pair.
template <class Pair>
ParticleWindow pair_list_window(const PairListBands& bands, const Pair* pairs, size_t begin, size_t end) {
  if (begin >= end) return {};
  const size_t first_whole = (begin + kPairBandChunk - 1) / kPairBandChunk, end_whole = end / kPairBandChunk;
  if (first_whole >= end_whole) return pair_list_window(pairs, begin, end, bands.particles);
  PairBands sum = bands_of_pairs(pairs, begin, first_whole * kPairBandChunk, bands.particles);
  for (size_t c = first_whole; c < end_whole; ++c) sum.add(bands.chunks[c]);
  sum.add(bands_of_pairs(pairs, end_whole * kPairBandChunk, end, bands.particles));
  return sum.window();
}

// The window of [begin, end) from `bands` where given, else read from the pairs (over n particles).
template <class Pair>
ParticleWindow pair_list_window(const PairListBands* bands, const Pair* pairs, size_t begin, size_t end, size_t n) {
  return bands != nullptr ? pair_list_window(*bands, pairs, begin, end) : pair_list_window(pairs, begin, end, n);
}

}  // namespace lodestone
