# cmake -DECOPT=<ecopt command> -DSRC=<source dir> -DOUTDIR=<scratch dir> -P check_generated_field.cmake
# Regenerates the portable C field functions the library uses (src/field/generated/*.c, the list in
# field_generated.cmake) into OUTDIR and fails when one differs from the committed file (STYLE.md: CI
# regenerates deterministic output and needs no difference).
include(${CMAKE_CURRENT_LIST_DIR}/field_generated.cmake)
ecopt_field_generate(${ECOPT} ${SRC} ${OUTDIR} names)
set(bad "")
foreach(name IN LISTS names)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUTDIR}/${name}.c ${SRC}/src/field/generated/${name}.c
                  RESULT_VARIABLE diff)
  if(NOT diff EQUAL 0)
    list(APPEND bad ${name})
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "src/field/generated/{${bad}}.c differ from the generator's output (in ${OUTDIR}): "
                      "run `make regen` and commit both")
endif()
message(STATUS "src/field/generated/*.c match the generator")
