// Loop cycles cut from raw capture (rules LO1-LO4, docs/locomotion.md): a walk or run captured
// from a stand to a stop never loops, so find_cycle() picks the span [a, b] of whole strides
// (the same foot's contact start at both ends, rule RT17) whose ends match best in pose and
// velocity, and cut_cycle() cuts it into a clip whose end continues into its start: the seam is
// removed by a velocity-matched blend and the root motion made cyclic (each loop continues the
// travel and heading change of one cycle). Setup-time work on a source clip (allocates); the cut
// clip then samples like any clip, so playback allocates nothing.
#pragma once

#include <string>

#include <glm/glm.hpp>

#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/retarget/contacts.hpp"
#include "asterune/rig/source_skeleton.hpp"

namespace asterune {

/// Tunables of the cycle search and the seam blend (seconds and fractions).
struct CycleOptions {
  /// Rule LO1: each end may move this fraction of the mean stride period off its contact start,
  /// so the best-matching frames near the contact are found (contact starts are quantised by the
  /// contact thresholds, not exact events).
  float search_window = 0.1f;
  /// Rule LO2: the time scale that turns velocities into the mismatch's units (a velocity
  /// difference weighs as the displacement it makes over this time).
  float velocity_time = 0.1f;
  /// Rule LO2: the same for the travel (root velocity and heading rate). Weighing it more picks
  /// steadier strides but ends them at phases where the joints move faster (CMU clips: larger
  /// seam steps), so by default it weighs as the joints' velocities do.
  float travel_time = 0.1f;
  /// Rule LO3: the blend's length on each side of the seam (seconds), at most a quarter cycle.
  float blend_time = 0.3f;
};

/// The loop span found in a clip (frames of the contacts' grid: t = frame * dt).
struct CycleSpan {
  int first = 0;            // a: the loop's start frame
  int last = 0;             // b: the frame that continues into a (the loop is b - a frames long)
  float dt = 0.0f;          // seconds per frame
  int strides = 0;          // whole strides (same-foot contact starts) between a and b
  std::string foot;         // the contacts' foot label whose contact starts bound the span
  float mismatch = 0.0f;    // E(a, b) of rule LO2 (dimensionless; 0 = a perfect loop)
  float largest_gap = 0.0f; // the largest joint rotation between a and b before the blend, radians
  float start_time() const { return static_cast<float>(first) * dt; }
  float end_time() const { return static_cast<float>(last) * dt; }
  /// One line for a note: "cycle 1.233-2.458 s (frames 148-295), 1 stride of LeftFoot, seam
  /// mismatch 0.0123 (largest joint gap 4.1 deg before the blend)".
  std::string describe() const;
};

/// Rule LO1, LO2: the span of whole strides whose ends match best. `contacts` are the clip's
/// foot contacts (find_foot_contacts() on `clip` and `source`: its grid, feet, up and leg length
/// are used). Candidates: for each foot, every pair of its contact starts i < j (a contact that
/// begins at the clip's first frame is not a start) between which every other foot starts
/// exactly j - i contacts (one step of each foot per stride), each end moved by up to
/// options.search_window of the mean stride period; the span with the smallest mismatch E wins
/// (ties within 1e-6: more strides). Fails, naming the clip, when it does not bind to `source`, when no foot
/// has two such contact starts (less than one whole stride), or when the contacts were found on
/// another grid.
Result<CycleSpan> find_cycle(const Clip& clip, const SourceSkeleton& source, const FootContacts& contacts,
                             const CycleOptions& options = {});

/// Rule LO3, LO4: the clip of frames [span.first, span.last] made to loop. Every track is keyed
/// linearly at each frame of the span (times from 0 to (b - a) dt, the clip's duration); the
/// seam blend adds to the frames within options.blend_time of either end a cubic offset that
/// brings both ends to the middle of their poses and velocities (key b = key a, except the
/// travelling joint's heading and horizontal position, which continue one cycle on). Markers
/// inside the span are kept (shifted); scale keys are resampled. Fails, naming the clip, when it
/// does not bind to `source` or the span is not inside the clip or shorter than 4 frames.
Result<Clip> cut_cycle(const Clip& clip, const SourceSkeleton& source, const CycleSpan& span, const glm::vec3& up,
                       const CycleOptions& options = {});

}  // namespace asterune
