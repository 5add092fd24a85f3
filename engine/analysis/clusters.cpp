#include "engine/analysis/clusters.hpp"

#include <algorithm>
#include <numeric>

namespace lodestone {
namespace {

// Union-find with union by size and path halving: near-constant time per operation, so the
// whole pass is linear in particles + contacts.
class DisjointSets {
 public:
  explicit DisjointSets(size_t n) : parent_(n), size_(n, 1) { std::iota(parent_.begin(), parent_.end(), 0); }
  int find(int i) {
    while (parent_[static_cast<size_t>(i)] != i) {
      int& up = parent_[static_cast<size_t>(i)];
      up = parent_[static_cast<size_t>(up)];
      i = up;
    }
    return i;
  }
  void unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (size_[static_cast<size_t>(a)] < size_[static_cast<size_t>(b)]) std::swap(a, b);
    parent_[static_cast<size_t>(b)] = a;
    size_[static_cast<size_t>(a)] += size_[static_cast<size_t>(b)];
  }

 private:
  std::vector<int> parent_;
  std::vector<int> size_;
};

// Unites the two particles of every active contact and counts the contact in both their degrees.
void join_contacts(const NeighborLists& lists, DisjointSets& sets, std::vector<int>& degree) {
  const size_t pairs = std::min(lists.contact_pairs.size(), lists.contact_history.size());
  for (size_t k = 0; k < pairs; ++k) {
    if (!lists.contact_history[k].active) continue;
    const IndexPair& pair = lists.contact_pairs[k];
    ++degree[static_cast<size_t>(pair.i)];
    ++degree[static_cast<size_t>(pair.j)];
    sets.unite(pair.i, pair.j);
  }
}

// The pebbles of a rigid clump (engine/bodies/clumps.hpp) are one body: one cluster, without contacts of their own.
void join_clump_pebbles(const State& state, DisjointSets& sets) {
  const Particles& p = state.particles;
  const size_t n = p.size();
  std::vector<int> first_pebble(state.clumps.size(), -1);
  for (size_t i = 0; i < n; ++i) {
    const int c = p.clump[i];
    if (c < 0) continue;
    int& first = first_pebble[static_cast<size_t>(c)];
    if (first < 0)
      first = static_cast<int>(i);
    else
      sets.unite(first, static_cast<int>(i));
  }
}

// One cluster per root, in order of first appearance; degrees summed and their extremes kept to
// classify the shape afterwards.
struct Shape {
  int degree_sum = 0, min_degree = 0, max_degree = 0;
};

// Each cluster's contacts and whether it is a chain or a ring, from its size and the degrees of its particles.
void classify_shapes(std::vector<Cluster>& clusters, const std::vector<Shape>& shapes) {
  for (size_t k = 0; k < clusters.size(); ++k) {
    Cluster& c = clusters[k];
    const Shape& shape = shapes[k];
    c.contacts = shape.degree_sum / 2;  // each contact adds one to the degree of both ends
    // Connected with s - 1 contacts is a tree; a tree with no branch point is a path.
    c.chain = c.size >= 2 && c.contacts == c.size - 1 && shape.max_degree <= 2;
    // Connected with every degree 2 is a single cycle (then contacts = size; checked anyway).
    c.ring = c.size >= 3 && c.contacts == c.size && shape.min_degree == 2 && shape.max_degree == 2;
  }
}

// The clusters of the united sets, unsorted: size, label, moment and shape of each.
Clusters gather_clusters(const Particles& p, DisjointSets& sets, const std::vector<int>& degree) {
  const size_t n = p.size();
  Clusters out;
  std::vector<Shape> shapes;
  std::vector<int> slot_of_root(n, -1);
  out.cluster_of.resize(n);
  out.clusters.reserve(n);  // at most one cluster per particle; no reallocation in the loop
  shapes.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const auto root = static_cast<size_t>(sets.find(static_cast<int>(i)));
    const int d = degree[i];
    if (slot_of_root[root] < 0) {
      slot_of_root[root] = static_cast<int>(out.clusters.size());
      Cluster c;
      c.label = p.id[i];
      out.clusters.push_back(c);
      shapes.push_back({0, d, d});
    }
    const auto slot = static_cast<size_t>(slot_of_root[root]);
    out.cluster_of[i] = static_cast<int>(slot);
    Cluster& c = out.clusters[slot];
    Shape& shape = shapes[slot];
    ++c.size;
    c.label = std::min(c.label, p.id[i]);
    c.moment += p.moment[i];
    shape.degree_sum += d;
    shape.min_degree = std::min(shape.min_degree, d);
    shape.max_degree = std::max(shape.max_degree, d);
  }
  classify_shapes(out.clusters, shapes);
  return out;
}

// The cluster slots in label order, for reordered scenes: the generators number particles 0 .. N-1, so the labels
// index a bucket array (linear); a comparison sort of 19k labels cost more than the rest of the pass (measured at 20k
// particles). Labels beyond the bucket array's reach: a comparison sort.
std::vector<int> label_order(const std::vector<Cluster>& clusters, size_t n) {
  std::vector<int> order;  // slots in label order
  order.reserve(clusters.size());
  std::uint64_t max_label = 0;
  for (const Cluster& c : clusters) max_label = std::max(max_label, c.label);
  if (max_label < 4 * static_cast<std::uint64_t>(n) + 64) {
    std::vector<int> slot_of_label(static_cast<size_t>(max_label) + 1, -1);
    for (size_t k = 0; k < clusters.size(); ++k) slot_of_label[clusters[k].label] = static_cast<int>(k);
    for (int slot : slot_of_label)
      if (slot >= 0) order.push_back(slot);
  } else {
    std::vector<std::pair<std::uint64_t, int>> keyed(clusters.size());
    for (size_t k = 0; k < keyed.size(); ++k) keyed[k] = {clusters[k].label, static_cast<int>(k)};
    std::sort(keyed.begin(), keyed.end());
    for (const auto& key : keyed) order.push_back(key.second);
  }
  return order;
}

// Puts cluster order[k] at slot k and renumbers cluster_of to match.
void permute_clusters(Clusters& out, const std::vector<int>& order) {
  std::vector<int> new_index(order.size());
  for (size_t k = 0; k < order.size(); ++k) new_index[static_cast<size_t>(order[k])] = static_cast<int>(k);
  // Moved in place along the permutation's cycles: a sorted copy (48 bytes a cluster, 100 000
  // singletons at the start of a suspension) was the largest transient of a run's last report.
  std::vector<char> placed(order.size(), 0);
  for (size_t start = 0; start < order.size(); ++start) {
    if (placed[start]) continue;
    Cluster first = out.clusters[start];
    size_t k = start;
    for (auto from = static_cast<size_t>(order[k]); from != start; from = static_cast<size_t>(order[k])) {
      out.clusters[k] = out.clusters[from];
      placed[k] = 1;
      k = from;
    }
    out.clusters[k] = first;
    placed[k] = 1;
  }
  for (int& c : out.cluster_of) c = new_index[static_cast<size_t>(c)];
}

// Sorted by label, so that the output order does not depend on the particle order in memory.
// Scenes kept in id order (below kSpatialSortMinParticles) come out sorted already.
void sort_by_label(Clusters& out, size_t n) {
  const auto by_label = [](const Cluster& a, const Cluster& b) { return a.label < b.label; };
  if (std::is_sorted(out.clusters.begin(), out.clusters.end(), by_label)) return;
  permute_clusters(out, label_order(out.clusters, n));
}

}  // namespace

Clusters find_clusters(const State& state) {
  const Particles& p = state.particles;
  const size_t n = p.size();
  DisjointSets sets(n);
  std::vector<int> degree(n, 0);
  join_contacts(state.neighbors, sets, degree);
  join_clump_pebbles(state, sets);
  Clusters out = gather_clusters(p, sets, degree);
  sort_by_label(out, n);
  return out;
}

std::vector<SizeCount> size_distribution(const Clusters& clusters) {
  int largest = 0;
  for (const Cluster& c : clusters.clusters) largest = std::max(largest, c.size);
  std::vector<std::int64_t> count(static_cast<size_t>(largest) + 1, 0);
  for (const Cluster& c : clusters.clusters) ++count[static_cast<size_t>(c.size)];
  std::vector<SizeCount> out;
  for (size_t s = 1; s < count.size(); ++s)
    if (count[s] > 0) out.push_back({static_cast<int>(s), count[s]});
  return out;
}

ClusterStatistics cluster_statistics(const Clusters& clusters) {
  ClusterStatistics out;
  double sum_s = 0.0, sum_s2 = 0.0, chain_particles = 0.0;
  for (const Cluster& c : clusters.clusters) {
    const auto s = static_cast<double>(c.size);
    ++out.clusters;
    sum_s += s;
    sum_s2 += s * s;
    out.largest_cluster = std::max<std::int64_t>(out.largest_cluster, c.size);
    if (c.chain) {
      ++out.chains;
      chain_particles += s;
    }
    if (c.ring) ++out.rings;
  }
  // Eq. 17 sums over sizes with weights n_s; summing over the clusters themselves is the same sum.
  if (sum_s > 0.0) out.mean_cluster_size = sum_s2 / sum_s;
  if (out.chains > 0) out.mean_chain_length = chain_particles / static_cast<double>(out.chains);
  return out;
}

PowerLawFit remanence_fit(const Clusters& clusters) {
  std::vector<double> size, moment;
  for (const Cluster& c : clusters.clusters) {
    if (c.size < 2) continue;
    size.push_back(static_cast<double>(c.size));
    moment.push_back(c.moment.norm());
  }
  return fit_power_law(size, moment);
}

}  // namespace lodestone
