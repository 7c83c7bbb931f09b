# ir.prime_expr — the prime expression evaluator (ir/prime_expr.c) with its limits as parameters: random expression
# trees against their value built with GMP, the limits' edges and messages, random mutations (run it in the ASan
# build too). gen.build and check.edges test its two wrappers, gen_prime_eval and check_prime_value.
add_executable(test_prime_expr ${CMAKE_CURRENT_SOURCE_DIR}/test_prime_expr.c)
target_link_libraries(test_prime_expr PRIVATE ecopt_ir PkgConfig::GMP)
add_test(NAME ir.prime_expr COMMAND test_prime_expr --iters 20000)
set_tests_properties(ir.prime_expr PROPERTIES LABELS ir)
