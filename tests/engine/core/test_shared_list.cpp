// The list that copies of a preset share until one is changed (engine/core/shared_list.hpp).

#include "engine/core/preset.hpp"
#include "engine/core/shared_list.hpp"

#include <catch2/catch.hpp>

#include <thread>

using namespace lodestone;

TEST_CASE("shared list: copies share the items until one of them is changed", "[core]") {
  SharedList<int> a{1, 2, 3};
  SharedList<int> b = a;
  CHECK(b.shares_items_with(a));
  CHECK(&b.items() == &a.items());  // nothing was copied

  b[1] = 20;  // a write: b takes its own copy first
  CHECK_FALSE(b.shares_items_with(a));
  CHECK(a.items() == std::vector<int>{1, 2, 3});
  CHECK(b.items() == std::vector<int>{1, 20, 3});

  a.push_back(4);  // a was copied from once: it copies too, and b keeps what it had
  CHECK(a.items() == std::vector<int>{1, 2, 3, 4});
  CHECK(b.items() == std::vector<int>{1, 20, 3});

  // A list nobody copied from is changed in place.
  const int* before = b.items().data();
  b[0] = 10;
  CHECK(b.items().data() == before);

  // Writing through iterators copies as well.
  SharedList<int> c = b;
  for (int& x : c) x = 0;
  CHECK(c.items() == std::vector<int>{0, 0, 0});
  CHECK(b.items() == std::vector<int>{10, 20, 3});

  // Assigning a list shares it; assigning a vector gives a list of its own.
  c = b;
  CHECK(c.shares_items_with(b));
  c = std::vector<int>{7};
  CHECK(c.items() == std::vector<int>{7});
  CHECK(b.items() == std::vector<int>{10, 20, 3});

  SharedList<int> empty;
  CHECK(empty.empty());
  CHECK(empty.size() == 0);
  empty.clear();
  CHECK(empty.items().empty());
}

TEST_CASE("shared list: a copied preset does not see an edit of the other's listed particles", "[core]") {
  Preset document;
  ParticleEntry e;
  e.position = Vec3(1e-3, 0, 0);
  document.particles.particles = {e, e};
  const Preset published = document;  // what the simulation thread hands to the window
  CHECK(published.particles.particles.shares_items_with(document.particles.particles));

  document.particles.particles[1].position = Vec3(2e-3, 0, 0);
  document.particles.particles.push_back(e);
  CHECK(published.particles.particles.size() == 2);
  CHECK(published.particles.particles[1].position == Vec3(1e-3, 0, 0));
  CHECK(document.particles.particles.size() == 3);
  CHECK(document.particles.particles[1].position == Vec3(2e-3, 0, 0));
}

TEST_CASE("shared list: copies made on other threads while the owner reads", "[core][threading]") {
  // The published copy is copied again on the window's thread while the simulation thread keeps the original;
  // both mark the shared flag (atomic). Run under ThreadSanitizer by the threading tests.
  SharedList<int> original(std::vector<int>(1000, 1));
  const SharedList<int>& published = original;
  long sum_seen = 0;
  std::thread reader([&] {
    for (int k = 0; k < 200; ++k) {
      const SharedList<int> copy = published;
      sum_seen += copy[static_cast<size_t>(k)];
    }
  });
  long sum_here = 0;
  for (int k = 0; k < 200; ++k) {
    const SharedList<int> copy = published;
    sum_here += copy.size() > 0 ? copy[0] : 0;
  }
  reader.join();
  CHECK(sum_seen == 200);
  CHECK(sum_here == 200);
  original[0] = 5;  // after the copies are gone: the flag says shared, so it copies (harmless) and changes its own
  CHECK(original[0] == 5);
}
