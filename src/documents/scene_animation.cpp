// The scene's "animation" block (scene_animation.hpp) and clip loading for it.
#include "asterune/documents/scene_animation.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <system_error>

#include "asterune/formats/bvh.hpp"
#include "asterune/formats/curve_animation.hpp"
#include "asterune/formats/gltf.hpp"
#include "asterune/formats/keyframe_sequence.hpp"
#include "asterune/clip/binding.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/retarget/rig_source.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "scene_blocks.hpp"

namespace asterune::io {
namespace detail {

// Retarget scale and units: far beyond any real rig (a factor of a million either way), far
// enough inside float range that travel * scale * units stays finite (docs/formats.md).
constexpr float kMinRetargetFactor = 1e-6f;
constexpr float kMaxRetargetFactor = 1e6f;

SceneRetarget read_scene_retarget(const Json& r, const std::string& rp) {
  require_object(r, rp);
  check_keys(r, rp, {"map", "rest_matching", "translation", "scale", "facing", "units", "rest", "origin", "floor", "plant_feet"});
  SceneRetarget rt;
  if (const Json* map = find_member(r, "map")) {
    if (map->is_string()) {
      if (map->get<std::string>() != "auto")
        fail(rp + "/map", "must be \"auto\" or an object of target joint -> source joint names");
      rt.auto_map = true;
    } else {
      require_object(*map, rp + "/map");
      rt.auto_map = false;
      for (auto it = map->begin(); it != map->end(); ++it)
        rt.map.emplace_back(it.key(), read_name(it.value(), child_pointer(rp + "/map", it.key())));
      if (rt.map.empty()) fail(rp + "/map", "maps no joint");
    }
  }
  if (const Json* v = find_member(r, "rest_matching")) rt.rest_matching = read_bool(*v, rp + "/rest_matching");
  if (const Json* v = find_member(r, "translation")) rt.translation = read_bool(*v, rp + "/translation");
  if (const Json* v = find_member(r, "plant_feet")) rt.plant_feet = read_bool(*v, rp + "/plant_feet");  // rule RT19
  if (const Json* v = find_member(r, "scale")) {
    if (v->is_string()) {
      if (v->get<std::string>() != "auto") fail(rp + "/scale", "must be a positive number or \"auto\"");
      rt.auto_scale = true;
    } else {
      rt.auto_scale = false;
      rt.scale = read_float(*v, rp + "/scale");
      if (!(rt.scale >= kMinRetargetFactor && rt.scale <= kMaxRetargetFactor))
        fail(rp + "/scale", "must be \"auto\" or a number in [1e-6, 1e6]");
    }
  }
  if (const Json* v = find_member(r, "facing")) {
    if (v->is_string()) {
      if (v->get<std::string>() != "auto") fail(rp + "/facing", "must be \"auto\" or a quaternion [w, x, y, z]");
    } else {
      require_array(*v, rp + "/facing");
      if (v->size() != 4) fail(rp + "/facing", "must be \"auto\" or a quaternion [w, x, y, z]");
      glm::quat q(read_float((*v)[0], rp + "/facing/0"), read_float((*v)[1], rp + "/facing/1"),
                  read_float((*v)[2], rp + "/facing/2"), read_float((*v)[3], rp + "/facing/3"));
      auto n = normalized_rotation(q);
      if (!n) fail(rp + "/facing", "is a zero quaternion");
      rt.facing = *n;
    }
  }
  if (const Json* v = find_member(r, "rest")) {  // rule RT13
    const char* what = "must be \"auto\", \"rest\" or {\"frame\": N}";
    if (v->is_string()) {
      const std::string m = v->get<std::string>();
      if (m == "auto") rt.rest = SourceRestMode::kAuto;
      else if (m == "rest") rt.rest = SourceRestMode::kRest;
      else fail(rp + "/rest", what);
    } else {
      require_object(*v, rp + "/rest");
      check_keys(*v, rp + "/rest", {"frame"});
      const Json& f = require_member(*v, rp + "/rest", "frame");
      if (!f.is_number_integer() || f.get<long long>() < 0 || f.get<long long>() > 100000000)
        fail(rp + "/rest/frame", "must be a frame index (an integer >= 0)");
      rt.rest = SourceRestMode::kFrame;
      rt.rest_frame = static_cast<int>(f.get<long long>());
    }
  }
  if (const Json* v = find_member(r, "origin")) {  // rule RT14
    const std::string m = v->is_string() ? v->get<std::string>() : std::string();
    if (m == "clip") rt.origin = SourceOrigin::kClip;
    else if (m == "first_frame") rt.origin = SourceOrigin::kFirstFrame;
    else fail(rp + "/origin", "must be \"clip\" or \"first_frame\"");
  }
  if (const Json* v = find_member(r, "units")) {
    const float u = read_float(*v, rp + "/units");
    if (!(u >= kMinRetargetFactor && u <= kMaxRetargetFactor))
      fail(rp + "/units", "must be a number of studs per source unit in [1e-6, 1e6]");
    rt.units_to_studs = u;
  }
  if (const Json* v = find_member(r, "floor")) {  // rule RT16
    if (v->is_string()) {
      const std::string mode = v->get<std::string>();
      if (mode != "auto" && mode != "rest") fail(rp + "/floor", "must be \"auto\", \"rest\" or a height in source units");
      rt.floor = mode == "auto" ? SceneRetarget::Floor::kAuto : SceneRetarget::Floor::kRest;
    } else {
      rt.floor = SceneRetarget::Floor::kHeight;
      rt.floor_height = read_float(*v, rp + "/floor");
      if (!(std::fabs(rt.floor_height) <= kMaxRetargetFactor)) fail(rp + "/floor", "must be a height in [-1e6, 1e6] source units");
    }
  }
  return rt;
}

void read_scene_animation(const Json& value, const std::string& pointer, const SceneBlockContext& ctx, SceneDesc& scene) {
  require_object(value, pointer);
  check_keys(value, pointer, {"clip", "loop", "retarget", "cycle"});
  SceneAnimation a;
  a.clip = ctx.resolve(read_name(require_member(value, pointer, "clip"), pointer + "/clip"));
  if (const Json* loop = find_member(value, "loop")) a.loop = read_bool(*loop, pointer + "/loop");
  if (const Json* r = find_member(value, "retarget")) a.retarget = read_scene_retarget(*r, pointer + "/retarget");
  if (const Json* c = find_member(value, "cycle")) a.cycle = read_clip_cycle(*c, pointer + "/cycle");
  scene.animation = std::move(a);
}

ClipCycle read_clip_cycle(const Json& value, const std::string& pointer) {
  const std::string mode = read_string(value, pointer);
  if (mode == "auto") return ClipCycle::kAuto;
  if (mode == "none") return ClipCycle::kNone;
  fail(pointer, "unknown cycle '" + mode + "' (expected \"auto\" or \"none\")");
}

}  // namespace detail

namespace {
std::string lower_extension(const std::filesystem::path& p) {
  std::string e = p.extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return e;
}
}  // namespace

// "file.glb#Walk": the file and the animation it names (rule F20); a path that exists as given
// is never split.
std::pair<std::filesystem::path, std::string> split_clip_selector(const std::filesystem::path& given) {
  const std::string text = given.string();
  const size_t hash = text.rfind('#');
  std::error_code ec;
  if (hash == std::string::npos || std::filesystem::exists(given, ec)) return {given, ""};
  const std::filesystem::path file = text.substr(0, hash);
  const std::string ext = lower_extension(file);
  if (ext != ".gltf" && ext != ".glb" && ext != ".vrm" && ext != ".vrma") return {given, ""};
  return {file, text.substr(hash + 1)};
}

Result<SourceClip> load_source_clip(const std::filesystem::path& given, std::optional<float> units_to_studs) {
  const auto [path, animation] = split_clip_selector(given);
  const std::string ext = lower_extension(path);
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    return make_error(path.string() + ": not a regular file (directories, devices and pipes are refused)");
  SourceClip out;
  if (ext == ".bvh") {
    auto bvh = load_bvh(path.string());
    if (!bvh) return bvh.error();
    out.skeleton = std::move(bvh.value().skeleton);
    out.clip = std::move(bvh.value().clip);
    out.skeleton.units_to_studs = units_to_studs.value_or(kCmuUnitsToStuds);
    out.rest_on_ground = true;
  } else if (ext == ".gltf" || ext == ".glb" || ext == ".vrm" || ext == ".vrma") {
    auto g = load_gltf_source(path.string());
    if (!g) return g.error();
    if (g.value().clips.empty()) return make_error(path.string() + ": the glTF file has no animation");
    size_t which = 0;  // rule F20: the first animation, or the one named after '#'
    if (!animation.empty()) {
      auto found = find_gltf_clip(g.value().clips, animation);
      if (!found) return make_error(path.string() + ": " + found.message());
      which = found.value();
    }
    out.skeleton = std::move(g.value().skeleton);
    out.clip = std::move(g.value().clips[which]);
    out.skeleton_only = true;
    out.asterune_export = g.value().asterune_export;
    if (units_to_studs) out.skeleton.units_to_studs = *units_to_studs;
  } else if (ext == ".rbxmx") {
    auto k = read_roblox_animation_file(path);  // a KeyframeSequence or a CurveAnimation (rule F8)
    if (!k) return k.error();
    out.clip = std::move(k.value().clip);
    out.skeleton.name = out.clip.name;
    out.native_only = true;
    out.loop = k.value().loop;
    out.priority = to_track_priority(k.value().priority);
  } else {
    return make_error(path.string() + ": unsupported clip format '" + ext + "' (expected .bvh, .gltf, .glb, .vrm, .vrma or .rbxmx)");
  }
  return out;
}

namespace {
// Role -> source joint for every mapped target joint that has a role on the rig.
std::map<std::string, std::string> roles_from_map(const SceneRetarget& rt, const SourceSkeleton& source, const Rig& rig,
                                                  const RoleMap& target_roles) {
  std::map<std::string, std::string> out;
  for (const auto& [target, src] : rt.map) {
    const JointLookup t = rig.find_joint(target);
    if (!t.found() || source.find(src) < 0) continue;  // build_retarget_binding names the bad entry
    for (int r = 0; r < kRoleCount; ++r) {
      const std::string& joint = target_roles.joint[static_cast<size_t>(r)];
      if (!joint.empty() && rig.find_joint(joint).index == t.index) out[role_name(static_cast<Role>(r))] = src;
    }
  }
  return out;
}
}  // namespace

Result<std::vector<std::string>> prepare_scene_source(SourceClip& clip, const SceneRetarget& rt, const Rig& rig,
                                                      const std::string& label) {
  std::vector<std::string> notes;
  if (clip.skeleton_only && clip.asterune_export) {  // rule F28: our own export, read back
    if (auto motors = clip_from_part_nodes(clip.clip, clip.skeleton, rig)) {
      clip.clip = std::move(*motors);
      clip.skeleton_only = false;
      notes.push_back(label + ": its nodes are the parts of rig '" + rig.name() +
                      "' (an asterune-rig export): played natively, node locals turned into Motor6D transforms");
      return notes;
    }
  }
  if (!clip.skeleton_only && clip_binds_natively(clip.clip, rig)) return notes;  // rule P3
  if (clip.native_only) {
    // Rule RT15: a KeyframeSequence made on another Roblox rig retargets from that rig.
    int here = 0;
    for (const ClipTrack& t : clip.clip.tracks) here += rig.find_joint(t.name).found() ? 1 : 0;
    for (const char* name : {"r15", "r6"}) {
      auto other = build_rig(*builtin_rig_desc(name));
      if (!other || other.value().signature() == rig.signature()) continue;
      int there = 0;
      for (const ClipTrack& t : clip.clip.tracks) there += other.value().find_joint(t.name).found() ? 1 : 0;
      if (there <= here || there < 2) continue;
      clip.skeleton = source_skeleton_from_rig(other.value());
      add_part_end_sites(other.value(), clip.skeleton);
      clip.skeleton.name = std::string("builtin:") + name;
      const size_t before = clip.clip.tracks.size();
      clip.clip = clip_as_rig_source(clip.clip, other.value());
      clip.native_only = false;
      notes.push_back(label + ": its Pose names are those of builtin:" + name + " (" + std::to_string(there) + " of " +
                      std::to_string(before) + "); retargeted from that rig");
      break;
    }
    if (clip.native_only) {
      // Like Roblox's Animator: Poses naming no joint of this rig are ignored, and said so.
      std::vector<std::string> ignored;
      std::erase_if(clip.clip.tracks, [&](const ClipTrack& t) {
        if (rig.find_joint(t.name).found()) return false;
        ignored.push_back(t.name);
        return true;
      });
      if (clip.clip.tracks.empty())
        return make_error(label + ": no Pose names a joint of rig '" + rig.name() +
                          "' and the names are not those of another known rig (builtin:r6, builtin:r15)");
      std::string list;
      for (const auto& n : ignored) list += (list.empty() ? "" : ", ") + n;
      notes.push_back(label + ": " + std::to_string(ignored.size()) + " of " +
                      std::to_string(ignored.size() + clip.clip.tracks.size()) +
                      " tracks name no joint of rig '" + rig.name() + "' and are ignored: " + list);
      return notes;
    }
  }
  SourceRestOptions options;
  options.mode = rt.rest;
  options.frame = rt.rest_frame;
  options.origin = rt.origin;
  if (!rt.auto_map) {
    auto tr = rig_roles(rig);
    if (!tr) return tr.error();
    options.role_overrides = roles_from_map(rt, clip.skeleton, rig, tr.value());
  }
  auto prepared = prepare_source(clip.skeleton, clip.clip, options);
  if (!prepared) return make_error(label + ": " + prepared.message());
  clip.skeleton = std::move(prepared.value().skeleton);
  for (auto& n : prepared.value().notes) notes.push_back(label + ": " + n);
  return notes;
}

Result<RetargetProfile> build_scene_profile(const SceneRetarget& rt, const SourceSkeleton& source, const Rig& rig,
                                           bool rest_on_ground, std::string* roles_note) {
  AutoProfileOptions opt;
  opt.rest_on_ground = rest_on_ground;
  opt.rest_matching = rt.rest_matching;
  opt.translation = rt.translation;
  opt.scale = rt.scale;
  opt.auto_scale = rt.auto_scale;
  RetargetProfile p;
  if (rt.auto_map) {
    auto a = build_auto_profile(source, rig, opt);
    if (!a) return a.error();
    p = std::move(a).value();
  } else {
    p.name = "scene:" + source.name + "->" + rig.name();
    for (const auto& [target, src] : rt.map) p.joints.push_back({target, src});
    p.rest_matching = rt.rest_matching;
    p.translation = rt.translation;
    p.scale = rt.scale;
    p.auto_scale = rt.auto_scale;
    p.rest_on_ground = rest_on_ground;
    auto tr = rig_roles(rig);
    if (!tr) return tr.error();
    // Rule RT12: the map gives the source its roles (the target joint's role), laid over the
    // names and the structure, so facing and scale "auto" need nothing else.
    opt.source_overrides = roles_from_map(rt, source, rig, tr.value());
    auto sr = source_roles(source, opt.source_overrides);
    if (!sr) return sr.error();
    if (!rt.facing) {
      auto f = auto_facing(source, sr.value(), rig, tr.value());
      if (!f) return f.error();
      p.facing = f.value();
    }
    if (rt.auto_scale) {
      // The leg chains for "auto" come from the roles (the same rule as build_auto_profile).
      auto a = build_auto_profile(source, rig, opt);
      if (!a) return a.error();
      p.source_leg = a.value().source_leg;
      p.target_leg = a.value().target_leg;
    }
  }
  if (rt.facing) p.facing = *rt.facing;
  if (roles_note) {
    auto roles = source_roles(source, opt.source_overrides);
    if (roles) *roles_note = describe_roles(roles.value());
  }
  return p;
}

Result<std::optional<RetargetProfile>> prepare_scene_retarget(SourceClip& clip, const SceneRetarget& rt, const Rig& rig,
                                                              const std::string& label, std::vector<std::string>& notes,
                                                              std::string* roles_note) {
  std::optional<SourceClip> original;
  if (rt.rest == SourceRestMode::kAuto) original = clip;  // rule RT24: kept for the frame 0 retry
  auto prepared = prepare_scene_source(clip, rt, rig, label);
  if (!prepared) return prepared.error();
  if (!clip.skeleton_only && clip_binds_natively(clip.clip, rig)) {  // rule P3
    notes = std::move(prepared).value();
    return std::optional<RetargetProfile>{};
  }
  auto profile = build_scene_profile(rt, clip.skeleton, rig, clip.rest_on_ground, roles_note);
  if (profile || !original) {
    if (!profile) return profile.error();
    notes = std::move(prepared).value();
    return std::optional<RetargetProfile>(std::move(profile).value());
  }
  SceneRetarget frame0 = rt;
  frame0.rest = SourceRestMode::kFrame;
  frame0.rest_frame = 0;
  auto again = prepare_scene_source(*original, frame0, rig, label);
  if (!again || (!original->skeleton_only && clip_binds_natively(original->clip, rig))) return profile.error();
  auto retried = build_scene_profile(frame0, original->skeleton, rig, original->rest_on_ground, roles_note);
  if (!retried) return profile.error();
  clip = std::move(*original);
  notes = std::move(again).value();
  notes.push_back(label + ": the humanoid roles do not resolve on the rest; frame 0 is the reference pose");
  return std::optional<RetargetProfile>(std::move(retried).value());
}

Result<FootContacts> resolve_scene_floor(const SceneRetarget& rt, SourceClip& clip, const Rig& rig,
                                         RetargetProfile& profile) {
  auto contacts = find_foot_contacts(clip.clip, clip.skeleton, profile.facing);
  if (!contacts) return contacts.error();
  profile.floor.reset();
  if (rt.floor == SceneRetarget::Floor::kHeight) profile.floor = rt.floor_height;
  if (rt.floor == SceneRetarget::Floor::kAuto && contacts.value().has_floor) {
    // Rule RT18: the floor per contact, measured on the target's soles, leveled out of the
    // clip's root travel; the constant floor then stands every contact on the ground.
    profile.floor = contacts.value().floor;
    auto keys = fit_floor_keys_to_target(clip.clip, clip.skeleton, rig, profile, contacts.value());
    if (!keys) return keys.error();
    contacts.value().floor_keys = keys.value();
    level_clip_floor(clip.clip, clip.skeleton, keys.value(), *profile.floor, contacts.value().up);
  }
  return contacts;
}

}  // namespace asterune::io
