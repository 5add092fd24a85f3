#pragma once
// Every mouse and key control of the desktop app, once: the Help window (F1) and `lodestone --help` list
// these.

#include <string>
#include <utility>

namespace lodestone::ui {

inline constexpr std::pair<const char*, const char*> kControls[] = {
    {"left drag", "turn the view around the scene"},
    {"wheel", "zoom toward the point under the cursor"},
    {"right drag, shift + left drag", "move the view sideways (pan)"},
    {"click a sphere", "select it and show its values (Inspector)"},
    {"double-click a sphere", "centre the view on it"},
    {"Ctrl + left drag on a sphere", "pull it toward the cursor on a spring (let go to release)"},
    {"click (add tool on)", "add a particle or magnet there (Hands on panel)"},
    {"F", "frame all the particles (and follow them again)"},
    {"Shift + F", "frame the selected particle's cluster"},
    {"R", "reset the view to the scene's own"},
    {"space", "run or pause"},
    {"Tab", "hide or show the side bar (drag its right edge to resize it)"},
    {"Esc", "close the scene gallery; else clear the selection (and the add tool)"},
    {"Delete", "remove the selected particle or magnet"},
    {"Ctrl + Z", "undo the last change"},
    {"Ctrl + Shift + Z, Ctrl + Y", "redo it"},
    {"F1", "this list of controls"},
    {"Ctrl + O", "open a preset (or drop a .json file on the window)"},
    {"Ctrl + Shift + S", "save the scene as a preset (with its view)"},
    {"Ctrl + E", "export the current frame"},
    {"F12", "save a screenshot"},
    {"Ctrl + R", "start or stop recording a movie"},
    {"Ctrl + Q", "quit"},
};

// The list as plain text, one control a line ("  F      frame all ..."), for --help.
inline std::string controls_text() {
  std::string text;
  for (const auto& [key, what] : kControls) {
    std::string k = key;
    if (k.size() < 30) k.resize(30, ' ');
    text += "  " + k + " " + what + "\n";
  }
  return text;
}

}  // namespace lodestone::ui
