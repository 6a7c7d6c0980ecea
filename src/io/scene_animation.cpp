// The scene's "animation" block (scene_animation.hpp) and clip loading for it.
#include "asterune/io/scene_animation.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <system_error>

#include "asterune/io/bvh.hpp"
#include "asterune/io/gltf.hpp"
#include "asterune/io/keyframe_sequence.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/rig/rig.hpp"
#include "scene_blocks.hpp"

namespace asterune::io {
namespace detail {

// Retarget scale and units: far beyond any real rig (a factor of a million either way), far
// enough inside float range that travel * scale * units stays finite (docs/formats.md).
constexpr float kMinRetargetFactor = 1e-6f;
constexpr float kMaxRetargetFactor = 1e6f;

void read_scene_animation(const Json& value, const std::string& pointer, const SceneBlockContext& ctx, SceneDesc& scene) {
  require_object(value, pointer);
  check_keys(value, pointer, {"clip", "loop", "retarget"});
  SceneAnimation a;
  a.clip = ctx.resolve(read_name(require_member(value, pointer, "clip"), pointer + "/clip"));
  if (const Json* loop = find_member(value, "loop")) a.loop = read_bool(*loop, pointer + "/loop");
  if (const Json* r = find_member(value, "retarget")) {
    const std::string rp = pointer + "/retarget";
    require_object(*r, rp);
    check_keys(*r, rp, {"map", "rest_matching", "translation", "scale", "facing", "units", "floor"});
    SceneRetarget& rt = a.retarget;
    if (const Json* map = find_member(*r, "map")) {
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
    if (const Json* v = find_member(*r, "rest_matching")) rt.rest_matching = read_bool(*v, rp + "/rest_matching");
    if (const Json* v = find_member(*r, "translation")) rt.translation = read_bool(*v, rp + "/translation");
    if (const Json* v = find_member(*r, "scale")) {
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
    if (const Json* v = find_member(*r, "facing")) {
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
    if (const Json* v = find_member(*r, "units")) {
      const float u = read_float(*v, rp + "/units");
      if (!(u >= kMinRetargetFactor && u <= kMaxRetargetFactor))
        fail(rp + "/units", "must be a number of studs per source unit in [1e-6, 1e6]");
      rt.units_to_studs = u;
    }
    if (const Json* v = find_member(*r, "floor")) {  // rule RT16
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
  }
  scene.animation = std::move(a);
}

}  // namespace detail

namespace {
std::string lower_extension(const std::filesystem::path& p) {
  std::string e = p.extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return e;
}
}  // namespace

Result<SourceClip> load_source_clip(const std::filesystem::path& path, std::optional<float> units_to_studs) {
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
  } else if (ext == ".gltf" || ext == ".glb") {
    auto g = load_gltf_source(path.string());
    if (!g) return g.error();
    if (g.value().clips.empty()) return make_error(path.string() + ": the glTF file has no animation");
    out.skeleton = std::move(g.value().skeleton);
    out.clip = std::move(g.value().clips.front());
    if (units_to_studs) out.skeleton.units_to_studs = *units_to_studs;
  } else if (ext == ".rbxmx") {
    auto k = read_keyframe_sequence_file(path);
    if (!k) return k.error();
    out.clip = std::move(k.value().clip);
    out.skeleton.name = out.clip.name;
    out.native_only = true;
  } else {
    return make_error(path.string() + ": unsupported clip format '" + ext + "' (expected .bvh, .gltf, .glb or .rbxmx)");
  }
  return out;
}

Result<RetargetProfile> build_scene_profile(const SceneRetarget& rt, const SourceSkeleton& source, const Rig& rig,
                                           bool rest_on_ground) {
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
    auto sr = source_roles(source);
    auto tr = rig_roles(rig);
    if (!sr) return sr.error();
    if (!tr) return tr.error();
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
  return p;
}

Result<FootContacts> resolve_scene_floor(const SceneRetarget& rt, const SourceClip& clip, const Rig& rig,
                                         RetargetProfile& profile) {
  auto contacts = find_foot_contacts(clip.clip, clip.skeleton, profile.facing);
  if (!contacts) return contacts.error();
  profile.floor.reset();
  if (rt.floor == SceneRetarget::Floor::kHeight) profile.floor = rt.floor_height;
  if (rt.floor == SceneRetarget::Floor::kAuto && contacts.value().has_floor) {
    profile.floor = contacts.value().floor;
    auto fitted = fit_floor_to_target(clip.clip, clip.skeleton, rig, profile, contacts.value());
    if (!fitted) return fitted.error();
    profile.floor = fitted.value();
  }
  return contacts;
}

}  // namespace asterune::io
