# emit_asm.cmake — the assembly emitter (emit/emit_asm.c): lowered IR to x86-64 .S, assembled with cc, run against
# the interpreter on edge and random inputs (also with outputs aliasing inputs), no branch in the object; generated
# functions, fiat-crypto's, and hand-made programs (emit_progs.c, ep_rprogs) that force spills (to the stack and to
# xmm registers), stack arguments and flag clobbers; each with the default decisions, random ones (every bit of
# every node, EMIT_ASM_D_*) and a random schedule.
#   emit.asm   test_emit_asm --iters 10000 --fiat ../shared/fiat-json (2000 under the sanitizers; random decisions
#              and schedules: iters / 10 inputs)
#   emit.asm.x64, emit.asm.check.x64  both again with --target x86-64 (fewer inputs)
#   emit.asm.check  the same linked with the checker (when check/check.c and check/exec.c exist): each emission with
#                   default and with random decisions goes through check_file and must be PROVED
#                   (--require-proved; the random schedules are run, not checked: --check-shuffled)

get_filename_component(EMIT_ASM_FIAT_DIR "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)

add_executable(test_emit_asm ${CMAKE_CURRENT_SOURCE_DIR}/test_emit_asm.c ${CMAKE_CURRENT_SOURCE_DIR}/emit_progs.c
                             ${CMAKE_CURRENT_SOURCE_DIR}/cc_util.c)
target_compile_options(test_emit_asm PRIVATE -O2)
target_link_libraries(test_emit_asm PRIVATE ecopt_emit ecopt_gen ecopt_ir PkgConfig::CJSON ${CMAKE_DL_LIBS})
# under the sanitizers the interpreter and the runs are several times slower: fewer inputs keep it under a minute
if(ECOPT_SANITIZE)
  set(EMIT_ASM_ITERS 2000)
else()
  set(EMIT_ASM_ITERS 10000)
endif()
add_test(NAME emit.asm COMMAND test_emit_asm --iters ${EMIT_ASM_ITERS} --fiat ${EMIT_ASM_FIAT_DIR})
set_tests_properties(emit.asm PROPERTIES LABELS ir SKIP_RETURN_CODE 77)
# emit.asm.x64: the same for --target x86-64 (mulq, one carry chain; no BMI2/ADX instruction in any text, which
# the test asserts), a tenth of the inputs (each program's code paths, not the input count, are what is new)
math(EXPR EMIT_ASM_ITERS_X64 "${EMIT_ASM_ITERS} / 10")
add_test(NAME emit.asm.x64 COMMAND test_emit_asm --target x86-64 --iters ${EMIT_ASM_ITERS_X64}
                                   --fiat ${EMIT_ASM_FIAT_DIR})
set_tests_properties(emit.asm.x64 PROPERTIES LABELS ir SKIP_RETURN_CODE 77)
# The same program linked with the checker (emit.asm.check).
if(TARGET ecopt_check AND EXISTS ${PROJECT_SOURCE_DIR}/check/check.c AND EXISTS ${PROJECT_SOURCE_DIR}/check/exec.c)
  add_executable(test_emit_asm_check ${CMAKE_CURRENT_SOURCE_DIR}/test_emit_asm.c
                                     ${CMAKE_CURRENT_SOURCE_DIR}/emit_progs.c ${CMAKE_CURRENT_SOURCE_DIR}/cc_util.c)
  target_compile_options(test_emit_asm_check PRIVATE -O2)
  target_compile_definitions(test_emit_asm_check PRIVATE ECOPT_HAVE_CHECK=1)
  target_link_libraries(test_emit_asm_check PRIVATE ecopt_check ecopt_emit ecopt_gen ecopt_ir PkgConfig::CJSON
                                                    ${CMAKE_DL_LIBS})
  add_test(NAME emit.asm.check COMMAND test_emit_asm_check --iters 300 --require-proved --fiat ${EMIT_ASM_FIAT_DIR})
  set_tests_properties(emit.asm.check PROPERTIES LABELS ir SKIP_RETURN_CODE 77)
  add_test(NAME emit.asm.check.x64 COMMAND test_emit_asm_check --target x86-64 --iters 100 --require-proved
                                           --fiat ${EMIT_ASM_FIAT_DIR})
  set_tests_properties(emit.asm.check.x64 PROPERTIES LABELS ir SKIP_RETURN_CODE 77)
endif()
