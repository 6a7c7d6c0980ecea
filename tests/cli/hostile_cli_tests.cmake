# asterune-solve on hostile input (docs/formats.md, "Limits"), run against the real binary:
#   cmake -DCLI=<asterune-solve> -DSOURCE_DIR=<repo> -DTMP_ROOT=<tmp root> -P hostile_cli_tests.cmake
# Devices are refused, a clip too long to play whole is refused before any int conversion,
# and --all-frames output is streamed (the document still parses and holds every frame).
cmake_minimum_required(VERSION 3.25)
if(NOT CLI OR NOT SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DCLI=<asterune-solve> -DSOURCE_DIR=<repo> -DTMP_ROOT=<tmp root> -P hostile_cli_tests.cmake")
endif()
set(TMP_NAME cli_hostile)
include(${CMAKE_CURRENT_LIST_DIR}/temp_dir.cmake)

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

# ---- devices and other non-regular files ---------------------------------------------------
if(EXISTS /dev/zero)
  file(WRITE "${TMP}/dev_zero.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"/dev/zero\"}")
  expect_bad("/dev/zero: is not a regular file" "${TMP}/dev_zero.scene.json")
  expect_bad("/dev/zero: is not a regular file" --rig /dev/zero)
  expect_bad("/dev/zero: is not a regular file" /dev/zero)
  expect_bad("/dev/zero: is not a regular file" --pose /dev/zero)
  expect_bad("/dev/zero: not a regular file" --clip /dev/zero)
endif()
expect_bad("is a directory" --rig "${TMP}")

# ---- clip durations: checked before the frame count becomes an int ----------------------------
set(_bvh "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 2\nFrame Time: @TIME@\n0 0 0\n0 0 0\n")
string(REPLACE "@TIME@" "1e30" _huge "${_bvh}")
file(WRITE "${TMP}/frame_time_1e30.bvh" "${_huge}")
expect_bad("frame time must be at most 3600 seconds" --clip "${TMP}/frame_time_1e30.bvh")
# A real skeleton (so the clip retargets onto R15) whose 3 frames last an hour each.
file(READ "${SOURCE_DIR}/tests/fuzz/corpus/bvh/cmu_49_04_run_leap_3frames.bvh" _cmu)
string(REGEX REPLACE "Frame Time:[^\n]*" "Frame Time: 3600" _long "${_cmu}")
file(WRITE "${TMP}/hour_frames.bvh" "${_long}")
expect_bad("takes more than 100000 frames; pass --frames" --clip "${TMP}/hour_frames.bvh")
expect_bad("takes more than 100000 frames; pass --frames" --clip "${TMP}/hour_frames.bvh" --dt 1e-6)
run(--clip "${TMP}/hour_frames.bvh" --frames 3 --dt 1)
if(NOT RC EQUAL 0)
  fail("--clip hour_frames.bvh --frames 3: expected exit 0, got ${RC}: ${ERR}")
endif()
file(WRITE "${TMP}/no_channels_1e8.bvh"
     "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 0\n}\nMOTION\nFrames: 100000000\nFrame Time: 0.03\n")
# 10^8 frames with no data: loads without per-frame memory, then cannot be played on R15 (one
# joint, nothing to map) or, given a mapping, is refused as more than 100,000 frames.
expect_bad("no_channels_1e8.bvh" --clip "${TMP}/no_channels_1e8.bvh")

# ---- streamed output: every frame is in a valid document ---------------------------------------
run(--all-frames --frames 500 --format json)
if(NOT RC EQUAL 0)
  fail("--all-frames --frames 500 --format json: exit ${RC}: ${ERR}")
else()
  string(JSON _n ERROR_VARIABLE _jerr LENGTH "${OUT}" frames)
  if(_jerr OR NOT _n EQUAL 500)
    fail("--all-frames --format json: expected 500 frames in a valid document, got '${_n}' ${_jerr}")
  endif()
  string(JSON _last ERROR_VARIABLE _jerr GET "${OUT}" frames 499 frame)
  if(NOT _last EQUAL 499)
    fail("--all-frames --format json: last frame is '${_last}'")
  endif()
endif()
run(--all-frames --frames 50 --format csv)
string(REGEX MATCHALL "\n" _rows "${OUT}")
list(LENGTH _rows _rows_n)
if(NOT RC EQUAL 0 OR NOT _rows_n EQUAL 751)  # header + 50 frames x 15 joints
  fail("--all-frames --frames 50 --format csv: exit ${RC}, ${_rows_n} lines")
endif()

file(REMOVE_RECURSE "${TMP}")
