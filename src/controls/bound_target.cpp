#include "controls/bound_target.hpp"

#include <cmath>
#include <limits>

#include "asterune/rig/rig.hpp"

namespace asterune::detail {

Result<BoundTarget> build_bound_target(const Target& target, const Rig& rig, const std::string& what) {
  BoundTarget bound{target, -1};
  switch (target.kind) {
    case TargetKind::kPosition:
      if (!is_finite(target.position)) return make_error(what + ": position is not finite");
      return bound;
    case TargetKind::kPath: {
      if (target.path.empty()) return make_error(what + ": path has no keys");
      for (size_t i = 0; i < target.path.size(); ++i) {
        const PathKey& k = target.path[i];
        if (!std::isfinite(k.t) || !is_finite(k.position))
          return make_error(what + ": path key " + std::to_string(i) + " is not finite");
        if (i > 0 && k.t < target.path[i - 1].t)
          return make_error(what + ": path key " + std::to_string(i) + " has a time earlier than the key before it");
      }
      return bound;
    }
    case TargetKind::kPart: {
      if (!is_finite(target.position)) return make_error(what + ": offset is not finite");
      if (rig.root_part() >= 0 && rig.part(rig.root_part()).name == target.part) return bound;
      const JointLookup hit = rig.find_joint(target.part);
      if (!hit.found()) return make_error(what + ": part '" + target.part + "': " + hit.message);
      bound.part_joint = hit.index;
      return bound;
    }
  }
  return make_error(what + ": unknown target kind");
}

glm::vec3 evaluate_target(const BoundTarget& bound, const Transform& root, std::span<const Transform> world,
                          float time) {
  constexpr float nan = std::numeric_limits<float>::quiet_NaN();
  const Target& target = bound.target;
  switch (target.kind) {
    case TargetKind::kPosition:
      return target.position;
    case TargetKind::kPath: {
      const auto& keys = target.path;
      if (keys.empty()) return glm::vec3(nan);
      if (!std::isfinite(time) || time <= keys.front().t) return keys.front().position;
      if (time >= keys.back().t) return keys.back().position;
      // Binary search for the last key with t <= time.
      size_t lo = 0;
      size_t hi = keys.size() - 1;
      while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        if (keys[mid].t <= time) lo = mid; else hi = mid;
      }
      const float span = keys[hi].t - keys[lo].t;
      if (!(span > 0.0f)) return keys[hi].position;
      const float a = (time - keys[lo].t) / span;
      return keys[lo].position + a * (keys[hi].position - keys[lo].position);
    }
    case TargetKind::kPart: {
      if (bound.part_joint < 0) return transform_point(root, target.position);
      const size_t j = static_cast<size_t>(bound.part_joint);
      if (j >= world.size()) return glm::vec3(nan);
      return transform_point(world[j], target.position);
    }
  }
  return glm::vec3(nan);
}

}  // namespace asterune::detail
