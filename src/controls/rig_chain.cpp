#include "controls/rig_chain.hpp"

#include <algorithm>

#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"

namespace asterune::detail {

Result<std::vector<int>> resolve_chain(const Rig& rig, const std::string& chain_root, const std::string& end,
                                       const std::string& what) {
  const JointLookup first = rig.find_joint(chain_root);
  if (!first.found()) return make_error(what + ": chain_root '" + chain_root + "': " + first.message);
  const JointLookup last = rig.find_joint(end);
  if (!last.found()) return make_error(what + ": end '" + end + "': " + last.message);
  std::vector<int> joints;
  for (int j = last.index; j >= 0; j = rig.parent(j)) {
    joints.push_back(j);
    if (j == first.index) {
      std::reverse(joints.begin(), joints.end());
      return joints;
    }
  }
  return make_error(what + ": end part '" + end + "' does not descend from chain_root '" + chain_root + "'");
}

void candidates_from_turns(const Rig& rig, const Transform& root, std::span<const Transform> local,
                           std::span<const Transform> world, std::span<const int> joints,
                           std::span<const glm::quat> turns, std::span<Transform> out) {
  if (joints.empty()) return;
  const auto c0 = rig.c0();
  const auto c1_inverse = rig.c1_inverse();
  const glm::quat identity(1.0f, 0.0f, 0.0f, 0.0f);
  // Only the parent's rotation enters a candidate, so the walk carries rotations alone.
  glm::quat new_parent = parent_placement(rig, root, world, joints[0]).rotation;
  // Translation-only attachments (most Roblox joints) skip their quaternion products: an exact
  // identity leaves every bit as it is.
  for (size_t k = 0; k < joints.size(); ++k) {
    const size_t u = static_cast<size_t>(joints[k]);
    Transform t = local[u];
    const glm::quat a = c0[u].rotation == identity ? new_parent : new_parent * c0[u].rotation;
    // The turned joint frame is turn * A * T; the next joint hangs from it directly, so the
    // walk does not wait for this joint's T' = A^-1 * (turn * A * T) to be normalized.
    new_parent = a * t.rotation;
    if (turns[k] != identity) {
      new_parent = turns[k] * new_parent;
      t.rotation = glm::normalize(glm::conjugate(a) * new_parent);
    }
    out[k] = t;
    if (c1_inverse[u].rotation != identity) new_parent = new_parent * c1_inverse[u].rotation;
  }
}

}  // namespace asterune::detail
