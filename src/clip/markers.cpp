// Markers at a loop's seam (rule AN17): the track walk and the graph's Clip nodes share this test.
#include <cmath>
#include <cstddef>

#include "asterune/clip/markers.hpp"

namespace asterune {

bool is_loop_seam_twin(const Clip& clip, int marker, float start, float end, bool forward) {
  if (marker < 0 || static_cast<size_t>(marker) >= clip.markers.size() || !(end > start)) return false;
  const ClipMarker& m = clip.markers[static_cast<size_t>(marker)];
  const float seam_end = forward ? end : start;
  const float seam_start = forward ? start : end;
  // Within a tenth of a millisecond: a contact's frame time and a duration are computed apart.
  const float eps = 1e-4f;
  if (std::fabs(m.time - seam_end) > eps) return false;
  for (const ClipMarker& o : clip.markers)
    if (std::fabs(o.time - seam_start) <= eps && o.kind == m.kind && o.name == m.name && o.value == m.value) return true;
  return false;
}

}  // namespace asterune
