// Per-key easing (rule P5): every PoseEasingStyle and PoseEasingDirection at t = 0.25, 0.5, 0.75
// against the documented curves written out again here (docs/clips.md "Easing": TweenService's
// curves, Roblox's Pose directions reversed from TweenService's, legacy Cubic reversed again),
// computed in double; one value Roblox printed (TweenService:GetValue(0.5, Bounce, In) =
// 0.234375); and sampling a clip whose keys carry easing, with the START key's easing per segment.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/easing.hpp"
#include "asterune/clip/sample.hpp"
#include "support/alloc_counter.hpp"
#include "support/math.hpp"

using namespace asterune;

namespace {

constexpr double kPiD = 3.14159265358979323846;

// easings.net's formulas, as TweenService's EasingDirection names them.
double tw_cubic_in(double t) { return t * t * t; }
double tw_cubic_out(double t) { return 1.0 - std::pow(1.0 - t, 3.0); }
double tw_cubic_in_out(double t) { return t < 0.5 ? 4.0 * t * t * t : 1.0 - std::pow(-2.0 * t + 2.0, 3.0) / 2.0; }
double tw_elastic_in(double t) {
  return -std::pow(2.0, 10.0 * t - 10.0) * std::sin((t * 10.0 - 10.75) * (2.0 * kPiD) / 3.0);
}
double tw_elastic_out(double t) {
  return std::pow(2.0, -10.0 * t) * std::sin((t * 10.0 - 0.75) * (2.0 * kPiD) / 3.0) + 1.0;
}
double tw_elastic_in_out(double t) {
  const double c5 = (2.0 * kPiD) / 4.5;
  return t < 0.5 ? -(std::pow(2.0, 20.0 * t - 10.0) * std::sin((20.0 * t - 11.125) * c5)) / 2.0
                 : (std::pow(2.0, -20.0 * t + 10.0) * std::sin((20.0 * t - 11.125) * c5)) / 2.0 + 1.0;
}
double tw_bounce_out(double x) {
  const double n1 = 7.5625, d1 = 2.75;
  if (x < 1.0 / d1) return n1 * x * x;
  if (x < 2.0 / d1) return n1 * (x - 1.5 / d1) * (x - 1.5 / d1) + 0.75;
  if (x < 2.5 / d1) return n1 * (x - 2.25 / d1) * (x - 2.25 / d1) + 0.9375;
  return n1 * (x - 2.625 / d1) * (x - 2.625 / d1) + 0.984375;
}
double tw_bounce_in(double t) { return 1.0 - tw_bounce_out(1.0 - t); }
double tw_bounce_in_out(double t) {
  return t < 0.5 ? (1.0 - tw_bounce_out(1.0 - 2.0 * t)) / 2.0 : (1.0 + tw_bounce_out(2.0 * t - 1.0)) / 2.0;
}

struct Expect {
  EasingStyle style;
  EasingDirection direction;
  double (*curve)(double);
  const char* what;
};

double linear(double t) { return t; }
double held(double) { return 0.0; }

}  // namespace

TEST_CASE("easing: every Pose style and direction at 0.25, 0.5, 0.75 follows the documented curve", "[clip][easing]") {
  using S = EasingStyle;
  using D = EasingDirection;
  // Pose Out = TweenService In, Pose In = TweenService Out, InOut = InOut; legacy Cubic the
  // other way round (Pose In = TweenService In).
  const std::vector<Expect> table = {
      {S::kLinear, D::kIn, linear, "Linear In"},
      {S::kLinear, D::kOut, linear, "Linear Out"},
      {S::kLinear, D::kInOut, linear, "Linear InOut"},
      {S::kConstant, D::kIn, held, "Constant In"},
      {S::kConstant, D::kOut, held, "Constant Out"},
      {S::kConstant, D::kInOut, held, "Constant InOut"},
      {S::kCubicV2, D::kOut, tw_cubic_in, "CubicV2 Out"},
      {S::kCubicV2, D::kIn, tw_cubic_out, "CubicV2 In"},
      {S::kCubicV2, D::kInOut, tw_cubic_in_out, "CubicV2 InOut"},
      {S::kCubic, D::kIn, tw_cubic_in, "Cubic In"},
      {S::kCubic, D::kOut, tw_cubic_out, "Cubic Out"},
      {S::kCubic, D::kInOut, tw_cubic_in_out, "Cubic InOut"},
      {S::kElastic, D::kOut, tw_elastic_in, "Elastic Out"},
      {S::kElastic, D::kIn, tw_elastic_out, "Elastic In"},
      {S::kElastic, D::kInOut, tw_elastic_in_out, "Elastic InOut"},
      {S::kBounce, D::kOut, tw_bounce_in, "Bounce Out"},
      {S::kBounce, D::kIn, tw_bounce_out, "Bounce In"},
      {S::kBounce, D::kInOut, tw_bounce_in_out, "Bounce InOut"},
  };
  for (const Expect& e : table) {
    for (double t : {0.25, 0.5, 0.75}) {
      INFO(e.what << " at " << t);
      CHECK(ease(KeyEasing{e.style, e.direction}, static_cast<float>(t)) == Approx(e.curve(t)).margin(2e-6));
    }
    // The ends: every style but Constant reaches the next key at 1.
    CHECK(ease(KeyEasing{e.style, e.direction}, 0.0f) == 0.0f);
    if (e.style != S::kConstant) CHECK(ease(KeyEasing{e.style, e.direction}, 1.0f) == Approx(1.0).margin(1e-6));
  }
  // Hand values: Cubic In form at 0.5 is 1/8, Out form 7/8; Roblox printed
  // TweenService:GetValue(0.5, Enum.EasingStyle.Bounce, Enum.EasingDirection.In) = 0.234375,
  // which is PoseEasingDirection.Out.
  CHECK(ease(KeyEasing{S::kCubicV2, D::kOut}, 0.5f) == Approx(0.125).margin(1e-7));
  CHECK(ease(KeyEasing{S::kCubicV2, D::kIn}, 0.5f) == Approx(0.875).margin(1e-7));
  CHECK(ease(KeyEasing{S::kBounce, D::kOut}, 0.5f) == Approx(0.234375).margin(1e-7));
  // Elastic leaves [0, 1]: Pose In (TweenService Out) at 0.1 is 1 + 2^-1 sin(0.25 * 2 pi / 3) = 1.25.
  CHECK(ease(KeyEasing{S::kElastic, D::kIn}, 0.1f) == Approx(1.25).margin(1e-6));
  // Outside [0, 1] and NaN are clamped.
  CHECK(ease(KeyEasing{S::kCubicV2, D::kOut}, 2.0f) == Approx(1.0f));
  CHECK(ease(KeyEasing{S::kCubicV2, D::kOut}, std::nanf("")) == 0.0f);
}

namespace {

// One track "J": translation (0,0,0) -> (1,0,0) -> (1,1,0) and rotation identity -> 90 deg
// about Z -> 90 deg about Z at t = 0, 1, 2.
Clip eased_clip(std::vector<KeyEasing> easing) {
  Clip clip;
  clip.name = "eased";
  clip.duration = 2.0f;
  ClipTrack t;
  t.name = "J";
  t.rotation_times = t.translation_times = {0.0f, 1.0f, 2.0f};
  const glm::quat z90 = glm::angleAxis(0.5f * test::kPi, glm::vec3(0, 0, 1));
  t.rotations = {glm::quat(1, 0, 0, 0), z90, z90};
  t.translations = {glm::vec3(0), glm::vec3(1, 0, 0), glm::vec3(1, 1, 0)};
  t.rotation_easing = easing;
  t.translation_easing = easing;
  clip.tracks.push_back(t);
  return clip;
}

float z_angle(const glm::quat& q) { return 2.0f * std::atan2(q.z, q.w); }

}  // namespace

TEST_CASE("easing: a sampled clip eases each segment by the key at its start", "[clip][easing]") {
  using S = EasingStyle;
  using D = EasingDirection;
  // Segment 0 eased CubicV2 Out (t^3), segment 1 Constant; the last key's easing is never used.
  const Clip clip = eased_clip({{S::kCubicV2, D::kOut}, {S::kConstant, D::kIn}, {S::kElastic, D::kIn}});
  REQUIRE(validate_clip(clip));
  auto binding = build_clip_binding_from_tracks(clip, std::vector<int>{0}, std::vector<Transform>{Transform::identity()});
  REQUIRE(binding);
  std::vector<Transform> local(1);
  std::vector<float> coverage(1);
  ClipCursor cursor = make_clip_cursor(binding.value());
  for (double t : {0.25, 0.5, 0.75}) {
    INFO("t = " << t);
    REQUIRE(sample_clip(clip, binding.value(), static_cast<float>(t), WrapMode::kClamp, local, coverage));
    const double e = t * t * t;
    CHECK(local[0].position.x == Approx(e).margin(1e-6));
    CHECK(z_angle(local[0].rotation) == Approx(0.5 * kPiD * e).margin(2e-4));
    // Segment 1 (Constant at its start) holds key 1 until t = 2.
    test::AllocationScope scope;
    REQUIRE(sample_clip(clip, binding.value(), static_cast<float>(1.0 + t), WrapMode::kClamp, cursor, local, coverage));
    CHECK(scope.count() == 0);
    CHECK(local[0].position == glm::vec3(1, 0, 0));
  }
  // Elastic overshoots the next key: Pose In at 0.1 gives 1.25 of the way, rotations too.
  // Each clip is sampled through its own binding: a binding plays the keys it was bound with.
  const auto bind = [](const Clip& c) {
    return build_clip_binding_from_tracks(c, std::vector<int>{0}, std::vector<Transform>{Transform::identity()}).value();
  };
  const Clip elastic = eased_clip({{S::kElastic, D::kIn}, {S::kLinear, D::kIn}, {S::kLinear, D::kIn}});
  REQUIRE(sample_clip(elastic, bind(elastic), 0.1f, WrapMode::kClamp, local, coverage));
  CHECK(local[0].position.x == Approx(1.25).margin(1e-5));
  CHECK(z_angle(local[0].rotation) == Approx(0.5 * kPiD * 1.25).margin(2e-4));
  // An all-Linear easing samples as the plain linear channel.
  const Clip lin = eased_clip(std::vector<KeyEasing>(3));
  Clip plain = lin;
  plain.tracks[0].rotation_easing.clear();
  plain.tracks[0].translation_easing.clear();
  std::vector<Transform> other(1);
  for (float t : {0.1f, 0.6f, 1.3f}) {
    sample_clip(lin, bind(lin), t, WrapMode::kClamp, local, coverage);
    sample_clip(plain, bind(plain), t, WrapMode::kClamp, other, coverage);
    CHECK(glm::length(local[0].position - other[0].position) < 1e-6f);
    CHECK(std::fabs(glm::dot(local[0].rotation, other[0].rotation)) > 1.0f - 1e-6f);
  }
}

TEST_CASE("easing: validate_clip checks the easing arrays", "[clip][easing]") {
  Clip clip = eased_clip({{EasingStyle::kBounce, EasingDirection::kOut}, {}});  // 2 easings, 3 keys
  auto s = validate_clip(clip);
  REQUIRE_FALSE(s);
  CHECK(s.message().find("rotation has 3 keys but 2 easings") != std::string::npos);
  clip = eased_clip(std::vector<KeyEasing>(3));
  clip.tracks[0].translation_interpolation = Interpolation::kStep;
  s = validate_clip(clip);
  REQUIRE_FALSE(s);
  CHECK(s.message().find("translation has per-key easing but is not linear") != std::string::npos);
  clip = eased_clip(std::vector<KeyEasing>(3));
  clip.tracks[0].rotation_easing[1].style = static_cast<EasingStyle>(9);
  s = validate_clip(clip);
  REQUIRE_FALSE(s);
  CHECK(s.message().find("rotation key 1 has an unknown easing style or direction") != std::string::npos);
}
