// A synthetic first frame (rule RT23): motion-capture converters (the cgspeed CMU BVH files and
// others) put a rest-like pose (a T-pose) at frame 0 that is not motion; played, the body jumps
// from it to frame 1 and again at every loop. Detected from the clip itself and cut off at
// setup, before anything else reads the clip. Setup-time code (allocates); docs/retarget.md.
#pragma once

#include <string>

#include "asterune/clip/clip.hpp"
#include "asterune/core/result.hpp"
#include "asterune/rig/source_skeleton.hpp"

namespace asterune {

/// What detect_synthetic_first_frame() measured. Steps are the largest displacement of any
/// joint or end site relative to the root joint (so travel does not count) from one frame to
/// the next, in source units; pose distances the mean angle (degrees) of the non-root joints'
/// local rotations from their rest rotations.
struct FirstFrameCheck {
  bool synthetic = false;
  float frame_time = 0.0f;      // the clip's frame time (seconds): what dropping it removes
  float jump = 0.0f;            // the step from frame 0 to frame 1
  float typical = 0.0f;         // the 99th percentile of the steps after it
  float rest_distance0 = 0.0f;  // frame 0's pose distance from the rest
  float rest_distance1 = 0.0f;  // frame 1's
  std::string note;             // one line for the user when synthetic
};

/// Rule RT23. Samples `clip` on its own frame grid (sample_source()) and calls frame 0 synthetic
/// when it is a rest-like pose followed by a jump: at least 4 frames; the step from frame 0 to 1
/// is over 0.05 of the skeleton's rest height (its extent along +Y) and over 4 times the 99th
/// percentile of the later steps; and frame 0 is at most half as far from the rest as frame 1
/// (its mean joint angle from the rest). A clip that does not bind gives not synthetic.
FirstFrameCheck detect_synthetic_first_frame(const Clip& clip, const SourceSkeleton& source);

/// Rule RT23: cuts the first `frame_time` seconds off `clip`: per channel the keys before
/// frame_time / 2 are removed (a channel left with none keeps its first key, moved to 0) and the
/// rest move frame_time earlier, with their tangents and easing; markers move too (those before
/// 0 are dropped); the duration shrinks by frame_time (not below 0).
void drop_first_frame(Clip& clip, float frame_time);

}  // namespace asterune
