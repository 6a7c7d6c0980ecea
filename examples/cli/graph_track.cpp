#include "graph_track.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "asterune/rig/rig.hpp"

namespace asterune::cli {

std::string graph_label(const io::SceneTrack& track, const std::string& scene_file, int track_index) {
  if (!track.graph_file.empty()) return track.graph_file.string();
  return scene_file + ": /tracks/" + std::to_string(track_index) + "/graph";
}

void bind_graph(BoundGraph& out, const io::SceneTrack& track, const Rig& rig, bool bake, RetargetCache* cache,
                bool keep_first_frame, const std::string& label) {
  if (!track.graph) throw CliError(label + ": the track has no graph");
  GraphDesc desc = track.graph->desc;  // the Clip nodes get their clip and binding here
  desc.plant_feet = track.plant_feet;  // rule LO15
  for (size_t i = 0; i < desc.nodes.size(); ++i) {
    GraphNodeDesc& node = desc.nodes[i];
    if (node.type != GraphNodeType::kClip) continue;
    auto bound = std::make_unique<BoundClip>();
    try {
      // Rule LO16: a Clip node's "cycle" is cut here, once, as a scene track's.
      const io::ClipCycle cycle = i < track.graph->clip_cycle.size() ? track.graph->clip_cycle[i] : io::ClipCycle::kNone;
      bind_clip(*bound, node.clip_source, track.graph->clip_retarget[i], rig, bake, cache, keep_first_frame, cycle);
    } catch (const CliError& e) {
      throw CliError(label + ": /nodes/" + node.id + ": node '" + node.id + "': " + e.what());
    }
    node.clip = &bound->clip();
    node.binding = &bound->binding;
    if (!bound->contacts.feet.empty()) node.contacts = &bound->contacts;  // rule GR16: blended contacts
    out.clips.push_back(std::move(bound));
    out.clip_node.push_back(static_cast<int>(i));
  }
  Result<GraphInstance> built = build_graph(desc, rig);
  if (!built) throw CliError(label + ": " + built.message());
  out.instance = std::move(built).value();
  out.desc = std::move(desc);
}

bool set_graph_parameter(GraphInstance& graph, const io::SceneParameterValue& value, float number) {
  const GraphParameter p = graph.find_parameter(value.name);
  switch (value.type) {
    case GraphParameterType::kNumber: return graph.set_number(p, number);
    case GraphParameterType::kBool: return graph.set_bool(p, value.boolean);
    case GraphParameterType::kString: return graph.set_string(p, value.string);
  }
  return false;
}

std::string graph_parameter_text(const GraphInstance& graph, int parameter) {
  const GraphParameter p{parameter};
  switch (graph.parameter_type(parameter)) {
    case GraphParameterType::kNumber: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(graph.number(p)));
      return buf;
    }
    case GraphParameterType::kBool: return graph.boolean(p) ? "true" : "false";
    case GraphParameterType::kString: return "'" + std::string(graph.string(p)) + "'";
  }
  return {};
}

bool parse_parameter_value(std::string_view text, GraphParameterType type, io::SceneParameterValue& out) {
  out.type = type;
  switch (type) {
    case GraphParameterType::kNumber: {
      float v = 0.0f;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) return false;
      out.number = v;
      return true;
    }
    case GraphParameterType::kBool:
      if (text != "true" && text != "false") return false;
      out.boolean = text == "true";
      return true;
    case GraphParameterType::kString: out.string = std::string(text); return true;
  }
  return false;
}

TrackDesc graph_track_desc(const io::SceneTrack& track, BoundGraph& graph) {
  TrackDesc d;
  d.name = track.name;
  d.source = &graph.instance;
  d.priority = track.priority.value_or(TrackPriority::kCore);
  d.weight = track.weight;
  d.speed = track.speed;
  d.playing = track.playing;
  d.mask.parts = track.mask_parts;
  d.mask.descendants = track.mask_descendants;
  d.root_motion = track.root_motion;
  return d;
}

}  // namespace asterune::cli
