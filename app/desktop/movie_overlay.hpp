#pragma once
// What a movie of the 3-D view carries over the scene (ui/recording.hpp, RecordSettings): a title at the
// top left, the simulated time at the bottom left and the colour legend at the bottom right, painted on
// each frame with QPainter before it is written.

#include "engine/live/snapshot.hpp"
#include "render/colors.hpp"
#include "ui/recording.hpp"

#include <QImage>

namespace lodestone::desktop {

void paint_movie_overlay(QImage& frame, const ui::RecordSettings& settings, const Snapshot& snapshot,
                         const render::ColorScale& legend);

}  // namespace lodestone::desktop
