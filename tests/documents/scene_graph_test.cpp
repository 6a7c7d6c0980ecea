// Scene tracks that play an animation graph and the set_parameter command (docs/formats.md,
// "tracks" and "commands"; rules F10, F3, GR15): a graph given inline or as a path, each Clip
// node's retarget block kept beside the desc, the command's value read with the parameter's
// type, and bad input named by its JSON path, the track and the parameter.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "asterune/documents/scene_file.hpp"
#include "asterune/documents/scene_tracks.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const std::string kHead = R"({"format": "asterune.scene/1", "rig": "builtin:r15", )";

// An inline graph with one parameter of each type; "walk" is retargeted without translation.
const std::string kGraph = R"({"format": "asterune.graph/1",
    "parameters": {"speed": {"type": "number", "default": 1.5}, "armed": {"type": "bool"},
                   "state": {"type": "string", "default": "walk"}},
    "nodes": {"walk": {"type": "Clip", "clip": "w.bvh", "retarget": {"translation": false, "units": 0.5}},
              "run": {"type": "Clip", "clip": "clips/r.bvh"},
              "loco": {"type": "Blend1D", "position": {"parameter": "speed"},
                       "inputs": [{"node": "walk", "position": 1}, {"node": "run", "position": 3}]}},
    "output": "loco"})";

std::string scene_with(const std::string& commands, const std::string& track_extra = "") {
  return kHead + R"("tracks": [{"name": "Walk", "clip": "walk.bvh"}, {"name": "Loco", "graph": )" + kGraph +
         track_extra + "}], \"commands\": [" + commands + "]}";
}

io::SceneDesc parse(const std::string& text) {
  auto s = io::parse_scene_json(text, "/s/x.scene.json");
  INFO((s.ok() ? std::string() : s.message()));
  REQUIRE(s.ok());
  return std::move(s).value();
}

std::string error(const std::string& text) {
  auto s = io::parse_scene_json(text, "x.scene.json");
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().find('\n') == std::string::npos);
  return s.message();
}

}  // namespace

TEST_CASE("scene graph: an inline graph track reads with its settings and its Clip nodes' retarget blocks (rule F10)",
          "[io][scene][graph]") {
  const io::SceneDesc s = parse(kHead + R"("tracks": [{"name": "Loco", "graph": )" + kGraph +
                                R"(, "priority": "Movement", "weight": 0.5, "speed": 2, "playing": false,
                                "mask": {"parts": ["UpperTorso"]}}]})");
  REQUIRE(s.tracks.size() == 1);
  const io::SceneTrack& t = s.tracks[0];
  REQUIRE(t.graph);
  CHECK(t.clip.empty());
  CHECK(t.graph_file.empty());
  CHECK(t.priority == TrackPriority::kMovement);
  CHECK(t.weight == 0.5f);
  CHECK(t.speed == 2.0f);
  CHECK_FALSE(t.playing);
  CHECK(t.mask_parts == std::vector<std::string>{"UpperTorso"});
  const GraphDesc& g = t.graph->desc;
  REQUIRE(g.nodes.size() == 3);
  REQUIRE(t.graph->clip_retarget.size() == 3);
  // Inline: clip paths start at the scene's folder.
  CHECK(g.nodes[0].clip_source == std::filesystem::path("/s/w.bvh").string());
  CHECK(g.nodes[1].clip_source == std::filesystem::path("/s/clips/r.bvh").string());
  CHECK_FALSE(t.graph->clip_retarget[0].translation);
  REQUIRE(t.graph->clip_retarget[0].units_to_studs);
  CHECK(*t.graph->clip_retarget[0].units_to_studs == 0.5f);
  // No block: the scene track defaults.
  CHECK(t.graph->clip_retarget[1].translation);
  CHECK_FALSE(t.graph->clip_retarget[1].units_to_studs);
  CHECK(g.parameters.size() == 3);
}

TEST_CASE("scene graph: a graph path resolves against the scene, its clips against the graph's folder (rule F10)",
          "[io][scene][graph]") {
  const test::TempDir tmp("scene_graph_path");
  std::filesystem::create_directories(tmp / "graphs");
  {
    std::ofstream out(tmp / "graphs" / "loco.graph.json");
    out << kGraph;
  }
  const std::filesystem::path scene = tmp / "x.scene.json";
  {
    std::ofstream out(scene);
    out << kHead << R"("tracks": [{"name": "Loco", "graph": "graphs/loco.graph.json"}]})";
  }
  auto s = io::read_scene_file(scene);
  INFO((s.ok() ? std::string() : s.message()));
  REQUIRE(s);
  const io::SceneTrack& t = s.value().tracks[0];
  REQUIRE(t.graph);
  CHECK(t.graph_file == (tmp / "graphs" / "loco.graph.json").lexically_normal());
  CHECK(t.graph->desc.nodes[0].clip_source == (tmp / "graphs" / "w.bvh").lexically_normal().string());

  // A bad graph file: the scene's path to the track, then the graph file's own message.
  {
    std::ofstream out(tmp / "graphs" / "loco.graph.json");
    out << R"({"format": "asterune.graph/1", "nodes": {"a": {"type": "Clip", "clip": "a.bvh", "spede": 1}}, "output": "a"})";
  }
  auto bad = io::read_scene_file(scene);
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.message(), StartsWith(scene.string() + ": /tracks/0/graph: " +
                                       (tmp / "graphs" / "loco.graph.json").lexically_normal().string() +
                                       ": /nodes/a/spede: node 'a': unknown key 'spede'"));
}

TEST_CASE("scene graph: set_parameter reads a value of the parameter's type and an optional ramp (rule F10)",
          "[io][scene][graph]") {
  const io::SceneDesc s = parse(scene_with(R"(
      {"t": 1.0, "track": "Loco", "set_parameter": {"name": "speed", "value": 3.0, "over": 2.0}},
      {"t": 1.5, "track": "Loco", "set_parameter": {"name": "armed", "value": true}},
      {"t": 2.0, "track": "Loco", "set_parameter": {"name": "state", "value": "run"}},
      {"t": 2.5, "track": "Loco", "set_parameter": {"name": "speed", "value": -1}})"));
  REQUIRE(s.commands.size() == 4);
  for (const io::SceneCommand& c : s.commands) CHECK(c.kind == io::SceneCommandKind::kSetParameter);
  CHECK(s.commands[0].parameter.name == "speed");
  CHECK(s.commands[0].parameter.type == GraphParameterType::kNumber);
  CHECK(s.commands[0].parameter.number == 3.0f);
  CHECK(s.commands[0].parameter.over == 2.0f);
  CHECK(s.commands[1].parameter.type == GraphParameterType::kBool);
  CHECK(s.commands[1].parameter.boolean);
  CHECK(s.commands[2].parameter.type == GraphParameterType::kString);
  CHECK(s.commands[2].parameter.string == "run");
  CHECK(s.commands[3].parameter.number == -1.0f);
  CHECK(s.commands[3].parameter.over == 0.0f);  // no ramp: set at once
}

TEST_CASE("scene graph: bad graph tracks and set_parameter commands are one line naming the JSON path (rules F3, F10)",
          "[io][scene][graph]") {
  const std::string cmd = R"({"t": 1, "track": "Loco", "set_parameter": )";
  struct Case {
    const char* what;
    std::string text;
    std::string want;
  };
  const Case cases[] = {
      {"unknown parameter", scene_with(cmd + R"({"name": "sped", "value": 1}})"),
       "x.scene.json: /commands/0/set_parameter/name: track 'Loco': the graph has no parameter 'sped' "
       "(parameters: speed, armed, state)"},
      {"number parameter given a bool", scene_with(cmd + R"({"name": "speed", "value": true}})"),
       "x.scene.json: /commands/0/set_parameter/value: track 'Loco': the parameter 'speed' is a number: the value "
       "must be a number"},
      {"bool parameter given a number", scene_with(cmd + R"({"name": "armed", "value": 1}})"),
       "x.scene.json: /commands/0/set_parameter/value: track 'Loco': the parameter 'armed' is a bool"},
      {"string parameter given a number", scene_with(cmd + R"({"name": "state", "value": 2}})"),
       "x.scene.json: /commands/0/set_parameter/value: track 'Loco': the parameter 'state' is a string"},
      {"a ramp of a bool", scene_with(cmd + R"({"name": "armed", "value": true, "over": 1}})"),
       "x.scene.json: /commands/0/set_parameter/over: track 'Loco': the parameter 'armed' is a bool: only a number "
       "ramps"},
      {"a negative ramp", scene_with(cmd + R"({"name": "speed", "value": 1, "over": -1}})"),
       "x.scene.json: /commands/0/set_parameter/over: "},
      {"a value beyond float", scene_with(cmd + R"({"name": "speed", "value": 1e39}})"),
       "x.scene.json: /commands/0/set_parameter/value: "},
      {"missing value", scene_with(cmd + R"({"name": "speed"}})"),
       "x.scene.json: /commands/0/set_parameter: missing required key 'value'"},
      {"unknown key", scene_with(cmd + R"({"name": "speed", "value": 1, "fade": 1}})"),
       "x.scene.json: /commands/0/set_parameter/fade: unknown key 'fade'"},
      {"a clip track", scene_with(R"({"t": 1, "track": "Walk", "set_parameter": {"name": "speed", "value": 1}})"),
       "x.scene.json: /commands/0/set_parameter: track 'Walk' plays a clip, not a graph"},
      {"graph and clip", scene_with("", R"(, "clip": "a.bvh")"),
       "x.scene.json: /tracks/1/clip: a graph track takes no 'clip'"},
      {"graph and retarget", scene_with("", R"(, "retarget": {})"),
       "x.scene.json: /tracks/1/retarget: a graph track takes no 'retarget' (give it to the graph's Clip nodes)"},
      {"graph and additive", scene_with("", R"(, "additive": true)"),
       "x.scene.json: /tracks/1/additive: a graph track takes no 'additive'"},
      {"neither clip nor graph", kHead + R"("tracks": [{"name": "A"}]})",
       "x.scene.json: /tracks/0: missing required key 'clip' (or 'graph'"},
      {"graph of the wrong type", kHead + R"("tracks": [{"name": "A", "graph": 3}]})",
       "x.scene.json: /tracks/0/graph: must be a graph file's path or an inline asterune.graph/1 object"},
      {"bad inline graph: the node named", kHead + R"("tracks": [{"name": "A", "graph": {"format": "asterune.graph/1",
          "nodes": {"b": {"type": "Blend1D", "inputs": [{"node": "c", "position": 1}]}}, "output": "b"}}]})",
       "x.scene.json: /tracks/0/graph/nodes/b/inputs/0/node: node 'b': no node has the id 'c'"},
      {"inline graph: a binding of the wrong type", kHead + R"("tracks": [{"name": "A", "graph": {"format":
          "asterune.graph/1", "parameters": {"p": {"type": "bool"}}, "nodes": {"a": {"type": "Clip", "clip": "a.bvh",
          "speed": {"parameter": "p"}}}, "output": "a"}}]})",
       "x.scene.json: /tracks/0/graph/nodes/a/speed/parameter: node 'a': the parameter 'p' is a bool"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    CHECK_THAT(error(c.text), StartsWith(c.want));
  }
}
