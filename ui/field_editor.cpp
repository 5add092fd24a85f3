#include "ui/field_editor.hpp"

#include "engine/scene/unit_values.hpp"
#include "ui/plain_labels.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace lodestone::ui {
namespace {

void tooltip(const std::string& help) {
  wrapped_tooltip(help);
}

std::string with_unit(const std::string& label, const std::string& unit) {
  return unit.empty() ? label : label + " [" + unit + "]";
}

void show_error(const std::string& id, const FieldErrors& errors) {
  const auto it = errors.find(id);
  if (it != errors.end()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", it->second.c_str());
}

std::string range_text(const Range& range, Quantity q, const DisplayUnits& units) {
  // The range in the unit shown.
  Range shown = range;
  if (std::isfinite(range.lo)) shown.lo = si_to_shown(range.lo, q, units);
  if (std::isfinite(range.hi)) shown.hi = si_to_shown(range.hi, q, units);
  const std::string unit = shown_unit(q, units);
  return shown.text() + (unit.empty() ? "" : " " + unit);
}

// ImGui ids: everything after "##" is the id, invisible.
std::string widget(const std::string& label, const std::string& id) {
  return label + "##" + id;
}

// A framed widget's label (input, combo, slider): on its right when it fits beside the item, else on a line of
// its own above a widget as wide as the panel, so that a narrow side bar never clips a label.
std::string framed(const std::string& label, const std::string& id) {
  const float room = ImGui::GetContentRegionAvail().x - ImGui::CalcItemWidth() - ImGui::GetStyle().ItemInnerSpacing.x;
  if (ImGui::CalcTextSize(label.c_str()).x <= room) return widget(label, id);
  ImGui::TextWrapped("%s", label.c_str());  // wrapped: it may follow a checkbox on the same line
  ImGui::SetNextItemWidth(-FLT_MIN);
  return "##" + id;
}

}  // namespace

void throw_unknown_key(const std::string& key, const std::string& id_prefix, const std::vector<std::string>& declared) {
  std::string message = "edit_key: no field '" + key + "' under '" + id_prefix + "'; the schema declares ";
  for (size_t k = 0; k < declared.size(); ++k) message += (k == 0 ? "" : ", ") + declared[k];
  throw std::logic_error(message);
}

std::string dotted_path_of(const std::string& id) {
  std::string out;
  for (char c : id) {
    if (c == '[')
      out += '.';
    else if (c != ']')
      out += c;
  }
  return out;
}

void note_change(EditorContext& context, const std::string& path) {
  const std::string dotted = dotted_path_of(path);
  if (std::find(context.changed.begin(), context.changed.end(), dotted) == context.changed.end())
    context.changed.push_back(dotted);
}

std::string field_label(const std::string& path, const std::string& key) {
  return plain_label(path, key);
}

std::string field_tooltip(const std::string& help, const std::string& path) {
  return help + (help.empty() ? "" : "\n\n") + "Preset key: " + generic_path(path);
}

void note(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

void wrapped_tooltip(const std::string& text) {
  if (text.empty() || !ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

bool edit_real(const std::string& id, const std::string& label, double& value, Quantity q, const Range& range,
               const std::string& help, EditorContext& context) {
  double shown = si_to_shown(value, q, context.units);
  ImGui::InputDouble(framed(with_unit(label, shown_unit(q, context.units)), id).c_str(), &shown, 0.0, 0.0, "%.6g");
  tooltip(help);
  bool changed = false;
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    const double si = shown_to_si(shown, q, context.units);
    if (std::isfinite(si) && range.contains(si)) {
      changed = si != value;
      value = si;
      context.errors.erase(id);
    } else {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%.6g", shown);
      context.errors[id] = std::string("refused ") + buffer + ": allowed " + range_text(range, q, context.units);
    }
  }
  show_error(id, context.errors);
  return changed;
}

bool edit_optional_real(const std::string& id, const std::string& label, std::optional<double>& value, Quantity q,
                        const Range& range, const std::string& unset_word, const std::string& help,
                        EditorContext& context) {
  bool unset = !value.has_value();
  bool changed = false;
  if (ImGui::Checkbox(widget(unset_word, id + ".unset").c_str(), &unset)) {
    changed = true;
    if (unset) {
      value.reset();
    } else {
      // Start from a value in range: the low end, or 1 SI unit.
      value = std::isfinite(range.lo) && range.lo > 0.0 ? range.lo : (range.contains(1.0) ? 1.0 : range.lo);
    }
  }
  tooltip(help);
  ImGui::SameLine();
  if (value) {
    changed |= edit_real(id, label, *value, q, range, help, context);
  } else {
    note(label + ": " + unset_word);
  }
  return changed;
}

bool edit_integer(const std::string& id, const std::string& label, int& value, const Range& range,
                  const std::string& help, EditorContext& context) {
  int shown = value;
  ImGui::InputInt(framed(label, id).c_str(), &shown);
  tooltip(help);
  bool changed = false;
  if (ImGui::IsItemDeactivatedAfterEdit() || (shown != value && !ImGui::IsItemActive())) {
    if (range.contains(shown)) {
      changed = shown != value;
      value = shown;
      context.errors.erase(id);
    } else {
      context.errors[id] = "refused " + std::to_string(shown) + ": allowed " + range.text();
    }
  }
  show_error(id, context.errors);
  return changed;
}

bool edit_unsigned(const std::string& id, const std::string& label, std::uint64_t& value, const std::string& help) {
  std::uint64_t shown = value;
  ImGui::InputScalar(framed(label, id).c_str(), ImGuiDataType_U64, &shown);
  tooltip(help);
  if (ImGui::IsItemDeactivatedAfterEdit() && shown != value) {
    value = shown;
    return true;
  }
  return false;
}

bool edit_boolean(const std::string& id, const std::string& label, bool& value, const std::string& help) {
  const bool changed = ImGui::Checkbox(widget(label, id).c_str(), &value);
  tooltip(help);
  return changed;
}

bool edit_text(const std::string& id, const std::string& label, std::string& value, const std::string& help) {
  std::string shown = value;
  ImGui::InputText(framed(label, id).c_str(), &shown);
  tooltip(help);
  if (ImGui::IsItemDeactivatedAfterEdit() && shown != value) {
    value = shown;
    return true;
  }
  return false;
}

bool edit_choice(const std::string& id, const std::string& label, int& value, const std::vector<std::string>& choices,
                 const std::string& help) {
  bool changed = false;
  const char* current =
      value >= 0 && static_cast<size_t>(value) < choices.size() ? choices[static_cast<size_t>(value)].c_str() : "?";
  if (ImGui::BeginCombo(framed(label, id).c_str(), current)) {
    for (size_t i = 0; i < choices.size(); ++i) {
      const bool selected = static_cast<int>(i) == value;
      if (ImGui::Selectable(choices[i].c_str(), selected) && !selected) {
        value = static_cast<int>(i);
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  tooltip(help);
  return changed;
}

bool edit_direction(const std::string& id, const std::string& label, Vec3& value, const std::string& help,
                    EditorContext& context) {
  bool changed = false;
  ImGui::TextUnformatted(label.c_str());
  tooltip(help);
  ImGui::SameLine();
  const struct {
    const char* name;
    Vec3 axis;
  } axes[] = {{"+x", Vec3::UnitX()}, {"+y", Vec3::UnitY()}, {"+z", Vec3::UnitZ()}, {"-z", -Vec3::UnitZ()}};
  for (const auto& a : axes) {
    if (ImGui::SmallButton(widget(a.name, id + a.name).c_str())) {
      changed = value != a.axis;
      value = a.axis;
    }
    ImGui::SameLine();
  }
  ImGui::NewLine();
  // Angles: polar from +z, azimuth from +x in the xy plane.
  float polar = static_cast<float>(std::acos(std::clamp(value.z(), -1.0, 1.0)) * 180.0 / pi);
  float azimuth = static_cast<float>(std::atan2(value.y(), value.x()) * 180.0 / pi);
  bool angles = ImGui::SliderFloat(framed("polar angle [deg]", id + ".polar").c_str(), &polar, 0.0f, 180.0f, "%.1f");
  angles |= ImGui::SliderFloat(framed("azimuth [deg]", id + ".azimuth").c_str(), &azimuth, -180.0f, 180.0f, "%.1f");
  if (angles) {
    const double t = polar * pi / 180.0, f = azimuth * pi / 180.0;
    value = Vec3(std::sin(t) * std::cos(f), std::sin(t) * std::sin(f), std::cos(t));
    changed = true;
  }
  (void)context;
  return changed;
}

bool edit_vector(const std::string& id, const std::string& label, Vec3& value, Quantity q, const std::string& help,
                 EditorContext& context) {
  const DisplayUnits& units = context.units;
  double shown[3] = {si_to_shown(value.x(), q, units), si_to_shown(value.y(), q, units),
                     si_to_shown(value.z(), q, units)};
  ImGui::InputScalarN(framed(with_unit(label, shown_unit(q, units)), id).c_str(), ImGuiDataType_Double, shown, 3,
                      nullptr, nullptr, "%.6g");
  tooltip(help);
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    const Vec3 si(shown_to_si(shown[0], q, units), shown_to_si(shown[1], q, units), shown_to_si(shown[2], q, units));
    if (si.allFinite() && si != value) {
      value = si;
      return true;
    }
  }
  return false;
}

bool edit_matrix(const std::string& id, const std::string& label, Mat3& value, Quantity q, const std::string& help,
                 EditorContext& context) {
  bool changed = false;
  ImGui::TextUnformatted(with_unit(label, shown_unit(q, context.units)).c_str());
  tooltip(help);
  for (int r = 0; r < 3; ++r) {
    Vec3 row = value.row(r).transpose();
    if (edit_vector(id + ".row" + std::to_string(r), "row " + std::to_string(r + 1), row, q, help, context)) {
      value.row(r) = row.transpose();
      changed = true;
    }
  }
  return changed;
}

}  // namespace lodestone::ui
