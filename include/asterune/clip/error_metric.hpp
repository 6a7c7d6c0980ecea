// The virtual-vertex error metric (rule P7): how far an approximated animation (keys dropped,
// values quantized) puts a rig's parts from where the exact one puts them, measured as the
// largest distance in rig space between the exact and the approximated positions of points
// fixed on every part. A rigid motion's largest displacement over a box is at one of its
// corners, so the corners of each part box bound the whole part, turns included (a hand
// turning about the line from its joint to its centre moves no centre, but moves its
// corners). A part too small for its corners to show a turn (every side below 0.1 studs) is
// measured instead at the six points 0.1 studs from its pivot along its axes.
//
// Setup (make_virtual_vertices, make_vertex_error_scratch) allocates; the measures allocate
// nothing, never throw, and are deterministic.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "asterune/math/transform.hpp"

namespace asterune {

class Rig;

/// The points measured on each joint's child part, in that part's own frame (its placement's
/// coordinates: a part's placement is its box's centre).
struct VirtualVertices {
  std::vector<std::uint32_t> begin;  // joint_count + 1 entries: joint j's points are [begin[j], begin[j + 1])
  std::vector<glm::vec3> points;
};

/// The default virtual vertices of `rig`: the eight corners (+-size / 2) of each joint's child
/// part box, or, when every side of the part is below `min_size` (0.1 studs by default), the six
/// points `min_size` from the joint's pivot (C1's origin in the part) along the part's axes.
/// The root part is placed by the root, not by a local, so it has none. Setup: allocates.
VirtualVertices make_virtual_vertices(const Rig& rig, float min_size = 0.1f);

/// Caller-owned buffers for the measures (world placements of both poses, and interpolated
/// locals for the instants between frames), sized for one rig.
struct VertexErrorScratch {
  std::vector<Transform> exact_local, approx_local, exact_world, approx_world;
};

/// Scratch sized for `rig` (setup: allocates).
VertexErrorScratch make_vertex_error_scratch(const Rig& rig);

/// The largest distance found, and where.
struct VertexError {
  float distance = 0.0f;  // studs, in rig space; +inf when a position came out nonfinite
  float frame = 0.0f;     // the frame time it was found at (3.25: a quarter past frame 3)
  int joint = -1;         // the joint whose child part it is on; -1 when nothing was measured
  bool nonfinite = false; // an approximated or exact position was NaN or infinite
};

/// The virtual-vertex error of one pose pair: both local poses (rig.joint_count() entries each)
/// placed in rig space (root at identity, evaluate_world), every point of `vertices` compared.
/// False, and `out` untouched, when a size does not match the rig (rule RG4). Allocation-free.
bool pose_vertex_error(const Rig& rig, const VirtualVertices& vertices, std::span<const Transform> exact_local,
                       std::span<const Transform> approx_local, VertexErrorScratch& scratch, VertexError& out);

/// The virtual-vertex error of two animations given as locals per frame (`exact` and `approx`
/// hold frame_count * rig.joint_count() entries, frame after frame): the largest over every
/// frame and the three quarter frames between each pair of frames, where both animations play
/// linearly between their frames (rotations by nlerp_or_slerp along the shortest arc, as a clip
/// of linear keys samples; positions lerped). The first largest is reported (earliest frame,
/// then lowest joint). False, and `out` untouched, when a size does not match (rule RG4).
/// Allocation-free.
bool frames_vertex_error(const Rig& rig, const VirtualVertices& vertices, std::span<const Transform> exact,
                         std::span<const Transform> approx, VertexErrorScratch& scratch, VertexError& out);

}  // namespace asterune
