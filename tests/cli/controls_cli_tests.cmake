# asterune-solve with controls (formats.md "controls", rule CS1-CS8), run against the real binary:
#   cmake -DCLI=<asterune-solve> -DSOURCE_DIR=<repo> -DTMP_ROOT=<tmp root> -P controls_cli_tests.cmake
# The default demo shows the arm reaching and the head tracking; scenes with ik and look_at
# controls report status/reached/clamped/distance/angle/weight/passes/stretch per control in
# --format json (springs also substeps and resets; the ground example reports each foot); the
# arm-settings scene shows limits, soft reach, stretch and the reach window; bad controls fail
# with exit 2 and one stderr line naming the problem.
cmake_minimum_required(VERSION 3.25)
if(NOT CLI OR NOT SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DCLI=<asterune-solve> -DSOURCE_DIR=<repo> -DTMP_ROOT=<tmp root> -P controls_cli_tests.cmake")
endif()
set(TMP_NAME cli_controls)
include(${CMAKE_CURRENT_LIST_DIR}/temp_dir.cmake)

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

# 1. The default demo: the left arm reaches and the head tracks, both reported.
run()
if(NOT RC EQUAL 0)
  fail("demo: exit ${RC}: ${ERR}")
endif()
expect_contains("${OUT}" "control LeftArmReach: reached" "demo")
expect_contains("${OUT}" "control HeadTrack: reached" "demo")

# 2. The shipped scene, JSON: every frame carries each control's report.
run(examples/reach_and_look.scene.json --format json --all-frames)
if(NOT RC EQUAL 0)
  fail("reach_and_look: exit ${RC}: ${ERR}")
endif()
string(JSON nframes LENGTH "${OUT}" frames)
if(NOT nframes EQUAL 60)
  fail("reach_and_look: expected 60 frames, got ${nframes}")
endif()
math(EXPR last "${nframes} - 1")
foreach(f 0 ${last})
  string(JSON ncontrols LENGTH "${OUT}" frames ${f} controls)
  if(NOT ncontrols EQUAL 3)
    fail("reach_and_look frame ${f}: expected 3 control reports, got ${ncontrols}")
  endif()
endforeach()
string(JSON name GET "${OUT}" frames ${last} controls 0 name)
string(JSON reached GET "${OUT}" frames ${last} controls 0 reached)
string(JSON distance GET "${OUT}" frames ${last} controls 0 distance)
string(JSON angle GET "${OUT}" frames ${last} controls 2 angle)
if(NOT name STREQUAL "LeftArmReach" OR NOT reached STREQUAL "ON")
  fail("reach_and_look last frame: LeftArmReach should have reached (${name} ${reached} ${distance})")
endif()
if(distance GREATER 0.001)
  fail("reach_and_look last frame: distance ${distance} > 0.001 studs")
endif()
if(angle GREATER 0.001)
  fail("reach_and_look last frame: the head's angle ${angle} > 0.001 rad")
endif()

# 2b. Every IK setting from a scene: limits + soft reach + reach window (left arm), stretch +
# max_extension (right arm), a tracking look-at. The left target goes round behind the body,
# so the reach window fades the arm out: weight 1 in front, 0 at the end; the right arm reaches
# past full extension, so it stretches (stretch > 1) but stays within 1.05.
run(examples/arm_settings.scene.json --format json --all-frames)
if(NOT RC EQUAL 0)
  fail("arm_settings: exit ${RC}: ${ERR}")
endif()
string(JSON nframes LENGTH "${OUT}" frames)
if(NOT nframes EQUAL 90)
  fail("arm_settings: expected 90 frames, got ${nframes}")
endif()
string(JSON w0 GET "${OUT}" frames 0 controls 0 weight)
string(JSON wl GET "${OUT}" frames 89 controls 0 weight)
string(JSON st GET "${OUT}" frames 89 controls 0 status)
if(NOT w0 EQUAL 1 OR NOT wl EQUAL 0 OR NOT st STREQUAL "zero_weight")
  fail("arm_settings: the reach window should fade LeftArmReach from 1 to 0 (got ${w0} -> ${wl}, ${st})")
endif()
string(JSON k GET "${OUT}" frames 89 controls 1 stretch)
string(JSON clamped GET "${OUT}" frames 89 controls 1 clamped)
if(NOT k GREATER 1.0 OR k GREATER 1.05 OR NOT clamped STREQUAL "ON")
  fail("arm_settings: RightArmStretch should stretch within 1.05 and report clamped (stretch ${k}, clamped ${clamped})")
endif()
run(examples/arm_settings.scene.json)
expect_contains("${OUT}" "weight 0.000, passes" "arm_settings table: frame 89 is out of the reach window")
expect_contains("${OUT}" "(zero_weight)" "arm_settings table")

# 3. Feet over a step and a slope (examples/walk_over_step.scene.json): each foot reported.
run(examples/walk_over_step.scene.json --format json --frame 150)
if(NOT RC EQUAL 0)
  fail("walk_over_step: exit ${RC}: ${ERR}")
endif()
string(JSON feet_name GET "${OUT}" frames 0 controls 0 name)
string(JSON foot_count LENGTH "${OUT}" frames 0 controls 0 feet)
string(JSON foot_hit GET "${OUT}" frames 0 controls 0 feet 0 hit)
string(JSON drop GET "${OUT}" frames 0 controls 0 pelvis_drop)
if(NOT feet_name STREQUAL "Feet" OR NOT foot_count EQUAL 2 OR NOT foot_hit STREQUAL "ON")
  fail("walk_over_step frame 150: expected two feet reported, hit (${feet_name} ${foot_count} ${foot_hit})")
endif()
if(drop LESS 0)
  fail("walk_over_step frame 150: negative pelvis drop ${drop}")
endif()
# Foot 0 is over the step (z from 1 to 2.5, top at y 0.25): its ray runs straight down (the root
# is upright) and ends on the step's top, whose normal is +Y.
string(JSON ox GET "${OUT}" frames 0 controls 0 feet 0 ray_origin 0)
string(JSON oz GET "${OUT}" frames 0 controls 0 feet 0 ray_origin 2)
string(JSON ex GET "${OUT}" frames 0 controls 0 feet 0 ray_end 0)
string(JSON ey GET "${OUT}" frames 0 controls 0 feet 0 ray_end 1)
string(JSON ez GET "${OUT}" frames 0 controls 0 feet 0 ray_end 2)
string(JSON ny GET "${OUT}" frames 0 controls 0 feet 0 hit_normal 1)
if(NOT ex EQUAL ox OR NOT ez EQUAL oz OR ez LESS 1 OR ez GREATER 2.5 OR ey LESS 0.2499 OR ey GREATER 0.2501
   OR NOT ny EQUAL 1)
  fail("walk_over_step frame 150: foot 0's ray should end on the step top at y 0.25 below its origin, normal +Y "
       "(origin x ${ox} z ${oz}, end ${ex} ${ey} ${ez}, normal y ${ny})")
endif()
run(examples/walk_over_step.scene.json --frame 150)
expect_contains("${OUT}" "  foot 0: hit, lift " "walk_over_step table")

# 3b. Step shortening and slope lean (rules G8, G9): standing on a plane falling 20 degrees
# ahead, each foot tilted to it puts its ankle target ahead of the hip, so with
# step_shorten_ratio 1 both feet report a shorten; the pelvis leans back by the slope's 20
# degrees, capped at max_lean_deg 12.
file(WRITE "${TMP}/lean.scene.json" [=[
{"format": "asterune.scene/1", "rig": "builtin:r15",
 "ground": [{"type": "plane", "point": [0, 0, 0], "normal": [0, 0.9396926, -0.3420201]}],
 "controls": [{"type": "feet", "name": "Feet",
               "legs": [{"chain_root": "LeftUpperLeg", "end": "LeftFoot"},
                        {"chain_root": "RightUpperLeg", "end": "RightFoot"}],
               "step_shorten_ratio": 1, "lean": true, "max_lean_deg": 12}]}
]=])
run("${TMP}/lean.scene.json" --format json)
if(NOT RC EQUAL 0)
  fail("lean scene: exit ${RC}: ${ERR}")
endif()
string(JSON shorten0 GET "${OUT}" frames 0 controls 0 feet 0 shorten)
string(JSON shorten1 GET "${OUT}" frames 0 controls 0 feet 1 shorten)
string(JSON lean GET "${OUT}" frames 0 controls 0 lean_deg)
if(NOT shorten0 GREATER 0.005 OR NOT shorten1 GREATER 0.005 OR lean LESS 11.999 OR lean GREATER 12.001)
  fail("lean scene: expected both feet shortened and a 12 degree lean (shorten ${shorten0} ${shorten1}, lean ${lean})")
endif()
run("${TMP}/lean.scene.json")
expect_contains("${OUT}" ", shorten 0.0" "lean scene table")
expect_contains("${OUT}" ", lean 12.00 deg" "lean scene table")
file(WRITE "${TMP}/lean_bad.scene.json" [=[
{"format": "asterune.scene/1", "rig": "builtin:r15",
 "controls": [{"type": "feet", "name": "Feet", "legs": [{"chain_root": "LeftUpperLeg", "end": "LeftFoot"}],
               "lean": true, "pelvis": false}]}
]=])
expect_bad("lean tilts the pelvis" "${TMP}/lean_bad.scene.json")

# 4. Unsupported and bad controls fail clearly.
file(WRITE "${TMP}/feet.scene.json" [=[
{"format": "asterune.scene/1", "rig": "builtin:r15",
 "controls": [{"type": "feet", "name": "Feet", "legs": []}]}
]=])
expect_bad("1 or 2 legs" "${TMP}/feet.scene.json")
file(WRITE "${TMP}/spring.scene.json" [=[
{"format": "asterune.scene/1", "rig": "builtin:r15",
 "controls": [{"type": "spring", "name": "Tail", "chain_root": "Tail1", "end": "Tail3"}]}
]=])
expect_bad("control 'Tail': chain_root 'Tail1'" "${TMP}/spring.scene.json")
file(WRITE "${TMP}/spring_own.scene.json" [=[
{"format": "asterune.scene/1", "rig": "builtin:r15",
 "controls": [{"type": "spring", "name": "Tail", "chain_root": "Tail1", "end": "Tail3",
               "colliders": [{"type": "sphere", "part": "Tail2", "radius": 0.3}]}]}
]=])
file(WRITE "${TMP}/chain.scene.json" [=[
{"format": "asterune.scene/1", "rig": "builtin:r15",
 "controls": [{"type": "ik", "name": "Bad", "chain_root": "LeftUpperArm", "end": "RightHand",
               "target": {"position": [0, 3, -1]}}]}
]=])
expect_bad("does not descend" "${TMP}/chain.scene.json")
expect_bad("control 'Bad'" "${TMP}/chain.scene.json")

expect_bad("not a collider for itself" --rig examples/tailed_r15.rig.json "${TMP}/spring_own.scene.json")
file(WRITE "${TMP}/spring_collider.scene.json" [=[
{"format": "asterune.scene/1", "rig": "builtin:r15",
 "controls": [{"type": "spring", "name": "Arm", "chain_root": "LeftUpperArm", "end": "LeftHand",
               "colliders": [{"type": "cube", "part": "Head", "radius": 0.3}]}]}
]=])
expect_bad("/controls/0/colliders/0/type: unknown collider type 'cube'" "${TMP}/spring_collider.scene.json")

# 4. The tail walk example: a spring tail on a walking, turning character (moving root path);
#    every frame reports the spring's substeps (4 at 60 Hz after the first frame) and resets.
run(examples/tail_walk.scene.json --format json --all-frames)
if(NOT RC EQUAL 0)
  fail("tail_walk: exit ${RC}: ${ERR}")
endif()
string(JSON nframes LENGTH "${OUT}" frames)
math(EXPR last "${nframes} - 1")
string(JSON name GET "${OUT}" frames ${last} controls 0 name)
string(JSON substeps GET "${OUT}" frames ${last} controls 0 substeps)
string(JSON resets GET "${OUT}" frames ${last} controls 0 resets)
string(JSON first_substeps GET "${OUT}" frames 0 controls 0 substeps)
if(NOT name STREQUAL "Tail" OR NOT substeps EQUAL 4 OR NOT resets EQUAL 0 OR NOT first_substeps EQUAL 0)
  fail("tail_walk: expected Tail with 4 substeps, 0 resets (first frame 0 substeps), got ${name} ${substeps} ${resets} ${first_substeps}")
endif()
run(examples/tail_walk.scene.json --frames 2)
expect_contains("${OUT}" "control Tail: " "tail_walk table")
expect_contains("${OUT}" "substeps 4, resets 0" "tail_walk table")
expect_contains("${OUT}" "(moving along a path from there)" "tail_walk table")

file(REMOVE_RECURSE "${TMP}")
