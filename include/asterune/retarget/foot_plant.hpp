// Planted feet (rule RT19): an output stage of the retarget that holds each target foot's sole
// where its contact began, for as long as the source foot is in contact, with the analytic
// two-bone leg solve (solvers/two_bone.hpp), and lets it go over a stated blend time after the
// contact ends so the leg never pops. Setup (build_foot_plant) retargets the contact starts and
// ends once; per frame (apply_foot_plant) is allocation-free and stateless (any time, any order).
// docs/retarget.md "Planted feet".
#pragma once

#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {

class Rig;
struct Clip;
struct AnimationBinding;
struct FootContacts;

struct FootPlantSettings {
  /// Seconds over which a released foot goes from where it was held back to the retargeted
  /// motion (smoothstep): the leg never jumps. <= 0 or nonfinite: 0.2 s.
  float blend_out = 0.2f;
};

/// One held contact of a target foot, rig space (the root part at identity).
struct PlantedContact {
  float start = 0.0f;  // seconds: the contact's first frame
  float end = 0.0f;    // seconds: its last frame
  glm::vec3 anchor{0.0f};   // where the sole is held during [start, end]
  glm::vec3 release{0.0f};  // anchor - the retargeted sole at `end`: the offset faded out after it
};

struct PlantedFoot {
  int upper = -1;  // target joints: upper leg (hip pivot), lower leg (knee), foot (ankle)
  int lower = -1;
  int foot = -1;
  glm::vec3 sole{0.0f};  // the sole point in the foot part's frame: its box's bottom face centre
  std::vector<PlantedContact> contacts;  // by start time
};

struct FootPlant {
  std::vector<PlantedFoot> feet;
  float blend_out = 0.2f;
};

/// Rule RT19. For every contact span of `contacts` (source frames) whose foot has a target leg
/// (upper leg, lower leg and foot roles on `rig`), retargets the span's first and last frame
/// through `binding` (retarget mode, bound to `clip`'s source) and records the anchor (the sole
/// at the start, plus what is left of the previous contact's release there) and the release
/// offset. Feet without a full target leg are left out. Fails when the binding is not a
/// retarget binding of `rig` or the clip does not sample.
Result<FootPlant> build_foot_plant(const Clip& clip, const AnimationBinding& binding, const Rig& rig,
                                   const FootContacts& contacts, const FootPlantSettings& settings = {});

/// The sole's goal for `foot` at clip time `time`, given its retargeted sole `sole` (rig space):
/// the anchor inside a contact; sole + release * (1 - smoothstep((time - end) / blend_out))
/// for blend_out seconds after it; `sole` otherwise. Exposed for tests.
glm::vec3 planted_sole_goal(const FootPlant& plant, const PlantedFoot& foot, float time, const glm::vec3& sole);

/// Rule RT19, per frame: moves each planted foot's sole to its goal by the two-bone solve of
/// its leg (the foot keeps its retargeted world orientation), writing the three leg joints'
/// rotations into `local`. `world` is caller scratch (rig.joint_count() entries) that receives
/// the rig-space placements (root part at identity) of the planted pose. No allocation, no
/// throw. False (nothing written) on wrong sizes.
bool apply_foot_plant(const FootPlant& plant, const Rig& rig, float time, std::span<Transform> local,
                      std::span<Transform> world);

}  // namespace asterune
