#include "panels.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <variant>
#include <vector>

#include <imgui.h>

namespace asterune::viewer {

void composed_weights(const Animator& a, float* out) {
  const int n = a.track_count();
  float remaining = 1.0f;
  for (int level = kTrackPriorityCount - 1; level >= 0; --level) {
    float claims = 0.0f;
    for (int t = 0; t < n; ++t)
      if (!a.desc(t).additive && static_cast<int>(a.desc(t).priority) == level)
        claims += std::max(0.0f, a.state(t).weight_current);
    for (int t = 0; t < n; ++t) {
      if (a.desc(t).additive) out[t] = a.state(t).weight_current;
      else if (static_cast<int>(a.desc(t).priority) == level) out[t] = 0.0f;
    }
    if (claims <= 0.0f || remaining <= 0.0f) continue;
    const float m = std::min(claims, 1.0f), k = std::min(1.0f, remaining / m);
    for (int t = 0; t < n; ++t)
      if (!a.desc(t).additive && static_cast<int>(a.desc(t).priority) == level)
        out[t] = std::max(0.0f, a.state(t).weight_current) / std::max(claims, 1.0f) * k;
    remaining -= m * k;
  }
}

namespace {

const char* control_kind(const ControlDesc& d) {
  if (std::holds_alternative<IkSettings>(d.settings)) return "ik";
  if (std::holds_alternative<LookAtSettings>(d.settings)) return "look_at";
  if (std::holds_alternative<SpringSettings>(d.settings)) return "spring";
  return "feet";
}

// The main solver settings of one control; true when one was changed (the stacks then rebind).
bool settings_editor(ControlDesc& d) {
  bool changed = false;
  auto done = [&] { changed = changed || ImGui::IsItemDeactivatedAfterEdit(); };
  if (auto* ik = std::get_if<IkSettings>(&d.settings)) {
    int solver = static_cast<int>(ik->solver);
    if (ImGui::Combo("solver", &solver, "auto\0two-bone\0FABRIK\0CCD\0")) {
      ik->solver = static_cast<IkSolver>(solver);
      changed = true;
    }
    ImGui::SliderFloat("stretch", &ik->stretch, 1.0f, 1.5f), done();
    ImGui::SliderFloat("max extension", &ik->max_extension, 0.0f, 0.999f), done();
    ImGui::SliderFloat("soft reach", &ik->soft_reach, 0.0f, 1.0f), done();
    ImGui::SliderInt("max passes", &ik->max_passes, 1, 64), done();
  } else if (auto* la = std::get_if<LookAtSettings>(&d.settings)) {
    ImGui::SliderFloat("yaw limit", &la->yaw_limit_deg, 0.0f, 180.0f, "%.0f deg"), done();
    ImGui::SliderFloat("pitch limit", &la->pitch_limit_deg, 0.0f, 90.0f, "%.0f deg"), done();
    ImGui::SliderFloat("tracking speed", &la->tracking_speed_deg_per_s, 0.0f, 720.0f, "%.0f deg/s"), done();
  } else if (auto* sp = std::get_if<SpringSettings>(&d.settings)) {
    ImGui::SliderFloat("stiffness", &sp->stiffness, 0.0f, 400.0f), done();
    ImGui::SliderFloat("damping", &sp->damping, 0.0f, 40.0f), done();
    ImGui::SliderFloat("gravity y", &sp->gravity.y, -200.0f, 0.0f), done();
  } else if (auto* ft = std::get_if<FeetSettings>(&d.settings)) {
    ImGui::SliderFloat("probe height", &ft->probe_height, 0.1f, 3.0f), done();
    ImGui::SliderFloat("max lift", &ft->max_lift, 0.0f, 3.0f), done();
    if (ImGui::Checkbox("pelvis", &ft->pelvis)) changed = true;
    if (ImGui::Checkbox("align to normal", &ft->align_to_normal)) changed = true;
    ImGui::SliderFloat("max tilt", &ft->max_tilt_deg, 0.0f, 90.0f, "%.0f deg"), done();
  }
  return changed;
}

void report_view(const ControlDesc& d, const ControlReport& r) {
  ImGui::Text("%s%s%s  weight %.2f", to_string(r.status), r.reached ? ", reached" : "", r.clamped ? ", clamped" : "",
              r.weight);
  if (std::holds_alternative<FeetSettings>(d.settings)) {
    for (int f = 0; f < r.feet.foot_count && f < kMaxFeet; ++f) {
      const FootReport& foot = r.feet.feet[static_cast<size_t>(f)];
      ImGui::Text("foot %d: %s, lift %.3f, tilt %.1f deg%s", f, foot.hit ? "hit" : "missed", foot.lift, foot.tilt_deg,
                  foot.clamped ? ", clamped" : "");
    }
    ImGui::Text("pelvis drop %.3f, lean %.1f deg", r.feet.pelvis_drop, r.feet.lean_deg);
  } else if (std::holds_alternative<SpringSettings>(d.settings)) {
    ImGui::Text("substeps %d, resets %d", r.substeps, r.resets);
  } else {
    ImGui::Text("distance %.4f, angle %.4f rad, passes %d, stretch %.3f", r.distance, r.angle, r.passes, r.stretch);
  }
}

void playback_panel(SceneHost& host, Playback& p, const StageTimes& times, DrawOptions& draw, int threads) {
  ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(360, 0), ImGuiCond_FirstUseEver);
  ImGui::Begin("Playback");
  ImGui::TextWrapped("%s", host.scene().file.filename().string().c_str());
  ImGui::Text("frame %d   t = %.3f s   dt %.4f s", host.frame(), host.time(), host.scene().dt);
  if (ImGui::Button(p.playing ? "Pause" : "Play")) p.playing = !p.playing;
  ImGui::SameLine();
  if (ImGui::Button("Step")) {
    p.playing = false;
    p.step = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset")) p.reset = true;
  ImGui::SliderFloat("speed", &p.speed, 0.0f, 2.0f, "%.2fx");
  ImGui::Checkbox("camera follows", &p.follow);
  ImGui::Separator();
  ImGui::SliderInt("crowd", &p.crowd, 1, kMaxCrowd, "%d", ImGuiSliderFlags_Logarithmic);
  ImGui::SameLine();
  if (ImGui::Button("Apply")) p.crowd_apply = true;
  const size_t n = host.characters().size();
  ImGui::Text("%zu character(s) on %d threads: batch %.3f ms/frame", n, threads, times.update);
  ImGui::Text("  %.2f us per character", n > 0 ? 1000.0f * times.update / static_cast<float>(n) : 0.0f);
  ImGui::Separator();
  ImGui::Text("frame %.2f ms: input %.2f, update %.2f,", times.frame, times.input, times.update);
  ImGui::Text("  draw %.2f, panels %.2f", times.draw, times.ui);
  ImGui::Checkbox("parts", &draw.parts);
  ImGui::SameLine();
  ImGui::Checkbox("skeleton", &draw.skeleton);
  ImGui::SameLine();
  ImGui::Checkbox("controls", &draw.controls);
  ImGui::Checkbox("ground", &draw.ground);
  ImGui::SameLine();
  ImGui::Checkbox("grid", &draw.grid);
  ImGui::TextDisabled("drag: orbit; drag a red cross: move that target");
  ImGui::TextDisabled("right or middle drag: pan; wheel: zoom");
  ImGui::End();
}

void controls_panel(SceneHost& host) {
  ImGui::SetNextWindowPos(ImVec2(8, 300), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(360, 0), ImGuiCond_FirstUseEver);
  ImGui::Begin("Controls");
  if (host.control_count() == 0) ImGui::TextDisabled("the scene has no controls");
  static std::string error;
  const Character& first = host.characters().front();
  for (int i = 0; i < host.control_count(); ++i) {
    ControlDesc& d = host.control_desc(i);
    ImGui::PushID(i);
    char title[160];
    std::snprintf(title, sizeof title, "%s (%s)", d.name.c_str(), control_kind(d));
    if (ImGui::CollapsingHeader(title, ImGuiTreeNodeFlags_DefaultOpen)) {
      bool enabled = d.enabled;
      if (ImGui::Checkbox("enabled", &enabled)) host.set_enabled(i, enabled);
      float weight = d.weight;
      if (ImGui::SliderFloat("weight", &weight, 0.0f, 1.0f)) host.set_weight(i, weight);
      int priority = d.priority;
      if (ImGui::InputInt("priority", &priority)) host.set_priority(i, priority);
      float smooth = d.smooth_time;
      if (ImGui::SliderFloat("smooth time", &smooth, 0.0f, 1.0f, "%.2f s")) host.set_smooth_time(i, smooth);
      if (ImGui::TreeNode("settings")) {
        if (settings_editor(d)) error = host.rebind_controls();
        ImGui::TreePop();
      }
      report_view(d, first.stack.report(i));
    }
    ImGui::PopID();
  }
  if (!error.empty()) ImGui::TextColored(ImVec4(0.8f, 0.1f, 0.1f, 1.0f), "%s", error.c_str());
  ImGui::End();
}

// A graph track (rule F10): its parameters as sliders, checkboxes and text fields (a change is
// the script's SetParameter, from the next frame), and every node's weight live (rule GR12).
void graph_view(SceneHost& host, int track, GraphInstance& g) {
  if (!ImGui::TreeNodeEx("graph", ImGuiTreeNodeFlags_DefaultOpen)) return;
  for (int i = 0; i < g.parameter_count(); ++i) {
    const GraphParameter h{i};
    const char* name = g.parameter_name(i).c_str();
    switch (g.parameter_type(i)) {
      case GraphParameterType::kNumber: {
        float v = g.number(h);
        if (ImGui::DragFloat(name, &v, 0.02f)) {
          host.cancel_ramp(track, h);
          host.for_each_graph(track, [&](GraphInstance& each) { each.set_number(h, v); });
        }
        break;
      }
      case GraphParameterType::kBool: {
        bool v = g.boolean(h);
        if (ImGui::Checkbox(name, &v)) host.for_each_graph(track, [&](GraphInstance& each) { each.set_bool(h, v); });
        break;
      }
      case GraphParameterType::kString: {
        char text[256];
        const std::string_view v = g.string(h);
        const size_t n = std::min(v.size(), sizeof text - 1);
        v.copy(text, n);
        text[n] = '\0';
        const int capacity = std::min(g.string_capacity(), static_cast<int>(sizeof text) - 1);
        if (ImGui::InputText(name, text, static_cast<size_t>(capacity) + 1))
          host.for_each_graph(track, [&](GraphInstance& each) { each.set_string(h, text); });
        break;
      }
    }
  }
  for (int n = 0; n < g.node_count(); ++n) {
    const float w = g.node_weight(n);
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%s %.2f", g.node_id(n).c_str(), w);
    ImGui::ProgressBar(std::clamp(w, 0.0f, 1.0f), ImVec2(160.0f, 0.0f), overlay);
    if (w != 0.0f) {
      ImGui::SameLine();
      ImGui::Text("t %.2f s  phase %.2f", g.node_time(n), g.node_phase(n));
    }
  }
  ImGui::TreePop();
}

void tracks_panel(SceneHost& host, Playback& p) {
  const Animator& a = host.characters().front().animator;
  ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x - 8.0f, 8.0f), ImGuiCond_FirstUseEver, ImVec2(1.0f, 0.0f));
  ImGui::SetNextWindowSize(ImVec2(380, 0), ImGuiCond_FirstUseEver);
  ImGui::Begin("Tracks");
  std::vector<float> composed(static_cast<size_t>(a.track_count()));
  composed_weights(a, composed.data());
  ImGui::SliderFloat("fade", &p.fade, 0.0f, 2.0f, "%.2f s");
  for (int t = 0; t < a.track_count(); ++t) {
    const TrackDesc& d = a.desc(t);
    const TrackState& s = a.state(t);
    ImGui::PushID(t);
    ImGui::Separator();
    ImGui::Text("%s (%s%s%s)", d.name.c_str(), to_string(d.priority), d.looped ? ", looped" : "",
                d.additive ? ", additive" : "");
    ImGui::Text("%s  t %.2f / %.2f s  weight %.2f -> %.2f  composed %.2f", s.playing ? "playing" : "stopped",
                s.time_position, a.length(t), s.weight_current, s.weight_target, composed[static_cast<size_t>(t)]);
    if (ImGui::Button("Play")) {
      PlayOptions o;
      o.fade = p.fade;
      o.weight = s.weight_target > 0.0f ? s.weight_target : 1.0f;
      o.speed = s.speed;
      for (Character& c : host.characters()) c.animator.play(t, o);
    }
    ImGui::SameLine();
    if (ImGui::Button("Stop"))
      for (Character& c : host.characters()) c.animator.stop(t, p.fade);
    float weight = s.weight_target;
    if (ImGui::SliderFloat("weight", &weight, 0.0f, 1.0f))
      for (Character& c : host.characters()) c.animator.adjust_weight(t, weight, p.fade);
    float speed = s.speed;
    if (ImGui::SliderFloat("speed", &speed, -2.0f, 2.0f))
      for (Character& c : host.characters()) c.animator.adjust_speed(t, speed);
    if (GraphInstance* g = host.graph(t)) graph_view(host, t, *g);
    ImGui::PopID();
  }
  if (!host.notes.empty() && ImGui::TreeNode("how the clips are bound")) {
    for (const std::string& note : host.notes) ImGui::TextWrapped("%s", note.c_str());
    ImGui::TreePop();
  }
  ImGui::End();
}

}  // namespace

void draw_panels(SceneHost& host, Playback& playback, const StageTimes& times, DrawOptions& draw, int threads) {
  playback_panel(host, playback, times, draw, threads);
  controls_panel(host);
  tracks_panel(host, playback);
}

}  // namespace asterune::viewer
