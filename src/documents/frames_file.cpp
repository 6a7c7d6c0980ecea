#include "asterune/documents/frames_file.hpp"

#include "formats/json_read.hpp"

namespace asterune::io {
using namespace detail;

namespace {
// Rule F11: {"parameters": {NAME: value}, "nodes": {ID: {"weight", "time", "phase"}}}.
Json graph_json(const GraphRecord& g) {
  Json parameters = Json::object();
  for (const GraphParameterRecord& p : g.parameters) {
    if (p.type == GraphParameterRecord::Type::kNumber) parameters[p.name] = float_json(p.number);
    else if (p.type == GraphParameterRecord::Type::kBool) parameters[p.name] = p.boolean;
    else parameters[p.name] = p.string;
  }
  Json nodes = Json::object();
  for (const GraphNodeRecord& n : g.nodes) {
    nodes[n.id] = Json{{"weight", float_json(n.weight)}, {"time", float_json(n.time)}, {"phase", float_json(n.phase)}};
    if (n.warp)  // rule LO9
      nodes[n.id]["warp"] = Json{{"stride_scale", float_json(n.warp->stride_scale)},
                                 {"play_rate", float_json(n.warp->play_rate)},
                                 {"lower_body_yaw", float_json(n.warp->lower_body_yaw)},
                                 {"pelvis_drop", float_json(n.warp->pelvis_drop)},
                                 {"ignored", n.warp->ignored}};
  }
  return Json{{"parameters", std::move(parameters)}, {"nodes", std::move(nodes)}};
}

Json frame_json(const Rig& rig, const FrameRecord& rec) {
  Json f = Json::object();
  f["frame"] = rec.frame;
  f["time"] = float_json(rec.time);
  Json joints = Json::array();
  for (int j = 0; j < rig.joint_count(); ++j) {
    const auto i = static_cast<size_t>(j);
    Json jj = Json::object();
    jj["name"] = rig.joint_name(j);
    jj["part0"] = rig.parent_name(j);
    jj["part1"] = rig.child_name(j);
    jj["parent"] = rig.parent(j);
    jj["transform"] = placement_json(rec.local[i]);
    jj["coverage"] = float_json(rec.coverage[i]);
    jj["world"] = placement_json(rec.world[i]);
    joints.push_back(std::move(jj));
  }
  f["joints"] = std::move(joints);
  Json controls = Json::array();
  for (const ControlRecord& c : rec.controls) {
    Json control{{"name", c.name},
                 {"status", c.status},
                 {"reached", c.reached},
                 {"clamped", c.clamped},
                 {"distance", float_json(c.distance)},
                 {"angle", float_json(c.angle)},
                 {"weight", float_json(c.weight)},
                 {"passes", c.passes},
                 {"stretch", float_json(c.stretch)}};
    if (c.spring) {
      control["substeps"] = c.spring->substeps;
      control["resets"] = c.spring->resets;
    }
    if (c.feet) {
      Json feet = Json::array();
      for (int i = 0; i < c.feet->foot_count; ++i) {
        const FootReport& foot = c.feet->feet[static_cast<size_t>(i)];
        feet.push_back(Json{{"lift", float_json(foot.lift)},
                            {"hit", foot.hit},
                            {"tilt_deg", float_json(foot.tilt_deg)},
                            {"clamped", foot.clamped},
                            {"sole_error", float_json(foot.sole_error)},
                            {"shorten", float_json(foot.shorten)},
                            {"ray_origin", vec3_json(foot.ray_origin)},
                            {"ray_end", vec3_json(foot.ray_end)},
                            {"hit_normal", vec3_json(foot.hit_normal)}});
      }
      control["feet"] = std::move(feet);
      control["pelvis_drop"] = float_json(c.feet->pelvis_drop);
      control["lean_deg"] = float_json(c.feet->lean_deg);
    }
    controls.push_back(std::move(control));
  }
  f["controls"] = std::move(controls);
  if (!rec.contacts.empty()) {  // rule RT17
    Json contacts = Json::object();
    for (const FootContactRecord& c : rec.contacts) contacts[c.foot] = c.contact;
    f["contacts"] = std::move(contacts);
  }
  if (!rec.tracks.empty()) {
    Json tracks = Json::array();
    for (const TrackRecord& t : rec.tracks) {
      Json track{{"name", t.name}, {"weight", float_json(t.weight)}, {"time", float_json(t.time)},
                 {"playing", t.playing}};
      if (t.graph) track["graph"] = graph_json(*t.graph);
      tracks.push_back(std::move(track));
    }
    f["tracks"] = std::move(tracks);
    Json events = Json::array();
    for (const EventRecord& e : rec.events) {
      Json event{{"track", e.track}, {"kind", e.kind}, {"name", e.name}, {"value", e.value}, {"time", float_json(e.time)}};
      if (e.weight) event["weight"] = float_json(*e.weight);  // a graph marker (rule F11)
      if (!e.node.empty()) event["node"] = e.node;
      events.push_back(std::move(event));
    }
    f["events"] = std::move(events);
    if (rec.events_dropped > 0) f["events_dropped"] = rec.events_dropped;
  }
  return f;
}
std::string dump_scalar(const Json& v) { return v.dump(-1, ' ', false, Json::error_handler_t::replace); }
}  // namespace

// The pieces reproduce pretty_json's layout of {"format", "rig", "frames": [...]}: one space
// of indent per level, each frame object at level 2.
std::string frames_json_head(const Rig& rig) {
  return "{\n \"format\": " + dump_scalar(Json(kFramesFormat)) + ",\n \"rig\": " + dump_scalar(Json(rig.name())) +
         ",\n \"frames\": [";
}

std::string frames_json_frame(const Rig& rig, const FrameRecord& record, size_t index) {
  std::string out = index == 0 ? "\n  " : ",\n  ";
  append_pretty_json(frame_json(rig, record), 2, out);
  return out;
}

std::string frames_json_tail(size_t frame_count) { return frame_count == 0 ? "]\n}\n" : "\n ]\n}\n"; }

std::string write_frames_json(const Rig& rig, std::span<const FrameRecord> frames) {
  std::string out = frames_json_head(rig);
  for (size_t i = 0; i < frames.size(); ++i) out += frames_json_frame(rig, frames[i], i);
  return out + frames_json_tail(frames.size());
}

}  // namespace asterune::io
