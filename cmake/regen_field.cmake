# cmake -DECOPT=<ecopt command> -DSRC=<source dir> -P regen_field.cmake — rewrite src/field/generated/*.c.
include(${CMAKE_CURRENT_LIST_DIR}/field_generated.cmake)
ecopt_field_generate(${ECOPT} ${SRC} ${SRC}/src/field/generated names)
message(STATUS "wrote src/field/generated/{${names}}.c")
