# ct.objcode_ifma: scripts/check-ct-objdump.py over the real (AVX-512 IFMA) build of the ifma backend's own code,
# which valgrind cannot run: the objects of its sources named *_ifma.c or kept in an ifma/ folder (the 4-way
# ladder, the 8-way batch ladder and inversion, the four-lane point code, the vector field arithmetic inlined into
# them). The rest of the backend's objects are the generic
# sources every backend compiles (ge.c, fe_u64.c, ...), covered under valgrind by ct.secret.ifma_emu and the other
# backends' ct tests. Included from tests/CMakeLists.txt.
#
# Every function of those objects is checked except the --skip ones (each with its reason); the arguments the
# contracts make public are declared with --public and the verdicts they make public with --declassify, each with
# its reason, and printed by every run. --expect-functions names the secret-taking functions that must be among those
# checked, so that a rename cannot empty the check.
if(TARGET ecopt_be_ifma)
  set(objcode_objects "$<FILTER:$<TARGET_OBJECTS:ecopt_be_ifma>,INCLUDE,(_ifma\\.c|/ifma/[^/]*\\.c)\\.o$>")
  if(TARGET ecopt_batch_ifma)
    list(APPEND objcode_objects "$<TARGET_OBJECTS:ecopt_batch_ifma>")
  endif()
  # clang's code for the batch entry point takes the address of its output array with an index register
  # (lea (%rsp,%rbx,1)), from which the checker cannot bound what a callee may write, so its spilled key counts are
  # lost across the calls and the loop over the public n is reported. The function holds no secret itself: it
  # hands each group of 8 keys to load_group and ladder8 (checked) and copies their outputs.
  set(objcode_clang_skip)
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    set(objcode_clang_skip --skip "^ecopt_x25519_batch(_core)?_ifma$:clang: the loop over the public n, spills not followed")
  endif()
  file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/ct_objcode_ifma.txt
       CONTENT "$<JOIN:${objcode_objects},\n>\n")
  add_test(NAME ct.objcode_ifma
           COMMAND ${ECOPT_PYTHON3} ${ct_objcode_checker} --objdump ${ECOPT_OBJDUMP}
             --skip "^ecopt_fe_backend_available_ifma$:reads cpuid and XCR0, no secret"
             --skip "vartime:variable time by contract, public inputs only (verification)" ${objcode_clang_skip}
             --public "^load_group$:r8:the first key of the group, public as n is"
             --public "^load_group$:r9:the key count of the group, public as n is"
             --public "^ecopt_x25519_batch(_core)?_ifma$:rcx:the key count n, public by contract"
             --public "^ecopt_x25519_batch(_core)?_ifma$:r8:status is NULL or not, public"
             --declassify "ecopt_ct_bytes_is_zero:each key's all-zero verdict, public by contract (RFC 7748 section 6.1)"
             --declassify "ecopt_ge_base_odd_ifma:the address of a public table (the base point's odd multiples)"
             --expect-functions "^ecopt_mont_ladder_x4_ifma$"
             --expect-functions "^ladder8$"
             --expect-functions "^ecopt_fe8_invert"
             @${CMAKE_CURRENT_BINARY_DIR}/ct_objcode_ifma.txt)
  set_tests_properties(ct.objcode_ifma PROPERTIES LABELS "ct")
endif()
