#pragma once
// The scene gallery's thumbnails (ui/gallery.hpp) as OpenGL textures for ImGui: read from their PNG files the first
// time the gallery is open, kept while the view lives. The ui library draws them by id and never touches OpenGL.

#include "ui/ui_state.hpp"

namespace lodestone::desktop {

// With the view's GL context current: a texture for every preset's thumbnail not yet in
// state.thumbnail_textures (0 for a file that cannot be read, so that it is tried once).
void load_thumbnail_textures(ui::UiState& state);
// With the same context current: deletes them all.
void release_thumbnail_textures(ui::UiState& state);

}  // namespace lodestone::desktop
