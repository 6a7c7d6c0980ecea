#include "asterune/rig/world.hpp"

#include "asterune/core/assert.hpp"
#include "asterune/rig/rig.hpp"
#include "math/sse_quat.hpp"
#include "rig/walk_schedule.hpp"

namespace asterune {
namespace {

#if defined(ASTERUNE_SSE2)
using sse::is_identity;
using sse::load;
using sse::quat_mul;
using sse::rotate;

// A placement held in registers.
struct Placement {
  __m128 q;
  __m128 p;
};

inline Placement load(const Transform& t) { return {load(t.rotation), load(t.position)}; }

// world = P * (C0 * T * C1^-1), every step in registers. The identity tests take the same
// branches as joint_local(), so a translation-only C0 or C1 skips its product here too.
inline Placement place_joint(const Placement& parent, const Transform& c0, const Transform& t,
                             const Transform& c1_inverse) {
  const __m128 tq = load(t.rotation);
  const __m128 c1q = load(c1_inverse.rotation);
  __m128 q = is_identity(c1q) ? tq : quat_mul(tq, c1q);
  __m128 p = _mm_add_ps(load(t.position), rotate(tq, load(c1_inverse.position)));
  const __m128 c0q = load(c0.rotation);
  if (is_identity(c0q)) {
    p = _mm_add_ps(p, load(c0.position));
  } else {
    q = quat_mul(c0q, q);
    p = _mm_add_ps(load(c0.position), rotate(c0q, p));
  }
  return {quat_mul(parent.q, q), _mm_add_ps(parent.p, rotate(parent.q, p))};
}

inline void store(const Placement& placed, Transform& out) {
  sse::store(placed.q, out.rotation);
  sse::store(placed.p, out.position);
}

// root * anchor (a root joint's parent part), in registers: it heads the walk's dependency chain.
// A root part's anchor is usually the identity rotation: its product is skipped, as in place_joint().
inline Placement root_placement(const Transform& root, const Transform& anchor) {
  const __m128 rq = load(root.rotation);
  const __m128 aq = load(anchor.rotation);
  return {is_identity(aq) ? rq : quat_mul(rq, aq), _mm_add_ps(load(root.position), rotate(rq, load(anchor.position)))};
}

static_assert(sizeof(Transform) == 28, "a Transform is 7 packed floats");
using sse::Quat4;
using sse::Vec4;

// Four Transforms' rotations and positions, one per lane. The second load of each is the last
// four floats (w, position), which never reads past the Transform.
inline void gather(const Transform& a, const Transform& b, const Transform& c, const Transform& d, Quat4& q,
                   Vec4& p) {
  const float* fa = &a.rotation.x;
  const float* fb = &b.rotation.x;
  const float* fc = &c.rotation.x;
  const float* fd = &d.rotation.x;
  q = {_mm_loadu_ps(fa), _mm_loadu_ps(fb), _mm_loadu_ps(fc), _mm_loadu_ps(fd)};
  _MM_TRANSPOSE4_PS(q.x, q.y, q.z, q.w);
  __m128 w = _mm_loadu_ps(fa + 3);
  p = {_mm_loadu_ps(fb + 3), _mm_loadu_ps(fc + 3), _mm_loadu_ps(fd + 3)};
  _MM_TRANSPOSE4_PS(w, p.x, p.y, p.z);
}

// Four placed parents, read back soon after they were written (by scatter() or store()). Each
// load lies inside one earlier store, so the store buffer forwards it: the rotation from the
// 16-byte rotation store, the position from the store that covers it (scatter's second store,
// or store()'s 8 + 4 bytes). gather()'s load of floats 3-6 would take bytes from two stores,
// which cannot forward and waits until both reach the cache.
inline void gather_placed(const Transform& a, const Transform& b, const Transform& c, const Transform& d, Quat4& q,
                          Vec4& p) {
  q = {_mm_loadu_ps(&a.rotation.x), _mm_loadu_ps(&b.rotation.x), _mm_loadu_ps(&c.rotation.x),
       _mm_loadu_ps(&d.rotation.x)};
  _MM_TRANSPOSE4_PS(q.x, q.y, q.z, q.w);
  __m128 pa = load(a.position), pb = load(b.position), pc = load(c.position), pd = load(d.position);
  _MM_TRANSPOSE4_PS(pa, pb, pc, pd);
  p = {pa, pb, pc};
}

inline void scatter(const Quat4& q, const Vec4& p, Transform& a, Transform& b, Transform& c, Transform& d) {
  __m128 qx = q.x, qy = q.y, qz = q.z, qw = q.w;
  _MM_TRANSPOSE4_PS(qx, qy, qz, qw);
  __m128 w = q.w, px = p.x, py = p.y, pz = p.z;
  _MM_TRANSPOSE4_PS(w, px, py, pz);
  // Lane by lane, so a slot repeated to pad its block writes the same bits twice. Floats 3-6
  // first, then 0-3: the rotation's 16 bytes come from one store (gather_placed).
  _mm_storeu_ps(&a.rotation.w, w);
  _mm_storeu_ps(&a.rotation.x, qx);
  _mm_storeu_ps(&b.rotation.w, px);
  _mm_storeu_ps(&b.rotation.x, qy);
  _mm_storeu_ps(&c.rotation.w, py);
  _mm_storeu_ps(&c.rotation.x, qz);
  _mm_storeu_ps(&d.rotation.w, pz);
  _mm_storeu_ps(&d.rotation.x, qw);
}

using detail::FrameLane;
using detail::WalkBlockBits;

// Lane k of a block's record in Rig's walk lanes (walk_schedule.hpp).
inline __m128 lane(const float* block, FrameLane k) { return _mm_loadu_ps(block + 4 * static_cast<int>(k)); }

// The full walk in Rig's schedule: the roots one at a time, then the other joints four at a
// time in Rig::walk_order() (every parent is placed before its block). Each lane does what
// place_joint() does, in the same order, skipping an identity product only when all four lanes
// have one (a product by an exact identity changes no value, at most a zero's sign), so a
// subtree re-evaluated one joint at a time gets the same floats as the full walk.
void evaluate_blocks(const Rig& rig, const Transform& root, const Transform* t, Transform* w) {
  const int* order = rig.walk_order().data();
  const int* parents = detail::walk_parents(rig).data();
  const unsigned char* block_bits = detail::walk_block_bits(rig).data();
  const float* block = detail::walk_lanes(rig);
  const Transform* anchor = rig.anchor().data();
  const Transform* c0 = rig.c0().data();
  const Transform* c1_inverse = rig.c1_inverse().data();
  for (const int r : rig.walk_roots()) {
    store(place_joint(root_placement(root, anchor[r]), c0[r], t[r], c1_inverse[r]), w[r]);
  }
  const int slots = static_cast<int>(rig.walk_order().size());
  for (int s = 0; s < slots; s += 4, block += detail::kWalkBlockFloats) {
    const int j0 = order[s], j1 = order[s + 1], j2 = order[s + 2], j3 = order[s + 3];
    const unsigned char bits = block_bits[s / 4];
    Quat4 tq;
    Vec4 tp;
    gather(t[j0], t[j1], t[j2], t[j3], tq, tp);
    Quat4 q = tq;
    if (!detail::has(bits, WalkBlockBits::kC1Identity)) {
      q = quat_mul(tq, Quat4{lane(block, FrameLane::kC1InvQx), lane(block, FrameLane::kC1InvQy),
                             lane(block, FrameLane::kC1InvQz), lane(block, FrameLane::kC1InvQw)});
    }
    const Vec4 c1p{lane(block, FrameLane::kC1InvPx), lane(block, FrameLane::kC1InvPy),
                   lane(block, FrameLane::kC1InvPz)};
    Vec4 p = sse::add(tp, rotate(tq, c1p));
    const Vec4 c0p{lane(block, FrameLane::kC0Px), lane(block, FrameLane::kC0Py), lane(block, FrameLane::kC0Pz)};
    if (detail::has(bits, WalkBlockBits::kC0Identity)) {
      p = sse::add(p, c0p);
    } else {
      const Quat4 c0q{lane(block, FrameLane::kC0Qx), lane(block, FrameLane::kC0Qy), lane(block, FrameLane::kC0Qz),
                      lane(block, FrameLane::kC0Qw)};
      q = quat_mul(c0q, q);
      p = sse::add(c0p, rotate(c0q, p));
    }
    Quat4 pq;
    Vec4 pp;
    gather_placed(w[parents[s]], w[parents[s + 1]], w[parents[s + 2]], w[parents[s + 3]], pq, pp);
    scatter(quat_mul(pq, q), sse::add(pp, rotate(pq, p)), w[j0], w[j1], w[j2], w[j3]);
  }
}
#else

// The joint's own placement relative to its parent part, C0 * T * inverse(C1). It does not
// depend on the parent, so the walk computes it off the parent-to-child dependency chain and
// the only compose that waits for the parent is the final one. A translation-only C0 or C1
// skips its quaternion product (multiplying by an exact identity changes no bit of it);
// qis_identity is the scalar kernels' exact-identity test (math/sse_quat.hpp).
inline Transform joint_local(const Transform& c0, const Transform& t, const Transform& c1_inverse) {
  Transform tc;
  if (qis_identity(c1_inverse.rotation)) {
    tc.rotation = t.rotation;
    tc.position = t.position + t.rotation * c1_inverse.position;
  } else {
    tc = t * c1_inverse;
  }
  if (qis_identity(c0.rotation)) {
    tc.position += c0.position;
    return tc;
  }
  return c0 * tc;
}

// Without SSE2 a placement in flight is a plain Transform.
using Placement = Transform;
inline Transform load(const Transform& t) { return t; }
inline void store(const Placement& placed, Transform& out) { out = placed; }
inline Placement root_placement(const Transform& root, const Transform& anchor) { return root * anchor; }

inline Placement place_joint(const Placement& parent, const Transform& c0, const Transform& t,
                             const Transform& c1_inverse) {
  return parent * joint_local(c0, t, c1_inverse);
}
#endif

// One forward walk over the layout range [begin, end); parents come before children.
// world = P * (C0 * T * inverse(C1)): the same placement as ((P * C0) * T) * inverse(C1) up to
// float rounding of the regrouping. A joint whose parent is the joint just placed (a limb, a
// spine) takes it as it is rather than reading it back from memory.
void evaluate_range(const Rig& rig, const Transform& root, std::span<const Transform> local,
                    std::span<Transform> world, int begin, int end) {
  const int* parents = rig.parents().data();
  const Transform* c0 = rig.c0().data();
  const Transform* c1_inverse = rig.c1_inverse().data();
  const Transform* anchor = rig.anchor().data();
  const Transform* t = local.data();
  Transform* w = world.data();
  Placement last{};
  for (int i = begin; i < end; ++i) {
    const int p = parents[i];
    const Placement parent = p < 0 ? root_placement(root, anchor[i]) : (p == i - 1 && i > begin) ? last : load(w[p]);
    last = place_joint(parent, c0[i], t[i], c1_inverse[i]);
    store(last, w[i]);
  }
}

}  // namespace

static bool pose_sizes_match(const Rig& rig, std::span<const Transform> local, std::span<Transform> world) {
  const size_t n = static_cast<size_t>(rig.joint_count());
  return local.size() == n && world.size() == n;
}

bool evaluate_world_subtree(const Rig& rig, const Transform& root, std::span<const Transform> local,
                            std::span<Transform> world, int j) {
  ASTERUNE_EXPECT_OR_RETURN(pose_sizes_match(rig, local, world) && j >= 0 && j < rig.joint_count(),
                            "local and world hold rig.joint_count() entries and j is a joint", false);
  evaluate_range(rig, root, local, world, j, rig.subtree_end(j));
  return true;
}

bool evaluate_world(const Rig& rig, const Transform& root, std::span<const Transform> local,
                    std::span<Transform> world) {
  ASTERUNE_EXPECT_OR_RETURN(pose_sizes_match(rig, local, world), "local and world hold rig.joint_count() entries",
                            false);
#if defined(ASTERUNE_SSE2)
  if (!rig.walk_roots().empty()) {
    evaluate_blocks(rig, root, local.data(), world.data());
    return true;
  }
#endif
  evaluate_range(rig, root, local, world, 0, rig.joint_count());
  return true;
}

Transform parent_placement(const Rig& rig, const Transform& root, std::span<const Transform> world, int j) {
  const int p = rig.parents()[static_cast<size_t>(j)];
  return p >= 0 ? world[static_cast<size_t>(p)] : root * rig.anchor()[static_cast<size_t>(j)];
}

Transform attachment_frame(const Rig& rig, const Transform& parent_world, int j) {
  return parent_world * rig.c0()[static_cast<size_t>(j)];
}

glm::vec3 joint_pivot(const Rig& rig, std::span<const Transform> world, int j) {
  return transform_point(world[static_cast<size_t>(j)], rig.c1()[static_cast<size_t>(j)].position);
}

glm::quat local_rotation_for_frame(const Rig& rig, const Transform& parent_world, int j, const glm::quat& frame_world) {
  const glm::quat a = parent_world.rotation * rig.c0()[static_cast<size_t>(j)].rotation;
  return glm::normalize(glm::conjugate(a) * frame_world);
}

glm::quat local_rotation_for_part(const Rig& rig, const Transform& parent_world, int j, const glm::quat& part_world) {
  return local_rotation_for_frame(rig, parent_world, j, part_world * rig.c1()[static_cast<size_t>(j)].rotation);
}

Transform local_for_part(const Rig& rig, const Transform& parent_world, int j, const Transform& part_world) {
  const Transform a = attachment_frame(rig, parent_world, j);
  Transform t = inverse(a) * part_world * rig.c1()[static_cast<size_t>(j)];
  t.rotation = glm::normalize(t.rotation);
  return t;
}

bool evaluate_rest_world(const Rig& rig, const Transform& root, std::span<Transform> world) {
  ASTERUNE_EXPECT_OR_RETURN(world.size() == static_cast<size_t>(rig.joint_count()),
                            "world holds rig.joint_count() entries", false);
  const auto parents = rig.parents();
  const auto c0 = rig.c0();
  const auto c1_inverse = rig.c1_inverse();
  const auto anchor = rig.anchor();
  const size_t n = static_cast<size_t>(rig.joint_count());
  for (size_t u = 0; u < n; ++u) {
    const int p = parents[u];
    const Transform parent = p >= 0 ? world[static_cast<size_t>(p)] : root * anchor[u];
    world[u] = parent * c0[u] * c1_inverse[u];
  }
  return true;
}

}  // namespace asterune
