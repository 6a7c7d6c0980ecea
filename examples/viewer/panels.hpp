// asterune-viewer: the Dear ImGui panels. Playback (play, pause, step, speed, reset), the crowd
// (N characters, the batch's ms per frame), the frame time per stage, every control of the
// stack (enabled, weight, priority, smoothing and its main solver settings, with the live
// report) and every animator track (play and stop with a fade, weight, speed, the composed
// weights). Edits go to every character through SceneHost; the panels only read and call.
#pragma once

#include "draw.hpp"
#include "scene_host.hpp"

namespace asterune::viewer {

struct Playback {
  bool playing = true;
  bool step = false;     // advance one scene dt while paused (set by the panel, cleared by the loop)
  bool reset = false;    // back to frame 0 (set by the panel, cleared by the loop)
  float speed = 1.0f;    // scene seconds per real second
  int crowd = 1;         // the crowd size the slider asks for
  bool crowd_apply = false;
  float fade = 0.3f;     // seconds: the fade of the track panel's play and stop
  bool follow = true;    // the camera follows the first character's travel (camera.hpp follow_travel)
};

/// Milliseconds per stage of the last frames (an exponential average).
struct StageTimes {
  float input = 0.0f, update = 0.0f, draw = 0.0f, ui = 0.0f, frame = 0.0f;
};

/// Draws the panels for this frame (between ImGui::NewFrame and ImGui::Render).
void draw_panels(SceneHost& host, Playback& playback, const StageTimes& times, DrawOptions& draw, int threads);

/// The weight each track's pose takes on a joint every track covers fully, by the budget
/// composition of docs/animator.md (rule AN4): levels from Action4 down take what remains,
/// a level's claims normalised only past 1; additive tracks keep their own weight.
void composed_weights(const Animator& animator, float* out);

}  // namespace asterune::viewer
