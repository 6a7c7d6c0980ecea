# asterune-solve --out FILE.glb / FILE.gltf (glTF export) and --bake, run against the real binary:
#   cmake -DCLI=<asterune-solve> -DSOURCE_DIR=<repo> -DTMP_ROOT=<tmp root> -P export_cli_tests.cmake
# The numbers inside the glTF are checked by tests/formats/gltf_writer_test.cpp; here: the files are
# written whole, with every frame, while stdout still prints the chosen frames.
cmake_minimum_required(VERSION 3.25)
set(TMP_NAME cli_export)
include(${CMAKE_CURRENT_LIST_DIR}/temp_dir.cmake)

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)
set(RUN tests/data/bvh/cmu_49_04_run_leap.bvh)

# .glb: the binary container, every one of the 126 frames, stdout prints only frame 5.
run(--rig builtin:r15 --clip ${RUN} --out "${TMP}/run.glb" --format csv --frame 5)
require_ok_keys("--out run.glb")
file(READ "${TMP}/run.glb" magic LIMIT 4 HEX)
if(NOT magic STREQUAL "676c5446")  # "glTF"
  message(SEND_ERROR "FAIL: run.glb does not start with 'glTF' (${magic})")
endif()
string(REGEX MATCHALL "\n" lines "${OUT}")
list(LENGTH lines n)
if(NOT n EQUAL 16)
  message(SEND_ERROR "FAIL: --out with --frame 5 printed ${n} csv lines, expected 15 + header")
endif()

# .gltf: readable JSON; the part nodes by name, 2 channels per node, CUBICSPLINE after the key
# reduction (per key an in-tangent, the value and an out-tangent: 3 outputs per key). The root
# part's node does not move: its keys reduce to the first and the last frame (rule F7).
run(--rig builtin:r15 --clip ${RUN} --out "${TMP}/run.gltf" --format json)
require_ok_keys("--out run.gltf")
file(READ "${TMP}/run.gltf" doc)
string(JSON nodes LENGTH "${doc}" nodes)
string(JSON root_name GET "${doc}" nodes 0 name)
string(JSON hand_name GET "${doc}" nodes 15 name)
string(JSON channels LENGTH "${doc}" animations 0 channels)
string(JSON interp GET "${doc}" animations 0 samplers 0 interpolation)
string(JSON input GET "${doc}" animations 0 samplers 0 input)
string(JSON keys GET "${doc}" accessors ${input} count)
string(JSON output GET "${doc}" animations 0 samplers 0 output)
string(JSON outputs GET "${doc}" accessors ${output} count)
if(NOT nodes EQUAL 16 OR NOT root_name STREQUAL "HumanoidRootPart" OR NOT channels EQUAL 32
   OR NOT interp STREQUAL "CUBICSPLINE" OR NOT keys EQUAL 2 OR NOT outputs EQUAL 6)
  message(SEND_ERROR "FAIL: run.gltf: ${nodes} nodes (root '${root_name}', last '${hand_name}'), ${channels} channels, "
                     "${interp}, ${keys} keys, ${outputs} outputs; expected 16, HumanoidRootPart, 32, CUBICSPLINE, 2, 6")
endif()
if(NOT ERR MATCHES "run.gltf: 2016 keys reduced to ")  # 126 frames x 16 nodes before
  message(SEND_ERROR "FAIL: run.gltf: stderr does not report the keys before and after: ${ERR}")
endif()

# Rule F7: CMU 131_01 at 60 Hz, reduced at the default 0.005 studs. The issue's goal is 15% of the
# keys, out of reach of linear keys at that bound; the fitted reducer kept 39.7%, and 41.9% since
# the feet are levelled in stance (rule RT22: the calibration turns the feet between contacts),
# kept here at 43%. Bounded on the box corners (rule P10) rather than part centres it keeps 57.7%,
# held here at 59% against regressions.
run(--rig builtin:r15 --clip tests/data/bvh/cmu_131_01_start_walk_stop.bvh --all-frames --format csv
    --out "${TMP}/walk.rbxmx")
require_ok_keys("--out walk.rbxmx")
if(NOT ERR MATCHES "walk.rbxmx: ([0-9]+) keys reduced to ([0-9]+) ")
  message(SEND_ERROR "FAIL: walk.rbxmx: no key report: ${ERR}")
else()
  math(EXPR limit "${CMAKE_MATCH_1} * 59 / 100")
  if(CMAKE_MATCH_2 GREATER limit)
    message(SEND_ERROR "FAIL: walk.rbxmx kept ${CMAKE_MATCH_2} of ${CMAKE_MATCH_1} keys (more than 59%)")
  endif()
endif()
# Rule F8: the same run as a CurveAnimation keeps at most 22% of the keys (20.7% on the box
# corners, rule P10; 14.4% when only part centres were bounded; docs/cli.md),
# and plays back through --clip: the file's first animation item is a CurveAnimation.
run(--rig builtin:r15 --clip tests/data/bvh/cmu_131_01_start_walk_stop.bvh --all-frames --format csv
    --out "${TMP}/walk_curves.rbxmx" --rbxmx-kind curves --loop --priority Movement)
require_ok_keys("--out walk_curves.rbxmx --rbxmx-kind curves")
if(NOT ERR MATCHES "walk_curves.rbxmx: ([0-9]+) keys reduced to ([0-9]+) ")
  message(SEND_ERROR "FAIL: walk_curves.rbxmx: no key report: ${ERR}")
else()
  math(EXPR limit "${CMAKE_MATCH_1} * 22 / 100")
  if(CMAKE_MATCH_2 GREATER limit)
    message(SEND_ERROR "FAIL: walk_curves.rbxmx kept ${CMAKE_MATCH_2} of ${CMAKE_MATCH_1} keys (more than 22%)")
  endif()
endif()
file(READ "${TMP}/walk_curves.rbxmx" curves)
foreach(needle "<Item class=\"CurveAnimation\"" "<bool name=\"Loop\">true</bool>" "<token name=\"Priority\">1</token>"
               "<Item class=\"EulerRotationCurve\"" "<BinaryString name=\"ValuesAndTimes\">")
  string(FIND "${curves}" "${needle}" pos)
  if(pos EQUAL -1)
    message(SEND_ERROR "FAIL: walk_curves.rbxmx lacks ${needle}")
  endif()
endforeach()
run(--rig builtin:r15 --clip "${TMP}/walk_curves.rbxmx" --frame 0 --format csv)
require_ok("--clip walk_curves.rbxmx")
# --rbxmx-kind: keyframes or curves, with a .rbxmx --out only.
expect_bad("--rbxmx-kind" --rig builtin:r15 --out "${TMP}/bad.rbxmx" --rbxmx-kind splines)
expect_bad("--rbxmx-kind curves: needs --out FILE.rbxmx" --rig builtin:r15 --out "${TMP}/bad.glb" --rbxmx-kind curves)
expect_bad("--rbxmx-kind" --rig builtin:r15 --rbxmx-kind curves)  # needs --out
# A malformed CurveAnimation as --clip: one line naming the file and the item.
file(WRITE "${TMP}/broken_curves.rbxmx" "<roblox version=\"4\"><Item class=\"CurveAnimation\" referent=\"RBX0\"><Properties/>"
     "<Item class=\"Folder\" referent=\"RBX1\"><Properties><string name=\"Name\">HumanoidRootPart</string></Properties>"
     "<Item class=\"Folder\" referent=\"RBX2\"><Properties><string name=\"Name\">LowerTorso</string></Properties>"
     "<Item class=\"Vector3Curve\" referent=\"RBX3\"><Properties><string name=\"Name\">Position</string></Properties>"
     "<Item class=\"FloatCurve\" referent=\"RBX4\"><Properties><string name=\"Name\">X</string>"
     "<BinaryString name=\"ValuesAndTimes\">AgAAAAEAAAA=</BinaryString></Properties></Item></Item></Item></Item></Item></roblox>")
expect_bad("broken_curves.rbxmx: FloatCurve 'X' (referent RBX4): ValuesAndTimes: 8 bytes for 1 keys"
           --rig builtin:r15 --clip "${TMP}/broken_curves.rbxmx")
# Bad tolerances: one line, exit 2 (rule F7, F3).
foreach(bad -1 0 nan inf -inf 1e99 abc "")
  expect_bad("--tolerance" --out "${TMP}/bad.rbxmx" --tolerance "${bad}")
endforeach()
expect_bad("--tolerance" --tolerance 0.01)  # needs --out

# Rule RT17: the frames JSON carries the source's foot contacts; the table a contacts line.
run(--rig builtin:r15 --clip tests/data/bvh/cmu_131_01_start_walk_stop.bvh --format json --frame 0)
require_ok("contacts json")
string(JSON left ERROR_VARIABLE jerr GET "${OUT}" frames 0 contacts LeftFoot)
if(jerr OR NOT (left STREQUAL "ON" OR left STREQUAL "OFF"))
  message(SEND_ERROR "FAIL: the frames JSON has no contacts.LeftFoot boolean: ${jerr}")
endif()
run(--rig builtin:r15 --clip tests/data/bvh/cmu_131_01_start_walk_stop.bvh --frame 0)
require_ok("contacts table")
if(NOT OUT MATCHES "\ncontacts:  LeftFoot (down|up)  RightFoot (down|up)\n")
  message(SEND_ERROR "FAIL: the table has no contacts line:\n${OUT}")
endif()

# Rule RT16: a clip with no recognisable feet (a tail driving the pelvis through an explicit map)
# runs with one note on stderr and exit 0.
file(WRITE "${TMP}/tail.bvh"
     "HIERARCHY\nROOT Tail\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
     " JOINT Tip\n {\n  OFFSET 0 0 -3\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 0 -1\n  }\n }\n}\n"
     "MOTION\nFrames: 3\nFrame Time: 0.1\n0 1 0 0 0 0 0 10 0\n0 1 0 0 0 0 0 20 0\n0 1 0 0 0 0 0 30 0\n")
file(WRITE "${TMP}/tail.scene.json"
     "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 3, \"dt\": 0.1,\n"
     " \"animation\": {\"clip\": \"tail.bvh\", \"retarget\": {\"map\": {\"LowerTorso\": \"Tail\"}, \"facing\": [1, 0, 0, 0], \"scale\": 1}}}\n")
run("${TMP}/tail.scene.json")
if(NOT RC EQUAL 0 OR NOT ERR MATCHES "^asterune-solve: note: [^\n]*tail.bvh: no recognisable feet[^\n]*\n$")
  message(SEND_ERROR "FAIL: a clip without feet: exit ${RC}, stderr: ${ERR}")
endif()

# The demo (controls included) exports too; an unknown extension is a bad argument.
run(--out "${TMP}/demo.glb")
require_ok_keys("demo --out demo.glb")
if(NOT EXISTS "${TMP}/demo.glb")
  message(SEND_ERROR "FAIL: demo.glb was not written")
endif()
run(--out "${TMP}/run.fbx")
if(NOT RC EQUAL 2 OR NOT ERR MATCHES "unsupported format '.fbx'" OR NOT OUT STREQUAL "")
  message(SEND_ERROR "FAIL: --out run.fbx: exit ${RC}, stderr ${ERR}")
endif()
run(--out "${TMP}/no/such/folder/run.glb")
if(NOT RC EQUAL 2 OR NOT ERR MATCHES "cannot open file for writing")
  message(SEND_ERROR "FAIL: --out into a missing folder: exit ${RC}, stderr ${ERR}")
endif()

# --bake: the run plays through the baked clip and the table says so; same frame count.
run(--rig builtin:r15 --clip ${RUN} --bake)
require_ok("--bake")
if(NOT OUT MATCHES "animation: [^\n]*cmu_49_04_run_leap.bvh, retargeted \\([0-9]+ of 15 joints mapped\\), baked once into")
  message(SEND_ERROR "FAIL: --bake: the table does not say the clip was baked:\n${OUT}")
endif()
run(--rig builtin:r15 --clip ${RUN} --bake --format csv --all-frames)
require_ok("--bake csv")
string(REGEX MATCHALL "\n" lines "${OUT}")
list(LENGTH lines n)
if(NOT n EQUAL 1891)
  message(SEND_ERROR "FAIL: --bake: ${n} csv lines, expected 126 x 15 + 1")
endif()
run(--rig builtin:r15 --bake)
if(NOT RC EQUAL 2 OR NOT ERR MATCHES "--bake needs a clip")
  message(SEND_ERROR "FAIL: --bake without a clip: exit ${RC}, stderr ${ERR}")
endif()

# Rule F21: a glTF as --rig says it is a clip and which rig forms are accepted (no "invalid JSON").
expect_bad("a glb file is an animation source, not a rig: play it with --clip" --rig tests/data/gltf/CesiumMan.glb)
# Rule F22: --gltf-interpolation linear writes LINEAR channels only.
run(--rig builtin:r15 --clip ${RUN} --frames 30 --out "${TMP}/linear.gltf" --gltf-interpolation linear --frame 0)
require_ok_keys("--out linear.gltf --gltf-interpolation linear")
file(READ "${TMP}/linear.gltf" linear_doc)
string(FIND "${linear_doc}" "CUBICSPLINE" cubic_at)
string(FIND "${linear_doc}" "\"LINEAR\"" linear_at)
if(NOT cubic_at EQUAL -1 OR linear_at EQUAL -1)
  message(SEND_ERROR "FAIL: linear.gltf is not LINEAR throughout")
endif()
# Rules F20, F28: our own .glb reads back as a clip, natively on the rig it was written for (one
# note line), and a VRM Animation plays on R6 with its own roles.
run(--rig builtin:r15 --clip "${TMP}/linear.gltf" --frame 0)
if(NOT RC EQUAL 0 OR NOT ERR MATCHES "^asterune-solve: note: [^\n]*linear.gltf: its nodes are the parts of rig 'R15' [^\n]*played natively[^\n]*\n$")
  fail("--clip linear.gltf (our own export read back natively): exit ${RC}, stderr: ${ERR}")
endif()
run(--rig builtin:r6 --clip tests/data/gltf/threevrm_test.vrma --frame 0)
require_ok("--clip threevrm_test.vrma")
if(NOT OUT MATCHES "left_upper_leg=leftUpperLeg \\(author\\)")
  message(SEND_ERROR "FAIL: threevrm_test.vrma: roles not from the VRM bone map: ${OUT}")
endif()
expect_bad("no animation named or numbered 'Walk'" --rig builtin:r15 --clip tests/data/gltf/CesiumMan.glb --animation Walk)

file(REMOVE_RECURSE "${TMP}")
