#include "asterune/runtime/character_batch.hpp"

#include <algorithm>
#include <new>
#include <string>

#include "asterune/core/prefetch.hpp"
#include "asterune/rig/rig.hpp"
#include "runtime/character_frame.hpp"

namespace asterune {

namespace {

constexpr std::size_t kLine = 64;

std::size_t round_up(std::size_t bytes) { return (bytes + kLine - 1) / kLine * kLine; }

// The bytes of an array of `count` elements from its first two elements' addresses (one element:
// a guess of 1 KB, the order of a track or a control slot).
std::size_t block_bytes(const void* first, const void* second, int count) {
  const std::size_t stride =
      second ? static_cast<std::size_t>(static_cast<const char*>(second) - static_cast<const char*>(first))
             : std::size_t{1024};
  return std::min<std::size_t>(stride * static_cast<std::size_t>(count), 8192);
}

Result<CharacterBatch> no_batch(std::string message) { return make_error("character batch: " + std::move(message)); }

}  // namespace

void CharacterBatch::ArenaDelete::operator()(std::byte* p) const { ::operator delete (p, std::align_val_t{kLine}); }

CharacterBatch::CharacterBatch() = default;
CharacterBatch::~CharacterBatch() = default;
CharacterBatch::CharacterBatch(CharacterBatch&&) noexcept = default;
CharacterBatch& CharacterBatch::operator=(CharacterBatch&&) noexcept = default;

Result<CharacterBatch> build_character_batch(const CharacterSetup& setup, std::span<const Character> characters) {
  if (!setup.rig) return no_batch("the setup's rig is required");
  if (setup.event_capacity < 0) return no_batch("the event capacity is negative");
  const auto joints = static_cast<std::size_t>(setup.rig->joint_count());
  const auto capacity = static_cast<std::size_t>(setup.event_capacity);
  for (std::size_t i = 0; i < characters.size(); ++i) {
    const Character& c = characters[i];
    if (c.pose.local.size() != joints || c.pose.coverage.size() != joints || c.world.size() != joints ||
        c.events.size() != capacity)
      return no_batch("character " + std::to_string(i) + " is not sized for this setup (pose, world or events)");
  }
  return CharacterBatch::make(setup, characters.size(),
                              [characters](std::size_t i) -> const Character& { return characters[i]; });
}

Result<CharacterBatch> build_character_batch(const CharacterSetup& setup, std::span<const ControlDesc> controls,
                                             std::size_t count, const Transform& root, float time) {
  Result<Character> one = build_character(setup, controls, root, time);
  if (!one) return one.error();
  const Character& prototype = one.value();
  return CharacterBatch::make(setup, count, [&prototype](std::size_t) -> const Character& { return prototype; });
}

CharacterBatch CharacterBatch::make(const CharacterSetup& setup, std::size_t n,
                                    FunctionRef<const Character&(std::size_t)> at) {
  const auto joints = static_cast<std::size_t>(setup.rig->joint_count());
  const auto capacity = static_cast<std::size_t>(setup.event_capacity);
  CharacterBatch b;
  b.count_ = n;
  b.joints_ = static_cast<int>(joints);
  b.event_capacity_ = setup.event_capacity;
  // The stages, each starting on a cache line.
  const std::size_t local_at = round_up(n * sizeof(CharacterState));
  const std::size_t coverage_at = local_at + round_up(n * joints * sizeof(Transform));
  const std::size_t world_at = coverage_at + round_up(n * joints * sizeof(float));
  const std::size_t events_at = world_at + round_up(n * joints * sizeof(Transform));
  const std::size_t bytes = events_at + round_up(n * capacity * sizeof(AnimEvent));
  b.arena_.reset(static_cast<std::byte*>(::operator new (bytes == 0 ? kLine : bytes, std::align_val_t{kLine})));
  std::byte* base = b.arena_.get();
  b.states_ = reinterpret_cast<CharacterState*>(base);
  b.local_ = reinterpret_cast<Transform*>(base + local_at);
  b.coverage_ = reinterpret_cast<float*>(base + coverage_at);
  b.world_ = reinterpret_cast<Transform*>(base + world_at);
  b.events_ = reinterpret_cast<AnimEvent*>(base + events_at);
  for (std::size_t i = 0; i < n; ++i) {
    const Character& c = at(i);
    CharacterState* s = new (b.states_ + i) CharacterState{};
    s->root = c.root;
    s->time = c.time;
    s->playback_rate = c.playback_rate;
    s->scene_time = c.scene_time;
    s->root_delta = c.root_delta;
    s->event_count = c.event_count;
    s->events_dropped = c.events_dropped;
    s->ok = c.ok;
    for (std::size_t j = 0; j < joints; ++j) {
      new (b.local_ + i * joints + j) Transform(c.pose.local[j]);
      new (b.coverage_ + i * joints + j) float(c.pose.coverage[j]);
      new (b.world_ + i * joints + j) Transform(c.world[j]);
    }
    for (std::size_t e = 0; e < capacity; ++e) new (b.events_ + i * capacity + e) AnimEvent(c.events[e]);
  }
  // Stage by stage, so that each stage's heap buffers are allocated (and, from a fresh heap,
  // placed) one character after another: all animators, then all stacks.
  b.animators_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) b.animators_.push_back(at(i).animator);
  b.stacks_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) b.stacks_.push_back(at(i).stack);
  // Where each character's track and slot arrays are (the first member of a track is its
  // TrackDesc, of a slot its ControlDesc), for the batch's prefetch. A hint only: if an edit
  // moves an array (ControlStack::add), a stale address costs a wasted prefetch, nothing else.
  b.hints_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    CharacterBatch::Hints& h = b.hints_[i];
    const Animator& a = b.animators_[i];
    if (a.track_count() > 0) {
      h.tracks = &a.desc(0);
      h.track_bytes = block_bytes(&a.desc(0), a.track_count() > 1 ? &a.desc(1) : nullptr, a.track_count());
    }
    const ControlStack& st = b.stacks_[i];
    if (st.size() > 0) {
      h.slots = &st.desc(0);
      h.slot_bytes = block_bytes(&st.desc(0), st.size() > 1 ? &st.desc(1) : nullptr, st.size());
    }
  }
  return b;
}

bool update_character(const CharacterSetup& setup, CharacterBatch& b, std::size_t i, float dt) {
  const std::size_t j = b.joint_stride();
  const std::span<Transform> local(b.local_ + i * j, j);
  const std::span<float> coverage(b.coverage_ + i * j, j);
  CharacterState& s = b.states_[i];
  if (!detail::animate_character(setup, s, b.animators_[i], local, coverage, j,
                                 std::span<AnimEvent>(b.events_ + i * b.event_stride(), b.event_stride()), dt))
    return false;
  detail::control_character(setup, s, b.stacks_[i], local, coverage, std::span<Transform>(b.world_ + i * j, j), dt);
  return true;
}

void update_characters(const CharacterSetup& setup, CharacterBatch& batch, float dt, ParallelFor parallel_for) {
  CharacterBatch* b = &batch;
  // Cache hints, by how far ahead they are issued (characters). The arena's stages are read in
  // address order and need none; what is asked for is each character's heap blocks: the
  // animator's track array and the stack's slot array four ahead (their addresses were noted at
  // build), the buffers these point to two ahead (reading the arrays, which have arrived by then),
  // and what the slots point to one ahead. (Running the animators of eight characters, then
  // their stacks, was tried: 25% slower on a crowd that fits the caches, docs/performance.md.)
  const auto body = [&setup, b, dt](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      if (i + 4 < end) {
        const CharacterBatch::Hints& h = b->hints_[i + 4];
        prefetch_bytes(h.tracks, h.track_bytes);
        prefetch_bytes(h.slots, h.slot_bytes);
      }
      if (i + 2 < end) {
        b->animators_[i + 2].prefetch();
        b->stacks_[i + 2].prefetch_slots();
      }
      if (i + 1 < end) b->stacks_[i + 1].prefetch_state();
      update_character(setup, *b, i, dt);
    }
  };
  parallel_for(batch.size(), CharacterRange(body));
}

}  // namespace asterune
