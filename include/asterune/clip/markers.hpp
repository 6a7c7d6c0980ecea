// Clip markers at a loop's seam (rule AN17): the one test the track walk and the graph's Clip
// nodes share, so a marker at the instant where a loop ends and restarts is reported once.
#pragma once

#include "asterune/clip/clip.hpp"

namespace asterune {

/// Rule AN17: in a looped playback of [start, end] the end and the start are one instant, so a
/// marker at the end that has a twin (same name, value and kind) at the start would be reported
/// twice per lap. True when `marker` (an index into clip.markers) is such an end twin: at `end`
/// when playing forward, at `start` when reversed (times within 1e-4 s). Playback skips it; the
/// start's twin reports the instant once, as the new lap's start. A marker alone at the end is
/// no twin and stays. Out-of-range indices and empty spans give false.
bool is_loop_seam_twin(const Clip& clip, int marker, float start, float end, bool forward);

}  // namespace asterune
