/* test_batch.c — proto.batch.<backend>: ecopt_ed25519_verify_batch against single verification, item by item,
 * under STRICT (ecopt_ed25519_verify) and ZIP-215 (ecopt_ed25519_verify_zip215).
 *
 * The pool of items (signature, message, public key):
 *   - every pure Ed25519 vector of RFC 8032 section 7.1 and every 64-byte-signature case of Wycheproof's
 *     ed25519_test.json (../shared/vectors, read in place);
 *   - valid signatures of random keys over random messages (0..100 bytes), and each with one bit flipped in R, in
 *     S, in the message or in A, and with S + l (S >= l);
 *   - built with the GMP reference so that the cofactored equation holds: A each of the 14 encodings of the 8
 *     small-order points (canonical and not) with R = [r]B, S = r; R each of them with an honest A, S = k a;
 *     mixed-order A + T signed with A's secret over the bytes of A + T; mixed-order R = [r]B + T, S = r + k a
 *     (these are accepted by the cofactored equation and refused by the cofactorless one: a batch without the
 *     factor 8 or with the torsion parts of A and R handled differently would disagree);
 *   - random 32-byte keys and random signatures (mostly not on the curve);
 *   - cancelling pairs: two valid items with S_1 + d and S_2 - d, whose errors cancel in an unweighted sum.
 * The expected answer of each item is the single verification's on the same backend. Batches: the whole pool; the
 * vectors alone; for n = 0..40, 48, 64, 100, 129, 256 (and 512, 777, 1000, 1024 with the argument big; only
 * n = 0..20, 33, 64 with the argument quick, for the emulated backend under the sanitizers): all
 * valid, valid with one, two or a few invalid ones at random places, a cancelling pair among valid ones, random
 * draws from the whole pool, one item repeated n times (valid and invalid). Each call's results must equal the
 * single answers and its return value the first non-OK one (or OK).
 * Also: n = 0 with NULL arrays, an unknown policy (ECOPT_ERR_UNSUPPORTED for every item), and with the argument
 * "rngfail" (getrandom made to fail by a preload library): single verification's verdict for every item that
 * fails a per-item rule or sits in a group settled by single checks, ECOPT_ERR_RNG (never ECOPT_OK) for exactly
 * the others (rng_fail_checks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <gmp.h>

#include "ecopt/ecopt.h"
#include "ref25519.h"
#include "testutil.h"
#include "tu_backend.h"

typedef struct item {
    uint8_t sig[64], pub[32];
    uint8_t *msg;
    size_t msglen;
    int want[2]; /* single verification: [0] STRICT, [1] ZIP-215 */
} item;


/* The most survivors of a group the batch settles by single checks, without randomness: 2, or the whole group of
 * 16 on the ifma backends, whose single equation is faster than their multiscalar one (ed25519_batch_core.c). */
static size_t batch_single_max(void) {
    const char *be = getenv("ECOPT_BACKEND");
    return be && strncmp(be, "ifma", 4) == 0 ? 16 : 2;
}

static item *pool;
static size_t npool, cap;
static long n_checks, n_calls;

static item *add_item(const uint8_t sig[64], const uint8_t *msg, size_t msglen, const uint8_t pub[32]) {
    if (npool == cap) {
        cap = cap ? 2 * cap : 256;
        pool = realloc(pool, cap * sizeof *pool);
        if (!pool) exit(1);
    }
    item *it = &pool[npool++];
    memcpy(it->sig, sig, 64);
    memcpy(it->pub, pub, 32);
    it->msg = malloc(msglen + 1);
    if (!it->msg) exit(1);
    if (msglen) memcpy(it->msg, msg, msglen);
    it->msglen = msglen;
    it->want[0] = ecopt_ed25519_verify(sig, msg, msglen, pub);
    it->want[1] = ecopt_ed25519_verify_zip215(sig, msg, msglen, pub);
    return it;
}

static void load_vectors(void) {
    cJSON *j = tu_load_json(tu_vector_path("rfc8032/rfc8032_ed25519.json"));
    cJSON *c, *g, *t;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "vectors")) {
        if (strcmp(tu_json_str(c, "algorithm"), "Ed25519") != 0) continue;
        uint8_t pub[32], sig[64];
        tu_json_hex_fixed(pub, 32, c, "public_key");
        tu_json_hex_fixed(sig, 64, c, "signature");
        size_t msglen;
        uint8_t *msg = tu_hex_alloc(tu_json_str(c, "message"), &msglen);
        item *it = add_item(sig, msg, msglen, pub);
        if (it->want[0] != ECOPT_OK)
            tu_fail("RFC 8032 vector %s refused by single verification", tu_json_str(c, "name"));
        free(msg);
    }
    cJSON_Delete(j);
    j = tu_load_json(tu_vector_path("wycheproof/ed25519_test.json"));
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(j, "testGroups")) {
        uint8_t pk[32];
        tu_json_hex_fixed(pk, 32, cJSON_GetObjectItem(g, "publicKey"), "pk");
        cJSON_ArrayForEach(t, cJSON_GetObjectItem(g, "tests")) {
            size_t msglen, siglen;
            uint8_t *msg = tu_hex_alloc(tu_json_str(t, "msg"), &msglen);
            uint8_t *sig = tu_hex_alloc(tu_json_str(t, "sig"), &siglen);
            if (siglen == 64) add_item(sig, msg, msglen, pk);
            free(msg);
            free(sig);
        }
    }
    cJSON_Delete(j);
}

/* S = r + k a mod l over R, A and msg: sig = R || S. */
static void finish_sig(uint8_t sig[64], const uint8_t R[32], const mpz_t r, const mpz_t a, const uint8_t A[32],
                       const uint8_t *msg, size_t msglen) {
    mpz_t k, S;
    mpz_inits(k, S, NULL);
    memcpy(sig, R, 32);
    ref_ed25519_challenge(k, REF_ED25519, NULL, 0, R, A, msg, msglen);
    mpz_mul(S, k, a);
    mpz_add(S, S, r);
    mpz_mod(S, S, ref_l);
    ref_to_le(sig + 32, 32, S);
    mpz_clears(k, S, NULL);
}

/* The encodings of the small-order points: canonical, y + p below 2^255, and the sign bit set where x = 0. */
static int torsion_encodings(uint8_t enc[][32], const ref_pt T[8]) {
    int n = 0;
    mpz_t y;
    mpz_init(y);
    for (int i = 0; i < 8; i++) {
        int xzero = mpz_sgn(T[i].x) == 0;
        ref_pt_encode(enc[n++], &T[i]);
        if (xzero) {
            ref_pt_encode(enc[n], &T[i]);
            enc[n++][31] |= 0x80;
        }
        mpz_add(y, T[i].y, ref_p);
        if (mpz_cmp(y, ref_2_255) < 0) {
            ref_to_le(enc[n], 32, y);
            if (mpz_odd_p(T[i].x)) enc[n][31] |= 0x80;
            n++;
            if (xzero) {
                ref_to_le(enc[n], 32, y);
                enc[n++][31] |= 0x80;
            }
        }
    }
    mpz_clear(y);
    return n;
}

static size_t nvalid_first, nvalid_end; /* pool[nvalid_first..nvalid_end): the valid random signatures */
static size_t cancel_first, ncancel;    /* pool[cancel_first + 2 j], [.. + 1]: a cancelling pair */

static void build_pool(tu_rng *rng, int nvalid) {
    ref_pt T[8], P, B;
    for (int i = 0; i < 8; i++) ref_pt_init(&T[i]);
    ref_pt_init(&P), ref_pt_init(&B);
    ref_torsion_points(T);
    ref_pt_base(&B);
    uint8_t tenc[16][32];
    int ntor = torsion_encodings(tenc, T);
    mpz_t a, r, l8;
    mpz_inits(a, r, l8, NULL);

    nvalid_first = npool;
    uint8_t seeds[64][32], pubs[64][32];
    for (int i = 0; i < 64; i++) tu_rng_bytes(rng, seeds[i], 32);
    for (int i = 0; i < nvalid; i++) {
        ecopt_ed25519_secretkey sk;
        uint8_t msg[100], sig[64];
        size_t msglen = tu_rng_below(rng, 101);
        tu_rng_bytes(rng, msg, msglen);
        if (ecopt_ed25519_keypair_from_seed(&sk, pubs[i % 64], seeds[i % 64]) != ECOPT_OK ||
            ecopt_ed25519_sign(sig, msg, msglen, &sk) != ECOPT_OK)
            tu_fail("keypair or sign failed");
        item *it = add_item(sig, msg, msglen, pubs[i % 64]);
        if (it->want[0] != ECOPT_OK) tu_fail("a fresh signature was refused by single verification");
    }
    nvalid_end = npool;
    /* each valid one broken: a bit flipped in R, S, msg or A; S + l */
    for (size_t v = nvalid_first; v < nvalid_end; v++) {
        item base = pool[v];
        uint8_t sig[64], pub[32], *msg = malloc(base.msglen + 1);
        for (int kind = 0; kind < 5; kind++) {
            memcpy(sig, base.sig, 64);
            memcpy(pub, base.pub, 32);
            memcpy(msg, base.msg, base.msglen + 1);
            if (kind == 0) sig[tu_rng_below(rng, 32)] ^= (uint8_t)(1u << tu_rng_below(rng, 8));
            if (kind == 1) sig[32 + tu_rng_below(rng, 32)] ^= (uint8_t)(1u << tu_rng_below(rng, 8));
            if (kind == 2) {
                if (base.msglen == 0) continue;
                msg[tu_rng_below(rng, base.msglen)] ^= (uint8_t)(1u << tu_rng_below(rng, 8));
            }
            if (kind == 3) pub[tu_rng_below(rng, 32)] ^= (uint8_t)(1u << tu_rng_below(rng, 8));
            if (kind == 4) {
                mpz_t S;
                mpz_init(S);
                ref_from_le(S, sig + 32, 32);
                mpz_add(S, S, ref_l);
                ref_to_le(sig + 32, 32, S);
                mpz_clear(S);
            }
            add_item(sig, msg, base.msglen, pub);
        }
        free(msg);
    }
    /* cancelling pairs: S_1 + d, S_2 - d (mod l) for valid items 1, 2 and a random d: [S_1 + d] B - R_1 - [k_1] A_1
     * = [d] B and the other's error is [-d] B */
    cancel_first = npool;
    for (size_t v = nvalid_first; v + 1 < nvalid_end; v += 2) {
        uint8_t s1[64], s2[64], db[32];
        item i1 = pool[v], i2 = pool[v + 1];
        mpz_t S, d;
        mpz_inits(S, d, NULL);
        tu_rng_bytes(rng, db, 32);
        ref_from_le(d, db, 32);
        mpz_mod(d, d, ref_l);
        memcpy(s1, i1.sig, 64), memcpy(s2, i2.sig, 64);
        ref_from_le(S, s1 + 32, 32), mpz_add(S, S, d), mpz_mod(S, S, ref_l), ref_to_le(s1 + 32, 32, S);
        ref_from_le(S, s2 + 32, 32), mpz_sub(S, S, d), mpz_mod(S, S, ref_l), ref_to_le(s2 + 32, 32, S);
        add_item(s1, i1.msg, i1.msglen, i1.pub);
        add_item(s2, i2.msg, i2.msglen, i2.pub);
        mpz_clears(S, d, NULL);
        ncancel++;
    }
    /* small-order and mixed-order A and R with the cofactored equation holding */
    for (int t = 0; t < ntor; t++) {
        uint8_t msg[32], sig[64], R[32], A[32];
        size_t msglen = tu_rng_below(rng, 33);
        tu_rng_bytes(rng, msg, msglen);
        uint8_t rb[64];
        tu_rng_bytes(rng, rb, 64);
        ref_from_le(r, rb, 64);
        mpz_mod(r, r, ref_l);
        ref_pt_mul(&P, r, &B);
        ref_pt_encode(R, &P);
        /* A small order: S = r */
        mpz_set_ui(a, 0);
        finish_sig(sig, R, r, a, tenc[t], msg, msglen);
        add_item(sig, msg, msglen, tenc[t]);
        /* R small order, A honest: S = k a */
        uint8_t prefix[32], seed[32];
        tu_rng_bytes(rng, seed, 32);
        ref_ed25519_expand(a, prefix, A, seed);
        mpz_set_ui(r, 0);
        finish_sig(sig, tenc[t], r, a, A, msg, msglen);
        add_item(sig, msg, msglen, A);
    }
    for (int t = 1; t < 8; t++) {
        uint8_t msg[32], sig[64], R[32], A[32], At[32], prefix[32], seed[32], rb[64];
        size_t msglen = tu_rng_below(rng, 33);
        tu_rng_bytes(rng, msg, msglen);
        tu_rng_bytes(rng, seed, 32);
        ref_ed25519_expand(a, prefix, A, seed);
        tu_rng_bytes(rng, rb, 64);
        ref_from_le(r, rb, 64);
        mpz_mod(r, r, ref_l);
        ref_pt_mul(&P, r, &B);
        ref_pt_encode(R, &P);
        /* mixed A' = A + T, signed with a over A' */
        ref_pt Ap;
        ref_pt_init(&Ap);
        ref_pt_mul(&Ap, a, &B);
        ref_pt_add(&Ap, &Ap, &T[t]);
        ref_pt_encode(At, &Ap);
        finish_sig(sig, R, r, a, At, msg, msglen);
        add_item(sig, msg, msglen, At);
        /* mixed R' = [r]B + T */
        ref_pt_add(&P, &P, &T[t]);
        ref_pt_encode(R, &P);
        finish_sig(sig, R, r, a, A, msg, msglen);
        add_item(sig, msg, msglen, A);
        ref_pt_clear(&Ap);
    }
    /* random keys and signatures */
    for (int i = 0; i < 40; i++) {
        uint8_t sig[64], pub[32], msg[8];
        tu_rng_bytes_density(rng, sig, 64);
        tu_rng_bytes_density(rng, pub, 32);
        tu_rng_bytes(rng, msg, 8);
        if (i % 2) memcpy(pub, pool[nvalid_first + (size_t)i % (nvalid_end - nvalid_first)].pub, 32);
        add_item(sig, msg, 8, pub);
    }
    for (int i = 0; i < 8; i++) ref_pt_clear(&T[i]);
    ref_pt_clear(&P), ref_pt_clear(&B);
    mpz_clears(a, r, l8, NULL);
}

/* One call on the items idx[0..n) under policy pol (0 STRICT, 1 ZIP-215), checked item by item. */
static void run_batch(const size_t *idx, size_t n, int pol, const char *what) {
    uint8_t *sigs = calloc(64 * n + 1, 1), *pubs = calloc(32 * n + 1, 1);
    const uint8_t **msgs = calloc(n + 1, sizeof(*msgs));
    size_t *lens = calloc(n + 1, sizeof(size_t));
    int *res = calloc(n + 1, sizeof(int));
    if (!sigs || !pubs || !msgs || !lens || !res) exit(1);
    for (size_t t = 0; t < n; t++) {
        const item *it = &pool[idx[t]];
        memcpy(sigs + 64 * t, it->sig, 64);
        memcpy(pubs + 32 * t, it->pub, 32);
        msgs[t] = it->msglen ? it->msg : NULL;
        lens[t] = it->msglen;
        res[t] = 12345;
    }
    int rc =
        ecopt_ed25519_verify_batch(res, sigs, msgs, lens, pubs, n, pol ? ECOPT_VERIFY_ZIP215 : ECOPT_VERIFY_STRICT);
    n_calls++;
    int first = ECOPT_OK, bad = 0;
    for (size_t t = 0; t < n; t++) {
        const item *it = &pool[idx[t]];
        n_checks++;
        if (first == ECOPT_OK) first = it->want[pol];
        if (res[t] != it->want[pol]) {
            if (bad++ < 3) {
                tu_fail("%s (%s, n = %zu): item %zu: batch %d (%s), single %d (%s)", what, pol ? "ZIP-215" : "STRICT",
                        n, t, res[t], ecopt_strerror(res[t]), it->want[pol], ecopt_strerror(it->want[pol]));
                tu_hex_print("pub", it->pub, 32);
                tu_hex_print("sig", it->sig, 64);
                tu_hex_print("msg", it->msg, it->msglen);
            }
        }
    }
    n_checks++;
    if (rc != first) tu_fail("%s (n = %zu): returned %d, the first item's verdict is %d", what, n, rc, first);
    free(sigs), free(pubs), free(msgs), free(lens), free(res);
}

static int is_valid(size_t i, int pol) {
    return pool[i].want[pol] == ECOPT_OK;
}

static size_t pick_invalid(tu_rng *rng, int pol) {
    for (;;) {
        size_t i = tu_rng_below(rng, npool);
        if (!is_valid(i, pol)) return i;
    }
}

static size_t pick_valid(tu_rng *rng, int pol) {
    for (;;) {
        size_t i = tu_rng_below(rng, npool);
        if (is_valid(i, pol)) return i;
    }
}

static void run_sizes(tu_rng *rng, const size_t *sizes, size_t nsizes) {
    for (int pol = 0; pol < 2; pol++)
        for (size_t s = 0; s < nsizes; s++) {
            size_t n = sizes[s];
            size_t *idx = malloc(sizeof(size_t) * n + 1);
            /* all valid */
            for (size_t t = 0; t < n; t++) idx[t] = pick_valid(rng, pol);
            run_batch(idx, n, pol, "all valid");
            /* a few invalid at random places */
            for (size_t bad = 1; bad <= 4 && bad <= n; bad *= 2) {
                for (size_t t = 0; t < n; t++) idx[t] = pick_valid(rng, pol);
                for (size_t b = 0; b < bad; b++) idx[tu_rng_below(rng, n)] = pick_invalid(rng, pol);
                run_batch(idx, n, pol, "valid with a few invalid");
            }
            /* random draws from the whole pool */
            for (size_t t = 0; t < n; t++) idx[t] = tu_rng_below(rng, npool);
            run_batch(idx, n, pol, "random mix");
            /* one item repeated */
            if (n > 1) {
                size_t v = pick_valid(rng, pol), w = pick_invalid(rng, pol);
                for (size_t t = 0; t < n; t++) idx[t] = v;
                run_batch(idx, n, pol, "one valid item repeated");
                for (size_t t = 0; t < n; t++) idx[t] = w;
                run_batch(idx, n, pol, "one invalid item repeated");
            }
            /* cancelling pairs: S + d and S' - d on two valid items, whose errors cancel when the coefficients
             * are equal (a batch without random coefficients accepts both) */
            if (n >= 2) {
                for (size_t t = 0; t < n; t++) idx[t] = pick_valid(rng, pol);
                size_t a = tu_rng_below(rng, n), b = (a + 1 + tu_rng_below(rng, n - 1)) % n;
                idx[a] = cancel_first + 2 * tu_rng_below(rng, ncancel);
                idx[b] = idx[a] + 1;
                run_batch(idx, n, pol, "a cancelling pair");
            }
            free(idx);
        }
}

/* getrandom fails (the preload library): randomness is drawn only for a group of 16 with more than 2 items passing
 * the per-item rules, and then exactly those items get ECOPT_ERR_RNG; every other item gets single verification's
 * code. Patterns (v valid, x S >= l): all x (n = 1, 3, 20: no getrandom at all), v v x, v x v v x v v,
 * 16 x then v v v (the first group keeps its verdicts, the second is RNG), and all v (n = 3, 17). */
static void rng_fail_checks(tu_rng *rng) {
    static const char *const patterns[] = {"x", "xxx", "xxxxxxxxxxxxxxxxxxxx", "vvx", "vxvvxvv",
                                           "xxxxxxxxxxxxxxxxvvv", "vvv", "vvvvvvvvvvvvvvvvv", "xvv"};
    uint8_t sigs[32 * 64], pubs[32 * 32], msg[8];
    const uint8_t *msgs[32];
    size_t lens[32];
    int res[32], want[32];
    for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
        size_t n = strlen(patterns[p]);
        for (size_t i = 0; i < n; i++) {
            ecopt_ed25519_secretkey sk;
            uint8_t seed[32];
            tu_rng_bytes(rng, seed, 32);
            tu_rng_bytes(rng, msg, sizeof msg);
            if (ecopt_ed25519_keypair_from_seed(&sk, pubs + 32 * i, seed) != ECOPT_OK ||
                ecopt_ed25519_sign(sigs + 64 * i, msg, sizeof msg, &sk) != ECOPT_OK)
                tu_fail("keypair or sign failed");
            if (patterns[p][i] == 'x') sigs[64 * i + 63] |= 0xf0; /* S >= 2^255 > l */
            msgs[i] = malloc(sizeof msg);
            memcpy((uint8_t *)msgs[i], msg, sizeof msg);
            lens[i] = sizeof msg;
        }
        for (int pol = 0; pol < 2; pol++) {
            for (size_t g = 0; g < n; g += 16) {
                size_t m = n - g < 16 ? n - g : 16, surv = 0;
                for (size_t i = g; i < g + m; i++) {
                    want[i] = pol ? ecopt_ed25519_verify_zip215(sigs + 64 * i, msgs[i], lens[i], pubs + 32 * i)
                                  : ecopt_ed25519_verify(sigs + 64 * i, msgs[i], lens[i], pubs + 32 * i);
                    if ((want[i] == ECOPT_OK) != (patterns[p][i] == 'v'))
                        tu_fail("pattern %s item %zu: single verification returned %d", patterns[p], i, want[i]);
                    surv += want[i] == ECOPT_OK;
                }
                if (surv > batch_single_max())
                    for (size_t i = g; i < g + m; i++)
                        if (want[i] == ECOPT_OK) want[i] = ECOPT_ERR_RNG;
            }
            int want_rc = ECOPT_OK;
            for (size_t i = n; i-- > 0;)
                if (want[i] != ECOPT_OK) want_rc = want[i];
            int rc = ecopt_ed25519_verify_batch(res, sigs, msgs, lens, pubs, n, pol);
            n_checks++;
            if (rc != want_rc) tu_fail("getrandom failing, pattern %s, policy %d: returned %d, want %d", patterns[p],
                                       pol, rc, want_rc);
            for (size_t i = 0; i < n; i++)
                if (res[i] != want[i])
                    tu_fail("getrandom failing, pattern %s, policy %d: item %zu is %d (%s), want %d (%s)",
                            patterns[p], pol, i, res[i], ecopt_strerror(res[i]), want[i], ecopt_strerror(want[i]));
        }
        for (size_t i = 0; i < n; i++) free((void *)msgs[i]);
    }
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 1);
    int big = 0, rngfail = 0, quick = 0;
    for (int a = 0; a < o.argc; a++) {
        if (!strcmp(o.argv[a], "big")) big = 1;
        else if (!strcmp(o.argv[a], "quick")) quick = 1;
        else if (!strcmp(o.argv[a], "rngfail")) rngfail = 1;
    }
    tu_check_library_backend();
    ref_init();
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);

    if (rngfail) { /* getrandom fails */
        rng_fail_checks(&rng);
        printf("%ld checks\n", n_checks);
        return tu_finish("test_batch");
    }

    load_vectors();
    size_t nvec = npool;
    build_pool(&rng, big ? 256 : 96);
    size_t counts[2][8] = {{0}};
    for (size_t i = 0; i < npool; i++)
        for (int p = 0; p < 2; p++) counts[p][-pool[i].want[p] & 7]++;
    printf("pool: %zu items (%zu from the vectors); STRICT: %zu ok, %zu encoding, %zu small order, %zu verify; "
           "ZIP-215: %zu ok, %zu encoding, %zu verify\n",
           npool, nvec, counts[0][0], counts[0][2], counts[0][3], counts[0][4], counts[1][0], counts[1][2],
           counts[1][4]);

    size_t *all = malloc(sizeof(size_t) * npool);
    for (size_t i = 0; i < npool; i++) all[i] = i;
    for (int pol = 0; pol < 2; pol++) {
        run_batch(all, nvec, pol, "the vectors");
        run_batch(all, npool, pol, "the whole pool");
    }
    free(all);

    static const size_t fast[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18,
                                  19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37,
                                  38, 39, 40, 48, 64, 100, 129, 256};
    static const size_t slow[] = {512, 777, 1000, 1024};
    static const size_t few[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 33, 64};
    for (long it = 0; it < o.iters; it++) {
        if (quick) run_sizes(&rng, few, sizeof few / sizeof few[0]);
        else run_sizes(&rng, fast, sizeof fast / sizeof fast[0]);
        if (big) run_sizes(&rng, slow, sizeof slow / sizeof slow[0]);
    }

    /* n = 0 with NULL arrays; an unknown policy */
    n_checks++;
    if (ecopt_ed25519_verify_batch(NULL, NULL, NULL, NULL, NULL, 0, ECOPT_VERIFY_STRICT) != ECOPT_OK)
        tu_fail("n = 0 did not return ECOPT_OK");
    {
        int res[2] = {0, 0};
        const uint8_t *msgs[2] = {pool[0].msg, pool[1].msg};
        size_t lens[2] = {pool[0].msglen, pool[1].msglen};
        uint8_t sigs[128], pubs[64];
        memcpy(sigs, pool[0].sig, 64), memcpy(sigs + 64, pool[1].sig, 64);
        memcpy(pubs, pool[0].pub, 32), memcpy(pubs + 32, pool[1].pub, 32);
        int rc = ecopt_ed25519_verify_batch(res, sigs, msgs, lens, pubs, 2, 7);
        n_checks++;
        if (rc != ECOPT_ERR_UNSUPPORTED || res[0] != ECOPT_ERR_UNSUPPORTED || res[1] != ECOPT_ERR_UNSUPPORTED)
            tu_fail("policy 7: returned %d, results %d %d", rc, res[0], res[1]);
    }
    /* the policy is checked before n: an unknown one with n = 0 is refused too, and strerror names policies */
    for (int pol = -1; pol <= 5; pol += 6) {
        n_checks++;
        int rc = ecopt_ed25519_verify_batch(NULL, NULL, NULL, NULL, NULL, 0, pol);
        if (rc != ECOPT_ERR_UNSUPPORTED) tu_fail("n = 0, policy %d: returned %d, want ECOPT_ERR_UNSUPPORTED", pol, rc);
    }
    n_checks++;
    if (strstr(ecopt_strerror(ECOPT_ERR_UNSUPPORTED), "policy") == NULL)
        tu_fail("ecopt_strerror(ECOPT_ERR_UNSUPPORTED) = \"%s\" does not cover an unknown policy",
                ecopt_strerror(ECOPT_ERR_UNSUPPORTED));
    printf("%ld checks in %ld calls\n", n_checks, n_calls);
    for (size_t i = 0; i < npool; i++) free(pool[i].msg);
    free(pool);
    return tu_finish("test_batch");
}
