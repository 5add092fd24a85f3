#include "engine/scene/preset_io.hpp"

#include "engine/bodies/clumps.hpp"
#include "engine/scene/atomic_file.hpp"
#include "engine/scene/unit_system.hpp"
#include "engine/scene/unit_values.hpp"
#include "engine/step/health.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <string_view>

namespace lodestone {

namespace {

std::string material_names(const std::vector<Material>& materials) {
  std::vector<std::string> names;
  for (const auto& m : materials) names.push_back(m.name);
  return detail::join(names, ", ");
}

void require_material(const Preset& p, const std::string& name, const std::string& path) {
  if (material_index(p.materials, name) < 0)
    throw PresetError(path, "no material named '" + name + "'; defined: " + material_names(p.materials));
}

void require_unit(Quantity q, const std::string& unit, const std::string& path) {
  if (!is_accepted_unit(q, unit))
    throw PresetError(path, "'" + unit + "' is not a unit of this quantity; use one of: " + accepted_units_text(q));
}

// [SECTION] The file's unit system

// The units section of a preset file, read alone: the system its other numbers are in (a bad units.system
// is reported before any number is read in the wrong units).
DisplayUnits file_units(const json& j) {
  DisplayUnits units;
  if (j.is_object() && j.contains("units")) read_object(units, j["units"], "$.units", display_units_schema());
  return units;
}

std::vector<std::string> dotted_segments(const std::string& dotted) {
  std::vector<std::string> out;
  for (size_t start = 0;;) {
    const size_t dot = dotted.find('.', start);
    out.push_back(dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return out;
    start = dot + 1;
  }
}

// Every dimensional number of a preset's JSON through `convert`: all sections but `units` (its lj scales are
// SI by definition), the values the protocol phases and timeline entries set, by their paths, and the
// threshold of an `until: settled` phase, a speed the field table declares dimensionless because the other
// `until` kinds' thresholds are.
void convert_preset_json(json& j, const ConvertNumber& convert) {
  if (!j.is_object()) return;
  static const std::vector<std::string> whole;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "units") continue;
    for (const auto& f : preset_schema())
      if (f.key == it.key()) convert_field(f, it.value(), whole, 0, convert);
  }
  for (const char* list : {"protocol", "timeline"}) {
    if (!j.contains(list) || !j[list].is_array()) continue;
    for (json& item : j[list]) {
      if (!item.is_object()) continue;
      if (item.contains("set") && item["set"].is_object())
        for (auto it = item["set"].begin(); it != item["set"].end(); ++it)
          if (it.key().rfind("units", 0) != 0)
            convert_at(it.value(), preset_schema(), dotted_segments(it.key()), 0, convert);
      if (item.value("until", json()) == "settled" && item.contains("threshold"))
        detail::convert_numbers(item["threshold"], Quantity::Velocity, convert);
    }
  }
}

}  // namespace

std::string display_unit(Quantity q, const DisplayUnits& units) {
  if (q == Quantity::FluxDensity && is_accepted_unit(q, units.field)) return units.field;
  if (q == Quantity::Length && is_accepted_unit(q, units.length)) return units.length;
  if (q == Quantity::Pressure && is_accepted_unit(q, units.pressure)) return units.pressure;
  return std::string(si_unit(q));
}

json value_in_display_units(const std::string& path, const json& value, const DisplayUnits& units) {
  json shown = value;
  try {
    convert_at(shown, preset_schema(), dotted_segments(path), 0, [&units](Quantity q, double si) -> json {
      const std::string unit = display_unit(q, units);
      char text[64];
      std::snprintf(text, sizeof text, "%.4g%s%s", si_to_unit(si, q, unit), unit.empty() ? "" : " ", unit.c_str());
      return text;
    });
  } catch (const std::exception&) {
    return value;  // a path the table does not know: as it is
  }
  return shown;
}

namespace {

json converted_at(const std::string& path, json value, const ConvertNumber& convert) {
  try {
    convert_at(value, preset_schema(), dotted_segments(path), 0, convert);
  } catch (const std::exception&) {
    // A path the table does not know: as it is (the edit's reader names it).
  }
  return value;
}

}  // namespace

json value_in_si(const DisplayUnits& units, const std::string& dotted_path, json value) {
  if (units.system == UnitSystem::Si) return value;
  return converted_at(dotted_path, std::move(value), lj_to_si(LjUnits(units.lj)));
}

json value_in_document_units(const DisplayUnits& units, const std::string& dotted_path, json value) {
  if (units.system == UnitSystem::Si) return value;
  return converted_at(dotted_path, std::move(value), si_to_lj(LjUnits(units.lj)));
}

namespace {

// [SECTION] Cross-field checks, one per concern, each with the top-level sections it reads

void check_units(const Preset& p) {
  require_unit(Quantity::FluxDensity, p.units.field, "$.units.field");
  require_unit(Quantity::Length, p.units.length, "$.units.length");
  require_unit(Quantity::Pressure, p.units.pressure, "$.units.pressure");
}

void check_materials(const Preset& p) {
  if (p.materials.empty()) throw PresetError("$.materials", "at least one material is needed");
  for (size_t i = 0; i < p.materials.size(); ++i) {
    const std::string path = "$.materials[" + std::to_string(i) + "].name";
    if (p.materials[i].name.empty()) throw PresetError(path, "a material needs a non-empty name");
    for (size_t k = 0; k < i; ++k)
      if (p.materials[k].name == p.materials[i].name)
        throw PresetError(path, "name '" + p.materials[i].name + "' is used twice");
  }
}

void check_box(const Preset& p) {
  for (int a = 0; a < 3; ++a) {
    if (!(p.box.max[a] > p.box.min[a]))
      throw PresetError(std::string("$.box.max[") + std::to_string(a) + "]",
                        std::string("the box is empty along ") + axis_name(a) + ": max must exceed min");
    const bool lo = p.box.side(a, 0) == SideKind::Periodic, hi = p.box.side(a, 1) == SideKind::Periodic;
    if (lo != hi)
      throw PresetError(std::string("$.box.") + axis_name(a) + (lo ? "_max" : "_min"),
                        std::string("periodic sides come in pairs: set both ") + axis_name(a) + "_min and " +
                            axis_name(a) + "_max to periodic");
  }
  require_material(p, p.box.wall_material, "$.box.wall_material");
}

void check_field(const Preset& p) {
  const Mat3& g = p.field.gradient;
  const double scale = g.cwiseAbs().maxCoeff();
  if (scale > 0.0) {
    if ((g - g.transpose()).cwiseAbs().maxCoeff() > 1e-9 * scale)
      throw PresetError("$.field.gradient", "must be symmetric (curl B = 0 in free space)");
    if (std::abs(g.trace()) > 1e-9 * scale) throw PresetError("$.field.gradient", "must be traceless (div B = 0)");
  }
  if (p.field.program == FieldProgram::Rotating &&
      std::abs(p.field.direction.dot(p.field.rotation_axis)) > 1.0 - 1e-9) {
    // In words a student follows: why it cannot turn, and a direction that does.
    const Vec3& a = p.field.rotation_axis;
    int along = 0, across = 0;
    for (int k = 1; k < 3; ++k) {
      if (std::abs(a[k]) > std::abs(a[along])) along = k;
      if (std::abs(a[k]) < std::abs(a[across])) across = k;
    }
    throw PresetError("$.field.rotation_axis",
                      std::string("a rotating field turns about its rotation axis, so its direction must lie across "
                                  "that axis, not along it (both are along ") +
                          "xyz"[along] + " now); choose another direction, e.g. +" + "xyz"[across] +
                          ", or another rotation axis");
  }
}

void check_generator(const Preset& p) {
  const GeneratorParameters& gen = p.particles;
  require_material(p, gen.material, "$.particles.material");
  if (gen.region) {
    for (int a = 0; a < 3; ++a) {
      const std::string ax = std::to_string(a);
      if (!(gen.region->max[a] > gen.region->min[a]))
        throw PresetError("$.particles.region.max[" + ax + "]", "the region is empty: max must exceed min");
      if (gen.region->min[a] < p.box.min[a] || gen.region->max[a] > p.box.max[a])
        throw PresetError("$.particles.region", std::string("the region leaves the box along ") + axis_name(a));
    }
  }
  if (gen.kind == GeneratorKind::Checkpoint && gen.file.empty())
    throw PresetError("$.particles.file", "kind 'checkpoint' needs the checkpoint file's path here");
  for (size_t i = 0; i < gen.particles.size(); ++i) {
    const ParticleEntry& e = gen.particles[i];
    const std::string path = "$.particles.particles[" + std::to_string(i) + "]";
    if (!e.material.empty()) require_material(p, e.material, path + ".material");
    if (gen.kind != GeneratorKind::List) continue;
    // A sphere must lie between walls, and its centre inside a periodic box; open sides do not bound it. It may
    // reach into a wall by less than the overlap the health checks call a runaway (kRunawayOverlapFraction of
    // its radius, engine/step/health.hpp): a settled state saved with its small overlaps loads, a sphere
    // placed deep in a wall, which would blow up, does not.
    if (const int a = p.box.axis_outside(e.position, e.radius * (1.0 - kRunawayOverlapFraction)); a >= 0) {
      std::ostringstream os;
      os << "the sphere (centre " << e.position[a] << " m, radius " << e.radius << " m) is not inside the box along "
         << axis_name(a) << " (" << (p.box.periodic(a) ? "periodic" : "walls") << " at " << p.box.min[a] << " and "
         << p.box.max[a] << " m)";
      throw PresetError(path + ".position", os.str());
    }
  }
}

// The scene's size, counted before anything is built (a cube clump of count n has n^3 pebbles).
double generated_particles(const Preset& p) {
  const GeneratorParameters& gen = p.particles;
  return gen.kind == GeneratorKind::List         ? static_cast<double>(gen.particles.size())
         : gen.kind == GeneratorKind::Checkpoint ? 0.0
                                                 : static_cast<double>(gen.count);
}
double clump_pebbles(const Preset& p) {
  double pebbles = 0.0;
  for (const ClumpEntry& c : p.clumps)
    pebbles += c.shape == ClumpShape::List   ? static_cast<double>(c.pebbles.size())
               : c.shape == ClumpShape::Cube ? std::pow(static_cast<double>(c.count), 3.0)
                                             : static_cast<double>(c.count);
  return pebbles;
}

void check_size(const Preset& p) {
  const double generated = generated_particles(p), pebbles = clump_pebbles(p);
  if (generated + pebbles > kMaxParticles) {
    std::ostringstream os;
    os << "the scene would have " << std::fixed << std::setprecision(0) << generated + pebbles << " particles ("
       << generated << " from particles, " << pebbles << " pebbles of " << p.clumps.size() << " clumps); at most "
       << kMaxParticles << " are supported";
    throw PresetError(p.clumps.empty() ? "$.particles" : "$.clumps", os.str());
  }
}

struct SectionCheck {
  std::vector<std::string_view> reads;  // the top-level sections whose values it looks at
  void (*check)(const Preset&);
};

// In the order validate_preset has always run them (the first failing check names the error).
const std::vector<SectionCheck>& section_checks() {
  static const std::vector<SectionCheck> checks = {
      {{"units"}, check_units},
      {{"materials"}, check_materials},
      {{"box", "materials"}, check_box},
      {{"field"}, check_field},
      {{"particles", "materials", "box"}, check_generator},
      {{"particles", "clumps"}, check_size},
      {{"clumps", "integrator", "particles", "materials"}, validate_clumps},
  };
  return checks;
}

}  // namespace

void validate_preset(const Preset& p) {
  for (const SectionCheck& c : section_checks()) c.check(p);
}

void validate_sections(const Preset& p, const std::vector<std::string>& sections) {
  for (const SectionCheck& c : section_checks())
    if (std::any_of(c.reads.begin(), c.reads.end(), [&](std::string_view s) {
          return std::find(sections.begin(), sections.end(), s) != sections.end();
        }))
      c.check(p);
}

Preset preset_from_json(const json& j) {
  Preset p;
  if (!j.is_object()) throw PresetError("$", "a preset is a JSON object {...}, found " + detail::describe_json(j));
  if (!j.contains("version"))
    throw PresetError("$.version", "missing; this program reads preset version " + std::to_string(kPresetVersion));
  read_object(p, j, "$", preset_schema());
  validate_preset(p);
  return p;
}

json read_json_text(const std::string& text, const std::string& source) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann reports "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
    std::string what = e.what();
    const auto pos = what.find("parse error");
    throw PresetError(source, "broken JSON: " + (pos == std::string::npos ? what : what.substr(pos)));
  } catch (const json::exception& e) {
    // e.g. "[json.exception.out_of_range.406] number overflow parsing '1e400'"
    std::string what = e.what();
    const auto pos = what.find("] ");
    const std::string detail = pos == std::string::npos ? what : what.substr(pos + 2);
    throw PresetError(source, "unreadable JSON: " + detail + " (numbers must fit a double, about 1.8e308)");
  }
}

Preset preset_from_file_json(json j) {
  const DisplayUnits units = file_units(j);
  if (units.system == UnitSystem::Lj) convert_preset_json(j, lj_to_si(LjUnits(units.lj)));
  return preset_from_json(j);
}

json preset_to_file_json(const Preset& preset) {
  json j = preset_to_json(preset);
  if (preset.units.system == UnitSystem::Lj) convert_preset_json(j, si_to_lj(LjUnits(preset.units.lj)));
  return j;
}

json preset_to_json(const Preset& preset) {
  return write_object(preset, preset_schema());
}

std::string preset_to_text(const Preset& preset) {
  return preset_to_file_json(preset).dump(2) + "\n";
}

void save_preset_file(const Preset& preset, const std::string& path) {
  try {
    write_file_atomically(path, preset_to_text(preset));
  } catch (const FileWriteError& e) {
    throw PresetError(path, "cannot write: " + e.reason());
  }
}

std::vector<FieldDoc> preset_field_docs() {
  std::vector<FieldDoc> docs;
  describe_schema(preset_schema(), docs, "");
  return docs;
}

std::string preset_docs_markdown() {
  auto cell = [](std::string s) {
    std::string out;
    for (char c : s) out += (c == '|') ? std::string("\\|") : std::string(1, c);
    return out;
  };
  std::ostringstream md;
  md << "# Preset format (version " << kPresetVersion << ")\n\n"
     << "<!-- Generated by `lodestone-run --preset-docs` from engine/scene/preset_schema.cpp; a test checks that it "
        "matches. Do not edit by hand. -->\n\n"
     << "A preset is one JSON object describing a whole scene. Numbers are SI; any dimensional value may\n"
     << "also be a string with a unit, e.g. `\"40 kOe\"`, `\"0.5 atm\"`, `\"1 um\"` (the column *also accepts*\n"
     << "lists the units). Keys not listed here are rejected, and so are values outside their range;\n"
     << "the error names the JSON path. Omitted keys take their default. Saving writes every key in SI.\n\n"
     << "With `\"units\": {\"system\": \"lj\", \"lj\": {\"sigma\": ..., \"mass\": ..., \"energy\": ...}}` the bare "
        "numbers\n"
     << "are instead reduced dipolar units (LAMMPS `units lj`, ESPResSo: length sigma, mass m, energy epsilon,\n"
     << "mu0/4pi = 1; the unit of each quantity is in docs/physics.md, \"Reduced (LJ-style dipolar) units\");\n"
     << "strings with units stay SI, and saving writes lj numbers (a value no lj double reproduces exactly\n"
     << "is written with its SI unit). The protocol's and timeline's `set` values, and an `until: settled`\n"
     << "threshold (a speed), are lj too; `view.pace` and `run.real_time_factor` stay simulated seconds per\n"
     << "real second.\n\n"
     << "| field | type | unit (SI) | also accepts | default | range | meaning |\n"
     << "|---|---|---|---|---|---|---|\n";
  for (const auto& d : preset_field_docs())
    md << "| `" << d.path << "` | " << cell(d.type) << " | " << cell(d.unit) << " | " << cell(d.accepts) << " | "
       << cell(d.default_value) << " | " << cell(d.range) << " | " << cell(d.help) << " |\n";
  return md.str();
}

double scene_particle_count(const Preset& preset) {
  return generated_particles(preset) + clump_pebbles(preset);
}

}  // namespace lodestone
