# cmake -DECOPT=<ecopt> -DSRC=<source dir> -DOUTDIR=<scratch dir> -P check_generated_asm_neg.cmake
# generated.asm must fail on a whole-formula .S whose src/curve/formulas/ program was changed: (1) a callee that
# claims to be `ecopt gen` output but is not (fe_sq with 0x27 for 2*19: in ge_madd_adx51.ir, 5 x 51 bits, the
# solinas-unsaturated square; in ladderstep_adx.ir, 4 x 64 bits, the solinas-saturated one), (2) any other change
# (a comment added: the sha256 differs). Each case runs check_generated_asm.cmake on a scratch tree holding one .S
# and its program.
# Each set: .S name | program | line | tampered line.
set(sets "ecopt_ge_madd_fused_adx51|ge_madd_adx51.ir|x2:u64 = mul arg1_4, 0x26|x2:u64 = mul arg1_4, 0x27"
         "ecopt_mont_ladderstep_fused_adx|ladderstep_adx.ir|x65:u64, x66:u64 = mulx.64 x57, 0x26|\
x65:u64, x66:u64 = mulx.64 x57, 0x27")
foreach(set IN LISTS sets)
  string(REPLACE "|" ";" parts "${set}")
  list(GET parts 0 asm)
  list(GET parts 1 ir)
  list(GET parts 2 from)
  list(GET parts 3 to)
  file(READ ${SRC}/src/curve/formulas/${ir} text)
  string(REPLACE "${from}" "${to}" bad_callee "${text}")
  if(bad_callee STREQUAL text)
    message(FATAL_ERROR "${ir}: the fe_sq line to tamper with was not found")
  endif()
  set(cases "fe_sq differ" "sha256 is")
  foreach(k 0 1)
    list(GET cases ${k} want)
    if(k EQUAL 0)
      set(t "${bad_callee}")
    else()
      set(t "${text}# one more line\n")
    endif()
    set(tree ${OUTDIR}/asm_neg_${asm}_${k})
    file(REMOVE_RECURSE ${tree})
    file(MAKE_DIRECTORY ${tree}/src/field/generated ${tree}/src/curve/formulas)
    file(COPY ${SRC}/src/field/generated/${asm}.S DESTINATION ${tree}/src/field/generated)
    file(WRITE ${tree}/src/curve/formulas/${ir} "${t}")
    execute_process(COMMAND ${CMAKE_COMMAND} -DECOPT=${ECOPT} -DSRC=${tree} -DOUTDIR=${tree}
                            -P ${CMAKE_CURRENT_LIST_DIR}/check_generated_asm.cmake
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    string(REGEX REPLACE "[ \n]+" " " msg "${out}${err}")
    if(rc EQUAL 0 OR NOT msg MATCHES "${want}")
      message(FATAL_ERROR "${asm} case ${k}: expected a failure mentioning '${want}', got rc ${rc}: ${msg}")
    endif()
    message(STATUS "${asm} case ${k}: rejected as expected (${want})")
  endforeach()
endforeach()
