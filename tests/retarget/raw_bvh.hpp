// Test helper: a deliberately separate, minimal BVH reader for reference values. It keeps the
// raw numbers (offsets, channel names, per-frame channel values in degrees) and computes world
// joint positions with its own 3x3 matrix code, so the retargeting checks do not depend on
// the importer's quaternion conversion.
#pragma once

#include <array>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace asterune::test {

using Mat3 = std::array<std::array<double, 3>, 3>;  // m[row][col]
using Vec3d = std::array<double, 3>;

inline Mat3 mat_mul(const Mat3& a, const Mat3& b) {
  Mat3 r{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) r[i][j] += a[i][k] * b[k][j];
  return r;
}
inline Vec3d mat_vec(const Mat3& a, const Vec3d& v) {
  Vec3d r{};
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) r[i] += a[i][k] * v[k];
  return r;
}
inline Mat3 axis_rotation(char axis, double degrees) {
  const double a = degrees * 3.14159265358979323846 / 180.0, c = std::cos(a), s = std::sin(a);
  if (axis == 'X') return Mat3{{{1, 0, 0}, {0, c, -s}, {0, s, c}}};
  if (axis == 'Y') return Mat3{{{c, 0, s}, {0, 1, 0}, {-s, 0, c}}};
  return Mat3{{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}};
}

struct RawBvh {
  std::vector<std::string> names;
  std::vector<int> parents;
  std::vector<Vec3d> offsets;
  std::vector<std::vector<std::string>> channels;
  std::vector<std::vector<double>> frames;  // all channel values of each frame

  int find(const std::string& n) const {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == n) return static_cast<int>(i);
    return -1;
  }

  /// World positions of every joint at frame f: X_j = X_p + M_p * local position, where the
  /// local position is the OFFSET (or the position channels) and M_j = M_p * R_c1 * R_c2 * R_c3
  /// with the rotation channels in file order.
  std::vector<Vec3d> positions(size_t f) const {
    std::vector<Vec3d> x(names.size());
    std::vector<Mat3> m(names.size());
    size_t v = 0;
    for (size_t j = 0; j < names.size(); ++j) {
      Vec3d local = offsets[j];
      Mat3 r{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
      for (const std::string& c : channels[j]) {
        const double value = frames[f][v++];
        if (c[1] == 'p') local[static_cast<size_t>(c[0] - 'X')] = value;
        else r = mat_mul(r, axis_rotation(c[0], value));
      }
      const int p = parents[j];
      if (p < 0) {
        x[j] = local;
        m[j] = r;
      } else {
        const Vec3d d = mat_vec(m[static_cast<size_t>(p)], local);
        for (int i = 0; i < 3; ++i) x[j][static_cast<size_t>(i)] = x[static_cast<size_t>(p)][static_cast<size_t>(i)] + d[static_cast<size_t>(i)];
        m[j] = mat_mul(m[static_cast<size_t>(p)], r);
      }
    }
    return x;
  }
};

inline RawBvh read_raw_bvh(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  for (char& c : text)
    if (c == '\r') c = ' ';
  std::istringstream tok(text);
  RawBvh b;
  std::vector<int> stack;
  std::string w;
  bool end_site = false;
  while (tok >> w) {
    if (w == "ROOT" || w == "JOINT") {
      std::string name;
      tok >> name;
      b.names.push_back(name);
      b.parents.push_back(stack.empty() ? -1 : stack.back());
      b.offsets.push_back({0, 0, 0});
      b.channels.emplace_back();
    } else if (w == "End") {
      tok >> w;  // Site
      end_site = true;
    } else if (w == "{") {
      // An End Site's brace pushes a marker: End Sites have no children, it is only popped.
      stack.push_back(end_site ? -2 : static_cast<int>(b.names.size()) - 1);
    } else if (w == "}") {
      stack.pop_back();
      end_site = false;
    } else if (w == "OFFSET") {
      Vec3d o;
      tok >> o[0] >> o[1] >> o[2];
      if (!end_site) b.offsets.back() = o;
    } else if (w == "CHANNELS") {
      int n;
      tok >> n;
      for (int i = 0; i < n; ++i) {
        tok >> w;
        b.channels.back().push_back(w);
      }
    } else if (w == "MOTION") {
      break;
    }
  }
  int frames = 0;
  double frame_time = 0;
  tok >> w >> frames;          // Frames: N
  tok >> w >> w >> frame_time;  // Frame Time: t
  size_t per_frame = 0;
  for (const auto& c : b.channels) per_frame += c.size();
  b.frames.assign(static_cast<size_t>(frames), std::vector<double>(per_frame));
  for (auto& f : b.frames)
    for (auto& v : f) tok >> v;
  return b;
}

}  // namespace asterune::test
