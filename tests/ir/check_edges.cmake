# check_edges.cmake — the checker's inputs at the prime's edges (check/edges.h; sample_all in check/check.c):
# tests/ir/test_check_edges.c, on ../shared/fiat-json read in place, compiling with gcc and clang when present.
if(TARGET ecopt_check AND TARGET ecopt_emit)
  get_filename_component(CHECK_EDGES_FIAT_DIR "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)
  add_executable(test_check_edges ${CMAKE_CURRENT_SOURCE_DIR}/test_check_edges.c ${CMAKE_CURRENT_SOURCE_DIR}/cc_util.c)
  target_compile_definitions(test_check_edges PRIVATE FIAT_JSON_DIR="${CHECK_EDGES_FIAT_DIR}")
  target_link_libraries(test_check_edges PRIVATE ecopt_check ecopt_emit ecopt_ir PkgConfig::GMP ${CMAKE_DL_LIBS})
  add_test(NAME check.edges COMMAND test_check_edges)
  set_tests_properties(check.edges PROPERTIES LABELS check TIMEOUT 600)
endif()
