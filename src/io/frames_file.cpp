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
    {
      Json control{{"name", c.name}, {"reached", c.reached}, {"residual", float_json(c.residual)}};
      if (c.feet) {
        Json feet = Json::array();
        for (int i = 0; i < c.feet->foot_count; ++i) {
          const FootReport& f = c.feet->feet[static_cast<size_t>(i)];
          feet.push_back(Json{{"lift", float_json(f.lift)}, {"hit", f.hit}, {"tilt_deg", float_json(f.tilt_deg)},
                              {"clamped", f.clamped}, {"sole_error", float_json(f.sole_error)}});
        }
        control["feet"] = std::move(feet);
        control["pelvis_drop"] = float_json(c.feet->pelvis_drop);
      }
      controls.push_back(std::move(control));
    }
    f["controls"] = std::move(controls);
    out_frames.push_back(std::move(f));
  }
  doc["frames"] = std::move(out_frames);
  return pretty_json(doc);
}

}  // namespace asterune::io
