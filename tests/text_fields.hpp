#pragma once
// Splitting text output (CSV, frames, logs) in tests: lines, fields at a separator, whitespace words.

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

inline std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace lodestone::test
