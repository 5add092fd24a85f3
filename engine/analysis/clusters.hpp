#pragma once
// Clusters: connected components of particles linked by active particle-particle contacts (seed
// 002 Sec. 3.2-3.3). Per cluster its size, total moment (accretional remanence, eq. 16), and
// whether it is a chain or a ring; over all clusters the size distribution n_s and the mean
// cluster size S of eq. 17, whose growth S ~ t^z (eq. 18) defines the dynamic exponent.
//
// An analysis, not a stage: it reads the state (the contact history beside the Verlet pair list)
// and runs only when observables or snapshots are taken. Union-find over the active contacts,
// O(N + contacts).

#include "engine/analysis/power_law.hpp"
#include "engine/core/state.hpp"

#include <cstdint>
#include <vector>

namespace lodestone {

struct Cluster {
  std::uint64_t label = 0;     // smallest particle id in the cluster: survives reorderings of the arrays
  int size = 0;                // particles
  int contacts = 0;            // active particle-particle contacts inside the cluster
  Vec3 moment = Vec3::Zero();  // [A m^2] sum of the world moments of its particles
  bool chain = false;          // a path: size >= 2, contacts = size - 1, every particle touches at most 2
  bool ring = false;           // a cycle: contacts = size, every particle touches exactly 2
};

struct Clusters {
  std::vector<Cluster> clusters;  // sorted by label; single particles are clusters of size 1
  std::vector<int> cluster_of;    // per particle (dense index): index into `clusters`

  std::uint64_t label_of(size_t particle) const { return clusters[static_cast<size_t>(cluster_of[particle])].label; }
  int size_of(size_t particle) const { return clusters[static_cast<size_t>(cluster_of[particle])].size; }
};

// Finds the clusters of the current contacts. Contacts count when their history is active (for
// the linear law that includes gaps up to rgap, as the force law does).
Clusters find_clusters(const State& state);

// n_s: how many clusters have size s, for the sizes present, ascending.
struct SizeCount {
  int size = 0;
  std::int64_t count = 0;
};
std::vector<SizeCount> size_distribution(const Clusters& clusters);

struct ClusterStatistics {
  std::int64_t clusters = 0;  // all clusters, single particles included
  double mean_cluster_size =
      0.0;  // S = sum s^2 n_s / sum s n_s ([Dominik-Nubold] eq. 17); 1 without contacts, 0 without particles
  std::int64_t chains = 0;           // clusters that are paths (size >= 2)
  double mean_chain_length = 0.0;    // mean size of the chains [particles]; 0 without chains
  std::int64_t rings = 0;            // clusters that are cycles
  std::int64_t largest_cluster = 0;  // [particles]
};
ClusterStatistics cluster_statistics(const Clusters& clusters);

// Accretional remanence ([Dominik-Nubold] eq. 16): |sum m| of each cluster against its size, fitted over
// every cluster of at least two particles (mu ~ s^0.63 in Nubold & Glassmeier; 1 for aligned
// chains, eq. 15). Clusters with zero total moment cannot enter a log-log fit and are counted in
// `skipped`.
PowerLawFit remanence_fit(const Clusters& clusters);

}  // namespace lodestone
