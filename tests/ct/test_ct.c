/* test_ct.c — ct.secret.<backend>: constant-time evidence under valgrind memcheck.
 *
 * Run as `valgrind --error-exitcode=1 --track-origins=yes test_ct [leak]` with ECOPT_BACKEND set. Secrets (seeds,
 * the secret key object, X25519 scalars) are marked undefined with ECOPT_CT_SECRET before each call; outputs that
 * the contract makes public (public keys, signatures, shared secrets, return codes) are declared defined with
 * ECOPT_CT_PUBLIC once produced. Any branch or memory index on secret data inside libecopt is then a memcheck
 * error, and valgrind's exit code fails the test.
 *
 * Operations: Ed25519 key generation from a seed, signing (pure, ctx, ph) with the key object marked secret,
 * X25519 with a secret scalar (including a small-order u, whose all-zero verdict the library declassifies itself),
 * X25519 base, batch X25519 (scalars and u secret) and the base batch. Results are checked after declassification
 * (verify; DH agreement; batch against single calls), so a harness that broke the
 * computation would not pass silently.
 *
 * `leak` runs only leaky_function(), which branches on a secret byte: ctest registers that run with WILL_FAIL,
 * so the harness is known to catch a leak (ct.harness_leak.<backend>).
 *
 * `cpu-check` only checks, outside valgrind, that ECOPT_BACKEND is usable on this CPU (exit 77 when not). ctest runs
 * it before every valgrind run, because those set ECOPT_BACKEND_FORCE=1: valgrind hides ADX from cpuid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_valgrind.h"
#include "ecopt/ecopt.h"
#include "testutil.h"
#include "tu_backend.h"

static int failures = 0;

static void fail(const char *what, int rc) {
    fprintf(stderr, "FAIL: %s (rc %d: %s)\n", what, rc, ecopt_strerror(rc));
    failures++;
}

/* Deliberately not constant time: a branch on a secret byte whose two sides call different functions with side
 * effects, so that no compiler can turn it into a conditional move (clang does that to a plain two-value store).
 * Must make memcheck report "Conditional jump or move depends on uninitialised value(s)". */
static volatile int leak_sink;
__attribute__((noinline)) static void leak_odd(void) { leak_sink += 1; }
__attribute__((noinline)) static void leak_even(void) { leak_sink += 2; }
__attribute__((noinline)) static void leaky_function(const uint8_t *secret) {
    if (secret[0] & 1) leak_odd();
    else leak_even();
}

static void ed25519_round(const uint8_t seed_in[32], const uint8_t *msg, size_t msglen) {
    uint8_t seed[32], pub[32], sig[64];
    ecopt_ed25519_secretkey sk;
    memcpy(seed, seed_in, 32);

    ECOPT_CT_SECRET(seed, 32);
    int rc = ecopt_ed25519_keypair_from_seed(&sk, pub, seed);
    ECOPT_CT_PUBLIC(&rc, sizeof rc);
    ECOPT_CT_PUBLIC(pub, 32);
    if (rc != ECOPT_OK) fail("keypair_from_seed", rc);

    /* The whole key object is secret (seed, s, prefix; A is public but lives inside). */
    ECOPT_CT_SECRET(&sk, sizeof sk);
    rc = ecopt_ed25519_sign(sig, msg, msglen, &sk);
    ECOPT_CT_PUBLIC(&rc, sizeof rc);
    ECOPT_CT_PUBLIC(sig, 64);
    if (rc != ECOPT_OK) fail("ed25519_sign", rc);
    rc = ecopt_ed25519_verify(sig, msg, msglen, pub);
    if (rc != ECOPT_OK) fail("ed25519_verify of the signature made under valgrind", rc);

    static const uint8_t ctx[] = {'c', 't', 'x'};
    ECOPT_CT_SECRET(&sk, sizeof sk);
    rc = ecopt_ed25519ctx_sign(sig, msg, msglen, ctx, sizeof ctx, &sk);
    ECOPT_CT_PUBLIC(&rc, sizeof rc);
    ECOPT_CT_PUBLIC(sig, 64);
    if (rc != ECOPT_OK) fail("ed25519ctx_sign", rc);
    rc = ecopt_ed25519ctx_verify(sig, msg, msglen, ctx, sizeof ctx, pub);
    if (rc != ECOPT_OK) fail("ed25519ctx_verify", rc);

    ECOPT_CT_SECRET(&sk, sizeof sk);
    rc = ecopt_ed25519ph_sign(sig, msg, msglen, NULL, 0, &sk);
    ECOPT_CT_PUBLIC(&rc, sizeof rc);
    ECOPT_CT_PUBLIC(sig, 64);
    if (rc != ECOPT_OK) fail("ed25519ph_sign", rc);
    rc = ecopt_ed25519ph_verify(sig, msg, msglen, NULL, 0, pub);
    if (rc != ECOPT_OK) fail("ed25519ph_verify", rc);

    /* Copying the public key out of the secret object: A is public by contract. */
    uint8_t pub2[32];
    ECOPT_CT_SECRET(&sk, sizeof sk);
    ecopt_ed25519_secretkey_public(pub2, &sk);
    ECOPT_CT_PUBLIC(pub2, 32);
    if (memcmp(pub, pub2, 32) != 0) fail("secretkey_public", 0);

    ECOPT_CT_PUBLIC(&sk, sizeof sk);
    ecopt_ed25519_secretkey_wipe(&sk);
}

static void x25519_round(const uint8_t a_in[32], const uint8_t b_in[32]) {
    uint8_t a[32], b[32], pa[32], pb[32], sab[32], sba[32];
    memcpy(a, a_in, 32);
    memcpy(b, b_in, 32);

    ECOPT_CT_SECRET(a, 32);
    int rc = ecopt_x25519_base(pa, a);
    ECOPT_CT_PUBLIC(&rc, sizeof rc);
    ECOPT_CT_PUBLIC(pa, 32);
    if (rc != ECOPT_OK) fail("x25519_base", rc);
    ECOPT_CT_SECRET(b, 32);
    rc = ecopt_x25519_base(pb, b);
    ECOPT_CT_PUBLIC(&rc, sizeof rc);
    ECOPT_CT_PUBLIC(pb, 32);
    if (rc != ECOPT_OK) fail("x25519_base", rc);

    /* Secret scalar, public u; the shared secret is the caller's secret, but its value is declassified here only
     * to compare both sides. */
    ECOPT_CT_SECRET(a, 32);
    rc = ecopt_x25519(sab, a, pb);
    ECOPT_CT_PUBLIC(&rc, sizeof rc);
    ECOPT_CT_PUBLIC(sab, 32);
    if (rc != ECOPT_OK) fail("x25519", rc);
    ECOPT_CT_SECRET(b, 32);
    rc = ecopt_x25519(sba, b, pa);
    ECOPT_CT_PUBLIC(&rc, sizeof rc);
    ECOPT_CT_PUBLIC(sba, 32);
    if (rc != ECOPT_OK) fail("x25519", rc);
    if (memcmp(sab, sba, 32) != 0) fail("x25519 shared secrets differ", 0);

    /* Small-order u (u = 0 and u = 1): all-zero output, ECOPT_ERR_SMALL_ORDER, with the scalar secret. */
    static const uint8_t small_u[2][32] = {{0}, {1}};
    for (int i = 0; i < 2; i++) {
        ECOPT_CT_SECRET(a, 32);
        rc = ecopt_x25519(sab, a, small_u[i]);
        ECOPT_CT_PUBLIC(&rc, sizeof rc);
        ECOPT_CT_PUBLIC(sab, 32);
        if (rc != ECOPT_ERR_SMALL_ORDER) fail("x25519 with a small-order u", rc);
    }

    /* out aliasing the secret scalar. */
    memcpy(sab, a_in, 32);
    ECOPT_CT_SECRET(sab, 32);
    rc = ecopt_x25519(sab, sab, pb);
    ECOPT_CT_PUBLIC(&rc, sizeof rc);
    ECOPT_CT_PUBLIC(sab, 32);
    if (rc != ECOPT_OK || memcmp(sab, sba, 32) != 0) fail("x25519 with out == scalar", rc);
}

/* Batch X25519 on 11 keys (a full group of eight lanes and a tail of three on the ifma backends), every scalar and
 * every u secret, one u of small order (u = 0: all-zero output, that key's status ECOPT_ERR_SMALL_ORDER, the verdict
 * declassified by the library); then the base batch. Results compared with single calls after declassification. */
static void batch_round(tu_rng *rng) {
    enum { N = 11 };
    uint8_t k[N * 32], u[N * 32], out[N * 32], want[32];
    int st[N];
    tu_rng_bytes(rng, k, sizeof k);
    for (int i = 0; i < N; i++) {
        int rc = ecopt_x25519_base(u + 32 * i, k + 32 * ((i + 1) % N)); /* real public keys */
        if (rc != ECOPT_OK) fail("x25519_base", rc);
    }
    memset(u + 32 * 5, 0, 32);
    ECOPT_CT_SECRET(k, sizeof k);
    ECOPT_CT_SECRET(u, sizeof u);
    int rc = ecopt_x25519_batch(out, k, u, N, st);
    ECOPT_CT_PUBLIC(&rc, sizeof rc);
    ECOPT_CT_PUBLIC(st, sizeof st);
    ECOPT_CT_PUBLIC(out, sizeof out);
    ECOPT_CT_PUBLIC(k, sizeof k);
    ECOPT_CT_PUBLIC(u, sizeof u);
    if (rc != ECOPT_ERR_SMALL_ORDER) fail("x25519_batch with one small-order u", rc);
    for (int i = 0; i < N; i++) {
        int rc1 = ecopt_x25519(want, k + 32 * i, u + 32 * i);
        if (st[i] != rc1 || memcmp(out + 32 * i, want, 32) != 0) fail("x25519_batch differs from x25519", st[i]);
    }
    ECOPT_CT_SECRET(k, sizeof k);
    rc = ecopt_x25519_base_batch(out, k, N);
    ECOPT_CT_PUBLIC(&rc, sizeof rc);
    ECOPT_CT_PUBLIC(out, sizeof out);
    ECOPT_CT_PUBLIC(k, sizeof k);
    if (rc != ECOPT_OK) fail("x25519_base_batch", rc);
    for (int i = 0; i < N; i++) {
        rc = ecopt_x25519_base(want, k + 32 * i);
        if (rc != ECOPT_OK || memcmp(out + 32 * i, want, 32) != 0) fail("x25519_base_batch differs", rc);
    }
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "leak") == 0) {
        /* The harness check: this must make valgrind exit non-zero. */
        uint8_t s[32];
        memset(s, 0x5a, sizeof s);
        ECOPT_CT_SECRET(s, sizeof s);
        leaky_function(s);
        printf("leak: ran leaky_function on a secret byte (valgrind must report it)\n");
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "cpu-check") == 0) {
        /* Run natively before the valgrind run (tests/CMakeLists.txt): skips (77) when this CPU lacks the backend,
         * fails when the library chose another one. */
        tu_check_library_backend();
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [leak | cpu-check]\n", argv[0]);
        return 2;
    }
    tu_check_library_backend();
    if (RUNNING_ON_VALGRIND == 0)
        printf("note: not running under valgrind; the secret markings are no-ops (ctest runs this under valgrind)\n");

    /* Fixed inputs (their values do not matter to memcheck; several keep more paths warm). */
    tu_rng rng;
    tu_rng_seed(&rng, 20260101);
    uint8_t msg[300];
    tu_rng_bytes(&rng, msg, sizeof msg);
    for (int round = 0; round < 3; round++) {
        uint8_t seed[32], a[32], b[32];
        tu_rng_bytes(&rng, seed, 32);
        tu_rng_bytes(&rng, a, 32);
        tu_rng_bytes(&rng, b, 32);
        if (round == 1) memset(seed, 0, 32), memset(a, 0xff, 32);
        ed25519_round(seed, msg, (size_t)(round * 100));
        x25519_round(a, b);
    }
    batch_round(&rng);
    if (failures) {
        printf("ct.secret: %d failure(s)\n", failures);
        return 1;
    }
    printf("ct.secret: key generation, sign (pure, ctx, ph), x25519, x25519_base, x25519_batch, x25519_base_batch "
           "ran with secrets marked undefined\n");
    return 0;
}
