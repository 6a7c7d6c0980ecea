// Foot contacts of a source clip and the floor they stand on (rules RT16, RT17): the clip is
// sampled on its own frame grid into skeleton-space positions, each foot (the foot joint and
// everything below it, end sites included) is "in contact" while its lowest point is low and
// nearly still, with hysteresis, and the floor is the median height of those lowest points in
// the contact frames. Thresholds are fractions of the source leg length, so they hold for any
// unit. Setup-time code (allocates); docs/retarget.md "Floor and contacts".
#pragma once

#include <map>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/retarget/profile.hpp"
#include "asterune/rig/source_skeleton.hpp"

namespace asterune {

class Rig;

/// Contact thresholds, in source leg lengths L (hip to sole at rest, source units) and L per
/// second. A foot enters contact when its lowest point is within enter_height of the floor
/// (above or below) and moves slower than enter_speed; it stays in contact until the point is
/// farther than exit_height from it or moves faster than exit_speed (hysteresis: no flicker at
/// the thresholds).
struct ContactThresholds {
  float enter_height = 0.05f;
  float exit_height = 0.08f;
  float enter_speed = 0.3f;
  float exit_speed = 0.6f;
  float floor_percentile = 0.5f;  // floor = this quantile of the contact heights (0.5: median)
  /// Rule RT20, seconds: a lift this short between two contacts of one foot joins them, and a
  /// contact this short (not cut by the clip's ends) is dropped, so one foot-down is one contact.
  float merge_gap = 0.1f;
  float min_contact = 0.05f;
  /// Rule RT20, L per second: an in-place clip's ground moves at least this fast.
  float in_place_speed = 0.3f;
};

/// A clip sampled on a uniform grid into skeleton-space points (source units).
struct SampledSource {
  float dt = 0.0f;        // seconds between frames
  int frame_count = 0;
  int joint_count = 0;
  std::vector<glm::vec3> joint;     // [frame * joint_count + j]: joint j's position
  std::vector<glm::vec3> end_site;  // same layout: joint j's end site (its position when it has none)
};

/// Samples `clip` (bound to `source` by joint name) at t = k * dt, k = 0 .. round(duration/dt),
/// with dt = duration / (most keys on one channel - 1) (the clip's own frame rate; 1/30 s for
/// a clip with a single key) and forward kinematics from the full sampled locals.
/// Fails when the clip does not bind to the skeleton.
Result<SampledSource> sample_source(const Clip& clip, const SourceSkeleton& source);

/// One foot to watch: a label and the foot joint (its subtree is the foot).
struct FootSpec {
  std::string label;  // "LeftFoot" / "RightFoot": the key in the frames JSON and the table
  std::string side;   // "Left" / "Right": the Footstep marker's value
  int joint = -1;
};

/// One knot of a floor that varies over time (rule RT18): the floor's height (source units,
/// along the source up) at `time` (seconds).
struct FloorKey {
  float time = 0.0f;
  float height = 0.0f;
};

/// Rule RT18: the floor at `time`, piecewise linear through `keys` (ascending times), constant
/// before the first and after the last key. `fallback` when there are no keys.
float floor_at(const std::vector<FloorKey>& keys, float time, float fallback);

/// One contact: frames [first, last] (inclusive) of foot `foot` in contact.
struct ContactSpan {
  size_t foot = 0;
  int first = 0;
  int last = 0;
};

struct FootContacts {
  std::vector<FootSpec> feet;
  float dt = 0.0f;
  int frame_count = 0;
  std::vector<unsigned char> contact;  // [frame * feet.size() + foot]: 1 while in contact
  bool has_floor = false;              // false: no feet, or they never touched (see note)
  float floor = 0.0f;                  // source units, along `up`, when has_floor
  float leg_length = 0.0f;             // L, source units
  glm::vec3 up{0.0f, 1.0f, 0.0f};      // the source up the heights are measured along
  std::string note;                    // why there is no floor (empty when has_floor)
  /// Rule RT20: the ground's velocity under an in-place clip (source units per second, across
  /// `up`; the stance foot slides back at it), zero when the body travels over a still floor.
  glm::vec3 ground_velocity{0.0f};
  bool in_place() const { return ground_velocity != glm::vec3(0.0f); }
  /// Rule RT18: the floor over time, one key per contact (its middle time, the median height of
  /// the foot's lowest point over the contact); empty when there is no floor. After
  /// io::resolve_scene_floor(), the target-fitted keys (fit_floor_keys_to_target) instead.
  std::vector<FloorKey> floor_keys;

  /// The contacts as spans, in order of start frame (ties: the feet's order).
  std::vector<ContactSpan> spans() const;

  /// Contact state of `foot` at `time` (the nearest sampled frame; clamped to the clip).
  bool in_contact(size_t foot, float time) const;
};

/// Rule RT16. Contacts and floor from sampled points, for the feet given (joint indices into
/// `source`), with `up` the source's up direction (unit) and `leg_length` L > 0 in source units.
/// Per frame and foot: h = height of the foot's lowest point (joints and end sites of the foot
/// joint's subtree) along `up`; v = the smallest speed of those points (central differences,
/// one-sided at the ends) relative to the ground's velocity, so a foot rolling over its toe
/// still counts as still. Rule RT20: the ground's velocity is zero unless the clip is in place:
/// the median horizontal velocity g of the lowest foot point over the frames exceeds
/// in_place_speed L while the root's average horizontal travel (first to last frame) is below
/// |g| / 2; then it is g (the stance foot slides back at it). First guess of
/// the floor f0 = the 5th percentile of h over all frames and feet; candidates: h <= f0 +
/// enter_height L and v <= enter_speed L; floor = the floor_percentile of the candidates' h;
/// then the contact states with hysteresis against that floor (|h - floor| within the band),
/// lifts shorter than merge_gap joined and contacts shorter than min_contact (not at the clip's
/// ends) dropped (rule RT20). No feet, or no candidate frame:
/// has_floor false, no contact, and a note.
FootContacts detect_foot_contacts(const SampledSource& samples, const SourceSkeleton& source,
                                  const std::vector<FootSpec>& feet, const glm::vec3& up, float leg_length,
                                  const ContactThresholds& thresholds = {});

/// detect_foot_contacts() for a humanoid source: the feet are the skeleton's left_foot and
/// right_foot roles as the retarget finds them (source_roles(): names, then the structure, then
/// `overrides`; rule RT20), up = facing^-1 * +Y (the profile's facing), L = the rest
/// height of the upper legs (hips when there are none) above the lowest point of the feet.
/// No recognisable foot gives has_floor false and a note; fails only when the clip does not
/// bind to the skeleton.
/// Fails also on a bad override (as source_roles()).
Result<FootContacts> find_foot_contacts(const Clip& clip, const SourceSkeleton& source, const glm::quat& facing,
                                        const ContactThresholds& thresholds = {},
                                        const std::map<std::string, std::string>& overrides = {});

/// Rule RT16, the target side: the floor (source units) that puts the target's contacting soles
/// on its ground. Retargets every contact frame through `profile` (its floor set, e.g. to
/// contacts.floor) onto `rig` and measures the sole of the target foot with the same role as the
/// contacting source foot (left_foot / right_foot; a leg without a foot, R6: its lowest leg
/// part, rule RT21): the lowest corner of that part's box,
/// above the target's ground (the lowest rest corner of the feet, root part at identity). The
/// median m of those heights (studs) moves the floor by m / (units_to_studs * scale), so the
/// median contacting sole lands on the ground, whatever the two skeletons' foot shapes and
/// pelvis offsets. Returns profile.floor unchanged when there is nothing to measure (no floor,
/// no contact, no target feet, no translation). Fails when the clip or the profile does not bind.
Result<float> fit_floor_to_target(const Clip& clip, const SourceSkeleton& source, const Rig& rig,
                                  const RetargetProfile& profile, const FootContacts& contacts);

/// Rule RT18, the target side: the floor over time (source units) that stands the target's
/// contacting soles on its ground. Retargets every contact frame through `profile` (its floor set
/// to a constant, e.g. contacts.floor) and measures the sole of the matching target foot as
/// fit_floor_to_target() does; e(f) = the lowest contacting sole of frame f (studs; frames
/// without contact: linear between their nearest contact frames, held at the ends); then
/// c = the mean over +-0.05 s of the minimum over +-0.05 s of e (so c <= e everywhere and c has
/// no jumps), and one key per frame: profile.floor + (c(f) + 0.01 L_t) / (units_to_studs * scale),
/// L_t the target leg length (2 studs when the binding did not measure it): the lowest
/// contacting sole ends at most 0.01 L_t below the ground. Empty when there is nothing to
/// measure (no floor, no contact, no target feet, no translation). Fails when the clip or the
/// profile does not bind.
Result<std::vector<FloorKey>> fit_floor_keys_to_target(const Clip& clip, const SourceSkeleton& source, const Rig& rig,
                                                       const RetargetProfile& profile, const FootContacts& contacts);

/// Rule RT18: makes `clip` stand on one flat floor at height `reference` by moving every source
/// root (parent -1) along `up` by -(floor_at(keys, t) - reference) (source units): at each key of
/// a root's translation channel (cubic tangents get the floor's slope taken off), or, for a
/// root with no translation keys, on new linear keys at the floor keys' times and the clip's
/// ends from its rest position. The profile's constant floor then applies to the leveled clip
/// unchanged. No keys: nothing changes.
void level_clip_floor(Clip& clip, const SourceSkeleton& source, const std::vector<FloorKey>& keys, float reference,
                      const glm::vec3& up);

/// Rule RT17: a `Footstep` marker (kind kMarker, value the foot's side) at every contact start,
/// in time order (ties: left before right, the feet's order).
std::vector<ClipMarker> footstep_markers(const FootContacts& contacts);

}  // namespace asterune
