// The checks of targets.hpp. Fuzzed text goes through the public parse_* entry points (glTF,
// which only loads files, through a private temporary file); success must yield finite
// numbers, failure one line naming the input.
#include "targets.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/controls/stack.hpp"
#include "asterune/clip/compressed_clip.hpp"
#include "asterune/formats/bvh.hpp"
#include "asterune/formats/compressed_clip_file.hpp"
#include "asterune/formats/curve_animation.hpp"
#include "asterune/formats/gltf.hpp"
#include "asterune/formats/keyframe_sequence.hpp"
#include "asterune/documents/pose_file.hpp"
#include "asterune/documents/rig_file.hpp"
#include "asterune/formats/roblox.hpp"
#include "asterune/documents/scene_file.hpp"
#include "asterune/retarget/binding.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/retarget/rig_source.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::fuzz {
namespace {

std::string_view as_text(std::span<const std::uint8_t> data) {
  return {reinterpret_cast<const char*>(data.data()), data.size()};
}

// A refusal must be one line that names the input.
std::string check_message(const std::string& message, std::string_view label) {
  if (message.empty()) return "error without a message";
  if (message.find('\n') != std::string::npos) return "error message spans lines: " + message;
  if (message.find(label) == std::string::npos) return "error message does not name '" + std::string(label) + "': " + message;
  return "";
}

bool finite(float v) { return std::isfinite(v); }

std::string check_desc(const RigDesc& desc) {
  for (const PartDesc& p : desc.parts) {
    if (p.placement && !is_finite(*p.placement)) return "part '" + p.id + "' has a nonfinite placement";
    if (!is_finite(p.size)) return "part '" + p.id + "' has a nonfinite size";
  }
  for (const JointDesc& j : desc.joints)
    if (!is_finite(j.c0) || !is_finite(j.c1)) return "joint '" + j.name + "' has a nonfinite C0/C1";
  // A description that loads must also build or say why, quickly (rule R5 roots, cycles).
  Result<Rig> rig = build_rig(desc);
  if (!rig) return check_message(rig.message(), "rig");
  return "";
}

template <class T>
std::string on_result(const Result<T>& r, std::string_view label, std::string (*check)(const T&)) {
  if (!r) return check_message(r.message(), label);
  return check(r.value());
}

const Rig& r15() {
  static const Rig rig = std::move(build_rig(*builtin_rig_desc("r15")).value());
  return rig;
}

std::string check_rig_json(std::span<const std::uint8_t> data) {
  return on_result<RigDesc>(io::parse_rig_json(as_text(data), "fuzz.rig.json"), "fuzz.rig.json", check_desc);
}

std::string check_joints_json(std::span<const std::uint8_t> data) {
  return on_result<RigDesc>(io::parse_roblox_rig_json(as_text(data), "fuzz.joints.json"), "fuzz.joints.json",
                            check_desc);
}

std::string check_rbxmx(std::span<const std::uint8_t> data) {
  return on_result<RigDesc>(io::parse_rbxmx(as_text(data), "fuzz.rbxmx"), "fuzz.rbxmx", check_desc);
}

std::string check_pose_json(std::span<const std::uint8_t> data) {
  return on_result<Pose>(io::parse_pose_json(as_text(data), r15(), "fuzz.pose.json"), "fuzz.pose.json",
                         [](const Pose& pose) -> std::string {
                           if (pose.local.size() != pose.coverage.size()) return "pose arrays differ in size";
                           for (size_t j = 0; j < pose.local.size(); ++j) {
                             if (!is_finite(pose.local[j])) return "pose joint " + std::to_string(j) + " is nonfinite";
                             if (!(pose.coverage[j] >= 0.0f && pose.coverage[j] <= 1.0f))
                               return "pose coverage " + std::to_string(j) + " outside [0, 1]";
                           }
                           return "";
                         });
}

std::string check_scene_json(std::span<const std::uint8_t> data) {
  return on_result<io::SceneDesc>(io::parse_scene_json(as_text(data), "/fuzz/fuzz.scene.json"), "fuzz.scene.json",
                                  [](const io::SceneDesc& s) -> std::string {
                                    if (s.root && !is_finite(*s.root)) return "scene root is nonfinite";
                                    if (!(s.dt > 0.0f && finite(s.dt))) return "scene dt is not a positive number";
                                    if (s.frames < 1) return "scene frames < 1";
                                    return "";
                                  });
}

std::string check_source(const SourceSkeleton& sk) {
  for (const Transform& t : sk.rest_local)
    if (!is_finite(t)) return "source rest transform is nonfinite";
  for (const glm::vec3& e : sk.end_sites)
    if (!is_finite(e)) return "source end site is nonfinite";
  return "";
}

std::string check_clip(const Clip& clip) {
  if (!finite(clip.duration) || clip.duration < 0.0f) return "clip duration is not finite";
  for (const ClipTrack& t : clip.tracks) {
    for (float v : t.rotation_times)
      if (!finite(v)) return "track '" + t.name + "' has a nonfinite key time";
    for (float v : t.translation_times)
      if (!finite(v)) return "track '" + t.name + "' has a nonfinite key time";
    for (const glm::quat& q : t.rotations)
      if (!is_finite(q)) return "track '" + t.name + "' has a nonfinite rotation";
    for (const glm::vec3& p : t.translations)
      if (!is_finite(p)) return "track '" + t.name + "' has a nonfinite translation";
  }
  return "";
}

std::string check_bvh(std::span<const std::uint8_t> data) {
  return on_result<io::BvhFile>(io::parse_bvh(as_text(data), "fuzz.bvh"), "fuzz.bvh",
                                [](const io::BvhFile& f) -> std::string {
                                  if (!(f.frame_time > 0.0f && finite(f.frame_time))) return "frame time not finite";
                                  if (std::string p = check_source(f.skeleton); !p.empty()) return p;
                                  return check_clip(f.clip);
                                });
}

// A CurveAnimation that reads (rule F8) must have increasing finite key times, finite values,
// its Folders' parents before them, and bake to a clip the runtime accepts.
std::string check_curve_animation(std::string_view text) {
  return on_result<io::CurveAnimationFile>(
      io::parse_curve_animation(text, "fuzz.rbxmx"), "fuzz.rbxmx", [](const io::CurveAnimationFile& f) -> std::string {
        if (!(finite(f.duration) && f.duration >= 0.0f)) return "duration not finite";
        for (size_t i = 0; i < f.joints.size(); ++i) {
          const io::CurveAnimationJoint& j = f.joints[i];
          if (j.parent < -1 || j.parent >= static_cast<int>(i)) return "joint '" + j.name + "' has a parent after it";
          for (const auto* channel : {&j.position, &j.rotation})
            for (const auto& keys : *channel)
              for (size_t k = 0; k < keys.size(); ++k) {
                if (!finite(keys[k].time) || !finite(keys[k].value) || !finite(keys[k].left_tangent) ||
                    !finite(keys[k].right_tangent))
                  return "joint '" + j.name + "' has a nonfinite key";
                if (k > 0 && !(keys[k].time > keys[k - 1].time)) return "joint '" + j.name + "' has key times out of order";
              }
        }
        const Clip clip = io::curve_animation_clip(f);
        if (std::string p = check_clip(clip); !p.empty()) return p;
        if (const Status valid = validate_clip(clip); !valid) return "baked clip fails validate_clip: " + valid.message();
        return "";
      });
}

// A KeyframeSequence that reads must be a clip the runtime accepts (validate_clip: finite,
// sorted times, unit rotations, easing only on linear channels) whose side tables agree with it.
// The same bytes also go through the CurveAnimation reader (check_curve_animation).
std::string check_keyframe_sequence(std::span<const std::uint8_t> data) {
  if (std::string p = check_curve_animation(as_text(data)); !p.empty()) return "CurveAnimation: " + p;
  return on_result<io::KeyframeSequenceClip>(
      io::parse_keyframe_sequence(as_text(data), "fuzz.rbxmx"), "fuzz.rbxmx",
      [](const io::KeyframeSequenceClip& k) -> std::string {
        if (std::string p = check_clip(k.clip); !p.empty()) return p;
        if (const Status valid = validate_clip(k.clip); !valid) return "clip fails validate_clip: " + valid.message();
        for (const ClipMarker& m : k.clip.markers)
          if (!(m.time >= 0.0f && m.time <= k.clip.duration)) return "marker '" + m.name + "' outside [0, duration]";
        if (k.keys.size() != k.clip.tracks.size()) return "keys not parallel to the clip's tracks";
        for (size_t t = 0; t < k.keys.size(); ++t) {
          const size_t n = k.clip.tracks[t].rotation_times.size();
          if (n == 0) return "track '" + k.clip.tracks[t].name + "' has no key";
          if (k.keys[t].weights.size() != n || k.keys[t].easing.size() != n)
            return "track '" + k.clip.tracks[t].name + "': weights or easing not one per key";
          for (float w : k.keys[t].weights)
            if (!(finite(w) && w > 0.0f)) return "track '" + k.clip.tracks[t].name + "' has a key weight not > 0";
        }
        for (size_t i = 0; i < k.poses.size(); ++i) {
          const io::KeyframeSequencePose& pose = k.poses[i];
          if (pose.parent < -1 || pose.parent >= static_cast<int>(i)) return "pose " + std::to_string(i) + " has a parent after it";
          if (pose.track < -1 || pose.track >= static_cast<int>(k.clip.tracks.size()))
            return "pose " + std::to_string(i) + " names no track";
        }
        return "";
      });
}

std::filesystem::path& scratch_dir() {
  static std::filesystem::path dir = std::filesystem::temp_directory_path();
  return dir;
}

std::string check_gltf(std::span<const std::uint8_t> data) {
  // tinygltf reads files only: one private file per process, rewritten for every input.
  const std::filesystem::path file =
      scratch_dir() / ("asterune_fuzz_gltf_" + std::to_string(::getpid()) + ".gltf");
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
    if (!out) return "";  // cannot test without the file (disk full): not a finding
  }
  const Result<io::GltfSource> r = io::load_gltf_source(file.string());
  std::error_code ec;
  std::filesystem::remove(file, ec);
  return on_result<io::GltfSource>(r, "asterune_fuzz_gltf_", [](const io::GltfSource& g) -> std::string {
    if (std::string p = check_source(g.skeleton); !p.empty()) return p;
    for (const Clip& c : g.clips)
      if (std::string p = check_clip(c); !p.empty()) return p;
    return "";
  });
}

// Fuzzed numbers for the frame target: a mode byte, then a value that is raw float bits, a
// small number, a large one or one of the edge cases below. Exhausted input reads as zeros.
class Numbers {
 public:
  /// `from_end`: reads the bytes last to first (the frame target's second stream).
  explicit Numbers(std::span<const std::uint8_t> data, bool from_end = false) : data_(data), from_end_(from_end) {}
  std::uint8_t byte() {
    if (pos_ >= data_.size()) return 0;
    const size_t i = pos_++;
    return data_[from_end_ ? data_.size() - 1 - i : i];
  }
  bool flag() { return (byte() & 1) != 0; }
  float number() {
    static constexpr float kEdges[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f,
                                       std::numeric_limits<float>::quiet_NaN(),
                                       std::numeric_limits<float>::infinity(),
                                       -std::numeric_limits<float>::infinity(),
                                       std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                                       std::numeric_limits<float>::min(), std::numeric_limits<float>::denorm_min(),
                                       1e-30f, 1e19f, 2e19f, 1e30f, 3e38f, -3e38f, 1e-6f, 1e6f};
    const std::uint8_t mode = byte();
    const std::uint16_t a = static_cast<std::uint16_t>(byte() | (byte() << 8));
    switch (mode % 4) {
      case 0: {
        const std::uint32_t bits = a | (static_cast<std::uint32_t>(byte()) << 16) | (static_cast<std::uint32_t>(byte()) << 24);
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return f;
      }
      case 1: return static_cast<float>(static_cast<std::int16_t>(a)) / 1000.0f;
      case 2: return kEdges[a % std::size(kEdges)];
      default: return static_cast<float>(static_cast<std::int16_t>(a)) * 1000.0f;
    }
  }
  glm::vec3 vec3() {
    const float x = number(), y = number(), z = number();
    return {x, y, z};
  }

 private:
  std::span<const std::uint8_t> data_;
  bool from_end_ = false;
  size_t pos_ = 0;
};

std::string check_pose_spans(std::span<const Transform> local, std::span<const float> coverage, const char* stage) {
  for (size_t j = 0; j < local.size(); ++j) {
    if (!is_finite(local[j])) return std::string(stage) + ": joint " + std::to_string(j) + " is nonfinite";
    if (!(coverage[j] >= 0.0f && coverage[j] <= 1.0f))
      return std::string(stage) + ": coverage of joint " + std::to_string(j) + " outside [0, 1]";
  }
  return "";
}

// The frame target's second stream (read from the input's end, so the first stream's layout
// and the committed inputs keep their meaning): a right-arm IK with hinge and cone limits (the
// damped least-squares refinement), feet over a fuzzed ground (plane, box or height field: the
// ground casts) and a spring with sphere and capsule colliders (the spring substeps). Each is
// added on its own; a refused one must say why in one line and leaves the others running.
std::string add_extra_controls(const Rig& rig, Numbers& in, ControlStack& stack, std::optional<Ground>& ground) {
  static constexpr const char* kParts[] = {"HumanoidRootPart", "LowerTorso", "UpperTorso", "Head",
                                           "RightUpperArm", "RightLowerArm", "RightHand", "LeftUpperLeg"};
  auto add = [&](const ControlDesc& desc) -> std::string {
    const Status added = stack.add(rig, desc);
    return added ? "" : check_message(added.message(), "");
  };
  if (in.flag()) {
    ControlDesc ik;
    ik.name = "limited";
    ik.weight = in.flag() ? in.number() : 1.0f;
    ik.smooth_time = in.flag() ? in.number() : 0.0f;
    ik.target = target_at(in.vec3());
    IkSettings s;
    s.chain_root = "RightUpperArm";
    s.end = "RightHand";
    s.solver = static_cast<IkSolver>(in.byte() % 4);
    if (in.flag()) s.end_offset = in.vec3();
    if (in.flag()) s.pole = target_at(in.vec3());
    if (in.flag()) s.tolerance = in.number();
    if (in.flag()) s.max_passes = in.byte() % 66;
    static constexpr const char* kLimited[] = {"RightUpperArm", "RightLowerArm", "RightHand"};
    const int limits = in.byte() % 4;
    for (int i = 0; i < limits; ++i) {
      IkJointLimit l;
      l.part = kLimited[in.byte() % 3];
      l.kind = in.flag() ? JointLimitKind::kHinge : JointLimitKind::kBallSocket;
      l.axis = in.flag() ? in.vec3() : glm::vec3(1.0f, 0.0f, 0.0f);
      l.min_deg = in.number();
      l.max_deg = in.number();
      l.cone_deg = in.number();
      s.limits.push_back(l);
    }
    ik.settings = s;
    if (std::string p = add(ik); !p.empty()) return p;
  }
  if (in.flag()) {
    GroundDesc g;
    switch (in.byte() % 3) {
      case 0: g.planes.push_back(GroundPlane{in.vec3(), in.vec3(), true}); break;
      case 1: {
        const glm::vec3 center = in.vec3(), size = in.vec3();
        const float w = in.number(), x = in.number(), y = in.number(), z = in.number();
        g.boxes.push_back(GroundBox{center, size, glm::quat(w, x, y, z), true});
        break;
      }
      default: {
        GroundHeightField f;
        f.origin = in.vec3();
        f.cell_size = in.number();
        f.rows = 2 + in.byte() % 4;
        f.columns = 2 + in.byte() % 4;
        for (int i = 0; i < f.rows * f.columns; ++i) f.heights.push_back(in.number());
        g.heightfields.push_back(std::move(f));
      }
    }
    Result<Ground> built = build_ground(g);
    if (!built) {
      if (std::string p = check_message(built.message(), ""); !p.empty()) return p;
    } else {
      ground = std::move(built.value());
    }
    ControlDesc feet;
    feet.name = "feet";
    feet.weight = in.flag() ? in.number() : 1.0f;
    feet.smooth_time = in.flag() ? in.number() : 0.0f;
    FeetSettings s;
    s.legs = {FeetLeg{}, FeetLeg{}};
    s.legs[0].chain_root = "LeftUpperLeg";
    s.legs[0].end = "LeftFoot";
    s.legs[1].chain_root = "RightUpperLeg";
    s.legs[1].end = "RightFoot";
    if (in.flag()) s.legs.pop_back();
    if (in.flag()) s.legs[0].sole_offset = in.vec3();
    if (in.flag()) s.probe_height = in.number();
    if (in.flag()) s.max_lift = in.number();
    s.pelvis = in.flag();
    s.align_to_normal = in.flag();
    if (in.flag()) s.max_tilt_deg = in.number();
    if (in.flag()) s.up = in.vec3();
    if (in.flag()) s.step_shorten_ratio = in.number();
    s.lean = in.flag();
    if (in.flag()) s.max_lean_deg = in.number();
    feet.settings = s;
    if (std::string p = add(feet); !p.empty()) return p;
  }
  if (in.flag()) {
    static constexpr const char* kChains[][2] = {
        {"RightUpperArm", "RightHand"}, {"UpperTorso", "Head"}, {"LeftUpperLeg", "LeftFoot"}};
    const auto& chain = kChains[in.byte() % 3];
    ControlDesc spring;
    spring.name = "spring";
    spring.weight = in.flag() ? in.number() : 1.0f;
    SpringSettings s;
    s.chain_root = chain[0];
    s.end = chain[1];
    if (in.flag()) s.end_offset = in.vec3();
    s.stiffness = in.number();
    s.damping = in.number();
    s.gravity = in.vec3();
    const int colliders = in.byte() % 4;
    for (int i = 0; i < colliders; ++i) {
      SpringCollider c;
      c.shape = in.flag() ? SpringColliderShape::kCapsule : SpringColliderShape::kSphere;
      c.part = kParts[in.byte() % std::size(kParts)];
      c.offset = in.vec3();
      if (c.shape == SpringColliderShape::kCapsule) c.offset_end = in.vec3();
      c.radius = in.number();
      s.colliders.push_back(c);
    }
    spring.settings = s;
    if (std::string p = add(spring); !p.empty()) return p;
  }
  return "";
}

// A whole frame on fuzzed numbers: R15 retargeted from itself (scale, units, translation,
// source rotations and root travel fuzzed), then an IK arm and a look-at head (targets,
// offsets, pole, solver, weights, smoothing, limits, dt and time fuzzed), plus the controls of
// add_extra_controls() read from the input's end, for up to 4 frames.
std::string check_frame(std::span<const std::uint8_t> data) {
  const Rig& rig = r15();
  Numbers in(data);
  Numbers extra(data, /*from_end=*/true);
  SourceSkeleton source = source_skeleton_from_rig(rig);
  source.units_to_studs = in.flag() ? in.number() : 1.0f;
  AutoProfileOptions options;
  options.scale = in.number();
  options.translation = in.flag();
  options.rest_matching = in.flag();
  Result<RetargetProfile> profile = build_auto_profile(source, rig, options);
  if (!profile) return check_message(profile.message(), "");
  Result<RetargetBinding> binding = build_retarget_binding(source, rig, profile.value());
  if (!binding) return check_message(binding.message(), "");
  RetargetContext context = make_retarget_context(binding.value());

  std::vector<ControlDesc> controls;
  {
    ControlDesc ik;
    ik.name = "reach";
    ik.weight = in.number();
    ik.smooth_time = in.number();
    ik.target = target_at(in.vec3());
    IkSettings s;
    s.chain_root = "LeftUpperArm";
    s.end = "LeftHand";
    s.end_offset = in.vec3();
    s.solver = static_cast<IkSolver>(in.byte() % 4);
    if (in.flag()) s.pole = target_at(in.vec3());
    ik.settings = s;
    controls.push_back(ik);
    ControlDesc look;
    look.name = "look";
    look.weight = in.number();
    look.smooth_time = in.number();
    look.target = target_at(in.vec3());
    LookAtSettings l;
    l.chain_root = "UpperTorso";
    l.end = "Head";
    l.forward = in.flag() ? in.vec3() : glm::vec3(0.0f, 0.0f, -1.0f);
    l.yaw_limit_deg = in.number();
    l.pitch_limit_deg = in.number();
    if (in.flag()) l.joint_weights = {in.number(), in.number()};
    look.settings = l;
    controls.push_back(look);
  }
  Result<ControlStack> built = ControlStack::build(rig, controls);
  if (!built) return check_message(built.message(), "");
  ControlStack& stack = built.value();
  std::optional<Ground> ground;
  if (std::string p = add_extra_controls(rig, extra, stack, ground); !p.empty()) return p;

  const size_t ns = source.rest_local.size();
  const size_t nt = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> source_local(ns);
  std::vector<float> source_coverage(ns, 1.0f);
  std::vector<Transform> local(nt), world(nt);
  std::vector<float> coverage(nt);
  const int frames = 1 + in.byte() % 4;
  for (int f = 0; f < frames; ++f) {
    for (size_t s = 0; s < ns; ++s) {
      source_local[s] = source.rest_local[s];
      if (in.flag()) {
        const float w = in.number(), x = in.number(), y = in.number(), z = in.number();
        source_local[s].rotation = glm::quat(w, x, y, z);
      }
      if (s == 0 && in.flag()) source_local[s].position = in.vec3();
    }
    const RetargetReport r =
        sample_retarget(binding.value(), rig, source_local, source_coverage, context, local, coverage);
    if (!r.ok) return "sample_retarget refused matching spans";
    if (std::string p = check_pose_spans(local, coverage, "retarget"); !p.empty()) return p;
    if (in.flag()) stack.set_target_position(0, in.vec3());
    if (in.flag()) stack.set_weight(1, in.number());
    StackFrame frame;
    frame.root = Transform::from_position({0.0f, 3.0f, 0.0f});
    frame.dt = in.number();
    frame.time = in.number();
    if (ground) frame.ground = &*ground;
    stack.update(rig, frame, local, coverage, world);
    if (std::string p = check_pose_spans(local, coverage, "control stack"); !p.empty()) return p;
    for (size_t j = 0; j < nt; ++j)
      if (!is_finite(world[j])) return "control stack: world placement " + std::to_string(j) + " is nonfinite";
    for (int c = 0; c < stack.size(); ++c) {
      const ControlReport& rep = stack.report(c);
      if (rep.status == ControlStatus::kSolved &&
          !(finite(rep.distance) && rep.distance >= 0.0f && finite(rep.angle) && rep.angle >= 0.0f))
        return "control '" + stack.desc(c).name + "' solved with distance " + std::to_string(rep.distance) +
               " and angle " + std::to_string(rep.angle);
    }
  }
  return "";
}

// .asclip (rule P9): the bytes as they are, and again with their checksum made right so that the
// checks behind it are reached; what loads must sample finite poses at any time.
std::string check_compressed_clip(std::span<const std::uint8_t> data) {
  auto sample_all = [](const CompressedClip& c) -> std::string {
    const auto n = static_cast<size_t>(c.joint_count());
    std::vector<Transform> local(n);
    std::vector<Transform> through_cursor(n);
    std::vector<float> coverage(n);
    CompressedClipCursor cursor = make_compressed_clip_cursor(c);
    for (float t : {-1.0f, 0.0f, 0.013f, 0.5f, 1.0f, 7.3f, 1e9f, std::numeric_limits<float>::quiet_NaN()}) {
      if (!sample_compressed_clip(c, t, WrapMode::kLoop, local, coverage)) return "compressed clip refused its own size";
      for (size_t j = 0; j < n; ++j)
        if (!is_finite(local[j]) || !(coverage[j] == 0.0f || coverage[j] == 1.0f))
          return "compressed clip sampled a nonfinite value or a bad coverage at joint " + std::to_string(j);
      // The playback cursor reads the same data through its cached headers: the same pose (rule P11).
      if (!sample_compressed_clip(c, t, WrapMode::kLoop, cursor, through_cursor, coverage))
        return "compressed clip refused its own size through a cursor";
      for (size_t j = 0; j < n; ++j)
        if (!(through_cursor[j].rotation == local[j].rotation) || !(through_cursor[j].position == local[j].position))
          return "compressed clip sampled differently through a cursor at joint " + std::to_string(j);
    }
    return "";
  };
  if (std::string p = on_result<CompressedClip>(io::parse_compressed_clip(data, "fuzz.asclip"), "fuzz.asclip", +sample_all);
      !p.empty())
    return p;
  if (data.size() < 16) return "";
  std::vector<std::uint8_t> fixed(data.begin(), data.end());
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a 64 of all but the last 8 bytes
  for (size_t k = 0; k + 8 < fixed.size(); ++k) h = (h ^ fixed[k]) * 1099511628211ull;
  for (size_t k = 0; k < 8; ++k) fixed[fixed.size() - 8 + k] = static_cast<std::uint8_t>(h >> (8 * k));
  return on_result<CompressedClip>(io::parse_compressed_clip(fixed, "fuzz.asclip"), "fuzz.asclip", +sample_all);
}

constexpr std::array<FuzzTarget, 10> kTargets{{
    {"rig_json", &check_rig_json},
    {"pose_json", &check_pose_json},
    {"scene_json", &check_scene_json},
    {"bvh", &check_bvh},
    {"rbxmx", &check_rbxmx},
    {"joints_json", &check_joints_json},
    {"gltf", &check_gltf},
    {"keyframe_sequence", &check_keyframe_sequence},
    {"frame", &check_frame},
    {"compressed_clip", &check_compressed_clip},
}};

}  // namespace

std::span<const FuzzTarget> fuzz_targets() { return kTargets; }

void set_fuzz_scratch_dir(const std::filesystem::path& dir) { scratch_dir() = dir; }

const FuzzTarget* find_fuzz_target(std::string_view name) {
  for (const FuzzTarget& t : kTargets)
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace asterune::fuzz
