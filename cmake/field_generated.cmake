# field_generated.cmake — the portable C field functions the library takes from `ecopt gen`, each
# "<symbol>|<ecopt gen arguments>"; the file is src/field/generated/<symbol>.c (STYLE.md: file name = symbol).
# `make regen` writes them (regen_field.cmake), ctest generated.field checks them (check_generated_field.cmake);
# fe_u64.c #includes them.
set(ECOPT_FIELD_GENERATED
  "ecopt_fe_mul_u64_gen|--prime 2^255-19 --method solinas-unsaturated --limbs 5 --op mul"
  "ecopt_fe_sq_u64_gen|--prime 2^255-19 --method solinas-unsaturated --limbs 5 --op square")

# ecopt_field_generate(ECOPT SRC OUTDIR NAMES_VAR): run `ECOPT gen ... --emit c --static --name <symbol>` for each
# entry, writing OUTDIR/<symbol>.c; the symbols go to NAMES_VAR.
function(ecopt_field_generate ecopt src outdir names_var)
  set(names "")
  foreach(entry IN LISTS ECOPT_FIELD_GENERATED)
    string(REPLACE "|" ";" parts "${entry}")
    list(GET parts 0 name)
    list(GET parts 1 args)
    separate_arguments(argv UNIX_COMMAND "${args}")
    execute_process(COMMAND ${ecopt} gen ${argv} --emit c --static --name ${name} -o ${outdir}/${name}.c
                    WORKING_DIRECTORY ${src} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "ecopt gen failed for ${name} (${rc})")
    endif()
    list(APPEND names ${name})
  endforeach()
  set(${names_var} ${names} PARENT_SCOPE)
endfunction()
