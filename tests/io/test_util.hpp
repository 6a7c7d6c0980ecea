// Shared helpers for the io tests: reading the saved Roblox reference data with nlohmann-json
// directly (independently of the asterune::io readers under test).
#pragma once

#include <fstream>
#include <map>
#include <string>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

namespace asterune::test {

inline std::string data_path(const std::string& rel) { return std::string(ASTERUNE_TEST_DATA_DIR) + "/" + rel; }

inline nlohmann::json load_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

/// A saved Roblox CFrame, kept as raw numbers: position and the rotation's columns.
struct SavedCFrame {
  glm::dvec3 position{0.0};
  glm::dvec3 axis[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};  // local X, Y, Z in world
};

inline SavedCFrame saved_cframe(const nlohmann::json& a) {
  SavedCFrame s;
  s.position = {a[0].get<double>(), a[1].get<double>(), a[2].get<double>()};
  for (int col = 0; col < 3; ++col)
    s.axis[col] = {a[3 + col].get<double>(), a[6 + col].get<double>(), a[9 + col].get<double>()};
  return s;
}

}  // namespace asterune::test
