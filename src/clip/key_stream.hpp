// The key stream of a ClipBinding (private to src/clip): compiled once when the clip is bound,
// it lets a playback cursor sample forward playback without searching (ozz-animation's layout).
//
// - Lanes: the joints whose channels are plain linear keys (no step, cubic or easing; the first
//   two keys at different times) are "streamed", four per group. A ClipCursor holds, per group,
//   each lane's current segment in SoA form: both key times and both key values of the rotation
//   and of the translation channel. A missing or single-key channel is a lane that always holds
//   its value (key times +inf, see sample_groups).
// - Records: every key from the third on, ordered by the time it is first needed (the time of
//   the key before it: entering segment k - 1 needs key k as its right end). Forward playback
//   moves a position through them; each record shifts its lane's right key to the left and
//   loads itself as the right key. When a group's four lanes key a channel at the same times,
//   that channel's keys are group records instead (a second stream with its own position): one
//   record moves the four lanes' keys with four-float copies. After all records needed at or before t are applied, each
//   lane's segment is the one std::upper_bound names (times[i] <= t < times[i + 1], clamped to
//   the first and last segment), so the result is the search path's, bit for bit.
// - Backwards (or a long jump forward): seek() sets every lane from a binary search instead. A
//   jump right after a jump (scrubbing) is sampled by the stateless path and leaves the lanes
//   stale until playback goes forward again, so a cursor never costs more than no cursor
//   (rule P6; key_stream_streams).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "asterune/clip/clip.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {

struct ClipCursor;

namespace detail {

// Float offsets inside one group of four lanes: a block per channel (rotation, then
// translation), each field four floats, one per lane. A translation uses components x, y, z.
inline constexpr std::size_t kT0 = 0, kT1 = 4, kA = 8, kB = 24, kSign = 40, kWide = 44, kChannelFloats = 48;
inline constexpr std::size_t kRotation = 0, kTranslation = kChannelFloats, kGroupFloats = 2 * kChannelFloats;
// No joint (a padding lane of the last group).
inline constexpr std::uint32_t kNoJoint = 0xffffffffu;

struct KeyRecord {
  std::uint32_t slot = 0;  // group * kGroupFloats + channel block + lane: where the lane's fields start
  std::uint32_t sign = 0;  // rotation: 0x80000000 when the segment ending here blends toward -b
  std::uint32_t wide = 0;  // rotation: all ones when the segment is slerped (keys too far apart)
  float time = 0.0f;       // the key's time
  float value[4] = {};     // x, y, z, w (a translation uses x, y, z)
};

// The next key of all four lanes of a group's channel at once, for a group whose four lanes are
// keyed at the same times: applied with four-float moves (the fields as the group stores them).
struct alignas(16) GroupRecord {
  std::uint32_t slot = 0;  // group * kGroupFloats + channel block
  float time = 0.0f;       // the key's time (the same in every lane)
  std::uint32_t pad[2] = {};
  float value[16] = {};    // [component][lane] (a translation uses three components)
  std::uint32_t sign[4] = {}, wide[4] = {};  // rotation, per lane: as KeyRecord
};

struct KeyStream {
  std::uint64_t id = 0;                // unique per compiled stream: a cursor knows whose state it holds
  std::size_t groups = 0;
  float resume_window = 0.05f;         // seconds: a step forward from stale lanes this short may be playback
  std::vector<std::uint32_t> joint;    // per lane: the target joint, or kNoJoint
  std::vector<std::int32_t> rot_track, pos_track;  // per lane: the track whose channel it streams, or -1 (holds)
  std::vector<float> coverage;         // per target joint: its coverage (1: a track with keys)
  std::vector<std::uint32_t> others;   // the joints not streamed, ascending: sampled by search
  std::vector<float> initial;          // groups * kGroupFloats: every lane at its first segment
  std::vector<float> need;             // per record: the time it is needed at (non-decreasing)
  std::vector<KeyRecord> records;
  // The channels of groups whose four lanes share key times: their keys as group records
  // (not in `records`), ordered the same way. Channels of one lane are in one of the two streams.
  std::vector<float> group_need;
  std::vector<GroupRecord> group_records;
};

/// Compiles the stream of a validated clip bound by track_of_joint / defaults (setup time).
KeyStream compile_key_stream(const Clip& clip, std::span<const int> track_of_joint,
                             std::span<const Transform> defaults);

/// True when bringing the cursor to time t (wrapped) would reset its lanes by search instead of
/// applying records: t went backwards (a loop wrap, a scrub), the jump forward is long, or the
/// cursor holds another stream's state.
bool key_stream_jumps(const KeyStream& stream, float t, const ClipCursor& cursor);

/// Brings the cursor's lanes to time t (wrapped): forward through the records, or seek when
/// `jump` (key_stream_jumps) or the lanes are stale (skip_key_stream). Allocation-free. The
/// cursor's lanes are sized by make_clip_cursor.
void advance_key_stream(const KeyStream& stream, const Clip& clip, float t, bool jump, ClipCursor& cursor);

/// Whether the sample at t goes through the stream (true: advance_key_stream(..., jump, ...)
/// next) or is taken without it (false: the stateless path; the cursor has been moved to t and
/// its lanes left stale), rule P6. Without a cursor's lanes being of use there is no point in
/// resetting them: a jump right after a jump (scrubbing, random seeks) is sampled without the
/// stream, and so is the first short step forward from stale lanes (within resume_window and
/// not a jump); the second short step forward in a row (playback again) resets them and streams. A single jump (a loop wrap)
/// resets them at once. Allocation-free.
bool key_stream_streams(const KeyStream& stream, float t, ClipCursor& cursor, bool& jump);

/// Writes the streamed joints' transforms at time t (the cursor advanced to t).
void sample_key_stream(const KeyStream& stream, const ClipCursor& cursor, float t, Transform* local);

}  // namespace detail
}  // namespace asterune
