#include "engine/output/field_probe.hpp"

#include "engine/scene/units.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

namespace lodestone {

double parse_length(std::string_view text, const std::string& what) {
  double value = 0.0;
  std::string error;
  if (!parse_quantity_or_si(text, Quantity::Length, value, error) || !std::isfinite(value))
    throw FieldInputError(what + ": '" + std::string(text) +
                          "' is not a length; allowed: a number in metres or a number with a unit (" +
                          accepted_units_text(Quantity::Length) + "), e.g. 0.001 or 1mm");
  return value;
}

Vec3 parse_point(const std::vector<std::string>& words, const std::string& what) {
  if (words.size() != 3) {
    std::string joined;
    for (const std::string& w : words) joined += (joined.empty() ? "" : " ") + w;
    throw FieldInputError(what + ": '" + joined + "' has " + std::to_string(words.size()) +
                          " values; allowed: three coordinates x y z (metres, or with a unit: 1.5mm)");
  }
  return Vec3(parse_length(words[0], what), parse_length(words[1], what), parse_length(words[2], what));
}

std::vector<Vec3> parse_probe_points(std::string_view text, const std::string& source) {
  std::vector<Vec3> points;
  std::istringstream in{std::string(text)};
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    line = line.substr(0, line.find('#'));
    for (char& c : line)
      if (c == ',' || c == '\t' || c == '\r') c = ' ';
    std::istringstream words_in(line);
    std::vector<std::string> words;
    for (std::string w; words_in >> w;) words.push_back(w);
    if (words.empty()) continue;
    points.push_back(parse_point(words, source + " line " + std::to_string(number)));
  }
  if (points.empty())
    throw FieldInputError(source +
                          ": no point; allowed: one point per line, three coordinates x y z (metres, or "
                          "with a unit: 1.5mm)");
  return points;
}

std::vector<Vec3> load_probe_points(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw FieldInputError(path + ": cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  return parse_probe_points(text.str(), path);
}

void append_shortest(std::string& out, double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

std::string field_probe_header() {
  return "step,time,probe,x,y,z,bx,by,bz,b\n";
}

std::string field_probe_rows(std::int64_t step, double time, const std::vector<Vec3>& points,
                             const std::vector<Vec3>& field) {
  std::string s;
  for (size_t k = 0; k < points.size() && k < field.size(); ++k) {
    s += std::to_string(step);
    s += ',';
    append_shortest(s, time);
    s += ',' + std::to_string(k);
    for (int a = 0; a < 3; ++a) {
      s += ',';
      append_shortest(s, points[k][a]);
    }
    for (int a = 0; a < 3; ++a) {
      s += ',';
      append_shortest(s, field[k][a]);
    }
    s += ',';
    append_shortest(s, field[k].norm());
    s += '\n';
  }
  return s;
}

}  // namespace lodestone
