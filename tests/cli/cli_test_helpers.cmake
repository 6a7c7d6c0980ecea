# Shared helpers of the asterune-solve CLI test scripts (include() after setting CLI and
# SOURCE_DIR). run(args...) sets OUT, ERR and RC; expect_ok / require_ok / expect_bad check the exit status,
# stderr and stdout of the contract (docs/cli.md: exit 2 with exactly one stderr line
# "asterune-solve: ..." and nothing on stdout).
function(fail msg)
  message(SEND_ERROR "FAIL: ${msg}")
endfunction()
# run(args...): sets OUT, ERR, RC in the caller. A run that hangs fails after 60 s.
# The note that a synthetic first frame was left out (rule RT23) moves from ERR to FIRST_FRAME_NOTE,
# so the checks of other stderr lines read as before on the CMU conversions that have one.
macro(run)
  execute_process(COMMAND "${CLI}" ${ARGN} WORKING_DIRECTORY "${SOURCE_DIR}" TIMEOUT 60
                  OUTPUT_VARIABLE OUT ERROR_VARIABLE ERR RESULT_VARIABLE RC)
  string(REGEX MATCHALL "asterune-solve: note: [^\n]*: frame 0 is a rest-like pose [^\n]*\n" FIRST_FRAME_NOTE "${ERR}")
  string(REGEX REPLACE "asterune-solve: note: [^\n]*: frame 0 is a rest-like pose [^\n]*\n" "" ERR "${ERR}")
endmacro()
macro(expect_ok)
  run(${ARGN})
  if(NOT RC EQUAL 0 OR NOT ERR STREQUAL "")
    fail("asterune-solve ${ARGN}: expected exit 0 and no stderr, got ${RC}: ${ERR}")
  endif()
endmacro()
# require_ok(what): the last run() exited 0 with nothing on stderr.
macro(require_ok what)
  if(NOT RC EQUAL 0 OR NOT ERR STREQUAL "")
    fail("${what}: exit ${RC}, stderr: ${ERR}")
  endif()
endmacro()
# require_ok_keys(what): the last run() (with --out) exited 0 and its only stderr line is the
# key reduction's report (rule F7: "asterune-solve: FILE: N keys reduced to M (P%), ...").
macro(require_ok_keys what)
  if(NOT RC EQUAL 0 OR NOT ERR MATCHES "^asterune-solve: [^\n]* keys reduced to [0-9]+ [^\n]*\n$")
    fail("${what}: exit ${RC}, stderr: ${ERR}")
  endif()
endmacro()
macro(expect_bad needle)
  run(${ARGN})
  if(NOT RC EQUAL 2)
    fail("asterune-solve ${ARGN}: expected exit 2, got ${RC} (stderr: ${ERR})")
  endif()
  string(FIND "${ERR}" "${needle}" _pos)
  if(_pos EQUAL -1)
    fail("asterune-solve ${ARGN}: stderr lacks '${needle}': ${ERR}")
  endif()
  string(REGEX MATCHALL "\n" _lines "${ERR}")
  list(LENGTH _lines _n)
  if(NOT _n EQUAL 1 OR NOT ERR MATCHES "^asterune-solve: ")
    fail("asterune-solve ${ARGN}: expected one stderr line 'asterune-solve: ...', got: ${ERR}")
  endif()
  if(NOT OUT STREQUAL "")
    fail("asterune-solve ${ARGN}: printed to stdout on error: ${OUT}")
  endif()
endmacro()
macro(expect_contains text needle what)
  string(FIND "${text}" "${needle}" _pos)
  if(_pos EQUAL -1)
    fail("${what}: lacks '${needle}'")
  endif()
endmacro()
