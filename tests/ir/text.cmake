# ir.text — the IR text form (ir/text.c): round trips, `call` composition checked with GMP, every parse error, and
# random mutations of valid texts (never a crash; run it in the ASan build too). --iters sets the fuzz mutations.
add_executable(test_text ${CMAKE_CURRENT_SOURCE_DIR}/test_text.c)
target_compile_options(test_text PRIVATE -O2)
target_compile_definitions(test_text PRIVATE TEXT_MD="${PROJECT_SOURCE_DIR}/ir/TEXT.md")
target_link_libraries(test_text PRIVATE ecopt_ir PkgConfig::GMP)
if(ECOPT_SANITIZE)
  add_test(NAME ir.text COMMAND test_text --iters 30000)
else()
  add_test(NAME ir.text COMMAND test_text --iters 100000)
endif()
set_tests_properties(ir.text PROPERTIES LABELS ir)
