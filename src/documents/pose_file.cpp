#include "asterune/documents/pose_file.hpp"

#include "formats/json_read.hpp"

namespace asterune::io {
using namespace detail;

namespace {

Pose read_pose_document(const Json& doc, const Rig& rig) {
  require_object(doc, "");
  check_keys(doc, "", {"format", "joints"});
  const std::string format = read_string(require_member(doc, "", "format"), "/format");
  if (format != kPoseFormat)
    fail("/format", "unsupported format '" + format + "' (expected '" + std::string(kPoseFormat) + "')");
  Pose pose = make_pose(rig);
  std::vector<std::string> set_by(static_cast<size_t>(rig.joint_count()));
  if (const Json* joints = find_member(doc, "joints")) {
    require_object(*joints, "/joints");
    for (auto it = joints->begin(); it != joints->end(); ++it) {
      const std::string p = child_pointer("/joints", it.key());
      const JointLookup found = rig.find_joint(it.key());
      if (!found.found()) fail(p, found.message);
      const auto j = static_cast<size_t>(found.index);
      if (!set_by[j].empty())
        fail(p, "joint '" + rig.joint_name(found.index) + "' is already set by " + set_by[j]);
      set_by[j] = p;
      pose.local[j] = read_placement(it.value(), p);
      pose.coverage[j] = 1.0f;
    }
  }
  return pose;
}

}  // namespace

Result<Pose> parse_pose_json(std::string_view text, const Rig& rig, std::string_view file_label) {
  try {
    return read_pose_document(parse_json(text), rig);
  } catch (const LoadError& e) {
    return to_error(file_label, e);
  }
}

Result<Pose> read_pose_file(const std::filesystem::path& path, const Rig& rig) {
  return parse_text_file(path, [&](std::string_view text, const std::string& label) {
    return parse_pose_json(text, rig, label);
  });
}

}  // namespace asterune::io
