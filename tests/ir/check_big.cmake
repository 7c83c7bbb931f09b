# check_big.cmake — check.big_primes (tests/cli/check_big_primes.sh): fiat-crypto's p384 and p434 multiply and square,
# emitted C compiled by gcc and clang at -O2 and -O3, each must be PROVED by `ecopt check`; prints each case's
# verdict and time (no time is asserted). Label heavy: 16 checks of the largest Montgomery programs.
# By hand: bash tests/cli/check_big_primes.sh build/cc/tools/ecopt ../shared/fiat-json [FILTER]
if(TARGET ecopt_check AND TARGET ecopt_cli)
  find_program(CHECK_BIG_BASH bash REQUIRED)
  get_filename_component(CHECK_BIG_FIAT "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)
  add_test(NAME check.big_primes COMMAND ${CHECK_BIG_BASH} ${PROJECT_SOURCE_DIR}/tests/cli/check_big_primes.sh
           $<TARGET_FILE:ecopt_cli> ${CHECK_BIG_FIAT})
  # not yet proved (the sweep does not reach the last rows of these multiplies): enabled when it does
  set_tests_properties(check.big_primes PROPERTIES LABELS "check;heavy" TIMEOUT 3600 SKIP_RETURN_CODE 77
                       DISABLED TRUE)
endif()
