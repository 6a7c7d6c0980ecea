// asterune-solve: a scene track's animation graph (rule F10) made ready to play: every Clip
// node's clip loaded and bound like a scene track's (bind_clip, its own "retarget" block, the
// run's RetargetCache), then the graph built on the rig (build_graph). The Animator plays the
// GraphInstance as the track's pose source (rule GR15); set_parameter commands and --set reach
// its parameters through set_graph_parameter.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "asterune/anim/animator.hpp"
#include "asterune/documents/scene_tracks.hpp"
#include "asterune/graph/graph.hpp"
#include "asterune/retarget/cache.hpp"
#include "animation_source.hpp"

namespace asterune::cli {

/// A built graph and the clips its Clip nodes play. Not movable once bound (the instance and
/// `desc` point into `clips`). `desc` builds more instances of the same graph (one per
/// character: clips and bindings are shared read-only, rule GR13).
struct BoundGraph {
  std::vector<std::unique_ptr<BoundClip>> clips;  // one per Clip node, in node order
  std::vector<int> clip_node;                     // the graph node of each entry of `clips`
  GraphDesc desc;                                 // the graph with its Clip nodes bound
  GraphInstance instance;
};

/// Where a graph track's messages point: the graph file, else the scene and the track's JSON path
/// ("scene.json: /tracks/2/graph").
std::string graph_label(const io::SceneTrack& track, const std::string& scene_file, int track_index);

/// Binds every Clip node of `track.graph` (bind_clip with the node's retarget block and `cache`)
/// and builds the graph on `rig` into `out`. Throws CliError naming `label`, the node and the
/// reason (a clip that does not load or bind, a graph build_graph refuses).
void bind_graph(BoundGraph& out, const io::SceneTrack& track, const Rig& rig, bool bake, RetargetCache* cache,
                bool keep_first_frame, const std::string& label);

/// The Animator track that plays `graph` for `track` (rule GR15): the scene track's name,
/// priority (default Core), weight, speed, playing, mask and root_motion (rule GR16), with the
/// graph instance as its pose source. asterune-solve and the viewer both build it here.
TrackDesc graph_track_desc(const io::SceneTrack& track, BoundGraph& graph);

/// Sets a parameter from a set_parameter command's value (rule F10; its type was checked when
/// the scene was read). For a number, `number` replaces the command's value (a ramp's current
/// point). Returns false when the graph refuses it (an unknown name, a string too long).
bool set_graph_parameter(GraphInstance& graph, const io::SceneParameterValue& value, float number);

/// The parameter's value as text, for the table ("3.000", "true", "'walk'").
std::string graph_parameter_text(const GraphInstance& graph, int parameter);

/// Parses a --set value for a parameter of `type` (rule F10): a finite number, true/false, or
/// any text for a string. Returns false when it is not one.
bool parse_parameter_value(std::string_view text, GraphParameterType type, io::SceneParameterValue& out);

}  // namespace asterune::cli
