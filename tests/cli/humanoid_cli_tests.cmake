# asterune-solve with any humanoid source (rules RT11, RT13-RT15): glTF joints without names,
# an R6 KeyframeSequence on R15, a partly matching KeyframeSequence, origin "first_frame" and a
# bad reference frame.
#   cmake -DCLI=<asterune-solve> -DSOURCE_DIR=<repo> -DTMP_ROOT=<tmp root> -P humanoid_cli_tests.cmake
cmake_minimum_required(VERSION 3.25)
set(TMP_NAME cli_humanoid)
include(${CMAKE_CURRENT_LIST_DIR}/temp_dir.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)
set(DATA "${SOURCE_DIR}/tests/data")

# Unnamed glTF joints: roles by structure, said in the table header; no empty "()".
run(--rig builtin:r15 --clip tests/data/gltf/CesiumMan_unnamed_joints.gltf --frame 0)
if(NOT RC EQUAL 0 OR NOT OUT MATCHES "retargeted \\(15 of 15 joints mapped\\); source roles: hips=[^ ]+ \\(structure\\)")
  fail("unnamed CesiumMan: exit ${RC}, stderr ${ERR}, header: ${OUT}")
endif()
if(OUT MATCHES "\\(\\)")
  fail("unnamed CesiumMan: an empty () in: ${OUT}")
endif()

# An R6 KeyframeSequence written by --out plays on R15, retargeted from builtin:r6, with a note.
run(--rig builtin:r6 --clip tests/data/bvh/cmu_49_04_run_leap.bvh --frames 40 --dt 0.05 --out "${TMP}/r6.rbxmx")
require_ok_keys("R6 --out")
run(--rig builtin:r15 --clip "${TMP}/r6.rbxmx" --frame 10)
if(NOT RC EQUAL 0 OR NOT ERR MATCHES "^asterune-solve: note: .*r6.rbxmx: its Pose names are those of builtin:r6"
   OR NOT OUT MATCHES "retargeted \\(6 of 15 joints mapped\\)")
  fail("R6 KeyframeSequence on R15: exit ${RC}, stderr ${ERR}")
endif()

# And the other way: an R15 KeyframeSequence on R6.
run(--rig builtin:r15 --clip tests/data/bvh/cmu_49_04_run_leap.bvh --frames 20 --dt 0.05 --out "${TMP}/r15.rbxmx")
require_ok_keys("R15 --out")
run(--rig builtin:r6 --clip "${TMP}/r15.rbxmx" --frame 10)
if(NOT RC EQUAL 0 OR NOT ERR MATCHES "^asterune-solve: note: .*r15.rbxmx: its Pose names are those of builtin:r15"
   OR NOT OUT MATCHES "retargeted \\(6 of 6 joints mapped\\)")
  fail("R15 KeyframeSequence on R6: exit ${RC}, stderr ${ERR}")
endif()

# A partly matching KeyframeSequence plays what matches and lists what it ignored.
file(READ "${TMP}/r6.rbxmx" seq)
string(REPLACE "<string name=\"Name\">Left Arm</string>" "<string name=\"Name\">Tail</string>" seq "${seq}")
file(WRITE "${TMP}/partial.rbxmx" "${seq}")
run(--rig builtin:r6 --clip "${TMP}/partial.rbxmx" --frame 10)
if(NOT RC EQUAL 0 OR NOT ERR MATCHES "note: .*1 of 6 tracks name no joint of rig '[^']+' and are ignored: Tail\n$")
  fail("partial KeyframeSequence: exit ${RC}, stderr ${ERR}")
endif()

# origin "first_frame": the pelvis T (Root joint, on the root part) has no horizontal travel at
# frame 0; with "clip" the mocapbank clip starts several studs away.
foreach(origin clip first_frame)
  file(WRITE "${TMP}/${origin}.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 1,
    \"animation\": {\"clip\": \"${DATA}/bvh/bvhpython_mocapbank_3dsmax_names.bvh\", \"retarget\": {\"origin\": \"${origin}\"}}}")
  run("${TMP}/${origin}.scene.json" --format json --frame 0)
  require_ok("origin ${origin}")
  string(JSON x GET "${OUT}" frames 0 joints 0 transform position 0)
  string(JSON z GET "${OUT}" frames 0 joints 0 transform position 2)
  if(origin STREQUAL "first_frame")
    if(x GREATER 0.001 OR x LESS -0.001 OR z GREATER 0.001 OR z LESS -0.001)
      fail("origin first_frame: frame 0 pelvis travel (${x}, ${z}), expected (0, 0)")
    endif()
  elseif(NOT (z GREATER 2 OR z LESS -2))
    fail("origin clip: frame 0 pelvis travel z ${z}, expected several studs")
  endif()
endforeach()

# A reference frame beyond the clip: one line, exit 2.
file(WRITE "${TMP}/badrest.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\",
  \"animation\": {\"clip\": \"${DATA}/bvh/cmu_49_04_run_leap.bvh\", \"retarget\": {\"rest\": {\"frame\": 99999}}}}")
# (252 frames in the file; 251 once the converter's T-pose frame is left out, rule RT23.)
expect_bad("rest frame 99999 is out of range (the clip has 251 frames: give 0..250)" "${TMP}/badrest.scene.json")

file(REMOVE_RECURSE "${TMP}")
