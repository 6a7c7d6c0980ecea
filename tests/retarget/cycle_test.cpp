// Cycles from raw capture (rules LO1-LO4) on a synthetic walker built here: it stands for S
// frames, walks K strides of P frames (legs swinging as sines, the hips travelling at v, turning
// at a constant rate), then stands again. Its contacts are given by construction: the left foot
// is down for the first 60% of its stride, the right foot half a stride later. So the answer is
// known by hand: the longest run of whole strides inside the steady walk is K - 1 strides, and
// the loop's end is its start turned and moved by exactly the travel of those strides.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "asterune/clip/sample.hpp"
#include "asterune/retarget/contacts.hpp"
#include "asterune/retarget/cycle.hpp"

using namespace asterune;

namespace {

constexpr int kStand = 30, kPeriod = 40, kStrides = 4;
constexpr int kFrames = kStand + kPeriod * kStrides + kStand + 1;
constexpr float kDt = 1.0f / 60.0f, kSpeed = 3.0f, kHips = 9.0f;

struct Walker {
  SourceSkeleton skeleton;
  Clip clip;
  FootContacts contacts;
};

float phase(int f) { return 2.0f * glm::pi<float>() * static_cast<float>(f - kStand) / kPeriod; }
bool walking(int f) { return f >= kStand && f < kStand + kPeriod * kStrides; }

// The hips' heading and position at frame f (turning at `turn` rad/s while walking).
float heading_at(int f, float turn) {
  const int walked = std::clamp(f - kStand, 0, kPeriod * kStrides);
  return turn * static_cast<float>(walked) * kDt;
}
glm::vec3 hips_at(int f, float turn) {
  const float psi = heading_at(f, turn);
  const float bob = walking(f) ? 0.2f * (std::cos(2.0f * phase(f)) - 1.0f) : 0.0f;
  const float walked = static_cast<float>(std::clamp(f - kStand, 0, kPeriod * kStrides)) * kDt;
  // Forward is +Z: d = (sin psi, 0, cos psi), integrated at speed v.
  const glm::vec3 ground = turn == 0.0f ? glm::vec3(0.0f, 0.0f, kSpeed * walked)
                                        : (kSpeed / turn) * glm::vec3(1.0f - std::cos(psi), 0.0f, std::sin(psi));
  return ground + glm::vec3(0.0f, kHips + bob, 0.0f);
}

Walker make_walker(float turn) {
  Walker w;
  SourceSkeleton& s = w.skeleton;
  s.name = "walker";
  s.joint_names = {"Hips", "LeftUpLeg", "LeftLeg", "LeftFoot", "RightUpLeg", "RightLeg", "RightFoot"};
  s.parents = {-1, 0, 1, 2, 0, 4, 5};
  s.rest_local = {Transform{glm::quat(1, 0, 0, 0), glm::vec3(0, kHips, 0)},
                  Transform{glm::quat(1, 0, 0, 0), glm::vec3(1, 0, 0)},  Transform{glm::quat(1, 0, 0, 0), glm::vec3(0, -4, 0)},
                  Transform{glm::quat(1, 0, 0, 0), glm::vec3(0, -4, 0)}, Transform{glm::quat(1, 0, 0, 0), glm::vec3(-1, 0, 0)},
                  Transform{glm::quat(1, 0, 0, 0), glm::vec3(0, -4, 0)}, Transform{glm::quat(1, 0, 0, 0), glm::vec3(0, -4, 0)}};
  s.end_sites.assign(7, glm::vec3(0.0f));
  w.clip.name = "walker";
  w.clip.duration = static_cast<float>(kFrames - 1) * kDt;
  w.clip.tracks.resize(7);
  for (size_t j = 0; j < 7; ++j) w.clip.tracks[j].name = s.joint_names[j];
  const glm::vec3 x(1, 0, 0), y(0, 1, 0);
  for (int f = 0; f < kFrames; ++f) {
    const float t = static_cast<float>(f) * kDt, ph = walking(f) ? phase(f) : 0.0f;
    const float swing[2] = {0.5f * std::sin(ph), 0.5f * std::sin(ph + glm::pi<float>())};
    const float knee[2] = {0.6f * std::max(0.0f, std::sin(ph - 1.0f)), 0.6f * std::max(0.0f, std::sin(ph + glm::pi<float>() - 1.0f))};
    const glm::quat rot[7] = {glm::angleAxis(heading_at(f, turn), y) * glm::angleAxis(walking(f) ? 0.05f * std::sin(2.0f * ph) : 0.0f, x),
                              glm::angleAxis(swing[0], x), glm::angleAxis(knee[0], x), glm::angleAxis(-0.3f * knee[0], x),
                              glm::angleAxis(swing[1], x), glm::angleAxis(knee[1], x), glm::angleAxis(-0.3f * knee[1], x)};
    for (size_t j = 0; j < 7; ++j) {
      w.clip.tracks[j].rotation_times.push_back(t);
      w.clip.tracks[j].rotations.push_back(rot[j]);
    }
    w.clip.tracks[0].translation_times.push_back(t);
    w.clip.tracks[0].translations.push_back(hips_at(f, turn));
  }
  FootContacts& c = w.contacts;
  c.feet = {FootSpec{"LeftFoot", "Left", 3}, FootSpec{"RightFoot", "Right", 6}};
  c.dt = kDt;
  c.frame_count = kFrames;
  c.leg_length = 8.0f;
  c.contact.assign(static_cast<size_t>(kFrames) * 2, 1);  // standing: both feet down
  for (int f = kStand; f < kStand + kPeriod * kStrides; ++f) {
    const int left = (f - kStand) % kPeriod, right = (f - kStand + kPeriod / 2) % kPeriod;
    c.contact[static_cast<size_t>(f) * 2] = left < kPeriod * 6 / 10;
    c.contact[static_cast<size_t>(f) * 2 + 1] = right < kPeriod * 6 / 10;
  }
  return w;
}

float angle(const glm::quat& a, const glm::quat& b) { return 2.0f * std::acos(std::min(1.0f, std::fabs(glm::dot(a, b)))); }

}  // namespace

TEST_CASE("the cycle of a synthetic walker is its steady strides, known by construction (rule LO1, LO2)", "[retarget][cycle]") {
  for (float turn : {0.0f, 0.4f}) {
    const Walker w = make_walker(turn);
    auto span = find_cycle(w.clip, w.skeleton, w.contacts);
    REQUIRE(span.ok());
    const CycleSpan& c = span.value();
    INFO(c.describe());
    // Contact starts while walking: right S + P/2 + k P (k = 0..K-1), left S + k P (k = 1..K-1)
    // and S + K P (the stop puts it down). Spans whose ends and their neighbours lie in the steady
    // walk match exactly: right from S + P/2 to S + P/2 + (K-1) P, or left from S + P to S + K P
    // moved back by at most the window (0.1 P = 4 frames) so the end stays before the stop.
    CHECK(c.strides == kStrides - 1);
    CHECK(c.last - c.first == kPeriod * (kStrides - 1));
    const int start = c.foot == "RightFoot" ? kStand + kPeriod / 2 : kStand + kPeriod;
    CHECK((c.foot == "RightFoot" || c.foot == "LeftFoot"));
    CHECK(std::abs(c.first - start) <= kPeriod / 10);
    CHECK(c.last + 1 < kStand + kPeriod * kStrides);
    CHECK(c.mismatch < 1e-5f);
    CHECK(c.dt == kDt);
  }
}

TEST_CASE("a cut cycle loops its pose and continues one cycle's travel and turn (rules LO3, LO4)", "[retarget][cycle]") {
  for (float turn : {0.0f, 0.4f}) {
    const Walker w = make_walker(turn);
    auto span = find_cycle(w.clip, w.skeleton, w.contacts);
    REQUIRE(span.ok());
    const CycleSpan& c = span.value();
    auto cut = cut_cycle(w.clip, w.skeleton, c, glm::vec3(0, 1, 0));
    REQUIRE(cut.ok());
    const Clip& loop = cut.value();
    REQUIRE(loop.duration == Approx(static_cast<float>(kPeriod * (kStrides - 1)) * kDt));
    const Transform none{};
    const Transform h0 = sample_track(loop.tracks[0], 0.0f, none), h1 = sample_track(loop.tracks[0], loop.duration, none);
    // By hand: the hips' travel and turn between frames a and b of the walker.
    const float dpsi = heading_at(c.last, turn) - heading_at(c.first, turn);
    CHECK(dpsi == Approx(turn * loop.duration).margin(1e-5));
    const glm::vec3 travel = hips_at(c.last, turn) - hips_at(c.first, turn);
    CHECK(glm::length(h1.position - h0.position - travel) < 1e-3f);
    CHECK(angle(h1.rotation, glm::angleAxis(dpsi, glm::vec3(0, 1, 0)) * h0.rotation) < 1e-3f);
    for (size_t j = 1; j < loop.tracks.size(); ++j)  // the legs: the end is the start
      CHECK(angle(sample_track(loop.tracks[j], 0.0f, none).rotation,
                  sample_track(loop.tracks[j], loop.duration, none).rotation) < 1e-3f);
    // Steady strides already loop: the blend changes nothing (offsets of a zero mismatch).
    const Transform mid = sample_track(loop.tracks[1], 0.5f * loop.duration, none);
    const float t_mid = c.start_time() + 0.5f * loop.duration;
    CHECK(angle(mid.rotation, sample_track(w.clip.tracks[1], t_mid, none).rotation) < 1e-4f);
  }
}

TEST_CASE("a seam that does not match is blended to meet halfway (rule LO3)", "[retarget][cycle]") {
  const Walker w = make_walker(0.0f);
  // A span from the start's first step (velocity from a stand) to a steady one: a mismatch.
  CycleSpan c;
  c.first = kStand + kPeriod / 2;
  c.last = kStand + kPeriod / 2 + kPeriod + 3;  // 3 frames off the period: the legs' poses differ
  c.dt = kDt;
  auto cut = cut_cycle(w.clip, w.skeleton, c, glm::vec3(0, 1, 0));
  REQUIRE(cut.ok());
  const Transform none{};
  const ClipTrack& leg = cut.value().tracks[1];
  const glm::quat qa = w.clip.tracks[1].rotations[static_cast<size_t>(c.first)];
  const glm::quat qb = w.clip.tracks[1].rotations[static_cast<size_t>(c.last)];
  const glm::quat q0 = sample_track(leg, 0.0f, none).rotation, q1 = sample_track(leg, cut.value().duration, none).rotation;
  CHECK(angle(q0, q1) < 1e-4f);                                   // the ends meet
  CHECK(angle(q0, glm::slerp(qa, qb, 0.5f)) < 1e-3f);             // halfway between a and b
  CHECK(angle(qa, qb) > 0.05f);                                   // and there was a gap to close
}

TEST_CASE("a clip without two contact starts of one foot has no cycle (rule LO1)", "[retarget][cycle]") {
  Walker w = make_walker(0.0f);
  FootContacts none = w.contacts;
  std::fill(none.contact.begin(), none.contact.end(), 1);  // always standing: no contact starts
  auto span = find_cycle(w.clip, w.skeleton, none);
  REQUIRE_FALSE(span.ok());
  CHECK(span.message() == "clip 'walker': cycle auto: no foot has two contact starts inside the clip (a cycle needs one "
                          "whole stride)");
  auto empty = find_cycle(w.clip, w.skeleton, FootContacts{});
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.message() == "clip 'walker': cycle auto: the clip has no foot contacts to cut strides from");
  CycleSpan outside;
  outside.first = 10;
  outside.last = kFrames + 50;
  outside.dt = kDt;
  auto cut = cut_cycle(w.clip, w.skeleton, outside, glm::vec3(0, 1, 0));
  REQUIRE_FALSE(cut.ok());
  CHECK(cut.message() == "clip 'walker': cycle auto: the span is not a loop of at least 4 frames inside the clip");
}
