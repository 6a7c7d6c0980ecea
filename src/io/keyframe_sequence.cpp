// Roblox KeyframeSequence out and in (keyframe_sequence.hpp).
#include "asterune/io/keyframe_sequence.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include <pugixml.hpp>

#include "json_read.hpp"
#include "roblox_xml.hpp"

namespace asterune::io {

namespace {

using detail::LoadError;

struct PriorityName {
  AnimationPriority value;
  const char* name;
};
constexpr PriorityName kPriorities[] = {
    {AnimationPriority::kIdle, "Idle"},       {AnimationPriority::kMovement, "Movement"},
    {AnimationPriority::kAction, "Action"},   {AnimationPriority::kAction2, "Action2"},
    {AnimationPriority::kAction3, "Action3"}, {AnimationPriority::kAction4, "Action4"},
    {AnimationPriority::kCore, "Core"},
};

// Roblox Enum.PoseEasingStyle / PoseEasingDirection token values.
constexpr int kEasingLinear = 0;
constexpr int kEasingConstant = 1;
constexpr int kEasingDirectionIn = 0;

std::string number(float v) {
  if (v == 0.0f) v = 0.0f;  // no "-0"
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

class Writer {
 public:
  pugi::xml_node item(pugi::xml_node parent, const char* cls) {
    pugi::xml_node it = parent.append_child("Item");
    it.append_attribute("class") = cls;
    it.append_attribute("referent") = ("RBX" + std::to_string(next_++)).c_str();
    it.append_child("Properties");
    return it;
  }
  static void prop(pugi::xml_node it, const char* type, const char* name, const std::string& value) {
    pugi::xml_node p = it.child("Properties").append_child(type);
    p.append_attribute("name") = name;
    p.text() = value.c_str();
  }
  static void cframe(pugi::xml_node it, const Transform& t) {
    static constexpr const char* kKeys[12] = {"X", "Y", "Z", "R00", "R01", "R02", "R10", "R11", "R12", "R20", "R21", "R22"};
    pugi::xml_node p = it.child("Properties").append_child("CoordinateFrame");
    p.append_attribute("name") = "CFrame";
    const CFrameComponents c = to_cframe(t);
    for (size_t i = 0; i < 12; ++i) p.append_child(kKeys[i]).text() = number(c[i]).c_str();
  }

 private:
  int next_ = 0;
};

}  // namespace

const char* to_string(AnimationPriority priority) {
  for (const PriorityName& p : kPriorities)
    if (p.value == priority) return p.name;
  return "Action";
}

std::optional<AnimationPriority> parse_animation_priority(std::string_view name) {
  for (const PriorityName& p : kPriorities)
    if (name == p.name) return p.value;
  return std::nullopt;
}

std::string write_keyframe_sequence(const Rig& rig, std::span<const FrameRecord> frames,
                                    const KeyframeSequenceOptions& options) {
  const int n = rig.joint_count();
  // The Pose tree: children of the root part (-1) and of each joint's child part, in layout
  // order. Joints not reached from the root part have no place in it.
  std::vector<std::vector<int>> children(static_cast<size_t>(n) + 1);
  for (int j = 0; j < n; ++j) {
    if (!rig.connected(j)) continue;
    children[static_cast<size_t>(rig.parent(j) + 1)].push_back(j);
  }

  pugi::xml_document doc;
  pugi::xml_node roblox = doc.append_child("roblox");
  roblox.append_attribute("xmlns:xmime") = "http://www.w3.org/2005/05/xmlmime";
  roblox.append_attribute("xmlns:xsi") = "http://www.w3.org/2001/XMLSchema-instance";
  roblox.append_attribute("xsi:noNamespaceSchemaLocation") = "http://www.roblox.com/roblox.xsd";
  roblox.append_attribute("version") = "4";
  roblox.append_child("External").text() = "null";
  roblox.append_child("External").text() = "nil";
  Writer w;
  pugi::xml_node seq = w.item(roblox, "KeyframeSequence");
  Writer::prop(seq, "bool", "Loop", options.loop ? "true" : "false");
  Writer::prop(seq, "string", "Name", options.name);
  Writer::prop(seq, "token", "Priority", std::to_string(static_cast<int>(options.priority)));

  const std::string root_name = rig.root_part() >= 0 ? rig.part(rig.root_part()).name : std::string("Root");
  // Reduced keys (options.joint_keys): which joints each frame keys, and which Poses it needs
  // (a keyed joint and its ancestors; children come after parents in the layout).
  const bool sparse = options.joint_keys.size() == static_cast<size_t>(n);
  std::vector<unsigned char> keyed(static_cast<size_t>(n), 1), needed(static_cast<size_t>(n), 1);
  for (size_t f = 0; f < frames.size(); ++f) {
    const FrameRecord& rec = frames[f];
    if (rec.local.size() != static_cast<size_t>(n)) continue;
    if (sparse) {
      bool any = false;
      for (int j = n - 1; j >= 0; --j) {
        const auto& keys = options.joint_keys[static_cast<size_t>(j)];
        keyed[static_cast<size_t>(j)] = std::binary_search(keys.begin(), keys.end(), static_cast<int>(f)) ? 1 : 0;
        any = any || keyed[static_cast<size_t>(j)];
        needed[static_cast<size_t>(j)] = keyed[static_cast<size_t>(j)];
      }
      if (!any) continue;
      for (int j = n - 1; j >= 0; --j)
        if (needed[static_cast<size_t>(j)] && rig.parent(j) >= 0) needed[static_cast<size_t>(rig.parent(j))] = 1;
    }
    pugi::xml_node kf = w.item(seq, "Keyframe");
    Writer::prop(kf, "string", "Name", "Keyframe");
    Writer::prop(kf, "float", "Time", number(rec.time));
    auto pose = [&](pugi::xml_node parent, const std::string& name, const Transform& t, bool weight = true) {
      pugi::xml_node p = w.item(parent, "Pose");
      Writer::cframe(p, t);
      Writer::prop(p, "token", "EasingDirection", std::to_string(kEasingDirectionIn));
      Writer::prop(p, "token", "EasingStyle", std::to_string(kEasingLinear));
      Writer::prop(p, "string", "Name", name);
      Writer::prop(p, "float", "Weight", weight ? "1" : "0");
      return p;
    };
    // Depth-first over the part hierarchy; an explicit stack keeps deep rigs off the call stack.
    std::vector<std::pair<int, pugi::xml_node>> todo;  // (joint, parent pose)
    pugi::xml_node root_pose = pose(kf, root_name, Transform::identity());
    for (auto it = children[0].rbegin(); it != children[0].rend(); ++it)
      if (needed[static_cast<size_t>(*it)]) todo.emplace_back(*it, root_pose);
    while (!todo.empty()) {
      const auto [j, parent] = todo.back();
      todo.pop_back();
      pugi::xml_node p = pose(parent, rig.child_name(j), rec.local[static_cast<size_t>(j)], keyed[static_cast<size_t>(j)] != 0);
      const auto& kids = children[static_cast<size_t>(j) + 1];
      for (auto it = kids.rbegin(); it != kids.rend(); ++it)
        if (needed[static_cast<size_t>(*it)]) todo.emplace_back(*it, p);
    }
  }
  std::ostringstream out;
  doc.save(out, "\t", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

Status write_keyframe_sequence_file(const std::filesystem::path& path, const Rig& rig,
                                    std::span<const FrameRecord> frames, const KeyframeSequenceOptions& options) {
  return detail::write_text_file(path, write_keyframe_sequence(rig, frames, options));
}

namespace {

struct RawKey {
  float time;
  Transform t;
  int easing;
};

struct RawTrack {
  std::string name;         // plain pose name
  std::string parent_name;  // the enclosing Pose's name
  std::vector<RawKey> keys;
};

int read_token(const pugi::xml_node& item, std::string_view name, const std::string& label, int fallback) {
  const pugi::xml_node p = detail::property(item, name);
  if (!p) return fallback;
  const std::string where = label + " " + std::string(name);
  const float v = detail::parse_number(p, where);
  if (!std::isfinite(v) || v != std::floor(v)) throw LoadError{where, std::string("not an enum token: '") + p.child_value() + "'"};
  return static_cast<int>(v);
}

void read_poses(const pugi::xml_node& parent, const std::string& parent_name, float time,
                std::map<std::pair<std::string, std::string>, size_t>& index, std::vector<RawTrack>& tracks) {
  for (pugi::xml_node item : parent.children("Item")) {
    if (std::string_view(item.attribute("class").value()) != "Pose") continue;
    const std::string label = detail::item_label(item);
    const std::string name = detail::property(item, "Name").child_value();
    if (name.empty()) throw LoadError{label, "Pose has no Name"};
    float weight = 1.0f;
    if (pugi::xml_node wn = detail::property(item, "Weight")) weight = detail::parse_number(wn, label + " Weight");
    if (!std::isfinite(weight) || weight < 0.0f) throw LoadError{label + " Weight", "must be a finite number >= 0"};
    const Transform t = detail::read_cframe(item, "CFrame", label);
    const int easing = read_token(item, "EasingStyle", label, kEasingLinear);
    if (weight > 0.0f) {  // a Weight 0 pose leaves its joint alone at this keyframe
      auto [it, added] = index.try_emplace({parent_name, name}, tracks.size());
      if (added) tracks.push_back(RawTrack{name, parent_name, {}});
      tracks[it->second].keys.push_back(RawKey{time, t, easing});
    }
    read_poses(item, name, time, index, tracks);
  }
}

pugi::xml_node find_sequence(const pugi::xml_node& node) {
  for (pugi::xml_node item : node.children("Item")) {
    if (std::string_view(item.attribute("class").value()) == "KeyframeSequence") return item;
    if (pugi::xml_node inner = find_sequence(item)) return inner;
  }
  return {};
}

}  // namespace

Result<KeyframeSequenceClip> parse_keyframe_sequence(std::string_view text, std::string_view file_label) {
  try {
    pugi::xml_document doc;
    detail::load_xml(doc, text);
    const pugi::xml_node roblox = doc.child("roblox");
    if (!roblox) throw LoadError{"", "not a Roblox XML file (no <roblox> element)"};
    const pugi::xml_node seq = find_sequence(roblox);
    if (!seq) throw LoadError{"", "no KeyframeSequence item found"};
    const std::string seq_label = detail::item_label(seq);
    KeyframeSequenceClip out;
    out.clip.name = detail::property(seq, "Name").child_value();
    if (pugi::xml_node loop = detail::property(seq, "Loop")) {
      const std::string_view v = loop.child_value();
      if (v != "true" && v != "false") throw LoadError{seq_label + " Loop", "must be true or false"};
      out.loop = v == "true";
    }
    if (detail::property(seq, "Priority")) {
      const int token = read_token(seq, "Priority", seq_label, 2);
      bool known = false;
      for (const PriorityName& p : kPriorities)
        if (static_cast<int>(p.value) == token) known = true;
      if (!known) throw LoadError{seq_label + " Priority", "unknown AnimationPriority token " + std::to_string(token)};
      out.priority = static_cast<AnimationPriority>(token);
    }

    // Keyframes in time order (the file may list them in any order).
    std::vector<std::pair<float, pugi::xml_node>> keyframes;
    for (pugi::xml_node item : seq.children("Item")) {
      if (std::string_view(item.attribute("class").value()) != "Keyframe") continue;
      const std::string label = detail::item_label(item);
      const pugi::xml_node tn = detail::property(item, "Time");
      if (!tn) throw LoadError{label, "missing property Time"};
      const float time = detail::parse_number(tn, label + " Time");
      if (!std::isfinite(time) || time < 0.0f) throw LoadError{label + " Time", "must be a finite number >= 0"};
      keyframes.emplace_back(time, item);
    }
    if (keyframes.empty()) throw LoadError{seq_label, "has no Keyframe"};
    std::stable_sort(keyframes.begin(), keyframes.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });

    std::map<std::pair<std::string, std::string>, size_t> index;
    std::vector<RawTrack> tracks;
    for (const auto& [time, kf] : keyframes) {
      for (pugi::xml_node top : kf.children("Item")) {  // top-level Poses: the root part
        if (std::string_view(top.attribute("class").value()) != "Pose") continue;
        const std::string label = detail::item_label(top);
        const std::string name = detail::property(top, "Name").child_value();
        if (name.empty()) throw LoadError{label, "Pose has no Name"};
        detail::read_cframe(top, "CFrame", label);  // checked, not used
        if (out.root_part.empty()) out.root_part = name;
        read_poses(top, name, time, index, tracks);
      }
    }
    out.clip.duration = keyframes.back().first;

    // A name under two different parents is qualified as "Parent/Child" (rule R6).
    std::map<std::string, int> name_count;
    for (const RawTrack& t : tracks) ++name_count[t.name];
    for (RawTrack& raw : tracks) {
      ClipTrack track;
      track.name = name_count[raw.name] > 1 ? raw.parent_name + "/" + raw.name : raw.name;
      bool all_constant = true;
      for (const RawKey& k : raw.keys) {
        track.rotation_times.push_back(k.time);
        track.rotations.push_back(k.t.rotation);
        track.translation_times.push_back(k.time);
        track.translations.push_back(k.t.position);
        all_constant = all_constant && k.easing == kEasingConstant;
      }
      if (all_constant) {
        track.rotation_interpolation = Interpolation::kStep;
        track.translation_interpolation = Interpolation::kStep;
      }
      out.clip.tracks.push_back(std::move(track));
    }
    return out;
  } catch (const LoadError& e) {
    return detail::to_error(file_label, e);
  }
}

Result<KeyframeSequenceClip> read_keyframe_sequence_file(const std::filesystem::path& path) {
  try {
    const std::string text = detail::read_text_file(path);
    return parse_keyframe_sequence(text, path.string());
  } catch (const LoadError& e) {
    return detail::to_error(path.string(), e);
  }
}

}  // namespace asterune::io
