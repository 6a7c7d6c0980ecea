// asterune-solve internals: the run description, the frame loop and its plug-in points.
// A run is: a rig, a root placement, a pose source (what animates the joints each frame) and a
// list of frame steps applied after it (the control stack), evaluated frame by frame.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "asterune/controls/ground.hpp"
#include "asterune/documents/frames_file.hpp"
#include "asterune/documents/scene_file.hpp"
#include "asterune/rig/pose.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::cli {

/// A bad argument or a bad file: main() prints "asterune-solve: <message>" and exits 2.
struct CliError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Writes the animated pose of one frame (a pose file, the procedural demo, a clip, or an
/// animator's tracks). Called once per frame, in frame order, with the pose reset to identity /
/// coverage 0; `dt` is the time since the previous frame (0 on the first frame).
class FrameStep;

class PoseSource {
 public:
  virtual ~PoseSource() = default;
  virtual void sample(float time, float dt, std::span<Transform> local, std::span<float> coverage) = 0;
  /// After sample(): adds what the source reports for the frame (an animator's tracks and
  /// events) to `record` and returns the root part's motion over the frame (rule AN9), which
  /// the run applies to the root after the scene's root placement; nullopt when the source
  /// extracts none (the root is then exactly the scene's).
  virtual std::optional<Transform> finish_frame(io::FrameRecord& record) {
    (void)record;
    return std::nullopt;
  }
  /// The source's foot contact states at `time` (rule RT17); none by default.
  virtual void foot_contacts(float /*time*/, std::vector<io::FootContactRecord>& out) const { out.clear(); }
  /// Before the first frame: a source with snapshot commands (rule F27) sizes its buffers for
  /// the run's steps too. Nothing by default.
  virtual void prepare_rollback(std::span<const std::unique_ptr<FrameStep>> steps) { (void)steps; }
  /// At the end of a frame, after the steps: a snapshot command of the frame saves the root
  /// motion so far and the steps' state, a restore puts the saved ones back (rule F27).
  virtual void finish_rollback(std::optional<Transform>& motion, std::span<const std::unique_ptr<FrameStep>> steps) {
    (void)motion;
    (void)steps;
  }
};

/// Adjusts the pose after the source, e.g. the control stack (IK, look-at, feet, springs).
class FrameStep {
 public:
  virtual ~FrameStep() = default;
  virtual void update(float time, float dt, const Transform& root, std::span<Transform> local,
                      std::span<float> coverage, std::vector<io::ControlRecord>& reports) = 0;
  /// The state a snapshot command saves (rule F27): bytes, fixed after construction; a step
  /// that keeps nothing between frames has none.
  virtual std::size_t state_size() const { return 0; }
  virtual bool save_state(std::span<std::byte> out) const { return out.empty(); }
  virtual bool load_state(std::span<const std::byte> in) { return in.empty(); }
};

/// A fixed pose (from an asterune.pose/1 file, or the rest pose).
class StaticPoseSource final : public PoseSource {
 public:
  explicit StaticPoseSource(Pose pose) : pose_(std::move(pose)) {}
  void sample(float time, float dt, std::span<Transform> local, std::span<float> coverage) override;

 private:
  Pose pose_;
};

/// The built-in demo: the right arm raised and waving, the head following slightly (needs the
/// R15 joints RightUpperArm, RightLowerArm, RightHand, Head; missing joints are left alone).
class WaveDemoSource final : public PoseSource {
 public:
  explicit WaveDemoSource(const Rig& rig);
  void sample(float time, float dt, std::span<Transform> local, std::span<float> coverage) override;

 private:
  int upper_arm_ = -1, lower_arm_ = -1, hand_ = -1, head_ = -1;
};

struct Run {
  Rig rig;
  Transform root;
  std::vector<io::RootKey> root_path;  // non-empty: the root moves along it (io::sample_root_path)
  std::optional<GroundDesc> ground;    // the scene's ground (the feet control's; --svg draws it)
  int frames = 1;
  float dt = 1.0f / 60.0f;
  std::unique_ptr<PoseSource> source;
  std::vector<std::unique_ptr<FrameStep>> steps;
  std::vector<std::string> notes;  // how the pose source plays (e.g. "animation: ... baked"), in the table header
  std::vector<std::string> warnings;  // one line each on stderr, exit status unchanged (e.g. no feet found)
  std::vector<ClipMarker> markers;    // the played clip's markers, Footstep markers included (rule RT17)
  // Whether the run's animation (the scene's "animation" block or --clip) loops; unset without
  // one. An exported .rbxmx's Loop follows it (rule AN11).
  std::optional<bool> loop;
};

/// Runs every frame and hands each frame in [first_recorded, last_recorded] to `sink` as soon
/// as it is solved, so a long run never holds its frames (the record is reused between calls).
void run_frames(Run& run, int first_recorded, int last_recorded, const std::function<void(const io::FrameRecord&)>& sink);

/// Euler angles in degrees (a, b, c) with R = Rx(a) * Ry(b) * Rz(c), the order of Roblox
/// CFrame.Angles / ToEulerAnglesXYZ. At gimbal lock (|b| = 90) c is 0.
glm::vec3 euler_xyz_degrees(const glm::quat& q);

/// Table output: the header once, then one block per frame.
std::string format_table_header(const Run& run);
std::string format_table_frame(const Run& run, const io::FrameRecord& frame);
/// CSV output: the header line once, then one row per joint per frame.
std::string format_csv_header();
std::string format_csv_frame(const Run& run, const io::FrameRecord& frame);

}  // namespace asterune::cli
