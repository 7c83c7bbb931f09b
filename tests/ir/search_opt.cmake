# search_opt.cmake — the optimizer's search and `ecopt opt` (search/candidate.c, search/search.c, tools/opt_cmd.c):
# correctness only, never speed.
#   search.candidate        10,000 random mutations per program keep a legal order (ir_validate, alias rule, ir_eval)
#   search.opt.<name>       a 300-evaluation search on the curve25519 / p256 fiat multiply and the X25519 ladder
#                           step: the .S is PROVED (check_file, unlowered program), its assembled bytes equal the
#                           measured ones, and it agrees with GMP on 100,000 random inputs (multiplies also with
#                           out1 == arg1 and out1 == arg2)
#   search.cli              `ecopt opt` end to end (with the gcc/clang baselines), its header, `ecopt check` on the
#                           output, and the exit codes of bad input
#   search.cli.objective    --objective latency / throughput: PROVED output whose header names it; latency refused
#                           for a program that cannot chain; bad values (test_search_opt_obj.sh)
#   search.cli.jobs         -j 2: PROVED output naming both seeds and the winner; bad -j values (skipped, 77, when
#                           the process may use fewer than 2 CPUs)
if(TARGET ecopt_search)
  get_filename_component(SEARCH_OPT_FIAT_DIR "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)
  add_executable(test_search_opt ${CMAKE_CURRENT_SOURCE_DIR}/test_search_opt.c ${CMAKE_CURRENT_SOURCE_DIR}/harness_ref.c
                                 ${CMAKE_CURRENT_SOURCE_DIR}/ladder_prog.c)
  target_compile_options(test_search_opt PRIVATE -O2)
  target_include_directories(test_search_opt PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/tests/ref)
  target_link_libraries(test_search_opt PRIVATE ecopt_search ecopt_check ecopt_emit ecopt_gen ecopt_ir ecopt_testref
                                                PkgConfig::GMP PkgConfig::CJSON ${CMAKE_DL_LIBS})
  set(SEARCH_OPT_ARGS --fiat ${SEARCH_OPT_FIAT_DIR} --ladder ${CMAKE_CURRENT_SOURCE_DIR}/ladderstep.ir)
  add_test(NAME search.candidate COMMAND test_search_opt ${SEARCH_OPT_ARGS} candidate)
  set(SEARCH_OPT_TESTS search.candidate)
  foreach(name curve25519 p256 ladder)
    add_test(NAME search.opt.${name} COMMAND test_search_opt ${SEARCH_OPT_ARGS} --evals 300 opt ${name})
    list(APPEND SEARCH_OPT_TESTS search.opt.${name})
  endforeach()
  if(TARGET ecopt_cli)
    add_test(NAME search.cli COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_search_opt_cli.sh $<TARGET_FILE:ecopt_cli>
                                     ${SEARCH_OPT_FIAT_DIR})
    list(APPEND SEARCH_OPT_TESTS search.cli)
    foreach(part objective jobs)
      add_test(NAME search.cli.${part} COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_search_opt_obj.sh
                                               $<TARGET_FILE:ecopt_cli> ${SEARCH_OPT_FIAT_DIR} ${part})
      list(APPEND SEARCH_OPT_TESTS search.cli.${part})
    endforeach()
  endif()
  if(TARGET ecopt_bench_asm)
    # with ecopt (for the p256 program) and the shared folder: one CryptOpt NASM file and one s2n-bignum .S too
    set(BENCH_ASM_PEER_ARGS)
    if(TARGET ecopt_cli)
      get_filename_component(BENCH_ASM_SHARED "${ECOPT_SHARED_DIR}" ABSOLUTE)
      set(BENCH_ASM_PEER_ARGS $<TARGET_FILE:ecopt_cli> ${BENCH_ASM_SHARED})
    endif()
    add_test(NAME bench.asm_tool COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_bench_asm.sh $<TARGET_FILE:ecopt_bench_asm>
                                         ${PROJECT_SOURCE_DIR} ${BENCH_ASM_PEER_ARGS})
    list(APPEND SEARCH_OPT_TESTS bench.asm_tool)
  endif()
  set_tests_properties(${SEARCH_OPT_TESTS} PROPERTIES LABELS ir SKIP_RETURN_CODE 77)
endif()
