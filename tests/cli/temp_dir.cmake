# Included by the CLI test scripts: sets TMP to a new, unique folder under TMP_ROOT (the build
# tree's tests/tmp, passed by tests/CMakeLists.txt), so tests never write into the source tree
# and parallel runs never share a folder. Each script removes its TMP at the end.
if(NOT TMP_ROOT)
  message(FATAL_ERROR "TMP_ROOT is not set (pass -DTMP_ROOT=<build tree>/tests/tmp)")
endif()
string(TIMESTAMP _stamp "%Y%m%d%H%M%S")
string(RANDOM LENGTH 10 ALPHABET "abcdefghijklmnopqrstuvwxyz0123456789" _suffix)
set(TMP "${TMP_ROOT}/${TMP_NAME}_${_stamp}_${_suffix}")
file(MAKE_DIRECTORY "${TMP}")
