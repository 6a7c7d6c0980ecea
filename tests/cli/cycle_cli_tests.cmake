# asterune-solve --cycle and the scene's "cycle" (rules LO1-LO5), run against the real binary:
#   cmake -DCLI=<asterune-solve> -DSOURCE_DIR=<repo> -DTMP_ROOT=<tmp root> -P cycle_cli_tests.cmake
cmake_minimum_required(VERSION 3.25)
set(TMP_NAME cli_cycle)
include(${CMAKE_CURRENT_LIST_DIR}/temp_dir.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)
set(WALK tests/data/bvh/cmu_35_01_walk.bvh)

# Rule LO5: the span is one note on stderr and in the table's header; the run plays the loop
# (the whole clip once: fewer frames than the raw capture's 2.98 s).
run(--clip ${WALK} --format csv --all-frames)
string(REGEX MATCHALL "\n[0-9]+,[^,]*,0,Root," raw_frames "${OUT}")
run(--clip ${WALK} --cycle auto --format csv --all-frames)
string(REGEX MATCHALL "\n[0-9]+,[^,]*,0,Root," loop_frames "${OUT}")
list(LENGTH raw_frames n_raw)
list(LENGTH loop_frames n_loop)
if(NOT RC EQUAL 0 OR NOT ERR MATCHES "^asterune-solve: note: [^\n]*cmu_35_01_walk.bvh: cycle [0-9.]+-[0-9.]+ s \\(frames [0-9]+-[0-9]+\\), [0-9]+ strides? of (Left|Right)Foot, seam mismatch [0-9.]+ [^\n]*\n$"
   OR NOT n_loop LESS n_raw OR n_loop LESS 30)
  fail("--cycle auto: exit ${RC}, ${n_loop} frames against ${n_raw} raw, stderr: ${ERR}")
endif()
run(--clip ${WALK} --cycle auto)
if(NOT RC EQUAL 0 OR NOT OUT MATCHES "retargeted [^\n]*; cycle [0-9.]+-[0-9.]+ s")
  fail("--cycle auto: the table header does not name the cycle: ${OUT}")
endif()
run(--clip ${WALK} --cycle none --format csv --all-frames)
string(REGEX MATCHALL "\n[0-9]+,[^,]*,0,Root," none_frames "${OUT}")
list(LENGTH none_frames n_none)
if(NOT RC EQUAL 0 OR NOT n_none EQUAL n_raw OR NOT ERR STREQUAL "")
  fail("--cycle none: exit ${RC}, ${n_none} frames against ${n_raw}, stderr: ${ERR}")
endif()

# --out writes the loop.
run(--clip ${WALK} --cycle auto --out "${TMP}/walk_loop.rbxmx" --loop)
if(NOT RC EQUAL 0 OR NOT ERR MATCHES "cycle [0-9.]+-[0-9.]+ s[^\n]*\n[^\n]*walk_loop.rbxmx: [0-9]+ keys reduced" OR NOT EXISTS "${TMP}/walk_loop.rbxmx")
  fail("--cycle auto --out: exit ${RC}, stderr: ${ERR}")
endif()

# A scene's "cycle" on the animation block and on a track; a bad value names its place.
file(WRITE "${TMP}/loop.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 3,
  \"animation\": {\"clip\": \"${SOURCE_DIR}/${WALK}\", \"cycle\": \"auto\"}}")
run("${TMP}/loop.scene.json")
if(NOT RC EQUAL 0 OR NOT ERR MATCHES "cycle [0-9.]+-[0-9.]+ s")
  fail("scene animation cycle auto: exit ${RC}, stderr: ${ERR}")
endif()
file(WRITE "${TMP}/track.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 3,
  \"tracks\": [{\"name\": \"Walk\", \"clip\": \"${SOURCE_DIR}/${WALK}\", \"cycle\": \"auto\"}]}")
run("${TMP}/track.scene.json")
if(NOT RC EQUAL 0 OR NOT ERR MATCHES "cycle [0-9.]+-[0-9.]+ s")
  fail("scene track cycle auto: exit ${RC}, stderr: ${ERR}")
endif()
file(WRITE "${TMP}/bad_cycle.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\",
  \"animation\": {\"clip\": \"${SOURCE_DIR}/${WALK}\", \"cycle\": \"always\"}}")
expect_bad("/animation/cycle: unknown cycle 'always'" "${TMP}/bad_cycle.scene.json")
expect_bad("--cycle" --clip ${WALK} --cycle sometimes)

file(REMOVE_RECURSE "${TMP}")
