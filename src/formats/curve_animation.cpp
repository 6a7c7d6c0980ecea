// Roblox CurveAnimation out and in (curve_animation.hpp, rule F8).
#include "asterune/formats/curve_animation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <sstream>

#include <pugixml.hpp>

#include "base64.hpp"
#include "json_read.hpp"
#include "roblox_xml.hpp"

namespace asterune::io {

namespace {

using detail::LoadError;

constexpr std::uint32_t kValuesVersion = 2;  // the first word public writers use
constexpr std::uint32_t kTimesVersion = 1;   // the word before the times
constexpr size_t kKeyBytes = 14;             // u8 interpolation, u8 flags, 3 x f32
constexpr float kBakeRate = 240.0f;          // curve_animation_clip: samples a second, at least,
constexpr int kMaxBakePieces = 960;          // up to 4 s segments (longer ones more sparsely: bounded work)
// Rule F26: the whole bake is bounded by the file's size, not per segment: at most this many
// samples per key of the file (plus a floor for tiny files); beyond it every segment is sampled
// proportionally more sparsely (the baked keys carry exact tangents, so the cubic between
// samples still follows the curve closely).
constexpr double kBakeSamplesPerKey = 64.0;
constexpr double kBakeSamplesFloor = 8192.0;
// Largest value or tangent a key may hold: a joint offset in studs or an angle in radians far
// beyond any rig, so the Hermite and the baked clip stay finite (docs/formats.md "Limits").
constexpr float kMaxCurveNumber = 1e6f;

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
}
void put_f32(std::string& out, float f) {
  std::uint32_t v = 0;
  std::memcpy(&v, &f, 4);
  put_u32(out, v);
}
std::uint32_t get_u32(std::string_view b, size_t at) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + static_cast<size_t>(i)])) << (8 * i);
  return v;
}
float get_f32(std::string_view b, size_t at) {
  const std::uint32_t v = get_u32(b, at);
  float f = 0.0f;
  std::memcpy(&f, &v, 4);
  return f;
}

std::string number(float v) {
  if (v == 0.0f) v = 0.0f;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

bool is_class(const pugi::xml_node& item, std::string_view cls) {
  return std::string_view(item.attribute("class").value()) == cls;
}

glm::vec3 axis(int i) { return i == 0 ? glm::vec3(1, 0, 0) : i == 1 ? glm::vec3(0, 1, 0) : glm::vec3(0, 0, 1); }

// The axes of each RotationOrder, first (outermost) to last.
constexpr int kOrderAxes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};

// Segment of `keys` holding `time` (keys.size() >= 2, keys[0].time <= time < keys.back().time).
size_t segment_of(std::span<const FloatCurveKey> keys, float time) {
  const auto it = std::upper_bound(keys.begin(), keys.end(), time,
                                   [](float t, const FloatCurveKey& k) { return t < k.time; });
  return static_cast<size_t>(it - keys.begin()) - 1;
}

}  // namespace

float evaluate_float_curve(std::span<const FloatCurveKey> keys, float time) {
  if (keys.empty()) return 0.0f;
  if (!(time > keys.front().time)) return keys.front().value;
  if (!(time < keys.back().time)) return keys.back().value;
  const size_t i = segment_of(keys, time);
  const FloatCurveKey& a = keys[i];
  const FloatCurveKey& b = keys[i + 1];
  const float d = b.time - a.time;
  const float s = (time - a.time) / d;
  switch (a.interpolation) {
    case KeyInterpolation::kConstant: return a.value;
    case KeyInterpolation::kLinear: return a.value + s * (b.value - a.value);
    case KeyInterpolation::kCubic: break;
  }
  const float s2 = s * s, s3 = s2 * s;
  const float r = a.has_right ? a.right_tangent : 0.0f, l = b.has_left ? b.left_tangent : 0.0f;
  return (2 * s3 - 3 * s2 + 1) * a.value + (s3 - 2 * s2 + s) * d * r + (-2 * s3 + 3 * s2) * b.value +
         (s3 - s2) * d * l;
}

namespace {
// The slope of the segment after `time` (left: the one before, so at a key the slope the
// previous segment ends with).
float slope_at(std::span<const FloatCurveKey> keys, float time, bool left) {
  if (keys.size() < 2) return 0.0f;
  if (left ? !(time > keys.front().time) || !(time <= keys.back().time)
           : !(time >= keys.front().time) || !(time < keys.back().time))
    return 0.0f;
  size_t i = segment_of(keys, time);
  if (left && i > 0 && keys[i].time == time) --i;
  if (i + 1 >= keys.size()) i = keys.size() - 2;
  const FloatCurveKey& a = keys[i];
  const FloatCurveKey& b = keys[i + 1];
  const float d = b.time - a.time;
  const float s = (time - a.time) / d;
  switch (a.interpolation) {
    case KeyInterpolation::kConstant: return 0.0f;
    case KeyInterpolation::kLinear: return (b.value - a.value) / d;
    case KeyInterpolation::kCubic: break;
  }
  const float s2 = s * s;
  const float r = a.has_right ? a.right_tangent : 0.0f, l = b.has_left ? b.left_tangent : 0.0f;
  return ((6 * s2 - 6 * s) * a.value + (-6 * s2 + 6 * s) * b.value) / d + (3 * s2 - 4 * s + 1) * r +
         (3 * s2 - 2 * s) * l;
}
}  // namespace

float float_curve_slope(std::span<const FloatCurveKey> keys, float time) { return slope_at(keys, time, false); }

std::string encode_float_curve(std::span<const FloatCurveKey> keys) {
  std::string out;
  put_u32(out, kValuesVersion);
  put_u32(out, static_cast<std::uint32_t>(keys.size()));
  for (const FloatCurveKey& k : keys) {
    out.push_back(static_cast<char>(k.interpolation));
    out.push_back(static_cast<char>((k.has_left ? 1 : 0) | (k.has_right ? 2 : 0)));
    put_f32(out, k.value);
    put_f32(out, k.has_left ? k.left_tangent : 0.0f);
    put_f32(out, k.has_right ? k.right_tangent : 0.0f);
  }
  put_u32(out, kTimesVersion);
  put_u32(out, static_cast<std::uint32_t>(keys.size()));
  for (const FloatCurveKey& k : keys)
    put_u32(out, static_cast<std::uint32_t>(std::lround(static_cast<double>(std::max(k.time, 0.0f)) * kCurveTicksPerSecond)));
  return out;
}

Result<std::vector<FloatCurveKey>> decode_float_curve(std::string_view b) {
  if (b.size() < 8) return make_error("ValuesAndTimes: " + std::to_string(b.size()) + " bytes, too short for a header");
  const std::uint32_t n = get_u32(b, 4);
  if (n == 0) return std::vector<FloatCurveKey>{};  // an empty curve (whatever follows)
  const size_t need = 8 + static_cast<size_t>(n) * (kKeyBytes + 4) + 8;
  if (n > b.size() || b.size() != need)
    return make_error("ValuesAndTimes: " + std::to_string(b.size()) + " bytes for " + std::to_string(n) +
                      " keys (expected " + std::to_string(need) + ")");
  std::vector<FloatCurveKey> keys(n);
  size_t at = 8;
  for (std::uint32_t i = 0; i < n; ++i, at += kKeyBytes) {
    FloatCurveKey& k = keys[i];
    const auto interp = static_cast<unsigned char>(b[at]);
    if (interp > 2) return make_error("ValuesAndTimes: key " + std::to_string(i) + " has unknown interpolation " + std::to_string(interp));
    k.interpolation = static_cast<KeyInterpolation>(interp);
    const auto flags = static_cast<unsigned char>(b[at + 1]);
    k.has_left = (flags & 1u) != 0;
    k.has_right = (flags & 2u) != 0;
    k.value = get_f32(b, at + 2);
    k.left_tangent = k.has_left ? get_f32(b, at + 6) : 0.0f;
    k.right_tangent = k.has_right ? get_f32(b, at + 10) : 0.0f;
    if (!(std::fabs(k.value) <= kMaxCurveNumber) || !(std::fabs(k.left_tangent) <= kMaxCurveNumber) ||
        !(std::fabs(k.right_tangent) <= kMaxCurveNumber))
      return make_error("ValuesAndTimes: key " + std::to_string(i) + " has a value or tangent that is not finite or beyond 1e6");
  }
  const std::uint32_t m = get_u32(b, at + 4);
  if (m != n) return make_error("ValuesAndTimes: " + std::to_string(m) + " times for " + std::to_string(n) + " values");
  at += 8;
  for (std::uint32_t i = 0; i < n; ++i, at += 4) {
    keys[i].time = static_cast<float>(static_cast<double>(get_u32(b, at)) / kCurveTicksPerSecond);
    if (i > 0 && !(keys[i].time > keys[i - 1].time))
      return make_error("ValuesAndTimes: key times do not increase at key " + std::to_string(i));
  }
  return keys;
}

Transform CurveAnimationJoint::evaluate(float time) const {
  Transform t = Transform::identity();
  if (has_position)
    for (int c = 0; c < 3; ++c) t.position[c] = evaluate_float_curve(position[static_cast<size_t>(c)], time);
  if (has_rotation) {
    glm::vec3 a(0.0f);
    for (int c = 0; c < 3; ++c) a[c] = evaluate_float_curve(rotation[static_cast<size_t>(c)], time);
    t.rotation = euler_rotation(a, order);
  }
  return t;
}

namespace {

// The first item of class `only` (empty: CurveAnimation or KeyframeSequence) below `node` in
// document order, without recursion (rule RG5).
pugi::xml_node find_animation(const pugi::xml_node& node, std::string_view only = {}) {
  std::vector<pugi::xml_node> stack;
  if (pugi::xml_node first = node.child("Item")) stack.push_back(first);
  while (!stack.empty()) {
    const pugi::xml_node item = stack.back();
    if (pugi::xml_node next = item.next_sibling("Item")) stack.back() = next;
    else stack.pop_back();
    if (only.empty() ? is_class(item, "CurveAnimation") || is_class(item, "KeyframeSequence") : is_class(item, only))
      return item;
    if (pugi::xml_node child = item.child("Item")) stack.push_back(child);
  }
  return {};
}

// The X, Y, Z FloatCurves of a Vector3Curve / EulerRotationCurve item.
void read_channel(const pugi::xml_node& item, std::array<std::vector<FloatCurveKey>, 3>& out) {
  for (pugi::xml_node fc : item.children("Item")) {
    if (!is_class(fc, "FloatCurve")) continue;
    const std::string label = detail::item_label(fc);
    const std::string_view name = detail::property(fc, "Name").child_value();
    const int c = name == "X" ? 0 : name == "Y" ? 1 : name == "Z" ? 2 : -1;
    if (c < 0) continue;  // not a component curve
    const pugi::xml_node vt = detail::property(fc, "ValuesAndTimes");
    if (!vt) throw LoadError{label, "missing property ValuesAndTimes"};
    const std::optional<std::string> decoded = detail::base64_decode(vt.child_value());
    if (!decoded) throw LoadError{label + " ValuesAndTimes", "not base64"};
    const std::string& bytes = *decoded;
    Result<std::vector<FloatCurveKey>> keys = decode_float_curve(bytes);
    if (!keys) throw LoadError{label, keys.message()};
    out[static_cast<size_t>(c)] = std::move(keys.value());
  }
}

}  // namespace

Result<CurveAnimationFile> parse_curve_animation(std::string_view text, std::string_view file_label) {
  try {
    pugi::xml_document doc;
    detail::load_xml(doc, text);
    const pugi::xml_node roblox = doc.child("roblox");
    if (!roblox) throw LoadError{"", "not a Roblox XML file (no <roblox> element)"};
    const pugi::xml_node anim = find_animation(roblox, "CurveAnimation");
    if (!anim) throw LoadError{"", "no CurveAnimation item found"};
    const std::string label = detail::item_label(anim);
    CurveAnimationFile out;
    out.name = detail::property(anim, "Name").child_value();
    if (pugi::xml_node loop = detail::property(anim, "Loop")) {
      const std::string_view v = loop.child_value();
      if (v != "true" && v != "false") throw LoadError{label + " Loop", "must be true or false"};
      out.loop = v == "true";
    }
    if (detail::property(anim, "Priority")) {
      const int token = detail::read_token(anim, "Priority", label, 2);
      if (token != 1000 && (token < 0 || token > 5))
        throw LoadError{label + " Priority", "unknown AnimationPriority token " + std::to_string(token)};
      out.priority = static_cast<AnimationPriority>(token);
    }
    pugi::xml_node root;
    for (pugi::xml_node item : anim.children("Item"))
      if (is_class(item, "Folder")) {
        root = item;
        break;
      }
    if (!root) throw LoadError{label, "has no Folder (the root part's)"};
    out.root_part = detail::property(root, "Name").child_value();
    if (out.root_part.empty()) throw LoadError{detail::item_label(root), "Folder has no Name"};
    // Joint Folders depth-first in document order with an explicit stack (rule RG5).
    struct Level {
      pugi::xml_node next;
      int parent;
    };
    std::vector<Level> stack;
    if (pugi::xml_node first = root.child("Item")) stack.push_back(Level{first, -1});
    while (!stack.empty()) {
      Level& level = stack.back();
      const pugi::xml_node item = level.next;
      const int parent = level.parent;
      if (pugi::xml_node next = item.next_sibling("Item")) level.next = next;
      else stack.pop_back();
      if (!is_class(item, "Folder")) continue;
      const std::string folder = detail::item_label(item);
      CurveAnimationJoint joint;
      joint.name = detail::property(item, "Name").child_value();
      if (joint.name.empty()) throw LoadError{folder, "Folder has no Name"};
      joint.parent = parent;
      for (pugi::xml_node c : item.children("Item")) {
        const std::string_view name = detail::property(c, "Name").child_value();
        if (is_class(c, "Vector3Curve") && name == "Position") {
          joint.has_position = true;
          read_channel(c, joint.position);
        } else if (is_class(c, "EulerRotationCurve") && name == "Rotation") {
          joint.has_rotation = true;
          const int order = detail::read_token(c, "RotationOrder", detail::item_label(c), 0);
          if (order < 0 || order > 5)
            throw LoadError{detail::item_label(c) + " RotationOrder", "unknown RotationOrder token " + std::to_string(order)};
          joint.order = static_cast<RotationOrder>(order);
          read_channel(c, joint.rotation);
        }
      }
      for (const auto* channel : {&joint.position, &joint.rotation})
        for (const auto& keys : *channel)
          if (!keys.empty()) out.duration = std::max(out.duration, keys.back().time);
      const int index = static_cast<int>(out.joints.size());
      out.joints.push_back(std::move(joint));
      if (pugi::xml_node child = item.child("Item")) stack.push_back(Level{child, index});
    }
    return out;
  } catch (const LoadError& e) {
    return detail::to_error(file_label, e);
  }
}

Result<CurveAnimationFile> read_curve_animation_file(const std::filesystem::path& path) {
  return detail::parse_text_file(path, parse_curve_animation);
}

namespace {

// A joint's key times (every channel's), sorted and unique.
std::vector<float> joint_knots(const CurveAnimationJoint& j) {
  std::vector<float> knots;
  if (!j.has_position && !j.has_rotation) return knots;
  for (const auto* channel : {&j.position, &j.rotation})
    for (const auto& keys : *channel)
      for (const FloatCurveKey& k : keys) knots.push_back(k.time);
  std::sort(knots.begin(), knots.end());
  knots.erase(std::unique(knots.begin(), knots.end()), knots.end());
  return knots;
}

// The pieces a segment of `seconds` is baked in before the file's budget: kBakeRate a second,
// at most kMaxBakePieces.
double wanted_pieces(float seconds) {
  const float span = seconds * kBakeRate;
  return span < static_cast<float>(kMaxBakePieces) ? std::max(1.0, std::ceil(static_cast<double>(span)))
                                                   : static_cast<double>(kMaxBakePieces);
}

}  // namespace

Clip curve_animation_clip(const CurveAnimationFile& file) {
  Clip clip;
  clip.name = file.name;
  clip.duration = file.duration;
  std::map<std::string, int> name_count;
  for (const CurveAnimationJoint& j : file.joints) ++name_count[j.name];
  // Rule F26: the samples wanted over the whole file against its budget (linear in its keys).
  double wanted = 0.0, keys = 0.0;
  for (const CurveAnimationJoint& j : file.joints) {
    for (const auto* channel : {&j.position, &j.rotation})
      for (const auto& c : *channel) keys += static_cast<double>(c.size());
    const std::vector<float> knots = joint_knots(j);
    for (size_t i = 0; i + 1 < knots.size(); ++i) wanted += wanted_pieces(knots[i + 1] - knots[i]);
  }
  const double budget = kBakeSamplesPerKey * keys + kBakeSamplesFloor;
  const double thin = wanted > budget ? budget / wanted : 1.0;
  for (const CurveAnimationJoint& j : file.joints) {
    const std::vector<float> knots = joint_knots(j);
    if (knots.empty()) continue;
    // Sample times: every key time and evenly between, kBakeRate a second within the budget.
    std::vector<float> times;
    for (size_t i = 0; i + 1 < knots.size(); ++i) {
      const int pieces = std::max(1, static_cast<int>(std::floor(wanted_pieces(knots[i + 1] - knots[i]) * thin)));
      for (int p = 0; p < pieces; ++p)
        times.push_back(knots[i] + (knots[i + 1] - knots[i]) * static_cast<float>(p) / static_cast<float>(pieces));
    }
    times.push_back(knots.back());
    ClipTrack track;
    const std::string parent = j.parent >= 0 ? file.joints[static_cast<size_t>(j.parent)].name : file.root_part;
    track.name = name_count[j.name] > 1 ? parent + "/" + j.name : j.name;
    track.rotation_interpolation = track.translation_interpolation = Interpolation::kCubicSpline;
    glm::quat previous(1.0f, 0.0f, 0.0f, 0.0f);
    const int* ax = kOrderAxes[static_cast<int>(j.order) % 6];
    for (size_t i = 0; i < times.size(); ++i) {
      const float t = times[i];
      // Values, and slopes on both sides (they differ at a key: Left and RightTangent).
      glm::vec3 p(0.0f), a(0.0f), dp[2] = {glm::vec3(0.0f), glm::vec3(0.0f)}, da[2] = {glm::vec3(0.0f), glm::vec3(0.0f)};
      for (int c = 0; c < 3; ++c) {
        const auto uc = static_cast<size_t>(c);
        if (j.has_position) p[c] = evaluate_float_curve(j.position[uc], t);
        if (j.has_rotation) a[c] = evaluate_float_curve(j.rotation[uc], t);
        for (int side = 0; side < 2; ++side) {
          if (j.has_position) dp[side][c] = slope_at(j.position[uc], t, side == 0);
          if (j.has_rotation) da[side][c] = slope_at(j.rotation[uc], t, side == 0);
        }
      }
      // q = q1 q2 q3 (the order's axes); dq/dt = sum over k of q1..(qk * (0, da_k axis_k / 2))..q3.
      glm::quat f[3];
      for (int k = 0; k < 3; ++k) f[k] = glm::angleAxis(a[ax[k]], axis(ax[k]));
      glm::quat q = f[0] * f[1] * f[2];
      glm::quat dq[2];
      for (int side = 0; side < 2; ++side) {
        dq[side] = glm::quat(0.0f, 0.0f, 0.0f, 0.0f);
        for (int k = 0; k < 3; ++k) {
          glm::quat g[3] = {f[0], f[1], f[2]};
          const glm::vec3 w = 0.5f * da[side][ax[k]] * axis(ax[k]);
          g[k] = g[k] * glm::quat(0.0f, w.x, w.y, w.z);
          const glm::quat term = g[0] * g[1] * g[2];
          dq[side] = glm::quat(dq[side].w + term.w, dq[side].x + term.x, dq[side].y + term.y, dq[side].z + term.z);
        }
      }
      if (i > 0 && glm::dot(q, previous) < 0.0f) {  // one hemisphere along time
        q = -q;
        for (glm::quat& d : dq) d = glm::quat(-d.w, -d.x, -d.y, -d.z);
      }
      previous = q;
      track.rotation_times.push_back(t);
      track.rotations.push_back(q);
      track.rotation_in_tangents.push_back(dq[0]);
      track.rotation_out_tangents.push_back(dq[1]);
      track.translation_times.push_back(t);
      track.translations.push_back(p);
      track.translation_in_tangents.push_back(dp[0]);
      track.translation_out_tangents.push_back(dp[1]);
    }
    clip.tracks.push_back(std::move(track));
  }
  return clip;
}

Result<KeyframeSequenceClip> parse_roblox_animation(std::string_view text, std::string_view file_label) {
  bool curves = false;
  {
    pugi::xml_document doc;
    if (doc.load_buffer(text.data(), text.size()))
      if (pugi::xml_node roblox = doc.child("roblox"))
        if (pugi::xml_node anim = find_animation(roblox)) curves = is_class(anim, "CurveAnimation");
  }
  if (!curves) return parse_keyframe_sequence(text, file_label);
  Result<CurveAnimationFile> file = parse_curve_animation(text, file_label);
  if (!file) return file.error();
  KeyframeSequenceClip out;
  out.clip = curve_animation_clip(file.value());
  out.loop = file.value().loop;
  out.priority = file.value().priority;
  out.root_part = file.value().root_part;
  return out;
}

Result<KeyframeSequenceClip> read_roblox_animation_file(const std::filesystem::path& path) {
  return detail::parse_text_file(path, parse_roblox_animation);
}

KeyTracks curve_animation_tracks(const Rig& rig, std::span<const FrameRecord> frames) {
  KeyTracks k = keyframe_sequence_tracks(rig, frames);
  for (size_t f = 0; f < k.times.size(); ++f) {
    const float t = k.times[f];
    if (std::isfinite(t) && t >= 0.0f && t < 1e6f)
      k.times[f] = static_cast<float>(std::round(static_cast<double>(t) * kCurveTicksPerSecond) / kCurveTicksPerSecond);
  }
  return k;
}

namespace {

class Writer {
 public:
  pugi::xml_node item(pugi::xml_node parent, const char* cls, const std::string& name) {
    pugi::xml_node it = parent.append_child("Item");
    it.append_attribute("class") = cls;
    it.append_attribute("referent") = ("RBX" + std::to_string(next_++)).c_str();
    it.append_child("Properties");
    prop(it, "string", "Name", name);
    return it;
  }
  static void prop(pugi::xml_node it, const char* type, const char* name, const std::string& value) {
    pugi::xml_node p = it.child("Properties").append_child(type);
    p.append_attribute("name") = name;
    p.text() = value.c_str();
  }
  void channel(pugi::xml_node folder, const char* cls, const char* name,
               const std::array<std::vector<FloatCurveKey>, 3>& curves, int rotation_order) {
    pugi::xml_node c = item(folder, cls, name);
    if (rotation_order >= 0) prop(c, "token", "RotationOrder", std::to_string(rotation_order));
    static constexpr const char* kAxes[3] = {"X", "Y", "Z"};
    for (size_t a = 0; a < 3; ++a) {
      pugi::xml_node fc = item(c, "FloatCurve", kAxes[a]);
      prop(fc, "BinaryString", "ValuesAndTimes", detail::base64_encode(encode_float_curve(curves[a])));
    }
  }

 private:
  int next_ = 0;
};

}  // namespace

Result<std::string> write_curve_animation(const Rig& rig, const KeyTracks& tracks, const KeyReduction& r,
                                          const CurveAnimationOptions& options) {
  const auto n = static_cast<size_t>(rig.joint_count());
  const size_t frames = tracks.times.size();
  if (tracks.track_count() != n || tracks.local.size() != n * frames)
    return make_error("CurveAnimation export: the tracks do not match the rig's " + std::to_string(n) + " joints");
  for (float t : tracks.times)
    if (!std::isfinite(t) || t < 0.0f) return make_error("CurveAnimation export: time " + number(t) + " is not a finite number >= 0");
  const bool fitted = r.curve == KeyCurve::kEulerCubic && r.keys.size() == n && r.values.size() == n &&
                      r.tangents.size() == n && r.euler.size() == n;
  // Per joint: its six curves (position X, Y, Z; angles X, Y, Z) and its RotationOrder.
  std::vector<std::array<std::vector<FloatCurveKey>, 6>> curves(n);
  std::vector<RotationOrder> orders(n, RotationOrder::kXYZ);
  if (fitted && r.rotation_order.size() == n) orders = r.rotation_order;
  for (size_t j = 0; j < n; ++j) {
    auto& c = curves[j];
    if (fitted && r.keys[j].size() == r.values[j].size() && r.keys[j].size() == r.tangents[j].size() &&
        r.keys[j].size() == r.euler[j].size()) {
      for (size_t m = 0; m < r.keys[j].size(); ++m) {
        const auto f = static_cast<size_t>(r.keys[j][m]);
        const float time = f < frames ? tracks.times[f] : 0.0f;
        const KeyTangents& tan = r.tangents[j][m];
        const glm::vec3 in_e(tan.in_rotation.x, tan.in_rotation.y, tan.in_rotation.z);
        const glm::vec3 out_e(tan.out_rotation.x, tan.out_rotation.y, tan.out_rotation.z);
        for (int a = 0; a < 3; ++a) {
          c[static_cast<size_t>(a)].push_back(FloatCurveKey{time, r.values[j][m].position[a], KeyInterpolation::kCubic,
                                                            tan.in_position[a], tan.out_position[a], true, true});
          c[static_cast<size_t>(3 + a)].push_back(
              FloatCurveKey{time, r.euler[j][m][a], KeyInterpolation::kCubic, in_e[a], out_e[a], true, true});
        }
      }
    } else {  // every frame, Linear
      glm::vec3 near(0.0f);
      for (size_t f = 0; f < frames; ++f) {
        const Transform& t = tracks.local[f * n + j];
        near = euler_angles(t.rotation, RotationOrder::kXYZ, near);
        for (int a = 0; a < 3; ++a) {
          c[static_cast<size_t>(a)].push_back(FloatCurveKey{tracks.times[f], t.position[a], KeyInterpolation::kLinear});
          c[static_cast<size_t>(3 + a)].push_back(FloatCurveKey{tracks.times[f], near[a], KeyInterpolation::kLinear});
        }
      }
    }
  }

  std::vector<std::vector<int>> children(n + 1);
  for (int j = 0; j < static_cast<int>(n); ++j)
    if (rig.connected(j)) children[static_cast<size_t>(rig.parent(j) + 1)].push_back(j);
  pugi::xml_document doc;
  Writer w;
  pugi::xml_node roblox = doc.append_child("roblox");
  roblox.append_attribute("xmlns:xmime") = "http://www.w3.org/2005/05/xmlmime";
  roblox.append_attribute("xmlns:xsi") = "http://www.w3.org/2001/XMLSchema-instance";
  roblox.append_attribute("xsi:noNamespaceSchemaLocation") = "http://www.roblox.com/roblox.xsd";
  roblox.append_attribute("version") = "4";
  roblox.append_child("External").text() = "null";
  roblox.append_child("External").text() = "nil";
  pugi::xml_node anim = w.item(roblox, "CurveAnimation", options.name);
  Writer::prop(anim, "bool", "Loop", options.loop ? "true" : "false");
  Writer::prop(anim, "token", "Priority", std::to_string(static_cast<int>(options.priority)));
  const std::string root_name = rig.root_part() >= 0 ? rig.part(rig.root_part()).name : std::string("Root");
  pugi::xml_node root = w.item(anim, "Folder", root_name);
  std::vector<std::pair<int, pugi::xml_node>> todo;  // (joint, parent folder), explicit stack
  for (auto it = children[0].rbegin(); it != children[0].rend(); ++it) todo.emplace_back(*it, root);
  while (!todo.empty()) {
    const auto [j, parent] = todo.back();
    todo.pop_back();
    const auto uj = static_cast<size_t>(j);
    pugi::xml_node folder = w.item(parent, "Folder", rig.child_name(j));
    w.channel(folder, "Vector3Curve", "Position", {curves[uj][0], curves[uj][1], curves[uj][2]}, -1);
    w.channel(folder, "EulerRotationCurve", "Rotation", {curves[uj][3], curves[uj][4], curves[uj][5]},
              static_cast<int>(orders[uj]));
    const auto& kids = children[uj + 1];
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) todo.emplace_back(*it, folder);
  }
  std::ostringstream out;
  doc.save(out, "\t", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

Status write_curve_animation_file(const std::filesystem::path& path, const Rig& rig, const KeyTracks& tracks,
                                  const KeyReduction& reduction, const CurveAnimationOptions& options) {
  Result<std::string> text = write_curve_animation(rig, tracks, reduction, options);
  if (!text) return make_error(path.string() + ": " + text.message());
  return detail::write_text_file(path, text.value());
}

}  // namespace asterune::io
