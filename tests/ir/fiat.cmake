# fiat.cmake — the fiat-crypto JSON reader (ir/fiat_json.c, ir/fiat_table.c): tests/ir/test_fiat.c reads the files
# of ../shared/fiat-json in place.
get_filename_component(FIAT_JSON_DIR "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)
add_executable(test_fiat ${CMAKE_CURRENT_SOURCE_DIR}/test_fiat.c)
target_compile_options(test_fiat PRIVATE -O2)
target_compile_definitions(test_fiat PRIVATE FIAT_JSON_DIR="${FIAT_JSON_DIR}")
target_link_libraries(test_fiat PRIVATE ecopt_ir PkgConfig::GMP PkgConfig::CJSON)
add_test(NAME ir.fiat COMMAND test_fiat)
set_tests_properties(ir.fiat PROPERTIES LABELS ir)
