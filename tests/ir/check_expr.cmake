# check_expr.cmake — the checker's expressions (check/expr.c), IR symbolic execution (check/ir_sym.c) and the z3
# query (check/smt.c): tests/ir/test_check_expr.c, on ../shared/fiat-json read in place and generated functions.
if(TARGET ecopt_check)
  get_filename_component(CHECK_FIAT_JSON_DIR "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)
  add_executable(test_check_expr ${CMAKE_CURRENT_SOURCE_DIR}/test_check_expr.c)
  target_compile_options(test_check_expr PRIVATE -O2)
  target_compile_definitions(test_check_expr PRIVATE FIAT_JSON_DIR="${CHECK_FIAT_JSON_DIR}")
  target_link_libraries(test_check_expr PRIVATE ecopt_check ecopt_gen ecopt_ir PkgConfig::CJSON)
  add_test(NAME check.expr COMMAND test_check_expr)
  set_tests_properties(check.expr PROPERTIES LABELS check TIMEOUT 1200)
endif()
