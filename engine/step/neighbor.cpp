#include "engine/step/neighbor.hpp"

#include "engine/bodies/clumps.hpp"
#include "engine/magnetic/dipole_kernel.hpp"  // positions_in_periodic_box
#include "engine/magnetic/periodic_systems.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace lodestone {
namespace {

std::uint64_t pair_key(std::uint64_t a, std::uint64_t b) {
  if (a > b) std::swap(a, b);
  return (a << 32) ^ b;  // ids below 2^32 map one to one; larger ids still hash well
}

struct CellGrid {
  Vec3 origin = Vec3::Zero();
  Vec3 width = Vec3::Ones();
  std::array<int, 3> count{1, 1, 1};
  std::array<bool, 3> periodic{false, false, false};

  // In double until the end: a particle far outside the grid (or at a non-finite position) must not
  // overflow the int (found by fuzzing a checkpoint, docs/reliability.md).
  int cell_coordinate(double x, int axis) const {
    double c = std::floor((x - origin[axis]) / width[axis]);
    const double n = count[axis];
    if (periodic[axis]) c -= n * std::floor(c / n);
    if (!(c >= 0.0)) return 0;  // particles outside the grid go to the edge cells (NaN: the first)
    return static_cast<int>(std::min(c, n - 1.0));
  }
  int index(int cx, int cy, int cz) const { return (cz * count[1] + cy) * count[0] + cx; }
  int total() const { return count[0] * count[1] * count[2]; }
};

CellGrid make_grid(const Model& model, const Particles& p, double cell_size) {
  CellGrid g;
  const size_t n = p.size();
  const double max_cells = 8.0 * static_cast<double>(n) + 64.0;
  for (int a = 0; a < 3; ++a) {
    g.periodic[a] = model.periodic_length[a] > 0.0;
    double lo, hi;
    if (g.periodic[a]) {
      lo = model.box.min[a];
      hi = model.box.max[a];
    } else {
      lo = INFINITY;
      hi = -INFINITY;
      for (size_t i = 0; i < n; ++i) {
        lo = std::min(lo, p.position[i][a]);
        hi = std::max(hi, p.position[i][a]);
      }
      if (!(hi > lo)) hi = lo + cell_size;
    }
    g.origin[a] = lo;
    // At most max_cells per axis before the cast: particles 1e40 cell sizes apart (an escaped particle, a
    // damaged checkpoint) would overflow the int; the loop below coarsens the grid anyway. NaN: one cell.
    const double cells = std::floor((hi - lo) / cell_size);
    g.count[a] = cells >= 2.0 ? static_cast<int>(std::min(cells, max_cells)) : 1;
    g.width[a] = g.periodic[a] ? (hi - lo) / g.count[a] : std::max(cell_size, (hi - lo) / g.count[a]);
  }
  // A sparse scene spread over a large region would otherwise allocate far more cells than particles.
  while (static_cast<double>(g.count[0]) * g.count[1] * g.count[2] > max_cells) {
    for (int a = 0; a < 3; ++a) {
      if (g.count[a] == 1) continue;
      const double extent = g.width[a] * g.count[a];
      g.count[a] = std::max(1, g.count[a] / 2);
      g.width[a] = extent / g.count[a];
    }
  }
  return g;
}

// The (deduplicated) 27 cells around cell c; fewer than 3 cells on a periodic axis wrap onto themselves.
std::vector<int> neighbour_cells(const CellGrid& grid, int c) {
  const int cx = c % grid.count[0], cy = (c / grid.count[0]) % grid.count[1], cz = c / (grid.count[0] * grid.count[1]);
  std::vector<int> out;
  out.reserve(27);
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        int q[3] = {cx + dx, cy + dy, cz + dz};
        bool inside = true;
        for (int a = 0; a < 3; ++a) {
          if (grid.periodic[a])
            q[a] = (q[a] + grid.count[a]) % grid.count[a];
          else if (q[a] < 0 || q[a] >= grid.count[a])
            inside = false;
        }
        if (inside) out.push_back(grid.index(q[0], q[1], q[2]));
      }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Particles per thread below which a rebuild stays on one thread.
constexpr size_t kNeighborGrain = 1000;
// Chunks of the dipole list's bands (engine/core/pair_bands.hpp) per thread: some 30 000 pairs.
constexpr size_t kBandChunkGrain = 64;

// Particles per part of the binning and the reordering (moves and cell lookups, a few nanoseconds each).
constexpr size_t kBinningGrain = 16384;

// Moves the `per` records of particle order[k] to those of index k, split over the team.
template <class T>
void move_records(std::vector<T>& records, const std::vector<int>& order, size_t per, ThreadTeam& team) {
  std::vector<T> moved(records.size());
  for_each_range(team, order.size(), kBinningGrain, [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k)
      for (size_t r = 0; r < per; ++r) moved[per * k + r] = records[per * static_cast<size_t>(order[k]) + r];
  });
  records.swap(moved);
}

// Moves particle order[k] to index k, with everything the state keeps per particle index; the moves split over the
// team (each writes its own index: the same result).
void reorder_particles(State& state, const std::vector<int>& order, ThreadTeam& team) {
  state.particles.permute(order, team);
  const size_t n = order.size();
  if (state.wall_history.size() == 6 * n) {
    move_records(state.wall_history, order, 6, team);
    if (state.wall_law.size() == 6 * n) move_records(state.wall_law, order, 6, team);
    if (state.wall_active.size() == n)
      move_records(state.wall_active, order, 1, team);
    else
      mark_active_walls(state);
  }
  DipoleHistory& dipoles = state.dipole_history;  // the extrapolation's stored passes (force_interval > 1)
  for (std::vector<Vec3>* per_particle : {&state.damping_force, &state.damping_torque, &dipoles.force_previous,
                                          &dipoles.force_last, &dipoles.torque_previous, &dipoles.torque_last})
    if (per_particle->size() == n) move_records(*per_particle, order, 1, team);
}

// Keep the history of active contacts, keyed by the (id, id) pair, with the id of the body the
// record calls "first" (the pair's order by index can change when particles are reordered).
struct Carried {
  std::uint64_t first_id = 0;
  ContactHistory history;
  LawState law;  // empty when the law keeps none
};
using CarriedHistories = std::unordered_map<std::uint64_t, Carried>;

CarriedHistories carry_active_histories(const NeighborLists& lists, const Particles& p) {
  const size_t n = p.size();
  CarriedHistories carried;
  for (size_t k = 0; k < lists.contact_pairs.size(); ++k) {
    const ContactHistory& h = lists.contact_history[k];
    const IndexPair pr = lists.contact_pairs[k];
    if (h.active && static_cast<size_t>(std::max(pr.i, pr.j)) < n)
      carried.emplace(
          pair_key(p.id[static_cast<size_t>(pr.i)], p.id[static_cast<size_t>(pr.j)]),
          Carried{p.id[static_cast<size_t>(pr.i)], h,
                  lists.contact_law.size() == lists.contact_history.size() ? lists.contact_law[k] : LawState{}});
  }
  return carried;
}

// The particles sorted by cell: cell c holds sorted[start[c]] to sorted[start[c + 1] - 1].
struct CellSort {
  CellGrid grid;
  std::vector<int> cell_of;  // per particle index
  std::vector<int> start;    // cells + 1
  std::vector<int> sorted;   // particle indices, cell by cell
};

// Counting sort of particle indices by cell; large scenes are then reordered in place into cell order. Each particle's
// cell is found on the team; the counting, a few integer operations a particle, stays on one thread.
CellSort sort_into_cells(const Model& model, State& state, double cell_size, ThreadTeam& team) {
  const Particles& p = state.particles;
  const size_t n = p.size();
  CellSort cells;
  cells.grid = make_grid(model, p, cell_size);
  const CellGrid& grid = cells.grid;
  std::vector<int>& cell_of = cells.cell_of;
  std::vector<int>& start = cells.start;
  std::vector<int>& sorted = cells.sorted;
  cell_of.resize(n);
  for_each_range(team, n, kBinningGrain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const Vec3& x = p.position[i];
      cell_of[i] =
          grid.index(grid.cell_coordinate(x[0], 0), grid.cell_coordinate(x[1], 1), grid.cell_coordinate(x[2], 2));
    }
  });
  start.assign(static_cast<size_t>(grid.total()) + 1, 0);
  for (size_t i = 0; i < n; ++i) ++start[static_cast<size_t>(cell_of[i]) + 1];
  for (size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
  sorted.resize(n);
  {
    std::vector<int> fill(start.begin(), start.end() - 1);
    for (size_t i = 0; i < n; ++i)
      sorted[static_cast<size_t>(fill[static_cast<size_t>(cell_of[i])]++)] = static_cast<int>(i);
  }
  if (n >= kSpatialSortMinParticles) {
    std::vector<int> cell_in_order(n);
    for_each_range(team, n, kBinningGrain, [&](size_t begin, size_t end) {
      for (size_t k = begin; k < end; ++k) cell_in_order[k] = cell_of[static_cast<size_t>(sorted[k])];
    });
    cell_of.swap(cell_in_order);
    reorder_particles(state, sorted, team);
    std::iota(sorted.begin(), sorted.end(), 0);
  }
  return cells;
}

// How far the lists reach: a contact pair within Ri + Rj + contact_extra, a dipole pair within the dipole range.
struct ListRanges {
  double contact_extra = 0.0;
  bool dipoles = false;
  double dipole_range_sq = 0.0;
  double reach = 0.0;  // the longest of them: 2 max radius + contact_extra, or the dipole range
};

// Along which periodic axes a particle's candidates need the minimum image. With every position in the box, a particle
// farther than `reach` (the longest pair range) from both faces of an axis needs none along it: a partner within reach
// lies beside it in the box, where the image would change nothing to the bit (round(d / L) = 0), and a candidate
// beyond the box's half length is out of reach at either image. The image's three divisions were most of the list
// build's time per candidate (as in the dipole kernel, engine/magnetic/dipole_kernel.cpp).
struct ImageBands {
  double length[3], inner_min[3], inner_max[3];
  ImageBands(const Model& model, double reach, bool positions_in_box) {
    const double margin = reach * (1.0 + 1e-9);  // rounding in a separation cannot bring an image within reach
    for (int a = 0; a < 3; ++a) {
      length[a] = model.periodic_length[a];
      const bool periodic = length[a] > 0.0;
      inner_min[a] = !periodic ? -INFINITY : positions_in_box ? model.box.min[a] + margin : INFINITY;
      inner_max[a] = !periodic ? INFINITY : positions_in_box ? model.box.min[a] + length[a] - margin : -INFINITY;
    }
  }
  // Bit a: axis a needs the image for the particle at x.
  int axes_to_image(const Vec3& x) const {
    return static_cast<int>(!((x[0] > inner_min[0]) & (x[0] < inner_max[0]))) |
           static_cast<int>(!((x[1] > inner_min[1]) & (x[1] < inner_max[1]))) << 1 |
           static_cast<int>(!((x[2] > inner_min[2]) & (x[2] < inner_max[2]))) << 2;
  }
  // xi - xj at the minimum image along the axes in ImageAxes, as minimum_image computes it.
  template <int ImageAxes>
  Vec3 separation(const Vec3& xi, const Vec3& xj) const {
    Vec3 d = xi - xj;
    if constexpr ((ImageAxes & 1) != 0) d[0] -= length[0] * round_to_integer(d[0] / length[0]);
    if constexpr ((ImageAxes & 2) != 0) d[1] -= length[1] * round_to_integer(d[1] / length[1]);
    if constexpr ((ImageAxes & 4) != 0) d[2] -= length[2] * round_to_integer(d[2] / length[2]);
    return d;
  }
};

// The search for the pairs of a range of particles i: every j > i in the cells around i's, within contact or dipole
// range. Set up once per build; each part searches with a copy of its own (the copy holds its scratch).
class PairSearch {
 public:
  PairSearch(const Model& model, const Particles& p, const CellSort& cells, const ListRanges& ranges)
      : p_(p),
        cells_(cells),
        bands_(model, ranges.reach,
               positions_in_periodic_box(p.position.data(), p.size(), model.box.min, model.periodic_length)),
        in_cell_order_(p.size() >= kSpatialSortMinParticles),  // sort_into_cells reordered them
        clumps_(std::any_of(p.clump.begin(), p.clump.end(), [](int k) { return k >= 0; })),
        contact_extra_(ranges.contact_extra),
        dipole_limit_(ranges.dipoles ? ranges.dipole_range_sq : -1.0) {}

  // Appends the pairs (i, j) of i in [begin, end), by i and each i's partners in order.
  void run(size_t begin, size_t end, std::vector<IndexPair>& contacts_out, std::vector<IndexPair>& dipoles_out);

 private:
  // The cells around c whose particles may be partners j > i, and room for all of them as partners.
  void look_around(int c);
  // Writes the partners of i among the cells around it into contact_j_ and dipole_j_; returns how many of each.
  template <int ImageAxes>
  std::pair<size_t, size_t> partners_of(size_t i);

  const Particles& p_;
  const CellSort& cells_;
  const ImageBands bands_;
  const bool in_cell_order_, clumps_;
  const double contact_extra_, dipole_limit_;  // dipole_limit_ < 0: no dipole list
  std::vector<int> neighbours_;                // cells around the current cell, deduplicated
  int neighbours_of_ = -1;
  // The current particle's partners, as long as its candidates: written through pointers without a branch (the slot
  // is taken when the test holds), since push_back's checks, the compiler's reloads of everything through the vectors
  // and the tests' unpredictable branches were most of the loop.
  std::vector<int> contact_j_, dipole_j_;
};

void PairSearch::look_around(int c) {
  neighbours_ = neighbour_cells(cells_.grid, c);
  // Particles in cell order (large scenes): a cell before i's holds only j < i.
  if (in_cell_order_) std::erase_if(neighbours_, [c](int nc) { return nc < c; });
  neighbours_of_ = c;
  size_t most = 0;
  for (int nc : neighbours_) most += static_cast<size_t>(cells_.start[nc + 1] - cells_.start[nc]);
  if (most > contact_j_.size()) {
    contact_j_.resize(most);
    dipole_j_.resize(most);
  }
}

template <int ImageAxes>
std::pair<size_t, size_t> PairSearch::partners_of(size_t i) {
  const Vec3* position = p_.position.data();
  const double* radius = p_.radius.data();
  const int* first = cells_.start.data();
  const int* order = cells_.sorted.data();
  int* contact_out = contact_j_.data();
  int* dipole_out = dipole_j_.data();
  const Vec3 xi = position[i];
  const double ri = radius[i];
  size_t contacts = 0, dipoles = 0;
  for (int nc : neighbours_)
    for (int t = first[nc]; t < first[nc + 1]; ++t) {
      const int j = order[t];
      if (j <= static_cast<int>(i)) continue;                              // each pair once
      if (clumps_ && same_clump(p_, i, static_cast<size_t>(j))) continue;  // rigid: no inner forces
      const Vec3 d = bands_.separation<ImageAxes>(xi, position[j]);
      const double rsq = d.squaredNorm();
      const double contact_range = ri + radius[j] + contact_extra_;
      contact_out[contacts] = j;
      contacts += static_cast<size_t>(rsq < contact_range * contact_range);
      dipole_out[dipoles] = j;
      dipoles += static_cast<size_t>(rsq < dipole_limit_);
    }
  return {contacts, dipoles};
}

void PairSearch::run(size_t begin, size_t end, std::vector<IndexPair>& contacts_out,
                     std::vector<IndexPair>& dipoles_out) {
  for (size_t i = begin; i < end; ++i) {
    const int c = cells_.cell_of[i];
    if (c != neighbours_of_) look_around(c);
    std::pair<size_t, size_t> found;
    switch (bands_.axes_to_image(p_.position[i])) {
      case 0: found = partners_of<0>(i); break;
      case 1: found = partners_of<1>(i); break;
      case 2: found = partners_of<2>(i); break;
      case 3: found = partners_of<3>(i); break;
      case 4: found = partners_of<4>(i); break;
      case 5: found = partners_of<5>(i); break;
      case 6: found = partners_of<6>(i); break;
      default: found = partners_of<7>(i); break;
    }
    const auto [contacts, dipoles] = found;
    // In cell order they come sorted already (cells in order, each cell's particles in order).
    const auto ii = static_cast<int>(i);
    for (auto [js, count, out] : {std::tuple{contact_j_.data(), contacts, &contacts_out},
                                  std::tuple{dipole_j_.data(), dipoles, &dipoles_out}}) {
      if (!std::is_sorted(js, js + count)) std::sort(js, js + count);
      for (size_t k = 0; k < count; ++k) out->push_back({ii, js[k]});
    }
  }
}

// Appends the parts' pairs to `list` in part order, each part copying its own on the team (the list grown once):
// appended on one thread, the copy was what stayed serial of a rebuild ((a) 100k's dipole list is 26 MB).
void append_on_team(ThreadTeam& team, std::vector<IndexPair>& list, const std::vector<std::vector<IndexPair>>& parts) {
  if (parts.empty()) return;
  std::vector<size_t> at(parts.size() + 1, list.size());
  for (size_t k = 0; k < parts.size(); ++k) at[k + 1] = at[k] + parts[k].size();
  list.resize(at.back());
  team.run(static_cast<int>(parts.size()), [&](int k) {
    const std::vector<IndexPair>& part = parts[static_cast<size_t>(k)];
    std::copy(part.begin(), part.end(), list.begin() + static_cast<std::ptrdiff_t>(at[static_cast<size_t>(k)]));
  });
}

// Pairs (i, j > i) by i in index order, each i's partners sorted: the lists come out ordered by
// (i, j) whatever the grid, and the threads' shares (ranges of i) join end to end.
// Part 0 writes into the lists themselves, the others into their own vectors appended after it (a
// copy of the whole list would double the largest array of a dipolar scene while it is built).
void find_pairs(const Model& model, const Particles& p, const CellSort& cells, const ListRanges& ranges,
                ThreadTeam& team, NeighborLists& lists) {
  const size_t n = p.size();
  const int parts = parts_for(team, n, kNeighborGrain);
  const std::vector<size_t> bounds = split_evenly(n, parts);
  std::vector<std::vector<IndexPair>> contacts(static_cast<size_t>(parts) - 1), dipoles(static_cast<size_t>(parts) - 1);
  const size_t previous_contacts = lists.contact_pairs.capacity(), previous_dipoles = lists.dipole_pairs.capacity();
  const PairSearch search(model, p, cells, ranges);
  team.run(parts, [&](int part) {
    const auto k = static_cast<size_t>(part);
    std::vector<IndexPair>& contacts_out = part == 0 ? lists.contact_pairs : contacts[k - 1];
    std::vector<IndexPair>& dipoles_out = part == 0 ? lists.dipole_pairs : dipoles[k - 1];
    if (part > 0) {  // about this part's share of the last lists
      contacts_out.reserve(previous_contacts / static_cast<size_t>(parts) + 16);
      dipoles_out.reserve(previous_dipoles / static_cast<size_t>(parts) + 16);
    }
    PairSearch own = search;
    own.run(bounds[k], bounds[k + 1], contacts_out, dipoles_out);
  });
  append_on_team(team, lists.contact_pairs, contacts);
  append_on_team(team, lists.dipole_pairs, dipoles);
}

// The carried histories back onto the pairs still listed, each record's bodies in its pair's order.
void restore_histories(const CarriedHistories& carried, const Particles& p, ThreadTeam& team, NeighborLists& lists) {
  const bool laws = !lists.contact_law.empty();  // the law keeps states: they follow their records
  lists.contact_history.assign(lists.contact_pairs.size(), ContactHistory{});
  lists.contact_active.assign(lists.contact_pairs.size(), 0);
  if (laws) lists.contact_law.assign(lists.contact_pairs.size(), LawState{});
  if (!carried.empty()) {
    for_each_range(team, lists.contact_pairs.size(), kNeighborGrain, [&](size_t begin, size_t end) {
      for (size_t k = begin; k < end; ++k) {
        const IndexPair pr = lists.contact_pairs[k];
        auto it = carried.find(pair_key(p.id[static_cast<size_t>(pr.i)], p.id[static_cast<size_t>(pr.j)]));
        if (it == carried.end()) continue;
        ContactHistory& h = lists.contact_history[k];
        h = it->second.history;
        const bool swapped = it->second.first_id != p.id[static_cast<size_t>(pr.i)];
        if (swapped) swap_bodies(h);
        if (laws) {
          lists.contact_law[k] = it->second.law;
          if (swapped) swap_bodies(lists.contact_law[k]);
        }
        lists.contact_active[k] = h.active;
      }
    });
  }
}

}  // namespace

void build_neighbor_lists(const Model& model, State& state, ThreadTeam& team) {
  const Particles& p = state.particles;  // reordered in place below for large scenes
  NeighborLists& lists = state.neighbors;
  const size_t n = p.size();
  const CarriedHistories carried = carry_active_histories(lists, p);

  lists.contact_pairs.clear();
  lists.dipole_pairs.clear();
  const double skin = model.skin;
  const double contact_extra = model.contact_reach + skin;                // beyond Ri + Rj
  const std::optional<double> dipole_cutoff = dipole_list_cutoff(model);  // cutoff method, or P3M's real space
  const bool dipoles = dipole_cutoff.has_value();
  const double dipole_range = dipole_cutoff.value_or(0.0) + skin;
  const double dipole_range_sq = dipole_range * dipole_range;
  double cell_size = 2.0 * model.max_radius + contact_extra;
  if (dipoles) cell_size = std::max(cell_size, dipole_range);

  if (n > 0) {
    const CellSort cells = sort_into_cells(model, state, cell_size, team);
    find_pairs(model, p, cells, ListRanges{contact_extra, dipoles, dipole_range_sq, cell_size}, team, lists);
  }

  restore_histories(carried, p, team, lists);
  lists.reference_position.resize(n);
  for_each_range(team, n, kBinningGrain, [&](size_t begin, size_t end) {
    std::copy(p.position.begin() + static_cast<std::ptrdiff_t>(begin),
              p.position.begin() + static_cast<std::ptrdiff_t>(end),
              lists.reference_position.begin() + static_cast<std::ptrdiff_t>(begin));
  });
  lists.valid = true;
  ++lists.builds;
  lists.dipole_bands.reset(lists.builds, n, lists.dipole_pairs.size());
  for_each_range(team, lists.dipole_bands.chunks.size(), kBandChunkGrain, [&](size_t begin, size_t end) {
    summarise_pair_bands(lists.dipole_pairs.data(), begin, end, lists.dipole_bands);
  });
}

bool same_list_ranges(const Model& a, const Model& b) {
  return a.skin == b.skin && a.contact_reach == b.contact_reach && a.max_radius == b.max_radius &&
         dipole_list_cutoff(a) == dipole_list_cutoff(b) && a.box.min == b.box.min && a.box.max == b.box.max &&
         a.periodic_length == b.periodic_length;
}

bool refresh_neighbor_lists(const Model& model, State& state, ThreadTeam& team) {
  NeighborLists& lists = state.neighbors;
  const Particles& p = state.particles;
  bool rebuild = !lists.valid || lists.reference_position.size() != p.size();
  if (!rebuild) {
    // Each part looks at its own particles; any one that moved too far rebuilds (the answer does not depend on
    // the split). Up to 16 parts a thread, as the integration's (engine/step/integrator.cpp: a thread waiting out
    // the other's last part past its poll pays a wake-up; 100 000 particles on two threads: 222 -> 153 µs a step).
    const double limit_sq = 0.25 * model.skin * model.skin;
    // A displacement within the limit is shorter than half of every box length, where the minimum image leaves it
    // unchanged to the bit: only one beyond it (or a particle wrapped across a face) needs the image and its three
    // divisions, which were most of this sweep. With a skin that long (never in practice) every particle takes it.
    double shortest = INFINITY;
    for (int a = 0; a < 3; ++a)
      if (model.periodic_length[a] > 0.0) shortest = std::min(shortest, model.periodic_length[a]);
    const bool image_beyond_limit_only = limit_sq < 0.24 * shortest * shortest;
    constexpr size_t kGrain = 4096;
    const std::vector<char> moved = results_of_parts<char>(
        team, p.size(), kGrain,
        [&](size_t begin, size_t end) {
          for (size_t i = begin; i < end; ++i) {
            const Vec3 d = p.position[i] - lists.reference_position[i];
            if ((!image_beyond_limit_only || d.squaredNorm() > limit_sq) &&
                minimum_image(model, d).squaredNorm() > limit_sq)
              return char{1};
          }
          return char{0};
        },
        16);
    rebuild = std::find(moved.begin(), moved.end(), char{1}) != moved.end();
  }
  if (rebuild) build_neighbor_lists(model, state, team);
  return rebuild;
}

}  // namespace lodestone
