# ct.objcode_ifma: scripts/check-ct-objdump.py over the real (AVX-512 IFMA) build of the ifma backend's objects,
# which valgrind cannot run. Included from tests/CMakeLists.txt. Every function of the objects is checked but the
# variable-time ones of public inputs (--skip, each with its reason); the few arguments that the functions' contracts
# make public are declared with --public, each with its reason. --expect-functions names the secret-taking
# functions that must be among those checked, so that a rename cannot empty the check.
if(TARGET ecopt_be_ifma)
  set(objcode_lists $<TARGET_OBJECTS:ecopt_be_ifma>)
  if(TARGET ecopt_batch_ifma)
    list(APPEND objcode_lists $<TARGET_OBJECTS:ecopt_batch_ifma>)
  endif()
  file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/ct_objcode_ifma.txt CONTENT "$<JOIN:${objcode_lists},\n>\n")
  add_test(NAME ct.objcode_ifma
           COMMAND ${ECOPT_PYTHON3} ${ct_objcode_checker} --objdump ${ECOPT_OBJDUMP}
                   --skip "vartime:variable time by contract, public inputs only (verification, decoding)"
                   @${CMAKE_CURRENT_BINARY_DIR}/ct_objcode_ifma.txt)
  set_tests_properties(ct.objcode_ifma PROPERTIES LABELS "ct")
endif()
