#include "engine/core/state_hash.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <numeric>

namespace lodestone {
namespace {

struct Fnv1a {
  std::uint64_t value = 0xcbf29ce484222325ull;
  void add(std::uint64_t word) {
    for (int byte = 0; byte < 8; ++byte) {
      value ^= (word >> (8 * byte)) & 0xffu;
      value *= 0x100000001b3ull;
    }
  }
  void add(double x) { add(std::bit_cast<std::uint64_t>(x)); }
  void add(const Vec3& v) {
    add(v.x());
    add(v.y());
    add(v.z());
  }
};

}  // namespace

std::uint64_t state_hash(const State& state) {
  const Particles& p = state.particles;
  std::vector<size_t> order(p.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&p](size_t a, size_t b) { return p.id[a] < p.id[b]; });
  Fnv1a h;
  for (size_t i : order) {
    h.add(p.id[i]);
    h.add(p.position[i]);
    h.add(p.velocity[i]);
    const Quat& q = p.orientation[i];
    h.add(q.w());
    h.add(q.x());
    h.add(q.y());
    h.add(q.z());
  }
  return h.value;
}

std::string hash_hex(std::uint64_t hash) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

}  // namespace lodestone
