#include "asterune/io/frames_file.hpp"

#include "json_read.hpp"

namespace asterune::io {
using namespace detail;

std::string write_frames_json(const Rig& rig, std::span<const FrameRecord> frames) {
  Json doc = Json::object();
  doc["format"] = kFramesFormat;
  doc["rig"] = rig.name();
  Json out_frames = Json::array();
  for (const FrameRecord& rec : frames) {
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
    for (const ControlRecord& c : rec.controls)
      controls.push_back(Json{{"name", c.name},
                              {"status", c.status},
                              {"reached", c.reached},
                              {"clamped", c.clamped},
                              {"distance", float_json(c.distance)},
                              {"angle", float_json(c.angle)},
                              {"weight", float_json(c.weight)},
                              {"passes", c.passes},
                              {"stretch", float_json(c.stretch)}});
    f["controls"] = std::move(controls);
    out_frames.push_back(std::move(f));
  }
  doc["frames"] = std::move(out_frames);
  return pretty_json(doc);
}

}  // namespace asterune::io
