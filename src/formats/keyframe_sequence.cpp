// Roblox KeyframeSequence out and in (keyframe_sequence.hpp).
#include "asterune/formats/keyframe_sequence.hpp"

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

constexpr const char* kDefaultKeyframeName = "Keyframe";

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
  pugi::xml_node pose(pugi::xml_node parent, const std::string& name, const Transform& t, float weight,
                      KeyEasing easing) {
    pugi::xml_node p = item(parent, "Pose");
    cframe(p, t);
    prop(p, "token", "EasingDirection", std::to_string(static_cast<int>(easing.direction)));
    prop(p, "token", "EasingStyle", std::to_string(static_cast<int>(easing.style)));
    prop(p, "string", "Name", name);
    prop(p, "float", "Weight", number(weight));
    return p;
  }
  pugi::xml_node keyframe(pugi::xml_node seq, float time, const std::vector<ClipMarker>& markers) {
    pugi::xml_node kf = item(seq, "Keyframe");
    std::string name = kDefaultKeyframeName;
    for (const ClipMarker& m : markers)
      if (m.kind == ClipMarkerKind::kKeyframe && m.time == time) name = m.name;
    prop(kf, "string", "Name", name);
    prop(kf, "float", "Time", number(time));
    for (const ClipMarker& m : markers) {
      if (m.kind != ClipMarkerKind::kMarker || m.time != time) continue;
      pugi::xml_node km = item(kf, "KeyframeMarker");
      prop(km, "string", "Name", m.name);
      prop(km, "string", "Value", m.value);
    }
    return kf;
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

pugi::xml_node begin_document(pugi::xml_document& doc, Writer& w, const std::string& name, bool loop,
                              AnimationPriority priority) {
  pugi::xml_node roblox = doc.append_child("roblox");
  roblox.append_attribute("xmlns:xmime") = "http://www.w3.org/2005/05/xmlmime";
  roblox.append_attribute("xmlns:xsi") = "http://www.w3.org/2001/XMLSchema-instance";
  roblox.append_attribute("xsi:noNamespaceSchemaLocation") = "http://www.roblox.com/roblox.xsd";
  roblox.append_attribute("version") = "4";
  roblox.append_child("External").text() = "null";
  roblox.append_child("External").text() = "nil";
  pugi::xml_node seq = w.item(roblox, "KeyframeSequence");
  Writer::prop(seq, "bool", "Loop", loop ? "true" : "false");
  Writer::prop(seq, "string", "Name", name);
  Writer::prop(seq, "token", "Priority", std::to_string(static_cast<int>(priority)));
  return seq;
}

std::string save(const pugi::xml_document& doc) {
  std::ostringstream out;
  doc.save(out, "\t", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

// The marker times no element of `times` (sorted) holds, sorted and unique.
std::vector<float> extra_marker_times(const std::vector<ClipMarker>& markers, const std::vector<float>& times) {
  std::vector<float> extra;
  for (const ClipMarker& m : markers)
    if (!std::binary_search(times.begin(), times.end(), m.time)) extra.push_back(m.time);
  std::sort(extra.begin(), extra.end());
  extra.erase(std::unique(extra.begin(), extra.end()), extra.end());
  return extra;
}

}  // namespace

TrackPriority to_track_priority(AnimationPriority priority) {
  // Roblox's stored enum values differ from the composition rank (rule AN3): map by meaning.
  switch (priority) {
    case AnimationPriority::kCore: return TrackPriority::kCore;
    case AnimationPriority::kIdle: return TrackPriority::kIdle;
    case AnimationPriority::kMovement: return TrackPriority::kMovement;
    case AnimationPriority::kAction: return TrackPriority::kAction;
    case AnimationPriority::kAction2: return TrackPriority::kAction2;
    case AnimationPriority::kAction3: return TrackPriority::kAction3;
    case AnimationPriority::kAction4: return TrackPriority::kAction4;
  }
  return TrackPriority::kAction;
}

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

Result<std::string> write_keyframe_sequence(const Rig& rig, std::span<const FrameRecord> frames,
                                            const KeyframeSequenceOptions& options) {
  const int n = rig.joint_count();
  for (const FrameRecord& rec : frames) {
    const std::string label = "KeyframeSequence export: frame " + std::to_string(rec.frame);
    if (rec.local.size() != static_cast<size_t>(n))
      return make_error(label + " has " + std::to_string(rec.local.size()) + " local transforms for " +
                        std::to_string(n) + " joints");
    if (!std::isfinite(rec.time) || rec.time < 0.0f)
      return make_error(label + ": time " + number(rec.time) + " is not a finite number >= 0");
  }
  for (const ClipMarker& m : options.markers)
    if (!std::isfinite(m.time) || m.time < 0.0f)
      return make_error("KeyframeSequence export: marker '" + m.name + "' time is not a finite number >= 0");
  // The Pose tree: children of the root part (-1) and of each joint's child part, in layout
  // order. Joints not reached from the root part have no place in it.
  std::vector<std::vector<int>> children(static_cast<size_t>(n) + 1);
  for (int j = 0; j < n; ++j) {
    if (!rig.connected(j)) continue;
    children[static_cast<size_t>(rig.parent(j) + 1)].push_back(j);
  }

  pugi::xml_document doc;
  Writer w;
  const pugi::xml_node seq = begin_document(doc, w, options.name, options.loop, options.priority);
  const std::string root_name = rig.root_part() >= 0 ? rig.part(rig.root_part()).name : std::string("Root");
  const KeyEasing linear{};
  // Reduced keys (options.joint_keys): which joints each frame keys, and which Poses it needs
  // (a keyed joint and its ancestors; children come after parents in the layout).
  const bool sparse = options.joint_keys.size() == static_cast<size_t>(n);
  std::vector<unsigned char> keyed(static_cast<size_t>(n), 1), needed(static_cast<size_t>(n), 1);
  std::vector<float> frame_times;  // times that got a Keyframe (markers elsewhere get their own)
  // A keyed joint's key index in options.joint_keys, or -1.
  auto key_index = [&](int j, size_t f) -> long {
    if (!sparse) return -1;
    const auto& keys = options.joint_keys[static_cast<size_t>(j)];
    const auto it = std::lower_bound(keys.begin(), keys.end(), static_cast<int>(f));
    return it != keys.end() && *it == static_cast<int>(f) ? static_cast<long>(it - keys.begin()) : -1;
  };
  // A keyed joint's CFrame: the reduction's fitted value when there is one, else the frame's T.
  auto pose_cframe = [&](int j, size_t f) -> Transform {
    const auto uj = static_cast<size_t>(j);
    const long m = key_index(j, f);
    if (m >= 0 && options.joint_key_values.size() == static_cast<size_t>(n) &&
        options.joint_key_values[uj].size() == options.joint_keys[uj].size())
      return options.joint_key_values[uj][static_cast<size_t>(m)];
    return frames[f].local[uj];
  };
  // A keyed joint's easing: the reduction's choice when there is one, else Linear.
  auto pose_easing = [&](int j, size_t f) -> KeyEasing {
    const auto uj = static_cast<size_t>(j);
    const long m = key_index(j, f);
    if (m >= 0 && options.joint_key_easing.size() == static_cast<size_t>(n) &&
        options.joint_key_easing[uj].size() == options.joint_keys[uj].size())
      return options.joint_key_easing[uj][static_cast<size_t>(m)];
    return linear;
  };
  for (size_t f = 0; f < frames.size(); ++f) {
    const FrameRecord& rec = frames[f];
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
    frame_times.push_back(rec.time);
    pugi::xml_node kf = w.keyframe(seq, rec.time, options.markers);
    // Depth-first over the part hierarchy; an explicit stack keeps deep rigs off the call stack.
    std::vector<std::pair<int, pugi::xml_node>> todo;  // (joint, parent pose)
    pugi::xml_node root_pose = w.pose(kf, root_name, Transform::identity(), 1.0f, linear);
    for (auto it = children[0].rbegin(); it != children[0].rend(); ++it)
      if (needed[static_cast<size_t>(*it)]) todo.emplace_back(*it, root_pose);
    while (!todo.empty()) {
      const auto [j, parent] = todo.back();
      todo.pop_back();
      // An unkeyed parent of a keyed Pose holds its children with Weight 0 (no key, rule F7).
      const float weight = keyed[static_cast<size_t>(j)] ? 1.0f : 0.0f;
      pugi::xml_node p = w.pose(parent, rig.child_name(j), pose_cframe(j, f), weight,
                                weight > 0.0f ? pose_easing(j, f) : linear);
      const auto& kids = children[static_cast<size_t>(j) + 1];
      for (auto it = kids.rbegin(); it != kids.rend(); ++it)
        if (needed[static_cast<size_t>(*it)]) todo.emplace_back(*it, p);
    }
  }
  std::sort(frame_times.begin(), frame_times.end());
  for (float t : extra_marker_times(options.markers, frame_times)) w.keyframe(seq, t, options.markers);
  return save(doc);
}

Status write_keyframe_sequence_file(const std::filesystem::path& path, const Rig& rig,
                                    std::span<const FrameRecord> frames, const KeyframeSequenceOptions& options) {
  Result<std::string> text = write_keyframe_sequence(rig, frames, options);
  if (!text) return make_error(path.string() + ": " + text.message());
  return detail::write_text_file(path, text.value());
}

namespace {

struct RawKey {
  float time;
  Transform t;
  float weight;
  KeyEasing easing;
};

struct RawTrack {
  std::string name;         // plain pose name
  std::string parent_name;  // the enclosing Pose's name
  std::vector<RawKey> keys;
};

bool is_class(const pugi::xml_node& item, std::string_view cls) {
  return std::string_view(item.attribute("class").value()) == cls;
}

KeyEasing read_easing(const pugi::xml_node& item, const std::string& label) {
  const int style = detail::read_token(item, "EasingStyle", label, 0);
  if (!is_easing_style(style))
    throw LoadError{label + " EasingStyle", "unknown PoseEasingStyle token " + std::to_string(style)};
  const int direction = detail::read_token(item, "EasingDirection", label, 0);
  if (!is_easing_direction(direction))
    throw LoadError{label + " EasingDirection", "unknown PoseEasingDirection token " + std::to_string(direction)};
  return KeyEasing{static_cast<EasingStyle>(style), static_cast<EasingDirection>(direction)};
}

// The Pose tree and the keys of every Pose below a top-level one, for one Keyframe. Visits the
// Poses in document order (pre-order, as a recursion would) with an explicit stack: the input
// decides the nesting depth, so recursion could overflow the stack (rule RG5).
struct PoseReader {
  std::map<std::pair<std::string, std::string>, size_t> track_index;  // (parent name, name)
  std::vector<RawTrack> tracks;
  std::map<std::pair<int, std::string>, int> pose_index;  // (parent pose, name)
  std::vector<KeyframeSequencePose> poses;

  int pose_node(int parent, const std::string& name) {
    auto [it, added] = pose_index.try_emplace({parent, name}, static_cast<int>(poses.size()));
    if (added) poses.push_back(KeyframeSequencePose{name, parent, -1});
    return it->second;
  }

  void read(const pugi::xml_node& top, int top_pose, const std::string& top_name, float time) {
    struct Level {
      pugi::xml_node next;  // the next <Item> sibling to visit at this level
      int parent_pose;
      std::string parent_name;
    };
    std::vector<Level> stack;
    if (pugi::xml_node first = top.child("Item")) stack.push_back(Level{first, top_pose, top_name});
    while (!stack.empty()) {
      Level& level = stack.back();
      const pugi::xml_node item = level.next;
      const int parent_pose = level.parent_pose;
      std::string parent_name = level.parent_name;
      if (pugi::xml_node next = item.next_sibling("Item")) level.next = next;
      else stack.pop_back();  // `level` is gone from here on
      if (!is_class(item, "Pose")) continue;  // e.g. the FaceControls Folder: not a joint
      const std::string label = detail::item_label(item);
      const std::string name = detail::property(item, "Name").child_value();
      if (name.empty()) throw LoadError{label, "Pose has no Name"};
      float weight = 1.0f;
      if (pugi::xml_node wn = detail::property(item, "Weight")) weight = detail::parse_number(wn, label + " Weight");
      if (!std::isfinite(weight) || weight < 0.0f) throw LoadError{label + " Weight", "must be a finite number >= 0"};
      const Transform t = detail::read_cframe(item, "CFrame", label);
      const KeyEasing easing = read_easing(item, label);
      const int pose = pose_node(parent_pose, name);
      if (weight > 0.0f) {  // a Weight 0 pose leaves its joint alone at this keyframe
        auto [it, added] = track_index.try_emplace({parent_name, name}, tracks.size());
        if (added) tracks.push_back(RawTrack{name, std::move(parent_name), {}});
        tracks[it->second].keys.push_back(RawKey{time, t, weight, easing});
        if (poses[static_cast<size_t>(pose)].track < 0) poses[static_cast<size_t>(pose)].track = static_cast<int>(it->second);
      }
      if (pugi::xml_node child = item.child("Item")) stack.push_back(Level{child, pose, name});
    }
  }
};

// The first KeyframeSequence <Item> below `node` in document order, without recursion.
pugi::xml_node find_sequence(const pugi::xml_node& node) {
  std::vector<pugi::xml_node> stack;
  if (pugi::xml_node first = node.child("Item")) stack.push_back(first);
  while (!stack.empty()) {
    const pugi::xml_node item = stack.back();
    if (pugi::xml_node next = item.next_sibling("Item")) stack.back() = next;
    else stack.pop_back();
    if (is_class(item, "KeyframeSequence")) return item;
    if (pugi::xml_node child = item.child("Item")) stack.push_back(child);
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
      const int token = detail::read_token(seq, "Priority", seq_label, 2);
      bool known = false;
      for (const PriorityName& p : kPriorities)
        if (static_cast<int>(p.value) == token) known = true;
      if (!known) throw LoadError{seq_label + " Priority", "unknown AnimationPriority token " + std::to_string(token)};
      out.priority = static_cast<AnimationPriority>(token);
    }

    // Keyframes in time order (the file may list them in any order).
    std::vector<std::pair<float, pugi::xml_node>> keyframes;
    for (pugi::xml_node item : seq.children("Item")) {
      if (!is_class(item, "Keyframe")) continue;
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

    PoseReader reader;
    for (const auto& [time, kf] : keyframes) {
      // Markers: a named Keyframe, then its KeyframeMarkers, in file order.
      const std::string kf_name = detail::property(kf, "Name").child_value();
      if (!kf_name.empty() && kf_name != kDefaultKeyframeName)
        out.clip.markers.push_back(ClipMarker{time, kf_name, "", ClipMarkerKind::kKeyframe});
      for (pugi::xml_node item : kf.children("Item")) {
        if (!is_class(item, "KeyframeMarker")) continue;
        out.clip.markers.push_back(ClipMarker{time, detail::property(item, "Name").child_value(),
                                              detail::property(item, "Value").child_value(), ClipMarkerKind::kMarker});
      }
      for (pugi::xml_node top : kf.children("Item")) {  // top-level Poses: the root part
        if (!is_class(top, "Pose")) continue;
        const std::string label = detail::item_label(top);
        const std::string name = detail::property(top, "Name").child_value();
        if (name.empty()) throw LoadError{label, "Pose has no Name"};
        detail::read_cframe(top, "CFrame", label);  // checked, not used
        if (out.root_part.empty()) out.root_part = name;
        reader.read(top, reader.pose_node(-1, name), name, time);
      }
    }
    out.clip.duration = keyframes.back().first;

    // A name under two different parents is qualified as "Parent/Child" (rule R6).
    std::map<std::string, int> name_count;
    for (const RawTrack& t : reader.tracks) ++name_count[t.name];
    for (RawTrack& raw : reader.tracks) {
      ClipTrack track;
      KeyframeSequenceKeys keys;
      track.name = name_count[raw.name] > 1 ? raw.parent_name + "/" + raw.name : raw.name;
      bool all_constant = true, all_linear = true;
      for (const RawKey& k : raw.keys) {
        track.rotation_times.push_back(k.time);
        track.rotations.push_back(k.t.rotation);
        track.translation_times.push_back(k.time);
        track.translations.push_back(k.t.position);
        keys.weights.push_back(k.weight);
        keys.easing.push_back(k.easing);
        all_constant = all_constant && k.easing.style == EasingStyle::kConstant;
        all_linear = all_linear && k.easing.style == EasingStyle::kLinear;
      }
      if (all_constant) {
        track.rotation_interpolation = Interpolation::kStep;
        track.translation_interpolation = Interpolation::kStep;
      } else if (!all_linear) {  // rule P5: the easing of the key that starts each segment
        track.rotation_easing = keys.easing;
        track.translation_easing = keys.easing;
      }
      out.clip.tracks.push_back(std::move(track));
      out.keys.push_back(std::move(keys));
    }
    out.poses = std::move(reader.poses);
    return out;
  } catch (const LoadError& e) {
    return detail::to_error(file_label, e);
  }
}

Result<KeyframeSequenceClip> read_keyframe_sequence_file(const std::filesystem::path& path) {
  return detail::parse_text_file(path, parse_keyframe_sequence);
}

Result<std::string> write_keyframe_sequence(const KeyframeSequenceClip& sequence) {
  const Clip& clip = sequence.clip;
  const std::string where = "KeyframeSequence export '" + clip.name + "'";
  if (sequence.keys.size() != clip.tracks.size())
    return make_error(where + ": " + std::to_string(sequence.keys.size()) + " key records for " +
                      std::to_string(clip.tracks.size()) + " tracks");
  std::vector<float> times;
  for (size_t i = 0; i < clip.tracks.size(); ++i) {
    const ClipTrack& t = clip.tracks[i];
    const KeyframeSequenceKeys& k = sequence.keys[i];
    const size_t n = t.rotation_times.size();
    if (t.rotations.size() != n || t.translation_times != t.rotation_times || t.translations.size() != n ||
        k.weights.size() != n || k.easing.size() != n)
      return make_error(where + ": track '" + t.name + "' has rotation, translation, weight and easing key counts "
                        "or times that differ");
    times.insert(times.end(), t.rotation_times.begin(), t.rotation_times.end());
  }
  for (size_t p = 0; p < sequence.poses.size(); ++p) {
    const KeyframeSequencePose& pose = sequence.poses[p];
    if (pose.parent >= static_cast<int>(p) || pose.parent < -1 ||
        pose.track >= static_cast<int>(clip.tracks.size()) || pose.track < -1)
      return make_error(where + ": Pose #" + std::to_string(p) + " '" + pose.name + "' has a bad parent or track index");
  }
  for (float t : times)
    if (!std::isfinite(t) || t < 0.0f) return make_error(where + ": a key time is not a finite number >= 0");
  times.push_back(std::isfinite(clip.duration) && clip.duration > 0.0f ? clip.duration : 0.0f);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  for (float t : extra_marker_times(clip.markers, times)) times.push_back(t);
  std::sort(times.begin(), times.end());

  std::vector<std::vector<int>> children(sequence.poses.size() + 1);  // [0]: top-level Poses
  for (size_t p = 0; p < sequence.poses.size(); ++p)
    children[static_cast<size_t>(sequence.poses[p].parent + 1)].push_back(static_cast<int>(p));

  pugi::xml_document doc;
  Writer w;
  const pugi::xml_node seq = begin_document(doc, w, clip.name, sequence.loop, sequence.priority);
  std::vector<std::pair<int, pugi::xml_node>> todo;  // (pose, parent element)
  for (float time : times) {
    pugi::xml_node kf = w.keyframe(seq, time, clip.markers);
    for (auto it = children[0].rbegin(); it != children[0].rend(); ++it) todo.emplace_back(*it, kf);
    while (!todo.empty()) {  // depth-first with an explicit stack: the tree may be deep
      const auto [p, parent] = todo.back();
      todo.pop_back();
      const KeyframeSequencePose& pose = sequence.poses[static_cast<size_t>(p)];
      Transform value = Transform::identity();
      float weight = pose.parent < 0 ? 1.0f : 0.0f;  // untracked or unkeyed here: Weight 0
      KeyEasing easing{};
      if (pose.track >= 0) {
        const ClipTrack& track = clip.tracks[static_cast<size_t>(pose.track)];
        const auto key = std::lower_bound(track.rotation_times.begin(), track.rotation_times.end(), time);
        if (key != track.rotation_times.end() && *key == time) {
          const auto k = static_cast<size_t>(key - track.rotation_times.begin());
          value = Transform{track.rotations[k], track.translations[k]};
          weight = sequence.keys[static_cast<size_t>(pose.track)].weights[k];
          easing = sequence.keys[static_cast<size_t>(pose.track)].easing[k];
        }
      }
      pugi::xml_node element = w.pose(parent, pose.name, value, weight, easing);
      const auto& kids = children[static_cast<size_t>(p) + 1];
      for (auto it = kids.rbegin(); it != kids.rend(); ++it) todo.emplace_back(*it, element);
    }
  }
  return save(doc);
}

}  // namespace asterune::io
