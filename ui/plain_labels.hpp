#pragma once
// Plain-language labels for the preset fields the panels show ("friction coefficient", not "friction";
// "damping of the normal spring", not "dp nratio"), and which of them are expert settings, shown under
// "Advanced". The tooltip keeps the field's help, its source and the preset key (ui/field_editor.cpp).

#include <string>

namespace lodestone::ui {

// The field's path with list indices left out: "materials[2].kn" -> "materials[].kn".
std::string generic_path(const std::string& path);
// The plain label of a field by its path ("contact.linear.dp_nratio"); the key with spaces when none is set.
std::string plain_label(const std::string& path, const std::string& key);
// True for an expert setting (shown under "Advanced" in the panels).
bool is_advanced(const std::string& path);
// A refusal in the panels' words: "$.field.strength: value ..." becomes "Field, strength: value ..." (the section
// and the label the panels show); so does an undo notice: "undone: field.strength 5 mT -> 30 mT" becomes "undone:
// Field, strength: 5 mT -> 30 mT". A message that does not start with a preset path is returned as it is.
std::string plain_notice(const std::string& message);

}  // namespace lodestone::ui
