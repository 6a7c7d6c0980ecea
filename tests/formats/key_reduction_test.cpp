// Error-bounded key reduction for the exports (rule F7): a hand-made track whose needed keys
// are known, and CMU 131_01 retargeted onto builtin:r15 at 60 Hz, reduced at 0.005 studs and
// read back: the KeyframeSequence through parse_keyframe_sequence and the library's native
// playback, the GLB through tinygltf (compiled in gltf_writer_test.cpp) with glm slerp/lerp.
// Every corner of every part's box (rule P7's virtual vertices on R15, whose parts are all over
// 0.1 studs; computed here from the part sizes), at every frame and at 7 points evenly between
// frames (twice as dense as the reducer's own check), must stay within the tolerance of the
// unreduced playback
// (every key is a frame time, so these hold every key and every point halfway between two keys).
// Key count: the first goal was 15%, set when only part centres were bounded (which kept 11.4%
// as CUBICSPLINE and 37.0% eased). On the box corners the GLB's CUBICSPLINE keys (Hermite, glTF
// 2.0 Appendix C, evaluated here from the spec, not by the library) keep 29.2%, held at 30%; the
// KeyframeSequence can only play Roblox's easing between two key values (a slerp, retimed),
// which keeps 56.9%, held at 58% (docs/cli.md).
// Same configuration as gltf_writer_test.cpp, which compiles the implementation.
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/formats/gltf_writer.hpp"
#include "asterune/formats/export_tracks.hpp"
#include "asterune/formats/keyframe_sequence.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "support/cmu_frames.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;

using asterune::test::cmu_frames;

namespace {

constexpr float kTolerance = 0.005f;

Rig r15() { return build_rig(*builtin_rig_desc("r15")).value(); }

// The sample times: every frame and the points 1/8, 2/8, ... 7/8 of the way to the next (twice
// as dense as the reduction's own check); per sample, the frame before it and the fraction.
constexpr int kSubSteps = 8;
struct SampleTime {
  float time;
  size_t frame;
  float u;
};
std::vector<SampleTime> sample_times(const std::vector<io::FrameRecord>& frames) {
  std::vector<SampleTime> t;
  for (size_t f = 0; f < frames.size(); ++f)
    for (int q = 0; q < (f + 1 < frames.size() ? kSubSteps : 1); ++q) {
      const float u = static_cast<float>(q) / kSubSteps;
      t.push_back({q == 0 ? frames[f].time : frames[f].time + u * (frames[f + 1].time - frames[f].time), f, u});
    }
  return t;
}

// The farthest corner of joint j's child part box between placements `want` and `got` (studs).
float corner_error(const Rig& rig, int j, const glm::mat4& want, const glm::mat4& got) {
  const glm::vec3 half = 0.5f * rig.part(rig.part1()[static_cast<size_t>(j)]).size;
  float worst = 0.0f;
  for (int c = 0; c < 8; ++c) {
    const glm::vec4 p((c & 1) ? half.x : -half.x, (c & 2) ? half.y : -half.y, (c & 4) ? half.z : -half.z, 1.0f);
    worst = std::max(worst, glm::length(glm::vec3(want * p) - glm::vec3(got * p)));
  }
  return worst;
}
glm::mat4 as_mat(const Transform& t) { return glm::translate(glm::mat4(1.0f), t.position) * glm::mat4_cast(t.rotation); }
float corner_error(const Rig& rig, int j, const Transform& want, const Transform& got) {
  return corner_error(rig, j, as_mat(want), as_mat(got));
}

// Shortest-arc glm slerp, lerp of positions.
glm::quat slerp_short(glm::quat a, glm::quat b, float u) {
  if (glm::dot(a, b) < 0.0f) b = -b;
  return glm::normalize(glm::slerp(a, b, u));
}

}  // namespace

TEST_CASE("F7: a piecewise-linear translation keeps exactly its corners", "[io][keys]") {
  // One track moving +X at 1 stud per frame for 10 frames, then back for 10: linear between
  // frames 0, 10 and 20, so those three keys and no other reproduce it.
  KeyTracks k;
  k.parent = {-1};
  k.pre = {Transform::identity()};
  k.post = {Transform::identity()};
  for (int f = 0; f <= 20; ++f) {
    k.times.push_back(static_cast<float>(f) / 30.0f);
    k.base.push_back(Transform::identity());
    k.local.push_back(Transform::from_position(glm::vec3(static_cast<float>(f <= 10 ? f : 20 - f), 0.0f, 0.0f)));
  }
  const KeyReduction r = reduce_keys(k, 0.001f);
  CHECK(r.keys_before == 21);
  CHECK(r.keys == std::vector<std::vector<int>>{{0, 10, 20}});
  CHECK(r.keys_after == 3);
  CHECK(r.max_error <= 1e-5f);
  // Dropping the corner at 10 moves the halfway point (frame 10) by 10 studs.
  CHECK(key_reduction_error(k, {{0, 20}}) == Approx(10.0f));
}

TEST_CASE("F7: fitted key values pass through the middle of a wobble that sampled keys must follow", "[io][keys]") {
  // A track moving +X at 1 stud per frame for 20 frames, wobbling in Y by +-0.8 of the tolerance
  // (alternating frames). Keys that copy frames sit on the wobble's edges: a line between two of
  // them misses the frames on the other edge by 1.6 tolerances, so every frame would key. Fitted
  // values can sit on the middle line y = 0, which is 0.8 tolerances from every frame (and 0
  // from every midpoint, where the unreduced playback crosses y = 0): two keys hold it.
  constexpr float tol = 0.01f;
  KeyTracks k;
  k.parent = {-1};
  k.pre = {Transform::identity()};
  k.post = {Transform::identity()};
  for (int f = 0; f <= 20; ++f) {
    k.times.push_back(static_cast<float>(f) / 60.0f);
    k.base.push_back(Transform::identity());
    const float wobble = (f % 2 == 0 ? 0.8f : -0.8f) * tol;
    k.local.push_back(Transform::from_position(glm::vec3(static_cast<float>(f), wobble, 0.0f)));
  }
  const KeyReduction r = reduce_keys(k, tol);
  CHECK(r.keys == std::vector<std::vector<int>>{{0, 20}});
  REQUIRE(r.values.size() == 1);
  REQUIRE(r.values[0].size() == 2);
  CHECK(std::fabs(r.values[0][0].position.y) <= 0.15f * tol);  // near the middle line, not +0.8
  CHECK(r.max_error <= tol);
  // The same keys with the frames' own values break the bound (0.8 + 0.8 tolerances off).
  CHECK(key_reduction_error(k, {{0, 20}}) == Approx(1.6f * tol).epsilon(0.01));
}

TEST_CASE("F7: a child's error counts through its parent (the whole body is checked)", "[io][keys]") {
  // A parent turning about +Y at a steady rate (a curve in slerp, but exactly linear in angle
  // between any two keys less than 180 degrees apart), and a child hanging 10 studs out: the
  // parent's keys can all go (except the ends) only because slerp is exact here. Then a tiny
  // wobble of the parent (1e-4 rad) at frame 5 must be kept: 10 studs out it moves the child by
  // 1e-3, over the 5e-4 tolerance, although the parent's own position does not change.
  KeyTracks k;
  k.parent = {-1, 0};
  k.pre = {Transform::identity(), Transform::from_position(glm::vec3(10, 0, 0))};
  k.post = {Transform::identity(), Transform::identity()};
  for (int f = 0; f <= 10; ++f) {
    k.times.push_back(static_cast<float>(f));
    k.base.push_back(Transform::identity());
    const float wobble = f == 5 ? 1e-4f : 0.0f;
    k.local.push_back(Transform::from_rotation(glm::angleAxis(0.1f * static_cast<float>(f) + wobble, glm::vec3(0, 1, 0))));
    k.local.push_back(Transform::identity());
  }
  const KeyReduction r = reduce_keys(k, 5e-4f);
  CHECK(std::find(r.keys[0].begin(), r.keys[0].end(), 5) != r.keys[0].end());
  CHECK(r.keys[1] == std::vector<int>{0, 10});
  CHECK(r.max_error <= 5e-4f);
}

TEST_CASE("F7: cubic keys: a track along a cubic in time keeps its two end keys (CUBICSPLINE)", "[io][keys]") {
  // x(t) = 8 t^3 - 6 t^2 + t over t in [0, 1] (201 frames, so that the unreduced export,
  // linear between frames, is within x'' dt^2 / 8 = 1.1e-4 of the curve): one Hermite segment
  // reproduces the curve (value 0 -> 3, tangents x'(0) = 1 and x'(1) = 13), so two keys hold;
  // linear keys need many (the curve bends everywhere).
  KeyTracks k;
  k.parent = {-1};
  k.pre = {Transform::identity()};
  k.post = {Transform::identity()};
  for (int f = 0; f <= 200; ++f) {
    const float t = static_cast<float>(f) / 200.0f;
    k.times.push_back(t);
    k.base.push_back(Transform::identity());
    k.local.push_back(Transform::from_position(glm::vec3(8 * t * t * t - 6 * t * t + t, 0.0f, 0.0f)));
  }
  constexpr float tol = 1e-3f;
  const KeyReduction cubic = reduce_keys(k, tol, KeyCurve::kCubicSpline);
  CHECK(cubic.curve == KeyCurve::kCubicSpline);
  CHECK(cubic.keys == std::vector<std::vector<int>>{{0, 200}});
  REQUIRE(cubic.tangents.size() == 1);
  REQUIRE(cubic.tangents[0].size() == 2);
  CHECK(cubic.values[0][1].position.x == Approx(3.0f).margin(tol));
  CHECK(cubic.tangents[0][0].out_position.x == Approx(1.0f).margin(0.05));
  CHECK(cubic.tangents[0][1].in_position.x == Approx(13.0f).margin(0.05));
  CHECK(cubic.max_error <= tol);
  CHECK(reduce_keys(k, tol).keys_after > 8);  // linear
}

TEST_CASE("F7: eased keys: a track along Roblox's CubicV2 curve keeps its two end keys with that easing",
          "[io][keys]") {
  // x(t) = 5 t^3 over 201 frames (as above): TweenService's Cubic In curve, which a Pose plays as
  // EasingStyle CubicV2 with EasingDirection Out (a Pose's directions are TweenService's
  // backwards; docs/clips.md "Easing"). Two keys with that easing reproduce it exactly.
  KeyTracks k;
  k.parent = {-1};
  k.pre = {Transform::identity()};
  k.post = {Transform::identity()};
  for (int f = 0; f <= 200; ++f) {
    const float t = static_cast<float>(f) / 200.0f;
    k.times.push_back(t);
    k.base.push_back(Transform::identity());
    k.local.push_back(Transform::from_position(glm::vec3(5 * t * t * t, 0.0f, 0.0f)));
  }
  const KeyReduction r = reduce_keys(k, 1e-3f, KeyCurve::kEased);
  CHECK(r.keys == std::vector<std::vector<int>>{{0, 200}});
  REQUIRE(r.easing.size() == 1);
  REQUIRE(r.easing[0].size() == 2);
  CHECK(r.easing[0][0] == KeyEasing{EasingStyle::kCubicV2, EasingDirection::kOut});
  CHECK(r.easing[0][1] == KeyEasing{});  // the last key starts no segment: Linear
  CHECK(r.max_error <= 1e-3f);
  // The same two keys played linearly are 5 * max(t - t^3) = 5 * 2 / (3 sqrt 3) off.
  CHECK(key_reduction_error(k, {{0, 200}}) == Approx(5.0f * 2.0f / (3.0f * std::sqrt(3.0f))).epsilon(0.01));
}

TEST_CASE("F7: CMU 131_01 at 60 Hz reduced at 0.005 studs with easing, read back from the KeyframeSequence",
          "[io][keys]") {
  const Rig rig = r15();
  const std::vector<io::FrameRecord> frames = cmu_frames(rig);
  const KeyReduction r = reduce_keys(io::keyframe_sequence_tracks(rig, frames), kTolerance, KeyCurve::kEased);
  io::KeyframeSequenceOptions options;
  options.joint_keys = r.keys;
  options.joint_key_values = r.values;
  options.joint_key_easing = r.easing;
  const Result<std::string> text = io::write_keyframe_sequence(rig, frames, options);
  REQUIRE(text.ok());
  auto back = io::parse_keyframe_sequence(text.value(), "reduced.rbxmx");
  REQUIRE(back);
  const Clip& clip = back.value().clip;
  size_t keys = 0, eased = 0;
  for (const ClipTrack& t : clip.tracks) {
    keys += t.rotation_times.size();
    for (const KeyEasing& e : t.rotation_easing) eased += e.style == EasingStyle::kCubicV2 ? 1 : 0;
  }
  const size_t all = frames.size() * static_cast<size_t>(rig.joint_count());
  CHECK(keys == r.keys_after);
  CHECK(eased > keys / 20);  // the easing is in the file, and the reader plays it
  CHECK(static_cast<double>(keys) <= 0.58 * static_cast<double>(all));

  auto binding = build_animation_binding(clip, rig, nullptr, nullptr);
  REQUIRE(binding);
  REQUIRE(binding.value().mode == AnimationMode::kNative);
  AnimationContext ctx = make_animation_context(binding.value());
  const auto n = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> local(n), ref_local(n), got(n), want(n);
  std::vector<float> cov(n);
  float worst = 0.0f;
  for (const SampleTime& st : sample_times(frames)) {
    const io::FrameRecord& a = frames[st.frame];
    const io::FrameRecord& b = frames[std::min(st.frame + 1, frames.size() - 1)];
    for (size_t j = 0; j < n; ++j)  // the unreduced export played back: T lerped/slerped between frames
      ref_local[j] = Transform{slerp_short(a.local[j].rotation, b.local[j].rotation, st.u),
                               a.local[j].position + st.u * (b.local[j].position - a.local[j].position)};
    REQUIRE(evaluate_world(rig, a.root, ref_local, want));
    REQUIRE(sample_animation(clip, binding.value(), rig, st.time, WrapMode::kClamp, ctx, local, cov));
    REQUIRE(evaluate_world(rig, a.root, local, got));
    for (size_t j = 0; j < n; ++j) worst = std::max(worst, corner_error(rig, static_cast<int>(j), want[j], got[j]));
  }
  CHECK(worst <= kTolerance);
}

TEST_CASE("F7: CMU 131_01 at 60 Hz reduced at 0.005 studs as CUBICSPLINE, read back from the GLB with tinygltf",
          "[io][keys]") {
  const Rig rig = r15();
  const std::vector<io::FrameRecord> frames = cmu_frames(rig);
  const KeyReduction r = reduce_keys(io::gltf_node_tracks(rig, frames), kTolerance, KeyCurve::kCubicSpline);
  test::TempDir dir("keys_glb");
  const std::string path = (dir / "reduced.glb").string();
  io::GltfWriteOptions options;
  options.node_keys = r.keys;
  options.node_key_values = r.values;
  options.node_key_tangents = r.tangents;
  REQUIRE(io::write_gltf_file(path, rig, frames, options));
  tinygltf::Model m;
  tinygltf::TinyGLTF loader;
  std::string err, warn;
  REQUIRE(loader.LoadBinaryFromFile(&m, &err, &warn, path));
  const size_t nn = m.nodes.size();
  REQUIRE(nn == static_cast<size_t>(rig.joint_count()) + 1);

  // Each channel's keys, read straight from the buffer.
  auto floats = [&](int accessor) {
    const tinygltf::Accessor& a = m.accessors[static_cast<size_t>(accessor)];
    const tinygltf::BufferView& v = m.bufferViews[static_cast<size_t>(a.bufferView)];
    const size_t comps = static_cast<size_t>(tinygltf::GetNumComponentsInType(static_cast<uint32_t>(a.type)));
    std::vector<float> out(a.count * comps);
    std::memcpy(out.data(), m.buffers[static_cast<size_t>(v.buffer)].data.data() + v.byteOffset + a.byteOffset,
                out.size() * 4);
    return out;
  };
  std::vector<std::vector<float>> tt(nn), tv(nn), rt(nn), rv(nn);
  size_t keys = 0;
  for (const auto& ch : m.animations[0].channels) {
    const auto& smp = m.animations[0].samplers[static_cast<size_t>(ch.sampler)];
    REQUIRE(smp.interpolation == "CUBICSPLINE");
    const auto node = static_cast<size_t>(ch.target_node);
    if (ch.target_path == "translation") {
      tt[node] = floats(smp.input);
      tv[node] = floats(smp.output);
      REQUIRE(tv[node].size() == 9 * tt[node].size());  // in-tangent, value, out-tangent per key
      keys += tt[node].size();
    } else {
      rt[node] = floats(smp.input);
      rv[node] = floats(smp.output);
      REQUIRE(rv[node].size() == 12 * rt[node].size());
    }
  }
  CHECK(keys == r.keys_after);
  CHECK(static_cast<double>(keys) <= 0.30 * static_cast<double>(frames.size() * nn));

  // Node parents from the file; locals at time t from the keys, as glTF 2.0 Appendix C says:
  // p(s) = (2s^3 - 3s^2 + 1) v_k + (s^3 - 2s^2 + s) dt b_k + (-2s^3 + 3s^2) v_k+1 + (s^3 - s^2) dt a_k+1,
  // with a_k, v_k, b_k the k-th triplet (in-tangent, value, out-tangent); the rotation's
  // 4-vector normalised after. Before the first and after the last key: the value held.
  std::vector<int> parent(nn, -1);
  for (size_t i = 0; i < nn; ++i)
    for (int c : m.nodes[i].children) parent[static_cast<size_t>(c)] = static_cast<int>(i);
  auto spline = [](const std::vector<float>& times, const std::vector<float>& out, size_t width, float t) {
    std::vector<double> r(width);
    const size_t keys = times.size();
    auto at = [&](size_t key, size_t slot, size_t c) { return static_cast<double>(out[(3 * key + slot) * width + c]); };
    if (keys == 1 || t <= times[0] || t >= times[keys - 1]) {
      const size_t key = keys == 1 || t <= times[0] ? 0 : keys - 1;
      for (size_t c = 0; c < width; ++c) r[c] = at(key, 1, c);
      return r;
    }
    const size_t k = static_cast<size_t>(std::upper_bound(times.begin(), times.end(), t) - times.begin()) - 1;
    const double dt = times[k + 1] - times[k], s = (t - times[k]) / dt, s2 = s * s, s3 = s2 * s;
    for (size_t c = 0; c < width; ++c)
      r[c] = (2 * s3 - 3 * s2 + 1) * at(k, 1, c) + (s3 - 2 * s2 + s) * dt * at(k, 2, c) + (-2 * s3 + 3 * s2) * at(k + 1, 1, c) +
             (s3 - s2) * dt * at(k + 1, 0, c);
    return r;
  };
  auto world_from_file = [&](float t) {
    std::vector<glm::dmat4> world(nn);
    for (size_t i = 0; i < nn; ++i) {
      const std::vector<double> p = spline(tt[i], tv[i], 3, t), q = spline(rt[i], rv[i], 4, t);
      const glm::dquat rot = glm::normalize(glm::dquat(q[3], q[0], q[1], q[2]));
      const glm::dmat4 local = glm::translate(glm::dmat4(1.0), glm::dvec3(p[0], p[1], p[2])) * glm::mat4_cast(rot);
      world[i] = parent[i] >= 0 ? world[static_cast<size_t>(parent[i])] * local : local;
    }
    return world;
  };
  // The unreduced export: node locals (parent world^-1 * world) of the two frames, interpolated.
  auto node_locals = [&](const io::FrameRecord& r) {
    std::vector<Transform> w(nn), l(nn);
    w[0] = r.root;
    for (size_t j = 0; j + 1 < nn; ++j) w[j + 1] = r.world[j];
    for (size_t i = 0; i < nn; ++i) l[i] = parent[i] >= 0 ? inverse(w[static_cast<size_t>(parent[i])]) * w[i] : w[i];
    return l;
  };
  float worst = 0.0f;
  for (const SampleTime& st : sample_times(frames)) {
    const auto la = node_locals(frames[st.frame]);
    const auto lb = node_locals(frames[std::min(st.frame + 1, frames.size() - 1)]);
    std::vector<glm::mat4> wm(nn);
    for (size_t i = 0; i < nn; ++i) {
      const glm::mat4 local = glm::translate(glm::mat4(1.0f), la[i].position + (lb[i].position - la[i].position) * st.u) *
                              glm::mat4_cast(slerp_short(la[i].rotation, lb[i].rotation, st.u));
      wm[i] = parent[i] >= 0 ? wm[static_cast<size_t>(parent[i])] * local : local;
    }
    const std::vector<glm::dmat4> got = world_from_file(st.time);
    for (size_t i = 1; i < nn; ++i)  // node 1 + j: joint j's part (node 0, the root part, moves them all)
      worst = std::max(worst, corner_error(rig, static_cast<int>(i - 1), wm[i], glm::mat4(got[i])));
  }
  CHECK(worst <= kTolerance);
}

TEST_CASE("F7: CMU 49_04 reduced at 0.005 studs: the hands' box corners and turns stay within the tolerance (rule P7)",
          "[io][keys]") {
  // Measured on part centres alone, this export kept every centre within 0.0038 studs while the
  // LeftHand came out 21.9 degrees turned at frame 125 (a hand turning about the line from its
  // joint to its centre never moves the centre). Reduced on the box corners it cannot.
  const Rig rig = r15();
  const std::vector<io::FrameRecord> frames = cmu_frames(rig, "cmu_49_04_run_leap.bvh");
  KeyTracks tracks = io::keyframe_sequence_tracks(rig, frames);
  REQUIRE(tracks.point_begin.size() == tracks.track_count() + 1);
  const KeyReduction r = reduce_keys(tracks, kTolerance, KeyCurve::kEased);
  CHECK(r.max_error <= kTolerance);
  CHECK(r.keys_after < r.keys_before);
  io::KeyframeSequenceOptions options;
  options.joint_keys = r.keys;
  options.joint_key_values = r.values;
  options.joint_key_easing = r.easing;
  const Result<std::string> text = io::write_keyframe_sequence(rig, frames, options);
  REQUIRE(text.ok());
  auto back = io::parse_keyframe_sequence(text.value(), "reduced.rbxmx");
  REQUIRE(back);
  const Clip& clip = back.value().clip;
  auto binding = build_animation_binding(clip, rig, nullptr, nullptr);
  REQUIRE(binding);
  AnimationContext ctx = make_animation_context(binding.value());
  const auto n = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> local(n), ref_local(n), got(n), want(n);
  std::vector<float> cov(n);
  const int hands[] = {rig.find_joint("LeftHand").index, rig.find_joint("RightHand").index};
  REQUIRE(hands[0] >= 0);
  REQUIRE(hands[1] >= 0);
  float corner = 0.0f, turn = 0.0f;
  for (const SampleTime& st : sample_times(frames)) {
    const io::FrameRecord& a = frames[st.frame];
    const io::FrameRecord& b = frames[std::min(st.frame + 1, frames.size() - 1)];
    for (size_t j = 0; j < n; ++j)
      ref_local[j] = Transform{slerp_short(a.local[j].rotation, b.local[j].rotation, st.u),
                               a.local[j].position + st.u * (b.local[j].position - a.local[j].position)};
    REQUIRE(evaluate_world(rig, a.root, ref_local, want));
    REQUIRE(sample_animation(clip, binding.value(), rig, st.time, WrapMode::kClamp, ctx, local, cov));
    REQUIRE(evaluate_world(rig, a.root, local, got));
    for (int h : hands) {
      const auto j = static_cast<size_t>(h);
      corner = std::max(corner, corner_error(rig, h, want[j], got[j]));
      const float d = std::min(1.0f, std::fabs(glm::dot(want[j].rotation, got[j].rotation)));
      turn = std::max(turn, glm::degrees(2.0f * std::acos(d)));
    }
  }
  INFO("hands: worst corner " << corner << " studs, worst turn " << turn << " degrees");
  CHECK(corner <= kTolerance);
  CHECK(turn <= 1.0f);  // 21.9 degrees on the centre metric

  // The same reduction on centres alone (no virtual vertices) lets a hand's corners go far over.
  tracks.point_begin.clear();
  tracks.points.clear();
  const KeyReduction centres = reduce_keys(tracks, kTolerance, KeyCurve::kEased);
  const KeyTracks with_points = io::keyframe_sequence_tracks(rig, frames);
  CHECK(key_reduction_error(with_points, centres) > 10.0f * kTolerance);
}
