// Library ground shapes and the pure pieces of ground adaptation (include/asterune/controls/ground.hpp,
// docs/ground.md).
#include "asterune/controls/ground.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "asterune/math/transform.hpp"

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

GroundHit cast_heightfield(const GroundHeightField& f, const GroundRay& ray) {
  if (!usable(ray) || f.rows < 2 || f.columns < 2) return {};
  const float cell = f.cell_size;
  const glm::vec3 o = ray.origin - f.origin;
  const glm::vec3 e = o + ray.length * ray.direction;
  // Cells touched by the ray's XZ bounding box (one cell for a vertical foot ray).
  const float max_x = static_cast<float>(f.columns - 1), max_z = static_cast<float>(f.rows - 1);
  const float x0 = std::min(o.x, e.x) / cell, x1 = std::max(o.x, e.x) / cell;
  const float z0 = std::min(o.z, e.z) / cell, z1 = std::max(o.z, e.z) / cell;
  if (x1 < 0.0f || z1 < 0.0f || x0 > max_x || z0 > max_z) return {};
  const int c_lo = std::clamp(static_cast<int>(std::floor(x0)), 0, f.columns - 2);
  const int c_hi = std::clamp(static_cast<int>(std::floor(x1)), 0, f.columns - 2);
  const int r_lo = std::clamp(static_cast<int>(std::floor(z0)), 0, f.rows - 2);
  const int r_hi = std::clamp(static_cast<int>(std::floor(z1)), 0, f.rows - 2);
  // A ray starting below the surface is inside the solid: no hit (as for the other shapes).
  {
    const float ux = o.x / cell, vz = o.z / cell;
    if (ux >= 0.0f && vz >= 0.0f && ux <= max_x && vz <= max_z) {
      const int c = std::min(static_cast<int>(ux), f.columns - 2), r = std::min(static_cast<int>(vz), f.rows - 2);
      const auto H = [&](int rr, int cc) { return f.heights[static_cast<size_t>(rr * f.columns + cc)]; };
      if (o.y < bilinear(H(r, c), H(r, c + 1), H(r + 1, c), H(r + 1, c + 1), ux - c, vz - r)) return {};
    }
  }
  GroundHit best;
  float best_t = kInf;
  for (int r = r_lo; r <= r_hi; ++r) {
    for (int c = c_lo; c <= c_hi; ++c) {
      const float h00 = f.heights[static_cast<size_t>(r * f.columns + c)];
      const float h10 = f.heights[static_cast<size_t>(r * f.columns + c + 1)];
      const float h01 = f.heights[static_cast<size_t>((r + 1) * f.columns + c)];
      const float h11 = f.heights[static_cast<size_t>((r + 1) * f.columns + c + 1)];
      // Ray in cell fractions: u = (o.x/cell - c) + t du, v = (o.z/cell - r) + t dv.
      const float u0 = o.x / cell - static_cast<float>(c), du = ray.direction.x / cell;
      const float v0 = o.z / cell - static_cast<float>(r), dv = ray.direction.z / cell;
      // Parameter range inside the cell's footprint [0,1]^2.
      float lo = 0.0f, hi = ray.length;
      const auto clip = [&](float p0, float dp) {
        if (std::fabs(dp) < 1e-12f) {
          if (p0 < 0.0f || p0 > 1.0f) hi = -1.0f;
          return;
        }
        float ta = (0.0f - p0) / dp, tb = (1.0f - p0) / dp;
        if (ta > tb) std::swap(ta, tb);
        lo = std::max(lo, ta);
        hi = std::min(hi, tb);
      };
      clip(u0, du);
      clip(v0, dv);
      if (lo > hi) continue;
      // g(t) = o.y + t d.y - h(u(t), v(t)) = A t^2 + B t + C (bilinear in u, v; each linear in t).
      const float a = h00, b = h10 - h00, cc = h01 - h00, d = h00 - h10 - h01 + h11;  // h = a + b u + c v + d u v
      const float A = -d * du * dv;
      const float B = ray.direction.y - (b * du + cc * dv + d * (u0 * dv + v0 * du));
      const float C = o.y - (a + b * u0 + cc * v0 + d * u0 * v0);
      float roots[2];
      int n = 0;
      if (std::fabs(A) < 1e-9f) {
        if (std::fabs(B) > 1e-12f) roots[n++] = -C / B;
      } else {
        const float disc = B * B - 4.0f * A * C;
        if (disc >= 0.0f) {
          const float s = std::sqrt(disc);
          // Numerically stable pair.
          const float q = -0.5f * (B + (B >= 0.0f ? s : -s));
          roots[n++] = q / A;
          if (q != 0.0f) roots[n++] = C / q;
        }
      }
      for (int k = 0; k < n; ++k) {
        const float t = roots[k];
        if (!(t >= lo - 1e-6f && t <= hi + 1e-6f) || !(t < best_t)) continue;
        const float tc = std::clamp(t, 0.0f, ray.length);
        const float u = std::clamp(u0 + tc * du, 0.0f, 1.0f), v = std::clamp(v0 + tc * dv, 0.0f, 1.0f);
        best_t = tc;
        best = make_hit(ray, tc, bilinear_normal(h00, h10, h01, h11, u, v, cell));
      }
    }
  }
  return best;
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

// --- pure pieces ------------------------------------------------------------------------------

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
  if (angle > cap) {
    angle = cap;
    if (capped) *capped = true;
  }
  if (tilt_rad) *tilt_rad = angle;
  if (angle == 0.0f) return identity;
  return glm::angleAxis(angle, axis / s);
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

}  // namespace asterune
