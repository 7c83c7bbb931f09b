# harness.cmake — the cross-check harness (tests/ir/test_harness.c): every generated prime x op and every
# fiat-crypto function the reader accepts, unlowered and lowered, interpreter and emitted C (gcc and clang) vs GMP;
# text round trips; no conditional jumps in multiplies and squares; the bounds pass; the ladder step; the harness's
# own self-test (it must catch wrong functions); node counts (`test_harness table`, a markdown table).
# One ctest entry per group so that they run in parallel and fail separately.

get_filename_component(HARNESS_FIAT_DIR "${ECOPT_SHARED_DIR}/fiat-json" ABSOLUTE)

add_executable(test_harness
  ${CMAKE_CURRENT_SOURCE_DIR}/test_harness.c
  ${CMAKE_CURRENT_SOURCE_DIR}/harness_ref.c
  ${CMAKE_CURRENT_SOURCE_DIR}/cc_util.c)
target_compile_options(test_harness PRIVATE -O2)
target_include_directories(test_harness PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/tests/ref)
target_compile_definitions(test_harness PRIVATE
  HARNESS_FIAT_DIR="${HARNESS_FIAT_DIR}"
  HARNESS_LADDER_IR="${CMAKE_CURRENT_SOURCE_DIR}/ladderstep.ir")
target_link_libraries(test_harness PRIVATE ecopt_emit ecopt_gen ecopt_ir ecopt_testref PkgConfig::GMP
                      PkgConfig::CJSON ${CMAKE_DL_LIBS})

# Random inputs per function and form; the sanitizer build runs fewer (it is several times slower).
if(ECOPT_SANITIZE)
  set(HARNESS_ITERS 2000)
else()
  set(HARNESS_ITERS 10000)
endif()

set(HARNESS_GROUPS
  gen.unsat.25519 gen.unsat.p448 gen.unsat.p521 gen.unsat.poly1305 gen.sat.25519
  gen.mont.p224 gen.mont.p256 gen.mont.p384 gen.mont.secp256k1 gen.mont.p434
  gen.mont.bls12_381_p gen.mont.bls12_381_r gen.mont.ed25519_l
  gen.sat.secp256k1 gen.sat2.secp256k1
  gen.msparse.p224 gen.msparse.p256 gen.msparse.p384 gen.msparse.secp256k1 gen.msparse.p434
  gen.msparse.bls12_381_r gen.msparse.ed25519_l)
file(GLOB HARNESS_FIAT_FILES "${HARNESS_FIAT_DIR}/*.json")
if(NOT HARNESS_FIAT_FILES)
  message(NOTICE "tests/ir/harness.cmake: no fiat-crypto JSON files in ${HARNESS_FIAT_DIR}: not registering "
                 "ir.harness.fiat.* (set ECOPT_SHARED_DIR to the folder holding fiat-json/)")
endif()
foreach(file IN LISTS HARNESS_FIAT_FILES)
  get_filename_component(base "${file}" NAME_WE)
  list(APPEND HARNESS_GROUPS fiat.${base})
endforeach()

set(HARNESS_TESTS)
foreach(group IN LISTS HARNESS_GROUPS)
  add_test(NAME ir.harness.${group} COMMAND test_harness --iters ${HARNESS_ITERS} check ${group})
  add_test(NAME ir.harness.text.${group} COMMAND test_harness text ${group})
  list(APPEND HARNESS_TESTS ir.harness.${group} ir.harness.text.${group})
endforeach()
foreach(cc gcc clang)
  foreach(level 2 3)
    add_test(NAME ir.harness.nobranch.${cc}-O${level} COMMAND test_harness nobranch ${cc} ${level})
    list(APPEND HARNESS_TESTS ir.harness.nobranch.${cc}-O${level})
  endforeach()
endforeach()
add_test(NAME ir.harness.bounds COMMAND test_harness bounds)
add_test(NAME ir.harness.ladder COMMAND test_harness --iters ${HARNESS_ITERS} ladder)
add_test(NAME ir.harness.selftest COMMAND test_harness selftest)
add_test(NAME ir.harness.table COMMAND test_harness table)
list(APPEND HARNESS_TESTS ir.harness.bounds ir.harness.ladder ir.harness.selftest ir.harness.table)
set_tests_properties(${HARNESS_TESTS} PROPERTIES LABELS ir SKIP_RETURN_CODE 77)
