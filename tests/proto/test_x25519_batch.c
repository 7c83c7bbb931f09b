/* test_x25519_batch.c — proto.x25519_batch.<backend>: ecopt_x25519_batch and ecopt_x25519_base_batch against single calls and
 * libsodium, on the backend ECOPT_BACKEND names (every backend: those without batch code loop over their single
 * calls, ifma and ifma_emu run eight ladders in the vector lanes; ifma is a skip where the CPU lacks it).
 *
 * Usage: test_x25519_batch [--seed N]
 * Cases:
 *   random         n = 0..20, 63, 64, 65, 100 keys of random bit density (u with the top bit set, u >= p and twist
 *                  points occur): every output and status equal to single ecopt_x25519 calls and to libsodium's
 *                  crypto_scalarmult (the independent oracle); the return code; nothing written past key n - 1;
 *                  status NULL gives the same; the base batch against ecopt_x25519_base and
 *                  crypto_scalarmult_base; n = 0 with NULL pointers returns ECOPT_OK
 *   rfc7748        section 5.2's two vectors at every lane position of a 9-key batch; section 6.1's public keys
 *                  by the base batch and by the batch with u = 9, the shared secret both ways (vectors read in
 *                  place from ../shared/vectors)
 *   wycheproof     wycheproof/x25519_test.json, all 518 cases as one batch: valid equal; all-zero expected output
 *                  -> status ECOPT_ERR_SMALL_ORDER and zero bytes; acceptable either equal or rejected with zeros;
 *                  the return code ECOPT_ERR_SMALL_ORDER (some outputs are zero), with status NULL too
 *   small_order    u = 0, 1, p (0 mod p) and p + 1 (1 mod p) each at every position of a 17-key batch among random
 *                  keys: that key alone fails, the others equal their single calls
 *   alias          out == scalars and out == u (batch), pub == scalars (base batch), for 13 keys
 * Prints its seed; a failure prints the key's hex. */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ecopt/ecopt.h"
#include "testutil.h"
#include "tu_backend.h"

static int (*batch)(uint8_t *, const uint8_t *, const uint8_t *, size_t, int *);
static int (*base_batch)(uint8_t *, const uint8_t *, size_t);
static const char *label = "";

#define GUARD 64 /* bytes after the n keys of an output that must stay untouched */
#define GUARD_BYTE 0xa5

/* Compares key i of a batch's output and status with one ecopt_x25519 and one crypto_scalarmult call. */
static int check_key(size_t n, size_t i, const uint8_t *out, const int *status, const uint8_t *k, const uint8_t *u) {
    uint8_t want[32], sod[32];
    int rc = ecopt_x25519(want, k, u);
    int src = crypto_scalarmult(sod, k, u); /* -1 exactly for an all-zero output */
    int good = memcmp(out, want, 32) == 0 && memcmp(out, sod, 32) == 0 && status[i] == rc &&
               (rc == ECOPT_OK) == (src == 0);
    if (!good) {
        tu_fail("%s: n = %zu key %zu: status %d, single %d, libsodium %d", label, n, i, status[i], rc, src);
        tu_hex_print("scalar", k, 32);
        tu_hex_print("u", u, 32);
        tu_hex_print("batch", out, 32);
        tu_hex_print("single", want, 32);
        tu_hex_print("libsodium", sod, 32);
    }
    return good;
}

/* The batch on n keys, every key checked; returns the number of keys that failed the all-zero check. */
static size_t run_batch_checked(size_t n, const uint8_t *k, const uint8_t *u) {
    uint8_t *out = malloc(32 * n + GUARD);
    int *status = malloc(sizeof(int) * (n + 1));
    memset(out, GUARD_BYTE, 32 * n + GUARD);
    for (size_t i = 0; i <= n; i++) status[i] = 12345;
    int rc = batch(out, k, u, n, status);
    size_t nbad = 0;
    for (size_t i = 0; i < n; i++) {
        check_key(n, i, out + 32 * i, status, k + 32 * i, u + 32 * i);
        nbad += status[i] != ECOPT_OK;
    }
    if (rc != (nbad ? ECOPT_ERR_SMALL_ORDER : ECOPT_OK))
        tu_fail("%s: n = %zu: returned %d with %zu keys failing", label, n, rc, nbad);
    for (size_t i = 0; i < GUARD; i++)
        if (out[32 * n + i] != GUARD_BYTE) {
            tu_fail("%s: n = %zu: byte %zu past the last key written", label, n, i);
            break;
        }
    if (status[n] != 12345) tu_fail("%s: n = %zu: status[n] written", label, n);
    /* status NULL: the same outputs and return code. */
    uint8_t *out2 = malloc(32 * n + 1);
    int rc2 = batch(out2, k, u, n, NULL);
    if (rc2 != rc || memcmp(out2, out, 32 * n) != 0) tu_fail("%s: n = %zu: status NULL changes the result", label, n);
    free(out2);
    free(out);
    free(status);
    return nbad;
}

static void run_random(tu_rng *r) {
    static const size_t sizes[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,
                                   14, 15, 16, 17, 18, 19, 20, 63, 64, 65, 100};
    label = "random";
    for (size_t s = 0; s < TU_ARRAY_LEN(sizes); s++) {
        size_t n = sizes[s];
        uint8_t *k = malloc(32 * n + 1), *u = malloc(32 * n + 1);
        tu_rng_bytes_density(r, k, 32 * n);
        tu_rng_bytes_density(r, u, 32 * n);
        run_batch_checked(n, k, u);
        /* The base batch. */
        uint8_t *pub = malloc(32 * n + GUARD);
        memset(pub, GUARD_BYTE, 32 * n + GUARD);
        int rc = base_batch(pub, k, n);
        if (rc != ECOPT_OK) tu_fail("base batch: n = %zu: returned %d", n, rc);
        for (size_t i = 0; i < n; i++) {
            uint8_t want[32], sod[32];
            int rc1 = ecopt_x25519_base(want, k + 32 * i);
            crypto_scalarmult_base(sod, k + 32 * i);
            if (rc1 != ECOPT_OK || memcmp(pub + 32 * i, want, 32) || memcmp(pub + 32 * i, sod, 32)) {
                tu_fail("base batch: n = %zu key %zu differs", n, i);
                tu_hex_print("scalar", k + 32 * i, 32);
                tu_hex_print("batch", pub + 32 * i, 32);
                tu_hex_print("libsodium", sod, 32);
            }
        }
        for (size_t i = 0; i < GUARD; i++)
            if (pub[32 * n + i] != GUARD_BYTE) {
                tu_fail("base batch: n = %zu: byte %zu past the last key written", n, i);
                break;
            }
        free(pub);
        free(k);
        free(u);
    }
    if (batch(NULL, NULL, NULL, 0, NULL) != ECOPT_OK) tu_fail("n = 0 with NULL pointers: not ECOPT_OK");
    if (base_batch(NULL, NULL, 0) != ECOPT_OK) tu_fail("base batch n = 0 with NULL pointers: not ECOPT_OK");
    /* n > 0 with a NULL buffer: ECOPT_ERR_LENGTH on every backend, nothing written (the status array kept) */
    {
        uint8_t k3[96] = {1}, u3[96] = {9}, o3[96];
        int st3[3] = {11, 11, 11};
        if (batch(o3, k3, NULL, 3, st3) != ECOPT_ERR_LENGTH) tu_fail("u NULL with n = 3: not ECOPT_ERR_LENGTH");
        if (batch(o3, NULL, u3, 3, st3) != ECOPT_ERR_LENGTH) tu_fail("scalars NULL with n = 3: not ECOPT_ERR_LENGTH");
        if (batch(NULL, k3, u3, 3, st3) != ECOPT_ERR_LENGTH) tu_fail("out NULL with n = 3: not ECOPT_ERR_LENGTH");
        if (st3[0] != 11 || st3[2] != 11) tu_fail("status written on ECOPT_ERR_LENGTH");
        if (base_batch(NULL, k3, 3) != ECOPT_ERR_LENGTH) tu_fail("base batch pub NULL: not ECOPT_ERR_LENGTH");
        if (base_batch(o3, NULL, 3) != ECOPT_ERR_LENGTH) tu_fail("base batch scalars NULL: not ECOPT_ERR_LENGTH");
    }
    printf("random: n = 0..20, 63, 64, 65, 100 checked against single calls and libsodium\n");
}

static void run_rfc7748(void) {
    cJSON *j = tu_load_json(tu_vector_path("rfc7748/rfc7748_x25519.json"));
    cJSON *c;
    uint8_t vk[2][32], vu[2][32], vw[2][32];
    int nv = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "scalar_multiplication")) {
        if (nv == 2) break;
        tu_json_hex_fixed(vk[nv], 32, c, "scalar");
        tu_json_hex_fixed(vu[nv], 32, c, "u");
        tu_json_hex_fixed(vw[nv], 32, c, "output");
        nv++;
    }
    if (nv != 2) tu_fail("rfc7748: expected 2 scalar multiplication vectors, found %d", nv);
    /* Vector v at lane position p of a 9-key batch (the others hold the other vector): every lane and the tail. */
    int ok = 0, n = 0;
    for (int v = 0; v < nv; v++)
        for (size_t p = 0; p < 9; p++) {
            uint8_t k[9 * 32], u[9 * 32], out[9 * 32];
            int st[9];
            for (size_t i = 0; i < 9; i++) {
                int w = i == p ? v : 1 - v;
                memcpy(k + 32 * i, vk[w], 32);
                memcpy(u + 32 * i, vu[w], 32);
            }
            int rc = batch(out, k, u, 9, st);
            int good = rc == ECOPT_OK;
            for (size_t i = 0; i < 9; i++) good &= st[i] == ECOPT_OK && !memcmp(out + 32 * i, vw[i == p ? v : 1 - v], 32);
            if (!good) tu_fail("rfc7748 5.2: vector %d at position %zu: wrong", v, p);
            n++, ok += good;
        }
    cJSON *dh = cJSON_GetObjectItem(j, "diffie_hellman");
    uint8_t priv[2 * 32], pubs[2 * 32], ss[32], got[2 * 32], nine[2 * 32] = {9}, peer[2 * 32];
    int st[2];
    nine[32] = 9;
    tu_json_hex_fixed(priv, 32, dh, "alice_private");
    tu_json_hex_fixed(pubs, 32, dh, "alice_public");
    tu_json_hex_fixed(priv + 32, 32, dh, "bob_private");
    tu_json_hex_fixed(pubs + 32, 32, dh, "bob_public");
    tu_json_hex_fixed(ss, 32, dh, "shared_secret");
    int good = base_batch(got, priv, 2) == ECOPT_OK && !tu_expect_bytes("6.1 public keys (base batch)", got, pubs, 64);
    n++, ok += good;
    good = batch(got, priv, nine, 2, st) == ECOPT_OK && !tu_expect_bytes("6.1 public keys (u = 9)", got, pubs, 64);
    n++, ok += good;
    memcpy(peer, pubs + 32, 32);
    memcpy(peer + 32, pubs, 32);
    good = batch(got, priv, peer, 2, st) == ECOPT_OK && !tu_expect_bytes("6.1 shared (alice)", got, ss, 32) &&
           !tu_expect_bytes("6.1 shared (bob)", got + 32, ss, 32);
    n++, ok += good;
    printf("rfc7748_x25519.json through the batch: %d/%d passed (5.2 at every position of 9, 6.1)\n", ok, n);
    if (ok != n) tu_fail("rfc7748: %d of %d failed", n - ok, n);
    cJSON_Delete(j);
}

static void run_wycheproof(void) {
    cJSON *j = tu_load_json(tu_vector_path("wycheproof/x25519_test.json"));
    cJSON *g, *t;
    size_t n = 0, cap = 600;
    uint8_t *k = malloc(32 * cap), *u = malloc(32 * cap), *want = malloc(32 * cap), *out = malloc(32 * cap);
    char *res = malloc(cap);
    int *tc = malloc(sizeof(int) * cap), *st = malloc(sizeof(int) * cap);
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(j, "testGroups")) {
        cJSON_ArrayForEach(t, cJSON_GetObjectItem(g, "tests")) {
            if (n == cap) tu_fail("x25519_test.json: more than %zu cases", cap), exit(1);
            tu_json_hex_fixed(u + 32 * n, 32, t, "public");
            tu_json_hex_fixed(k + 32 * n, 32, t, "private");
            tu_json_hex_fixed(want + 32 * n, 32, t, "shared");
            res[n] = tu_json_str(t, "result")[0]; /* 'v'alid, 'a'cceptable, 'i'nvalid */
            tc[n] = (int)cJSON_GetObjectItem(t, "tcId")->valuedouble;
            n++;
        }
    }
    if (n != 518) tu_fail("x25519_test.json: expected 518 cases, read %zu", n);
    static const uint8_t zero[32];
    memset(out, 0xaa, 32 * n);
    int rc = batch(out, k, u, n, st);
    size_t ok = 0, nzero = 0, nfail = 0;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *o = out + 32 * i, *w = want + 32 * i;
        int good;
        if (memcmp(w, zero, 32) == 0) {
            nzero++;
            good = st[i] == ECOPT_ERR_SMALL_ORDER && memcmp(o, zero, 32) == 0;
        } else if (res[i] == 'v') {
            good = st[i] == ECOPT_OK && memcmp(o, w, 32) == 0;
        } else if (res[i] == 'a') {
            good = st[i] == ECOPT_OK ? memcmp(o, w, 32) == 0 : memcmp(o, zero, 32) == 0;
        } else {
            good = st[i] != ECOPT_OK;
        }
        nfail += st[i] != ECOPT_OK;
        if (!good) {
            tu_fail("wycheproof tcId %d (%c): status %d", tc[i], res[i], st[i]);
            tu_hex_print("private", k + 32 * i, 32);
            tu_hex_print("public", u + 32 * i, 32);
            tu_hex_print("got", o, 32);
            tu_hex_print("shared", w, 32);
        }
        ok += good;
    }
    if (nzero == 0 || rc != ECOPT_ERR_SMALL_ORDER) tu_fail("wycheproof: returned %d with %zu failing keys", rc, nfail);
    uint8_t *out2 = malloc(32 * n);
    if (batch(out2, k, u, n, NULL) != rc || memcmp(out2, out, 32 * n) != 0)
        tu_fail("wycheproof: status NULL changes the result");
    printf("x25519_test.json as one batch of %zu: %zu passed (%zu all-zero outputs gave ECOPT_ERR_SMALL_ORDER)\n", n,
           ok, nzero);
    free(out2), free(k), free(u), free(want), free(out), free(res), free(tc), free(st);
    cJSON_Delete(j);
}

static void run_small_order(tu_rng *r) {
    /* u values whose output is all zero: 0, 1, p (0 mod p), p + 1 (1 mod p). */
    uint8_t bad[4][32] = {{0}, {1}, {0}, {0}};
    memset(bad[2], 0xff, 32);
    bad[2][0] = 0xed, bad[2][31] = 0x7f;
    memcpy(bad[3], bad[2], 32);
    bad[3][0] = 0xee;
    enum { N = 17 };
    label = "small_order";
    size_t ok = 0, total = 0;
    for (int b = 0; b < 4; b++)
        for (size_t p = 0; p < N; p++) {
            uint8_t k[N * 32], u[N * 32];
            tu_rng_bytes(r, k, sizeof k);
            tu_rng_bytes(r, u, sizeof u);
            memcpy(u + 32 * p, bad[b], 32);
            size_t nbad = run_batch_checked(N, k, u);
            total++;
            ok += nbad == 1;
            if (nbad != 1) tu_fail("small_order: u #%d at position %zu: %zu keys failed, want 1", b, p, nbad);
        }
    printf("small_order: 4 all-zero-output u values at each of %d positions: %zu/%zu batches right\n", N, ok, total);
}

static void run_alias(tu_rng *r) {
    enum { N = 13 };
    uint8_t k[N * 32], u[N * 32], want[N * 32], buf[N * 32];
    int st[N], st2[N];
    tu_rng_bytes(r, k, sizeof k);
    tu_rng_bytes(r, u, sizeof u);
    int rc = batch(want, k, u, N, st);
    memcpy(buf, k, sizeof buf);
    int rc2 = batch(buf, buf, u, N, st2);
    if (rc2 != rc || memcmp(buf, want, sizeof buf) || memcmp(st, st2, sizeof st)) tu_fail("alias: out == scalars differs");
    memcpy(buf, u, sizeof buf);
    rc2 = batch(buf, k, buf, N, st2);
    if (rc2 != rc || memcmp(buf, want, sizeof buf) || memcmp(st, st2, sizeof st)) tu_fail("alias: out == u differs");
    if (base_batch(want, k, N) != ECOPT_OK) tu_fail("alias: base batch failed");
    memcpy(buf, k, sizeof buf);
    if (base_batch(buf, buf, N) != ECOPT_OK || memcmp(buf, want, sizeof buf)) tu_fail("alias: pub == scalars differs");
    printf("alias: out == scalars, out == u, pub == scalars\n");
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 1);
    if (o.argc != 0) {
        fprintf(stderr, "usage: test_x25519_batch [--seed N] [--iters N] (ECOPT_BACKEND names the backend)\n");
        return 2;
    }
    if (sodium_init() < 0) tu_fail("sodium_init failed"), exit(1);
    tu_check_library_backend();
    batch = ecopt_x25519_batch;
    base_batch = ecopt_x25519_base_batch;
    tu_rng r;
    tu_rng_seed(&r, o.seed);
    run_random(&r);
    run_rfc7748();
    run_wycheproof();
    run_small_order(&r);
    run_alias(&r);
    return tu_finish("test_x25519_batch");
}
