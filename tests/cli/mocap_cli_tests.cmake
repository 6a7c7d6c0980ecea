# asterune-solve on mocap clips: feet on the floor, contacts, planted feet (rules RT16-RT19), run
# against the real binary:
#   cmake -DCLI=<asterune-solve> -DSOURCE_DIR=<repo> -DTMP_ROOT=<tmp root> -P mocap_cli_tests.cmake
cmake_minimum_required(VERSION 3.25)
set(TMP_NAME cli_mocap)
include(${CMAKE_CURRENT_LIST_DIR}/temp_dir.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)
set(WALK tests/data/bvh/cmu_131_01_start_walk_stop.bvh)

# Rule RT16: a source whose feet never touch (a swim: the whole body drifts 30 units per second,
# 3.3 leg lengths per second, so no foot is ever still): the floor falls back to the rest, one
# note on stderr, exit 0, and no foot is ever in contact.
set(swim "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n")
foreach(side Left Right)
  if(side STREQUAL "Left")
    set(x 1)
  else()
    set(x -1)
  endif()
  string(APPEND swim " JOINT ${side}UpLeg\n {\n  OFFSET ${x} 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
         "  JOINT ${side}Leg\n  {\n   OFFSET 0 -4 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n"
         "   JOINT ${side}Foot\n   {\n    OFFSET 0 -4 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
         "    End Site\n    {\n     OFFSET 0 -1 1\n    }\n   }\n  }\n }\n")
endforeach()
string(APPEND swim " JOINT Spine\n {\n  OFFSET 0 2 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
       "  JOINT Head\n  {\n   OFFSET 0 3 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n"
       "   End Site\n   {\n    OFFSET 0 1 0\n   }\n  }\n }\n}\nMOTION\nFrames: 30\nFrame Time: 0.0333333\n")
foreach(f RANGE 29)
  string(APPEND swim "${f} 14 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n")
endforeach()
file(WRITE "${TMP}/swim.bvh" "${swim}")
run(--rig builtin:r15 --clip "${TMP}/swim.bvh" --all-frames --format json)
if(NOT RC EQUAL 0 OR NOT ERR MATCHES "^asterune-solve: note: [^\n]*swim.bvh: the feet of source [^\n]* never touch[^\n]*\n$")
  fail("a swim: exit ${RC}, stderr: ${ERR}")
endif()
string(JSON frames LENGTH "${OUT}" frames)
math(EXPR last "${frames} - 1")
foreach(f RANGE ${last})
  string(JSON left GET "${OUT}" frames ${f} contacts LeftFoot)
  string(JSON right GET "${OUT}" frames ${f} contacts RightFoot)
  if(left OR right)
    fail("a swim: frame ${f} has a foot in contact")
  endif()
endforeach()

# Contacts from a scene's "tracks" (the animator plays several clips): the frames JSON carries
# the contacts of the heaviest playing track, the table its contacts line.
file(WRITE "${TMP}/tracks.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 3, \"dt\": 0.5,
  \"tracks\": [{\"name\": \"Walk\", \"clip\": \"${SOURCE_DIR}/${WALK}\", \"weight\": 1},
               {\"name\": \"Run\", \"clip\": \"${SOURCE_DIR}/tests/data/bvh/cmu_49_04_run_leap.bvh\", \"weight\": 0.25}]}")
run("${TMP}/tracks.scene.json" --all-frames --format json)
require_ok("tracks contacts json")
foreach(f 0 1 2)
  string(JSON left ERROR_VARIABLE jerr GET "${OUT}" frames ${f} contacts LeftFoot)
  if(jerr OR NOT (left STREQUAL "ON" OR left STREQUAL "OFF"))
    fail("tracks: frame ${f} has no contacts.LeftFoot boolean: ${jerr}")
  endif()
endforeach()
run("${TMP}/tracks.scene.json" --frame 1)
require_ok("tracks contacts table")
if(NOT OUT MATCHES "\ncontacts:  LeftFoot (down|up)  RightFoot (down|up)\n")
  fail("tracks: the table has no contacts line:\n${OUT}")
endif()

# A track without feet (a tail) beside the walk: one note for it, exit 0.
file(WRITE "${TMP}/tail.bvh"
     "HIERARCHY\nROOT Tail\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
     " JOINT Tip\n {\n  OFFSET 0 0 -3\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 0 -1\n  }\n }\n}\n"
     "MOTION\nFrames: 3\nFrame Time: 0.1\n0 1 0 0 0 0 0 10 0\n0 1 0 0 0 0 0 20 0\n0 1 0 0 0 0 0 30 0\n")
file(WRITE "${TMP}/tail_tracks.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 3, \"dt\": 0.1,
  \"tracks\": [{\"name\": \"Walk\", \"clip\": \"${SOURCE_DIR}/${WALK}\"},
               {\"name\": \"Tail\", \"clip\": \"tail.bvh\", \"weight\": 0.5,
                \"retarget\": {\"map\": {\"LowerTorso\": \"Tail\"}, \"facing\": [1, 0, 0, 0], \"scale\": 1}}]}")
run("${TMP}/tail_tracks.scene.json" --format json)
if(NOT RC EQUAL 0 OR NOT ERR MATCHES "^asterune-solve: note: [^\n]*tail.bvh: no recognisable feet[^\n]*\n$")
  fail("tracks with a tail: exit ${RC}, stderr: ${ERR}")
endif()

# A single bone (the root alone, driving the pelvis through a map): no feet, one note, exit 0.
file(WRITE "${TMP}/bone.bvh"
     "HIERARCHY\nROOT Bone\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
     " End Site\n {\n  OFFSET 0 2 0\n }\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n0 1 0 0 0 0\n0 1 1 0 0 0\n")
file(WRITE "${TMP}/bone.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 2, \"dt\": 0.1,
  \"animation\": {\"clip\": \"bone.bvh\", \"retarget\": {\"map\": {\"LowerTorso\": \"Bone\"}, \"facing\": [1, 0, 0, 0], \"scale\": 1}}}")
run("${TMP}/bone.scene.json" --format json)
if(NOT RC EQUAL 0 OR NOT ERR MATCHES "^asterune-solve: note: [^\n]*bone.bvh: no recognisable feet[^\n]*\n$")
  fail("a single bone: exit ${RC}, stderr: ${ERR}")
endif()
string(JSON c ERROR_VARIABLE no_contacts GET "${OUT}" frames 0 contacts)
if(NOT no_contacts)
  fail("a single bone: the frames have contacts: ${c}")
endif()

# Rule RT19: "plant_feet": true plays (no stderr); a value that is not a boolean is a bad scene.
file(WRITE "${TMP}/plant.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 5, \"dt\": 0.25,
  \"animation\": {\"clip\": \"${SOURCE_DIR}/${WALK}\", \"retarget\": {\"plant_feet\": true}}}")
run("${TMP}/plant.scene.json" --all-frames --format json)
require_ok("plant_feet")
file(WRITE "${TMP}/bad_plant.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\",
  \"animation\": {\"clip\": \"${SOURCE_DIR}/${WALK}\", \"retarget\": {\"plant_feet\": \"yes\"}}}")
expect_bad("plant_feet" "${TMP}/bad_plant.scene.json")

file(REMOVE_RECURSE "${TMP}")

# Rule RT23: CMU 49_04's first frame is the converter's T-pose: left out with one note (which
# names the way to keep it), and --keep-first-frame keeps it (one frame more, no note).
run(--rig builtin:r15 --clip tests/data/bvh/cmu_49_04_run_leap.bvh --dt 0.0083333 --format csv)
if(NOT RC EQUAL 0 OR NOT FIRST_FRAME_NOTE MATCHES "cmu_49_04_run_leap.bvh: frame 0 is a rest-like pose[^\n]*--keep-first-frame keeps it")
  fail("49_04's T-pose frame: exit ${RC}, stderr: ${ERR}${FIRST_FRAME_NOTE}")
endif()
run(--rig builtin:r15 --clip tests/data/bvh/cmu_49_04_run_leap.bvh --dt 0.0083333 --format csv --all-frames)
string(REGEX MATCHALL "\n[0-9]+,[^,]*,0,Root," cut_all "${OUT}")
run(--rig builtin:r15 --clip tests/data/bvh/cmu_49_04_run_leap.bvh --dt 0.0083333 --format csv --all-frames --keep-first-frame)
string(REGEX MATCHALL "\n[0-9]+,[^,]*,0,Root," kept_all "${OUT}")
list(LENGTH cut_all n_cut)
list(LENGTH kept_all n_kept)
math(EXPR one_more "${n_cut} + 1")
if(NOT RC EQUAL 0 OR NOT FIRST_FRAME_NOTE STREQUAL "" OR NOT n_kept EQUAL one_more)
  fail("--keep-first-frame: exit ${RC}, ${n_kept} frames against ${n_cut} cut, stderr: ${ERR}")
endif()
