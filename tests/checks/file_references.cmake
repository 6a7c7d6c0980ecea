# File-reference check: every file a comment or doc names exists in the tree, so a rename
# cannot leave stale pointers behind ("see chain.hpp" after chain.hpp became point_chain.hpp).
# Two forms are checked in sources, tests, docs, examples and bench (not tests/data):
# - repo paths: src/..., include/..., tests/..., docs/..., examples/..., bench/..., scripts/...,
#   cmake/... and include paths asterune/... with a file extension: the file must exist (an
#   include path under include/; a path under src/ may also be given from src/, as the private
#   includes are);
# - bare file names of sources and docs (name.hpp, name.cpp, name.md, name.cmake): some file of
#   that name must exist in the tree, unless it belongs to a third-party library listed below.
# Run: cmake -DSOURCE_DIR=<repo> -P tests/checks/file_references.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE_DIR)
  get_filename_component(SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
endif()

set(roots src include tests docs examples bench scripts cmake .ci)
set(tree "")
foreach(root IN LISTS roots)
  file(GLOB_RECURSE found LIST_DIRECTORIES false "${SOURCE_DIR}/${root}/*")
  list(APPEND tree ${found})
endforeach()
file(GLOB top LIST_DIRECTORIES false "${SOURCE_DIR}/*")
list(APPEND tree ${top})
set(basenames "")
foreach(file IN LISTS tree)
  get_filename_component(name "${file}" NAME)
  list(APPEND basenames "${name}")
endforeach()
list(REMOVE_DUPLICATES basenames)
if(NOT EXISTS "${SOURCE_DIR}/docs/rules.md")
  message(FATAL_ERROR "file references: ${SOURCE_DIR}/docs/rules.md is missing; is SOURCE_DIR right?")
endif()
# Third-party headers named in comments and docs.
set(external catch.hpp json.hpp tiny_gltf.h benchmark.h pugixml.hpp glm.hpp)

set(ext "(hpp|cpp|h|inc|md|cmake|in|json|py|txt|sh|bvh|rbxmx|gltf|glb)")
# A path starts the line or follows a character that cannot be part of a path (so the
# bench/results.json inside build/bench/results.json is not read as a repo path).
set(path_form "(^|[^A-Za-z0-9_./-])(src|include|tests|docs|examples|bench|scripts|cmake|asterune)/[A-Za-z0-9_./-]*[A-Za-z0-9_]\\.${ext}")
set(bare_form "(^|[^A-Za-z0-9_./<\"-])[A-Za-z0-9][A-Za-z0-9_-]*\\.(hpp|cpp|md|cmake)([^A-Za-z0-9_]|$)")
# Placeholders of the checks' own self-test trees, not files of this tree.
set(skipped_dirs "/tests/checks/")

string(ASCII 1 sep1)
string(ASCII 2 sep2)
set(problems "")
set(references 0)
foreach(file IN LISTS tree)
  if(NOT file MATCHES "\\.(hpp|cpp|inc|h|md|cmake|txt|py|sh)$" OR file MATCHES "/tests/data/" OR file MATCHES "/\\.ci/"
     OR file MATCHES "${skipped_dirs}")
    continue()
  endif()
  file(RELATIVE_PATH rel "${SOURCE_DIR}" "${file}")
  # One list item per line, empty lines kept (for the line numbers): the characters a CMake
  # list treats specially (; [ ]) become control characters first; no pattern here uses them.
  file(READ "${file}" text)
  string(REPLACE ";" "${sep1}" text "${text}")
  string(REPLACE "[" "${sep2}" text "${text}")
  string(REPLACE "]" "${sep2}" text "${text}")
  string(REPLACE "\\" "${sep2}" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(line_number 0)
  set(fenced FALSE)
  foreach(line IN LISTS lines)
    math(EXPR line_number "${line_number} + 1")
    # Fenced blocks in Markdown show commands and sample output (an error naming a made-up file).
    if(rel MATCHES "\\.md$" AND line MATCHES "^[ \t]*```")
      if(fenced)
        set(fenced FALSE)
      else()
        set(fenced TRUE)
      endif()
      continue()
    endif()
    if(fenced)
      continue()
    endif()
    # #include lines are checked by the compiler (and may name system or third-party headers).
    if(line MATCHES "^[ \t]*#[ \t]*include")
      continue()
    endif()
    string(REGEX MATCHALL "${path_form}" paths "${line}")
    foreach(path IN LISTS paths)
      string(REGEX REPLACE "^[^A-Za-z0-9_]" "" path "${path}")
      math(EXPR references "${references} + 1")
      if(path MATCHES "^asterune/")
        set(candidates "include/${path}")
      else()
        set(candidates "${path}" "src/${path}")
      endif()
      # A path in docs/ may be written relative to docs/ (e.g. a link).
      get_filename_component(dir "${rel}" DIRECTORY)
      list(APPEND candidates "${dir}/${path}")
      set(found FALSE)
      foreach(candidate IN LISTS candidates)
        if(EXISTS "${SOURCE_DIR}/${candidate}")
          set(found TRUE)
        endif()
      endforeach()
      if(NOT found)
        list(APPEND problems "${rel}:${line_number}: '${path}' does not exist")
      endif()
    endforeach()
    string(REGEX MATCHALL "${bare_form}" bares "${line}")
    foreach(bare IN LISTS bares)
      string(REGEX REPLACE "^[^A-Za-z0-9_-]" "" bare "${bare}")
      string(REGEX REPLACE "[^A-Za-z0-9_]$" "" bare "${bare}")
      math(EXPR references "${references} + 1")
      if(NOT bare IN_LIST basenames AND NOT bare IN_LIST external)
        list(APPEND problems "${rel}:${line_number}: '${bare}' names no file in the tree")
      endif()
    endforeach()
  endforeach()
endforeach()

if(references EQUAL 0)
  message(FATAL_ERROR "file references: no file names found under ${SOURCE_DIR}; is SOURCE_DIR right?")
endif()
if(problems)
  list(REMOVE_DUPLICATES problems)
  list(LENGTH problems n)
  string(REPLACE ";" "\n  " text "${problems}")
  message(FATAL_ERROR "file references: ${n} problem(s):\n  ${text}")
endif()
