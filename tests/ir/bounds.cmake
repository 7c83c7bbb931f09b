# ir.bounds: the bounds pass refuses programs that lose bits (tests/ir/test_bounds.c).
add_executable(test_bounds ${CMAKE_CURRENT_SOURCE_DIR}/test_bounds.c)
target_compile_options(test_bounds PRIVATE -O2)
target_link_libraries(test_bounds PRIVATE ecopt_ir)
add_test(NAME ir.bounds COMMAND test_bounds)
set_tests_properties(ir.bounds PROPERTIES LABELS ir)
