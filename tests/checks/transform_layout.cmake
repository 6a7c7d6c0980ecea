# Rule RG8: the public Transform has one layout. A user file that includes the header with glm's
# aligned types (GLM_FORCE_DEFAULT_ALIGNED_GENTYPES + GLM_FORCE_INTRINSICS: a 32-byte Transform)
# fails to compile naming the cause; the same file without them compiles.
#   cmake -DCXX=<compiler> -DSOURCE_DIR=<repo> -DWORK_DIR=<scratch> -P transform_layout.cmake
file(MAKE_DIRECTORY "${WORK_DIR}")
file(WRITE "${WORK_DIR}/user.cpp" "#include \"asterune/math/transform.hpp\"\nint main() { return sizeof(asterune::Transform) == 28 ? 0 : 1; }\n")
execute_process(COMMAND "${CXX}" -std=c++20 -I "${SOURCE_DIR}/include" -fsyntax-only "${WORK_DIR}/user.cpp"
                RESULT_VARIABLE plain_rc ERROR_VARIABLE plain_err)
if(NOT plain_rc EQUAL 0)
  message(SEND_ERROR "FAIL: the header does not compile plainly: ${plain_err}")
endif()
execute_process(COMMAND "${CXX}" -std=c++20 -DGLM_FORCE_DEFAULT_ALIGNED_GENTYPES -DGLM_FORCE_INTRINSICS
                        -I "${SOURCE_DIR}/include" -fsyntax-only "${WORK_DIR}/user.cpp"
                RESULT_VARIABLE aligned_rc ERROR_VARIABLE aligned_err)
if(aligned_rc EQUAL 0 OR NOT aligned_err MATCHES "Transform must be 7 packed floats")
  message(SEND_ERROR "FAIL: an aligned-glm user file compiled, or without the layout message (exit ${aligned_rc}): ${aligned_err}")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
