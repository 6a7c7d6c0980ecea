# asterune-solve playing a scene's "tracks" and "commands" through the animator (rules AN1, AN2,
# AN7, AN10, F3, F6): the single "animation" block is one looped Core track (byte-equal output), the
# JSON frames' "tracks" weights and times against hand-computed linear fades, events, the table's
# track lines, the KeyframeSequence defaults, the example scene, and bad input (exit 2, one line).
#   cmake -DCLI=<asterune-solve> -DSOURCE_DIR=<repo> -DTMP_ROOT=<tmp root> -P tracks_cli_tests.cmake
cmake_minimum_required(VERSION 3.25)
set(TMP_NAME cli_tracks)
include(${CMAKE_CURRENT_LIST_DIR}/temp_dir.cmake)
set(DATA "${SOURCE_DIR}/tests/data/bvh")
set(WALK "${DATA}/cmu_131_01_start_walk_stop.bvh")
set(RUN "${DATA}/cmu_49_04_run_leap.bvh")
set(WAVE "${SOURCE_DIR}/examples/clips/wave.rbxmx")

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_helpers.cmake)

# expect_near(value, want, what): |value - want| <= 1e-5. CMake has no float arithmetic but
# compares numbers as doubles: the bounds want -+ 1e-5 are built as decimal text.
function(expect_near value want what)
  if(NOT DEFINED value OR value STREQUAL "")
    fail("${what}: no value")
    return()
  endif()
  # Bounds as decimal strings: the callers pass wants with at most 7 decimals.
  string(REGEX MATCH "^(-?)([0-9]+)\\.?([0-9]*)$" _m "${want}")
  if(_m STREQUAL "")
    fail("${what}: bad expected value ${want}")
    return()
  endif()
  set(_sign "${CMAKE_MATCH_1}")
  set(_int "${CMAKE_MATCH_2}")
  set(_frac "${CMAKE_MATCH_3}0000000")
  string(SUBSTRING "${_frac}" 0 7 _frac)
  # want in units of 1e-7, then +- 100 (1e-5).
  math(EXPR _w "${_int} * 10000000 + 1${_frac} - 10000000")
  if(_sign STREQUAL "-")
    math(EXPR _w "-${_w}")
  endif()
  math(EXPR _lo_i "${_w} - 100")
  math(EXPR _hi_i "${_w} + 100")
  foreach(b lo hi)
    set(_v "${_${b}_i}")
    set(_s "")
    if(_v LESS 0)
      set(_s "-")
      math(EXPR _v "-${_v}")
    endif()
    math(EXPR _ip "${_v} / 10000000")
    math(EXPR _fp "${_v} % 10000000 + 10000000")
    string(SUBSTRING "${_fp}" 1 7 _fp)
    set(_${b} "${_s}${_ip}.${_fp}")
  endforeach()
  if(value LESS "${_lo}" OR value GREATER "${_hi}")
    fail("${what}: ${value}, expected ${want} +- 1e-5")
  endif()
endfunction()

# --- The "animation" block is one looped Core track at weight 1 (rule AN10) ---------------------
# dt = 1/16 s keeps the tracks' accumulated time exact (7.5 s, inside the 8.27 s clip: no wrap),
# so the output must be byte for byte the animation block's.
file(WRITE "${TMP}/anim.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 121, \"dt\": 0.0625,
  \"animation\": {\"clip\": \"${WALK}\"}}")
file(WRITE "${TMP}/track.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 121, \"dt\": 0.0625,
  \"tracks\": [{\"name\": \"Walk\", \"clip\": \"${WALK}\", \"priority\": \"Core\", \"weight\": 1, \"loop\": true}]}")
run("${TMP}/anim.scene.json" --all-frames --format csv)
require_ok("animation block csv")
set(anim_csv "${OUT}")
run("${TMP}/track.scene.json" --all-frames --format csv)
require_ok("one track csv")
if(NOT anim_csv STREQUAL OUT)
  fail("one Core track at weight 1 does not print the animation block's csv byte for byte")
endif()
string(LENGTH "${OUT}" n)
if(n LESS 100000)
  fail("one track csv: only ${n} bytes")
endif()
# The same frame as JSON: equal joints; the animation block prints no tracks/events (its
# output is today's), the track scene does.
run("${TMP}/anim.scene.json" --format json --frame 77)
require_ok("animation block json")
set(anim_json "${OUT}")
string(JSON anim_joints GET "${anim_json}" frames 0 joints)
string(JSON anim_tracks ERROR_VARIABLE no_tracks GET "${anim_json}" frames 0 tracks)
if(NOT no_tracks)
  fail("the animation block alone printed \"tracks\": ${anim_tracks}")
endif()
run("${TMP}/track.scene.json" --format json --frame 77)
require_ok("one track json")
string(JSON track_joints GET "${OUT}" frames 0 joints)
if(NOT anim_joints STREQUAL track_joints)
  fail("frame 77: the track's joints differ from the animation block's")
endif()
string(JSON name GET "${OUT}" frames 0 tracks 0 name)
string(JSON w GET "${OUT}" frames 0 tracks 0 weight)
string(JSON t GET "${OUT}" frames 0 tracks 0 time)
string(JSON playing GET "${OUT}" frames 0 tracks 0 playing)
string(JSON nev LENGTH "${OUT}" frames 0 events)
if(NOT name STREQUAL "Walk" OR NOT playing STREQUAL "ON")
  fail("frame 77 track: name ${name}, playing ${playing}, ${nev} events")
endif()
# The retargeted walk's only events are its foot contacts' Footstep markers (rule RT17).
if(nev GREATER 0)
  math(EXPR last "${nev} - 1")
  foreach(i RANGE ${last})
    string(JSON kind GET "${OUT}" frames 0 events ${i} kind)
    string(JSON ename GET "${OUT}" frames 0 events ${i} name)
    if(NOT kind STREQUAL "marker" OR NOT ename STREQUAL "Footstep")
      fail("frame 77: unexpected event ${kind} ${ename}")
    endif()
  endforeach()
endif()
expect_near("${w}" 1 "frame 77 weight")
expect_near("${t}" 4.8125 "frame 77 time (77 / 16)")

# --- Fades, speed and set_time against hand-computed values (rules AN1, AN2) -------------------
# Commands run after the pose of the first frame whose time >= t, so at frame time T a fade
# started at t has run T - t seconds. dt = 1/16 s: frame f is at f / 16 s.
file(WRITE "${TMP}/fades.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 40, \"dt\": 0.0625,
  \"tracks\": [{\"name\": \"Walk\", \"clip\": \"${WALK}\", \"priority\": \"Movement\"},
             {\"name\": \"Run\", \"clip\": \"${RUN}\", \"priority\": \"Movement\", \"playing\": false}],
  \"commands\": [{\"t\": 1.0, \"track\": \"Run\", \"play\": {\"fade\": 0.3}},
               {\"t\": 1.125, \"track\": \"Run\", \"adjust_weight\": {\"weight\": 0.2, \"fade\": 0.25}},
               {\"t\": 1.5, \"track\": \"Walk\", \"stop\": {\"fade\": 0.5}},
               {\"t\": 1.5, \"track\": \"Run\", \"adjust_speed\": {\"speed\": 2}},
               {\"t\": 2.0, \"track\": \"Run\", \"set_time\": {\"time\": 0.25}}]}")
run("${TMP}/fades.scene.json" --all-frames --format json)
require_ok("fades scene")
set(fades "${OUT}")
macro(track_field frame track field var)
  string(JSON ${var} GET "${fades}" frames ${frame} tracks ${track} ${field})
endmacro()
# Frame 16 (t = 1): the play runs after this frame's pose: Run still at 0, not playing.
track_field(16 1 weight w16)
track_field(16 1 playing p16)
expect_near("${w16}" 0 "Run weight at t = 1.0")
if(NOT p16 STREQUAL "OFF")
  fail("Run playing at t = 1.0 before its play command")
endif()
# Frame 17 (t = 1.0625): 0.0625 / 0.3 = 0.2083333.
track_field(17 1 weight w17)
expect_near("${w17}" 0.2083333 "Run weight 0.0625 s into a 0.3 s fade")
# Frame 18 (t = 1.125): 0.125 / 0.3 = 0.4166667; then adjust_weight(0.2, 0.25) starts from there.
track_field(18 1 weight w18)
expect_near("${w18}" 0.4166667 "Run weight 0.125 s into a 0.3 s fade")
# Frame 20 (t = 1.25): halfway from 0.4166667 to 0.2: 0.3083333 (no snap when a fade is re-aimed).
track_field(20 1 weight w20)
expect_near("${w20}" 0.3083333 "Run weight halfway through the re-aimed fade")
# Frame 22 (t = 1.375) and later: the target 0.2.
track_field(22 1 weight w22)
expect_near("${w22}" 0.2 "Run weight at the end of the re-aimed fade")
# Walk: stop(0.5) at t = 1.5 from 1: 0.5 at t = 1.75 (frame 28), 0 at t = 2.0 (frame 32).
track_field(24 0 weight ws24)
track_field(28 0 weight ws28)
track_field(32 0 weight ws32)
track_field(25 0 playing wp25)
expect_near("${ws24}" 1 "Walk weight at its stop command")
expect_near("${ws28}" 0.5 "Walk weight halfway through stop(0.5)")
expect_near("${ws32}" 0 "Walk weight 0.5 s after stop(0.5)")
if(NOT wp25 STREQUAL "OFF")
  fail("Walk still playing after stop()")
endif()
# Run time: played at t = 1 from 0 at speed 1: 0.5 at t = 1.5; speed 2 from there: 0.75 at
# t = 1.625 (frame 26); set_time(0.25) at t = 2: 0.375 at t = 2.0625 (frame 33).
track_field(24 1 time rt24)
track_field(26 1 time rt26)
track_field(33 1 time rt33)
expect_near("${rt24}" 0.5 "Run time at t = 1.5")
expect_near("${rt26}" 0.75 "Run time after adjust_speed(2)")
expect_near("${rt33}" 0.375 "Run time after set_time(0.25)")
# Events (rule AN7): Walk reports stopped once (frame 25) and ended once (frame 32).
set(stopped "")
set(ended "")
foreach(f RANGE 0 39)
  string(JSON n LENGTH "${fades}" frames ${f} events)
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE 0 ${last})
      string(JSON tr GET "${fades}" frames ${f} events ${i} track)
      string(JSON kind GET "${fades}" frames ${f} events ${i} kind)
      if(tr STREQUAL "Walk" AND kind STREQUAL "stopped")
        list(APPEND stopped ${f})
      elseif(tr STREQUAL "Walk" AND kind STREQUAL "ended")
        list(APPEND ended ${f})
      endif()
    endforeach()
  endif()
endforeach()
if(NOT stopped STREQUAL "25" OR NOT ended STREQUAL "32")
  fail("Walk events: stopped at frames '${stopped}' (expected 25), ended at '${ended}' (expected 32)")
endif()

# Table: one line per track per frame, with its state.
run("${TMP}/fades.scene.json" --frame 20)
require_ok("fades table")
string(REGEX MATCHALL "track [A-Za-z]+: (playing|stopped), weight [0-9.]+ \\(target [0-9.]+\\), time [0-9.]+ s, speed [0-9.]+\n" lines "${OUT}")
list(LENGTH lines n)
if(NOT n EQUAL 2)
  fail("table frame 20: ${n} track lines, expected 2: ${OUT}")
endif()
expect_contains("${OUT}" "track Run: playing, weight 0.308 (target 0.200), time 0.2500 s, speed 1.000" "table Run line")
expect_contains("${OUT}" "track Walk: ${WALK}, Movement, looped, retargeted" "table header Walk note")

# --- Weights: below 0 clamp to 0 except on additive tracks; above 1 kept ----------------------
file(WRITE "${TMP}/weights.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 2,
  \"tracks\": [{\"name\": \"Neg\", \"clip\": \"${WALK}\", \"weight\": -2},
             {\"name\": \"Big\", \"clip\": \"${WALK}\", \"weight\": 2.5},
             {\"name\": \"Sub\", \"clip\": \"${RUN}\", \"weight\": -0.5, \"additive\": true}]}")
run("${TMP}/weights.scene.json" --format json)
require_ok("weights scene")
string(JSON wn GET "${OUT}" frames 0 tracks 0 weight)
string(JSON wb GET "${OUT}" frames 0 tracks 1 weight)
string(JSON wa GET "${OUT}" frames 0 tracks 2 weight)
expect_near("${wn}" 0 "weight -2 on an override track")
expect_near("${wb}" 2.5 "weight 2.5")
expect_near("${wa}" -0.5 "weight -0.5 on an additive track")

# --- A KeyframeSequence's Priority and Loop are the track's defaults --------------------------
# wave.rbxmx is saved with Priority Action and Loop true; its length is 10 / 15 s.
file(WRITE "${TMP}/wave.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 12, \"dt\": 0.0625,
  \"tracks\": [{\"name\": \"Wave\", \"clip\": \"${WAVE}\"},
             {\"name\": \"Once\", \"clip\": \"${WAVE}\", \"priority\": \"Idle\", \"loop\": false}]}")
run("${TMP}/wave.scene.json" --all-frames --format json)
require_ok("wave scene")
set(wave "${OUT}")
run("${TMP}/wave.scene.json" --frame 0)
expect_contains("${OUT}" "track Wave: ${WAVE}, Action, looped, native" "KeyframeSequence defaults")
expect_contains("${OUT}" "track Once: ${WAVE}, Idle, once, native" "scene values over the KeyframeSequence's")
# Frame 11 (t = 0.6875) is past the clip's end (0.6667): the looped track wrapped (one "looped"
# event, at frame 11) and the other stopped at its end (one "stopped" event, at frame 11).
set(seen "")
foreach(f RANGE 0 11)
  string(JSON n LENGTH "${wave}" frames ${f} events)
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE 0 ${last})
      string(JSON tr GET "${wave}" frames ${f} events ${i} track)
      string(JSON kind GET "${wave}" frames ${f} events ${i} kind)
      list(APPEND seen "${f}:${tr}:${kind}")
    endforeach()
  endif()
endforeach()
if(NOT seen STREQUAL "11:Wave:looped;11:Once:stopped")
  fail("wave events: '${seen}', expected '11:Wave:looped;11:Once:stopped'")
endif()
string(JSON wt GET "${wave}" frames 11 tracks 0 time)
expect_near("${wt}" 0.0208333 "looped Wave time after the wrap (0.6875 - 0.6666667)")

# --- "animation" beside "tracks": the Core track "animation", commands may name it ------------
file(WRITE "${TMP}/both.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"frames\": 9, \"dt\": 0.0625,
  \"animation\": {\"clip\": \"${WALK}\"},
  \"tracks\": [{\"name\": \"Wave\", \"clip\": \"${WAVE}\", \"mask\": {\"parts\": [\"RightUpperArm\"]}}],
  \"commands\": [{\"t\": 0.25, \"track\": \"animation\", \"adjust_weight\": {\"weight\": 0.5, \"fade\": 0.25}}]}")
run("${TMP}/both.scene.json" --all-frames --format json)
require_ok("animation + tracks")
string(JSON n0 GET "${OUT}" frames 8 tracks 0 name)
string(JSON w6 GET "${OUT}" frames 6 tracks 0 weight)
string(JSON w8 GET "${OUT}" frames 8 tracks 0 weight)
string(JSON n1 GET "${OUT}" frames 8 tracks 1 name)
if(NOT n0 STREQUAL "animation" OR NOT n1 STREQUAL "Wave")
  fail("animation + tracks: tracks ${n0}, ${n1}")
endif()
# adjust_weight(0.5, 0.25) at t = 0.25 (frame 4): 0.75 at t = 0.375 (frame 6), 0.5 from t = 0.5.
expect_near("${w6}" 0.75 "animation track halfway from 1 to 0.5")
expect_near("${w8}" 0.5 "animation track at the end of its fade")
run("${TMP}/both.scene.json" --frame 0)
expect_contains("${OUT}" "track animation: ${WALK}, Core, looped, retargeted" "animation block as a Core track")

# --- The example scene runs and draws -----------------------------------------------------------
run(examples/locomotion_blend.scene.json --all-frames --format json)
require_ok("locomotion_blend example")
string(JSON nframes LENGTH "${OUT}" frames)
string(JSON ntracks LENGTH "${OUT}" frames 0 tracks)
if(NOT nframes EQUAL 106 OR NOT ntracks EQUAL 4)
  fail("locomotion_blend: ${nframes} frames, ${ntracks} tracks")
endif()
if(OUT MATCHES "nan|inf")
  fail("locomotion_blend: nonfinite output")
endif()
run(examples/locomotion_blend.scene.json --all-frames --svg "${TMP}/blend.svg" --svg-every 15)
require_ok("locomotion_blend --svg")
if(NOT EXISTS "${TMP}/blend.svg")
  fail("locomotion_blend --svg wrote no file")
endif()

# --- Bad input: exit 2 and one line naming the place (rule F3) -------------------------------
set(track_head "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\", \"tracks\": [{\"name\": \"Walk\", \"clip\": \"${WALK}\"")
# bad(label, tail, needle): the track head + tail as a scene must exit 2 with one line holding needle.
macro(bad label tail needle)
  file(WRITE "${TMP}/${label}.scene.json" "${track_head}${tail}")
  expect_bad("${needle}" "${TMP}/${label}.scene.json")
endmacro()
bad(unknown-priority ", \"priority\": \"Fast\"}]}"
    "/tracks/0/priority: unknown priority 'Fast'")
bad(mask-part ", \"mask\": {\"parts\": [\"Tail\"]}}]}"
    "/tracks/0/mask/parts/0: no part named 'Tail' in rig 'R15'")
bad(huge-weight ", \"weight\": 1e39}]}"
    "/tracks/0/weight: number is not finite")
bad(huge-speed ", \"speed\": -1e39}]}"
    "/tracks/0/speed: number is not finite")
bad(unknown-key ", \"wieght\": 1}]}"
    "/tracks/0/wieght: unknown key")
bad(unknown-track "}], \"commands\": [{\"t\": 1, \"track\": \"Run\", \"stop\": {}}]}"
    "/commands/0/track: unknown track 'Run' (tracks: 'Walk')")
bad(negative-fade "}], \"commands\": [{\"t\": 1, \"track\": \"Walk\", \"stop\": {\"fade\": -0.5}}]}"
    "/commands/0/stop/fade: a fade must be a time in seconds >= 0")
bad(negative-play-fade "}], \"commands\": [{\"t\": 1, \"track\": \"Walk\", \"play\": {\"fade\": -1}}]}"
    "/commands/0/play/fade: a fade must be")
bad(huge-command-weight "}], \"commands\": [{\"t\": 1, \"track\": \"Walk\", \"adjust_weight\": {\"weight\": 1e40}}]}"
    "/commands/0/adjust_weight/weight: number is not finite")
bad(huge-command-speed "}], \"commands\": [{\"t\": 1, \"track\": \"Walk\", \"adjust_speed\": {\"speed\": 1e40}}]}"
    "/commands/0/adjust_speed/speed: number is not finite")
bad(no-action "}], \"commands\": [{\"t\": 1, \"track\": \"Walk\"}]}"
    "/commands/0: a command needs one action")
bad(two-actions "}], \"commands\": [{\"t\": 1, \"track\": \"Walk\", \"stop\": {}, \"play\": {}}]}"
    "/commands/0/play: a command has one action")
bad(bad-transition "}], \"commands\": [{\"t\": 1, \"track\": \"Walk\", \"play\": {\"transition\": \"snap\"}}]}"
    "/commands/0/play/transition: unknown transition 'snap'")
bad(negative-t "}], \"commands\": [{\"t\": -1, \"track\": \"Walk\", \"stop\": {}}]}"
    "/commands/0/t: must be a time in seconds >= 0")
# Duplicate names, the reserved name beside an "animation" block, commands without tracks.
file(WRITE "${TMP}/dup.scene.json" "${track_head}}, {\"name\": \"Walk\", \"clip\": \"${RUN}\"}]}")
expect_bad("/tracks/1/name: duplicate track name 'Walk' (already used by /tracks/0)" "${TMP}/dup.scene.json")
file(WRITE "${TMP}/reserved.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\",
  \"animation\": {\"clip\": \"${WALK}\"}, \"tracks\": [{\"name\": \"animation\", \"clip\": \"${RUN}\"}]}")
expect_bad("/tracks/0/name: the name 'animation'" "${TMP}/reserved.scene.json")
file(WRITE "${TMP}/notracks.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\",
  \"commands\": [{\"t\": 0, \"track\": \"Walk\", \"stop\": {}}]}")
expect_bad("/commands/0/track: unknown track 'Walk' (the scene has no tracks)" "${TMP}/notracks.scene.json")
file(WRITE "${TMP}/noclip.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\",
  \"tracks\": [{\"name\": \"Walk\", \"clip\": \"missing.bvh\"}]}")
expect_bad("missing.bvh" "${TMP}/noclip.scene.json")

# Graph tracks through the real binary (rules F10, F11): --set and a bad command exit 2 with one
# line; the JSON track entry has the graph's parameters and nodes.
set(LOCO "${SOURCE_DIR}/examples/locomotion.scene.json")
expect_bad("--set sped=1: no graph track has a parameter 'sped' (parameters: speed)" "${LOCO}" --set sped=1)
expect_bad("--set speed=fast: the parameter 'speed' of track 'Loco' is a number" "${LOCO}" --set speed=fast)
run("${LOCO}" --set speed=7.1 --frames 2 --format json)
require_ok("locomotion --set speed=7.1")
string(JSON set_speed GET "${OUT}" frames 0 tracks 0 graph parameters speed)
expect_near("${set_speed}" "7.1" "locomotion --set: the speed parameter")
string(JSON run_weight GET "${OUT}" frames 0 tracks 0 graph nodes run weight)
expect_near("${run_weight}" "1" "locomotion --set speed=7.1: the run node's weight")
file(WRITE "${TMP}/badparam.scene.json" "{\"format\": \"asterune.scene/1\", \"rig\": \"builtin:r15\",
  \"tracks\": [{\"name\": \"Loco\", \"graph\": \"${SOURCE_DIR}/examples/locomotion.graph.json\"}],
  \"commands\": [{\"t\": 1, \"track\": \"Loco\", \"set_parameter\": {\"name\": \"speed\", \"value\": \"fast\"}}]}")
expect_bad("/commands/0/set_parameter/value: track 'Loco': the parameter 'speed' is a number" "${TMP}/badparam.scene.json")

file(REMOVE_RECURSE "${TMP}")
