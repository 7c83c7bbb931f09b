# check_exec.cmake — the checker's x86-64 symbolic executor (check/exec.c): tests/ir/test_check_exec.c.
#   check.exec         hundreds of one-instruction AT&T functions run on the CPU and executed symbolically, compared
#                      on random and edge inputs; one function per rule of check.h that breaks it
#   check.exec.corpus  fiat mul/square of 5 curves, emitted C compiled by gcc and clang: no rule fires and every
#                      output limb evaluates to what the native code computes (-O2, BMI2/ADX, -O3)
#   check.exec.corpus.wide  every curve in ../shared/fiat-json, every operation the fiat reader takes, at -O2
if(TARGET ecopt_check)
  get_filename_component(CHECK_EXEC_FIAT_DIR "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)
  add_executable(test_check_exec ${CMAKE_CURRENT_SOURCE_DIR}/test_check_exec.c ${CMAKE_CURRENT_SOURCE_DIR}/cc_util.c)
  target_compile_options(test_check_exec PRIVATE -O2)
  target_link_libraries(test_check_exec PRIVATE ecopt_check ecopt_emit ecopt_ir ${CMAKE_DL_LIBS})
  add_test(NAME check.exec COMMAND test_check_exec)
  add_test(NAME check.exec.corpus COMMAND test_check_exec --fiat ${CHECK_EXEC_FIAT_DIR})
  add_test(NAME check.exec.corpus.wide COMMAND test_check_exec --fiat ${CHECK_EXEC_FIAT_DIR} --wide)
  set_tests_properties(check.exec check.exec.corpus check.exec.corpus.wide PROPERTIES LABELS check
                       SKIP_RETURN_CODE 77 TIMEOUT 1500)
  # the 77-function corpus is `slow` (`make test-slow`; ~50 s of CI's 30 minutes went to it in each plain build);
  # check.exec.corpus covers the five curves of the corpus in CI
  set_tests_properties(check.exec.corpus.wide PROPERTIES LABELS "check;slow")
endif()
