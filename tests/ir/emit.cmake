# emit.cmake — tests of the lowering pass (ir/lower.c) and the C emitter (emit/emit_c.c), and the compile/load/
# disassemble unit they share with the harness (tests/ir/cc_util.c).
#   ir.lower       hand-built programs per lowering rule: interpreter before == after, no u128 left, bounds pass
#   ir.lower.fiat  every fiat-crypto mul/square/carry/add/sub/opp, loaded and lowered, interpreter before == after
#   emit.c         emitted C (unlowered and lowered) compiled by gcc and clang, run against the interpreter; no
#                  branch in the text or in the -O2/-O3 machine code
#   emit.c.fiat    the same for the fiat-crypto functions

get_filename_component(EMIT_FIAT_DIR "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)

add_executable(test_lower ${CMAKE_CURRENT_SOURCE_DIR}/test_lower.c ${CMAKE_CURRENT_SOURCE_DIR}/emit_progs.c)
target_compile_options(test_lower PRIVATE -O2)
target_link_libraries(test_lower PRIVATE ecopt_ir PkgConfig::GMP PkgConfig::CJSON)
add_test(NAME ir.lower COMMAND test_lower --iters 3000)
add_test(NAME ir.lower.fiat COMMAND test_lower --iters 500 --fiat ${EMIT_FIAT_DIR})

add_executable(test_emit ${CMAKE_CURRENT_SOURCE_DIR}/test_emit.c ${CMAKE_CURRENT_SOURCE_DIR}/emit_progs.c
                         ${CMAKE_CURRENT_SOURCE_DIR}/cc_util.c)
target_compile_options(test_emit PRIVATE -O2)
target_link_libraries(test_emit PRIVATE ecopt_emit ecopt_ir PkgConfig::CJSON ${CMAKE_DL_LIBS})
add_test(NAME emit.c COMMAND test_emit --iters 1000)
add_test(NAME emit.c.fiat COMMAND test_emit --iters 200 --fiat ${EMIT_FIAT_DIR})

set_tests_properties(ir.lower ir.lower.fiat emit.c emit.c.fiat PROPERTIES LABELS ir SKIP_RETURN_CODE 77)
