// The asterune.graph/1 reader (docs/formats.md "Graph"; rules F9, F3, GR1, GR7, GR12): a graph
// using every node type read into the GraphDesc written out by hand below, each kind of bad
// input refused with its file, JSON path and node, parameter bindings kept on every property
// that takes one, and the locomotion example read, loaded and built on builtin:r15.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "asterune/documents/graph_file.hpp"
#include "asterune/documents/scene_animation.hpp"
#include "asterune/graph/graph.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"

using namespace asterune;
using Catch::Matchers::Contains;

namespace {

const std::string kLabel = "/g/dir/test.graph.json";

std::string graph(const std::string& parameters, const std::string& nodes, const std::string& output) {
  return R"({"format": "asterune.graph/1", "parameters": {)" + parameters + R"(}, "nodes": {)" + nodes +
         R"(}, "output": ")" + output + "\"}";
}

// The reader's message for a graph that must fail (empty when it unexpectedly reads).
std::string error_of(const std::string& text) {
  Result<GraphDesc> r = io::parse_graph(text, kLabel);
  return r.ok() ? std::string() : r.message();
}

const std::string kClips = R"("a": {"type": "Clip", "clip": "a.bvh"}, "b": {"type": "Clip", "clip": "b.bvh"})";

const char* kFull = R"({
  "format": "asterune.graph/1",
  "parameters": {
    "speed": {"type": "number", "default": 2.5},
    "aim": {"type": "bool", "default": true},
    "mode": {"type": "string", "default": "idle"},
    "n": {"type": "number"}
  },
  "nodes": {
    "walk": {"type": "Clip", "clip": "clips/walk.bvh", "play_mode": "PingPong", "reverse": true,
             "speed": {"parameter": "speed"}, "trim": [0.5, {"parameter": "n"}]},
    "run": {"type": "Clip", "clip": "/abs/run.bvh"},
    "idle": {"type": "Clip", "clip": "../idle.bvh", "play_mode": "OnceAndReset"},
    "loco": {"type": "Blend1D", "position": {"parameter": "speed"}, "phase_sync": "Markers", "sync_marker": "Step",
             "inputs": [{"node": "walk", "position": 1.0}, {"name": "fast", "node": "run", "position": 3.0}]},
    "dir": {"type": "Blend2D", "input_mode": "Polar", "x": 0.25, "y": {"parameter": "n"}, "phase_sync": "Unsynced",
            "inputs": [{"node": "walk", "x": 0, "y": 1}, {"node": "run", "x": 1.5, "y": 1}, {"node": "idle", "x": 0, "y": 0}]},
    "pick": {"type": "Select", "selection": {"parameter": "mode"}, "default_transition": {"duration": 0.4, "curve": "CubicV2"},
             "inputs": [{"name": "idle", "node": "idle"}, {"name": "move", "node": "loco", "transition": {"duration": 0.1}}]},
    "prio": {"type": "PrioritySelect", "default_interruptible": "Finished",
             "inputs": [{"node": "pick", "trigger": {"parameter": "aim"}, "interruptible": "Trigger",
                         "interruptible_trigger": true}, {"node": "dir"}]},
    "seq": {"type": "Sequence", "default_wait_for": "Trigger", "loop_count": 3,
            "inputs": [{"node": "prio", "wait_for": "Finished", "wait_for_trigger": {"parameter": "aim"}}]},
    "rnd": {"type": "RandomSequence", "play_count": 4, "seed": 18446744073709551615,
            "inputs": [{"node": "seq", "weight": {"parameter": "n"}}]},
    "spd": {"type": "Speed", "pose": "rnd", "speed": 0.5},
    "msk": {"type": "Mask", "pose": "spd", "weights": {"UpperTorso": 1, "Head": 0.25}, "descendants": false,
            "invert": {"parameter": "aim"}},
    "sub": {"type": "Subtract", "a": "msk", "b": "walk2"},
    "walk2": {"type": "Clip", "clip": "walk.bvh"},
    "add": {"type": "Add", "base": "base", "additive": "sub", "weight": {"parameter": "n"}},
    "base": {"type": "Clip", "clip": "base.bvh"},
    "top": {"type": "Over", "base": "add", "over": "up", "weight": 0.75},
    "up": {"type": "Clip", "clip": "up.bvh"}
  },
  "output": "top"
})";

int index_of(const GraphDesc& d, const std::string& id) {
  for (size_t i = 0; i < d.nodes.size(); ++i)
    if (d.nodes[i].id == id) return static_cast<int>(i);
  return -1;
}

}  // namespace

TEST_CASE("graph file: every node type and key reads into the hand-written desc (rule F9)") {
  Result<GraphDesc> r = io::parse_graph(kFull, kLabel);
  REQUIRE(r);
  const GraphDesc& d = r.value();

  REQUIRE(d.parameters.size() == 4);
  CHECK(d.parameters[0].name == "speed");
  CHECK(d.parameters[0].type == GraphParameterType::kNumber);
  CHECK(d.parameters[0].number_default == 2.5f);
  CHECK(d.parameters[1].name == "aim");
  CHECK(d.parameters[1].type == GraphParameterType::kBool);
  CHECK(d.parameters[1].bool_default);
  CHECK(d.parameters[2].type == GraphParameterType::kString);
  CHECK(d.parameters[2].string_default == "idle");
  CHECK(d.parameters[3].number_default == 0.0f);  // default omitted

  // Nodes in file order; references are indices of that order.
  const std::vector<std::string> ids = {"walk", "run", "idle", "loco",  "dir", "pick", "prio", "seq", "rnd",
                                        "spd",  "msk", "sub",  "walk2", "add", "base", "top",  "up"};
  REQUIRE(d.nodes.size() == ids.size());
  for (size_t i = 0; i < ids.size(); ++i) CHECK(d.nodes[i].id == ids[i]);
  CHECK(d.output == 15);

  const GraphNodeDesc& walk = d.nodes[0];
  CHECK(walk.type == GraphNodeType::kClip);
  CHECK(walk.clip_source == "/g/dir/clips/walk.bvh");  // relative to the graph file's folder
  CHECK(walk.clip == nullptr);
  CHECK(walk.binding == nullptr);
  CHECK(walk.play_mode == GraphPlayMode::kPingPong);
  CHECK(walk.reverse.value);
  CHECK(walk.reverse.parameter.empty());
  CHECK(walk.speed.parameter == "speed");
  CHECK(walk.trim_start.value == 0.5f);
  CHECK(walk.trim_start.parameter.empty());
  CHECK(walk.trim_end.parameter == "n");
  CHECK(d.nodes[1].clip_source == "/abs/run.bvh");
  CHECK(d.nodes[1].play_mode == GraphPlayMode::kLoop);
  CHECK(d.nodes[1].speed.value == 1.0f);
  CHECK(d.nodes[1].trim_end.value == -1.0f);
  CHECK(d.nodes[2].clip_source == "/g/idle.bvh");
  CHECK(d.nodes[2].play_mode == GraphPlayMode::kOnceAndReset);

  const GraphNodeDesc& loco = d.nodes[3];
  CHECK(loco.type == GraphNodeType::kBlend1D);
  CHECK(loco.position.parameter == "speed");
  CHECK(loco.phase_sync == GraphPhaseSync::kMarkers);
  CHECK(loco.sync_marker == "Step");
  REQUIRE(loco.inputs.size() == 2);
  CHECK(loco.inputs[0].node == 0);
  CHECK(loco.inputs[0].name == "walk");  // unnamed: the node's id
  CHECK(loco.inputs[0].position == 1.0f);
  CHECK(loco.inputs[1].node == 1);
  CHECK(loco.inputs[1].name == "fast");
  CHECK(loco.inputs[1].position == 3.0f);

  const GraphNodeDesc& dir = d.nodes[4];
  CHECK(dir.type == GraphNodeType::kBlend2D);
  CHECK(dir.input_mode == GraphInputMode::kPolar);
  CHECK(dir.x.value == 0.25f);
  CHECK(dir.y.parameter == "n");
  CHECK(dir.phase_sync == GraphPhaseSync::kUnsynced);
  REQUIRE(dir.inputs.size() == 3);
  CHECK(dir.inputs[1].node == 1);
  CHECK(dir.inputs[1].x == 1.5f);
  CHECK(dir.inputs[1].y == 1.0f);
  CHECK(dir.inputs[2].node == 2);
  CHECK(dir.inputs[2].y == 0.0f);

  const GraphNodeDesc& pick = d.nodes[5];
  CHECK(pick.type == GraphNodeType::kSelect);
  CHECK(pick.selection.parameter == "mode");
  CHECK(pick.default_transition.duration == 0.4f);
  CHECK(pick.default_transition.curve == GraphCurve::kCubicV2);
  REQUIRE(pick.inputs.size() == 2);
  CHECK(pick.inputs[0].name == "idle");
  CHECK(pick.inputs[0].node == 2);
  CHECK_FALSE(pick.inputs[0].transition.has_value());
  CHECK(pick.inputs[1].node == 3);
  REQUIRE(pick.inputs[1].transition.has_value());
  CHECK(pick.inputs[1].transition->duration == 0.1f);
  CHECK(pick.inputs[1].transition->curve == GraphCurve::kLinear);

  const GraphNodeDesc& prio = d.nodes[6];
  CHECK(prio.type == GraphNodeType::kPrioritySelect);
  CHECK(prio.default_interruptible == GraphInterruptible::kFinished);
  REQUIRE(prio.inputs.size() == 2);
  CHECK(prio.inputs[0].node == 5);
  CHECK(prio.inputs[0].trigger.parameter == "aim");
  CHECK(prio.inputs[0].interruptible == GraphInterruptible::kTrigger);
  CHECK(prio.inputs[0].interruptible_trigger.value);
  CHECK(prio.inputs[1].interruptible == GraphInterruptible::kDefault);

  const GraphNodeDesc& seq = d.nodes[7];
  CHECK(seq.type == GraphNodeType::kSequence);
  CHECK(seq.default_wait_for == GraphWaitFor::kTrigger);
  CHECK(seq.loop_count == 3);
  REQUIRE(seq.inputs.size() == 1);
  CHECK(seq.inputs[0].wait_for == GraphWaitFor::kFinished);
  CHECK(seq.inputs[0].wait_for_trigger.parameter == "aim");

  const GraphNodeDesc& rnd = d.nodes[8];
  CHECK(rnd.type == GraphNodeType::kRandomSequence);
  CHECK(rnd.play_count == 4);
  CHECK(rnd.seed == 18446744073709551615ull);  // the full uint64 range survives
  CHECK(rnd.inputs[0].weight.parameter == "n");

  CHECK(d.nodes[9].type == GraphNodeType::kSpeed);
  CHECK(d.nodes[9].pose == 8);
  CHECK(d.nodes[9].speed.value == 0.5f);

  const GraphNodeDesc& msk = d.nodes[10];
  CHECK(msk.type == GraphNodeType::kMask);
  CHECK(msk.pose == 9);
  REQUIRE(msk.weights.size() == 2);
  CHECK(msk.weights[0].part == "UpperTorso");
  CHECK(msk.weights[0].weight == 1.0f);
  CHECK(msk.weights[1].part == "Head");
  CHECK(msk.weights[1].weight == 0.25f);
  CHECK_FALSE(msk.descendants);
  CHECK(msk.invert.parameter == "aim");

  CHECK(d.nodes[11].type == GraphNodeType::kSubtract);
  CHECK(d.nodes[11].a == 10);
  CHECK(d.nodes[11].b == 12);  // a reference to a node written later in the file
  CHECK(d.nodes[11].weight.value == 1.0f);
  CHECK(d.nodes[13].type == GraphNodeType::kAdd);
  CHECK(d.nodes[13].base == 14);
  CHECK(d.nodes[13].additive == 11);
  CHECK(d.nodes[13].weight.parameter == "n");
  CHECK(d.nodes[15].type == GraphNodeType::kOver);
  CHECK(d.nodes[15].base == 13);
  CHECK(d.nodes[15].over == 16);
  CHECK(d.nodes[15].weight.value == 0.75f);
  CHECK(d.nodes[15].weight.parameter.empty());
}

TEST_CASE("graph file: bad input is one line naming the file, the JSON path and the node (rules F3, F9)") {
  struct Case {
    const char* what;
    std::string text;
    std::vector<std::string> parts;
  };
  const std::vector<Case> cases = {
      {"unknown node type",
       graph("", R"("x": {"type": "Blend3D"})", "x"),
       {kLabel + ": /nodes/x/type: node 'x': unknown node type 'Blend3D'"}},
      {"unknown node key",
       graph("", R"("x": {"type": "Clip", "clip": "a.bvh", "looped": true})", "x"),
       {kLabel + ": /nodes/x/looped: node 'x': unknown key 'looped'", "play_mode"}},
      {"unknown input key",
       graph(
           "",
           kClips +
               R"(, "s": {"type": "Blend1D", "inputs": [{"node": "a", "position": 0, "x": 1}, {"node": "b", "position": 1}]})",
           "s"),
       {kLabel + ": /nodes/s/inputs/0/x: node 's': unknown key 'x'"}},
      {"input naming no node",
       graph("", kClips + R"(, "s": {"type": "Select", "inputs": [{"node": "a"}, {"node": "c"}]})", "s"),
       {kLabel + ": /nodes/s/inputs/1/node: node 's': no node has the id 'c' (nodes: a, b, s)"}},
      {"output naming no node", graph("", kClips, "zz"), {kLabel + ": /output: no node has the id 'zz'"}},
      {"missing Over input",
       graph("", kClips + R"(, "o": {"type": "Over", "base": "a"})", "o"),
       {kLabel + ": /nodes/o: node 'o': ", "'over'"}},
      {"missing inputs",
       graph("", kClips + R"(, "s": {"type": "Sequence"})", "s"),
       {kLabel + ": /nodes/s: node 's': ", "'inputs'"}},
      {"empty inputs",
       graph("", R"("s": {"type": "Blend2D", "inputs": []})", "s"),
       {kLabel + ": /nodes/s/inputs: node 's': a Blend2D needs at least one input"}},
      {"missing clip", graph("", R"("c": {"type": "Clip"})", "c"), {kLabel + ": /nodes/c: node 'c': ", "'clip'"}},
      {"blend input without position",
       graph("", kClips + R"(, "s": {"type": "Blend1D", "inputs": [{"node": "a"}]})", "s"),
       {kLabel + ": /nodes/s/inputs/0: node 's': a Blend1D input needs a position"}},
      {"bound parameter of the wrong type",
       graph(R"("on": {"type": "bool"})", R"("c": {"type": "Clip", "clip": "a.bvh", "speed": {"parameter": "on"}})",
             "c"),
       {kLabel + ": /nodes/c/speed/parameter: node 'c': the parameter 'on' is a bool, this value needs a number"}},
      {"literal of the wrong type",
       graph("", R"("c": {"type": "Clip", "clip": "a.bvh", "reverse": "yes"})", "c"),
       {kLabel + ": /nodes/c/reverse: node 'c': expected a bool or {\"parameter\": NAME}, found a string"}},
      {"unknown parameter",
       graph(
           R"("speed": {"type": "number"})",
           kClips +
               R"(, "s": {"type": "Blend1D", "position": {"parameter": "sped"}, "inputs": [{"node": "a", "position": 0}]})",
           "s"),
       {kLabel + ": /nodes/s/position/parameter: node 's': unknown parameter 'sped' (declared: speed)"}},
      {"binding a build-time value",
       graph(R"("p": {"type": "number"})",
             kClips + R"(, "s": {"type": "Blend1D", "inputs": [{"node": "a", "position": {"parameter": "p"}}]})", "s"),
       {kLabel + ": /nodes/s/inputs/0/position: node 's': this value is fixed when the graph is built"}},
      {"unknown enum value",
       graph("", R"("c": {"type": "Clip", "clip": "a.bvh", "play_mode": "Once"})", "c"),
       {kLabel + ": /nodes/c/play_mode: node 'c': unknown value 'Once' (expected one of: Loop, PingPong"}},
      {"parameter default of the wrong type",
       graph(R"("p": {"type": "number", "default": true})", kClips, "a"),
       {kLabel + ": /parameters/p/default: expected a number, found"}},
      {"unknown parameter type",
       graph(R"("p": {"type": "vector"})", kClips, "a"),
       {kLabel + ": /parameters/p/type: unknown parameter type 'vector'"}},
      {"wrong format tag",
       R"({"format": "asterune.scene/1", "nodes": {}, "output": "a"})",
       {kLabel + ": /format: expected \"asterune.graph/1\""}},
      {"unknown top-level key",
       graph("", kClips, "a").insert(1, R"("outputs": 1, )"),
       {kLabel + ": /outputs: unknown key 'outputs'"}},
      {"bad retarget block",
       graph("", R"("c": {"type": "Clip", "clip": "a.bvh", "retarget": {"mapp": "auto"}})", "c"),
       {kLabel + ": /nodes/c/retarget/mapp: node 'c': unknown key 'mapp'"}},
      {"syntax error", "{\"format\": ", {kLabel + ": "}},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const std::string message = error_of(c.text);
    REQUIRE_FALSE(message.empty());
    CHECK(message.find('\n') == std::string::npos);
    for (const std::string& part : c.parts) CHECK_THAT(message, Contains(part));
  }
}

TEST_CASE(
    "graph file: cycles and degenerate blend spaces read, and build_graph refuses them naming the node (rules GR7, "
    "GR12)") {
  // The reader leaves graph-wide checks to build_graph (graph_build.cpp); the pipeline still
  // fails with the node named. No Clip node here: an unbound clip would fail first.
  Rig rig = std::move(build_rig(*builtin_rig_desc("r15")).value());
  const std::string cycle = graph(
      "",
      R"("p": {"type": "Speed", "pose": "q"}, "q": {"type": "Speed", "pose": "p"}, "o": {"type": "Speed", "pose": "p"})",
      "o");
  Result<GraphDesc> desc = io::parse_graph(cycle, kLabel);
  REQUIRE(desc);
  Result<GraphInstance> built = build_graph(desc.value(), rig);
  REQUIRE_FALSE(built);
  CHECK_THAT(built.message(), Contains("'p'") || Contains("'q'"));
}

TEST_CASE("graph file: parameter bindings survive on every property that takes one (rules F9, GR1)") {
  // Each property bound to a parameter of its type keeps the name and leaves the literal at
  // its default; the same property written as a literal keeps the value and no name.
  const std::string params = R"("f": {"type": "number"}, "t": {"type": "bool"}, "s": {"type": "string"})";
  const std::string bound = graph(params, kClips + R"(,
    "c": {"type": "Clip", "clip": "c.bvh", "reverse": {"parameter": "t"}, "speed": {"parameter": "f"},
          "trim": [{"parameter": "f"}, {"parameter": "f"}]},
    "sel": {"type": "Select", "selection": {"parameter": "s"}, "inputs": [{"node": "c"}]},
    "pr": {"type": "PrioritySelect", "inputs": [{"node": "sel", "trigger": {"parameter": "t"}, "interruptible_trigger": {"parameter": "t"}}]},
    "sq": {"type": "Sequence", "inputs": [{"node": "pr", "wait_for_trigger": {"parameter": "t"}}]},
    "rs": {"type": "RandomSequence", "inputs": [{"node": "sq", "weight": {"parameter": "f"}}]},
    "m": {"type": "Mask", "pose": "rs", "invert": {"parameter": "t"}},
    "sp": {"type": "Speed", "pose": "m", "speed": {"parameter": "f"}},
    "o": {"type": "Over", "base": "sp", "over": "a", "weight": {"parameter": "f"}},
    "b1": {"type": "Blend1D", "position": {"parameter": "f"}, "inputs": [{"node": "o", "position": 0}, {"node": "b", "position": 1}]},
    "b2": {"type": "Blend2D", "x": {"parameter": "f"}, "y": {"parameter": "f"}, "inputs": [{"node": "b1", "x": 0, "y": 0}]})",
                                  "b2");
  Result<GraphDesc> r = io::parse_graph(bound, kLabel);
  REQUIRE(r);
  const GraphDesc& d = r.value();
  const GraphNodeDesc& c = d.nodes[static_cast<size_t>(index_of(d, "c"))];
  CHECK(c.reverse.parameter == "t");
  CHECK_FALSE(c.reverse.value);
  CHECK(c.speed.parameter == "f");
  CHECK(c.speed.value == 0.0f);
  CHECK(c.trim_start.parameter == "f");
  CHECK(c.trim_end.parameter == "f");
  CHECK(d.nodes[static_cast<size_t>(index_of(d, "sel"))].selection.parameter == "s");
  const GraphInputDesc& pi = d.nodes[static_cast<size_t>(index_of(d, "pr"))].inputs[0];
  CHECK(pi.trigger.parameter == "t");
  CHECK(pi.interruptible_trigger.parameter == "t");
  CHECK(d.nodes[static_cast<size_t>(index_of(d, "sq"))].inputs[0].wait_for_trigger.parameter == "t");
  CHECK(d.nodes[static_cast<size_t>(index_of(d, "rs"))].inputs[0].weight.parameter == "f");
  CHECK(d.nodes[static_cast<size_t>(index_of(d, "m"))].invert.parameter == "t");
  CHECK(d.nodes[static_cast<size_t>(index_of(d, "sp"))].speed.parameter == "f");
  CHECK(d.nodes[static_cast<size_t>(index_of(d, "o"))].weight.parameter == "f");
  CHECK(d.nodes[static_cast<size_t>(index_of(d, "b1"))].position.parameter == "f");
  CHECK(d.nodes[static_cast<size_t>(index_of(d, "b2"))].x.parameter == "f");
  CHECK(d.nodes[static_cast<size_t>(index_of(d, "b2"))].y.parameter == "f");

  // Literals in the same places: the value and no parameter name.
  const std::string literal =
      graph("", R"("c": {"type": "Clip", "clip": "c.bvh", "reverse": true, "speed": -2, "trim": [1, 2]},
    "sel": {"type": "Select", "selection": "c", "inputs": [{"node": "c"}]})",
            "sel");
  Result<GraphDesc> l = io::parse_graph(literal, kLabel);
  REQUIRE(l);
  CHECK(l.value().nodes[0].reverse.value);
  CHECK(l.value().nodes[0].reverse.parameter.empty());
  CHECK(l.value().nodes[0].speed.value == -2.0f);
  CHECK(l.value().nodes[0].speed.parameter.empty());
  CHECK(l.value().nodes[0].trim_start.value == 1.0f);
  CHECK(l.value().nodes[0].trim_end.value == 2.0f);
  CHECK(l.value().nodes[1].selection.value == "c");
  CHECK(l.value().nodes[1].selection.parameter.empty());
}

TEST_CASE(
    "graph file: examples/locomotion.graph.json reads, its clips load and it builds on builtin:r15 (rules F9, GR7, "
    "GR9)") {
  const std::filesystem::path file = std::filesystem::path(ASTERUNE_EXAMPLES_DIR) / "locomotion.graph.json";
  Result<GraphDesc> r = io::read_graph_file(file);
  REQUIRE(r);
  GraphDesc desc = r.value();
  REQUIRE(desc.nodes.size() == 3);
  CHECK(desc.output == 2);
  CHECK(desc.nodes[2].phase_sync == GraphPhaseSync::kMarkers);
  CHECK(desc.nodes[2].position.parameter == "speed");

  Rig rig = std::move(build_rig(*builtin_rig_desc("r15")).value());
  std::vector<io::SourceClip> clips;
  clips.reserve(2);  // the nodes point into this vector: no reallocation after the first push
  std::vector<RetargetProfile> profiles;
  profiles.reserve(2);
  std::vector<AnimationBinding> bindings;
  bindings.reserve(2);
  for (GraphNodeDesc& node : desc.nodes) {
    if (node.type != GraphNodeType::kClip) continue;
    INFO(node.clip_source);
    // clip_source was resolved against examples/: it names the file under tests/data/bvh.
    CHECK(std::filesystem::path(node.clip_source).parent_path().filename() == "bvh");
    Result<io::SourceClip> clip = io::load_source_clip(node.clip_source);
    REQUIRE(clip);
    clips.push_back(std::move(clip.value()));
    Result<RetargetProfile> profile = build_auto_profile(clips.back().skeleton, rig);
    REQUIRE(profile);
    profiles.push_back(std::move(profile.value()));
    Result<AnimationBinding> binding =
        build_animation_binding(clips.back().clip, rig, &clips.back().skeleton, &profiles.back());
    REQUIRE(binding);
    bindings.push_back(std::move(binding.value()));
    node.clip = &clips.back().clip;
    node.binding = &bindings.back();
  }
  REQUIRE(bindings.size() == 2);
  Result<GraphInstance> built = build_graph(desc, rig);
  INFO((built.ok() ? std::string() : built.message()));
  REQUIRE(built);

  // Equal Blend1D positions in the same file: read, then refused by build naming the node.
  GraphDesc equal = desc;
  equal.nodes[2].inputs[1].position = equal.nodes[2].inputs[0].position;
  Result<GraphInstance> refused = build_graph(equal, rig);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.message(), Contains("'loco'"));
}

TEST_CASE("graph file: a missing file, a directory and a device fail with one line naming the path (rule F3)") {
  for (const std::string& path :
       {std::string("/nonexistent/x.graph.json"), std::string(ASTERUNE_EXAMPLES_DIR), std::string("/dev/zero")}) {
    INFO(path);
    Result<GraphDesc> r = io::read_graph_file(path);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.message(), Catch::Matchers::StartsWith(path + ": "));
    CHECK(r.message().find('\n') == std::string::npos);
  }
}
