# asterune-solve playing clips (rules P4, RT8): the three CMU clips on builtin:r15 with
# automatic mapping, the scene "animation" block, and bad clip input.
#   cmake -DCLI=<asterune-solve> -DSOURCE_DIR=<repo> -DTMP_ROOT=<tmp root> -P run_animation_cli_tests.cmake
cmake_minimum_required(VERSION 3.25)
set(TMP_NAME cli_animation)
include(${CMAKE_CURRENT_LIST_DIR}/temp_dir.cmake)
set(DATA "${SOURCE_DIR}/tests/data/bvh")

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

# Each CMU clip plays whole (frames = duration / dt + 1 at 60 Hz) with every R15 joint covered;
# 49_04 and 01_01 without the converter's T-pose frame (rule RT23: 1/120 s shorter, so 01_01
# plays 449 frames, not 450).
foreach(case "cmu_49_04_run_leap.bvh;126" "cmu_01_01_jumps_first900.bvh;449" "cmu_131_01_start_walk_stop.bvh;497")
  list(GET case 0 clip)
  list(GET case 1 frames)
  run(--rig builtin:r15 --clip tests/data/bvh/${clip} --format csv --all-frames)
  require_ok("--clip ${clip}")
  string(REGEX MATCHALL "\n" lines "${OUT}")
  list(LENGTH lines n)
  math(EXPR want "${frames} * 15 + 1")
  if(NOT n EQUAL want)
    message(SEND_ERROR "FAIL: --clip ${clip}: ${n} csv lines, expected ${want} (${frames} frames x 15 joints + header)")
  endif()
  if(OUT MATCHES ",0,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+,[-0-9.e]+\n")
    message(SEND_ERROR "FAIL: --clip ${clip}: some joint has coverage 0")
  endif()
  if(OUT MATCHES "nan|inf")
    message(SEND_ERROR "FAIL: --clip ${clip}: nonfinite output")
  endif()
endforeach()

# JSON output: frame 0 of 49_04 is the T-pose (kept: --keep-first-frame, rule RT23), i.e. the
# source rest: the pelvis keeps its rest orientation (identity T) and the pose is fully covered.
run(--rig builtin:r15 --clip tests/data/bvh/cmu_49_04_run_leap.bvh --format json --frame 0 --keep-first-frame)
require_ok("--clip json")
string(JSON root_w GET "${OUT}" frames 0 joints 0 transform rotation 0)
string(JSON cov GET "${OUT}" frames 0 joints 4 coverage)
if(NOT root_w EQUAL 1 OR NOT cov EQUAL 1)
  message(SEND_ERROR "FAIL: 49_04 frame 0: Root rotation w ${root_w}, LeftElbow coverage ${cov}")
endif()

# The scene animation block (path relative to the scene; retarget block from formats.md).
file(WRITE "${TMP}/run.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 30, \"dt\": 0.05,
  \"animation\": {\"clip\": \"${DATA}/cmu_131_01_start_walk_stop.bvh\", \"loop\": true,
    \"retarget\": {\"map\": \"auto\", \"rest_matching\": true, \"translation\": true, \"scale\": \"auto\"}}}")
run("${TMP}/run.scene.json" --all-frames --format csv)
require_ok("scene animation block")
string(REGEX MATCHALL "\n" lines "${OUT}")
list(LENGTH lines n)
if(NOT n EQUAL 451)
  message(SEND_ERROR "FAIL: scene animation: ${n} csv lines, expected 30 x 15 + 1")
endif()
# --clip replaces the scene's clip and keeps its settings (30 frames).
run("${TMP}/run.scene.json" --clip tests/data/bvh/cmu_49_04_run_leap.bvh --format csv --frame 29)
require_ok("scene + --clip")
# Translation off: the Root T stays at zero.
file(WRITE "${TMP}/still.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 10,
  \"animation\": {\"clip\": \"${DATA}/cmu_49_04_run_leap.bvh\", \"retarget\": {\"translation\": false}}}")
run("${TMP}/still.scene.json" --format json --frame 9)
require_ok("translation off")
foreach(axis 0 1 2)
  string(JSON p GET "${OUT}" frames 0 joints 0 transform position ${axis})
  if(NOT p EQUAL 0)
    message(SEND_ERROR "FAIL: translation off: Root T position ${axis} = ${p}")
  endif()
endforeach()

# Bad input: one line on stderr, exit 2.
file(WRITE "${TMP}/bad.bvh" "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Wrotation\n}\n")
run(--clip "${TMP}/bad.bvh")
if(NOT RC EQUAL 2 OR NOT ERR MATCHES "^asterune-solve: .*bad.bvh")
  message(SEND_ERROR "FAIL: bad BVH: exit ${RC}, stderr ${ERR}")
endif()
file(WRITE "${TMP}/badmap.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\",
  \"animation\": {\"clip\": \"${DATA}/cmu_49_04_run_leap.bvh\", \"retarget\": {\"map\": {\"LowerTorso\": \"Pelvis\"}}}}")
run("${TMP}/badmap.scene.json")
if(NOT RC EQUAL 2 OR NOT ERR MATCHES "Pelvis")
  message(SEND_ERROR "FAIL: bad map: exit ${RC}, stderr ${ERR}")
endif()

file(REMOVE_RECURSE "${TMP}")
