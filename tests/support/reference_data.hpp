// Shared helpers for the io tests: reading the saved Roblox reference data with nlohmann-json
// directly (independently of the asterune::io readers under test).
#pragma once

#include <fstream>
#include <map>
#include <string>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

namespace asterune::test {

/// A Roblox XML CoordinateFrame property named CFrame: position x, y, z and the rotation matrix
/// rows R00..R22 given as nine space-separated numbers, written as text for the readers under test.
inline std::string cframe_xml(float x, float y, float z, const char* rotation = "1 0 0 0 1 0 0 0 1") {
  static const char* keys[9] = {"R00", "R01", "R02", "R10", "R11", "R12", "R20", "R21", "R22"};
  std::string s = "<CoordinateFrame name=\"CFrame\"><X>" + std::to_string(x) + "</X><Y>" + std::to_string(y) +
                  "</Y><Z>" + std::to_string(z) + "</Z>";
  std::string r = rotation;
  size_t pos = 0;
  for (const char* k : keys) {
    const size_t next = r.find(' ', pos);
    s += std::string("<") + k + ">" + r.substr(pos, next - pos) + "</" + k + ">";
    pos = next == std::string::npos ? r.size() : next + 1;
  }
  return s + "</CoordinateFrame>";
}

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
