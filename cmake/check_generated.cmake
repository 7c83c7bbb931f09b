# cmake -DGEN=<generator> -DSRC=<source dir> -DOUT=<scratch file> -P check_generated.cmake
# Regenerates the fixed-base table into OUT and fails when it differs from the committed file (STYLE.md: CI
# regenerates deterministic output and needs no difference).
execute_process(COMMAND ${GEN} src/curve/gen_base_table.c
                WORKING_DIRECTORY ${SRC} OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_base_table failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${SRC}/src/curve/generated/ge_base_table.h
                RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  message(FATAL_ERROR "src/curve/generated/ge_base_table.h differs from the generator's output (${OUT}): "
                      "run `make regen` and commit both")
endif()
message(STATUS "src/curve/generated/ge_base_table.h matches its generator")
