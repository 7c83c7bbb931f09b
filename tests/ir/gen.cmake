# tests/ir/gen.cmake — the generators (gen/): gen.build builds every generated prime x op, checks its structure and
# runs it with the interpreter against GMP on random and edge inputs; bad specs are refused with their messages.
add_executable(test_gen ${CMAKE_CURRENT_SOURCE_DIR}/test_gen.c)
target_compile_options(test_gen PRIVATE -O2)
target_link_libraries(test_gen PRIVATE ecopt_gen ecopt_ir PkgConfig::GMP)
add_test(NAME gen.build COMMAND test_gen)
set_tests_properties(gen.build PROPERTIES LABELS ir)
