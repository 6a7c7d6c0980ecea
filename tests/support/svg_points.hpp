// Test helper: the coordinates of an SVG `points` attribute ("x1,y1 x2,y2 ..."), for tests
// that check projected pixels of the SVG drawings.
#pragma once

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace asterune::test {

inline std::vector<glm::vec2> parse_points(const char* text) {
  std::vector<glm::vec2> out;
  std::string s(text);
  std::replace(s.begin(), s.end(), ',', ' ');
  std::istringstream in(s);
  float x = 0.0f, y = 0.0f;
  while (in >> x >> y) out.emplace_back(x, y);
  return out;
}

}  // namespace asterune::test
