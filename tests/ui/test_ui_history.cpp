// The plot history of the desktop app (ui/ui_state.hpp): every series, S(t) of [Dominik-Nubold] eq. 17
// included, stays in step with the time axis when the history thins itself. No ImGui frame, no
// display.

#include "ui/ui_state.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace lodestone;
using namespace lodestone::ui;

TEST_CASE("history: the mean cluster size follows its snapshots through thinning", "[ui]") {
  PlotHistory h;
  Snapshot s;
  const int snapshots = 5000;  // more than twice the capacity: the history halves itself twice
  for (int step = 1; step <= snapshots; ++step) {
    s.step = step;
    s.time = 1e-3 * step;
    s.observables.clusters.mean_cluster_size = 1.0 + 0.5 * step;
    s.observables.particle_contacts = step;
    h.add(s);
  }
  REQUIRE(h.stride == 4);
  REQUIRE(h.time.size() > PlotHistory::kCapacity / 4);
  REQUIRE(h.mean_cluster_size.size() == h.time.size());
  REQUIRE(h.contacts.size() == h.time.size());
  for (size_t k = 0; k < h.time.size(); ++k) {
    // The step of the snapshot kept at k, from its time (float: 1e-3 step is exact to 1e-7 relative).
    const double step = std::round(h.time[k] / 1e-3);
    INFO("point " << k << " at step " << step);
    CHECK(h.mean_cluster_size[k] == Approx(1.0 + 0.5 * step).epsilon(1e-6));  // float storage
    CHECK(h.contacts[k] == Approx(step).epsilon(1e-6));
  }
  CHECK(h.mean_cluster_size.back() > 2000.0f);  // the late snapshots are there, not only the first ones

  // A snapshot with an earlier step (a rewind or a reset) cuts the history back to before it: here all of it.
  s.step = 1;
  s.time = 1e-3;
  s.observables.clusters.mean_cluster_size = 1.0;
  h.add(s);
  REQUIRE(h.mean_cluster_size.size() == 1);
  CHECK(h.mean_cluster_size[0] == 1.0f);
}

TEST_CASE("history: a rewind cuts the plots back to the moment it goes to, and they grow again from there", "[ui]") {
  PlotHistory h;
  Snapshot s;
  auto add = [&](int step) {
    s.step = step;
    s.time = 1e-3 * step;
    s.observables.particle_contacts = step;
    h.add(s);
  };
  for (int step = 1; step <= 100; ++step) add(step);
  REQUIRE(h.time.size() == 100);
  add(40);  // the time slider went back to step 40
  REQUIRE(h.time.size() == 40);
  CHECK(h.contacts.back() == 40.0f);
  CHECK(h.contacts[38] == 39.0f);
  for (int step = 41; step <= 60; ++step) add(step);
  CHECK(h.time.size() == 60);
  CHECK(h.contacts.back() == 60.0f);
}
