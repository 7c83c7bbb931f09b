/* ct_valgrind.h — marking secrets for the constant-time tests (valgrind memcheck).
 *
 * ECOPT_CT_SECRET(p, n) tells memcheck that n bytes at p are undefined: every branch, memory index or variable-
 * latency instruction that depends on them is then reported ("Conditional jump or move depends on uninitialised
 * value(s)", "Use of uninitialised value"), and valgrind --error-exitcode=1 fails the test. ECOPT_CT_PUBLIC(p, n)
 * declares bytes defined again once a function's contract makes them public (a public key, a signature, a return
 * code), so that the test may branch on them. Outside valgrind both are a few no-op instructions. */
#ifndef ECOPT_TESTS_CT_VALGRIND_H
#define ECOPT_TESTS_CT_VALGRIND_H

#include <valgrind/memcheck.h>

#define ECOPT_CT_SECRET(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#define ECOPT_CT_PUBLIC(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))

#endif /* ECOPT_TESTS_CT_VALGRIND_H */
