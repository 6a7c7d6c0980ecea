// The scene's "tracks" and "commands" blocks (scene_tracks.hpp, docs/formats.md).
#include "asterune/documents/scene_tracks.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "asterune/rig/rig.hpp"
#include "graph_document.hpp"
#include "scene_blocks.hpp"

namespace asterune::io {
namespace detail {

namespace {

std::string priority_list() {
  std::string list;
  for (int p = 0; p < kTrackPriorityCount; ++p)
    list += (p == 0 ? "" : ", ") + std::string(to_string(static_cast<TrackPriority>(p)));
  return list;
}

// A fade in seconds: finite (read_float) and >= 0 (section "Bad input" of formats.md).
float read_fade(const Json& v, const std::string& pointer) {
  const float f = read_float(v, pointer);
  if (f < 0.0f) fail(pointer, "a fade must be a time in seconds >= 0");
  return f;
}

// Rule AN6: only an additive track subtracts; an override track's weight below 0 is 0.
float clamp_weight(float w, bool additive) { return additive || w > 0.0f ? w : 0.0f; }

// "graph" (rule F10): a path (read now, so commands can be checked against its parameters) or
// an inline asterune.graph/1 object whose relative clip paths start at the scene's folder.
void read_track_graph(const Json& g, const std::string& gp, const SceneBlockContext& ctx, SceneTrack& t) {
  if (g.is_string()) {
    t.graph_file = ctx.resolve(read_name(g, gp));
    Result<GraphDocument> doc = read_graph_document_file(t.graph_file);
    if (!doc) fail(gp, doc.message());
    t.graph = std::move(doc.value());
    return;
  }
  if (!g.is_object()) fail(gp, "must be a graph file's path or an inline asterune.graph/1 object");
  t.graph = read_graph_document(g, gp, ctx.base_dir);
}

SceneTrack read_track(const Json& v, const std::string& tp, const SceneBlockContext& ctx) {
  require_object(v, tp);
  check_keys(v, tp, {"name", "clip", "graph", "retarget", "priority", "weight", "speed", "loop", "time", "playing",
                     "mask", "additive", "root_motion", "cycle", "plant_feet"});
  SceneTrack t;
  t.name = read_name(require_member(v, tp, "name"), child_pointer(tp, "name"));
  if (const Json* g = find_member(v, "graph")) {
    // Rule GR15: the animator plays a graph as a looped track, never additive.
    static constexpr std::pair<std::string_view, std::string_view> kRefused[] = {
        {"clip", "a track plays a clip or a graph"},
        {"retarget", "give it to the graph's Clip nodes"},
        {"loop", "a graph track always loops; its Clip nodes have a play_mode"},
        {"time", "its Clip nodes keep their own times"},
        {"additive", "a graph track is never additive; the graph's Add and Subtract nodes make additive poses"}};
    for (const auto& [key, why] : kRefused)
      if (find_member(v, key))
        fail(child_pointer(tp, key), "a graph track takes no '" + std::string(key) + "' (" + std::string(why) + ")");
    read_track_graph(*g, child_pointer(tp, "graph"), ctx, t);
  } else {
    if (!find_member(v, "clip")) fail(tp, "missing required key 'clip' (or 'graph': a track plays a clip or a graph)");
    t.clip = ctx.resolve(read_name(require_member(v, tp, "clip"), child_pointer(tp, "clip")));
  }
  if (const Json* r = find_member(v, "retarget")) t.retarget = read_scene_retarget(*r, child_pointer(tp, "retarget"));
  if (const Json* p = find_member(v, "priority")) {
    const std::string pp = child_pointer(tp, "priority");
    const std::string name = read_name(*p, pp);
    t.priority = parse_track_priority(name);
    if (!t.priority) fail(pp, "unknown priority '" + name + "' (expected one of: " + priority_list() + ")");
  }
  if (const Json* a = find_member(v, "additive")) {
    const std::string ap = child_pointer(tp, "additive");
    if (a->is_object()) {
      check_keys(*a, ap, {"reference_time"});
      t.additive = true;
      t.reference_time = read_float(require_member(*a, ap, "reference_time"), child_pointer(ap, "reference_time"));
      if (t.reference_time < 0.0f) fail(child_pointer(ap, "reference_time"), "must be a clip time in seconds >= 0");
    } else {
      if (!a->is_boolean()) fail(ap, "must be true, false or {\"reference_time\": seconds}");
      t.additive = read_bool(*a, ap);
    }
  }
  if (const Json* w = find_member(v, "weight")) t.weight = clamp_weight(read_float(*w, child_pointer(tp, "weight")), t.additive);
  if (const Json* s = find_member(v, "speed")) t.speed = read_float(*s, child_pointer(tp, "speed"));
  if (const Json* l = find_member(v, "loop")) t.loop = read_bool(*l, child_pointer(tp, "loop"));
  if (const Json* s = find_member(v, "time")) t.time = read_float(*s, child_pointer(tp, "time"));
  if (const Json* p = find_member(v, "playing")) t.playing = read_bool(*p, child_pointer(tp, "playing"));
  if (const Json* m = find_member(v, "mask")) {
    const std::string mp = child_pointer(tp, "mask");
    require_object(*m, mp);
    check_keys(*m, mp, {"parts", "descendants"});
    const std::string pp = child_pointer(mp, "parts");
    const Json& parts = require_member(*m, mp, "parts");
    require_array(parts, pp);
    if (parts.empty()) fail(pp, "a mask names at least one part (leave the mask out for the whole body)");
    for (size_t i = 0; i < parts.size(); ++i) t.mask_parts.push_back(read_name(parts[i], child_pointer(pp, i)));
    if (const Json* d = find_member(*m, "descendants")) t.mask_descendants = read_bool(*d, child_pointer(mp, "descendants"));
  }
  if (const Json* r = find_member(v, "root_motion")) t.root_motion = read_bool(*r, child_pointer(tp, "root_motion"));
  if (const Json* c = find_member(v, "cycle")) t.cycle = read_clip_cycle(*c, child_pointer(tp, "cycle"));  // rule LO1
  if (const Json* p = find_member(v, "plant_feet")) {  // rule LO15
    const std::string pp = child_pointer(tp, "plant_feet");
    if (!t.graph) fail(pp, "a clip track plants its feet with its retarget block's \"plant_feet\" (rule RT19)");
    t.plant_feet = read_bool(*p, pp);
  }
  return t;
}

// {"name", "value", "over"} against the track's graph (rule F10): a declared parameter, a value
// of its type, a ramp only for a number.
SceneParameterValue read_set_parameter(const Json& a, const std::string& ap, const SceneTrack* track,
                                       const std::string& track_name) {
  check_keys(a, ap, {"name", "value", "over"});
  if (!track || !track->graph)
    fail(ap, "track '" + track_name + "' plays a clip, not a graph: it has no parameters");
  SceneParameterValue p;
  const std::string np = child_pointer(ap, "name");
  p.name = read_name(require_member(a, ap, "name"), np);
  const GraphParameterDesc* found = nullptr;
  std::string declared;
  for (const GraphParameterDesc& g : track->graph->desc.parameters) {
    if (g.name == p.name) found = &g;
    declared += (declared.empty() ? "" : ", ") + g.name;
  }
  if (!found)
    fail(np, "track '" + track_name + "': the graph has no parameter '" + p.name +
                 "' (parameters: " + (declared.empty() ? std::string("none") : declared) + ")");
  p.type = found->type;
  const std::string vp = child_pointer(ap, "value");
  const Json& value = require_member(a, ap, "value");
  const std::string want = std::string("track '") + track_name + "': the parameter '" + p.name + "' is a " +
                           to_string(p.type) + ": ";
  switch (p.type) {
    case GraphParameterType::kNumber:
      if (!value.is_number()) fail(vp, want + "the value must be a number");
      p.number = read_float(value, vp);
      break;
    case GraphParameterType::kBool:
      if (!value.is_boolean()) fail(vp, want + "the value must be true or false");
      p.boolean = value.get<bool>();
      break;
    case GraphParameterType::kString:
      if (!value.is_string()) fail(vp, want + "the value must be a string");
      p.string = value.get<std::string>();
      break;
  }
  if (const Json* o = find_member(a, "over")) {
    const std::string op = child_pointer(ap, "over");
    if (p.type != GraphParameterType::kNumber) fail(op, want + "only a number ramps ('over')");
    p.over = read_fade(*o, op);
  }
  return p;
}

// {"t", "snapshot": ID} or {"t", "restore": ID} (rule F27): whole-character, so no "track".
bool read_state_command(const Json& v, const std::string& cp, SceneCommand& c) {
  const bool snapshot = find_member(v, "snapshot") != nullptr;
  if (!snapshot && !find_member(v, "restore")) return false;
  const std::string key = snapshot ? "snapshot" : "restore";
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string& k = it.key();
    if (k == "t" || k == key || (!k.empty() && k[0] == '_')) continue;
    if (k == "track")
      fail(child_pointer(cp, k), "a " + key + " command is whole-character: it takes no 'track'");
    fail(child_pointer(cp, k), "a command has one action ('" + key + "' is already given)");
  }
  const std::string ip = child_pointer(cp, key);
  const Json& id = v[key];
  if (!id.is_string()) fail(ip, "the " + key + " id must be a string, e.g. \"A\"");
  c.snapshot = read_name(id, ip);
  c.kind = snapshot ? SceneCommandKind::kSnapshot : SceneCommandKind::kRestore;
  return true;
}

// Rule F27: a restore names an id that a snapshot due earlier saves (a smaller t, or the same t
// and earlier in the file, as commands due together run in file order), so its buffer is filled.
void check_restores(const std::vector<SceneCommand>& commands, const std::string& pointer) {
  for (size_t i = 0; i < commands.size(); ++i) {
    const SceneCommand& c = commands[i];
    if (c.kind != SceneCommandKind::kRestore) continue;
    const SceneCommand* later = nullptr;
    bool saved = false;
    for (size_t k = 0; k < commands.size() && !saved; ++k) {
      const SceneCommand& s = commands[k];
      if (s.kind != SceneCommandKind::kSnapshot || s.snapshot != c.snapshot) continue;
      saved = s.t < c.t || (s.t == c.t && k < i);
      if (!saved && !later) later = &s;
    }
    if (saved) continue;
    const std::string ip = child_pointer(child_pointer(pointer, i), "restore");
    if (later)
      fail(ip, "restore '" + c.snapshot + "' at t = " + std::to_string(c.t) + " runs before the snapshot '" +
                   c.snapshot + "' at t = " + std::to_string(later->t) + " saves it");
    fail(ip, "no snapshot command saves '" + c.snapshot + "' (a restore follows {\"t\": ..., \"snapshot\": \"" +
                 c.snapshot + "\"})");
  }
}

}  // namespace

void read_scene_tracks(const Json& value, const std::string& pointer, const SceneBlockContext& ctx, SceneDesc& scene) {
  require_array(value, pointer);
  if (value.empty()) fail(pointer, "a tracks block needs at least one track (leave it out for none)");
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string tp = child_pointer(pointer, i);
    SceneTrack t = read_track(value[i], tp, ctx);
    if (scene.animation && t.name == kAnimationTrackName)
      fail(child_pointer(tp, "name"), "the name 'animation' is the scene's \"animation\" block's track");
    for (size_t k = 0; k < scene.tracks.size(); ++k)
      if (scene.tracks[k].name == t.name)
        fail(child_pointer(tp, "name"), "duplicate track name '" + t.name + "' (already used by " +
                                            child_pointer(pointer, k) + ")");
    scene.tracks.push_back(std::move(t));
  }
}

// Reads after "animation" and "tracks" (scene_blocks.cpp), so every name a command may use is known.
void read_scene_commands(const Json& value, const std::string& pointer, const SceneBlockContext&, SceneDesc& scene) {
  require_array(value, pointer);
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string cp = child_pointer(pointer, i);
    const Json& v = value[i];
    require_object(v, cp);
    SceneCommand c;
    c.t = read_float(require_member(v, cp, "t"), child_pointer(cp, "t"));
    if (c.t < 0.0f) fail(child_pointer(cp, "t"), "must be a time in seconds >= 0");
    if (read_state_command(v, cp, c)) {
      scene.commands.push_back(std::move(c));
      continue;
    }
    c.track = read_name(require_member(v, cp, "track"), child_pointer(cp, "track"));
    const SceneTrack* track = nullptr;
    for (const SceneTrack& t : scene.tracks)
      if (t.name == c.track) track = &t;
    if (!track && !(scene.animation && c.track == kAnimationTrackName)) {
      std::string names;
      auto add = [&](std::string_view n) { names += (names.empty() ? "'" : ", '") + std::string(n) + "'"; };
      if (scene.animation) add(kAnimationTrackName);
      for (const SceneTrack& t : scene.tracks) add(t.name);
      fail(child_pointer(cp, "track"), "unknown track '" + c.track + "' (" +
                                           (names.empty() ? std::string("the scene has no tracks") : "tracks: " + names) + ")");
    }
    const bool additive = track && track->additive;
    // Exactly one action key besides "t" and "track".
    static constexpr std::string_view kActions[] = {"play",         "stop",     "adjust_weight",
                                                    "adjust_speed", "set_time", "set_parameter"};
    const Json* action = nullptr;
    std::string action_name;
    for (auto it = v.begin(); it != v.end(); ++it) {
      const std::string& key = it.key();
      if (key == "t" || key == "track" || (!key.empty() && key[0] == '_')) continue;
      bool known = false;
      for (std::string_view a : kActions) known = known || key == a;
      if (!known)
        fail(child_pointer(cp, key), "unknown key '" + key +
                                         "' (expected t, track and one of: play, stop, adjust_weight, adjust_speed, set_time, "
                                         "set_parameter; or t and snapshot or restore)");
      if (action) fail(child_pointer(cp, key), "a command has one action ('" + action_name + "' is already given)");
      action = &it.value();
      action_name = key;
    }
    if (!action)
      fail(cp, "a command needs one action: play, stop, adjust_weight, adjust_speed, set_time or set_parameter");
    const std::string ap = child_pointer(cp, action_name);
    require_object(*action, ap);
    if (action_name == "play") {
      check_keys(*action, ap, {"fade", "weight", "speed", "transition"});
      c.kind = SceneCommandKind::kPlay;
      // play() defaults to the track's own weight and speed (the "animation" block's: 1, 1).
      c.play.weight = track ? track->weight : 1.0f;
      c.play.speed = track ? track->speed : 1.0f;
      if (const Json* f = find_member(*action, "fade")) c.play.fade = read_fade(*f, child_pointer(ap, "fade"));
      if (const Json* w = find_member(*action, "weight"))
        c.play.weight = clamp_weight(read_float(*w, child_pointer(ap, "weight")), additive);
      if (const Json* s = find_member(*action, "speed")) c.play.speed = read_float(*s, child_pointer(ap, "speed"));
      if (const Json* tr = find_member(*action, "transition")) {
        const std::string trp = child_pointer(ap, "transition");
        const std::string kind = read_name(*tr, trp);
        if (kind == "crossfade") c.play.transition = TransitionKind::kCrossfade;
        else if (kind == "inertial") c.play.transition = TransitionKind::kInertial;
        else fail(trp, "unknown transition '" + kind + "' (expected crossfade or inertial)");
      }
    } else if (action_name == "stop") {
      check_keys(*action, ap, {"fade"});
      c.kind = SceneCommandKind::kStop;
      if (const Json* f = find_member(*action, "fade")) c.fade = read_fade(*f, child_pointer(ap, "fade"));
    } else if (action_name == "adjust_weight") {
      check_keys(*action, ap, {"weight", "fade"});
      c.kind = SceneCommandKind::kAdjustWeight;
      c.weight = clamp_weight(read_float(require_member(*action, ap, "weight"), child_pointer(ap, "weight")), additive);
      if (const Json* f = find_member(*action, "fade")) c.fade = read_fade(*f, child_pointer(ap, "fade"));
    } else if (action_name == "adjust_speed") {
      check_keys(*action, ap, {"speed"});
      c.kind = SceneCommandKind::kAdjustSpeed;
      c.speed = read_float(require_member(*action, ap, "speed"), child_pointer(ap, "speed"));
    } else if (action_name == "set_parameter") {
      c.kind = SceneCommandKind::kSetParameter;
      c.parameter = read_set_parameter(*action, ap, track, c.track);
    } else {
      check_keys(*action, ap, {"time"});
      c.kind = SceneCommandKind::kSetTime;
      c.time = read_float(require_member(*action, ap, "time"), child_pointer(ap, "time"));
    }
    scene.commands.push_back(std::move(c));
  }
  check_restores(scene.commands, pointer);
}

}  // namespace detail

SceneTrack animation_track(const SceneAnimation& animation) {
  SceneTrack t;
  t.name = std::string(kAnimationTrackName);
  t.clip = animation.clip;
  t.retarget = animation.retarget;
  t.priority = TrackPriority::kCore;
  t.loop = animation.loop;
  t.cycle = animation.cycle;
  return t;
}

Status check_track_masks(std::span<const SceneTrack> tracks, const Rig& rig, const std::filesystem::path& scene_file) {
  for (size_t i = 0; i < tracks.size(); ++i) {
    for (size_t k = 0; k < tracks[i].mask_parts.size(); ++k) {
      const std::string& part = tracks[i].mask_parts[k];
      const JointLookup found = rig.find_joint(part);
      if (found.found()) continue;
      const std::string where = "/tracks/" + std::to_string(i) + "/mask/parts/" + std::to_string(k);
      const bool root = rig.root_part() >= 0 && rig.part(rig.root_part()).name == part;
      const std::string reason =
          root ? "'" + part + "' is the root part of rig '" + rig.name() + "', which no joint places (name the parts below it)"
          : found.status == LookupStatus::kNotFound ? "no part named '" + part + "' in rig '" + rig.name() + "'"
                                                    : found.message;
      return make_error(scene_file.string() + ": " + where + ": " + reason);
    }
  }
  return Success{};
}

}  // namespace asterune::io
