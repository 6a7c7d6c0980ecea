#include "key_stream.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

#include "asterune/clip/sample.hpp"
#include "math/sse_quat.hpp"  // ASTERUNE_SSE2 and the SSE2 intrinsics

namespace asterune::detail {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// A channel the stream can carry: linear keys without easing, and the first two keys at
// different times (with t0 == t1 the time t0 itself holds key 0 while the stream would have
// loaded key 2 already). A missing channel is carried as a held default.
bool streamable(const std::vector<float>& times, std::size_t values, Interpolation mode, std::size_t easing) {
  if (values == 0) return true;
  if (times.size() != values || mode != Interpolation::kLinear || easing != 0) return false;
  return values == 1 || times[0] < times[1];
}

// The rotation segment from a to b as nlerp_blend sees it: the sign of the blend toward b and
// whether it is slerped instead (the same dot product, summed in the same order).
void segment_flags(const glm::quat& a, const glm::quat& b, std::uint32_t& sign, std::uint32_t& wide) {
  const float d = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
  sign = d < 0.0f ? 0x80000000u : 0u;
  wide = std::fabs(d) < kNlerpMinKeyDot ? 0xffffffffu : 0u;
}

void put_bits(float* dst, std::uint32_t bits) { std::memcpy(dst, &bits, sizeof bits); }

// Lane l of group G holds rotation segment i of (times, keys); i + 1 < keys.size().
void set_rotation(float* G, std::size_t l, const std::vector<float>& times, const std::vector<glm::quat>& keys,
                  std::size_t i) {
  const glm::quat& a = keys[i];
  const glm::quat& b = keys[i + 1];
  G[kRotation + kT0 + l] = times[i];
  G[kRotation + kT1 + l] = times[i + 1];
  const float av[4] = {a.x, a.y, a.z, a.w}, bv[4] = {b.x, b.y, b.z, b.w};
  for (std::size_t c = 0; c < 4; ++c) {
    G[kRotation + kA + 4 * c + l] = av[c];
    G[kRotation + kB + 4 * c + l] = bv[c];
  }
  std::uint32_t sign = 0, wide = 0;
  segment_flags(a, b, sign, wide);
  put_bits(G + kRotation + kSign + l, sign);
  put_bits(G + kRotation + kWide + l, wide);
}

void hold_rotation(float* G, std::size_t l, const glm::quat& q) {
  G[kRotation + kT0 + l] = kInf;
  G[kRotation + kT1 + l] = kInf;
  const float v[4] = {q.x, q.y, q.z, q.w};
  for (std::size_t c = 0; c < 4; ++c) G[kRotation + kA + 4 * c + l] = G[kRotation + kB + 4 * c + l] = v[c];
  put_bits(G + kRotation + kSign + l, 0u);
  put_bits(G + kRotation + kWide + l, 0u);
}

void set_translation(float* G, std::size_t l, const std::vector<float>& times, const std::vector<glm::vec3>& keys,
                     std::size_t i) {
  G[kTranslation + kT0 + l] = times[i];
  G[kTranslation + kT1 + l] = times[i + 1];
  for (int c = 0; c < 3; ++c) {
    G[kTranslation + kA + 4 * static_cast<std::size_t>(c) + l] = keys[i][c];
    G[kTranslation + kB + 4 * static_cast<std::size_t>(c) + l] = keys[i + 1][c];
  }
}

void hold_translation(float* G, std::size_t l, const glm::vec3& p) {
  G[kTranslation + kT0 + l] = kInf;
  G[kTranslation + kT1 + l] = kInf;
  for (int c = 0; c < 3; ++c)
    G[kTranslation + kA + 4 * static_cast<std::size_t>(c) + l] = G[kTranslation + kB + 4 * static_cast<std::size_t>(c) + l] = p[c];
}

// The segment std::upper_bound names for t, clamped to [0, n - 2] (n >= 2).
std::size_t segment_at(const std::vector<float>& times, float t) {
  const std::size_t u = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), t) - times.begin());
  return std::min(u == 0 ? 0 : u - 1, times.size() - 2);
}

// segment_at(times, t), trying `last` (the previous channel's answer) first. For non-decreasing
// times, segment i in [0, n - 2] is segment_at's answer exactly when (i == 0 or times[i] <= t)
// and (i == n - 2 or t < times[i + 1]): then every key up to i is at or before t and key i + 1
// is the first after it (the clamps cover t before the first or after the last key). Channels
// keyed at the same times (a BVH, most exports) then cost two comparisons instead of a search
// each. `last` is updated either way.
std::size_t segment_near(const std::vector<float>& times, float t, std::size_t& last) {
  const std::size_t n = times.size(), i = last;
  if (i + 2 <= n && (i == 0 || times[i] <= t) && (i + 2 == n || t < times[i + 1])) return i;
  last = segment_at(times, t);
  return last;
}

// std::upper_bound(a, a + n, t) - a (the first index with a[i] > t) without a branch per step:
// on a scrub every position is a new place in the array, so a branching search mispredicts
// about half its steps, which cost as much as sampling a few joints (rule P6).
std::size_t first_after(const float* a, std::size_t n, float t) {
  if (n == 0) return 0;
  const float* base = a;
  while (n > 1) {
    const std::size_t half = n / 2;
    base = base[half] <= t ? base + half : base;
    n -= half;
  }
  return static_cast<std::size_t>(base - a) + (*base <= t ? 1 : 0);
}

// The record positions of time t: the records needed at or before t count as applied.
void positions_at(const KeyStream& s, float t, ClipCursor& cursor) {
  cursor.stream_position = static_cast<std::uint32_t>(first_after(s.need.data(), s.need.size(), t));
  cursor.group_position = static_cast<std::uint32_t>(first_after(s.group_need.data(), s.group_need.size(), t));
}

// The cursor's lanes made this stream's, at every lane's first segment (a held channel's lane
// keeps these values for good: no record writes it).
void adopt(const KeyStream& s, ClipCursor& cursor) {
  std::memcpy(cursor.lanes.data(), s.initial.data(), s.initial.size() * sizeof(float));
  cursor.stream_id = s.id;
}

// Every streamed lane at the segment of t, and the records up to t marked as applied. The held
// lanes are written only when the cursor held another stream's lanes.
void seek(const KeyStream& s, const Clip& clip, float t, ClipCursor& cursor) {
  if (cursor.stream_id != s.id) adopt(s, cursor);
  std::size_t last = 0;
  for (std::size_t lane = 0; lane < s.joint.size(); ++lane) {
    float* G = cursor.lanes.data() + (lane / 4) * kGroupFloats;
    const std::size_t l = lane % 4;
    if (s.rot_track[lane] >= 0) {
      const ClipTrack& tr = clip.tracks[static_cast<std::size_t>(s.rot_track[lane])];
      set_rotation(G, l, tr.rotation_times, tr.rotations, segment_near(tr.rotation_times, t, last));
    }
    if (s.pos_track[lane] >= 0) {
      const ClipTrack& tr = clip.tracks[static_cast<std::size_t>(s.pos_track[lane])];
      set_translation(G, l, tr.translation_times, tr.translations, segment_near(tr.translation_times, t, last));
    }
  }
  positions_at(s, t, cursor);
}

// A record's key becomes its lane's right end; the old right end becomes the left. The same
// moves for both channels (a translation's fourth component and flags are unused).
inline void apply(const KeyRecord& r, float* lanes) {
  float* P = lanes + r.slot;
  P[kT0] = P[kT1];
  P[kT1] = r.time;
  for (std::size_t c = 0; c < 4; ++c) {
    P[kA + 4 * c] = P[kB + 4 * c];
    P[kB + 4 * c] = r.value[c];
  }
  put_bits(P + kSign, r.sign);
  put_bits(P + kWide, r.wide);
}

// The same for the four lanes of a group record, four floats at a time.
inline void apply(const GroupRecord& r, float* lanes) {
  float* P = lanes + r.slot;
  const float time[4] = {r.time, r.time, r.time, r.time};
  std::memcpy(P + kT0, P + kT1, 4 * sizeof(float));
  std::memcpy(P + kT1, time, 4 * sizeof(float));
  std::memcpy(P + kA, P + kB, 16 * sizeof(float));
  std::memcpy(P + kB, r.value, 16 * sizeof(float));
  std::memcpy(P + kSign, r.sign, 4 * sizeof(float));
  std::memcpy(P + kWide, r.wide, 4 * sizeof(float));
}

}  // namespace

KeyStream compile_key_stream(const Clip& clip, std::span<const int> track_of_joint,
                             std::span<const Transform> defaults) {
  static std::atomic<std::uint64_t> next_id{1};
  KeyStream s;
  s.id = next_id.fetch_add(1, std::memory_order_relaxed);
  // A sixteenth of the clip, and at least 50 ms (three frames at 60 Hz): playback steps are
  // shorter, while two random seeks in a row rarely both land that near.
  s.resume_window = std::isfinite(clip.duration) ? std::max(clip.duration / 16.0f, 0.05f) : 0.05f;
  s.coverage.assign(track_of_joint.size(), 0.0f);
  for (std::size_t j = 0; j < track_of_joint.size(); ++j) {
    const int t = track_of_joint[j];
    const bool streamed = [&] {
      if (t < 0 || static_cast<std::size_t>(t) >= clip.tracks.size()) return false;
      const ClipTrack& tr = clip.tracks[static_cast<std::size_t>(t)];
      if (tr.rotations.empty() && tr.translations.empty()) return false;  // coverage 0: the search path
      s.coverage[j] = 1.0f;
      return streamable(tr.rotation_times, tr.rotations.size(), tr.rotation_interpolation, tr.rotation_easing.size()) &&
             streamable(tr.translation_times, tr.translations.size(), tr.translation_interpolation,
                        tr.translation_easing.size());
    }();
    if (!streamed) {
      s.others.push_back(static_cast<std::uint32_t>(j));
      continue;
    }
    s.joint.push_back(static_cast<std::uint32_t>(j));
  }
  s.groups = (s.joint.size() + 3) / 4;
  s.joint.resize(4 * s.groups, kNoJoint);
  s.rot_track.assign(s.joint.size(), -1);
  s.pos_track.assign(s.joint.size(), -1);
  s.initial.assign(s.groups * kGroupFloats, 0.0f);
  // A group's channel goes to the group records when its four lanes stream it from tracks keyed
  // at the same times (bit for bit).
  std::vector<std::uint8_t> rot_grouped(s.groups, 0), pos_grouped(s.groups, 0);
  for (std::size_t g = 0; g < s.groups; ++g) {
    const auto same_times = [&](auto times_of, auto keys_of) {
      const std::vector<float>* first = nullptr;
      for (std::size_t l = 0; l < 4; ++l) {
        const std::uint32_t j = s.joint[4 * g + l];
        if (j == kNoJoint) return false;
        const ClipTrack& tr = clip.tracks[static_cast<std::size_t>(track_of_joint[j])];
        const std::vector<float>& times = times_of(tr);
        if (keys_of(tr) < 2) return false;
        if (!first) first = &times;
        else if (times.size() != first->size() ||
                 std::memcmp(times.data(), first->data(), times.size() * sizeof(float)) != 0)
          return false;
      }
      return true;
    };
    rot_grouped[g] = same_times([](const ClipTrack& tr) -> const std::vector<float>& { return tr.rotation_times; },
                                [](const ClipTrack& tr) { return tr.rotations.size(); });
    pos_grouped[g] = same_times([](const ClipTrack& tr) -> const std::vector<float>& { return tr.translation_times; },
                                [](const ClipTrack& tr) { return tr.translations.size(); });
  }
  std::vector<std::pair<float, KeyRecord>> records;
  std::vector<std::pair<float, GroupRecord>> group_records;
  for (std::size_t lane = 0; lane < s.joint.size(); ++lane) {
    float* G = s.initial.data() + (lane / 4) * kGroupFloats;
    const std::size_t l = lane % 4;
    if (s.joint[lane] == kNoJoint) {
      hold_rotation(G, l, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
      hold_translation(G, l, glm::vec3(0.0f));
      continue;
    }
    const int t = track_of_joint[s.joint[lane]];
    const ClipTrack& tr = clip.tracks[static_cast<std::size_t>(t)];
    const Transform& fallback = defaults[s.joint[lane]];
    const std::size_t nr = tr.rotations.size(), np = tr.translations.size();
    if (nr == 0) hold_rotation(G, l, fallback.rotation);
    else if (nr == 1) hold_rotation(G, l, tr.rotations[0]);
    else {
      s.rot_track[lane] = t;
      set_rotation(G, l, tr.rotation_times, tr.rotations, 0);
      for (std::size_t k = 2; k < nr && !rot_grouped[lane / 4]; ++k) {
        KeyRecord r;
        r.slot = static_cast<std::uint32_t>((lane / 4) * kGroupFloats + kRotation + lane % 4);
        segment_flags(tr.rotations[k - 1], tr.rotations[k], r.sign, r.wide);
        r.time = tr.rotation_times[k];
        const glm::quat& q = tr.rotations[k];
        r.value[0] = q.x;
        r.value[1] = q.y;
        r.value[2] = q.z;
        r.value[3] = q.w;
        records.emplace_back(tr.rotation_times[k - 1], r);
      }
    }
    if (np == 0) hold_translation(G, l, fallback.position);
    else if (np == 1) hold_translation(G, l, tr.translations[0]);
    else {
      s.pos_track[lane] = t;
      set_translation(G, l, tr.translation_times, tr.translations, 0);
      for (std::size_t k = 2; k < np && !pos_grouped[lane / 4]; ++k) {
        KeyRecord r;
        r.slot = static_cast<std::uint32_t>((lane / 4) * kGroupFloats + kTranslation + lane % 4);
        r.time = tr.translation_times[k];
        for (int c = 0; c < 3; ++c) r.value[c] = tr.translations[k][c];
        records.emplace_back(tr.translation_times[k - 1], r);
      }
    }
  }
  for (std::size_t g = 0; g < s.groups; ++g) {
    if (!rot_grouped[g] && !pos_grouped[g]) continue;  // (then every lane is a joint)
    const ClipTrack* tr[4];
    for (std::size_t l = 0; l < 4; ++l)
      tr[l] = &clip.tracks[static_cast<std::size_t>(track_of_joint[s.joint[4 * g + l]])];
    if (rot_grouped[g]) {
      const std::vector<float>& times = tr[0]->rotation_times;
      for (std::size_t k = 2; k < times.size(); ++k) {
        GroupRecord r;
        r.slot = static_cast<std::uint32_t>(g * kGroupFloats + kRotation);
        r.time = times[k];
        for (std::size_t l = 0; l < 4; ++l) {
          const glm::quat& q = tr[l]->rotations[k];
          r.value[l] = q.x;
          r.value[4 + l] = q.y;
          r.value[8 + l] = q.z;
          r.value[12 + l] = q.w;
          segment_flags(tr[l]->rotations[k - 1], q, r.sign[l], r.wide[l]);
        }
        group_records.emplace_back(times[k - 1], r);
      }
    }
    if (pos_grouped[g]) {
      const std::vector<float>& times = tr[0]->translation_times;
      for (std::size_t k = 2; k < times.size(); ++k) {
        GroupRecord r;
        r.slot = static_cast<std::uint32_t>(g * kGroupFloats + kTranslation);
        r.time = times[k];
        for (std::size_t l = 0; l < 4; ++l)
          for (std::size_t c = 0; c < 3; ++c) r.value[4 * c + l] = tr[l]->translations[k][static_cast<int>(c)];
        group_records.emplace_back(times[k - 1], r);
      }
    }
  }
  // By the time each key is needed; a channel's own keys keep their order (stable).
  const auto by_need = [](const auto& a, const auto& b) { return a.first < b.first; };
  std::stable_sort(records.begin(), records.end(), by_need);
  std::stable_sort(group_records.begin(), group_records.end(), by_need);
  s.need.reserve(records.size());
  s.records.reserve(records.size());
  for (const auto& [need, r] : records) {
    s.need.push_back(need);
    s.records.push_back(r);
  }
  s.group_need.reserve(group_records.size());
  s.group_records.reserve(group_records.size());
  for (const auto& [need, r] : group_records) {
    s.group_need.push_back(need);
    s.group_records.push_back(r);
  }
  return s;
}

bool key_stream_jumps(const KeyStream& s, float t, const ClipCursor& cursor) {
  if (cursor.stream_id != s.id || !(t >= cursor.stream_time)) return true;
  const std::size_t count = s.records.size(), group_count = s.group_records.size();
  // Stale lanes (a scrub) keep no record positions: those of the last time, found only for a
  // step forward within the resume window (a step back, or a longer one, is a jump whatever
  // they are), so that scrubbing pays no search.
  std::size_t pos = cursor.stream_position, group_pos = cursor.group_position;
  if (cursor.stale) {
    if (!(t - cursor.stream_time <= s.resume_window)) return true;
    pos = first_after(s.need.data(), count, cursor.stream_time);
    group_pos = first_after(s.group_need.data(), group_count, cursor.stream_time);
  }
  // A long jump forward costs more record by record than a search per lane.
  const std::size_t far = 2 * s.joint.size(), group_far = 4 * s.groups;
  return pos > count || group_pos > group_count || (pos + far < count && s.need[pos + far] <= t) ||
         (group_pos + group_far < group_count && s.group_need[group_pos + group_far] <= t);
}

void advance_key_stream(const KeyStream& s, const Clip& clip, float t, bool jump, ClipCursor& cursor) {
  if (jump || cursor.stale) {
    seek(s, clip, t, cursor);
  } else {
    const std::size_t count = s.records.size(), group_count = s.group_records.size();
    std::size_t pos = cursor.stream_position, group_pos = cursor.group_position;
    float* lanes = cursor.lanes.data();
    for (; pos < count && s.need[pos] <= t; ++pos) apply(s.records[pos], lanes);
    for (; group_pos < group_count && s.group_need[group_pos] <= t; ++group_pos)
      apply(s.group_records[group_pos], lanes);
    cursor.stream_position = static_cast<std::uint32_t>(pos);
    cursor.group_position = static_cast<std::uint32_t>(group_pos);
  }
  cursor.stream_time = t;
  cursor.jumped = jump;
  cursor.stale = false;
  cursor.stale_steps = 0;
}

namespace {

// A sample the caller takes without the stream: the cursor moves to t, its lanes and record
// positions stay as they were (stale).
void skip(const KeyStream& s, float t, ClipCursor& cursor) {
  if (cursor.stream_id != s.id) adopt(s, cursor);
  if (!cursor.stale) cursor.stale_steps = 0;
  cursor.stream_time = t;
  cursor.jumped = true;
  cursor.stale = true;
}

}  // namespace

bool key_stream_streams(const KeyStream& s, float t, ClipCursor& cursor, bool& jump) {
  jump = key_stream_jumps(s, t, cursor);
  if (!cursor.stale) {
    if (!(jump && cursor.jumped)) return true;  // forward play, or a single jump (a loop wrap)
  } else if (jump) {
    cursor.stale_steps = 0;
  } else if (++cursor.stale_steps >= 2) {
    return true;  // the second short step forward in a row: playback again, reset and stream
  }
  skip(s, t, cursor);
  return false;
}

#if defined(ASTERUNE_SSE2)
namespace {

// Groups interpolated per round of passes: their scratch stays in L1 (about 3.5 KB).
constexpr std::size_t kPassGroups = 16;

// One group's rotation after the first pass: the nlerp blend before normalization, its squared
// length, the blend factor and the lanes that take a key as it is.
struct RotationBlend {
  __m128 x, y, z, w, len2, alpha, take_a, take_b;
};

}  // namespace

// In three passes over up to kPassGroups groups, so that the long-latency divisions and square
// roots of different groups overlap instead of each group waiting on its own chain (blend factor,
// sum of squares, square root, division): 1. blend factors, blends, sums of squares, and the
// translations; 2. the normalization factors; 3. normalize, select, transpose and write. The
// operations per lane are the scalar path's, on the same operands in the same order.
void sample_key_stream(const KeyStream& s, const ClipCursor& cursor, float t, Transform* local) {
  const float* lanes = cursor.lanes.data();
  const __m128 tv = _mm_set1_ps(t);
  const __m128 one = _mm_set1_ps(1.0f);
  RotationBlend blend[kPassGroups];
  __m128 inv[kPassGroups];
  __m128 pos[kPassGroups][3];  // [group][component], one lane per joint
  for (std::size_t g0 = 0; g0 < s.groups; g0 += kPassGroups) {
    const std::size_t count = std::min(kPassGroups, s.groups - g0);
    for (std::size_t i = 0; i < count; ++i) {
      const float* G = lanes + (g0 + i) * kGroupFloats;
      RotationBlend& b = blend[i];
      // Rotation: nlerp_or_slerp's blend factor and blend (the same operations on the same
      // operands as the search path: bit for bit). A lane holds a when the factor is not
      // positive (before the first key, or a held channel: its +inf times give NaN), b when it is 1.
      {
        const __m128 t0 = _mm_loadu_ps(G + kRotation + kT0), t1 = _mm_loadu_ps(G + kRotation + kT1);
        const __m128 raw = _mm_div_ps(_mm_sub_ps(tv, t0), _mm_sub_ps(t1, t0));
        b.alpha = _mm_min_ps(raw, one);  // NaN -> 1, but those lanes hold a
        b.take_a = _mm_cmpngt_ps(raw, _mm_setzero_ps());
        // b from the last key on (also a last segment of zero length, whose factor is NaN), or
        // at a factor of 1 (slerp_shortest's exact end).
        b.take_b = _mm_or_ps(_mm_cmpge_ps(tv, t1), _mm_andnot_ps(b.take_a, _mm_cmpeq_ps(b.alpha, one)));
        const __m128 r = _mm_sub_ps(one, b.alpha);
        const __m128 sa = _mm_xor_ps(b.alpha, _mm_loadu_ps(G + kRotation + kSign));
        b.x = _mm_add_ps(_mm_mul_ps(r, _mm_loadu_ps(G + kRotation + kA)), _mm_mul_ps(sa, _mm_loadu_ps(G + kRotation + kB)));
        b.y = _mm_add_ps(_mm_mul_ps(r, _mm_loadu_ps(G + kRotation + kA + 4)), _mm_mul_ps(sa, _mm_loadu_ps(G + kRotation + kB + 4)));
        b.z = _mm_add_ps(_mm_mul_ps(r, _mm_loadu_ps(G + kRotation + kA + 8)), _mm_mul_ps(sa, _mm_loadu_ps(G + kRotation + kB + 8)));
        b.w = _mm_add_ps(_mm_mul_ps(r, _mm_loadu_ps(G + kRotation + kA + 12)), _mm_mul_ps(sa, _mm_loadu_ps(G + kRotation + kB + 12)));
        b.len2 = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(b.w, b.w), _mm_mul_ps(b.x, b.x)), _mm_mul_ps(b.y, b.y)),
                            _mm_mul_ps(b.z, b.z));
      }
      // Translation: a + (b - a) * alpha; a when the factor is not positive, b from the last key on.
      {
        const __m128 t0 = _mm_loadu_ps(G + kTranslation + kT0), t1 = _mm_loadu_ps(G + kTranslation + kT1);
        const __m128 raw = _mm_div_ps(_mm_sub_ps(tv, t0), _mm_sub_ps(t1, t0));
        const __m128 alpha = _mm_min_ps(raw, one);
        const __m128 take_a = _mm_cmpngt_ps(raw, _mm_setzero_ps());
        const __m128 take_b = _mm_cmpge_ps(tv, t1);
        for (std::size_t c = 0; c < 3; ++c) {
          const __m128 a = _mm_loadu_ps(G + kTranslation + kA + 4 * c), bb = _mm_loadu_ps(G + kTranslation + kB + 4 * c);
          const __m128 lerp = _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(bb, a), alpha));
          const __m128 v = _mm_or_ps(_mm_and_ps(take_a, a), _mm_andnot_ps(take_a, lerp));
          pos[i][c] = _mm_or_ps(_mm_and_ps(take_b, bb), _mm_andnot_ps(take_b, v));
        }
      }
    }
    for (std::size_t i = 0; i < count; ++i) inv[i] = _mm_div_ps(one, _mm_sqrt_ps(blend[i].len2));
    for (std::size_t i = 0; i < count; ++i) {
      const float* G = lanes + (g0 + i) * kGroupFloats;
      const RotationBlend& b = blend[i];
      const auto pick = [&](__m128 a, __m128 bv, __m128 q) {
        const __m128 v = _mm_or_ps(_mm_and_ps(b.take_a, a), _mm_andnot_ps(b.take_a, q));
        return _mm_or_ps(_mm_and_ps(b.take_b, bv), _mm_andnot_ps(b.take_b, v));
      };
      __m128 qx = pick(_mm_loadu_ps(G + kRotation + kA), _mm_loadu_ps(G + kRotation + kB), _mm_mul_ps(b.x, inv[i]));
      __m128 qy = pick(_mm_loadu_ps(G + kRotation + kA + 4), _mm_loadu_ps(G + kRotation + kB + 4), _mm_mul_ps(b.y, inv[i]));
      __m128 qz = pick(_mm_loadu_ps(G + kRotation + kA + 8), _mm_loadu_ps(G + kRotation + kB + 8), _mm_mul_ps(b.z, inv[i]));
      __m128 qw = pick(_mm_loadu_ps(G + kRotation + kA + 12), _mm_loadu_ps(G + kRotation + kB + 12), _mm_mul_ps(b.w, inv[i]));
      _MM_TRANSPOSE4_PS(qx, qy, qz, qw);  // now one quaternion (x, y, z, w) per register
      float rot[4][4];  // [lane][x, y, z, w]
      _mm_storeu_ps(rot[0], qx);
      _mm_storeu_ps(rot[1], qy);
      _mm_storeu_ps(rot[2], qz);
      _mm_storeu_ps(rot[3], qw);
      // Keys too far apart for nlerp: slerp, one lane at a time (rare).
      const int slow = _mm_movemask_ps(_mm_andnot_ps(_mm_or_ps(b.take_a, b.take_b), _mm_loadu_ps(G + kRotation + kWide)));
      if (slow) {
        float al[4];
        _mm_storeu_ps(al, b.alpha);
        for (std::size_t l = 0; l < 4; ++l) {
          if (!(slow & (1 << l))) continue;
          const glm::quat a(G[kRotation + kA + 12 + l], G[kRotation + kA + l], G[kRotation + kA + 4 + l], G[kRotation + kA + 8 + l]);
          const glm::quat bq(G[kRotation + kB + 12 + l], G[kRotation + kB + l], G[kRotation + kB + 4 + l], G[kRotation + kB + 8 + l]);
          const glm::quat q = slerp_shortest(a, bq, al[l]);
          rot[l][0] = q.x;
          rot[l][1] = q.y;
          rot[l][2] = q.z;
          rot[l][3] = q.w;
        }
      }
      float p[3][4];
      _mm_storeu_ps(p[0], pos[i][0]);
      _mm_storeu_ps(p[1], pos[i][1]);
      _mm_storeu_ps(p[2], pos[i][2]);
      const std::uint32_t* joint = s.joint.data() + 4 * (g0 + i);
      for (std::size_t l = 0; l < 4; ++l) {
        if (joint[l] == kNoJoint) break;  // padding lanes are last
        Transform& out = local[joint[l]];
        std::memcpy(&out.rotation.x, rot[l], sizeof rot[l]);
        out.position = glm::vec3(p[0][l], p[1][l], p[2][l]);
      }
    }
  }
}
#else
// The same per lane (ASTERUNE_SCALAR_KERNELS or no SSE2): the same operations in the same order.
void sample_key_stream(const KeyStream& s, const ClipCursor& cursor, float t, Transform* local) {
  const float* lanes = cursor.lanes.data();
  for (std::size_t g = 0; g < s.groups; ++g) {
    const float* G = lanes + g * kGroupFloats;
    const std::uint32_t* joint = s.joint.data() + 4 * g;
    float rot[4][4];  // [lane][x, y, z, w]
    float pos[3][4];  // [component][lane]
    for (std::size_t l = 0; l < 4; ++l) {
      const float raw = (t - G[kRotation + kT0 + l]) / (G[kRotation + kT1 + l] - G[kRotation + kT0 + l]);
      const float alpha = raw < 1.0f ? raw : 1.0f;
      const glm::quat a(G[kRotation + kA + 12 + l], G[kRotation + kA + l], G[kRotation + kA + 4 + l], G[kRotation + kA + 8 + l]);
      const glm::quat b(G[kRotation + kB + 12 + l], G[kRotation + kB + l], G[kRotation + kB + 4 + l], G[kRotation + kB + 8 + l]);
      glm::quat q;
      std::uint32_t sign, wide;
      std::memcpy(&sign, G + kRotation + kSign + l, sizeof sign);
      std::memcpy(&wide, G + kRotation + kWide + l, sizeof wide);
      if (t >= G[kRotation + kT1 + l]) q = b;
      else if (!(raw > 0.0f)) q = a;
      else if (alpha == 1.0f) q = b;
      else if (wide) q = slerp_shortest(a, b, alpha);
      else {
        const float s = sign ? -alpha : alpha;
        const float r = 1.0f - alpha;
        q = glm::quat(r * a.w + s * b.w, r * a.x + s * b.x, r * a.y + s * b.y, r * a.z + s * b.z);
        q = q * (1.0f / std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z));
      }
      rot[l][0] = q.x;
      rot[l][1] = q.y;
      rot[l][2] = q.z;
      rot[l][3] = q.w;
      const float praw = (t - G[kTranslation + kT0 + l]) / (G[kTranslation + kT1 + l] - G[kTranslation + kT0 + l]);
      const float palpha = praw < 1.0f ? praw : 1.0f;
      for (std::size_t c = 0; c < 3; ++c) {
        const float pa = G[kTranslation + kA + 4 * c + l], pb = G[kTranslation + kB + 4 * c + l];
        pos[c][l] = t >= G[kTranslation + kT1 + l] ? pb : !(praw > 0.0f) ? pa : pa + (pb - pa) * palpha;
      }
    }
    for (std::size_t l = 0; l < 4; ++l) {
      if (joint[l] == kNoJoint) break;  // padding lanes are last
      Transform& out = local[joint[l]];
      std::memcpy(&out.rotation.x, rot[l], sizeof rot[l]);
      out.position = glm::vec3(pos[0][l], pos[1][l], pos[2][l]);
    }
  }
}
#endif

}  // namespace asterune::detail
