// Blend-space weights (rule GR7), transition curves (rule GR8), the RandomSequence generator
// (rule GR6) and the build-time Delaunay triangulation of Blend2D points.
#include <algorithm>
#include <array>
#include <cmath>

#include "asterune/clip/easing.hpp"
#include "graph/graph_internal.hpp"

namespace asterune::graph_detail {
namespace {

constexpr float kTwoPi = 6.28318530717958647692f;

// Rule GR7: weights of a 1D interpolation at p among the (ascending) positions of `slots`:
// linear between the two neighbours, extrapolated from the two nearest outside the range.
// Adds `scale` x each weight into w[slot].
void interpolate_line(const int* slots, const float* positions, int count, float p, float scale, float* w) {
  if (count == 1) {
    w[slots[0]] += scale;
    return;
  }
  int k = 0;  // segment [k, k + 1]
  while (k + 2 < count && p > positions[k + 1]) ++k;
  const float p0 = positions[k], p1 = positions[k + 1];
  const float t = (p - p0) / (p1 - p0);
  w[slots[k]] += scale * (1.0f - t);
  w[slots[k + 1]] += scale * t;
}

float wrap_angle(float a) {
  float r = std::fmod(a, kTwoPi);
  if (r < 0.0f) r += kTwoPi;
  return r >= kTwoPi ? 0.0f : r;
}

// Polar (rule GR7): along one direction's ray, the inputs by magnitude (the centre input, when
// there is one, at magnitude 0); r is clamped to the ray's range (no extrapolation).
void interpolate_ray(const NodeDef& def, int first, int last, int centre, float r, float scale, float* w) {
  int slots[64];
  float mags[64];
  int count = 0;
  if (centre >= 0) {
    slots[count] = centre;
    mags[count++] = 0.0f;
  }
  for (int i = first; i < last && count < 64; ++i) {
    const int s = def.order[static_cast<size_t>(i)];
    slots[count] = s;
    mags[count++] = def.inputs[static_cast<size_t>(s)].y;
  }
  r = std::clamp(r, mags[0], mags[count - 1]);
  interpolate_line(slots, mags, count, r, scale, w);
}

}  // namespace

void blend1d_weights(const NodeDef& def, float p, float* w) {
  const int n = static_cast<int>(def.inputs.size());
  float positions[64];
  int slots[64];
  const int count = std::min(n, 64);
  for (int i = 0; i < n; ++i) w[i] = 0.0f;
  for (int i = 0; i < count; ++i) {
    slots[i] = def.order[static_cast<size_t>(i)];
    positions[i] = def.inputs[static_cast<size_t>(slots[i])].position;
  }
  interpolate_line(slots, positions, count, p, 1.0f, w);
}

void blend2d_weights(const NodeDef& def, float x, float y, float* w) {
  const int n = static_cast<int>(def.inputs.size());
  for (int i = 0; i < n; ++i) w[i] = 0.0f;
  if (def.input_mode == GraphInputMode::kPolar) {
    // def.order: the non-centre slots by (direction, magnitude); def.centre: the input at
    // magnitude 0 (shared by every direction), or -1.
    const int centre = def.centre;
    const int m = static_cast<int>(def.order.size());
    if (m == 0) {
      w[centre] = 1.0f;
      return;
    }
    auto dir_of = [&](int i) { return wrap_angle(def.inputs[static_cast<size_t>(def.order[static_cast<size_t>(i)])].x); };
    // Rays: runs of equal direction in order. Find the ray at or before theta (cyclic).
    int ray_start[64], ray_end[64], rays = 0;
    for (int i = 0; i < m && rays < 64; ++i) {
      if (i == 0 || dir_of(i) != dir_of(i - 1)) {
        ray_start[rays] = i;
        ++rays;
      }
      ray_end[rays - 1] = i + 1;
    }
    const float theta = wrap_angle(x);
    const float r = std::max(y, 0.0f);
    int ra = rays - 1;  // the last ray at or before theta; before the first: the last (cyclic)
    for (int k = 0; k < rays; ++k)
      if (dir_of(ray_start[k]) <= theta) ra = k;
    const int rb = (ra + 1) % rays;
    float f = 0.0f;
    if (rb != ra) {
      const float da = dir_of(ray_start[ra]);
      float span = dir_of(ray_start[rb]) - da;
      if (span <= 0.0f) span += kTwoPi;
      float off = theta - da;
      if (off < 0.0f) off += kTwoPi;
      f = std::clamp(off / span, 0.0f, 1.0f);
    }
    interpolate_ray(def, ray_start[ra], ray_end[ra], centre, r, 1.0f - f, w);
    if (f > 0.0f) interpolate_ray(def, ray_start[rb], ray_end[rb], centre, r, f, w);
    return;
  }
  auto px = [&](int s) { return static_cast<double>(def.inputs[static_cast<size_t>(s)].x); };
  auto py = [&](int s) { return static_cast<double>(def.inputs[static_cast<size_t>(s)].y); };
  const double qx = x, qy = y;
  for (const Tri& t : def.tris) {
    const double ax = px(t.a), ay = py(t.a), bx = px(t.b), by = py(t.b), cx = px(t.c), cy = py(t.c);
    const double det = (by - cy) * (ax - cx) + (cx - bx) * (ay - cy);
    const double l0 = ((by - cy) * (qx - cx) + (cx - bx) * (qy - cy)) / det;
    const double l1 = ((cy - ay) * (qx - cx) + (ax - cx) * (qy - cy)) / det;
    const double l2 = 1.0 - l0 - l1;
    constexpr double kEps = -1e-9;
    if (l0 >= kEps && l1 >= kEps && l2 >= kEps) {
      const double c0 = std::max(l0, 0.0), c1 = std::max(l1, 0.0), c2 = std::max(l2, 0.0);
      const double s = c0 + c1 + c2;
      w[t.a] = static_cast<float>(c0 / s);
      w[t.b] = static_cast<float>(c1 / s);
      w[t.c] = static_cast<float>(c2 / s);
      return;
    }
  }
  // Outside the hull: the nearest point of the nearest hull edge (continuous with the inside).
  double best = -1.0, best_t = 0.0;
  Edge best_edge;
  for (const Edge& e : def.hull) {
    const double ax = px(e.a), ay = py(e.a), ex = px(e.b) - ax, ey = py(e.b) - ay;
    const double t = std::clamp(((qx - ax) * ex + (qy - ay) * ey) / (ex * ex + ey * ey), 0.0, 1.0);
    const double dx = qx - (ax + t * ex), dy = qy - (ay + t * ey);
    const double d = dx * dx + dy * dy;
    if (best < 0.0 || d < best) {
      best = d;
      best_t = t;
      best_edge = e;
    }
  }
  w[best_edge.a] += static_cast<float>(1.0 - best_t);
  w[best_edge.b] += static_cast<float>(best_t);
}

float transition_alpha(GraphCurve curve, float u) {
  u = std::clamp(u, 0.0f, 1.0f);
  switch (curve) {
    case GraphCurve::kCubicV2: return ease(KeyEasing{EasingStyle::kCubicV2, EasingDirection::kInOut}, u);
    case GraphCurve::kInertial: return 1.0f;
    default: return u;
  }
}

float inertial_share(float u) {
  u = std::clamp(u, 0.0f, 1.0f);
  // 1 - smootherstep: value 1, slope 0, curvature 0 at u = 0; 0, 0, 0 at u = 1.
  return 1.0f - u * u * u * (u * (u * 6.0f - 15.0f) + 10.0f);
}

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double unit_draw(std::uint64_t& state) { return static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53; }

namespace {

double cross(double ax, double ay, double bx, double by, double cx, double cy) {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

// True when segments p1p2 and p3p4 cross at a point inside both (not at an end).
bool proper_cross(const double* p1, const double* p2, const double* p3, const double* p4, double eps) {
  const double d1 = cross(p3[0], p3[1], p4[0], p4[1], p1[0], p1[1]);
  const double d2 = cross(p3[0], p3[1], p4[0], p4[1], p2[0], p2[1]);
  const double d3 = cross(p1[0], p1[1], p2[0], p2[1], p3[0], p3[1]);
  const double d4 = cross(p1[0], p1[1], p2[0], p2[1], p4[0], p4[1]);
  return ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps)) && ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps));
}

}  // namespace

std::vector<Tri> delaunay(const std::vector<float>& xs, const std::vector<float>& ys) {
  const int n = static_cast<int>(xs.size());
  std::vector<std::array<double, 2>> p(static_cast<size_t>(n));
  double scale = 0.0;
  for (int i = 0; i < n; ++i) {
    p[static_cast<size_t>(i)] = {xs[static_cast<size_t>(i)], ys[static_cast<size_t>(i)]};
    scale = std::max({scale, std::abs(p[static_cast<size_t>(i)][0]), std::abs(p[static_cast<size_t>(i)][1])});
  }
  const double eps = 1e-9 * std::max(scale * scale, 1e-12);
  std::vector<Tri> out;
  auto P = [&](int i) { return p[static_cast<size_t>(i)].data(); };
  // Brute force (blend spaces have few points): every non-collinear triple whose circumcircle
  // holds no point strictly inside, accepted in index order unless it overlaps an accepted
  // one (co-circular points give several candidates; any non-overlapping choice is Delaunay).
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int k = j + 1; k < n; ++k) {
        const double* a = P(i);
        const double* b = P(j);
        const double* c = P(k);
        const double area = cross(a[0], a[1], b[0], b[1], c[0], c[1]);
        if (std::abs(area) <= eps) continue;
        const double d = 2.0 * area;
        const double a2 = a[0] * a[0] + a[1] * a[1], b2 = b[0] * b[0] + b[1] * b[1], c2 = c[0] * c[0] + c[1] * c[1];
        const double ux = (a2 * (b[1] - c[1]) + b2 * (c[1] - a[1]) + c2 * (a[1] - b[1])) / d;
        const double uy = (a2 * (c[0] - b[0]) + b2 * (a[0] - c[0]) + c2 * (b[0] - a[0])) / d;
        const double r2 = (a[0] - ux) * (a[0] - ux) + (a[1] - uy) * (a[1] - uy);
        bool empty = true;
        for (int m = 0; m < n && empty; ++m) {
          if (m == i || m == j || m == k) continue;
          const double dx = P(m)[0] - ux, dy = P(m)[1] - uy;
          if (dx * dx + dy * dy < r2 * (1.0 - 1e-9)) empty = false;
        }
        if (!empty) continue;
        const int v[3] = {i, j, k};
        bool overlaps = false;
        for (const Tri& t : out) {
          const int w[3] = {t.a, t.b, t.c};
          for (int e = 0; e < 3 && !overlaps; ++e)
            for (int f = 0; f < 3 && !overlaps; ++f)
              overlaps = proper_cross(P(v[e]), P(v[(e + 1) % 3]), P(w[f]), P(w[(f + 1) % 3]), eps);
          // One inside the other (no crossing): a centroid strictly inside the other triangle.
          auto inside = [&](const int* tri, double qx, double qy) {
            const double s0 = cross(P(tri[0])[0], P(tri[0])[1], P(tri[1])[0], P(tri[1])[1], qx, qy);
            const double s1 = cross(P(tri[1])[0], P(tri[1])[1], P(tri[2])[0], P(tri[2])[1], qx, qy);
            const double s2 = cross(P(tri[2])[0], P(tri[2])[1], P(tri[0])[0], P(tri[0])[1], qx, qy);
            return (s0 > eps && s1 > eps && s2 > eps) || (s0 < -eps && s1 < -eps && s2 < -eps);
          };
          if (!overlaps) {
            const double cx = (P(v[0])[0] + P(v[1])[0] + P(v[2])[0]) / 3.0, cy = (P(v[0])[1] + P(v[1])[1] + P(v[2])[1]) / 3.0;
            const double tx = (P(w[0])[0] + P(w[1])[0] + P(w[2])[0]) / 3.0, ty = (P(w[0])[1] + P(w[1])[1] + P(w[2])[1]) / 3.0;
            overlaps = inside(w, cx, cy) || inside(v, tx, ty);
          }
          if (overlaps) break;
        }
        if (!overlaps) out.push_back(Tri{i, j, k});
      }
  return out;
}

std::vector<Edge> hull_edges(const std::vector<Tri>& tris) {
  std::vector<Edge> all, out;
  for (const Tri& t : tris) {
    all.push_back({std::min(t.a, t.b), std::max(t.a, t.b)});
    all.push_back({std::min(t.b, t.c), std::max(t.b, t.c)});
    all.push_back({std::min(t.a, t.c), std::max(t.a, t.c)});
  }
  for (const Edge& e : all) {
    int count = 0;
    for (const Edge& f : all) count += (f.a == e.a && f.b == e.b) ? 1 : 0;
    if (count == 1) out.push_back(e);
  }
  return out;
}

}  // namespace asterune::graph_detail
