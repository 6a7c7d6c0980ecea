// The animator's composition (rules AN4-AN6, AN10): the priority levels and their budget give
// each override track one weight per joint and the rest pose its share; the blending job
// (asterune/anim/blending_job.hpp) does the weighted sums, the normalisation and the additive
// layers.
#include <algorithm>
#include <cstddef>

#include "anim/animator_track.hpp"
#include "asterune/anim/blending_job.hpp"

namespace asterune {

namespace {

// A track's claims a = w * coverage (* mask) (rule AN4), written to `claim` and to the level's
// sum: copied by the level's first track, added by the others in composition order.
template <bool kMask, bool kFirst>
void claim_pass(float w, const float* __restrict cov, const float* __restrict mask, float* __restrict claim,
                float* __restrict sum, size_t n) {
  for (size_t j = 0; j < n; ++j) {
    const float c = kMask ? w * cov[j] * mask[j] : w * cov[j];
    claim[j] = c;
    sum[j] = kFirst ? c : sum[j] + c;
  }
}

// One level's share of the budget per joint (rule AN4, docs/animator.md): from the summed
// claims w and the remaining budget r, the scale n_i = a_i * scale and the new budget.
template <bool kBudget>
void level_scale(const float* sum, float* rest, float* scale, size_t n) {
  for (size_t j = 0; j < n; ++j) {
    const float w = sum[j];
    if (!(w > 0.0f)) {
      scale[j] = 0.0f;
      continue;
    }
    const float m = std::min(w, 1.0f);
    const float k = kBudget ? std::min(1.0f, rest[j] / m) : rest[j];
    scale[j] = k / std::max(w, 1.0f);
    rest[j] -= m * k;
    if (!(rest[j] > 0.0f)) rest[j] = 0.0f;  // lower levels then take nothing
  }
}

}  // namespace

size_t Animator::budget_layers() const {
  // Track-major (each pass runs over the joints of one track, no per-joint indirection), in
  // the same order of operations per joint as the formula: levels from the top, tracks in
  // composition order within a level.
  const auto n = static_cast<size_t>(joint_count_);
  const bool budget = mode_ == CompositionMode::kBudget;
  float* rest = scratch_rest_.data();
  float* sum = scratch_sum_.data();
  float* scale = scratch_scale_.data();
  std::fill_n(rest, n, 1.0f);
  size_t layers = 0;
  int begin = 0;
  for (const int level_end : level_end_) {
    bool any = false;
    for (int i = begin; i < level_end; ++i) {
      const Track& tr = tracks_[static_cast<size_t>(override_order_[static_cast<size_t>(i)])];
      if (!tr.sampled) continue;
      const float w = tr.state.weight_current;
      const float* cov = tr.coverage.data();
      // The claims and the level's sum in one pass (the first track's claims are the sum).
      float* claim = tr.claim.data();
      const float* mask = tr.mask.empty() ? nullptr : tr.mask.data();
      if (!any) {
        if (mask)
          claim_pass<true, true>(w, cov, mask, claim, sum, n);
        else
          claim_pass<false, true>(w, cov, mask, claim, sum, n);
        any = true;
      } else {
        if (mask)
          claim_pass<true, false>(w, cov, mask, claim, sum, n);
        else
          claim_pass<false, false>(w, cov, mask, claim, sum, n);
      }
    }
    if (any) {
      // An unclaimed joint is skipped by a branch: a branch-free loop the compiler runs four
      // joints at a time was slower (it divides for every joint; docs/performance.md).
      if (budget)
        level_scale<true>(sum, rest, scale, n);
      else
        level_scale<false>(sum, rest, scale, n);
      for (int i = begin; i < level_end; ++i) {
        const Track& tr = tracks_[static_cast<size_t>(override_order_[static_cast<size_t>(i)])];
        if (!tr.sampled) continue;
        // The effective weights e = claim * scale, the job's per-joint weights for this track.
        float* e = tr.claim.data();
        for (size_t j = 0; j < n; ++j) e[j] *= scale[j];
        if (root_joint_ >= 0) {
          const float er = e[static_cast<size_t>(root_joint_)];
          tr.root_weight = er > 0.0f ? er : 0.0f;
        }
        scratch_layers_[layers++] = BlendLayer{tr.local, 1.0f, tr.claim};
      }
    }
    begin = level_end;
  }
  return layers;
}

size_t Animator::additive_layers() const {
  // Rule AN6: each sampled additive track's delta from its reference pose and its weight
  // a = weight * coverage * mask per joint, in ascending priority then build order.
  const auto n = static_cast<size_t>(joint_count_);
  size_t layers = 0;
  for (const int t : additive_order_) {
    const Track& tr = tracks_[static_cast<size_t>(t)];
    if (!tr.sampled) continue;
    const float w = tr.state.weight_current;
    for (size_t j = 0; j < n; ++j) {
      tr.claim[j] = w * tr.coverage[j] * (tr.mask.empty() ? 1.0f : tr.mask[j]);
      tr.delta[j].rotation = tr.local[j].rotation * glm::conjugate(tr.reference[j].rotation);
      tr.delta[j].position = tr.local[j].position - tr.reference[j].position;
    }
    scratch_additive_[layers++] = AdditiveLayer{tr.delta, 1.0f, tr.claim};
  }
  return layers;
}

void Animator::compose_samples(std::span<Transform> local, std::span<float> coverage) const {
  // Overrides by priority (rule AN4), or the lone full-weight track as sampled (rule AN10).
  int overrides = 0;
  bool any_additive = false, any_root = false;
  const Track* lone_track = nullptr;
  for (const Track& tr : tracks_) {
    tr.root_weight = 0.0f;
    if (!tr.sampled) continue;
    if (tr.desc.additive) {
      any_additive = true;
      continue;
    }
    ++overrides;
    lone_track = &tr;
    any_root = any_root || (tr.desc.root_motion && root_joint_ >= 0);
  }
  // The animator's weights are budgeted to sum to 1 with the rest share, and its documented
  // bits are those of the exact normalisation (tests/anim/composition_test.cpp).
  BlendingJob job;
  job.normalize = BlendNormalize::kExact;
  job.output = local;
  claims_ready_ = false;
  if (overrides == 1 && !any_root && lone_track->state.weight_current == 1.0f && lone_track->mask.empty()) {
    std::copy(lone_track->coverage.begin(), lone_track->coverage.end(), coverage.begin());
    if (!any_additive) {
      std::copy(lone_track->local.begin(), lone_track->local.end(), local.begin());
      return;
    }
    // One layer of weight 1 everywhere: the job copies it unchanged (rule BL4) and adds.
    scratch_layers_[0] = BlendLayer{lone_track->local, 1.0f, {}};
    job.layers = std::span<const BlendLayer>(scratch_layers_.data(), 1);
  } else {
    job.layers = std::span<const BlendLayer>(scratch_layers_.data(), budget_layers());
    claims_ready_ = true;
    job.rest_weights = scratch_rest_;
    job.coverage = coverage;
  }
  if (any_additive) job.additive = std::span<const AdditiveLayer>(scratch_additive_.data(), additive_layers());
  blend_poses(job);
}

}  // namespace asterune
