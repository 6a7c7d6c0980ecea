// asterune-solve: the control stack as a frame step (rule CS1-CS8). Binds the scene's
// "controls" (ik, look_at, spring, feet) to the run's rig once; each frame runs the stack on the
// sampled pose over the scene's ground and appends every control's report (name, status,
// reached, clamped, distance, angle, weight, passes, stretch, target and pole points; substeps
// and resets for springs; per foot for feet) for --format json and --svg.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "asterune/controls/stack.hpp"
#include "run.hpp"

namespace asterune::cli {

class ControlStackStep final : public FrameStep {
 public:
  /// Binds `controls` to a copy of `rig`; a bad control throws CliError naming it.
  ControlStackStep(const Rig& rig, const std::vector<ControlDesc>& controls, const std::string& origin);
  void update(float time, float dt, const Transform& root, std::span<Transform> local, std::span<float> coverage,
              std::vector<io::ControlRecord>& reports) override;
  /// The scene's ground, handed to the stack each frame (rule G1); a bad shape throws CliError.
  void set_ground(const GroundDesc& ground, const std::string& origin);
  /// The stack's retained state (rule AN14), for the scene's snapshot commands (rule F27).
  std::size_t state_size() const override { return stack_.snapshot_size(); }
  bool save_state(std::span<std::byte> out) const override { return stack_.snapshot(out); }
  bool load_state(std::span<const std::byte> in) override { return stack_.restore(in); }

 private:
  Rig rig_;  // own copy: the Run that holds the original may move
  ControlStack stack_;
  std::vector<Transform> world_;
  std::optional<Ground> ground_;
};

/// The controls of the built-in demo on R15: the left arm reaching forward along a path and
/// the head (waist + neck) tracking a target that sweeps from right to left.
std::vector<ControlDesc> demo_controls();

}  // namespace asterune::cli
