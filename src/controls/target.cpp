#include "asterune/controls/target.hpp"

#include <utility>

namespace asterune {

Target target_at(const glm::vec3& world_point) {
  Target t;
  t.kind = TargetKind::kPosition;
  t.position = world_point;
  return t;
}

Target target_path(std::vector<PathKey> keys) {
  Target t;
  t.kind = TargetKind::kPath;
  t.path = std::move(keys);
  return t;
}

Target target_on_part(std::string part_name, const glm::vec3& offset) {
  Target t;
  t.kind = TargetKind::kPart;
  t.part = std::move(part_name);
  t.position = offset;
  return t;
}

}  // namespace asterune
