# Self-test of the source checks: builds a tiny tree under WORK_DIR with one bad citation,
# one ticket mention, one upward include and two stale file names, and expects each check to
# fail and name them; the same tree without them must pass. The bad strings are assembled at run time so that this
# file itself stays clean for the real checks.
# Run: cmake -DWORK_DIR=<scratch> -P tests/checks/checks_selftest.cmake
cmake_minimum_required(VERSION 3.25)
set(here "${CMAKE_CURRENT_LIST_DIR}")
file(REMOVE_RECURSE "${WORK_DIR}")
set(word "ru")
string(APPEND word "le")   # "rule", kept apart from its ids in this file

# docs/rules.md with 50 ids T0 to T49 (the citation check wants a real-sized list).
set(rules "# rules\n")
foreach(n RANGE 0 49)
  string(APPEND rules "- **T${n}.** rule ${n}\n")
endforeach()
file(WRITE "${WORK_DIR}/docs/rules.md" "${rules}")
file(WRITE "${WORK_DIR}/README.md" "Cited: ${word} T1, in docs/rules.md.\n")
file(WRITE "${WORK_DIR}/include/asterune/rig/rig.hpp" "// (T2, T3) and ${word}s T4-T6\n#include <vector>\n")
file(WRITE "${WORK_DIR}/src/clip/clip.cpp" "#include \"asterune/rig/rig.hpp\"\n")

function(run_check script expect_fail needles)
  execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${WORK_DIR} -P ${here}/${script}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(expect_fail AND rc EQUAL 0)
    message(FATAL_ERROR "${script} passed a tree it must refuse")
  elseif(NOT expect_fail AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${script} refused a clean tree:\n${out}")
  endif()
  foreach(needle IN LISTS needles)
    string(FIND "${out}" "${needle}" at)
    if(at LESS 0)
      message(FATAL_ERROR "${script}: output does not name '${needle}':\n${out}")
    endif()
  endforeach()
endfunction()

run_check(rule_citations.cmake FALSE "")
run_check(include_layers.cmake FALSE "")
run_check(file_references.cmake FALSE "")

set(undefined_id "T5")
string(APPEND undefined_id "0")                     # T50: one past the last rule
set(ticket "iss")
string(APPEND ticket "ue 12")
file(WRITE "${WORK_DIR}/src/clip/bad.cpp" "// see ${word}s T1-${undefined_id}, and ${ticket}\n")
run_check(rule_citations.cmake TRUE "src/clip/bad.cpp:1;${undefined_id};${ticket}")

file(WRITE "${WORK_DIR}/src/rig/up.cpp" "#include \"asterune/clip/clip.hpp\"\n")
file(WRITE "${WORK_DIR}/include/asterune/solvers/up.hpp" "#include <nlohmann/json.hpp>\n")
run_check(include_layers.cmake TRUE "src/rig/up.cpp;asterune/clip/clip.hpp;include/asterune/solvers/up.hpp;nlohmann/json.hpp")
file(REMOVE "${WORK_DIR}/src/rig/up.cpp" "${WORK_DIR}/include/asterune/solvers/up.hpp")
# Upward through the src/ root and by a relative path: both must be credited to clip, not rig.
file(WRITE "${WORK_DIR}/src/clip/private.hpp" "#include <vector>\n")
file(WRITE "${WORK_DIR}/src/rig/up_root.cpp" "#include \"clip/private.hpp\"\n")
file(WRITE "${WORK_DIR}/src/rig/up_relative.cpp" "#include \"../clip/private.hpp\"\n")
run_check(include_layers.cmake TRUE "src/rig/up_root.cpp;src/rig/up_relative.cpp;clip/private.hpp")
file(REMOVE "${WORK_DIR}/src/rig/up_root.cpp" "${WORK_DIR}/src/rig/up_relative.cpp")
file(WRITE "${WORK_DIR}/src/rig/down_root.cpp" "#include \"rig/private.hpp\"\n#include \"private.hpp\"\n")
file(WRITE "${WORK_DIR}/src/rig/private.hpp" "#include <vector>\n")
run_check(include_layers.cmake FALSE "")
file(REMOVE "${WORK_DIR}/src/rig/down_root.cpp" "${WORK_DIR}/src/rig/private.hpp")

set(gone "go")
string(APPEND gone "ne.hpp")                        # a bare name no file has
set(missing "src/rig/")
string(APPEND missing "missing.cpp")                # a repo path that does not exist
file(WRITE "${WORK_DIR}/src/rig/stale.cpp" "// see ${gone} and ${missing}; rig.hpp and src/clip/clip.cpp exist\n")
run_check(file_references.cmake TRUE "src/rig/stale.cpp:1;${gone};${missing}")
execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${WORK_DIR} -P ${here}/file_references.cmake
                OUTPUT_VARIABLE out ERROR_VARIABLE out)
foreach(good IN ITEMS "'rig.hpp'" "'src/clip/clip.cpp'")
  string(FIND "${out}" "${good}" at)
  if(NOT at LESS 0)
    message(FATAL_ERROR "file_references.cmake reported ${good}, which exists:\n${out}")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
