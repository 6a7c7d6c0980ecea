// BVH import (rule P4, RT1). Reference facts come from tests/data/bvh/PROVENANCE.md (checked
// with an independent parser) and from raw numbers read straight from the files' text and
// composed with hand-written rotation matrices, never from the importer's output.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <tuple>
#include <string>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/formats/bvh.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;

namespace {

const std::string kDir = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/";
const std::string k4904 = kDir + "cmu_49_04_run_leap.bvh";
const std::string k0101 = kDir + "cmu_01_01_jumps_first900.bvh";
const std::string k13101 = kDir + "cmu_131_01_start_walk_stop.bvh";

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

io::BvhFile load(const std::string& path) {
  Result<io::BvhFile> r = io::load_bvh(path);
  INFO(path);
  REQUIRE(r.ok());
  return std::move(r).value();
}

// --- independent reference: raw numbers + hand-written matrices --------------------------

// Frame f's numbers, read from the text: the (f+1)-th line after "Frame Time:".
std::vector<double> raw_frame(const std::string& path, int f) {
  std::istringstream in(read_text(path));
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("Frame Time:", 0) == 0) break;
  for (int k = 0; k <= f; ++k) std::getline(in, line);
  std::istringstream nums(line);
  std::vector<double> v;
  double x;
  while (nums >> x) v.push_back(x);
  return v;
}

double rad(double deg) { return deg * 3.14159265358979323846 / 180.0; }
// Column-major glm matrices written out by hand: Rx, Ry, Rz (right-handed).
glm::dmat3 rot_x(double deg) {
  const double c = std::cos(rad(deg)), s = std::sin(rad(deg));
  return glm::dmat3(1, 0, 0, 0, c, s, 0, -s, c);
}
glm::dmat3 rot_y(double deg) {
  const double c = std::cos(rad(deg)), s = std::sin(rad(deg));
  return glm::dmat3(c, 0, -s, 0, 1, 0, s, 0, c);
}
glm::dmat3 rot_z(double deg) {
  const double c = std::cos(rad(deg)), s = std::sin(rad(deg));
  return glm::dmat3(c, s, 0, -s, c, 0, 0, 0, 1);
}
glm::dmat3 axis_rot(char axis, double deg) { return axis == 'X' ? rot_x(deg) : axis == 'Y' ? rot_y(deg) : rot_z(deg); }

// One joint below the root on a chain: its first channel index, its 3-letter rotation order
// (as in the file's CHANNELS line) and its OFFSET, copied by hand from the file.
struct Link {
  int channel;
  const char* order;
  glm::dvec3 offset;
};

// World rotation of the root from frame values (root channels: Xp Yp Zp Zr Yr Xr).
glm::dmat3 root_rotation(const std::vector<double>& v) { return rot_z(v[3]) * rot_y(v[4]) * rot_x(v[5]); }

// World position of the last link's joint: p += R * offset; R = R * R_order(values).
glm::dvec3 chain_position(const std::vector<double>& v, const std::vector<Link>& chain) {
  glm::dvec3 p(v[0], v[1], v[2]);
  glm::dmat3 r = root_rotation(v);
  for (const Link& l : chain) {
    p += r * l.offset;
    glm::dmat3 local(1.0);
    for (int k = 0; k < 3; ++k) local = local * axis_rot(l.order[k], v[static_cast<size_t>(l.channel + k)]);
    r = r * local;
  }
  return p;
}

// Same from the importer: sample the clip at frame f and accumulate world transforms.
std::vector<Transform> sampled_world(const io::BvhFile& bvh, int f) {
  Result<ClipBinding> b = build_clip_binding(bvh.clip, bvh.skeleton);
  REQUIRE(b.ok());
  const size_t n = static_cast<size_t>(bvh.skeleton.joint_count());
  std::vector<Transform> local(n), world(n);
  std::vector<float> coverage(n);
  sample_clip(bvh.clip, b.value(), static_cast<float>(f) * bvh.frame_time, WrapMode::kClamp, local, coverage);
  for (size_t j = 0; j < n; ++j) {
    const int p = bvh.skeleton.parents[j];
    world[j] = p < 0 ? local[j] : world[static_cast<size_t>(p)] * local[j];
  }
  return world;
}

void check_close(const glm::vec3& got, const glm::dvec3& want, double tol) {
  INFO("got " << got.x << " " << got.y << " " << got.z << " want " << want.x << " " << want.y << " " << want.z);
  CHECK(std::fabs(got.x - want.x) < tol);
  CHECK(std::fabs(got.y - want.y) < tol);
  CHECK(std::fabs(got.z - want.z) < tol);
}

const std::vector<std::string> kNames4904 = {
    "Hips", "LHipJoint", "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase", "RHipJoint", "RightUpLeg",
    "RightLeg", "RightFoot", "RightToeBase", "LowerBack", "Spine", "Spine1", "Neck", "Neck1", "Head",
    "LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand", "LeftFingerBase", "LeftHandIndex1", "LThumb",
    "RightShoulder", "RightArm", "RightForeArm", "RightHand", "RightFingerBase", "RightHandIndex1", "RThumb"};
const std::vector<std::string> kNames13101 = {
    "Hips", "LHipJoint", "LeftHip", "LeftKnee", "LeftAnkle", "LeftToe", "RHipJoint", "RightHip", "RightKnee",
    "RightAnkle", "RightToe", "lowerback", "Chest", "Chest2", "lowerneck", "Neck", "Head", "LeftCollar",
    "LeftShoulder", "LeftElbow", "LeftWrist", "lhand", "LFingers", "LThumb", "RightCollar", "RightShoulder",
    "RightElbow", "RightWrist", "rhand", "RFingers", "RThumb"};

using C = io::BvhChannel;
const std::vector<C> kRootOrder = {C::kXposition, C::kYposition, C::kZposition, C::kZrotation, C::kYrotation, C::kXrotation};
const std::vector<C> kZYX = {C::kZrotation, C::kYrotation, C::kXrotation};
const std::vector<C> kZXY = {C::kZrotation, C::kXrotation, C::kYrotation};

void check_common(const io::BvhFile& bvh, int frames) {
  // rule RT1: names, parents-first, rest orientations (identity) and positions (OFFSET).
  CHECK(bvh.skeleton.joint_count() == 31);
  CHECK(bvh.frame_count == frames);
  CHECK(bvh.frame_time == Approx(0.0083333f).epsilon(1e-6));
  CHECK(bvh.clip.duration == Approx((frames - 1) * 0.0083333f).epsilon(1e-5));
  CHECK(bvh.clip.tracks.size() == 31u);
  CHECK(bvh.skeleton.units_to_studs == 1.0f);
  size_t channel_total = 0;
  for (const auto& c : bvh.channels) channel_total += c.size();
  CHECK(channel_total == 96u);
  CHECK(bvh.channels[0] == kRootOrder);
  CHECK(bvh.skeleton.parents[0] == -1);
  int end_sites = 0;
  for (int j = 0; j < 31; ++j) {
    const size_t u = static_cast<size_t>(j);
    if (j > 0) CHECK(bvh.skeleton.parents[u] >= 0);
    CHECK(bvh.skeleton.parents[u] < j);
    CHECK(bvh.skeleton.rest_local[u].rotation == glm::quat(1, 0, 0, 0));
    CHECK(bvh.clip.tracks[u].name == bvh.skeleton.joint_names[u]);
    CHECK(bvh.clip.tracks[u].rotations.size() == static_cast<size_t>(frames));
    CHECK(bvh.clip.tracks[u].translations.size() == (j == 0 ? static_cast<size_t>(frames) : 0u));
    end_sites += glm::length(bvh.skeleton.end_sites[u]) > 0.0f ? 1 : 0;
  }
  CHECK(end_sites == 7);
}

glm::vec3 offset_of(const io::BvhFile& bvh, const char* name) {
  const int j = bvh.skeleton.find(name);
  REQUIRE(j >= 0);
  return bvh.skeleton.rest_local[static_cast<size_t>(j)].position;
}

}  // namespace

TEST_CASE("BVH 49_04 (MotionBuilder 2010): skeleton facts", "[io][bvh]") {
  // rule P4, RT1
  const io::BvhFile bvh = load(k4904);
  check_common(bvh, 252);
  CHECK(bvh.skeleton.joint_names == kNames4904);
  CHECK(bvh.skeleton.name == "cmu_49_04_run_leap");
  for (size_t j = 1; j < 31; ++j) CHECK(bvh.channels[j] == kZYX);
  for (const char* zero : {"LHipJoint", "RHipJoint", "LowerBack", "Neck", "LeftShoulder", "RightShoulder",
                           "LeftFingerBase", "RightFingerBase", "LThumb", "RThumb"})
    CHECK(offset_of(bvh, zero) == glm::vec3(0.0f));
  CHECK(offset_of(bvh, "LeftForeArm").x == Approx(5.44f).margin(0.01));
  CHECK(offset_of(bvh, "LeftLeg").x == Approx(2.35f).margin(0.01));
  CHECK(offset_of(bvh, "LeftLeg").y == Approx(-6.44f).margin(0.01));
  CHECK(bvh.skeleton.parents[static_cast<size_t>(bvh.skeleton.find("LeftForeArm"))] == bvh.skeleton.find("LeftArm"));
  CHECK(bvh.skeleton.parents[static_cast<size_t>(bvh.skeleton.find("LThumb"))] == bvh.skeleton.find("LeftHand"));
  const glm::vec3 site = bvh.skeleton.end_sites[static_cast<size_t>(bvh.skeleton.find("LeftToeBase"))];
  CHECK(site.z == Approx(1.07476f));
  // Root translation keys are the raw position channels.
  const std::vector<double> f0 = raw_frame(k4904, 0);
  CHECK(bvh.clip.tracks[0].translations[0].x == Approx(f0[0]));
  CHECK(bvh.clip.tracks[0].translations[0].y == Approx(f0[1]));
  CHECK(bvh.clip.tracks[0].translations[0].z == Approx(f0[2]));
  // Root travels ~88 units along +Z; root height stays within 14.5..22.5 units (the leap).
  const auto& tr = bvh.clip.tracks[0].translations;
  CHECK(tr.back().z - tr.front().z == Approx(88.0f).margin(4.0f));
  float lo = 1e9f, hi = -1e9f;
  for (const glm::vec3& p : tr) {
    lo = std::min(lo, p.y);
    hi = std::max(hi, p.y);
  }
  CHECK(lo == Approx(14.5f).margin(0.3f));
  CHECK(hi == Approx(22.5f).margin(0.3f));
}

TEST_CASE("BVH 01_01 (2008, trimmed, LF) and 131_01 (3dsMax, ZXY arms): skeleton facts", "[io][bvh]") {
  const io::BvhFile a = load(k0101);
  check_common(a, 900);
  std::vector<std::string> names = kNames4904;
  names[22] = "LFingers";
  names[29] = "RFingers";
  CHECK(a.skeleton.joint_names == names);

  const io::BvhFile b = load(k13101);
  check_common(b, 994);
  CHECK(b.skeleton.joint_names == kNames13101);
  int zxy = 0;
  for (size_t j = 1; j < 31; ++j) {
    const std::string& n = b.skeleton.joint_names[j];
    const bool arm = n == "LeftShoulder" || n == "RightShoulder" || n == "LeftElbow" || n == "RightElbow" ||
                     n == "LeftWrist" || n == "RightWrist" || n == "lhand" || n == "rhand" || n == "LFingers" ||
                     n == "RFingers" || n == "LThumb" || n == "RThumb";
    INFO(n);
    CHECK(b.channels[j] == (arm ? kZXY : kZYX));
    zxy += arm ? 1 : 0;
  }
  CHECK(zxy == 12);
  // Arms-down rest.
  CHECK(offset_of(b, "LeftElbow").y == Approx(-4.25f).margin(0.01));
  CHECK(offset_of(b, "LeftWrist").y == Approx(-3.28f).margin(0.01));
  CHECK(offset_of(b, "LeftElbow").x == 0.0f);
  // Root drops to ~8.8 units in the crouch.
  float lo = 1e9f;
  for (const glm::vec3& p : b.clip.tracks[0].translations) lo = std::min(lo, p.y);
  CHECK(lo == Approx(8.8f).margin(0.3f));
}

TEST_CASE("BVH Euler composition matches hand-written Rz*Ry*Rx / Rz*Rx*Ry chains", "[io][bvh]") {
  // Intrinsic composition in channel order; world positions from raw frame numbers.
  const io::BvhFile mb = load(k4904);
  // Hips -> LowerBack(11) -> Spine(12) -> Spine1(13) -> LeftShoulder(17) -> LeftArm(18)
  //      -> LeftForeArm(19) -> LeftHand(20). Joint k>0 has channels 6 + 3*(k-1) .. +2.
  auto ch = [](int k) { return 6 + 3 * (k - 1); };
  const std::vector<Link> left_hand = {
      {ch(11), "ZYX", {0, 0, 0}},           {ch(12), "ZYX", {0.02203, 1.91565, 0.07161}},
      {ch(13), "ZYX", {0.01740, 1.90525, 0.11636}}, {ch(17), "ZYX", {0, 0, 0}},
      {ch(18), "ZYX", {2.87059, 1.35470, 0.16111}}, {ch(19), "ZYX", {5.43592, 0, 0}},
      {ch(20), "ZYX", {3.25460, 0, 0}}};
  const std::vector<Link> left_toe = {{ch(1), "ZYX", {0, 0, 0}},
                                      {ch(2), "ZYX", {1.62067, -1.77917, 0.70989}},
                                      {ch(3), "ZYX", {2.34532, -6.44371, 0}},
                                      {ch(4), "ZYX", {2.74224, -7.53425, 0}},
                                      {ch(5), "ZYX", {0.17032, -0.46794, 2.08086}}};
  for (int f : {0, 1, 100, 200, 251}) {
    INFO("49_04 frame " << f);
    const std::vector<double> v = raw_frame(k4904, f);
    REQUIRE(v.size() == 96u);
    const std::vector<Transform> world = sampled_world(mb, f);
    check_close(world[20].position, chain_position(v, left_hand), 2e-3);
    check_close(world[5].position, chain_position(v, left_toe), 2e-3);
  }

  const io::BvhFile max = load(k13101);
  // Hips -> lowerback(11) -> Chest(12) -> Chest2(13) -> LeftCollar(17, ZYX) -> LeftShoulder(18, ZXY)
  //      -> LeftElbow(19, ZXY) -> LeftWrist(20, ZXY) -> lhand(21) -> LFingers(22, ZXY).
  const std::vector<Link> left_fingers = {
      {ch(11), "ZYX", {0, 0, 0}},          {ch(12), "ZYX", {-0.02305, 1.98660, 0.00319}},
      {ch(13), "ZYX", {-0.00718, 1.99033, -0.00533}}, {ch(17), "ZYX", {0, 0, 0}},
      {ch(18), "ZXY", {3.05381, 1.47088, -0.01697}},  {ch(19), "ZXY", {0, -4.251060, 0}},
      {ch(20), "ZXY", {0, -3.275920, 0}},             {ch(21), "ZXY", {0, 0, 0}},
      {ch(22), "ZXY", {0, -0.657810, 0}}};
  for (int f : {0, 300, 500, 900}) {
    INFO("131_01 frame " << f);
    const std::vector<double> v = raw_frame(k13101, f);
    REQUIRE(v.size() == 96u);
    const std::vector<Transform> world = sampled_world(max, f);
    check_close(world[22].position, chain_position(v, left_fingers), 2e-3);
  }
  // A wrong composition order must be detectable: the same chain composed as Rx*Ry*Rz for the
  // ZXY joints lands elsewhere on some frame (guards against a test that cannot fail).
  std::vector<Link> wrong = left_fingers;
  for (size_t k = 4; k < wrong.size(); ++k) wrong[k].order = "ZYX";
  double worst = 0.0;
  for (int f : {300, 500, 900}) {
    const glm::dvec3 a = chain_position(raw_frame(k13101, f), wrong);
    const std::vector<Transform> world = sampled_world(max, f);
    worst = std::max(worst, glm::length(glm::dvec3(world[22].position) - a));
  }
  CHECK(worst > 0.05);
}

TEST_CASE("BVH MotionBuilder frame 0 is a T-pose with arms along +/-X", "[io][bvh]") {
  // Frame 0 (added by the converter) has zero root/spine rotation and only a small Z roll on
  // each upper arm: -8/+8 degrees in 49_04, -5/+5 in 01_01 (raw numbers of frame 0). So each
  // arm bone points along +/-X tilted down by exactly that angle, and the OFFSET rest is
  // exactly along +/-X.
  struct Case {
    std::string path;
    float droop_deg;
  };
  for (const Case& c : {Case{k4904, 8.0f}, Case{k0101, 5.0f}}) {
    INFO(c.path);
    const io::BvhFile bvh = load(c.path);
    const std::vector<double> raw = raw_frame(c.path, 0);
    CHECK(raw[static_cast<size_t>(6 + 3 * 17)] == Approx(-c.droop_deg));  // LeftArm Zrotation
    CHECK(raw[static_cast<size_t>(6 + 3 * 24)] == Approx(c.droop_deg));   // RightArm Zrotation
    const std::vector<Transform> world = sampled_world(bvh, 0);
    auto pos = [&](const char* n) { return world[static_cast<size_t>(bvh.skeleton.find(n))].position; };
    const float s = std::sin(glm::radians(c.droop_deg)), co = std::cos(glm::radians(c.droop_deg));
    const glm::vec3 left_down(co, -s, 0.0f), right_down(-co, -s, 0.0f);
    for (const auto& [from, to, want] :
         {std::tuple{"LeftArm", "LeftForeArm", left_down}, std::tuple{"LeftForeArm", "LeftHand", left_down},
          std::tuple{"RightArm", "RightForeArm", right_down}, std::tuple{"RightForeArm", "RightHand", right_down}}) {
      INFO(from << " -> " << to);
      const glm::vec3 d = glm::normalize(pos(to) - pos(from));
      CHECK(glm::length(d - want) < 1e-4f);
      CHECK(std::fabs(d.x) > std::cos(glm::radians(10.0f)));  // "along +/-X"
    }
    CHECK(glm::normalize(offset_of(bvh, "LeftForeArm")) == glm::vec3(1, 0, 0));
    CHECK(glm::normalize(offset_of(bvh, "RightHand")) == glm::vec3(-1, 0, 0));
    // Head above hips: +Y up.
    CHECK(pos("Head").y > pos("Hips").y + 5.0f);
  }
}

TEST_CASE("BVH line endings (CRLF, LF, CR, mixed) and tabs give identical results", "[io][bvh]") {
  const std::string original = read_text(k4904);
  std::string lf;
  for (size_t i = 0; i < original.size(); ++i)
    if (original[i] != '\r') lf += original[i];
  std::string crlf, cr, spaces;
  for (char c : lf) {
    if (c == '\n') {
      crlf += "\r\n";
      cr += '\r';
    } else {
      crlf += c;
      cr += c;
    }
    spaces += c == '\t' ? std::string("   ") : std::string(1, c);
  }
  REQUIRE(lf.size() < original.size());  // the original really is mixed
  const io::BvhFile ref = load(k4904);
  for (const std::string* text : {&lf, &crlf, &cr, &spaces}) {
    Result<io::BvhFile> r = io::parse_bvh(*text, "variant");
    REQUIRE(r.ok());
    const io::BvhFile& b = r.value();
    CHECK(b.skeleton.joint_names == ref.skeleton.joint_names);
    CHECK(b.skeleton.parents == ref.skeleton.parents);
    CHECK(b.channels == ref.channels);
    bool same = true;
    for (size_t j = 0; j < ref.clip.tracks.size(); ++j) {
      same = same && b.skeleton.rest_local[j].position == ref.skeleton.rest_local[j].position;
      same = same && b.clip.tracks[j].rotations == ref.clip.tracks[j].rotations;
      same = same && b.clip.tracks[j].translations == ref.clip.tracks[j].translations;
    }
    CHECK(same);
  }
}

TEST_CASE("BVH Euler flips between frames interpolate the short way", "[io][bvh]") {
  // RThumb in 49_04 flips near frame 233 (raw Z/Y/X jump by ~100+ degrees). The sampled
  // midpoint must lie halfway along the true (matrix-derived) rotation between the two frames.
  const io::BvhFile bvh = load(k4904);
  Result<ClipBinding> b = build_clip_binding(bvh.clip, bvh.skeleton);
  REQUIRE(b.ok());
  const int thumb = bvh.skeleton.find("RThumb");
  REQUIRE(thumb == 30);
  const int c = 6 + 3 * (thumb - 1);
  for (int f : {232, 233}) {
    INFO("frames " << f << " -> " << f + 1);
    const std::vector<double> v0 = raw_frame(k4904, f), v1 = raw_frame(k4904, f + 1);
    const glm::dmat3 r0 = rot_z(v0[static_cast<size_t>(c)]) * rot_y(v0[static_cast<size_t>(c + 1)]) * rot_x(v0[static_cast<size_t>(c + 2)]);
    const glm::dmat3 r1 = rot_z(v1[static_cast<size_t>(c)]) * rot_y(v1[static_cast<size_t>(c + 1)]) * rot_x(v1[static_cast<size_t>(c + 2)]);
    const glm::dmat3 rel = glm::transpose(r0) * r1;
    const double key_angle = std::acos(std::clamp((rel[0][0] + rel[1][1] + rel[2][2] - 1.0) / 2.0, -1.0, 1.0));
    std::vector<Transform> local(31);
    std::vector<float> cov(31);
    sample_clip(bvh.clip, b.value(), (static_cast<float>(f) + 0.5f) * bvh.frame_time, WrapMode::kClamp, local, cov);
    const glm::quat k0 = bvh.clip.tracks[static_cast<size_t>(thumb)].rotations[static_cast<size_t>(f)];
    const glm::dmat3 mid = glm::dmat3(rotation_matrix(local[static_cast<size_t>(thumb)].rotation));
    const glm::dmat3 rel_mid = glm::transpose(glm::dmat3(rotation_matrix(k0))) * mid;
    const double mid_angle = std::acos(std::clamp((rel_mid[0][0] + rel_mid[1][1] + rel_mid[2][2] - 1.0) / 2.0, -1.0, 1.0));
    // The data really turns ~176-180 degrees here; slerp must take the short arc (<= 90 degrees
    // at the midpoint), never the long way (> 90 degrees).
    CHECK(mid_angle <= glm::radians(90.0) + 1e-3);
    CHECK(mid_angle == Approx(key_angle / 2.0).margin(2e-3));
  }
}

TEST_CASE("BVH equivalent Euler triples (a sign flip) do not move the joint", "[io][bvh]") {
  // (z, y, x) and (z+180, 180-y, x+180) are the same rotation for Rz*Ry*Rx; sampling between
  // the two frames must stay on that rotation instead of swinging round.
  const std::string text =
      "HIERARCHY\nROOT A\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Yrotation Xrotation\n"
      " End Site\n {\n  OFFSET 1 0 0\n }\n}\nMOTION\nFrames: 2\nFrame Time: 1\n"
      "30 40 50\n210 140 230\n";
  Result<io::BvhFile> r = io::parse_bvh(text, "flip.bvh");
  REQUIRE(r.ok());
  Result<ClipBinding> b = build_clip_binding(r.value().clip, r.value().skeleton);
  REQUIRE(b.ok());
  const glm::dmat3 want = rot_z(30) * rot_y(40) * rot_x(50);
  for (float t : {0.0f, 0.25f, 0.5f, 0.75f, 1.0f}) {
    Transform local;
    float cov = 0.0f;
    sample_clip(r.value().clip, b.value(), t, WrapMode::kClamp, std::span<Transform>(&local, 1), std::span<float>(&cov, 1));
    const glm::dmat3 got(rotation_matrix(local.rotation));
    double err = 0.0;
    for (int i = 0; i < 3; ++i) err = std::max(err, glm::length(got[i] - want[i]));
    INFO("t = " << t);
    CHECK(err < 1e-4);
    CHECK(cov == 1.0f);
  }
}

TEST_CASE("BVH minimal file: channel order, end site, positions", "[io][bvh]") {
  const std::string text =
      "HIERARCHY\n"
      "ROOT Hips\n"
      "{\n"
      "  OFFSET 1 2 3\n"
      "  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
      "  JOINT Chest\n"
      "  {\n"
      "    OFFSET 0 2 0\n"
      "    CHANNELS 3 Yrotation Xposition Xrotation\n"
      "    End Site\n"
      "    {\n"
      "      OFFSET 0 1 0\n"
      "    }\n"
      "  }\n"
      "}\n"
      "MOTION\n"
      "Frames: 2\n"
      "Frame Time: 0.5\n"
      "0 1 0 0 0 0 90 7 0\n"
      "5 +1e0 -2 90 0 0 0 -1.5 90\n";
  Result<io::BvhFile> r = io::parse_bvh(text, "mini.bvh");
  REQUIRE(r.ok());
  const io::BvhFile& b = r.value();
  CHECK(b.clip.duration == 0.5f);
  CHECK(b.skeleton.end_sites[1] == glm::vec3(0, 1, 0));
  CHECK(b.skeleton.rest_local[0].position == glm::vec3(1, 2, 3));
  CHECK(b.channels[1] == std::vector<C>{C::kYrotation, C::kXposition, C::kXrotation});
  // Chest has a position channel for X only: Y and Z keep the OFFSET.
  CHECK(b.clip.tracks[1].translations[0] == glm::vec3(7, 2, 0));
  CHECK(b.clip.tracks[1].translations[1] == glm::vec3(-1.5f, 2, 0));
  CHECK(b.clip.tracks[0].translations[1] == glm::vec3(5, 1, -2));
  // Frame 1: Chest = Ry(0) * Rx(90) maps +Y to +Z; root Rz(90) maps +X to +Y.
  const glm::vec3 y = b.clip.tracks[1].rotations[1] * glm::vec3(0, 1, 0);
  CHECK(y.z == Approx(1.0f));
  const glm::vec3 x = b.clip.tracks[0].rotations[1] * glm::vec3(1, 0, 0);
  CHECK(x.y == Approx(1.0f));
  // Frame 0: Chest = Ry(90) * Rx(0) maps +X to -Z.
  const glm::vec3 x0 = b.clip.tracks[1].rotations[0] * glm::vec3(1, 0, 0);
  CHECK(x0.z == Approx(-1.0f));
}

TEST_CASE("BVH malformed input fails with file, line and reason", "[io][bvh]") {
  // Line numbers:          1            2          3     4
  const std::vector<std::string> lines = {
      "HIERARCHY", "ROOT Hips", "{", "  OFFSET 0 0 0",
      /*5*/ "  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation",
      /*6*/ "  JOINT Chest", /*7*/ "  {", /*8*/ "    OFFSET 0 2 0",
      /*9*/ "    CHANNELS 3 Zrotation Xrotation Yrotation", /*10*/ "    End Site", /*11*/ "    {",
      /*12*/ "      OFFSET 0 1 0", /*13*/ "    }", /*14*/ "  }", /*15*/ "}", /*16*/ "MOTION",
      /*17*/ "Frames: 2", /*18*/ "Frame Time: 0.5", /*19*/ "0 1 0 0 0 0 10 20 30",
      /*20*/ "1 1 0 0 0 0 0 0 90"};
  auto join = [](const std::vector<std::string>& ls) {
    std::string s;
    for (const std::string& l : ls) s += l + "\r\n";
    return s;
  };
  REQUIRE(io::parse_bvh(join(lines), "ok.bvh").ok());
  auto edited = [&](int line, const std::string& replacement) {
    std::vector<std::string> ls = lines;
    ls[static_cast<size_t>(line - 1)] = replacement;
    return ls;
  };
  struct Case {
    std::vector<std::string> text;
    int line;
    const char* reason;
  };
  std::vector<Case> cases = {
      {edited(5, "  CHANNELS 7 Xposition Yposition Zposition Zrotation Yrotation Xrotation Xrotation"), 5, "channel count"},
      {edited(9, "    CHANNELS 3 Zrotation Xrotation Wrotation"), 9, "unknown channel 'Wrotation'"},
      {edited(9, "    CHANNELS 4 Zrotation Xrotation Yrotation"), 10, "declares 4 channels but lists only 3"},
      {edited(9, "    CHANNELS 2 Zrotation Xrotation Yrotation"), 9, "lists more"},
      {edited(9, "    CHANNELS 3 Zrotation Zrotation Yrotation"), 9, "repeated"},
      {edited(9, "    CHANNELS x Zrotation Xrotation Yrotation"), 9, "expected channel count"},
      {edited(17, "Frames: 3"), 20, "truncated motion"},
      {edited(20, "1 1 0 0 0 0 0 0"), 20, "has 8 values, expected 9"},
      {edited(20, "1 1 0 0 0 0 0 0 90 4"), 20, "more than 9 values"},
      {edited(19, "0 1 0 abc 0 0 10 20 30"), 19, "found 'abc'"},
      {edited(19, "0 1 0 0 0 0 10 20 30x"), 19, "found '30x'"},
      {edited(20, "1 1 0 0 0 nan 0 0 90"), 20, "not finite"},
      {edited(20, "1 1 0 0 0 0 -inf 0 90"), 20, "not finite"},
      {edited(8, "    OFFSET 0 inf 0"), 8, "not finite"},
      {edited(8, "    OFFSET 0 2"), 9, "expected OFFSET value"},
      {edited(15, ""), 16, "missing its closing '}'"},
      {edited(3, ""), 4, "expected '{'"},
      {edited(17, "Frames: 0"), 17, "frame count"},
      {edited(17, "Frames: 99999999"), 20, "truncated motion: 99999999 frames declared but only 2 present"},
      {edited(17, "Frames: 1.5"), 17, "frame count"},
      {edited(18, "Frame Time: 0"), 18, "frame time must be positive"},
      {edited(18, "Frame Time: -0.1"), 18, "frame time must be positive"},
      {edited(6, "  JOINT Hips"), 6, "duplicate joint name 'Hips'"},
      {edited(10, "    Wiggle"), 10, "unexpected 'Wiggle'"},
      {edited(1, "HIERARCH"), 1, "expected 'HIERARCHY'"},
  };
  {
    std::vector<std::string> ls = lines;
    ls.push_back("2 2 2 2 2 2 2 2 2");
    cases.push_back({ls, 21, "surplus motion data"});
  }
  {
    std::vector<std::string> ls(lines.begin(), lines.begin() + 16);  // ends at MOTION
    cases.push_back({ls, 16, "expected 'Frames:'"});
  }
  for (const Case& c : cases) {
    const std::string text = join(c.text);
    Result<io::BvhFile> r = io::parse_bvh(text, "broken.bvh");
    INFO("expected line " << c.line << ": " << c.reason);
    REQUIRE_FALSE(r.ok());
    INFO("got: " << r.message());
    CHECK_THAT(r.message(), Catch::StartsWith("broken.bvh:" + std::to_string(c.line) + ": "));
    CHECK_THAT(r.message(), Catch::Contains(c.reason));
  }
  CHECK_FALSE(io::parse_bvh("", "empty.bvh").ok());
  Result<io::BvhFile> missing = io::load_bvh(kDir + "no_such_file.bvh");
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.message(), Catch::Contains("no_such_file.bvh"));
}

TEST_CASE("BVH without any channels has a skeleton and empty tracks", "[io][bvh]") {
  const std::string text =
      "HIERARCHY\nROOT A\n{\n OFFSET 0 0 0\n JOINT B\n {\n  OFFSET 0 3 0\n }\n}\nMOTION\nFrames: 3\nFrame Time: 0.1\n";
  Result<io::BvhFile> r = io::parse_bvh(text, "static.bvh");
  REQUIRE(r.ok());
  CHECK(r.value().skeleton.joint_count() == 2);
  CHECK(r.value().clip.tracks[1].rotations.empty());
  CHECK(r.value().clip.duration == Approx(0.2f));
  Result<ClipBinding> b = build_clip_binding(r.value().clip, r.value().skeleton);
  REQUIRE(b.ok());
  std::vector<Transform> local(2);
  std::vector<float> cov(2, 1.0f);
  sample_clip(r.value().clip, b.value(), 0.1f, WrapMode::kLoop, local, cov);
  CHECK(cov == std::vector<float>{0.0f, 0.0f});
  CHECK(local[1].position == glm::vec3(0, 3, 0));
  CHECK_FALSE(io::parse_bvh(text + "1 2 3\n", "static.bvh").ok());  // surplus data
}

TEST_CASE("BVH units: CMU to studs constant", "[io][bvh]") {
  // 1 CMU unit = 0.056444 m (CMU FAQ), 1 stud = 0.28 m.
  CHECK(io::kCmuUnitsToStuds == Approx(0.056444 / 0.28));
  CHECK(io::kCmuUnitsToStuds == Approx(0.2016).margin(1e-4));
}

TEST_CASE("sampling an imported BVH clip allocates nothing", "[io][bvh][alloc]") {
  const io::BvhFile bvh = load(k4904);
  Result<ClipBinding> b = build_clip_binding(bvh.clip, bvh.skeleton);
  REQUIRE(b.ok());
  std::vector<Transform> local(31);
  std::vector<float> cov(31);
  asterune::test::AllocationScope scope;
  for (int k = 0; k < 100; ++k)
    sample_clip(bvh.clip, b.value(), static_cast<float>(k) * 0.037f, WrapMode::kLoop, local, cov);
  CHECK(scope.count() == 0);
}
