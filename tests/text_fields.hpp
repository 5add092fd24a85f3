#pragma once
// Splitting text output (CSV, frames, logs) in tests: lines, fields at a separator, whitespace words.

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace lodestone::test {

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines of a CSV file from its header on: the '#' comment lines before it (the writer's version, the unit
// system; engine/output/series.hpp) left out.
inline std::vector<std::string> csv_lines(const std::string& text) {
  std::vector<std::string> lines = lines_of(text);
  size_t comments = 0;
  while (comments < lines.size() && lines[comments].rfind('#', 0) == 0) ++comments;
  lines.erase(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(comments));
  return lines;
}

inline std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> fields;
  std::istringstream in(text);
  for (std::string field; std::getline(in, field, separator);) fields.push_back(field);
  return fields;
}

// A CSV text from its header on (csv_lines) as rows of column name -> number. An empty field is an error (std::stod
// throws), unless `empty_fields_allowed`: then it is left out of its row (a value not defined, as reduced_time where
// the characteristic time is not).
inline std::vector<std::map<std::string, double>> csv_numbers(const std::string& text,
                                                              bool empty_fields_allowed = false) {
  const std::vector<std::string> lines = csv_lines(text);
  std::vector<std::map<std::string, double>> rows;
  if (lines.empty()) return rows;
  const std::vector<std::string> names = split(lines[0], ',');
  for (size_t line = 1; line < lines.size(); ++line) {
    const std::vector<std::string> fields = split(lines[line], ',');
    std::map<std::string, double> row;
    for (size_t k = 0; k < names.size() && k < fields.size(); ++k)
      if (!(fields[k].empty() && empty_fields_allowed)) row[names[k]] = std::stod(fields[k]);
    rows.push_back(row);
  }
  return rows;
}

inline std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace lodestone::test
