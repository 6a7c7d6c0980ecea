# Installs the already-built project into a scratch prefix, then configures, builds and runs
# a separate consumer project that only knows find_package(asterune). With asterune::io, a
# second program links it together with its own tinygltf implementation (no duplicate symbols).
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
# Quiet on success (tests print nothing); the captured output is shown when a step fails.
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/build
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the consumer failed (${rc}):\n${log}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the consumer failed (${rc}):\n${log}")
endif()
execute_process(COMMAND ${WORK_DIR}/build/consumer RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "joints=2")
  message(FATAL_ERROR "consumer ran with rc=${rc}, output: ${out}")
endif()
# With asterune::io installed: its own tinygltf next to asterune::io's private one.
if(EXISTS ${WORK_DIR}/build/consumer_io)
  execute_process(COMMAND ${WORK_DIR}/build/consumer_io ${SOURCE_DIR}/tests/data/gltf/CesiumMan.glb
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "joints=19")
    message(FATAL_ERROR "consumer_io ran with rc=${rc}, output: ${out}")
  endif()
elseif(REQUIRE_IO)
  message(FATAL_ERROR "consumer_io was not built although asterune::io is installed")
endif()
