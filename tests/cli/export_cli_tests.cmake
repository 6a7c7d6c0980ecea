# asterune-solve --out FILE.glb / FILE.gltf (glTF export) and --bake, run against the real binary:
#   cmake -DCLI=<asterune-solve> -DSOURCE_DIR=<repo> -DTMP_ROOT=<tmp root> -P export_cli_tests.cmake
# The numbers inside the glTF are checked by tests/io/gltf_writer_test.cpp; here: the files are
# written whole, with every frame, while stdout still prints the chosen frames.
cmake_minimum_required(VERSION 3.25)
set(TMP_NAME cli_export)
include(${CMAKE_CURRENT_LIST_DIR}/temp_dir.cmake)

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)
set(RUN tests/data/bvh/cmu_49_04_run_leap.bvh)

# .glb: the binary container, every one of the 126 frames, stdout prints only frame 5.
run(--rig builtin:r15 --clip ${RUN} --out "${TMP}/run.glb" --format csv --frame 5)
require_ok("--out run.glb")
file(READ "${TMP}/run.glb" magic LIMIT 4 HEX)
if(NOT magic STREQUAL "676c5446")  # "glTF"
  message(SEND_ERROR "FAIL: run.glb does not start with 'glTF' (${magic})")
endif()
string(REGEX MATCHALL "\n" lines "${OUT}")
list(LENGTH lines n)
if(NOT n EQUAL 16)
  message(SEND_ERROR "FAIL: --out with --frame 5 printed ${n} csv lines, expected 15 + header")
endif()

# .gltf: readable JSON; the part nodes by name, 2 channels per node, one key per frame.
run(--rig builtin:r15 --clip ${RUN} --out "${TMP}/run.gltf" --format json)
require_ok("--out run.gltf")
file(READ "${TMP}/run.gltf" doc)
string(JSON nodes LENGTH "${doc}" nodes)
string(JSON root_name GET "${doc}" nodes 0 name)
string(JSON hand_name GET "${doc}" nodes 15 name)
string(JSON channels LENGTH "${doc}" animations 0 channels)
string(JSON interp GET "${doc}" animations 0 samplers 0 interpolation)
string(JSON input GET "${doc}" animations 0 samplers 0 input)
string(JSON keys GET "${doc}" accessors ${input} count)
if(NOT nodes EQUAL 16 OR NOT root_name STREQUAL "HumanoidRootPart" OR NOT channels EQUAL 32 OR NOT interp STREQUAL "LINEAR"
   OR NOT keys EQUAL 126)
  message(SEND_ERROR "FAIL: run.gltf: ${nodes} nodes (root '${root_name}', last '${hand_name}'), ${channels} channels, "
                     "${interp}, ${keys} keys; expected 16, HumanoidRootPart, 32, LINEAR, 126")
endif()

# The demo (controls included) exports too; an unknown extension is a bad argument.
run(--out "${TMP}/demo.glb")
require_ok("demo --out demo.glb")
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

file(REMOVE_RECURSE "${TMP}")
