// The graph's pose kernels. blend_weighted() is the one weighted blend every blending node
// (Blend1D/2D inside their range, selectors' transitions, sequences) goes through: it runs the
// blending job, blend_poses (rule BL1: joint weight = weight x coverage, sign-aligned
// normalized sum, the rest pose filling what the weights leave below 1); Over, Add, Subtract
// and the blend-space extrapolation are their own kernels (rules GR7, GR10).
#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "asterune/anim/blending_job.hpp"
#include "graph/graph_internal.hpp"

namespace asterune::graph_detail {
namespace {

// slerp with any factor (extrapolates outside [0, 1]), shortest arc.
glm::quat slerp_any(const glm::quat& a, glm::quat b, float t) {
  if (glm::dot(a, b) < 0.0f) b = -b;
  const glm::quat q = glm::slerp(a, b, t);
  return glm::normalize(q);
}

float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

// slerp_any(1, q_d, a) for up to kAddBlock joints of an Add, pass by pass (blend_add).
constexpr int kAddBlock = 16;
struct AddTurns {
  glm::quat turn[kAddBlock];
  float a[kAddBlock];
  float angle[kAddBlock];  // cos(theta), then theta
  bool skip[kAddBlock];    // a is 0 or not finite: the base shows
  bool linear[kAddBlock];  // glm::slerp's near-identity branch (mix)
};

void add_turns(const Transform* add, const float* cadd, float weight, int count, AddTurns& t) {
  const glm::quat one(1.0f, 0.0f, 0.0f, 0.0f);
  for (int k = 0; k < count; ++k) {
    const float a = weight * cadd[k];
    t.a[k] = a;
    t.skip[k] = a == 0.0f || !std::isfinite(a);
    glm::quat z = add[k].rotation;
    if (glm::dot(one, z) < 0.0f) z = -z;  // slerp_any's shortest arc
    float cos_theta = glm::dot(one, z);
    if (cos_theta < 0.0f) {  // glm::slerp's own test (a -0 dot)
      z = -z;
      cos_theta = -cos_theta;
    }
    t.turn[k] = z;
    t.linear[k] = cos_theta > 1.0f - glm::epsilon<float>();
    t.angle[k] = cos_theta;
  }
  for (int k = 0; k < count; ++k)
    if (!t.skip[k] && !t.linear[k]) t.angle[k] = std::acos(t.angle[k]);
  for (int k = 0; k < count; ++k) {
    if (t.skip[k]) continue;
    const glm::quat& z = t.turn[k];
    const float a = t.a[k];
    glm::quat q;
    if (t.linear[k]) {
      q = glm::quat(glm::mix(one.w, z.w, a), glm::mix(one.x, z.x, a), glm::mix(one.y, z.y, a), glm::mix(one.z, z.z, a));
    } else {
      const float angle = t.angle[k];
      q = (std::sin((1.0f - a) * angle) * one + std::sin(a * angle) * z) / std::sin(angle);
    }
    t.turn[k] = glm::normalize(q);
  }
}

}  // namespace

void blend_weighted(int joints, int count, const Transform* const* poses, const float* const* covs, const float* w,
                    Transform* out, float* out_cov) {
  // The blending job (anim/blending_job.hpp): each pose a layer, its coverage the joint weights.
  const auto n = static_cast<size_t>(joints);
  BlendLayer layers[64];
  const int used = count < 64 ? count : 64;
  for (int i = 0; i < used; ++i)
    layers[i] = BlendLayer{std::span<const Transform>(poses[i], n), w[i], std::span<const float>(covs[i], n)};
  BlendingJob job;
  job.layers = std::span<const BlendLayer>(layers, static_cast<size_t>(used));
  job.output = std::span<Transform>(out, n);
  job.coverage = std::span<float>(out_cov, n);
  blend_poses(job);  // sizes match by construction
}

void blend_two(int joints, const Transform* a, const float* ca, const Transform* b, const float* cb, float t,
               Transform* out, float* out_cov) {
  for (int j = 0; j < joints; ++j) {
    out[j].rotation = slerp_any(a[j].rotation, b[j].rotation, t);
    out[j].position = a[j].position + t * (b[j].position - a[j].position);
    out_cov[j] = clamp01(ca[j] + t * (cb[j] - ca[j]));
  }
}

void blend_over(int joints, const Transform* base, const float* cbase, const Transform* over, const float* cover,
                float weight, Transform* out, float* out_cov) {
  for (int j = 0; j < joints; ++j) {
    const float a = weight * cover[j];
    if (a == 0.0f || !std::isfinite(a)) {
      out[j] = base[j];
      out_cov[j] = cbase[j];
    } else if (a == 1.0f) {
      out[j] = over[j];
      out_cov[j] = 1.0f;
    } else {
      out[j].rotation = slerp_any(base[j].rotation, over[j].rotation, a);
      out[j].position = base[j].position + a * (over[j].position - base[j].position);
      out_cov[j] = clamp01(cbase[j] + a * (1.0f - cbase[j]));
    }
  }
}

void blend_add(int joints, const Transform* base, const float* cbase, const Transform* add, const float* cadd,
               float weight, Transform* out, float* out_cov) {
  // Rule GR10: q = slerp(1, q_d, a) q_base, computed in passes over the joints so that the libm
  // calls of one joint do not wait on the previous joint's chain: each pass's calls are
  // independent. Same operations in the same order as slerp_any(one, q_d, a) (glm::slerp),
  // so the same bits.
  for (int j0 = 0; j0 < joints; j0 += kAddBlock) {
    const int count = joints - j0 < kAddBlock ? joints - j0 : kAddBlock;
    AddTurns turns;
    add_turns(add + j0, cadd + j0, weight, count, turns);
    for (int k = 0; k < count; ++k) {
      const int j = j0 + k;
      if (turns.skip[k]) {
        out[j] = base[j];
        out_cov[j] = cbase[j];
        continue;
      }
      out[j].rotation = glm::normalize(turns.turn[k] * base[j].rotation);
      out[j].position = base[j].position + turns.a[k] * add[j].position;
      out_cov[j] = std::max(cbase[j], clamp01(std::abs(turns.a[k])));
    }
  }
}

void blend_subtract(int joints, const Transform* a, const float* ca, const Transform* b, const float* cb, float weight,
                    Transform* out, float* out_cov) {
  const glm::quat one(1.0f, 0.0f, 0.0f, 0.0f);
  for (int j = 0; j < joints; ++j) {
    const float w = weight * cb[j];
    if (w == 0.0f || !std::isfinite(w)) {
      out[j] = a[j];
      out_cov[j] = ca[j];
      continue;
    }
    out[j].rotation = glm::normalize(a[j].rotation * slerp_any(one, glm::conjugate(b[j].rotation), w));
    out[j].position = a[j].position - w * b[j].position;
    out_cov[j] = ca[j];
  }
}

}  // namespace asterune::graph_detail
