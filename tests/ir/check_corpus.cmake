# check_corpus.cmake — the checker's test corpus: tests/ir/test_check_corpus.c and the mutation
# tool ecopt_mutate (tests/ir/check_mutate.c: equivalence-preserving variants and labelled mutants of AT&T assembly).
#   check.corpus   fiat mul/square of 5 curves and the X25519 ladder step, emitted C compiled to .S by gcc and clang:
#                  each PROVED; every variant PROVED (and agrees with the original when run); every mutant REJECTED
#                  with exactly its rule (output-differs mutants also differ when run); prints the counts per class.
#   check.corpus.quick  a subset (every class still gets at least two mutants): what `make test` and CI run
# By hand: test_check_corpus [--only NAME] [--keep] (--keep leaves the .S files in the temporary directory).
add_executable(ecopt_mutate ${CMAKE_CURRENT_SOURCE_DIR}/check_mutate.c)
target_compile_options(ecopt_mutate PRIVATE -O2)
if(TARGET ecopt_check AND TARGET ecopt_gen AND TARGET ecopt_emit AND EXISTS ${PROJECT_SOURCE_DIR}/check/exec.c
   AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_check_corpus.c)
  get_filename_component(CHECK_CORPUS_FIAT_DIR "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)
  add_executable(test_check_corpus ${CMAKE_CURRENT_SOURCE_DIR}/test_check_corpus.c ${CMAKE_CURRENT_SOURCE_DIR}/ladder_prog.c)
  target_compile_options(test_check_corpus PRIVATE -O2)
  target_compile_definitions(test_check_corpus PRIVATE
    FIAT_JSON_DIR="${CHECK_CORPUS_FIAT_DIR}"
    LADDER_IR="${CMAKE_CURRENT_SOURCE_DIR}/ladderstep.ir"
    ECOPT_MUTATE="$<TARGET_FILE:ecopt_mutate>")
  target_link_libraries(test_check_corpus PRIVATE ecopt_check ecopt_gen ecopt_emit ecopt_ir ${CMAKE_DL_LIBS})
  add_dependencies(test_check_corpus ecopt_mutate)
  # the whole corpus (every variant and mutant assembled, a third built and run): `make test-slow`
  add_test(NAME check.corpus COMMAND test_check_corpus)
  set_tests_properties(check.corpus PROPERTIES LABELS "check;slow" TIMEOUT 3600 SKIP_RETURN_CODE 77)
  # CI's share: one proved subject per kind, secp256k1 gcc (the largest Montgomery subject the corpus proves, with
  # every variant and mutant), the ladder step; every eighth run on the CPU
  add_test(NAME check.corpus.quick COMMAND test_check_corpus --confirm-every 8 --sweep-variant-every 8
           --only "curve25519.mul gcc,poly1305.square clang,c25519_solinas.mul clang,p256.mul clang,secp256k1.mul gcc,ladderstep")
  set_tests_properties(check.corpus.quick PROPERTIES LABELS "check;heavy" TIMEOUT 1800 SKIP_RETURN_CODE 77)
endif()

# check.cryptopt: CryptOpt's published functions (../shared/cryptopt-fiat-amd64, 110 NASM files), assembled with nasm
# and checked against their fiat programs; the expected verdict comes from the CPU (each aliasing case run on
# random inputs against ir_eval): every file PROVED, or REJECTED output-differs naming the case the CPU found
# wrong. The whole sample (label slow: its Montgomery files take the solver 14 to 60 s each; one p384 multiply
# times out and is listed as known unproved); the quick one takes the Solinas and unsaturated folders, p256 and
# the secp256k1 Montgomery multiply, 75 files in seconds, under `make test`. Skips without BMI2/ADX or nasm.
if(TARGET ecopt_check AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_check_cryptopt.c)
  get_filename_component(CHECK_CRYPTOPT_DIR "${ECOPT_SHARED_DIR}/cryptopt-fiat-amd64" ABSOLUTE)
  get_filename_component(CHECK_CRYPTOPT_FIAT "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)
  add_executable(test_check_cryptopt ${CMAKE_CURRENT_SOURCE_DIR}/test_check_cryptopt.c)
  target_compile_options(test_check_cryptopt PRIVATE -O2)
  target_link_libraries(test_check_cryptopt PRIVATE ecopt_check ecopt_ir)
  # one p384 multiply is correct on the CPU but beyond the solver's time limit today (docs/checker.md, "Large
  # Montgomery primes"): it may be REJECTED unproved, nothing else
  add_test(NAME check.cryptopt COMMAND test_check_cryptopt ${CHECK_CRYPTOPT_DIR} ${CHECK_CRYPTOPT_FIAT}
           --known-unproved "fiat_p384_mul/seed0000000436989951")
  set_tests_properties(check.cryptopt PROPERTIES LABELS "check;slow" TIMEOUT 3600 SKIP_RETURN_CODE 77)
  add_test(NAME check.cryptopt.quick COMMAND test_check_cryptopt ${CHECK_CRYPTOPT_DIR} ${CHECK_CRYPTOPT_FIAT}
           --only "curve25519,p448,p521,poly1305,dettman,fiat_p256_,secp256k1_montgomery_mul")
  set_tests_properties(check.cryptopt.quick PROPERTIES LABELS "check" TIMEOUT 600 SKIP_RETURN_CODE 77)
endif()
