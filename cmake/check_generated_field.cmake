# cmake -DECOPT=<ecopt command> -DSRC=<source dir> -DOUTDIR=<scratch dir> -P check_generated_field.cmake
# Regenerates the portable C field functions the library uses (src/field/generated/*.c, the list in
# field_generated.cmake) and fails when one differs from the committed file (STYLE.md: CI regenerates
# deterministic output and needs no difference).
include(${CMAKE_CURRENT_LIST_DIR}/field_generated.cmake)
set(bad "")
foreach(entry IN LISTS ECOPT_FIELD_GENERATED)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 name)
  list(GET parts 1 args)
  separate_arguments(argv UNIX_COMMAND "${args}")
  execute_process(COMMAND ${ECOPT} gen ${argv} --emit c --static --name ${name} -o ${OUTDIR}/${name}.c
                  WORKING_DIRECTORY ${SRC} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ecopt gen failed for ${name} (${rc})")
  endif()
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
