#pragma once
// A plot of one quantity against simulated time, drawn with ImGui's draw list (Debian has no ImPlot): time
// on the x axis and the value on the y axis, each with ticks and values; hovering shows the time and value
// under the cursor; a "Save CSV" button writes the plotted points (time, value) to a file, atomically.

#include "ui/ui_state.hpp"

#include <string>
#include <vector>

namespace lodestone::ui {

struct TimePlot {
  const char* title;   // "kinetic energy [J]"
  const char* column;  // the CSV column and hover name: "kinetic_J"
  const char* help;    // tooltip: what it is and how to read it
  const char* file;    // Save CSV writes this file name ("plot-kinetic.csv") in the working directory
};

// Draws the plot across the window's width; lo..hi is the value range shown. Save CSV reports to the notice.
void time_plot(const TimePlot& plot, const std::vector<float>& time, const std::vector<float>& values, float lo,
               float hi, UiState& state);
// "Nice" tick values covering lo..hi (1, 2 or 5 times a power of ten apart), at most `most` of them.
std::vector<double> nice_ticks(double lo, double hi, int most);
// The CSV text of a plot: a header "time_s,<column>" and one row per point, full float precision.
std::string plot_csv(const std::string& column, const std::vector<float>& time, const std::vector<float>& values);

// The line under the alignment plot: tau_0.95 in this phase, "already aligned" when it was reached at the phase's
// first step (a rotating field's chain starts along the field: 3.6e-6 s read as a time), or not reached yet.
std::string alignment_time_text(double alignment_time, double alignment, double time_step);
// True when some magnetic material's moment can turn away from its easy axis (Stoner-Wohlfarth, induced): only
// then does the angle psi of the moment to its axis say something (a rigid dipole's is 0 or 180 deg only by
// which pole is nearer the field, and jumped as the axes turned past 90 deg).
bool moments_can_turn(const Snapshot& snapshot);

}  // namespace lodestone::ui
