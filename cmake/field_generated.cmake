# field_generated.cmake — the portable C field functions the library takes from `ecopt gen` (issue 4), each
# "<symbol>|<ecopt gen arguments>"; the file is src/field/generated/<symbol>.c (STYLE.md: file name = symbol).
# `make regen` writes them, ctest generated.field checks them; fe_u64.c #includes them.
set(ECOPT_FIELD_GENERATED
  "ecopt_fe_mul_u64_gen|--prime 2^255-19 --method solinas-unsaturated --limbs 5 --op mul"
  "ecopt_fe_sq_u64_gen|--prime 2^255-19 --method solinas-unsaturated --limbs 5 --op square")
