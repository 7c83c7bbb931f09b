# check_cpu_fuzz.cmake — the checker's x86-64 semantics (check/exec.c) against the CPU: random straight-line
# functions over every form the executor supports, built with Zydis' encoder, run natively and symbolically on the
# same random inputs, every register, stack slot, xmm, stored limb and known flag compared
# (tests/ir/test_check_cpu_fuzz.c; by hand: test_check_cpu_fuzz --seed N --iters N --verbose).
#   check.cpu_fuzz       3,000 functions of 40 instructions, 32 inputs each (a few seconds)
#   check.cpu_fuzz.long  40,000 more on another seed (label slow)
if(TARGET ecopt_check AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  add_executable(test_check_cpu_fuzz ${CMAKE_CURRENT_SOURCE_DIR}/test_check_cpu_fuzz.c)
  target_compile_options(test_check_cpu_fuzz PRIVATE -O2)
  target_link_libraries(test_check_cpu_fuzz PRIVATE ecopt_check ecopt_emit ecopt_ir Zydis::Zydis)
  add_test(NAME check.cpu_fuzz COMMAND test_check_cpu_fuzz --seed 1 --iters 3000)
  add_test(NAME check.cpu_fuzz.long COMMAND test_check_cpu_fuzz --seed 2 --iters 40000)
  set_tests_properties(check.cpu_fuzz check.cpu_fuzz.long PROPERTIES LABELS check SKIP_RETURN_CODE 77 TIMEOUT 1500)
  set_tests_properties(check.cpu_fuzz.long PROPERTIES LABELS "check;slow")
endif()
