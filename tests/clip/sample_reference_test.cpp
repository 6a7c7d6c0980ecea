// Clip sampling against a second, plain formulation (rule P2): per track and per channel a
// std::upper_bound for the segment, the documented blend alpha = (t - t0) / (t1 - t0),
// nlerp_or_slerp for rotations, a + (b - a) * alpha for translations, the documented Hermite
// spline for kCubicSpline. The sampler shares segments between channels and tracks and
// normalizes quaternions in batches; none of that may change a single output bit, so the
// outputs are compared with std::memcmp, with and without a playback cursor.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/clip.hpp"
#include "asterune/clip/sample.hpp"
#include "support/alloc_counter.hpp"
#include "support/math.hpp"

using namespace asterune;

namespace {

struct RefSegment {
  size_t index = 0;
  float alpha = 0.0f;
};

// The documented segment: hold the first key at or before times[0], the last at or after
// times[n - 1], otherwise the key i with times[i] <= t < times[i + 1].
RefSegment ref_segment(const std::vector<float>& times, float t, Interpolation mode) {
  const size_t n = times.size();
  if (n < 2 || t <= times.front()) return {0, 0.0f};
  if (t >= times.back()) return {n - 1, 0.0f};
  const size_t i = static_cast<size_t>(std::upper_bound(times.begin(), times.end(), t) - times.begin()) - 1;
  if (mode == Interpolation::kStep) return {i, 0.0f};
  return {i, (t - times[i]) / (times[i + 1] - times[i])};
}

template <class V>
V ref_hermite(const V& v0, const V& b0, const V& v1, const V& a1, float dt, float s) {
  const float s2 = s * s, s3 = s2 * s;
  return (2.0f * s3 - 3.0f * s2 + 1.0f) * v0 + (s3 - 2.0f * s2 + s) * dt * b0 + (-2.0f * s3 + 3.0f * s2) * v1 +
         (s3 - s2) * dt * a1;
}

glm::vec4 v4(const glm::quat& q) { return glm::vec4(q.x, q.y, q.z, q.w); }

Transform ref_sample(const ClipTrack& tr, float t, Transform out) {
  if (!tr.rotations.empty()) {
    const RefSegment s = ref_segment(tr.rotation_times, t, tr.rotation_interpolation);
    const glm::quat& a = tr.rotations[s.index];
    out.rotation = a;
    if (s.alpha > 0.0f) {
      out.rotation = nlerp_or_slerp(a, tr.rotations[s.index + 1], s.alpha);
      if (tr.rotation_interpolation == Interpolation::kCubicSpline &&
          tr.rotation_in_tangents.size() == tr.rotations.size() &&
          tr.rotation_out_tangents.size() == tr.rotations.size()) {
        const glm::vec4 v = ref_hermite(v4(a), v4(tr.rotation_out_tangents[s.index]), v4(tr.rotations[s.index + 1]),
                                        v4(tr.rotation_in_tangents[s.index + 1]),
                                        tr.rotation_times[s.index + 1] - tr.rotation_times[s.index], s.alpha);
        if (auto q = normalized_rotation(glm::quat(v.w, v.x, v.y, v.z))) out.rotation = *q;
      }
    }
  }
  if (!tr.translations.empty()) {
    const RefSegment s = ref_segment(tr.translation_times, t, tr.translation_interpolation);
    const glm::vec3& a = tr.translations[s.index];
    out.position = a;
    if (s.alpha > 0.0f) {
      const glm::vec3& b = tr.translations[s.index + 1];
      if (tr.translation_interpolation == Interpolation::kCubicSpline &&
          tr.translation_in_tangents.size() == tr.translations.size() &&
          tr.translation_out_tangents.size() == tr.translations.size())
        out.position = ref_hermite(a, tr.translation_out_tangents[s.index], b, tr.translation_in_tangents[s.index + 1],
                                   tr.translation_times[s.index + 1] - tr.translation_times[s.index], s.alpha);
      else
        out.position = a + (b - a) * s.alpha;
    }
  }
  return out;
}

// Deterministic on every standard library (std:: distributions are not).
struct Lcg {
  std::uint32_t state;
  float next() {  // [0, 1)
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) * (1.0f / 16777216.0f);
  }
  float range(float lo, float hi) { return lo + (hi - lo) * next(); }
};

std::vector<float> grid(int keys, float duration) {
  std::vector<float> t;
  for (int k = 0; k < keys; ++k) t.push_back(duration * static_cast<float>(k) / static_cast<float>(keys - 1));
  return t;
}

// Rotation keys stepping `step_deg` (plus jitter) about a jittered axis; every third key
// negated when `flip` (same rotations, the shortest-arc path must take them).
std::vector<glm::quat> rotation_keys(Lcg& rng, size_t n, float step_deg, bool flip) {
  const glm::vec3 axis(rng.range(-1, 1), rng.range(-1, 1), 1.0f);
  std::vector<glm::quat> q;
  float angle = rng.range(-30, 30);
  for (size_t k = 0; k < n; ++k) {
    angle += step_deg * rng.range(0.5f, 1.0f) * (k % 8 < 4 ? 1.0f : -1.0f);
    glm::quat key = test::axis_angle_deg(angle, axis + glm::vec3(0.1f * rng.next(), 0.0f, 0.0f));
    if (flip && k % 3 == 2) key = -key;
    q.push_back(key);
  }
  return q;
}

std::vector<glm::vec3> vec3_keys(Lcg& rng, size_t n) {
  std::vector<glm::vec3> v;
  for (size_t k = 0; k < n; ++k) v.emplace_back(rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1));
  return v;
}

std::vector<glm::quat> tangents(Lcg& rng, size_t n) {
  std::vector<glm::quat> v;
  for (size_t k = 0; k < n; ++k) v.emplace_back(rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1));
  return v;
}

// One track of kind `kind` over a clip of `duration` seconds. The kinds cycle so that
// neighbouring joints share times, differ in one end time only, differ in key count or mode.
ClipTrack make_track(Lcg& rng, int kind, float duration) {
  const std::vector<float> g = grid(31, duration);
  ClipTrack tr;
  auto rot = [&](std::vector<float> times, float step, bool flip = false) {
    tr.rotations = rotation_keys(rng, times.size(), step, flip);
    tr.rotation_times = std::move(times);
  };
  auto pos = [&](std::vector<float> times) {
    tr.translations = vec3_keys(rng, times.size());
    tr.translation_times = std::move(times);
  };
  switch (kind % 16) {
    case 0:  // the benchmark's shape: both channels on the shared grid, nlerp steps
    case 1:
      rot(g, 8.0f);
      pos(g);
      break;
    case 2:  // keys wider than 20 degrees apart: slerp; with sign flips
      rot(g, 35.0f, true);
      pos(g);
      break;
    case 3:  // rotations only
      rot(g, 12.0f, true);
      break;
    case 4:  // translations only
      pos(g);
      break;
    case 5: {  // other times: uneven, with a repeated time inside
      std::vector<float> u = {0.0f, 0.07f, 0.2f, 0.2f, 0.45f, 0.5f, 0.81f, 0.9f};
      for (float& x : u) x *= duration;
      u.push_back(duration);
      rot(u, 15.0f);
      pos(u);
      break;
    }
    case 6: {  // the grid with its first key repeated at the second key's time: the same
      // segment ends as the grid from key 1 on, but t = d[0] holds key 0
      std::vector<float> d = g;
      d[0] = d[1];
      if (rng.next() < 0.5f) {
        rot(d, 8.0f);
        pos(g);
      } else {
        rot(g, 8.0f);
        pos(d);
      }
      break;
    }
    case 7: {  // the grid ending early (same interior times, fewer keys) and one ending late
      rot(std::vector<float>(g.begin(), g.begin() + 20), 8.0f);
      std::vector<float> late = g;
      late.back() = duration * 1.25f;
      pos(late);
      break;
    }
    case 8:  // step rotations on the shared grid, linear translations
      rot(g, 8.0f);
      tr.rotation_interpolation = Interpolation::kStep;
      pos(g);
      break;
    case 9:  // cubic spline with tangents on the shared grid, both channels
      rot(g, 8.0f);
      tr.rotation_interpolation = Interpolation::kCubicSpline;
      tr.rotation_in_tangents = tangents(rng, g.size());
      tr.rotation_out_tangents = tangents(rng, g.size());
      pos(g);
      tr.translation_interpolation = Interpolation::kCubicSpline;
      tr.translation_in_tangents = vec3_keys(rng, g.size());
      tr.translation_out_tangents = vec3_keys(rng, g.size());
      break;
    case 10:  // cubic spline rotations only, then step translations on the same grid
      rot(g, 8.0f);
      tr.rotation_interpolation = Interpolation::kCubicSpline;
      tr.rotation_in_tangents = tangents(rng, g.size());
      tr.rotation_out_tangents = tangents(rng, g.size());
      if (rng.next() < 0.5f) break;
      pos(g);
      tr.translation_interpolation = Interpolation::kStep;
      break;
    case 11:  // a single key each; a translation that starts and ends at one time
      rot({0.3f * duration}, 0.0f);
      pos({0.5f * duration, 0.5f * duration});
      break;
    case 12: {  // rotation on the grid, translation on the grid shifted by one key's time
      rot(g, 8.0f);
      std::vector<float> shifted = g;
      for (float& x : shifted) x = std::min(duration, x + duration / 30.0f);
      pos(shifted);
      break;
    }
    case 13: {  // a coarser grid (every other time of the shared one)
      std::vector<float> c;
      for (size_t k = 0; k < g.size(); k += 2) c.push_back(g[k]);
      rot(c, 18.0f);
      pos(c);
      break;
    }
    case 14:  // no keys at all: coverage 0, the default
      break;
    default:  // the shared grid again, keys straddling 20 degrees
      rot(g, 20.0f, true);
      pos(g);
      break;
  }
  return tr;
}

struct Fixture {
  Clip clip;
  ClipBinding binding;
  std::vector<Transform> defaults;
};

// `joints` joints; joint j is driven by track (j * 7) % tracks, or none for every fifth joint.
Fixture make_fixture(int joints, int first_kind, std::uint32_t seed, int kind_step = 1) {
  Fixture f;
  Lcg rng{seed};
  f.clip.name = "reference";
  f.clip.duration = 1.0f;
  const int tracks = std::max(1, joints - joints / 5);
  for (int k = 0; k < tracks; ++k) {
    f.clip.tracks.push_back(make_track(rng, first_kind + k * kind_step, f.clip.duration));
    f.clip.tracks.back().name = "t" + std::to_string(k);
  }
  std::vector<int> track_of(static_cast<size_t>(joints), -1);
  std::vector<bool> used(static_cast<size_t>(tracks), false);
  for (int j = 0; j < joints; ++j) {
    const int k = (j * 7) % tracks;
    if (j % 5 == 4 || used[static_cast<size_t>(k)]) continue;
    used[static_cast<size_t>(k)] = true;
    track_of[static_cast<size_t>(j)] = k;
  }
  for (int j = 0; j < joints; ++j)
    f.defaults.push_back(Transform{test::axis_angle_deg(static_cast<float>(j), {0, 1, 0}),
                                   glm::vec3(static_cast<float>(j), 0.5f, -1.0f)});
  Result<ClipBinding> b = build_clip_binding_from_tracks(f.clip, track_of, f.defaults);
  if (!b.ok()) FAIL(b.message());
  f.binding = std::move(b).value();
  return f;
}

std::vector<float> playback_times() {
  std::vector<float> times;
  for (int f = 0; f < 150; ++f) times.push_back(static_cast<float>(f) / 60.0f);  // forward, across the loop
  for (int f = 0; f < 70; ++f) times.push_back(1.1f - static_cast<float>(f) / 60.0f);  // backward
  for (float t : {0.731f, 0.05f, 0.9f, 1.0f / 30.0f, 2.0f / 30.0f, 0.0f, 1.0f, 0.5f, 0.2f, 0.45f, 3.7f, -0.4f,
                  1.24f, 0.999999f, 1e-7f, std::numeric_limits<float>::quiet_NaN(), 0.61f})
    times.push_back(t);  // jumps, exact key times, out of range, NaN
  for (int f = 0; f < 90; ++f) times.push_back(0.3f + static_cast<float>(f) / 240.0f);  // slow forward
  return times;
}

}  // namespace

TEST_CASE("sample_clip equals the plain per-track formulation bit for bit", "[clip][sample][cursor]") {
  // rule P2: the sampler's shortcuts (shared segments, batched normalization) change no bit.
  const std::vector<float> times = playback_times();
  for (int joints : {1, 3, 4, 6, 7, 13, 37, 61}) {
    for (int first_kind : {0, 5, 11}) {
      const Fixture f = make_fixture(joints, first_kind, 1234u + static_cast<std::uint32_t>(joints * 31 + first_kind));
      const size_t n = static_cast<size_t>(joints);
      ClipCursor cursor = make_clip_cursor(f.binding);
      std::vector<Transform> with(n), without(n), expected(n);
      std::vector<float> cov_with(n), cov_without(n), cov_expected(n);
      for (WrapMode wrap : {WrapMode::kLoop, WrapMode::kClamp}) {
        for (float time : times) {
          const float t = wrap_clip_time(time, f.clip.duration, wrap);
          for (size_t j = 0; j < n; ++j) {
            const int k = f.binding.track_of(static_cast<int>(j));
            const ClipTrack* tr = k >= 0 ? &f.clip.tracks[static_cast<size_t>(k)] : nullptr;
            const bool keyed = tr && !(tr->rotations.empty() && tr->translations.empty());
            expected[j] = tr ? ref_sample(*tr, t, f.defaults[j]) : f.defaults[j];
            cov_expected[j] = keyed ? 1.0f : 0.0f;
          }
          REQUIRE(sample_clip(f.clip, f.binding, time, wrap, cursor, with, cov_with));
          REQUIRE(sample_clip(f.clip, f.binding, time, wrap, without, cov_without));
          INFO("joints " << joints << ", first kind " << first_kind << ", time " << time);
          for (size_t j = 0; j < n; ++j) {
            INFO("joint " << j << " track " << f.binding.track_of(static_cast<int>(j)));
            REQUIRE(std::memcmp(&with[j], &expected[j], sizeof(Transform)) == 0);
            REQUIRE(std::memcmp(&without[j], &expected[j], sizeof(Transform)) == 0);
          }
          REQUIRE(cov_with == cov_expected);
          REQUIRE(cov_without == cov_expected);
        }
      }
      // The single-track entry point follows the same rules.
      for (const ClipTrack& tr : f.clip.tracks) {
        for (float t : {0.0f, 0.02f, 1.0f / 30.0f, 0.5f, 0.77f, 1.0f}) {
          const Transform got = sample_track(tr, t, f.defaults[0]);
          const Transform want = ref_sample(tr, t, f.defaults[0]);
          REQUIRE(std::memcmp(&got, &want, sizeof(Transform)) == 0);
        }
      }
    }
  }
}

TEST_CASE("sampling a large clip with a cursor allocates nothing", "[clip][sample][alloc]") {
  // rule RG1: the batched normalization works in a fixed stack buffer, also past its size.
  const Fixture f = make_fixture(150, 0, 99u);
  ClipCursor cursor = make_clip_cursor(f.binding);
  std::vector<Transform> local(150);
  std::vector<float> coverage(150);
  const std::vector<float> times = playback_times();
  test::AllocationScope scope;
  for (float t : times) {
    sample_clip(f.clip, f.binding, t, WrapMode::kLoop, cursor, local, coverage);
    sample_clip(f.clip, f.binding, t, WrapMode::kClamp, local, coverage);
  }
  CHECK(scope.count() == 0);
}

TEST_CASE("a cursor's key stream follows forward play, loops, reversals and a switch of binding bit for bit",
          "[clip][sample][cursor]") {
  // rule P2: the compiled key stream (applied record by record while time moves forward, set by
  // search when it goes back or jumps) gives the plain formulation's bits. One cursor serves two
  // bindings of the same size in turn: it must notice the other stream and not reuse its keys.
  const Fixture a = make_fixture(29, 0, 4321u), b = make_fixture(29, 0, 8765u);
  REQUIRE(a.binding.key_stream() != nullptr);
  ClipCursor cursor = make_clip_cursor(a.binding);
  std::vector<Transform> got(29), want(29);
  std::vector<float> cov(29);
  std::vector<float> times;
  for (int f = 0; f < 400; ++f) times.push_back(static_cast<float>(f) / 60.0f);  // six loops at 60 Hz
  for (int f = 0; f < 200; ++f) times.push_back(static_cast<float>(f) * 0.0137f);  // not on the key grid
  for (int f = 0; f < 60; ++f) times.push_back(2.0f - static_cast<float>(f) / 30.0f);  // backwards
  int compared = 0;
  for (size_t i = 0; i < times.size(); ++i) {
    const Fixture& f = (i / 97) % 2 == 0 ? a : b;  // switch the binding every 97 samples
    const float t = wrap_clip_time(times[i], f.clip.duration, WrapMode::kLoop);
    REQUIRE(sample_clip(f.clip, f.binding, times[i], WrapMode::kLoop, cursor, got, cov));
    for (size_t j = 0; j < 29; ++j) {
      const int k = f.binding.track_of(static_cast<int>(j));
      want[j] = k >= 0 ? ref_sample(f.clip.tracks[static_cast<size_t>(k)], t, f.defaults[j]) : f.defaults[j];
      INFO("sample " << i << " time " << times[i] << " joint " << j);
      REQUIRE(std::memcmp(&got[j], &want[j], sizeof(Transform)) == 0);
      ++compared;
    }
  }
  CHECK(compared == 29 * 660);
}

TEST_CASE("a key stream's groups keyed at the same times advance four lanes at once, bit for bit",
          "[clip][sample][cursor]") {
  // rule P2: when the four joints of a lane group key a channel at the same times (here every
  // track: both channels on one grid, as in BVH clips and the benchmark), that channel advances
  // by four-lane records; the result is still the plain formulation's. One cursor alternates
  // with a binding whose groups mostly advance lane by lane.
  const Fixture a = make_fixture(37, 0, 2468u, 16), b = make_fixture(37, 0, 1357u);
  REQUIRE(a.binding.key_stream() != nullptr);
  ClipCursor cursor = make_clip_cursor(a.binding);
  std::vector<Transform> got(37), want(37);
  std::vector<float> cov(37);
  std::vector<float> times;
  for (int f = 0; f < 300; ++f) times.push_back(static_cast<float>(f) / 60.0f);   // forward, loops
  for (int f = 0; f < 200; ++f) times.push_back(static_cast<float>(f) * 0.0071f);  // off the grid, slower
  for (int f = 0; f < 40; ++f) times.push_back(1.5f - static_cast<float>(f) / 30.0f);  // backwards
  for (float t : {0.0f, 1.0f / 30.0f, 0.5f, 0.9999f, 1.0f}) times.push_back(t);  // on keys, at the end
  int compared = 0;
  for (size_t i = 0; i < times.size(); ++i) {
    const Fixture& f = (i / 151) % 2 == 0 ? a : b;
    const float t = wrap_clip_time(times[i], f.clip.duration, WrapMode::kLoop);
    REQUIRE(sample_clip(f.clip, f.binding, times[i], WrapMode::kLoop, cursor, got, cov));
    for (size_t j = 0; j < 37; ++j) {
      const int k = f.binding.track_of(static_cast<int>(j));
      want[j] = k >= 0 ? ref_sample(f.clip.tracks[static_cast<size_t>(k)], t, f.defaults[j]) : f.defaults[j];
      INFO("sample " << i << " time " << times[i] << " joint " << j);
      REQUIRE(std::memcmp(&got[j], &want[j], sizeof(Transform)) == 0);
      ++compared;
    }
  }
  CHECK(compared == 37 * 545);
}

TEST_CASE("a cursor scrubbed by random seeks, then played forward and backward, gives the stateless bits",
          "[clip][sample][cursor]") {
  // rule P6: a jump right after a jump is sampled without the key stream and leaves its lanes
  // stale; the first short step forward resets them and streams again. Every sample must equal
  // the stateless sample and the plain formulation bit for bit, whatever the path: random seeks,
  // seeks that land a short step ahead (a stale cursor that must reset, not apply records onto
  // old lanes), forward and backward runs between them, and a second binding in turn.
  const Fixture a = make_fixture(37, 0, 2468u, 16), b = make_fixture(41, 0, 97531u);
  REQUIRE(a.binding.key_stream() != nullptr);
  REQUIRE(b.binding.key_stream() != nullptr);
  Lcg rng{777u};
  std::vector<float> times;
  for (int burst = 0; burst < 24; ++burst) {
    const int seeks = 1 + burst % 5;
    for (int k = 0; k < seeks; ++k) times.push_back(rng.range(-0.2f, 1.3f));  // random seeks
    const float start = times.back();
    const float step = (burst % 3 == 0 ? -1.0f : 1.0f) / (burst % 2 == 0 ? 60.0f : 240.0f);
    for (int f = 1; f <= 20; ++f) times.push_back(start + step * static_cast<float>(f));  // then a run
  }
  std::vector<Transform> got, stateless, want;
  std::vector<float> cov, cov_stateless;
  int scrubbed = 0, compared = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const Fixture& f = pass == 0 ? a : b;
    ClipCursor cursor = make_clip_cursor(f.binding);
    const size_t n = static_cast<size_t>(f.binding.joint_count());
    got.assign(n, Transform{});
    stateless.assign(n, Transform{});
    want.assign(n, Transform{});
    cov.assign(n, 0.0f);
    cov_stateless.assign(n, 0.0f);
    for (WrapMode wrap : {WrapMode::kLoop, WrapMode::kClamp}) {
      for (size_t i = 0; i < times.size(); ++i) {
        const float t = wrap_clip_time(times[i], f.clip.duration, wrap);
        REQUIRE(sample_clip(f.clip, f.binding, times[i], wrap, cursor, got, cov));
        REQUIRE(sample_clip(f.clip, f.binding, times[i], wrap, stateless, cov_stateless));
        if (cursor.stale) ++scrubbed;
        for (size_t j = 0; j < n; ++j) {
          const int k = f.binding.track_of(static_cast<int>(j));
          want[j] = k >= 0 ? ref_sample(f.clip.tracks[static_cast<size_t>(k)], t, f.defaults[j]) : f.defaults[j];
          INFO("pass " << pass << " sample " << i << " time " << times[i] << " joint " << j);
          REQUIRE(std::memcmp(&got[j], &stateless[j], sizeof(Transform)) == 0);
          REQUIRE(std::memcmp(&got[j], &want[j], sizeof(Transform)) == 0);
          ++compared;
        }
        REQUIRE(cov == cov_stateless);
      }
    }
  }
  // The scrub path ran (bursts of two or more seeks, backward runs: each step back is a jump),
  // and the forward runs (16 of the 24 bursts, 20 steps each) streamed again after their first.
  const int samples = 2 * 2 * static_cast<int>(times.size());
  CHECK(scrubbed > 40);
  CHECK(scrubbed < samples / 2);
  CHECK(compared == 2 * (37 + 41) * static_cast<int>(times.size()));
}

TEST_CASE("scrubbing through a cursor allocates nothing", "[clip][sample][alloc][cursor]") {
  // rules P6, RG1: the stateless path taken on a jump after a jump, and the reset after it.
  const Fixture f = make_fixture(61, 0, 4242u, 16);
  ClipCursor cursor = make_clip_cursor(f.binding);
  std::vector<Transform> local(61);
  std::vector<float> coverage(61);
  Lcg rng{5u};
  test::AllocationScope scope;
  for (int i = 0; i < 200; ++i) {
    const float t = i % 10 < 5 ? rng.next() : 0.5f + static_cast<float>(i % 10) / 60.0f;
    sample_clip(f.clip, f.binding, t, WrapMode::kLoop, cursor, local, coverage);
  }
  CHECK(scope.count() == 0);
}
