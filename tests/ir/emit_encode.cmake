# emit_encode.cmake — emit/encode.c: emit_asm's text to machine code with Zydis' encoder, byte for byte what the
# system assembler makes of it, and run from executable memory.
#   emit.encode   test_emit_encode --fiat ../shared/fiat-json: every instruction form with every register, address
#                 form and immediate edge, and emit_asm's output (emit_progs.c, fiat's multiplies and squares; default,
#                 random decisions, random node orders), compared with `cc -c`'s bytes; a few encoded functions run
#                 against ir_eval; prints encode_asm_text's time on fiat_p256_mul.
# Needs the checker's library (check/elf.h reads the object) and Zydis (the encoder; decoder to split gas's bytes).
if(TARGET ecopt_check AND EXISTS ${PROJECT_SOURCE_DIR}/emit/encode.c)
  get_filename_component(EMIT_ENCODE_FIAT_DIR "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)
  add_executable(test_emit_encode ${CMAKE_CURRENT_SOURCE_DIR}/test_emit_encode.c
                                  ${CMAKE_CURRENT_SOURCE_DIR}/emit_progs.c ${CMAKE_CURRENT_SOURCE_DIR}/cc_util.c)
  target_compile_options(test_emit_encode PRIVATE -O2)
  target_link_libraries(test_emit_encode PRIVATE ecopt_emit ecopt_check ecopt_ir Zydis::Zydis PkgConfig::CJSON
                                                 ${CMAKE_DL_LIBS})
  add_test(NAME emit.encode COMMAND test_emit_encode --fiat ${EMIT_ENCODE_FIAT_DIR})
  set_tests_properties(emit.encode PROPERTIES LABELS ir SKIP_RETURN_CODE 77)
endif()
