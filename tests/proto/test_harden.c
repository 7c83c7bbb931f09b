/* test_harden.c — proto.sk_check.<backend> and proto.dead_stack.<backend>: the secret key object's check value and
 * the stack scrub of the secret-handling public functions (include/ecopt/ecopt.h, src/ct.h).
 *
 *   sk_check    RFC 8032 section 7.1: an untouched object signs the vectors byte for byte; every byte of the 128
 *               (seed, A, check value), flipped in a copy, makes all four signing functions refuse with
 *               ECOPT_ERR_KEY and a zeroed signature; a wiped object is refused. The attack the check stops: with A
 *               replaced by another key's, two signatures of one message would give s = (S1 - S2) / (k1 - k2) mod
 *               l (shown on signatures computed here with GMP as an unchecked signer would make them); the library
 *               refuses the object, so there is no second signature.
 *   dead_stack  Each public function that takes a secret is called from one known frame, after the stack below it
 *               was painted; then the dead stack below that frame (SCAN_BYTES, four times the scrubbed size) is
 *               copied out and searched for every 8-byte window of the secrets the call handled: seed, s, prefix,
 *               nonce hash and nonce r (Ed25519), raw and clamped scalars (X25519, batch X25519, the group API).
 *               A hit fails with its depth. Also fails when the call wrote below the scrubbed region (a path deeper
 *               than ECOPT_STACK_SCRUB_BYTES). A skip (77) under AddressSanitizer, whose fake stacks put frames
 *               elsewhere; not registered under valgrind.
 *   depth       Prints how deep each operation's work goes without the scrub (the internal functions), the
 *               measurement ECOPT_STACK_SCRUB_BYTES is sized from; fails when one exceeds it. */
#include <cjson/cJSON.h>
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "ct.h"
#include "ecopt/ecopt.h"
#include "ecopt/edwards25519.h"
#include "ecopt/ristretto255.h"
#include "proto/ed25519_internal.h"
#include "ref25519.h"
#include "testutil.h"
#include "tu_backend.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static const uint8_t zero64[64];

/* ---- sk_check ------------------------------------------------------------------------------------------------ */

/* Signs with all four functions; 1 when every one returned want (and, for a refusal, a zeroed signature). */
static int sign_all_expect(const char *what, const ecopt_ed25519_secretkey *sk, const uint8_t *msg, size_t msglen,
                           int want) {
    static const uint8_t ctx[3] = {'c', 't', 'x'};
    uint8_t digest[64] = {0}, sig[64];
    int good = 1;
    for (int f = 0; f < 4; f++) {
        memset(sig, 0xaa, sizeof sig);
        int rc = f == 0   ? ecopt_ed25519_sign(sig, msg, msglen, sk)
                 : f == 1 ? ecopt_ed25519ctx_sign(sig, msg, msglen, ctx, sizeof ctx, sk)
                 : f == 2 ? ecopt_ed25519ph_sign(sig, msg, msglen, ctx, sizeof ctx, sk)
                          : ecopt_ed25519ph_sign_prehashed(sig, digest, NULL, 0, sk);
        static const char *names[4] = {"sign", "ctx_sign", "ph_sign", "ph_sign_prehashed"};
        if (rc != want || (want != ECOPT_OK && memcmp(sig, zero64, 64) != 0)) {
            tu_fail("%s: %s returned %d (%s), want %d (%s)%s", what, names[f], rc, ecopt_strerror(rc), want,
                    ecopt_strerror(want), want != ECOPT_OK && rc == want ? ", but sig not zeroed" : "");
            good = 0;
        }
    }
    return good;
}

static const char *region(size_t i) {
    return i < 32 ? "seed" : i < 64 ? "A" : "check value";
}

/* s = (S1 - S2) / (k1 - k2) mod l: the scalar from two signatures with one r (same prefix and message) under two
 * public keys A1, A2 (k_i = H(R || A_i || M)). */
static void recover_scalar(mpz_t s, const uint8_t sig1[64], const uint8_t a1[32], const uint8_t sig2[64],
                           const uint8_t a2[32], const uint8_t *msg, size_t msglen) {
    mpz_t s1, s2, k1, k2;
    mpz_inits(s1, s2, k1, k2, NULL);
    ref_from_le(s1, sig1 + 32, 32);
    ref_from_le(s2, sig2 + 32, 32);
    ref_ed25519_challenge(k1, REF_ED25519, NULL, 0, sig1, a1, msg, msglen);
    ref_ed25519_challenge(k2, REF_ED25519, NULL, 0, sig2, a2, msg, msglen);
    mpz_sub(s1, s1, s2);
    mpz_sub(k1, k1, k2);
    mpz_mod(k1, k1, ref_l);
    if (mpz_invert(k1, k1, ref_l) == 0) mpz_set_ui(k1, 0);
    mpz_mul(s, s1, k1);
    mpz_mod(s, s, ref_l);
    mpz_clears(s1, s2, k1, k2, NULL);
}

static void run_sk_check(void) {
    cJSON *j = tu_load_json(tu_vector_path("rfc8032/rfc8032_ed25519.json"));
    cJSON *c;
    int n = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "vectors")) {
        if (strcmp(tu_json_str(c, "algorithm"), "Ed25519") != 0) continue; /* section 7.1 */
        const char *name = tu_json_str(c, "name");
        uint8_t seed[32], pub[32], want[64], got[64], gpub[32];
        tu_json_hex_fixed(seed, 32, c, "secret_key");
        tu_json_hex_fixed(pub, 32, c, "public_key");
        tu_json_hex_fixed(want, 64, c, "signature");
        size_t msglen = 0;
        uint8_t *msg = tu_hex_alloc(tu_json_str(c, "message"), &msglen);
        ecopt_ed25519_secretkey sk, bad;
        int rc = ecopt_ed25519_keypair_from_seed(&sk, gpub, seed);
        if (rc != ECOPT_OK || tu_expect_bytes(name, gpub, pub, 32)) tu_fail("%s: keypair_from_seed %d", name, rc);

        /* Untouched, and a memcpy'd copy: the RFC's signature. */
        memcpy(&bad, &sk, sizeof sk);
        rc = ecopt_ed25519_sign(got, msg, msglen, &bad);
        if (rc != ECOPT_OK || tu_expect_bytes(name, got, want, 64)) tu_fail("%s: untouched object: sign %d", name, rc);
        sign_all_expect(name, &bad, msg, msglen, ECOPT_OK);

        /* Every byte, two different flips: refused by every signing function. */
        int refused = 1;
        for (size_t i = 0; i < sizeof sk.opaque; i++) {
            for (int f = 0; f < 2; f++) {
                memcpy(&bad, &sk, sizeof sk);
                bad.opaque[i] ^= f ? 0x80 : 0x01;
                char what[96];
                snprintf(what, sizeof what, "%s: byte %zu (%s) ^ %#x", name, i, region(i), f ? 0x80 : 0x01);
                refused &= sign_all_expect(what, &bad, msg, msglen, ECOPT_ERR_KEY);
            }
        }
        if (!refused) tu_fail("%s: a changed object was not refused", name);

        /* Wiped: refused. */
        memcpy(&bad, &sk, sizeof sk);
        ecopt_ed25519_secretkey_wipe(&bad);
        sign_all_expect("wiped object", &bad, msg, msglen, ECOPT_ERR_KEY);

        /* The attack: A replaced by the public key of another seed, the check value kept. */
        uint8_t seed2[32], a2[32];
        memcpy(seed2, seed, 32);
        seed2[0] ^= 0x5c;
        ecopt_ed25519_secretkey other;
        if (ecopt_ed25519_keypair_from_seed(&other, a2, seed2) != ECOPT_OK) tu_fail("%s: second key", name);
        memcpy(&bad, &sk, sizeof sk);
        memcpy(bad.opaque + 32, a2, 32); /* A's place in the documented layout */
        uint8_t sig2[64];
        memset(sig2, 0xaa, 64);
        rc = ecopt_ed25519_sign(sig2, msg, msglen, &bad);
        if (rc != ECOPT_ERR_KEY || memcmp(sig2, zero64, 64) != 0)
            tu_fail("%s: object with another key's A: sign returned %d (%s), want ECOPT_ERR_KEY and a zeroed sig",
                    name, rc, ecopt_strerror(rc));

        /* What an unchecked signer would have output for it: S2 = r + k2 s with the same r. The recovery works on
         * those (the demonstration is sound), and gives nothing from the library's answer. */
        mpz_t s, r, k, t, rec;
        uint8_t prefix[32], apub[32], unchecked[64];
        mpz_inits(s, r, k, t, rec, NULL);
        ref_ed25519_expand(s, prefix, apub, seed);
        mpz_mod(t, s, ref_l);
        ref_from_le(r, got + 32, 32);
        ref_ed25519_challenge(k, REF_ED25519, NULL, 0, got, pub, msg, msglen);
        mpz_submul(r, k, s);
        mpz_mod(r, r, ref_l); /* r = S1 - k1 s */
        ref_ed25519_challenge(k, REF_ED25519, NULL, 0, got, a2, msg, msglen);
        mpz_addmul(r, k, s);
        mpz_mod(r, r, ref_l);
        memcpy(unchecked, got, 32);
        ref_to_le(unchecked + 32, 32, r);
        recover_scalar(rec, got, pub, unchecked, a2, msg, msglen);
        if (mpz_cmp(rec, t) != 0) tu_fail("%s: the recovery does not give s from an unchecked signer's output", name);
        recover_scalar(rec, got, pub, sig2, a2, msg, msglen);
        if (mpz_cmp(rec, t) == 0) tu_fail("%s: s recovered from the library's signatures", name);
        mpz_clears(s, r, k, t, rec, NULL);
        ecopt_ed25519_secretkey_wipe(&other);
        ecopt_ed25519_secretkey_wipe(&sk);
        free(msg);
        n++;
    }
    cJSON_Delete(j);
    if (n != 5) tu_fail("expected the 5 vectors of RFC 8032 section 7.1, found %d", n);
    printf("sk_check: %d RFC 8032 7.1 vectors, 128 bytes x 2 flips x 4 signing functions each\n", n);
}

/* ---- dead_stack ---------------------------------------------------------------------------------------------- */

#define SCAN_BYTES (4 * ECOPT_STACK_SCRUB_BYTES)
#define PAINT 0x5a

static uint8_t snap[SCAN_BYTES]; /* snap[SCAN_BYTES - d]: d bytes below the calling frame */

__attribute__((noinline)) static void paint(void) {
    uint8_t buf[SCAN_BYTES];
    memset(buf, PAINT, sizeof buf);
    __asm__ volatile("" : : "r"(buf) : "memory");
}

/* Copies the dead stack under this frame's caller: buf is never written, it only names that memory, and the asm
 * hides that from the compiler. */
__attribute__((noinline)) static void snapshot(void) {
    uint8_t buf[SCAN_BYTES];
    const volatile uint8_t *p = buf;
    __asm__ volatile("" : "+r"(p) : : "memory");
    for (size_t i = 0; i < SCAN_BYTES; i++) snap[i] = p[i];
}

/* The inputs and outputs live in static storage, never on the stack scanned. */
static uint8_t g_seed[32], g_pub[32], g_sig[64], g_msg[100], g_digest[64], g_out[32 * 9], g_scalars[32 * 9],
    g_u[32 * 9];
static ecopt_ed25519_secretkey g_sk;
static ecopt_edwards25519_point g_pt;
static ecopt_ristretto255_point g_rpt;
static int g_rc, g_status[9];

/* Runs op between paint and snapshot, all three called from this one frame. */
__attribute__((noinline)) static void run_at(void (*op)(void)) {
    paint();
    op();
    snapshot();
    __asm__ volatile("" : : : "memory");
}

static void op_keypair(void) { g_rc = ecopt_ed25519_keypair_from_seed(&g_sk, g_pub, g_seed); }
static void op_keygen(void) { g_rc = ecopt_ed25519_keygen(g_seed, &g_sk, g_pub); }
static void op_sign(void) { g_rc = ecopt_ed25519_sign(g_sig, g_msg, sizeof g_msg, &g_sk); }
static void op_ctx_sign(void) { g_rc = ecopt_ed25519ctx_sign(g_sig, g_msg, sizeof g_msg, g_u, 7, &g_sk); }
static void op_ph_sign(void) { g_rc = ecopt_ed25519ph_sign(g_sig, g_msg, sizeof g_msg, NULL, 0, &g_sk); }
static void op_ph_prehashed(void) { g_rc = ecopt_ed25519ph_sign_prehashed(g_sig, g_digest, NULL, 0, &g_sk); }
static void op_x25519(void) { g_rc = ecopt_x25519(g_out, g_scalars, g_u); }
static void op_x25519_base(void) { g_rc = ecopt_x25519_base(g_out, g_scalars); }
static void op_x25519_keygen(void) { g_rc = ecopt_x25519_keygen(g_scalars, g_out); }
static void op_x25519_batch(void) { g_rc = ecopt_x25519_batch(g_out, g_scalars, g_u, 9, g_status); }
static void op_x25519_base_batch(void) { g_rc = ecopt_x25519_base_batch(g_out, g_scalars, 9); }
static void op_ed_scalarmult(void) { ecopt_edwards25519_scalarmult(&g_pt, g_scalars, &g_pt); }
static void op_ed_scalarmult_base(void) { ecopt_edwards25519_scalarmult_base(&g_pt, g_scalars); }
static void op_ri_scalarmult(void) { ecopt_ristretto255_scalarmult(&g_rpt, g_scalars, &g_rpt); }
static void op_ri_scalarmult_base(void) { ecopt_ristretto255_scalarmult_base(&g_rpt, g_scalars); }

typedef struct {
    char name[48];
    uint8_t v[64];
    size_t n;
} secret;

static secret secrets[40];
static size_t nsecrets;

static void add_secret(const char *name, const uint8_t *v, size_t n) {
    secret *s = &secrets[nsecrets++];
    snprintf(s->name, sizeof s->name, "%s", name);
    memcpy(s->v, v, n);
    s->n = n;
}

static void add_scalar_secrets(const char *name, const uint8_t k[32]) {
    uint8_t c[32];
    char nm[48];
    memcpy(c, k, 32);
    c[0] &= 248;
    c[31] &= 127;
    c[31] |= 64;
    add_secret(name, k, 32);
    snprintf(nm, sizeof nm, "clamped %s", name);
    add_secret(nm, c, 32);
}

/* s, prefix (and seed) of an Ed25519 seed, computed by the GMP reference. */
static void add_ed_secrets(const uint8_t seed[32]) {
    mpz_t s;
    uint8_t sb[32], prefix[32], a[32];
    mpz_init(s);
    ref_ed25519_expand(s, prefix, a, seed);
    ref_to_le(sb, 32, s);
    mpz_clear(s);
    add_secret("seed", seed, 32);
    add_secret("s (clamped scalar)", sb, 32);
    add_secret("prefix", prefix, 32);
}

/* The nonce of a signature: r = S - k s mod l (k over its variant's dom2 and message), and for pure Ed25519 also the
 * 64-byte hash r was reduced from. */
static void add_nonce_secrets(ref_ed_variant v, const uint8_t *ctx, size_t ctxlen) {
    mpz_t s, r, k;
    uint8_t prefix[32], a[32], rb[32];
    mpz_inits(s, r, k, NULL);
    ref_ed25519_expand(s, prefix, a, g_seed);
    ref_from_le(r, g_sig + 32, 32);
    ref_ed25519_challenge(k, v, ctx, ctxlen, g_sig, a, g_msg, sizeof g_msg);
    mpz_submul(r, k, s);
    mpz_mod(r, r, ref_l);
    ref_to_le(rb, 32, r);
    add_secret("nonce r", rb, 32);
    if (v == REF_ED25519) {
        uint8_t h[64];
        ref_sha512(h, prefix, 32, g_msg, sizeof g_msg, NULL, 0, NULL, 0);
        add_secret("nonce hash", h, 64);
    }
    mpz_clears(s, r, k, NULL);
}

/* Searches snap for every 8-byte window of every secret; fails on the first hit of each secret, and when the call
 * wrote below the scrubbed region. */
static void check_snapshot(const char *op) {
    int clean = 1;
    for (size_t i = 0; i < nsecrets; i++) {
        const secret *s = &secrets[i];
        int hit = 0;
        for (size_t w = 0; w + 8 <= s->n && !hit; w++) {
            for (size_t off = 0; off + 8 <= SCAN_BYTES; off++) {
                if (snap[off] == s->v[w] && memcmp(snap + off, s->v + w, 8) == 0) {
                    tu_fail("%s: bytes %zu..%zu of %s on the dead stack, %zu bytes below the calling frame", op, w,
                            w + 7, s->name, (size_t)SCAN_BYTES - off);
                    hit = 1, clean = 0;
                    break;
                }
            }
        }
    }
    /* The deepest byte the call wrote (not the paint): within the scrub, give or take the caller's frames. */
    size_t deepest = 0;
    while (deepest < SCAN_BYTES && snap[deepest] == PAINT) deepest++;
    size_t depth = SCAN_BYTES - deepest;
    if (depth > ECOPT_STACK_SCRUB_BYTES + 1024) {
        tu_fail("%s: wrote %zu bytes below the calling frame, beyond the %d scrubbed", op, depth,
                ECOPT_STACK_SCRUB_BYTES);
        clean = 0;
    }
    printf("  %-32s %s (%zu secrets searched, stack written to depth %zu)\n", op, clean ? "clean" : "LEAK", nsecrets,
           depth);
}

static void run_dead_stack(void) {
#if defined(UNDER_ASAN)
    printf("SKIP: AddressSanitizer moves frames to fake stacks, so the dead stack below the caller is not theirs\n");
    exit(77);
#endif
    tu_rng rng;
    tu_rng_seed(&rng, 0x5eed5eedu);
    tu_rng_bytes(&rng, g_seed, 32);
    tu_rng_bytes(&rng, g_msg, sizeof g_msg);
    tu_rng_bytes(&rng, g_digest, 64);
    static const struct {
        const char *name;
        void (*op)(void);
        ref_ed_variant v;
        int ctxlen;
    } signs[] = {{"ecopt_ed25519_sign", op_sign, REF_ED25519, 0},
                 {"ecopt_ed25519ctx_sign", op_ctx_sign, REF_ED25519CTX, 7},
                 {"ecopt_ed25519ph_sign", op_ph_sign, REF_ED25519PH, 0}};

    nsecrets = 0;
    run_at(op_keypair);
    if (g_rc != ECOPT_OK) tu_fail("keypair_from_seed: %d", g_rc);
    add_ed_secrets(g_seed);
    check_snapshot("ecopt_ed25519_keypair_from_seed");

    for (size_t i = 0; i < TU_ARRAY_LEN(signs); i++) {
        tu_rng_bytes(&rng, g_u, 7); /* the context of ctx_sign */
        nsecrets = 0;
        run_at(signs[i].op);
        if (g_rc != ECOPT_OK) tu_fail("%s: %d", signs[i].name, g_rc);
        add_ed_secrets(g_seed);
        add_nonce_secrets(signs[i].v, g_u, (size_t)signs[i].ctxlen);
        check_snapshot(signs[i].name);
    }
    nsecrets = 0;
    run_at(op_ph_prehashed);
    if (g_rc != ECOPT_OK) tu_fail("ph_sign_prehashed: %d", g_rc);
    add_ed_secrets(g_seed);
    check_snapshot("ecopt_ed25519ph_sign_prehashed");

    nsecrets = 0;
    run_at(op_keygen);
    if (g_rc != ECOPT_OK) tu_fail("keygen: %d", g_rc);
    add_ed_secrets(g_seed); /* the fresh seed keygen returned */
    check_snapshot("ecopt_ed25519_keygen");

    static const struct {
        const char *name;
        void (*op)(void);
        int keys;
    } xs[] = {{"ecopt_x25519", op_x25519, 1},
              {"ecopt_x25519_base", op_x25519_base, 1},
              {"ecopt_x25519_keygen", op_x25519_keygen, 1},
              {"ecopt_x25519_batch (9 keys)", op_x25519_batch, 9},
              {"ecopt_x25519_base_batch (9 keys)", op_x25519_base_batch, 9},
              {"ecopt_edwards25519_scalarmult", op_ed_scalarmult, 1},
              {"ecopt_edwards25519_scalarmult_base", op_ed_scalarmult_base, 1},
              {"ecopt_ristretto255_scalarmult", op_ri_scalarmult, 1},
              {"ecopt_ristretto255_scalarmult_base", op_ri_scalarmult_base, 1}};
    ecopt_edwards25519_base(&g_pt);
    ecopt_ristretto255_base(&g_rpt);
    for (size_t i = 0; i < TU_ARRAY_LEN(xs); i++) {
        tu_rng_bytes(&rng, g_scalars, sizeof g_scalars);
        tu_rng_bytes(&rng, g_u, sizeof g_u);
        if (i >= 5) g_scalars[31] &= 0x0f; /* group API: a canonical scalar (< l) */
        nsecrets = 0;
        run_at(xs[i].op);
        if (g_rc != ECOPT_OK && i < 5) tu_fail("%s: %d", xs[i].name, g_rc);
        for (int k = 0; k < xs[i].keys; k++) {
            char nm[40];
            snprintf(nm, sizeof nm, "scalar %d", k);
            add_scalar_secrets(nm, g_scalars + 32 * k);
        }
        check_snapshot(xs[i].name);
    }
}

/* ---- depth --------------------------------------------------------------------------------------------------- */

static void dop_keypair(void) { g_rc = ecopt_ed25519_keypair_from_seed_be(ecopt_backend_get(), &g_sk, g_pub, g_seed); }
static void dop_sign(void) {
    g_rc = ecopt_ed25519_sign_be(ecopt_backend_get(), g_sig, ED_PH, g_msg, sizeof g_msg, g_u, 7, &g_sk);
}
static void dop_x25519(void) { g_rc = ecopt_backend_get()->x25519(g_out, g_scalars, g_u); }
static void dop_x25519_base(void) { ecopt_backend_get()->x25519_base(g_out, g_scalars); }
static void dop_x25519_batch(void) {
    const ecopt_backend *be = ecopt_backend_get();
    if (be->x25519_batch) g_rc = be->x25519_batch(g_out, g_scalars, g_u, 9, g_status);
}
static void dop_x25519_base_batch(void) {
    const ecopt_backend *be = ecopt_backend_get();
    if (be->x25519_base_batch) be->x25519_base_batch(g_out, g_scalars, 9);
}

static void run_depth(void) {
#if defined(UNDER_ASAN)
    printf("SKIP: AddressSanitizer moves frames to fake stacks\n");
    exit(77);
#endif
    static const struct {
        const char *name;
        void (*op)(void);
    } ops[] = {{"keypair_from_seed", dop_keypair},   {"ph_sign", dop_sign},
               {"x25519", dop_x25519},               {"x25519_base", dop_x25519_base},
               {"x25519_batch", dop_x25519_batch},   {"x25519_base_batch", dop_x25519_base_batch}};
    memset(g_seed, 7, 32);
    memset(g_scalars, 9, sizeof g_scalars);
    memset(g_u, 9, sizeof g_u);
    size_t max = 0;
    for (size_t i = 0; i < TU_ARRAY_LEN(ops); i++) {
        run_at(ops[i].op);
        size_t deepest = 0;
        while (deepest < SCAN_BYTES && snap[deepest] == PAINT) deepest++;
        size_t depth = SCAN_BYTES - deepest;
        if (depth > max) max = depth;
        printf("  %-20s %6zu bytes of stack\n", ops[i].name, depth);
    }
    printf("deepest: %zu bytes; ECOPT_STACK_SCRUB_BYTES %d\n", max, ECOPT_STACK_SCRUB_BYTES);
    if (max + 1024 > ECOPT_STACK_SCRUB_BYTES)
        tu_fail("the deepest path (%zu bytes) leaves less than 1024 bytes of margin in ECOPT_STACK_SCRUB_BYTES", max);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    tu_check_library_backend();
    ref_init();
    if (strcmp(mode, "sk_check") == 0) run_sk_check();
    else if (strcmp(mode, "dead_stack") == 0) run_dead_stack();
    else if (strcmp(mode, "depth") == 0) run_depth();
    else {
        fprintf(stderr, "usage: test_harden sk_check|dead_stack|depth (ECOPT_BACKEND=<backend>)\n");
        return 2;
    }
    return tu_finish("test_harden");
}
