# check_cli.cmake — `ecopt check` from the shell (tests/cli/check.sh): every exit status and bad-input path, PROVED
# on compiled emitted C (gcc and clang, .S and .o) and on generated and hand-written IR, REJECTED on hand-edited
# code, --no-red-zone. Each function t_<case> in the script is one ctest test, check.cli.<case>, label check plus
# those of a "# labels: a;b" comment on its line (as tests/cli/CMakeLists.txt reads them). By hand:
#   ECOPT_TEST_FIAT=../shared/fiat-json bash tests/cli/check.sh build/cc/tools/ecopt [CASE]
if(TARGET ecopt_check AND TARGET ecopt_cli)
  find_program(CHECK_CLI_BASH bash REQUIRED)
  get_filename_component(CHECK_CLI_FIAT "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)
  set(CHECK_CLI_SCRIPT ${PROJECT_SOURCE_DIR}/tests/cli/check.sh)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CHECK_CLI_SCRIPT})
  file(STRINGS ${CHECK_CLI_SCRIPT} check_cli_defs REGEX "^t_[a-z0-9_]+\\(\\)")
  foreach(def IN LISTS check_cli_defs)
    string(REGEX REPLACE "^t_([a-z0-9_]+)\\(\\).*" "\\1" name "${def}")
    set(labels check)
    if(def MATCHES "# labels: ([a-z;]+)")
      list(APPEND labels ${CMAKE_MATCH_1})
    endif()
    add_test(NAME check.cli.${name} COMMAND ${CHECK_CLI_BASH} ${CHECK_CLI_SCRIPT} $<TARGET_FILE:ecopt_cli> ${name})
    set_tests_properties(check.cli.${name} PROPERTIES LABELS "${labels}" SKIP_RETURN_CODE 77
                         TIMEOUT 900 ENVIRONMENT "ECOPT_TEST_FIAT=${CHECK_CLI_FIAT}")
  endforeach()
endif()
