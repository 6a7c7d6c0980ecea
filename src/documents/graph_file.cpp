// The asterune.graph/1 reader (graph_file.hpp, docs/formats.md "Graph", rule F9).
#include "asterune/documents/graph_file.hpp"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "graph_document.hpp"
#include "scene_blocks.hpp"

namespace asterune::io {
namespace {

using namespace detail;

// What a node's properties are read against: the declared parameters and the node ids.
struct GraphContext {
  const std::vector<GraphParameterDesc>* parameters = nullptr;
  std::vector<std::string> ids;  // file order = GraphDesc index
  std::filesystem::path folder;  // relative clip paths start here
  std::vector<SceneRetarget>* retarget = nullptr;  // per node (file order): a Clip's "retarget" block
  std::vector<ClipCycle>* cycle = nullptr;         // per node (file order): a Clip's "cycle" (rule LO16)
};

const char* json_kind(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a bool";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
}

std::string join(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return list.empty() ? "none" : list;
}

// {"parameter": NAME}: NAME must be declared with type `want` (rule GR1).
std::string read_binding(const Json& v, const std::string& p, GraphParameterType want, const GraphContext& c) {
  check_keys(v, p, {"parameter"});
  const std::string pp = child_pointer(p, "parameter");
  const std::string name = read_name(require_member(v, p, "parameter"), pp);
  std::vector<std::string> declared;
  for (const GraphParameterDesc& g : *c.parameters) {
    if (g.name != name) {
      declared.push_back(g.name);
      continue;
    }
    if (g.type != want)
      fail(pp, "the parameter '" + name + "' is a " + to_string(g.type) + ", this value needs a " + to_string(want));
    return name;
  }
  fail(pp, "unknown parameter '" + name + "' (declared: " + join(declared) + ")");
}

void require_kind(bool ok, const Json& v, const std::string& p, const char* what) {
  if (!ok) fail(p, std::string("expected ") + what + " or {\"parameter\": NAME}, found " + json_kind(v));
}

GraphNumber read_number(const Json& v, const std::string& p, const GraphContext& c) {
  if (v.is_object()) return {0.0f, read_binding(v, p, GraphParameterType::kNumber, c)};
  require_kind(v.is_number(), v, p, "a number");
  return {read_float(v, p), {}};
}
GraphBool read_bool_value(const Json& v, const std::string& p, const GraphContext& c) {
  if (v.is_object()) return {false, read_binding(v, p, GraphParameterType::kBool, c)};
  require_kind(v.is_boolean(), v, p, "a bool");
  return {v.get<bool>(), {}};
}
GraphString read_string_value(const Json& v, const std::string& p, const GraphContext& c) {
  if (v.is_object()) return {{}, read_binding(v, p, GraphParameterType::kString, c)};
  require_kind(v.is_string(), v, p, "a string");
  return {v.get<std::string>(), {}};
}

// Values the graph fixes at build (blend positions, counts, seeds): no parameter may set them.
void refuse_binding(const Json& v, const std::string& p) {
  if (v.is_object()) fail(p, "this value is fixed when the graph is built; a parameter cannot set it");
}
float read_fixed_float(const Json& v, const std::string& p) {
  refuse_binding(v, p);
  return read_float(v, p);
}

template <class E, class Parse>
E read_enum(const Json& v, const std::string& p, Parse parse, std::initializer_list<const char*> names) {
  refuse_binding(v, p);
  const std::string s = read_string(v, p);
  if (const std::optional<E> e = parse(s)) return *e;
  std::string list;
  for (const char* n : names) list += (list.empty() ? "" : ", ") + std::string(n);
  fail(p, "unknown value '" + s + "' (expected one of: " + list + ")");
}

int read_node_ref(const Json& v, const std::string& p, const GraphContext& c) {
  const std::string id = read_name(v, p);
  for (size_t i = 0; i < c.ids.size(); ++i)
    if (c.ids[i] == id) return static_cast<int>(i);
  fail(p, "no node has the id '" + id + "' (nodes: " + join(c.ids) + ")");
}

GraphTransition read_transition(const Json& v, const std::string& p) {
  require_object(v, p);
  check_keys(v, p, {"duration", "curve"});
  GraphTransition t;
  if (const Json* d = find_member(v, "duration")) t.duration = read_fixed_float(*d, child_pointer(p, "duration"));
  if (const Json* k = find_member(v, "curve"))
    t.curve =
        read_enum<GraphCurve>(*k, child_pointer(p, "curve"), parse_graph_curve, {"Linear", "CubicV2", "Inertial"});
  return t;
}

int read_count(const Json& v, const std::string& p) {
  refuse_binding(v, p);
  const int n = read_int(v, p);
  if (n < 0) fail(p, "a count must be >= 0 (0 = forever)");
  return n;
}

// The keys an entry of `inputs` may carry, by node type (docs/formats.md, "Graph").
void check_input_keys(const Json& v, const std::string& p, GraphNodeType t) {
  switch (t) {
    case GraphNodeType::kSelect: return check_keys(v, p, {"name", "node", "transition"});
    case GraphNodeType::kPrioritySelect:
      return check_keys(v, p, {"name", "node", "trigger", "interruptible", "interruptible_trigger", "transition"});
    case GraphNodeType::kSequence:
      return check_keys(v, p, {"name", "node", "wait_for", "wait_for_trigger", "transition"});
    case GraphNodeType::kRandomSequence: return check_keys(v, p, {"name", "node", "weight", "transition"});
    case GraphNodeType::kBlend1D: return check_keys(v, p, {"name", "node", "position"});
    default: return check_keys(v, p, {"name", "node", "x", "y"});  // Blend2D
  }
}

GraphInputDesc read_input(const Json& v, const std::string& p, GraphNodeType t, const GraphContext& c) {
  require_object(v, p);
  check_input_keys(v, p, t);
  GraphInputDesc in;
  in.node = read_node_ref(require_member(v, p, "node"), child_pointer(p, "node"), c);
  in.name = c.ids[static_cast<size_t>(in.node)];  // Select matches names; unnamed: the node's id
  if (const Json* n = find_member(v, "name")) in.name = read_name(*n, child_pointer(p, "name"));
  auto member = [&](std::string_view key) { return find_member(v, key); };
  auto at = [&](std::string_view key) { return child_pointer(p, key); };
  if (const Json* m = member("trigger")) in.trigger = read_bool_value(*m, at("trigger"), c);
  if (const Json* m = member("interruptible"))
    in.interruptible = read_enum<GraphInterruptible>(*m, at("interruptible"), parse_graph_interruptible,
                                                     {"Always", "Finished", "Trigger"});
  if (const Json* m = member("interruptible_trigger"))
    in.interruptible_trigger = read_bool_value(*m, at("interruptible_trigger"), c);
  if (const Json* m = member("wait_for"))
    in.wait_for = read_enum<GraphWaitFor>(*m, at("wait_for"), parse_graph_wait_for, {"Finished", "Trigger"});
  if (const Json* m = member("wait_for_trigger")) in.wait_for_trigger = read_bool_value(*m, at("wait_for_trigger"), c);
  if (const Json* m = member("weight")) in.weight = read_number(*m, at("weight"), c);
  if (const Json* m = member("position")) in.position = read_fixed_float(*m, at("position"));
  if (const Json* m = member("x")) in.x = read_fixed_float(*m, at("x"));
  if (const Json* m = member("y")) in.y = read_fixed_float(*m, at("y"));
  if (const Json* m = member("transition")) in.transition = read_transition(*m, at("transition"));
  if (t == GraphNodeType::kBlend1D && !member("position")) fail(p, "a Blend1D input needs a position");
  if (t == GraphNodeType::kBlend2D && (!member("x") || !member("y"))) fail(p, "a Blend2D input needs x and y");
  return in;
}

void read_inputs(const Json& v, const std::string& np, GraphNodeDesc& g, const GraphContext& c) {
  const std::string p = child_pointer(np, "inputs");
  const Json& list = require_array(require_member(v, np, "inputs"), p);
  if (list.empty()) fail(p, std::string("a ") + to_string(g.type) + " needs at least one input");
  for (size_t k = 0; k < list.size(); ++k) g.inputs.push_back(read_input(list[k], child_pointer(p, k), g.type, c));
}

// Rules LO12, LO16: a cut cycle (the loader cuts it) and distance matching.
void read_clip_locomotion(const Json& v, const std::string& np, GraphNodeDesc& g, const GraphContext& c) {
  if (const Json* m = find_member(v, "cycle")) (*c.cycle)[c.cycle->size() - 1] = read_clip_cycle(*m, child_pointer(np, "cycle"));
  if (const Json* m = find_member(v, "distance_matching"))
    g.distance_matching = read_enum<GraphDistanceMatching>(*m, child_pointer(np, "distance_matching"),
                                                           parse_graph_distance_matching, {"none", "start", "stop"});
  if (const Json* m = find_member(v, "distance")) g.distance = read_number(*m, child_pointer(np, "distance"), c);
}

void read_clip(const Json& v, const std::string& np, GraphNodeDesc& g, const GraphContext& c) {
  check_keys(v, np, {"type", "clip", "retarget", "play_mode", "reverse", "speed", "trim", "cycle", "distance_matching",
                     "distance"});
  // Rule F10: the same block as a scene track's; the node's index is the one being read.
  if (const Json* r = find_member(v, "retarget"))
    (*c.retarget)[c.retarget->size() - 1] = read_scene_retarget(*r, child_pointer(np, "retarget"));
  std::filesystem::path clip(read_name(require_member(v, np, "clip"), child_pointer(np, "clip")));
  if (clip.is_relative()) clip = (c.folder / clip).lexically_normal();
  g.clip_source = clip.string();
  if (const Json* m = find_member(v, "play_mode"))
    g.play_mode = read_enum<GraphPlayMode>(*m, child_pointer(np, "play_mode"), parse_graph_play_mode,
                                           {"Loop", "PingPong", "OnceAndHold", "OnceAndReset"});
  if (const Json* m = find_member(v, "reverse")) g.reverse = read_bool_value(*m, child_pointer(np, "reverse"), c);
  if (const Json* m = find_member(v, "speed")) g.speed = read_number(*m, child_pointer(np, "speed"), c);
  if (const Json* m = find_member(v, "trim")) {
    const std::string tp = child_pointer(np, "trim");
    const Json& trim = require_array(*m, tp);
    if (trim.size() != 2) fail(tp, "trim is [start, end] in clip seconds (end < 0: the clip's end)");
    g.trim_start = read_number(trim[0], child_pointer(tp, size_t{0}), c);
    g.trim_end = read_number(trim[1], child_pointer(tp, size_t{1}), c);
  }
  read_clip_locomotion(v, np, g, c);
}

void read_selector(const Json& v, const std::string& np, GraphNodeDesc& g, const GraphContext& c) {
  switch (g.type) {
    case GraphNodeType::kSelect: check_keys(v, np, {"type", "inputs", "selection", "default_transition"}); break;
    case GraphNodeType::kPrioritySelect:
      check_keys(v, np, {"type", "inputs", "default_transition", "default_interruptible"});
      break;
    case GraphNodeType::kSequence:
      check_keys(v, np, {"type", "inputs", "default_transition", "default_wait_for", "loop_count"});
      break;
    default: check_keys(v, np, {"type", "inputs", "default_transition", "play_count", "seed"}); break;
  }
  read_inputs(v, np, g, c);
  if (const Json* m = find_member(v, "selection"))
    g.selection = read_string_value(*m, child_pointer(np, "selection"), c);
  if (const Json* m = find_member(v, "default_transition"))
    g.default_transition = read_transition(*m, child_pointer(np, "default_transition"));
  if (const Json* m = find_member(v, "default_interruptible"))
    g.default_interruptible = read_enum<GraphInterruptible>(
        *m, child_pointer(np, "default_interruptible"), parse_graph_interruptible, {"Always", "Finished", "Trigger"});
  if (const Json* m = find_member(v, "default_wait_for"))
    g.default_wait_for = read_enum<GraphWaitFor>(*m, child_pointer(np, "default_wait_for"), parse_graph_wait_for,
                                                 {"Finished", "Trigger"});
  if (const Json* m = find_member(v, "loop_count")) g.loop_count = read_count(*m, child_pointer(np, "loop_count"));
  if (const Json* m = find_member(v, "play_count")) g.play_count = read_count(*m, child_pointer(np, "play_count"));
  if (const Json* m = find_member(v, "seed")) {
    const std::string sp = child_pointer(np, "seed");
    refuse_binding(*m, sp);
    if (!m->is_number_unsigned()) fail(sp, std::string("expected an integer >= 0, found ") + json_kind(*m));
    g.seed = m->get<std::uint64_t>();
  }
}

// Over/Add/Subtract/Mask/Speed: named single inputs, all required.
void read_combiner(const Json& v, const std::string& np, GraphNodeDesc& g, const GraphContext& c) {
  auto ref = [&](std::string_view key, int& slot) {
    slot = read_node_ref(require_member(v, np, key), child_pointer(np, key), c);
  };
  auto weight = [&] {
    if (const Json* m = find_member(v, "weight")) g.weight = read_number(*m, child_pointer(np, "weight"), c);
  };
  switch (g.type) {
    case GraphNodeType::kOver:
      check_keys(v, np, {"type", "base", "over", "weight"});
      ref("base", g.base);
      ref("over", g.over);
      weight();
      break;
    case GraphNodeType::kAdd:
      check_keys(v, np, {"type", "base", "additive", "weight"});
      ref("base", g.base);
      ref("additive", g.additive);
      weight();
      break;
    case GraphNodeType::kSubtract:
      check_keys(v, np, {"type", "a", "b", "weight"});
      ref("a", g.a);
      ref("b", g.b);
      weight();
      break;
    case GraphNodeType::kSpeed:
      check_keys(v, np, {"type", "pose", "speed"});
      ref("pose", g.pose);
      if (const Json* m = find_member(v, "speed")) g.speed = read_number(*m, child_pointer(np, "speed"), c);
      break;
    default: {  // Mask
      check_keys(v, np, {"type", "pose", "weights", "descendants", "invert"});
      ref("pose", g.pose);
      if (const Json* m = find_member(v, "weights")) {
        const std::string wp = child_pointer(np, "weights");
        require_object(*m, wp);
        for (auto it = m->begin(); it != m->end(); ++it)
          g.weights.push_back({it.key(), read_fixed_float(it.value(), child_pointer(wp, it.key()))});
      }
      if (const Json* m = find_member(v, "descendants")) {
        refuse_binding(*m, child_pointer(np, "descendants"));
        g.descendants = read_bool(*m, child_pointer(np, "descendants"));
      }
      if (const Json* m = find_member(v, "invert")) g.invert = read_bool_value(*m, child_pointer(np, "invert"), c);
    }
  }
}

// StrideWarp {pose, speed, clamp [min, max]} and OrientationWarp {pose, direction} (rules LO6-LO8).
void read_warp(const Json& v, const std::string& np, GraphNodeDesc& g, const GraphContext& c) {
  g.pose = -1;
  if (g.type == GraphNodeType::kStrideWarp) {
    check_keys(v, np, {"type", "pose", "speed", "clamp"});
    g.speed = read_number(require_member(v, np, "speed"), child_pointer(np, "speed"), c);
    if (const Json* m = find_member(v, "clamp")) {
      const std::string cp = child_pointer(np, "clamp");
      const Json& clamp = require_array(*m, cp);
      if (clamp.size() != 2) fail(cp, "clamp is [min, max], the stride scale's bounds");
      g.clamp_min = read_fixed_float(clamp[0], child_pointer(cp, size_t{0}));
      g.clamp_max = read_fixed_float(clamp[1], child_pointer(cp, size_t{1}));
      if (!(g.clamp_min > 0.0f) || !(g.clamp_max >= g.clamp_min)) fail(cp, "clamp needs 0 < min <= max");
    }
  } else {
    check_keys(v, np, {"type", "pose", "direction"});
    g.direction = read_number(require_member(v, np, "direction"), child_pointer(np, "direction"), c);
  }
  g.pose = read_node_ref(require_member(v, np, "pose"), child_pointer(np, "pose"), c);
}

void read_blend(const Json& v, const std::string& np, GraphNodeDesc& g, const GraphContext& c) {
  if (g.type == GraphNodeType::kBlend1D)
    check_keys(v, np, {"type", "inputs", "position", "phase_sync", "sync_marker"});
  else
    check_keys(v, np, {"type", "inputs", "input_mode", "x", "y", "phase_sync", "sync_marker"});
  read_inputs(v, np, g, c);
  if (const Json* m = find_member(v, "position")) g.position = read_number(*m, child_pointer(np, "position"), c);
  if (const Json* m = find_member(v, "x")) g.x = read_number(*m, child_pointer(np, "x"), c);
  if (const Json* m = find_member(v, "y")) g.y = read_number(*m, child_pointer(np, "y"), c);
  if (const Json* m = find_member(v, "input_mode"))
    g.input_mode =
        read_enum<GraphInputMode>(*m, child_pointer(np, "input_mode"), parse_graph_input_mode, {"Cartesian", "Polar"});
  if (const Json* m = find_member(v, "phase_sync"))
    g.phase_sync = read_enum<GraphPhaseSync>(*m, child_pointer(np, "phase_sync"), parse_graph_phase_sync,
                                             {"Synced", "Unsynced", "Markers"});
  if (const Json* m = find_member(v, "sync_marker")) {
    refuse_binding(*m, child_pointer(np, "sync_marker"));
    g.sync_marker = read_name(*m, child_pointer(np, "sync_marker"));
  }
}

GraphNodeDesc read_node(const std::string& id, const Json& v, const std::string& np, const GraphContext& c) {
  GraphNodeDesc g;
  g.id = id;
  try {
    require_object(v, np);
    const std::string tp = child_pointer(np, "type");
    const std::string type = read_name(require_member(v, np, "type"), tp);
    const std::optional<GraphNodeType> t = parse_graph_node_type(type);
    if (!t)
      fail(tp, "unknown node type '" + type +
                   "' (expected one of: Clip, Select, PrioritySelect, Sequence, RandomSequence, Over, Add, Subtract, "
                   "Mask, Speed, Blend1D, Blend2D, StrideWarp, OrientationWarp)");
    g.type = *t;
    switch (g.type) {
      case GraphNodeType::kClip: read_clip(v, np, g, c); break;
      case GraphNodeType::kSelect:
      case GraphNodeType::kPrioritySelect:
      case GraphNodeType::kSequence:
      case GraphNodeType::kRandomSequence: read_selector(v, np, g, c); break;
      case GraphNodeType::kBlend1D:
      case GraphNodeType::kBlend2D: read_blend(v, np, g, c); break;
      case GraphNodeType::kStrideWarp:
      case GraphNodeType::kOrientationWarp: read_warp(v, np, g, c); break;
      default: read_combiner(v, np, g, c); break;
    }
  } catch (LoadError& e) {
    e.reason = "node '" + id + "': " + e.reason;  // the node by name, beside its JSON path
    throw;
  }
  return g;
}

GraphParameterDesc read_parameter(const std::string& name, const Json& v, const std::string& p) {
  require_object(v, p);
  check_keys(v, p, {"type", "default"});
  GraphParameterDesc g;
  g.name = name;
  if (name.empty()) fail(p, "a parameter name must not be empty");
  const std::string tp = child_pointer(p, "type");
  const std::string type = read_string(require_member(v, p, "type"), tp);
  const std::optional<GraphParameterType> t = parse_graph_parameter_type(type);
  if (!t) fail(tp, "unknown parameter type '" + type + "' (expected one of: number, bool, string)");
  g.type = *t;
  if (const Json* d = find_member(v, "default")) {
    const std::string dp = child_pointer(p, "default");
    if (g.type == GraphParameterType::kNumber) g.number_default = read_float(*d, dp);
    if (g.type == GraphParameterType::kBool) g.bool_default = read_bool(*d, dp);
    if (g.type == GraphParameterType::kString) g.string_default = read_string(*d, dp);
  }
  return g;
}

}  // namespace

namespace detail {

GraphDocument read_graph_document(const Json& root, const std::string& pointer, const std::filesystem::path& folder) {
  auto at = [&](std::string_view key) { return child_pointer(pointer, key); };
  require_object(root, pointer);
  check_keys(root, pointer, {"format", "parameters", "nodes", "output"});
  const std::string format = read_string(require_member(root, pointer, "format"), at("format"));
  if (format != kGraphFormat)
    fail(at("format"), "expected \"" + std::string(kGraphFormat) + "\", found \"" + format + "\"");
  GraphDocument doc;
  GraphDesc& desc = doc.desc;
  if (const Json* ps = find_member(root, "parameters")) {
    require_object(*ps, at("parameters"));
    for (auto it = ps->begin(); it != ps->end(); ++it)
      desc.parameters.push_back(read_parameter(it.key(), it.value(), child_pointer(at("parameters"), it.key())));
  }
  const std::string np = at("nodes");
  const Json& nodes = require_object(require_member(root, pointer, "nodes"), np);
  if (nodes.empty()) fail(np, "a graph needs at least one node");
  GraphContext c;
  c.parameters = &desc.parameters;
  c.folder = folder;
  c.retarget = &doc.clip_retarget;
  c.cycle = &doc.clip_cycle;
  for (auto it = nodes.begin(); it != nodes.end(); ++it) {
    if (it.key().empty()) fail(np, "a node id must not be empty");
    c.ids.push_back(it.key());
  }
  for (auto it = nodes.begin(); it != nodes.end(); ++it) {
    doc.clip_retarget.emplace_back();
    doc.clip_cycle.push_back(ClipCycle::kNone);
    desc.nodes.push_back(read_node(it.key(), it.value(), child_pointer(np, it.key()), c));
  }
  desc.output = read_node_ref(require_member(root, pointer, "output"), at("output"), c);
  return doc;
}

}  // namespace detail

Result<GraphDocument> parse_graph_document(std::string_view text, const std::string& file_label) {
  try {
    return detail::read_graph_document(parse_json(text), "", std::filesystem::path(file_label).parent_path());
  } catch (const LoadError& e) {
    return to_error(file_label, e);
  }
}

Result<GraphDocument> read_graph_document_file(const std::filesystem::path& path) {
  return parse_text_file(
      path, [](std::string_view text, const std::string& label) { return parse_graph_document(text, label); });
}

Result<GraphDesc> parse_graph(std::string_view text, const std::string& file_label) {
  Result<GraphDocument> doc = parse_graph_document(text, file_label);
  if (!doc) return Error{doc.message()};
  return std::move(doc.value().desc);
}

Result<GraphDesc> read_graph_file(const std::filesystem::path& path) {
  Result<GraphDocument> doc = read_graph_document_file(path);
  if (!doc) return Error{doc.message()};
  return std::move(doc.value().desc);
}

}  // namespace asterune::io
