#include "controls_step.hpp"

#include <optional>
#include <variant>

namespace asterune::cli {

ControlStackStep::ControlStackStep(const Rig& rig, const std::vector<ControlDesc>& controls, const std::string& origin)
    : rig_(rig), world_(static_cast<size_t>(rig.joint_count())) {
  Result<ControlStack> stack = ControlStack::build(rig_, controls);
  if (!stack) throw CliError(origin + ": " + stack.message());
  stack_ = std::move(stack.value());
}

void ControlStackStep::update(float time, float dt, const Transform& root, std::span<Transform> local,
                              std::span<float> coverage, std::vector<io::ControlRecord>& reports) {
  StackFrame frame{root, dt, time};
  if (ground_) frame.ground = &*ground_;
  stack_.update(rig_, frame, local, coverage, world_);
  for (int i = 0; i < stack_.size(); ++i) {
    const asterune::ControlReport& r = stack_.report(i);
    io::ControlRecord rec{stack_.desc(i).name, to_string(r.status), r.reached, r.clamped, r.distance,
                          r.angle, r.weight, r.passes, r.stretch, r.target, std::nullopt, std::nullopt, std::nullopt};
    if (r.has_pole) rec.pole = r.pole;
    if (std::holds_alternative<SpringSettings>(stack_.desc(i).settings))
      rec.spring = io::SpringRecord{r.substeps, r.resets};
    if (std::holds_alternative<FeetSettings>(stack_.desc(i).settings)) rec.feet = r.feet;
    reports.push_back(std::move(rec));
  }
}

void ControlStackStep::set_ground(const GroundDesc& ground, const std::string& origin) {
  Result<Ground> g = build_ground(ground);
  if (!g) throw CliError(origin + ": ground: " + g.message());
  ground_ = std::move(g.value());
}

std::vector<ControlDesc> demo_controls() {
  ControlDesc arm;
  arm.name = "LeftArmReach";
  arm.smooth_time = 0.1f;
  arm.target = target_path({{0.0f, {-1.5f, 2.0f, 0.0f}}, {0.6f, {-1.4f, 3.9f, -1.5f}}});
  IkSettings ik;
  ik.chain_root = "LeftUpperArm";
  ik.end = "LeftHand";
  ik.end_offset = glm::vec3(0.0f, -0.15f, 0.0f);
  ik.pole = target_at({-2.0f, 3.0f, 1.0f});
  arm.settings = ik;

  ControlDesc head;
  head.name = "HeadTrack";
  head.priority = 1;
  head.smooth_time = 0.05f;
  head.target = target_path({{0.0f, {3.0f, 4.5f, -4.0f}}, {1.0f, {-3.0f, 4.5f, -4.0f}}});
  LookAtSettings la;
  la.chain_root = "UpperTorso";
  la.end = "Head";
  la.yaw_limit_deg = 70.0f;
  la.pitch_limit_deg = 40.0f;
  head.settings = la;
  return {arm, head};
}

}  // namespace asterune::cli
