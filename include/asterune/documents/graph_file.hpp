// Reader of the asterune.graph/1 document (docs/formats.md, "Graph"; rule F9): an animation
// graph's parameters, nodes and output as JSON, turned into a GraphDesc for build_graph().
// The reader checks the file's own structure (keys, node types, node references, required
// inputs, parameter names and types) and names the file, the JSON path and the node on any
// error; the graph-wide checks (cycles, blend-space geometry, clips and bindings) stay in
// build_graph(). Clips are not loaded here: a Clip node's clip_source is the clip path, resolved
// against the graph file's folder, and whoever builds the graph loads it and sets clip/binding,
// retargeting with the node's "retarget" block (GraphDocument, rule F10) as a scene track would.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <vector>

#include "asterune/core/result.hpp"
#include "asterune/documents/scene_animation.hpp"
#include "asterune/graph/graph_desc.hpp"

namespace asterune::io {

/// The format tag every graph document carries in "format".
inline constexpr std::string_view kGraphFormat = "asterune.graph/1";

/// A graph document: the runtime's description and what only the loader needs (rule F10).
struct GraphDocument {
  GraphDesc desc;
  /// Per node (index = GraphDesc node index): a Clip node's "retarget" block, the same block as a
  /// scene track's (scene_animation.hpp); the defaults when the node gives none or is no Clip.
  std::vector<SceneRetarget> clip_retarget;
  /// Per node: a Clip node's "cycle" (rule LO16: "auto" cuts a loop of whole strides when the
  /// loader binds the clip, as for a scene track, rules LO1-LO5); kNone elsewhere.
  std::vector<ClipCycle> clip_cycle;
};

/// Parses an asterune.graph/1 document. `file_label` names the file in messages and its folder
/// resolves relative Clip paths (a Clip node's clip_source is then the normalized path; its
/// clip and binding stay null). Nodes get indices in file order; every node reference becomes
/// that index. Fails with one line "<file_label>: <json path>: node '<id>': <reason>" on: a
/// syntax error, a wrong or missing format tag, an unknown top-level, node or input key, an
/// unknown node type or enum value, an input or output naming no node, a missing required input
/// (Clip: clip; Select..Blend2D: a non-empty inputs; Over: base+over; Add: base+additive;
/// Subtract: a+b; Mask and Speed: pose), a literal of the wrong JSON type, a {"parameter": NAME}
/// naming an undeclared parameter or one of the wrong type, a parameter declared twice or with a
/// default of the wrong type, a bad Clip "retarget" block (as a scene track's). Nothing half-built.
Result<GraphDocument> parse_graph_document(std::string_view text, const std::string& file_label);

/// Reads and parses the graph file at `path` (parse_graph_document with label path.string()).
Result<GraphDocument> read_graph_document_file(const std::filesystem::path& path);

/// parse_graph_document without the Clip nodes' retarget blocks (checked, then dropped).
Result<GraphDesc> parse_graph(std::string_view text, const std::string& file_label);

/// read_graph_document_file without the Clip nodes' retarget blocks.
Result<GraphDesc> read_graph_file(const std::filesystem::path& path);

}  // namespace asterune::io
