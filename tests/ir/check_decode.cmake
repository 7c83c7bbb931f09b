# check_decode.cmake — machine code in for the checker: check/elf.c (a function's bytes and relocations
# from a .o or an assembled .S, libelf) and check/decode.c (Zydis decoding, operands, flag effects, classification).
#   check.decode         hand-written .S (branch, call, div, RIP-relative/absolute data, AVX, lock/rep/fs, labels)
#                        against objdump and the SDM's flag tables; bad inputs (garbage, truncations, corruption)
#   check.decode.corpus  fiat mul/square of 5 curves, emitted C compiled by gcc and clang, decoded and compared
#                        with objdump -d -r; every instruction supported; prints the mnemonics per compiler
if(TARGET ecopt_check)
  get_filename_component(CHECK_DECODE_FIAT_DIR "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)
  add_executable(test_check_decode ${CMAKE_CURRENT_SOURCE_DIR}/test_check_decode.c ${CMAKE_CURRENT_SOURCE_DIR}/cc_util.c)
  target_compile_options(test_check_decode PRIVATE -O2)
  target_link_libraries(test_check_decode PRIVATE ecopt_check ecopt_emit ecopt_ir ${CMAKE_DL_LIBS})
  add_test(NAME check.decode COMMAND test_check_decode)
  add_test(NAME check.decode.corpus COMMAND test_check_decode --fiat ${CHECK_DECODE_FIAT_DIR})
  set_tests_properties(check.decode check.decode.corpus PROPERTIES LABELS check SKIP_RETURN_CODE 77)
endif()
