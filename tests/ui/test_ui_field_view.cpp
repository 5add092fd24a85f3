#include <catch2/catch.hpp>
// The field view's colour range (ui/ui_state.hpp FieldViewTool): fitted once, then only widened, so that a colour
// means the same |B| from one update to the next; fitted anew after the slice changes or a scene loads.

#include "engine/live/snapshot.hpp"
#include "ui/preset_view.hpp"
#include "ui/ui_state.hpp"

#include <memory>

using namespace lodestone;
using namespace lodestone::ui;

namespace {

// A snapshot that answers field view request `request` with |B| between low and high [T].
Snapshot answer(std::uint64_t request, float low, float high) {
  Snapshot s;
  auto view = std::make_shared<FieldView>();
  view->low = low;
  view->high = high;
  s.field_view = view;
  s.field_view_request = request;
  return s;
}

}  // namespace

TEST_CASE("field view: the colour range is fitted to the first answer, then only widens", "[ui]") {
  UiState state;
  hold_field_range(state, answer(1, 1e-3f, 1e-1f));
  CHECK(state.view.field_low == 1e-3f);
  CHECK(state.view.field_high == 1e-1f);
  // A narrower field a moment later keeps the range; a wider one widens it at either end.
  hold_field_range(state, answer(2, 2e-3f, 5e-2f));
  CHECK(state.view.field_low == 1e-3f);
  CHECK(state.view.field_high == 1e-1f);
  hold_field_range(state, answer(3, 5e-4f, 2e-1f));
  CHECK(state.view.field_low == 5e-4f);
  CHECK(state.view.field_high == 2e-1f);
}

TEST_CASE("field view: a change of the slice fits the range to the answer of the next request", "[ui]") {
  UiState state;
  hold_field_range(state, answer(1, 1e-3f, 1e-1f));
  state.field_view.refit_at_request = 3;             // as update_field_view sets it for a changed slice
  hold_field_range(state, answer(2, 5e-3f, 9e-2f));  // asked before the change: only widens
  CHECK(state.view.field_low == 1e-3f);
  hold_field_range(state, answer(3, 5e-3f, 9e-2f));  // the new slice's answer: the range follows it
  CHECK(state.view.field_low == 5e-3f);
  CHECK(state.view.field_high == 9e-2f);
  CHECK(state.field_view.refit_at_request == 0);
}

TEST_CASE("field view: a load re-centres the slice and forgets the colour range, the plots start afresh", "[ui]") {
  UiState state;
  Snapshot s;
  s.step = 5;
  state.history.add(s);
  REQUIRE_FALSE(state.history.time.empty());
  state.field_view.at = 0.004;
  state.field_view.at_set = true;
  state.field_view.settings_changed = false;
  hold_field_range(state, answer(1, 1e-3f, 1e-1f));
  apply_preset_view(state, Preset{}, true);
  CHECK_FALSE(state.field_view.at_set);
  CHECK(state.field_view.settings_changed);
  CHECK(state.view.field_high == 0.0f);
  CHECK(state.history.time.empty());
}

TEST_CASE("plots: asking for a load that is then refused keeps the plots of the scene kept", "[ui]") {
  UiState state;
  Snapshot s;
  s.step = 5;
  state.history.add(s);
  const CommandSink ignore = [](Command) {};  // the simulation thread that would refuse it never answers here
  load_preset(state, std::string(LODESTONE_SOURCE_DIR) + "/presets/two-dipoles.json", ignore);
  REQUIRE_FALSE(state.notice_is_error);  // the file itself reads: the load was sent
  CHECK_FALSE(state.history.time.empty());
}
