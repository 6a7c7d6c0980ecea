// asterune-solve internals: the run description, the frame loop and its plug-in points.
// A run is: a rig, a root placement, a pose source (what animates the joints each frame) and a
// list of frame steps applied after it (the control stack), evaluated frame by frame.
#pragma once

#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "asterune/io/frames_file.hpp"
#include "asterune/rig/pose.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::cli {

/// A bad argument or a bad file: main() prints "asterune-solve: <message>" and exits 2.
struct CliError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Writes the animated pose of one frame (a pose file, the procedural demo, or a clip).
/// Called once per frame with the pose reset to identity / coverage 0.
class PoseSource {
 public:
  virtual ~PoseSource() = default;
  virtual void sample(float time, std::span<Transform> local, std::span<float> coverage) = 0;
};

/// Adjusts the pose after the source, e.g. the control stack (IK, look-at, feet, springs).
class FrameStep {
 public:
  virtual ~FrameStep() = default;
  virtual void update(float time, float dt, const Transform& root, std::span<Transform> local,
                      std::span<float> coverage, std::vector<io::ControlRecord>& reports) = 0;
};

/// A fixed pose (from an asterune.pose/1 file, or the rest pose).
class StaticPoseSource final : public PoseSource {
 public:
  explicit StaticPoseSource(Pose pose) : pose_(std::move(pose)) {}
  void sample(float time, std::span<Transform> local, std::span<float> coverage) override;

 private:
  Pose pose_;
};

/// The built-in demo: the right arm raised and waving, the head following slightly (needs the
/// R15 joints RightUpperArm, RightLowerArm, RightHand, Head; missing joints are left alone).
class WaveDemoSource final : public PoseSource {
 public:
  explicit WaveDemoSource(const Rig& rig);
  void sample(float time, std::span<Transform> local, std::span<float> coverage) override;

 private:
  int upper_arm_ = -1, lower_arm_ = -1, hand_ = -1, head_ = -1;
};

struct Run {
  Rig rig;
  Transform root;
  int frames = 1;
  float dt = 1.0f / 60.0f;
  std::unique_ptr<PoseSource> source;
  std::vector<std::unique_ptr<FrameStep>> steps;
};

/// Runs every frame and records those with `wanted(frame)`.
std::vector<io::FrameRecord> run_frames(Run& run, int first_recorded, int last_recorded);

/// Euler angles in degrees (a, b, c) with R = Rx(a) * Ry(b) * Rz(c), the order of Roblox
/// CFrame.Angles / ToEulerAnglesXYZ. At gimbal lock (|b| = 90) c is 0.
glm::vec3 euler_xyz_degrees(const glm::quat& q);

std::string format_table(const Run& run, std::span<const io::FrameRecord> frames);
std::string format_csv(const Run& run, std::span<const io::FrameRecord> frames);

}  // namespace asterune::cli
