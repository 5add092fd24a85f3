#pragma once
// Where the programs find the presets that ship with Lodestone. Installed (cmake --install), they are in
// <prefix>/share/lodestone/presets, found from the running executable (<prefix>/bin/lodestone-run ->
// ../share/lodestone/presets), so an installed program never reads the source tree; a program in the build tree
// has no such directory beside it and uses the source tree's presets/, whose path its build compiled in.

#include <string>

namespace lodestone {

// <dir of the running executable>/../share/lodestone/presets when that directory exists, else "".
std::string installed_presets_directory();
// The presets of this program: installed_presets_directory() when it exists, else `build_tree_directory` when
// that exists, else "".
std::string presets_directory(const std::string& build_tree_directory);
// A PRESET argument: a path to an existing file is kept; a bare name without a directory part ("two-dipoles" or
// "two-dipoles.json") that is no file here becomes the preset of that name in presets_directory() when there is
// one; anything else is kept as it is (the loader then says it cannot open it).
std::string resolve_preset_argument(const std::string& argument, const std::string& build_tree_directory);

}  // namespace lodestone
