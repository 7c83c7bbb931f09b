# cmake -DECOPT=<ecopt> -DSRC=<source dir> -DOUTDIR=<scratch dir> -P check_generated_asm_neg.cmake
# generated.asm must fail
#   - on a whole-formula .S whose src/curve/formulas/ program was changed: (1) a callee that claims to be `ecopt gen`
#     output but is not (fe_sq with 0x27 for 2*19: in ge_madd_adx51.ir, 5 x 51 bits, the solinas-unsaturated
#     square; in ladderstep_adx.ir, 4 x 64 bits, the solinas-saturated-2chain one,
#     which matches neither 4 x 64 method), (2) any other change (a comment added:
#     the sha256 differs);
#   - on a committed .S that was itself changed, for the adx backend (4 x 64 bits): its multiply (program rebuilt by
#     `ecopt gen`) and a whole formula (program from src/curve/formulas/): (3) one instruction changed (the first
#     `movl $38` loads 39: `ecopt check` must reject it), (4) the header's Sha256 changed, (5) the header's
#     `Checker:   PROVED` line changed; the same for the x64 backend's multiply and ladder step (from
#     `ecopt opt --target x86-64`), and there (6) a mulx in the text, (7) the command without `--target x86-64`.
# Each case runs check_generated_asm.cmake on a scratch tree holding one .S and its program(s); in the cases of the
# second kind the same tree with the .S untouched must pass first.

# scratch_tree(TREE ASM): a fresh tree TREE holding src/field/generated/ASM.S and an empty src/curve/formulas.
function(scratch_tree tree asm)
  file(REMOVE_RECURSE ${tree})
  file(MAKE_DIRECTORY ${tree}/src/field/generated ${tree}/src/curve/formulas)
  file(COPY ${SRC}/src/field/generated/${asm}.S DESTINATION ${tree}/src/field/generated)
endfunction()

# check_tree(TREE WANT LABEL): check_generated_asm.cmake on TREE must fail with a message matching WANT, or pass
# when WANT is "".
set(checker ${CMAKE_CURRENT_LIST_DIR}/check_generated_asm.cmake)
function(check_tree tree want label)
  execute_process(COMMAND ${CMAKE_COMMAND} -DECOPT=${ECOPT} -DSRC=${tree} -DOUTDIR=${tree} -P ${checker}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "[ \n]+" " " msg "${out}${err}")
  if(want STREQUAL "")
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${label}: the untampered file fails already (rc ${rc}): ${msg}")
    endif()
    return()
  endif()
  if(rc EQUAL 0 OR NOT msg MATCHES "${want}")
    message(FATAL_ERROR "${label}: expected a failure mentioning '${want}', got rc ${rc}: ${msg}")
  endif()
  message(STATUS "${label}: rejected as expected (${want})")
endfunction()

# Each set: .S name | program | line | tampered line.
set(sets "ecopt_ge_madd_fused_adx51|ge_madd_adx51.ir|x2:u64 = mul arg1_4, 0x26|x2:u64 = mul arg1_4, 0x27"
         "ecopt_mont_ladderstep_fused_adx|ladderstep_adx.ir|x69:u64, x70:u64 = mulx.64 x55, 0x26|\
x69:u64, x70:u64 = mulx.64 x55, 0x27")
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
    scratch_tree(${tree} ${asm})
    file(WRITE ${tree}/src/curve/formulas/${ir} "${t}")
    check_tree(${tree} "${want}" "${asm} case ${k}")
  endforeach()
endforeach()

# The .S itself tampered with. Each set: .S name | the formula program it needs ("-": none, `ecopt gen` rebuilds it).
# Each case: the text to replace (first occurrence) | its replacement | what the failure must mention.
set(asm_sets "ecopt_fe_mul_adx|-" "ecopt_ge_madd_fused_adx|ge_madd_adx.ir" "ecopt_fe_mul_x64|-"
             "ecopt_mont_ladderstep_fused_x64|ladderstep_x64.ir")
set(asm_cases "movl $38,|movl $39,|not PROVED.*REJECTED"
              " * Sha256:    |%SHA%|sha256 is"
              " * Checker:   PROVED| * Checker:   UNCHECKED|header incomplete")
# ... and for the x64 backend's files (--target x86-64): (6) a BMI2 instruction in the text, (7) the command
# without its target.
set(asm_cases_x64 "\tmulq |\tmulx |needs BMI2/ADX"
                  " --target x86-64| |not made with `ecopt opt --target x86-64`")
foreach(set IN LISTS asm_sets)
  string(REPLACE "|" ";" parts "${set}")
  list(GET parts 0 asm)
  list(GET parts 1 ir)
  file(READ ${SRC}/src/field/generated/${asm}.S text)
  set(k 3)
  set(cases_here ${asm_cases})
  if(asm MATCHES "_x64$")
    list(APPEND cases_here ${asm_cases_x64})
  endif()
  foreach(case IN LISTS cases_here)
    string(REPLACE "|" ";" cparts "${case}")
    list(GET cparts 0 from)
    list(GET cparts 1 to)
    list(GET cparts 2 want)
    if(to STREQUAL "%SHA%") # the header's hash with its first hex digit changed
      if(NOT text MATCHES "\n \\* Sha256: +([0-9a-f])")
        message(FATAL_ERROR "${asm}.S: no Sha256 line")
      endif()
      if(CMAKE_MATCH_1 STREQUAL "0")
        set(d 1)
      else()
        set(d 0)
      endif()
      set(to "${from}${d}")
      string(APPEND from "${CMAKE_MATCH_1}")
    endif()
    string(FIND "${text}" "${from}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${asm}.S: the text to tamper with ('${from}') was not found")
    endif()
    string(LENGTH "${from}" len)
    string(SUBSTRING "${text}" 0 ${at} head)
    math(EXPR rest "${at} + ${len}")
    string(SUBSTRING "${text}" ${rest} -1 tail)
    set(tree ${OUTDIR}/asm_neg_${asm}_${k})
    scratch_tree(${tree} ${asm})
    if(NOT ir STREQUAL "-")
      file(COPY ${SRC}/src/curve/formulas/${ir} DESTINATION ${tree}/src/curve/formulas)
    endif()
    # the untampered tree passes: the failure below is the tampering's
    if(k EQUAL 3)
      check_tree(${tree} "" "${asm}.S")
    endif()
    file(WRITE ${tree}/src/field/generated/${asm}.S "${head}${to}${tail}")
    check_tree(${tree} "${want}" "${asm}.S case ${k}")
    math(EXPR k "${k} + 1")
  endforeach()
endforeach()
