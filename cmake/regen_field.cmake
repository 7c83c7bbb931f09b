# cmake -DECOPT=<ecopt command> -DSRC=<source dir> -P regen_field.cmake — rewrite src/field/generated/*.c.
include(${CMAKE_CURRENT_LIST_DIR}/field_generated.cmake)
foreach(entry IN LISTS ECOPT_FIELD_GENERATED)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 name)
  list(GET parts 1 args)
  separate_arguments(argv UNIX_COMMAND "${args}")
  execute_process(COMMAND ${ECOPT} gen ${argv} --emit c --static --name ${name}
                          -o ${SRC}/src/field/generated/${name}.c
                  WORKING_DIRECTORY ${SRC} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ecopt gen failed for ${name} (${rc})")
  endif()
  message(STATUS "wrote src/field/generated/${name}.c")
endforeach()
