#pragma once
// Editors built from the preset field table (engine/scene/preset_schema.cpp): the same declaration that
// parses and documents a field gives its panel widget, unit, allowed range and tooltip. Values
// are shown in the preset's display units (field, length, pressure) and converted at this edge.
// A typed value is committed when the user finishes editing (Enter or focus lost); a value out of
// range is refused and the range is shown under the field.

#include "engine/core/parameters.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/scene/schema.hpp"

#include <map>
#include <string>
#include <vector>

namespace lodestone::ui {

using FieldErrors = std::map<std::string, std::string>;

// The unit a quantity is shown in: lodestone::display_unit (engine/scene/preset_io.hpp), also used in messages.
// The plain label of a field by its path ("contact.linear.dp_nratio" -> "damping of the normal spring";
// ui/plain_labels.hpp), else the key with spaces ("youngs_modulus" -> "youngs modulus").
std::string field_label(const std::string& path, const std::string& key);
// A field's tooltip: its help (with its source), then the preset key it edits.
std::string field_tooltip(const std::string& help, const std::string& path);
// A tooltip for the item just drawn, wrapped to a readable width (ImGui keeps tooltips on screen).
void wrapped_tooltip(const std::string& text);
// A note in the dimmed text colour, wrapped to the panel's width (never clipped by a narrow side bar).
void note(const std::string& text);

struct EditorContext {
  const DisplayUnits& units;
  FieldErrors& errors;
  // The dotted preset paths of the values changed this frame (ui/ui_state.hpp, send_parameters sends them).
  std::vector<std::string>& changed;
};

// A widget id as the dotted preset path it edits: "materials[0].friction" -> "materials.0.friction".
std::string dotted_path_of(const std::string& id);
// Notes that the value at `path` (a dotted preset path, or a widget id) changed: it is sent with the frame's edit.
void note_change(EditorContext& context, const std::string& path);

bool edit_real(const std::string& id, const std::string& label, double& value, Quantity q, const Range& range,
               const std::string& help, EditorContext& context);
bool edit_optional_real(const std::string& id, const std::string& label, std::optional<double>& value, Quantity q,
                        const Range& range, const std::string& unset_word, const std::string& help,
                        EditorContext& context);
bool edit_integer(const std::string& id, const std::string& label, int& value, const Range& range,
                  const std::string& help, EditorContext& context);
bool edit_unsigned(const std::string& id, const std::string& label, std::uint64_t& value, const std::string& help);
bool edit_boolean(const std::string& id, const std::string& label, bool& value, const std::string& help);
bool edit_text(const std::string& id, const std::string& label, std::string& value, const std::string& help);
bool edit_choice(const std::string& id, const std::string& label, int& value, const std::vector<std::string>& choices,
                 const std::string& help);
bool edit_direction(const std::string& id, const std::string& label, Vec3& value, const std::string& help,
                    EditorContext& context);
bool edit_vector(const std::string& id, const std::string& label, Vec3& value, Quantity q, const std::string& help,
                 EditorContext& context);
bool edit_matrix(const std::string& id, const std::string& label, Mat3& value, Quantity q, const std::string& help,
                 EditorContext& context);

// Edits one field of `object` by its declaration. Returns true when the value changed.
template <class S>
bool edit_field(const FieldSpec<S>& f, S& object, const std::string& id_prefix, EditorContext& context) {
  void* address = f.address(object);
  const std::string id = id_prefix + "." + f.key;
  const std::string label = field_label(id, f.key);
  const std::string help = field_tooltip(f.help, id);
  bool changed = false;
  switch (f.kind) {
    case FieldKind::Real:
      changed = edit_real(id, label, *static_cast<double*>(address), f.quantity, f.range, help, context);
      break;
    case FieldKind::OptionalReal:
      changed = edit_optional_real(id, label, *static_cast<std::optional<double>*>(address), f.quantity, f.range,
                                   f.unset_word, help, context);
      break;
    case FieldKind::Integer:
      changed = edit_integer(id, label, *static_cast<int*>(address), f.range, help, context);
      break;
    case FieldKind::Unsigned: changed = edit_unsigned(id, label, *static_cast<std::uint64_t*>(address), help); break;
    case FieldKind::Boolean: changed = edit_boolean(id, label, *static_cast<bool*>(address), help); break;
    case FieldKind::Text: changed = edit_text(id, label, *static_cast<std::string*>(address), help); break;
    case FieldKind::Choice: changed = edit_choice(id, label, *static_cast<int*>(address), f.choices, help); break;
    case FieldKind::ChoiceList: break;  // the preset's view: written by a save, not edited in a panel
    case FieldKind::Direction: changed = edit_direction(id, label, *static_cast<Vec3*>(address), help, context); break;
    case FieldKind::Vector3:
      changed = edit_vector(id, label, *static_cast<Vec3*>(address), f.quantity, help, context);
      break;
    case FieldKind::Matrix3:
      changed = edit_matrix(id, label, *static_cast<Mat3*>(address), f.quantity, help, context);
      break;
    case FieldKind::Object:
    case FieldKind::OptionalObject:
    case FieldKind::ObjectList: break;  // panels walk into nested objects themselves
    case FieldKind::JsonObject:
      break;  // a protocol phase's changes are written in the preset file, not edited in a panel
  }
  if (changed) note_change(context, id);
  return changed;
}

// Throws std::logic_error: a panel asked for `key` under `id_prefix`, and the schema declares only `declared`.
[[noreturn]] void throw_unknown_key(const std::string& key, const std::string& id_prefix,
                                    const std::vector<std::string>& declared);

// Edits the field `key` of `object`. A key that `schema` does not declare is a panel's mistake (a typo would
// otherwise draw nothing, silently): it throws std::logic_error naming the key and the declared ones.
template <class S>
bool edit_key(const Schema<S>& schema, const std::string& key, S& object, const std::string& id_prefix,
              EditorContext& context) {
  for (const auto& f : schema)
    if (f.key == key) return edit_field(f, object, id_prefix, context);
  std::vector<std::string> declared;
  for (const auto& f : schema) declared.push_back(f.key);
  throw_unknown_key(key, id_prefix, declared);
}

}  // namespace lodestone::ui
