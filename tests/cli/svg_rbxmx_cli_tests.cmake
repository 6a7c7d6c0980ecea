# asterune-solve --svg and --out FILE.rbxmx, run against the real binary:
#   cmake -DCLI=<asterune-solve> -DSOURCE_DIR=<repo> -DWORK_DIR=<build-tree folder> -P export_cli_tests.cmake
# Checks that the drawings are written (one frame, onion skin, animation) with their markers,
# that a KeyframeSequence written by --out plays back through --clip to the same world
# placements as the run that wrote it, and the one-line errors of the new flags.
cmake_minimum_required(VERSION 3.25)
if(NOT CLI OR NOT SOURCE_DIR OR NOT WORK_DIR)
  message(FATAL_ERROR "usage: cmake -DCLI=<asterune-solve> -DSOURCE_DIR=<repo> -DWORK_DIR=<dir> -P export_cli_tests.cmake")
endif()
string(RANDOM LENGTH 8 _id)
set(TMP "${WORK_DIR}/export_cli_${_id}")
file(REMOVE_RECURSE "${TMP}")
file(MAKE_DIRECTORY "${TMP}")

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

function(count_matches text regex out)
  string(REGEX MATCHALL "${regex}" _m "${text}")
  list(LENGTH _m _n)
  set(${out} ${_n} PARENT_SCOPE)
endfunction()

# ---- --help documents the new flags -------------------------------------------------------
expect_ok(--help)
foreach(flag --svg --svg-every --svg-animate --out --loop --priority .rbxmx)
  expect_contains("${OUT}" "${flag}" "--help")
endforeach()

# ---- --svg ----------------------------------------------------------------------------------
expect_ok(--svg "${TMP}/demo.svg")
expect_contains("${OUT}" "frame 59" "--svg keeps printing the table")
file(READ "${TMP}/demo.svg" svg)
foreach(needle "<svg" "LeftArmReach target" "LeftArmReach pole" "HeadTrack target" "root: HumanoidRootPart"
               "stud" "+Y up" "data-joint=\"RightShoulder\"")
  expect_contains("${svg}" "${needle}" "demo.svg")
endforeach()
count_matches("${svg}" "class=\"frame\"" n)
if(NOT n EQUAL 1)
  fail("demo.svg: expected 1 frame group, got ${n}")
endif()

expect_ok(--svg "${TMP}/onion.svg" --all-frames --svg-every 20)
file(READ "${TMP}/onion.svg" svg)
count_matches("${svg}" "class=\"frame\"" n)
if(NOT n EQUAL 4)  # frames 0, 20, 40 and the last, 59
  fail("onion.svg: expected 4 frame groups, got ${n}")
endif()

expect_ok(--svg "${TMP}/anim.svg" --svg-animate --frames 12)
file(READ "${TMP}/anim.svg" svg)
count_matches("${svg}" "<animate " n)
if(NOT n EQUAL 12)
  fail("anim.svg: expected 12 animated frame groups, got ${n}")
endif()
expect_contains("${svg}" "dur=\"0.200s\"" "anim.svg plays 12 frames at 1/60 s")

# ---- --out FILE.rbxmx and back through --clip --------------------------------------------------
# A tolerance of 1e-9 studs keeps every key that is not reproduced exactly (rule F7), so the
# played-back table matches the written one to the printed digits.
run(--out "${TMP}/demo.rbxmx" --loop --priority Movement --all-frames --tolerance 1e-9)
require_ok_keys("--out demo.rbxmx")
set(written "${OUT}")
file(READ "${TMP}/demo.rbxmx" seq)
count_matches("${seq}" "class=\"Keyframe\"" n)
if(NOT n EQUAL 60)
  fail("demo.rbxmx: expected 60 Keyframes, got ${n}")
endif()
expect_contains("${seq}" "<bool name=\"Loop\">true</bool>" "demo.rbxmx Loop")
expect_contains("${seq}" "<token name=\"Priority\">1</token>" "demo.rbxmx Priority Movement")

expect_ok(--clip "${TMP}/demo.rbxmx" --all-frames)
expect_contains("${OUT}" "60 frame(s)" "the KeyframeSequence plays all its 60 frames")
# The world positions (last column of every joint row) are the ones of the run that wrote it.
# Frames 0..58 only: demo.rbxmx says Loop = true (--loop), so it plays looped (rule AN11), and a
# looping clip at t = duration is at t = 0.
string(REGEX MATCHALL "\\)    \\([^)]*\\)" world_written "${written}")
string(REGEX MATCHALL "\\)    \\([^)]*\\)" world_played "${OUT}")
list(LENGTH world_written nw)
list(LENGTH world_played np)
if(NOT nw EQUAL 900 OR NOT np EQUAL 900)  # 60 frames x 15 joints
  fail("expected 900 joint rows, got ${nw} and ${np}")
else()
  list(SUBLIST world_written 0 885 world_written)
  list(SUBLIST world_played 0 885 world_played)
  if(NOT world_written STREQUAL world_played)
    fail("--clip demo.rbxmx does not reproduce the world positions of the run that wrote it")
  endif()
endif()

# ---- errors -----------------------------------------------------------------------------------
expect_bad("unsupported format '.fbx'" --out "${TMP}/x.fbx")
expect_bad("--loop" --loop --no-loop)
expect_bad("--priority" --out "${TMP}/y.rbxmx" --priority Highest)
expect_bad("--svg-every" --svg-every 3)
expect_bad("cannot open file for writing" --svg "${TMP}/no/such/folder/x.svg")
file(WRITE "${TMP}/broken.rbxmx"
     "<roblox><Item class=\"KeyframeSequence\" referent=\"RBX0\"><Properties/>"
     "<Item class=\"Keyframe\" referent=\"RBX1\"><Properties><float name=\"Time\">x</float></Properties></Item>"
     "</Item></roblox>")
expect_bad("broken.rbxmx: Keyframe '' (referent RBX1) Time: not a number: 'x'" --clip "${TMP}/broken.rbxmx")

file(REMOVE_RECURSE "${TMP}")
