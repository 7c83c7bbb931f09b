# search_measure.cmake — the optimizer's measurement and compiler baselines (search/measure.c, search/baseline.c):
# correctness only, never speed.
#   search.measure   test_search_measure --iters 3000 --fiat ../shared/fiat-json
#                    (gcc and clang baselines of curve25519 carry_mul and p256 mul against ir_eval, also aliased;
#                    measure_run's medians positive and finite; error paths). Skips (77) without gcc or clang.
if(TARGET ecopt_search)
  get_filename_component(SEARCH_MEASURE_FIAT_DIR "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)
  add_executable(test_search_measure ${CMAKE_CURRENT_SOURCE_DIR}/test_search_measure.c)
  target_compile_options(test_search_measure PRIVATE -O2)
  target_link_libraries(test_search_measure PRIVATE ecopt_search ecopt_emit ecopt_ir m)
  add_test(NAME search.measure COMMAND test_search_measure --iters 3000 --fiat ${SEARCH_MEASURE_FIAT_DIR})
  set_tests_properties(search.measure PROPERTIES LABELS ir SKIP_RETURN_CODE 77)
endif()
