// The `animation` block of an asterune.scene/1 file (formats.md) and the loading it implies:
//   "animation": {"clip": "walk.bvh", "loop": true,
//                 "retarget": {"map": "auto", "rest_matching": true, "translation": true,
//                              "scale": "auto"}}
// `clip` is relative to the scene file (BVH, glTF .gltf/.glb/.vrm/.vrma: its first animation, or
// the one named or numbered after a '#', "fox.glb#Walk", rule F20; or a Roblox
// KeyframeSequence .rbxmx, whose Pose names are part names: native, or retargeted from another built-in rig).
// `retarget` may be left out: it then means {"map": "auto", "rest_matching": true,
// "translation": true, "scale": "auto"}. A clip whose track names are the rig's own names plays
// natively whatever the retarget block says (rule P3).
// Beyond formats.md, `retarget` also accepts: "map": {"<target joint>": "<source joint>", ...}
// (an explicit mapping), "facing": "auto" | [w, x, y, z] (source -> rig rotation),
// "units": studs per source length unit (default: CMU units for BVH, metres for glTF),
// "rest": "auto" | "rest" | {"frame": N} (the source's reference pose, rule RT13) and
// "origin": "clip" | "first_frame" (where the travel starts, rule RT14) and

// "floor": "auto" | "rest" | a height in source units (rule RT16, default "auto"), and
// "plant_feet": true | false (rule RT19, default false: hold each contacting foot where its
// contact began, with the two-bone leg solve). Beside "retarget", the block takes
// "cycle": "auto" | "none" (rule LO1: cut a seamless loop of whole strides from raw capture).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "asterune/anim/animator.hpp"
#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/retarget/contacts.hpp"
#include "asterune/retarget/profile.hpp"
#include "asterune/retarget/source_rest.hpp"
#include "asterune/rig/source_skeleton.hpp"

namespace asterune {
class Rig;
}

namespace asterune::io {

struct SceneRetarget {
  bool auto_map = true;                                   // "map": "auto"
  std::vector<std::pair<std::string, std::string>> map;  // explicit target -> source joints
  std::optional<glm::quat> facing;                        // nullopt: automatic (humanoid.hpp)
  bool rest_matching = true;
  bool translation = true;
  float scale = 1.0f;
  bool auto_scale = true;                                 // "scale": "auto" (the default)
  std::optional<float> units_to_studs;                    // "units"
  SourceRestMode rest = SourceRestMode::kAuto;            // "rest": "auto", "rest" or {"frame": N}
  int rest_frame = 0;
  SourceOrigin origin = SourceOrigin::kClip;              // "origin": "clip" or "first_frame"
  // "floor" (rule RT16): "auto" (the clip's foot contacts), "rest" (the rest pose stands on
  // the floor), or a number: the floor's height in source units along the source up.
  enum class Floor { kAuto, kRest, kHeight };
  Floor floor = Floor::kAuto;
  float floor_height = 0.0f;  // kHeight
  bool plant_feet = false;    // "plant_feet" (rule RT19)
};

/// "cycle" on an animation block or a track (rules LO1-LO4, docs/locomotion.md): "none" plays
/// the clip as captured; "auto" cuts the best loop of whole strides from it (retarget/cycle.hpp).
enum class ClipCycle { kNone, kAuto };

struct SceneAnimation {
  std::filesystem::path clip;  // resolved against the scene file's folder
  // "loop": wrap the clip time, else clamp at its ends. Unset: the file's own Loop (a Roblox
  // KeyframeSequence or CurveAnimation), else looped in a scene (rule AN11).
  std::optional<bool> loop;
  ClipCycle cycle = ClipCycle::kNone;  // "cycle"
  SceneRetarget retarget;
};

/// A clip with the skeleton it was authored on.
struct SourceClip {
  SourceSkeleton skeleton;
  Clip clip;
  bool rest_on_ground = false;  // BVH: root OFFSET 0, absolute root positions in the motion
  bool native_only = false;     // Roblox KeyframeSequence: no source skeleton (prepare_scene_source may give it one)
  // glTF: its keys are node locals, never Motor6D transforms, so it retargets, even when its
  // node names are the rig's part names (rule F20), unless asterune_export below applies.
  bool skeleton_only = false;
  // Our own glTF export (asset.generator "asterune-rig"): on the rig whose part tree its nodes
  // are, prepare_scene_source turns its node locals into Motor6D transforms and it plays
  // natively (rule F28); on any other rig it retargets like any glTF.
  bool asterune_export = false;
  // A KeyframeSequence's Loop and Priority: a scene track's defaults (scene_tracks.hpp). Unset
  // for BVH and glTF, which carry neither.
  std::optional<bool> loop;
  std::optional<TrackPriority> priority;
};

/// Loads a BVH (.bvh), glTF (.gltf, .glb, .vrm, .vrma: the skeleton of gltf.hpp and the first
/// animation, or the one "file.glb#Walk" names, by name or index: rule F20; skeleton_only) or Roblox KeyframeSequence
/// (.rbxmx, keyframe_sequence.hpp: native_only, with an empty skeleton, its Loop and Priority
/// in `loop` and `priority`) clip. BVH lengths are
/// taken as CMU units (kCmuUnitsToStuds), glTF as metres, unless `units_to_studs` is given.
/// BVH clips set rest_on_ground (their root positions are absolute, their root OFFSET 0).
Result<SourceClip> load_source_clip(const std::filesystem::path& path, std::optional<float> units_to_studs = {});

/// Readies a loaded clip for `rig` before its profile is built; returns one note per change
/// (for stderr). A clip whose names all resolve on the rig is left alone (native, rule P3).
/// A KeyframeSequence (native_only) whose names resolve better on a built-in Roblox rig (R6,
/// R15) becomes a retarget source on that rig's skeleton (rule RT15); otherwise its tracks naming
/// no joint of `rig` are dropped and a note lists them (fails when none is left). A skeleton
/// source gets its reference pose and origin (prepare_source, rules RT13, RT14; the explicit map
/// gives roles as in build_scene_profile). Fails with the clip file and the reason.
Result<std::vector<std::string>> prepare_scene_source(SourceClip& clip, const SceneRetarget& retarget, const Rig& rig,
                                                      const std::string& clip_label);

/// The retarget profile a scene asks for: build_auto_profile() for "map": "auto"; otherwise the
/// explicit mapping, with auto_facing() and the humanoid leg chains (for scale "auto") taken
/// from the roles of both sides. An explicit "facing" replaces the automatic one.
/// `rest_on_ground` goes to RetargetProfile::rest_on_ground (SourceClip::rest_on_ground).
/// An explicit map gives the source joints it names the role of their target joint (rule RT12).
/// `roles_note`, when given, receives describe_roles() of the source roles used (rule RT11).
Result<RetargetProfile> build_scene_profile(const SceneRetarget& retarget, const SourceSkeleton& source, const Rig& rig,
                                           bool rest_on_ground = false, std::string* roles_note = nullptr);

/// prepare_scene_source(), then, unless the clip then binds natively (nullopt), its profile
/// (build_scene_profile). Rule RT24: with "rest": "auto", when the profile fails on the rest it
/// chose (e.g. a rest turned upright whose left and right cannot be told apart), frame 0 of the
/// clip becomes the reference pose and the profile is tried again before failing; a note says
/// so. `notes` receives prepare_scene_source()'s notes; the error is the first attempt's.
Result<std::optional<RetargetProfile>> prepare_scene_retarget(SourceClip& clip, const SceneRetarget& retarget,
                                                              const Rig& rig, const std::string& clip_label,
                                                              std::vector<std::string>& notes,
                                                              std::string* roles_note = nullptr);

/// Foot contacts of a retargeted clip and the floor the scene asks for (rules RT16-RT18):
/// detects the contacts (find_foot_contacts with the profile's facing), then sets
/// profile.floor: for "auto" the contacts' floor, and the clip is leveled (rule RT18): the
/// target's sole is measured in every contact (fit_floor_keys_to_target), and the source roots'
/// travel moved by the floor's variation over time (level_clip_floor), so each contact stands
/// on the ground; the returned contacts' floor_keys are those fitted keys. Left unset, with the
/// contacts' note, when the feet are not found or never touch; the given height for a number
/// (no leveling), unset for "rest". Returns the contacts (no feet when none were recognised).
/// Fails only when the clip or the profile does not bind.
Result<FootContacts> resolve_scene_floor(const SceneRetarget& retarget, SourceClip& clip, const Rig& rig,
                                         RetargetProfile& profile);

}  // namespace asterune::io
