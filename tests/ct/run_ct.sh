#!/bin/sh
# run_ct.sh TEST_CT VALGRIND [ARGS...] — one ct.* test of a backend (tests/CMakeLists.txt).
# ctest sets ECOPT_BACKEND=<be> and ECOPT_BACKEND_FORCE=1: valgrind hides ADX (and BMI2) from cpuid although it
# executes ADCX, ADOX and MULX, so without the force the library would find adx (adx51) unavailable under valgrind. The
# force must never meet a CPU that lacks the instructions, so TEST_CT first runs natively without it
# (`cpu-check`): exit 77 (ctest's skip) when this CPU lacks the backend, 1 when another backend was chosen.
# Then VALGRIND ARGS... runs with the force.
test_ct=$1
shift
env -u ECOPT_BACKEND_FORCE "$test_ct" cpu-check || exit $?
exec "$@"
