// Library ground shapes (include/asterune/controls/ground.hpp) and the pure pieces of ground
// adaptation (src/controls/ground_detail.hpp); docs/ground.md.
#include "asterune/controls/ground.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "asterune/math/transform.hpp"
#include "controls/ground_detail.hpp"

namespace asterune {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

bool usable(const GroundRay& ray) {
  return is_finite(ray.origin) && is_finite(ray.direction) && std::isfinite(ray.length) && ray.length >= 0.0f &&
         glm::dot(ray.direction, ray.direction) > 1e-12f;
}

GroundHit make_hit(const GroundRay& ray, float t, const glm::vec3& normal) {
  GroundHit h;
  h.hit = true;
  h.distance = t;
  h.point = ray.origin + t * ray.direction;
  h.normal = normal;
  return h;
}

// Height and upward normal of a bilinear cell at fractions (u, v) in [0,1]^2.
// h(u,v) = h00 (1-u)(1-v) + h10 u (1-v) + h01 (1-u) v + h11 u v  (u along +X, v along +Z).
float bilinear(float h00, float h10, float h01, float h11, float u, float v) {
  return h00 * (1.0f - u) * (1.0f - v) + h10 * u * (1.0f - v) + h01 * (1.0f - u) * v + h11 * u * v;
}

glm::vec3 bilinear_normal(float h00, float h10, float h01, float h11, float u, float v, float cell) {
  const float dhdx = ((h10 - h00) * (1.0f - v) + (h11 - h01) * v) / cell;
  const float dhdz = ((h01 - h00) * (1.0f - u) + (h11 - h10) * u) / cell;
  return glm::normalize(glm::vec3(-dhdx, 1.0f, -dhdz));
}

}  // namespace

void GroundQuery::cast(std::span<const GroundRay> rays, std::span<GroundHit> hits) const {
  if (rays.size() != hits.size()) return;
  for (size_t i = 0; i < rays.size(); ++i) hits[i] = cast(rays[i]);
}

GroundHit cast_plane(const GroundPlane& plane, const GroundRay& ray) {
  if (!usable(ray)) return {};
  const glm::vec3 n = plane.normal;
  const float above = glm::dot(ray.origin - plane.point, n);
  if (!(above >= 0.0f)) return {};  // origin inside the solid half-space
  const float approach = glm::dot(ray.direction, n);
  if (!(approach < 0.0f)) return {};
  const float t = above / -approach;
  if (!(t <= ray.length)) return {};
  return make_hit(ray, t, n);
}

GroundHit cast_box(const GroundBox& box, const GroundRay& ray) {
  if (!usable(ray)) return {};
  // Slab test in the box's frame.
  const glm::quat inv = glm::conjugate(box.rotation);
  const glm::vec3 o = inv * (ray.origin - box.center);
  const glm::vec3 d = inv * ray.direction;
  const glm::vec3 half = 0.5f * box.size;
  float t_near = -kInf, t_far = kInf;
  int axis = -1;
  float sign = 0.0f;
  for (int i = 0; i < 3; ++i) {
    if (std::fabs(d[i]) < 1e-12f) {
      if (o[i] < -half[i] || o[i] > half[i]) return {};
      continue;
    }
    float t0 = (-half[i] - o[i]) / d[i];
    float t1 = (half[i] - o[i]) / d[i];
    float s = -1.0f;  // t0 enters through the -face
    if (t0 > t1) {
      std::swap(t0, t1);
      s = 1.0f;
    }
    if (t0 > t_near) {
      t_near = t0;
      axis = i;
      sign = s;
    }
    t_far = std::min(t_far, t1);
  }
  if (axis < 0 || t_near > t_far || t_near < 0.0f || t_near > ray.length) return {};  // inside, behind or too far
  glm::vec3 local_n(0.0f);
  local_n[axis] = sign;
  return make_hit(ray, t_near, box.rotation * local_n);
}

namespace {

// The first crossing of the ray with the bilinear patch of cell (r, c) for t in [lo, hi]
// (the ray's parameter range over the cell's footprint), or a miss. Cell fractions in double:
// u0 = ox - c stays exact however far the cell is from the grid's origin.
GroundHit cast_cell(const GroundHeightField& f, const GroundRay& ray, int r, int c, double ox, double oz, double lo,
                    double hi) {
  const float h00 = f.heights[static_cast<size_t>(r) * static_cast<size_t>(f.columns) + static_cast<size_t>(c)];
  const float h10 = f.heights[static_cast<size_t>(r) * static_cast<size_t>(f.columns) + static_cast<size_t>(c) + 1];
  const float h01 = f.heights[(static_cast<size_t>(r) + 1) * static_cast<size_t>(f.columns) + static_cast<size_t>(c)];
  const float h11 =
      f.heights[(static_cast<size_t>(r) + 1) * static_cast<size_t>(f.columns) + static_cast<size_t>(c) + 1];
  const double cell = f.cell_size;
  // Ray in cell fractions: u = u0 + t du, v = v0 + t dv.
  const double u0 = ox - c, du = ray.direction.x / cell;
  const double v0 = oz - r, dv = ray.direction.z / cell;
  // g(t) = o.y + t d.y - h(u(t), v(t)) = A t^2 + B t + C (h = a + b u + c v + d u v, each linear in t).
  const double a = h00, b = double(h10) - h00, cc = double(h01) - h00, d = double(h00) - h10 - h01 + h11;
  const double A = -d * du * dv;
  const double B = ray.direction.y - (b * du + cc * dv + d * (u0 * dv + v0 * du));
  const double C = (double(ray.origin.y) - f.origin.y) - (a + b * u0 + cc * v0 + d * u0 * v0);
  double roots[2];
  int n = 0;
  if (std::fabs(A) < 1e-12) {
    if (std::fabs(B) > 1e-15) roots[n++] = -C / B;
  } else {
    const double disc = B * B - 4.0 * A * C;
    if (disc >= 0.0) {
      const double q = -0.5 * (B + (B >= 0.0 ? std::sqrt(disc) : -std::sqrt(disc)));  // the stable pair
      roots[n++] = q / A;
      if (q != 0.0) roots[n++] = C / q;
    }
  }
  double best = std::numeric_limits<double>::infinity();
  for (int k = 0; k < n; ++k)
    if (roots[k] >= lo - 1e-6 && roots[k] <= hi + 1e-6 && roots[k] < best) best = roots[k];
  if (!(best < std::numeric_limits<double>::infinity())) return {};
  const double t = std::clamp(best, 0.0, static_cast<double>(ray.length));
  const float u = static_cast<float>(std::clamp(u0 + t * du, 0.0, 1.0));
  const float v = static_cast<float>(std::clamp(v0 + t * dv, 0.0, 1.0));
  return make_hit(ray, static_cast<float>(t), bilinear_normal(h00, h10, h01, h11, u, v, f.cell_size));
}

// The ray's parameter range [lo, hi] where p0 + t dp lies in [0, extent]; false when empty.
bool clip_range(double p0, double dp, double extent, double& lo, double& hi) {
  if (dp == 0.0) return p0 >= 0.0 && p0 <= extent;
  double ta = (0.0 - p0) / dp, tb = (extent - p0) / dp;
  if (ta > tb) std::swap(ta, tb);
  lo = std::max(lo, ta);
  hi = std::min(hi, tb);
  return lo <= hi;
}

}  // namespace

GroundHit cast_heightfield(const GroundHeightField& f, const GroundRay& ray) {
  if (!usable(ray) || f.rows < 2 || f.columns < 2 || !(f.cell_size > 0.0f)) return {};
  // Everything in cell units and in double, so no cell index is formed from an unclamped
  // float (a long ray or a tiny cell spans more cells than an int holds).
  const double cell = f.cell_size;
  const double ox = (double(ray.origin.x) - f.origin.x) / cell, oz = (double(ray.origin.z) - f.origin.z) / cell;
  const double dx = ray.direction.x / cell, dz = ray.direction.z / cell;
  const double max_x = f.columns - 1, max_z = f.rows - 1;
  double lo = 0.0, hi = ray.length;
  if (!clip_range(ox, dx, max_x, lo, hi) || !clip_range(oz, dz, max_z, lo, hi)) return {};
  const auto index = [](double p, int cells) { return static_cast<int>(std::clamp(std::floor(p), 0.0, cells - 1.0)); };
  // A ray starting below the surface is inside the solid: no hit (as for the other shapes).
  if (ox >= 0.0 && oz >= 0.0 && ox <= max_x && oz <= max_z) {
    const int c = index(ox, f.columns - 1), r = index(oz, f.rows - 1);
    const auto H = [&](int rr, int cc) {
      return f.heights[static_cast<size_t>(rr) * static_cast<size_t>(f.columns) + static_cast<size_t>(cc)];
    };
    if (double(ray.origin.y) - f.origin.y <
        bilinear(H(r, c), H(r, c + 1), H(r + 1, c), H(r + 1, c + 1), static_cast<float>(ox - c),
                 static_cast<float>(oz - r)))
      return {};
  }
  // 2D DDA over the cells the ray's footprint crosses, nearest first: the first cell with a
  // crossing holds the nearest hit. At most rows + columns cells for any ray.
  const double t_in = lo;
  int c = index(ox + t_in * dx, f.columns - 1), r = index(oz + t_in * dz, f.rows - 1);
  const int step_c = dx > 0.0 ? 1 : -1, step_r = dz > 0.0 ? 1 : -1;
  const double inf = std::numeric_limits<double>::infinity();
  const auto next_boundary = [&](double p0, double dp, int i) {
    if (dp == 0.0) return inf;
    return ((dp > 0.0 ? i + 1.0 : double(i)) - p0) / dp;
  };
  double t_c = next_boundary(ox, dx, c), t_r = next_boundary(oz, dz, r);
  double t_cell = t_in;
  for (;;) {
    const double t_out = std::min({t_c, t_r, hi});
    const GroundHit h = cast_cell(f, ray, r, c, ox, oz, t_cell, t_out);
    if (h.hit) return h;
    if (t_out >= hi) return {};
    if (t_c <= t_r) {
      c += step_c;
      t_c += 1.0 / std::fabs(dx);
    } else {
      r += step_r;
      t_r += 1.0 / std::fabs(dz);
    }
    if (c < 0 || r < 0 || c > f.columns - 2 || r > f.rows - 2) return {};
    t_cell = t_out;
  }
}

GroundHit Ground::cast(const GroundRay& ray) const {
  GroundHit best;
  std::uint32_t id = 0;
  const auto consider = [&](const GroundHit& h) {
    if (h.hit && (!best.hit || h.distance < best.distance)) {
      best = h;
      best.surface = id;
    }
    ++id;
  };
  for (const GroundPlane& p : desc_.planes) consider(p.collide ? cast_plane(p, ray) : GroundHit{});
  for (const GroundBox& b : desc_.boxes) consider(b.collide ? cast_box(b, ray) : GroundHit{});
  for (const GroundHeightField& f : desc_.heightfields) consider(f.collide ? cast_heightfield(f, ray) : GroundHit{});
  return best;
}

Result<Ground> build_ground(const GroundDesc& desc) {
  Ground g;
  g.desc_ = desc;
  for (size_t i = 0; i < g.desc_.planes.size(); ++i) {
    GroundPlane& p = g.desc_.planes[i];
    const std::string what = "plane " + std::to_string(i);
    if (!is_finite(p.point) || !is_finite(p.normal)) return make_error(what + ": point and normal must be finite");
    const float len = glm::length(p.normal);
    if (!(len > 1e-6f) || !std::isfinite(len)) return make_error(what + ": the normal must not be zero");
    p.normal /= len;
  }
  for (size_t i = 0; i < g.desc_.boxes.size(); ++i) {
    GroundBox& b = g.desc_.boxes[i];
    const std::string what = "box " + std::to_string(i);
    if (!is_finite(b.center) || !is_finite(b.size)) return make_error(what + ": center and size must be finite");
    if (!(b.size.x > 0.0f && b.size.y > 0.0f && b.size.z > 0.0f)) return make_error(what + ": size must be > 0 on every axis");
    const auto q = normalized_rotation(b.rotation);
    if (!q) return make_error(what + ": rotation is zero or not finite");
    b.rotation = *q;
  }
  for (size_t i = 0; i < g.desc_.heightfields.size(); ++i) {
    const GroundHeightField& f = g.desc_.heightfields[i];
    const std::string what = "heightfield " + std::to_string(i);
    if (!is_finite(f.origin)) return make_error(what + ": origin must be finite");
    if (!(f.cell_size > 0.0f) || !std::isfinite(f.cell_size)) return make_error(what + ": cell size must be > 0");
    if (f.rows < 2 || f.columns < 2) return make_error(what + ": needs at least 2 rows and 2 columns of heights");
    if (f.heights.size() != static_cast<size_t>(f.rows) * static_cast<size_t>(f.columns))
      return make_error(what + ": expected " + std::to_string(f.rows * f.columns) + " heights (rows x columns), got " +
                        std::to_string(f.heights.size()));
    for (float h : f.heights)
      if (!std::isfinite(h)) return make_error(what + ": heights must be finite");
  }
  return g;
}

}  // namespace asterune

// --- pure pieces (src/controls/ground_detail.hpp) -----------------------------------------------

namespace asterune::detail {

GroundLift clamp_ground_lift(bool hit, float delta, float max_lift) {
  GroundLift out;
  if (!hit || !std::isfinite(delta)) {
    out.missed = true;
    return out;
  }
  const float limit = (max_lift > 0.0f) ? max_lift : 0.0f;  // NaN -> 0
  out.lift = std::clamp(delta, -limit, limit);
  out.clamped = std::fabs(delta) > limit;
  return out;
}

float resolve_missed_lift(bool other_hit, float other_lift) {
  return other_hit && std::isfinite(other_lift) ? other_lift : 0.0f;
}

float leg_drop_needed(const glm::vec3& hip, const glm::vec3& target, const glm::vec3& up, float reach) {
  const glm::vec3 v = target - hip;
  const float vu = glm::dot(v, up);
  const float excess = glm::dot(v, v) - reach * reach;  // > 0: out of reach now
  if (!(excess > 0.0f)) return 0.0f;
  const float disc = vu * vu - excess;
  const float p = disc >= 0.0f ? -vu - std::sqrt(disc) : -vu;
  return std::isfinite(p) ? std::max(0.0f, p) : 0.0f;
}

float ground_induced_drop(float corrected_drop, float animated_drop) {
  const float d = corrected_drop - animated_drop;
  return d > 0.0f ? d : 0.0f;  // NaN -> 0
}

float compromise_pelvis_drop(float left, float right, float max_drop) {
  const float l = left > 0.0f ? left : 0.0f;
  const float r = right > 0.0f ? right : 0.0f;
  const float k = kPelvisCompromise;
  const float drop = 0.5f * (l + r + std::sqrt((l - r) * (l - r) + 4.0f * k * k * l * r));
  const float cap = max_drop > 0.0f ? max_drop : 0.0f;
  return std::isfinite(drop) ? std::min(drop, cap) : 0.0f;
}

glm::quat capped_tilt(const glm::vec3& up, const glm::vec3& normal, float max_tilt_rad, float* tilt_rad, bool* capped) {
  const glm::quat identity(1.0f, 0.0f, 0.0f, 0.0f);
  if (tilt_rad) *tilt_rad = 0.0f;
  if (capped) *capped = false;
  if (!is_finite(up) || !is_finite(normal)) return identity;
  const glm::vec3 axis = glm::cross(up, normal);
  const float s = glm::length(axis);
  const float c = glm::dot(up, normal);
  if (!(s > 1e-7f) || c <= -0.999999f) return identity;  // parallel or opposite: no defined tilt
  float angle = std::atan2(s, c);
  const float cap = max_tilt_rad > 0.0f ? max_tilt_rad : 0.0f;
  const bool cut = angle > cap;
  if (cut) {
    angle = cap;
    if (capped) *capped = true;
  }
  if (tilt_rad) *tilt_rad = angle;
  if (angle == 0.0f) return identity;
  if (cut) return glm::angleAxis(angle, axis / s);
  // The whole arc: the half-vector quaternion (1 + c, up x normal), normalized, is the same
  // rotation without the sine and cosine of the half angle.
  const float w = 1.0f + c;
  const float inv = 1.0f / std::sqrt(w * w + s * s);
  return glm::quat(w * inv, axis.x * inv, axis.y * inv, axis.z * inv);
}

float smoothing_response(float dt, float tau) {
  if (!(tau > 0.0f) || !std::isfinite(tau)) return 1.0f;
  if (!(dt > 0.0f)) return 0.0f;
  const float r = 1.0f - std::exp(-dt / tau);
  return r >= 1.0f ? 1.0f : r;
}

glm::vec3 smooth_direction(const glm::vec3& current, const glm::vec3& target, float response) {
  if (!is_finite(current) || !is_finite(target) || !std::isfinite(response)) return target;
  if (response >= 1.0f) return target;
  if (response <= 0.0f) return current;
  const float c = std::clamp(glm::dot(current, target), -1.0f, 1.0f);
  glm::vec3 axis = glm::cross(current, target);
  float s = glm::length(axis);
  if (s < 1e-7f) {
    if (c > 0.0f) return target;
    axis = any_orthogonal(current);
    s = 1.0f;
  }
  const float angle = std::atan2(s, c) * response;
  return glm::normalize(glm::angleAxis(angle, axis / s) * current);
}

}  // namespace asterune::detail
