// The blending job (rules BL1-BL4) against hand-derived blends and against a second formulation
// of the formula in double (weighted sums of sign-aligned quaternions, normalised; positions
// weighted; the additive layers as nlerp from the identity), over random poses and weights with
// per-joint weights, additive layers and the rest fallback. Every output rotation is checked for
// unit length.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "asterune/anim/blending_job.hpp"
#include "support/alloc_counter.hpp"
#include "support/math.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

const glm::vec3 kXAxis(1.0f, 0.0f, 0.0f);

struct DQuat {
  double w, x, y, z;
};
struct DVec {
  double x, y, z;
};
DQuat dq(const glm::quat& q) { return {q.w, q.x, q.y, q.z}; }
double ddot(const DQuat& a, const DQuat& b) { return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z; }
DQuat dnormalize(const DQuat& q) {
  const double l = std::sqrt(ddot(q, q));
  return {q.w / l, q.x / l, q.y / l, q.z / l};
}
DQuat dmul(const DQuat& a, const DQuat& b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}

// A plain copy of one layer (the test owns the storage; the job gets spans into it).
struct Layer {
  std::vector<Transform> pose;
  float weight = 1.0f;
  std::vector<float> joint_weights;  // empty: 1
};

struct RefOut {
  DQuat q;
  DVec p;
  double coverage;
};

bool usable(double e) { return e > 0.0 && e <= 1e15; }

// The formula of blending_job.hpp, joint by joint in double.
std::vector<RefOut> reference(const std::vector<Layer>& layers, const std::vector<Layer>& additive,
                              const std::vector<Transform>& rest_pose, const std::vector<float>& rest_weights,
                              size_t n) {
  std::vector<RefOut> out(n);
  for (size_t j = 0; j < n; ++j) {
    const Transform rest = rest_pose.empty() ? Transform::identity() : rest_pose[j];
    DQuat acc{0, 0, 0, 0}, ref = dq(rest.rotation);
    DVec p{0, 0, 0};
    double w_sum = 0.0;
    int count = 0;
    const Layer* single = nullptr;
    for (const Layer& l : layers) {
      const double e = static_cast<double>(l.weight) * (l.joint_weights.empty() ? 1.0 : l.joint_weights[j]);
      if (!usable(e)) continue;
      const DQuat q = dq(l.pose[j].rotation);
      if (count++ == 0) ref = q;
      single = &l;
      const double s = ddot(ref, q) < 0.0 ? -e : e;
      acc = {acc.w + s * q.w, acc.x + s * q.x, acc.y + s * q.y, acc.z + s * q.z};
      p = {p.x + e * l.pose[j].position.x, p.y + e * l.pose[j].position.y, p.z + e * l.pose[j].position.z};
      w_sum += e;
    }
    RefOut& o = out[j];
    if (count == 0) {
      o = {dq(rest.rotation), {rest.position.x, rest.position.y, rest.position.z}, 0.0};
    } else if (count == 1 && w_sum == 1.0) {
      const Transform& t = single->pose[j];
      o = {dq(t.rotation), {t.position.x, t.position.y, t.position.z}, 1.0};
    } else {
      double r = rest_weights.empty() ? std::max(0.0, 1.0 - w_sum) : static_cast<double>(rest_weights[j]);
      if (!usable(r)) r = 0.0;
      const DQuat rq = dq(rest.rotation);
      const double s = ddot(ref, rq) < 0.0 ? -r : r;
      acc = {acc.w + s * rq.w, acc.x + s * rq.x, acc.y + s * rq.y, acc.z + s * rq.z};
      p = {p.x + r * rest.position.x, p.y + r * rest.position.y, p.z + r * rest.position.z};
      if (rest_weights.empty() && w_sum > 1.0) p = {p.x / w_sum, p.y / w_sum, p.z / w_sum};
      o = {dnormalize(acc), p, 1.0 - r};
    }
    for (const Layer& l : additive) {
      const double a = static_cast<double>(l.weight) * (l.joint_weights.empty() ? 1.0 : l.joint_weights[j]);
      if (a == 0.0 || !(std::fabs(a) <= 1e15)) continue;
      DQuat d = dq(l.pose[j].rotation);
      if (a < 0.0) d = {d.w, -d.x, -d.y, -d.z};
      if (d.w < 0.0) d = {-d.w, -d.x, -d.y, -d.z};
      const double b = std::fabs(a);
      const DQuat t = dnormalize({(1.0 - b) + b * d.w, b * d.x, b * d.y, b * d.z});
      o.q = dnormalize(dmul(t, o.q));
      const glm::vec3& pd = l.pose[j].position;
      o.p = {o.p.x + a * pd.x, o.p.y + a * pd.y, o.p.z + a * pd.z};
    }
  }
  return out;
}

struct Run {
  std::vector<BlendLayer> layers;
  std::vector<AdditiveLayer> additive;
  std::vector<Transform> output;
  std::vector<float> coverage;
  BlendingJob job;
};

// The job over test-owned layers; output and coverage sized n.
void make_job(Run& run, const std::vector<Layer>& layers, const std::vector<Layer>& additive,
              const std::vector<Transform>& rest_pose, const std::vector<float>& rest_weights, size_t n,
              BlendNormalize mode) {
  run.layers.clear();
  run.additive.clear();
  for (const Layer& l : layers) run.layers.push_back(BlendLayer{l.pose, l.weight, l.joint_weights});
  for (const Layer& l : additive) run.additive.push_back(AdditiveLayer{l.pose, l.weight, l.joint_weights});
  run.output.assign(n, Transform{glm::quat(0.5f, 0.5f, 0.5f, 0.5f), glm::vec3(9.0f)});
  run.coverage.assign(n, -1.0f);
  run.job = BlendingJob{};
  run.job.layers = run.layers;
  run.job.additive = run.additive;
  run.job.rest_pose = rest_pose;
  run.job.rest_weights = rest_weights;
  run.job.normalize = mode;
  run.job.output = run.output;
  run.job.coverage = run.coverage;
}

struct Lcg {
  std::uint32_t seed;
  float next() {  // [0, 1), the same on every standard library
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) * (1.0f / 16777216.0f);
  }
  float range(float lo, float hi) { return lo + (hi - lo) * next(); }
  glm::quat rotation() {
    const glm::vec3 axis(next() - 0.5f, next() - 0.5f, next() - 0.5f);
    const glm::quat q = glm::angleAxis(range(-3.1f, 3.1f), glm::normalize(axis + glm::vec3(0.01f, 0.0f, 0.0f)));
    return next() < 0.3f ? -q : q;  // either sign of the same rotation
  }
  Transform transform() { return {rotation(), glm::vec3(range(-2, 2), range(-2, 2), range(-2, 2))}; }
};

// The same job with every pose four joints wide (rule BL5): the layers', deltas' and rest pose's
// blocks built by to_soa, the output read back by from_soa.
struct SoaRun {
  std::vector<std::vector<SoaTransform>> blocks;
  std::vector<SoaBlendLayer> layers;
  std::vector<SoaAdditiveLayer> additive;
  std::vector<SoaTransform> rest, out;
  std::vector<Transform> output;
  std::vector<float> coverage;
  SoaBlendingJob job;
};

std::span<const SoaTransform> soa_of(SoaRun& run, const std::vector<Transform>& pose) {
  std::vector<SoaTransform> b(soa_block_count(pose.size()));
  REQUIRE(to_soa(pose, b));
  run.blocks.push_back(std::move(b));
  return run.blocks.back();
}

void make_soa_job(SoaRun& run, const std::vector<Layer>& layers, const std::vector<Layer>& additive,
                  const std::vector<Transform>& rest_pose, const std::vector<float>& rest_weights, size_t n,
                  BlendNormalize mode) {
  run.blocks.reserve(layers.size() + additive.size() + 1);
  for (const Layer& l : layers) run.layers.push_back(SoaBlendLayer{soa_of(run, l.pose), l.weight, l.joint_weights});
  for (const Layer& l : additive)
    run.additive.push_back(SoaAdditiveLayer{soa_of(run, l.pose), l.weight, l.joint_weights});
  if (!rest_pose.empty()) {
    const std::span<const SoaTransform> r = soa_of(run, rest_pose);
    run.rest.assign(r.begin(), r.end());
  }
  run.out.assign(soa_block_count(n), SoaTransform{});
  run.output.assign(n, Transform{});
  run.coverage.assign(n, -1.0f);
  run.job.joint_count = n;
  run.job.layers = run.layers;
  run.job.additive = run.additive;
  run.job.rest_pose = run.rest;
  run.job.rest_weights = rest_weights;
  run.job.normalize = mode;
  run.job.output = run.out;
  run.job.coverage = run.coverage;
}

double unit_error(const glm::quat& q) {
  return std::fabs(std::sqrt(static_cast<double>(q.w) * q.w + static_cast<double>(q.x) * q.x +
                             static_cast<double>(q.y) * q.y + static_cast<double>(q.z) * q.z) -
                   1.0);
}

}  // namespace

TEST_CASE("blend: two layers 50/50 give the mean angle; a lone half weight meets the rest pose halfway (rule BL1)",
          "[anim][blend]") {
  // Hand-derived: q(40 deg) and q(-20 deg) about X at equal weights sum to a quaternion of angle
  // 10 deg (the symmetric nlerp); q(40) at 0.5 with the identity at 0.5 gives 20 deg.
  for (BlendNormalize mode : {BlendNormalize::kFast, BlendNormalize::kExact}) {
    const std::vector<Layer> layers = {
        {{Transform{axis_angle_deg(40.0f, kXAxis), glm::vec3(1, 0, 0)}}, 0.5f, {}},
        {{Transform{-axis_angle_deg(-20.0f, kXAxis), glm::vec3(0, 1, 0)}}, 0.5f, {}},  // stored as -q
    };
    Run run;
    make_job(run, layers, {}, {}, {}, 1, mode);
    REQUIRE(blend_poses(run.job));
    CHECK(glm::degrees(glm::angle(run.output[0].rotation)) == Approx(10.0f).margin(1e-3));
    CHECK(run.output[0].rotation.x > 0.0f);
    CHECK(run.output[0].position.x == Approx(0.5f).margin(1e-6));
    CHECK(run.output[0].position.y == Approx(0.5f).margin(1e-6));
    CHECK(run.coverage[0] == Approx(1.0f).margin(1e-6));

    const std::vector<Layer> half = {{{Transform{axis_angle_deg(40.0f, kXAxis), glm::vec3(2, 0, 0)}}, 0.5f, {}}};
    make_job(run, half, {}, {}, {}, 1, mode);
    REQUIRE(blend_poses(run.job));
    CHECK(glm::degrees(glm::angle(run.output[0].rotation)) == Approx(20.0f).margin(1e-3));
    CHECK(run.output[0].position.x == Approx(1.0f).margin(1e-6));  // the rest pose adds 0.5 * 0
    CHECK(run.coverage[0] == Approx(0.5f).margin(1e-6));

    // A bind pose as the fallback: 0.5 (p = 2) + 0.5 (p = 4) = 3; the rotations 40 and 0 deg.
    const std::vector<Transform> bind = {Transform{glm::quat(1, 0, 0, 0), glm::vec3(4, 0, 0)}};
    make_job(run, half, {}, bind, {}, 1, mode);
    REQUIRE(blend_poses(run.job));
    CHECK(run.output[0].position.x == Approx(3.0f).margin(1e-6));
    CHECK(glm::degrees(glm::angle(run.output[0].rotation)) == Approx(20.0f).margin(1e-3));
  }
}

TEST_CASE("blend: weights summing past 1 are divided by their sum (rule BL1)", "[anim][blend]") {
  const std::vector<Layer> layers = {
      {{Transform{glm::quat(1, 0, 0, 0), glm::vec3(3, 0, 0)}}, 2.0f, {}},
      {{Transform{glm::quat(1, 0, 0, 0), glm::vec3(0, 3, 0)}}, 1.0f, {}},
  };
  Run run;
  make_job(run, layers, {}, {}, {}, 1, BlendNormalize::kFast);
  REQUIRE(blend_poses(run.job));
  CHECK(run.output[0].position.x == Approx(2.0f).margin(1e-5));
  CHECK(run.output[0].position.y == Approx(1.0f).margin(1e-5));
  CHECK(run.coverage[0] == 1.0f);
}

TEST_CASE("blend: no contribution gives the rest pose; one of weight exactly 1 its transform bit for bit (rule BL4)",
          "[anim][blend]") {
  Lcg rng{5u};
  const size_t n = 7;  // a full block of four and a tail of three
  std::vector<Transform> bind(n), pose(n);
  for (size_t j = 0; j < n; ++j) {
    bind[j] = rng.transform();
    pose[j] = rng.transform();
  }
  pose[1].rotation = glm::quat(-0.8f, -0.6f, -0.0f, -0.0f);  // -0 components survive the copy
  pose[1].position = glm::vec3(-0.0f, 1.0f, -0.0f);
  std::vector<float> jw = {1, 1, 0, 0, 1, 0, 1};
  for (BlendNormalize mode : {BlendNormalize::kFast, BlendNormalize::kExact}) {
    const std::vector<Layer> one = {Layer{pose, 1.0f, jw}};
    Run run;
    make_job(run, one, {}, bind, {}, n, mode);
    REQUIRE(blend_poses(run.job));
    for (size_t j = 0; j < n; ++j) {
      INFO("joint " << j);
      const Transform& want = jw[j] == 1.0f ? pose[j] : bind[j];
      CHECK(std::memcmp(&run.output[j], &want, sizeof(Transform)) == 0);
      CHECK(run.coverage[j] == jw[j]);
    }
  }
}

TEST_CASE("blend: the job is the double formulation over random poses, weights, masks, additive layers and rest",
          "[anim][blend]") {
  Lcg rng{2024u};
  int compared = 0;
  for (int round = 0; round < 300; ++round) {
    const size_t sizes[] = {1, 3, 4, 5, 8, 15, 60};
    const size_t n = sizes[round % 7];
    const int layer_count = round % 5;  // 0 to 4 layers
    std::vector<Layer> layers(static_cast<size_t>(layer_count)), additive(static_cast<size_t>(round % 3));
    const bool masks = round % 4 != 3;  // every fourth round none: each layer weighs every joint alike
    for (Layer& l : layers) {
      for (size_t j = 0; j < n; ++j) l.pose.push_back(rng.transform());
      const float pick = rng.next();
      l.weight = pick < 0.15f ? 1.0f : pick < 0.25f ? 0.0f : pick < 0.3f ? -0.5f : rng.range(0.0f, 1.5f);
      if (masks && rng.next() < 0.6f)  // mask x coverage: zeros, ones and fractions
        for (size_t j = 0; j < n; ++j) {
          const float m = rng.next();
          l.joint_weights.push_back(m < 0.2f ? 0.0f : m < 0.5f ? 1.0f : rng.next());
        }
    }
    for (Layer& l : additive) {
      for (size_t j = 0; j < n; ++j) {
        Transform d = rng.transform();
        d.rotation = glm::angleAxis(rng.range(-1.0f, 1.0f), glm::normalize(glm::vec3(rng.next(), 1.0f, rng.next())));
        l.pose.push_back(d);
      }
      l.weight = rng.range(-1.0f, 1.0f);
      if (rng.next() < 0.5f)
        for (size_t j = 0; j < n; ++j) l.joint_weights.push_back(rng.next() < 0.3f ? 0.0f : rng.next());
    }
    std::vector<Transform> bind;
    if (rng.next() < 0.5f)
      for (size_t j = 0; j < n; ++j) bind.push_back(rng.transform());
    std::vector<float> rest;
    if (rng.next() < 0.3f)
      for (size_t j = 0; j < n; ++j) rest.push_back(rng.next() < 0.3f ? 0.0f : rng.next());
    const std::vector<RefOut> want = reference(layers, additive, bind, rest, n);
    for (BlendNormalize mode : {BlendNormalize::kFast, BlendNormalize::kExact}) {
      Run run;
      make_job(run, layers, additive, bind, rest, n, mode);
      REQUIRE(blend_poses(run.job));
      INFO("round " << round << ", n " << n << ", layers " << layer_count << ", additive " << additive.size());
      for (size_t j = 0; j < n; ++j) {
        INFO("joint " << j);
        const glm::quat& q = run.output[j].rotation;
        const RefOut& r = want[j];
        CHECK(unit_error(q) < 1e-6);
        CHECK(q.w == Approx(r.q.w).margin(2e-5));
        CHECK(q.x == Approx(r.q.x).margin(2e-5));
        CHECK(q.y == Approx(r.q.y).margin(2e-5));
        CHECK(q.z == Approx(r.q.z).margin(2e-5));
        CHECK(run.output[j].position.x == Approx(r.p.x).margin(2e-5));
        CHECK(run.output[j].position.y == Approx(r.p.y).margin(2e-5));
        CHECK(run.output[j].position.z == Approx(r.p.z).margin(2e-5));
        CHECK(run.coverage[j] == Approx(r.coverage).margin(1e-6));
        ++compared;
      }
      // Four joints wide (rule BL5): the reference again, and the bits of the per-joint job.
      SoaRun soa;
      make_soa_job(soa, layers, additive, bind, rest, n, mode);
      REQUIRE(blend_poses(soa.job));
      REQUIRE(from_soa(soa.out, soa.output));
      for (size_t j = 0; j < n; ++j) {
        INFO("four wide, joint " << j);
        const glm::quat& q = soa.output[j].rotation;
        CHECK(unit_error(q) < 1e-6);
        CHECK(q.w == Approx(want[j].q.w).margin(2e-5));
        CHECK(q.x == Approx(want[j].q.x).margin(2e-5));
        CHECK(soa.output[j].position.y == Approx(want[j].p.y).margin(2e-5));
        CHECK(soa.coverage[j] == Approx(want[j].coverage).margin(1e-6));
      }
      CHECK(std::memcmp(soa.output.data(), run.output.data(), n * sizeof(Transform)) == 0);
      CHECK(std::memcmp(soa.coverage.data(), run.coverage.data(), n * sizeof(float)) == 0);
    }
  }
  CHECK(compared > 2 * 300 * 10);
}

TEST_CASE("blend: to_soa and from_soa move transforms exactly, padding lanes the identity (rule BL5)",
          "[anim][blend]") {
  Lcg rng{5u};
  for (size_t n : {0u, 1u, 4u, 7u}) {
    std::vector<Transform> pose;
    for (size_t j = 0; j < n; ++j) pose.push_back(rng.transform());
    std::vector<SoaTransform> blocks(soa_block_count(n));
    REQUIRE(to_soa(pose, blocks));
    for (size_t j = 0; j < blocks.size() * 4; ++j) {
      const SoaTransform& b = blocks[j / 4];
      const size_t k = j % 4;
      const Transform want = j < n ? pose[j] : Transform::identity();
      CHECK(b.qx[k] == want.rotation.x);
      CHECK(b.qw[k] == want.rotation.w);
      CHECK(b.pz[k] == want.position.z);
    }
    std::vector<Transform> back(n);
    REQUIRE(from_soa(blocks, back));
    CHECK((n == 0 || std::memcmp(back.data(), pose.data(), n * sizeof(Transform)) == 0));  // no null to memcmp
  }
  std::vector<Transform> pose(5);
  std::vector<SoaTransform> one(1);
  CHECK_FALSE(to_soa(pose, one));
  CHECK_FALSE(from_soa(one, pose));
  // A four-wide job whose spans disagree with joint_count is refused (rule RG4).
  std::vector<SoaTransform> out(2);
  const SoaBlendLayer layer{one, 1.0f, {}};
  SoaBlendingJob job;
  job.joint_count = 5;
  job.layers = std::span<const SoaBlendLayer>(&layer, 1);
  job.output = out;
  CHECK_FALSE(blend_poses(job));
}

TEST_CASE("blend: fast normalisation keeps every rotation unit within 1e-6 (rule BL1)", "[anim][blend]") {
  Lcg rng{99u};
  const size_t n = 64;
  double worst = 0.0;
  for (int round = 0; round < 200; ++round) {
    std::vector<Layer> layers(1 + static_cast<size_t>(round % 8));
    for (Layer& l : layers) {
      for (size_t j = 0; j < n; ++j) l.pose.push_back(rng.transform());
      l.weight = rng.range(0.01f, 3.0f);
    }
    Run run;
    make_job(run, layers, {}, {}, {}, n, BlendNormalize::kFast);
    REQUIRE(blend_poses(run.job));
    for (const Transform& t : run.output) worst = std::max(worst, unit_error(t.rotation));
  }
  CHECK(worst < 1e-6);
}

TEST_CASE("blend: nonfinite, negative and absurd weights contribute nothing and never poison the pose (rule BL3)",
          "[anim][blend]") {
  Lcg rng{11u};
  const size_t n = 6;
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<Layer> good(2);
  for (Layer& l : good) {
    for (size_t j = 0; j < n; ++j) l.pose.push_back(rng.transform());
    l.weight = 0.4f;
  }
  std::vector<Layer> additive(1);
  for (size_t j = 0; j < n; ++j) additive[0].pose.push_back(rng.transform());
  additive[0].weight = 0.5f;
  Run clean;
  make_job(clean, good, additive, {}, {}, n, BlendNormalize::kFast);
  REQUIRE(blend_poses(clean.job));

  // The same blend with bad layers added in front (so a bad layer would be the sign reference)
  // and behind, and bad per-joint weights: the output is the clean blend bit for bit.
  std::vector<Transform> garbage(n, Transform{glm::quat(0.1f, 0.9f, -0.3f, 0.2f), glm::vec3(1e6f)});
  for (const float bad : {nan, inf, -inf, -1.0f, 0.0f, 1e30f}) {
    INFO("bad weight " << bad);
    std::vector<Layer> layers = {{garbage, bad, {}}, good[0], {garbage, 1.0f, std::vector<float>(n, bad)}, good[1]};
    std::vector<Layer> adds = {additive[0]};
    if (bad != -1.0f) adds.push_back(Layer{garbage, bad, {}});  // a negative additive weight subtracts (BL2)
    Run run;
    make_job(run, layers, adds, {}, {}, n, BlendNormalize::kFast);
    REQUIRE(blend_poses(run.job));
    CHECK(std::memcmp(run.output.data(), clean.output.data(), n * sizeof(Transform)) == 0);
    CHECK(std::memcmp(run.coverage.data(), clean.coverage.data(), n * sizeof(float)) == 0);
  }
  // A bad rest share counts as 0: only the layers' shares, renormalised by the rotation.
  const std::vector<float> rest = {nan, inf, -1.0f, 0.0f, 1e30f, 0.0f};
  Run run;
  make_job(run, good, {}, {}, rest, n, BlendNormalize::kExact);
  REQUIRE(blend_poses(run.job));
  for (size_t j = 0; j < n; ++j) {
    CHECK(is_finite(run.output[j].rotation));
    CHECK(unit_error(run.output[j].rotation) < 1e-6);
    CHECK(run.coverage[j] == 1.0f);
  }
}

TEST_CASE("blend: a span of the wrong size writes nothing and returns false (rule RG4)", "[anim][blend]") {
  const size_t n = 5;
  const std::vector<Transform> pose(n), short_pose(n - 1);
  const std::vector<float> w(n, 0.5f), short_w(n - 1, 0.5f);
  std::vector<Transform> out(n, Transform{glm::quat(0.5f, 0.5f, 0.5f, 0.5f), glm::vec3(7.0f)});
  std::vector<float> cov(n, -3.0f), short_cov(n + 1, -3.0f);
  const std::vector<Transform> out_before = out;
  const auto check_refused = [&](const BlendingJob& job) {
    CHECK_FALSE(blend_poses(job));
    CHECK(std::memcmp(out.data(), out_before.data(), n * sizeof(Transform)) == 0);
    for (const float c : cov) CHECK(c == -3.0f);
  };
  const BlendLayer good{pose, 1.0f, w};
  const BlendLayer bad_pose{short_pose, 1.0f, {}}, bad_weights{pose, 1.0f, short_w};
  const AdditiveLayer bad_delta{short_pose, 1.0f, {}}, bad_add_weights{pose, 1.0f, short_w};
  BlendingJob base;
  base.output = out;
  base.coverage = cov;
  for (const BlendLayer* l : {&bad_pose, &bad_weights}) {
    const BlendLayer layers[] = {good, *l};
    BlendingJob job = base;
    job.layers = layers;
    check_refused(job);
  }
  for (const AdditiveLayer* a : {&bad_delta, &bad_add_weights}) {
    BlendingJob job = base;
    job.additive = std::span<const AdditiveLayer>(a, 1);
    check_refused(job);
  }
  BlendingJob job = base;
  job.rest_pose = short_pose;
  check_refused(job);
  job = base;
  job.rest_weights = short_w;
  check_refused(job);
  job = base;
  job.coverage = short_cov;
  CHECK_FALSE(blend_poses(job));
  // n = 0 is a valid, empty blend.
  BlendingJob empty;
  CHECK(blend_poses(empty));
}

TEST_CASE("blend: a blend allocates nothing (rule RG1)", "[anim][blend]") {
  Lcg rng{3u};
  const size_t n = 61;
  std::vector<Layer> layers(4), additive(2);
  for (Layer& l : layers) {
    for (size_t j = 0; j < n; ++j) l.pose.push_back(rng.transform());
    l.weight = rng.range(0.1f, 1.0f);
    l.joint_weights.assign(n, 0.7f);
  }
  for (Layer& l : additive) {
    for (size_t j = 0; j < n; ++j) l.pose.push_back(rng.transform());
    l.weight = -0.3f;
  }
  for (BlendNormalize mode : {BlendNormalize::kFast, BlendNormalize::kExact}) {
    Run run;
    make_job(run, layers, additive, {}, {}, n, mode);
    {
      AllocationScope scope;
      REQUIRE(blend_poses(run.job));
      CHECK(scope.count() == 0);
    }
    SoaRun soa;
    make_soa_job(soa, layers, additive, {}, {}, n, mode);
    AllocationScope soa_scope;
    REQUIRE(blend_poses(soa.job));
    CHECK(soa_scope.count() == 0);
  }
}
