/* ref25519.c — see ref25519.h. Integers all the way: every value is an mpz reduced mod p or mod l, the formulas
 * are the ones printed in RFC 7748 and RFC 8032, and nothing is optimised. */
#include "ref25519.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecopt/ecopt.h" /* only for the ecopt_status values that ref_ed25519_verify_policy returns */

mpz_t ref_p, ref_l, ref_d, ref_sqrtm1, ref_2_255, ref_2_256;
static mpz_t ref_bx, ref_by; /* base point */
static int ref_ready = 0;

static void die(const char *what) {
    fprintf(stderr, "ref25519: internal error: %s\n", what);
    abort();
}

void ref_init(void) {
    if (ref_ready) return;
    mpz_inits(ref_p, ref_l, ref_d, ref_sqrtm1, ref_2_255, ref_2_256, ref_bx, ref_by, NULL);
    mpz_ui_pow_ui(ref_2_255, 2, 255);
    mpz_ui_pow_ui(ref_2_256, 2, 256);
    /* p = 2^255 - 19 (RFC 7748 section 4.1). */
    mpz_sub_ui(ref_p, ref_2_255, 19);
    /* l = 2^252 + 27742317777372353535851937790883648493 (RFC 8032 section 5.1). */
    mpz_set_str(ref_l, "27742317777372353535851937790883648493", 10);
    mpz_t t;
    mpz_init(t);
    mpz_ui_pow_ui(t, 2, 252);
    mpz_add(ref_l, ref_l, t);
    /* d = -121665/121666 (RFC 8032 section 5.1). */
    mpz_set_ui(t, 121666);
    ref_fe_inv(t, t);
    mpz_mul_ui(ref_d, t, 121665);
    mpz_neg(ref_d, ref_d);
    mpz_mod(ref_d, ref_d, ref_p);
    /* sqrt(-1) = 2^((p-1)/4) (RFC 8032 section 5.1.3). */
    mpz_sub_ui(t, ref_p, 1);
    mpz_fdiv_q_2exp(t, t, 2);
    mpz_set_ui(ref_sqrtm1, 2);
    mpz_powm(ref_sqrtm1, ref_sqrtm1, t, ref_p);
    mpz_mul(t, ref_sqrtm1, ref_sqrtm1);
    mpz_add_ui(t, t, 1);
    mpz_mod(t, t, ref_p);
    if (mpz_sgn(t) != 0) die("sqrt(-1)");
    ref_ready = 1; /* ref_fe_sqrt below needs sqrtm1 */
    /* B: y = 4/5, x the even root of (y^2 - 1)/(d y^2 + 1) (RFC 8032 section 5.1). */
    mpz_set_ui(t, 5);
    ref_fe_inv(t, t);
    mpz_mul_ui(ref_by, t, 4);
    mpz_mod(ref_by, ref_by, ref_p);
    uint8_t enc[32];
    ref_to_le(enc, 32, ref_by);
    ref_pt B;
    ref_pt_init(&B);
    if (ref_pt_decode(&B, enc, 1) != REF_DEC_OK) die("base point");
    mpz_set(ref_bx, B.x);
    ref_pt_clear(&B);
    mpz_clear(t);
}

/* ---- integers <-> bytes ---- */

void ref_from_le(mpz_t r, const uint8_t *b, size_t n) {
    mpz_import(r, n, -1, 1, 0, 0, b); /* least significant byte first */
}

void ref_to_le(uint8_t *b, size_t n, const mpz_t x) {
    if (mpz_sgn(x) < 0 || mpz_sizeinbase(x, 2) > 8 * n) die("ref_to_le: value does not fit");
    memset(b, 0, n);
    size_t count = 0;
    mpz_export(b, &count, -1, 1, 0, 0, x);
    if (count > n) die("ref_to_le: export overflow");
}

void ref_print(const char *label, const mpz_t x) {
    gmp_fprintf(stderr, "  %s = %Zd (0x%Zx)\n", label, x, x);
}

/* ---- field ---- */

void ref_fe_add(mpz_t r, const mpz_t a, const mpz_t b) {
    mpz_add(r, a, b);
    mpz_mod(r, r, ref_p);
}

void ref_fe_sub(mpz_t r, const mpz_t a, const mpz_t b) {
    mpz_sub(r, a, b);
    mpz_mod(r, r, ref_p);
}

void ref_fe_mul(mpz_t r, const mpz_t a, const mpz_t b) {
    mpz_mul(r, a, b);
    mpz_mod(r, r, ref_p);
}

void ref_fe_inv(mpz_t r, const mpz_t a) {
    /* 1/a by the extended Euclidean algorithm (mpz_invert), and 0 for a = 0 mod p, which is what a^(p-2) gives. */
    mpz_t am;
    mpz_init(am);
    mpz_mod(am, a, ref_p);
    if (mpz_sgn(am) == 0 || mpz_invert(r, am, ref_p) == 0) mpz_set_ui(r, 0);
    mpz_clear(am);
}

int ref_fe_sqrt(mpz_t r, const mpz_t a) {
    /* p = 5 mod 8: a candidate root is a^((p+3)/8); if its square is -a, multiply by sqrt(-1). */
    mpz_t e, am, c, sq;
    mpz_inits(e, am, c, sq, NULL);
    mpz_mod(am, a, ref_p);
    mpz_add_ui(e, ref_p, 3);
    mpz_fdiv_q_2exp(e, e, 3);
    mpz_powm(c, am, e, ref_p);
    ref_fe_mul(sq, c, c);
    int ok = 1;
    if (mpz_cmp(sq, am) != 0) {
        ref_fe_mul(c, c, ref_sqrtm1);
        ref_fe_mul(sq, c, c);
        if (mpz_cmp(sq, am) != 0) ok = 0;
    }
    if (ok && mpz_odd_p(c)) mpz_sub(c, ref_p, c);
    mpz_set(r, c);
    mpz_clears(e, am, c, sq, NULL);
    return ok;
}

/* ---- points ---- */

void ref_pt_init(ref_pt *P) {
    mpz_init_set_ui(P->x, 0);
    mpz_init_set_ui(P->y, 1);
}

void ref_pt_clear(ref_pt *P) { mpz_clears(P->x, P->y, NULL); }

void ref_pt_set(ref_pt *R, const ref_pt *P) {
    mpz_set(R->x, P->x);
    mpz_set(R->y, P->y);
}

void ref_pt_identity(ref_pt *R) {
    mpz_set_ui(R->x, 0);
    mpz_set_ui(R->y, 1);
}

void ref_pt_base(ref_pt *R) {
    mpz_set(R->x, ref_bx);
    mpz_set(R->y, ref_by);
}

int ref_pt_eq(const ref_pt *P, const ref_pt *Q) { return mpz_cmp(P->x, Q->x) == 0 && mpz_cmp(P->y, Q->y) == 0; }

int ref_pt_is_identity(const ref_pt *P) { return mpz_sgn(P->x) == 0 && mpz_cmp_ui(P->y, 1) == 0; }

int ref_pt_on_curve(const ref_pt *P) {
    mpz_t x2, y2, l, r;
    mpz_inits(x2, y2, l, r, NULL);
    ref_fe_mul(x2, P->x, P->x);
    ref_fe_mul(y2, P->y, P->y);
    ref_fe_sub(l, y2, x2); /* -x^2 + y^2 */
    ref_fe_mul(r, x2, y2);
    ref_fe_mul(r, r, ref_d);
    mpz_add_ui(r, r, 1);
    mpz_mod(r, r, ref_p);
    int ok = mpz_cmp(l, r) == 0 && mpz_cmp(P->x, ref_p) < 0 && mpz_cmp(P->y, ref_p) < 0 && mpz_sgn(P->x) >= 0 &&
             mpz_sgn(P->y) >= 0;
    mpz_clears(x2, y2, l, r, NULL);
    return ok;
}

void ref_pt_add(ref_pt *R, const ref_pt *P, const ref_pt *Q) {
    /* Twisted Edwards, a = -1 (RFC 8032 section 5.1.4, affine form; complete since d is not a square):
     *   x3 = (x1 y2 + y1 x2) / (1 + d x1 x2 y1 y2),  y3 = (y1 y2 + x1 x2) / (1 - d x1 x2 y1 y2). */
    mpz_t t, nx, ny, dx, dy;
    mpz_inits(t, nx, ny, dx, dy, NULL);
    ref_fe_mul(nx, P->x, Q->y);
    ref_fe_mul(t, P->y, Q->x);
    ref_fe_add(nx, nx, t);
    ref_fe_mul(ny, P->y, Q->y);
    ref_fe_mul(t, P->x, Q->x);
    ref_fe_add(ny, ny, t);
    ref_fe_mul(t, P->x, Q->x);
    ref_fe_mul(t, t, P->y);
    ref_fe_mul(t, t, Q->y);
    ref_fe_mul(t, t, ref_d);
    mpz_add_ui(dx, t, 1);
    mpz_ui_sub(dy, 1, t);
    mpz_mod(dx, dx, ref_p);
    mpz_mod(dy, dy, ref_p);
    if (mpz_sgn(dx) == 0 || mpz_sgn(dy) == 0) die("edwards addition: zero denominator");
    ref_fe_inv(dx, dx);
    ref_fe_inv(dy, dy);
    ref_fe_mul(R->x, nx, dx);
    ref_fe_mul(R->y, ny, dy);
    mpz_clears(t, nx, ny, dx, dy, NULL);
}

void ref_pt_neg(ref_pt *R, const ref_pt *P) {
    mpz_neg(R->x, P->x);
    mpz_mod(R->x, R->x, ref_p);
    mpz_set(R->y, P->y);
}

void ref_pt_double(ref_pt *R, const ref_pt *P) { ref_pt_add(R, P, P); }

void ref_pt_mul(ref_pt *R, const mpz_t k, const ref_pt *P) {
    if (mpz_sgn(k) < 0) die("ref_pt_mul: negative scalar");
    ref_pt acc, base;
    ref_pt_init(&acc);
    ref_pt_init(&base);
    ref_pt_set(&base, P);
    for (long i = (long)mpz_sizeinbase(k, 2) - 1; i >= 0; i--) {
        ref_pt_double(&acc, &acc);
        if (mpz_tstbit(k, (mp_bitcnt_t)i)) ref_pt_add(&acc, &acc, &base);
    }
    ref_pt_set(R, &acc);
    ref_pt_clear(&acc);
    ref_pt_clear(&base);
}

void ref_pt_mul_ui(ref_pt *R, unsigned long k, const ref_pt *P) {
    mpz_t kk;
    mpz_init_set_ui(kk, k);
    ref_pt_mul(R, kk, P);
    mpz_clear(kk);
}

int ref_pt_small_order(const ref_pt *P) {
    ref_pt Q;
    ref_pt_init(&Q);
    ref_pt_set(&Q, P);
    int order = 0;
    for (int n = 1; n <= 8; n *= 2) {
        if (ref_pt_is_identity(&Q)) {
            order = n;
            break;
        }
        ref_pt_double(&Q, &Q);
    }
    ref_pt_clear(&Q);
    return order;
}

void ref_torsion_points(ref_pt T[8]) {
    ref_pt Q, T8;
    ref_pt_init(&Q);
    ref_pt_init(&T8);
    uint8_t enc[32];
    for (unsigned y = 2;; y++) {
        if (y > 1000) die("no point of order 8 found");
        memset(enc, 0, 32);
        enc[0] = (uint8_t)y;
        enc[1] = (uint8_t)(y >> 8);
        if (ref_pt_decode(&Q, enc, 1) != REF_DEC_OK) continue;
        ref_pt_mul(&T8, ref_l, &Q);
        if (ref_pt_small_order(&T8) == 8) break;
    }
    ref_pt_identity(&T[0]);
    for (int i = 1; i < 8; i++) ref_pt_add(&T[i], &T[i - 1], &T8);
    ref_pt_clear(&Q);
    ref_pt_clear(&T8);
}

void ref_pt_encode(uint8_t out[32], const ref_pt *P) {
    ref_to_le(out, 32, P->y);
    if (mpz_odd_p(P->x)) out[31] |= 0x80;
}

int ref_pt_decode(ref_pt *P, const uint8_t in[32], int strict) {
    uint8_t b[32];
    memcpy(b, in, 32);
    int sign = b[31] >> 7;
    b[31] &= 0x7f;
    int rc = REF_DEC_OK;
    mpz_t y, u, v, x;
    mpz_inits(y, u, v, x, NULL);
    ref_from_le(y, b, 32);
    if (mpz_cmp(y, ref_p) >= 0) {
        rc = REF_DEC_Y_NONCANONICAL;
        if (strict) goto out;
        mpz_sub(y, y, ref_p);
    }
    /* x^2 = (y^2 - 1) / (d y^2 + 1) (RFC 8032 section 5.1.3 step 2). */
    ref_fe_mul(u, y, y);
    ref_fe_mul(v, u, ref_d);
    mpz_sub_ui(u, u, 1);
    mpz_mod(u, u, ref_p);
    mpz_add_ui(v, v, 1);
    mpz_mod(v, v, ref_p);
    ref_fe_inv(v, v);
    ref_fe_mul(u, u, v);
    if (!ref_fe_sqrt(x, u)) {
        rc = REF_DEC_NOT_ON_CURVE;
        goto out;
    }
    /* Step 4: x = 0 with x_0 = 1 is invalid; otherwise pick the root whose parity is x_0. */
    if (mpz_sgn(x) == 0 && sign) {
        if (strict) {
            rc = REF_DEC_X0_SIGN;
            goto out;
        }
        if (rc == REF_DEC_OK) rc = REF_DEC_X0_SIGN;
    }
    if (mpz_sgn(x) != 0 && (int)mpz_odd_p(x) != sign) mpz_sub(x, ref_p, x);
    mpz_set(P->x, x);
    mpz_set(P->y, y);
out:
    mpz_clears(y, u, v, x, NULL);
    return rc;
}

/* ---- X25519 ---- */

void ref_clamp(mpz_t k, const uint8_t scalar[32]) {
    uint8_t b[32];
    memcpy(b, scalar, 32);
    b[0] &= 248;
    b[31] &= 127;
    b[31] |= 64;
    ref_from_le(k, b, 32);
}

void ref_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]) {
    /* RFC 7748 section 5: decodeScalar25519, decodeUCoordinate, then the ladder with a24 = 121665. */
    mpz_t k, x1, x2, z2, x3, z3, A, AA, B, BB, E, C, D, DA, CB, t;
    mpz_inits(k, x1, x2, z2, x3, z3, A, AA, B, BB, E, C, D, DA, CB, t, NULL);
    ref_clamp(k, scalar);
    uint8_t ub[32];
    memcpy(ub, u, 32);
    ub[31] &= 127;
    ref_from_le(x1, ub, 32);
    mpz_mod(x1, x1, ref_p);
    mpz_set_ui(x2, 1);
    mpz_set_ui(z2, 0);
    mpz_set(x3, x1);
    mpz_set_ui(z3, 1);
    int swap = 0;
    for (int i = 254; i >= 0; i--) {
        int kt = mpz_tstbit(k, (mp_bitcnt_t)i);
        swap ^= kt;
        if (swap) {
            mpz_swap(x2, x3);
            mpz_swap(z2, z3);
        }
        swap = kt;
        ref_fe_add(A, x2, z2);
        ref_fe_mul(AA, A, A);
        ref_fe_sub(B, x2, z2);
        ref_fe_mul(BB, B, B);
        ref_fe_sub(E, AA, BB);
        ref_fe_add(C, x3, z3);
        ref_fe_sub(D, x3, z3);
        ref_fe_mul(DA, D, A);
        ref_fe_mul(CB, C, B);
        ref_fe_add(t, DA, CB);
        ref_fe_mul(x3, t, t);
        ref_fe_sub(t, DA, CB);
        ref_fe_mul(t, t, t);
        ref_fe_mul(z3, x1, t);
        ref_fe_mul(x2, AA, BB);
        mpz_mul_ui(t, E, 121665);
        ref_fe_add(t, AA, t);
        ref_fe_mul(z2, E, t);
    }
    if (swap) {
        mpz_swap(x2, x3);
        mpz_swap(z2, z3);
    }
    ref_fe_inv(z2, z2);
    ref_fe_mul(x2, x2, z2);
    ref_to_le(out, 32, x2);
    mpz_clears(k, x1, x2, z2, x3, z3, A, AA, B, BB, E, C, D, DA, CB, t, NULL);
}

/* ---- scalars mod l ---- */

void ref_sc_reduce(uint8_t out[32], const uint8_t *in, size_t n) {
    mpz_t x;
    mpz_init(x);
    ref_from_le(x, in, n);
    mpz_mod(x, x, ref_l);
    ref_to_le(out, 32, x);
    mpz_clear(x);
}

void ref_sc_muladd(uint8_t out[32], const uint8_t a[32], const uint8_t b[32], const uint8_t c[32]) {
    mpz_t x, y, z;
    mpz_inits(x, y, z, NULL);
    ref_from_le(x, a, 32);
    ref_from_le(y, b, 32);
    ref_from_le(z, c, 32);
    mpz_mul(x, x, y);
    mpz_add(x, x, z);
    mpz_mod(x, x, ref_l);
    ref_to_le(out, 32, x);
    mpz_clears(x, y, z, NULL);
}

/* ---- Ed25519 ---- */

void ref_sha512(uint8_t out[64], const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, const uint8_t *c,
                size_t clen, const uint8_t *d, size_t dlen) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned int n = 0;
    if (ctx == NULL || EVP_DigestInit_ex(ctx, EVP_sha512(), NULL) != 1) die("sha512 init");
    if (alen && EVP_DigestUpdate(ctx, a, alen) != 1) die("sha512");
    if (blen && EVP_DigestUpdate(ctx, b, blen) != 1) die("sha512");
    if (clen && EVP_DigestUpdate(ctx, c, clen) != 1) die("sha512");
    if (dlen && EVP_DigestUpdate(ctx, d, dlen) != 1) die("sha512");
    if (EVP_DigestFinal_ex(ctx, out, &n) != 1 || n != 64) die("sha512 final");
    EVP_MD_CTX_free(ctx);
}

void ref_ed25519_expand(mpz_t s, uint8_t prefix[32], uint8_t pub[32], const uint8_t seed[32]) {
    uint8_t h[64];
    ref_sha512(h, seed, 32, NULL, 0, NULL, 0, NULL, 0);
    ref_clamp(s, h);
    memcpy(prefix, h + 32, 32);
    ref_pt B, A;
    ref_pt_init(&B);
    ref_pt_init(&A);
    ref_pt_base(&B);
    ref_pt_mul(&A, s, &B);
    ref_pt_encode(pub, &A);
    ref_pt_clear(&B);
    ref_pt_clear(&A);
}

/* dom2(F, C) = "SigEd25519 no Ed25519 collisions" || octet(F) || octet(OLEN(C)) || C; empty for pure Ed25519.
 * PH(M) = SHA-512(M) for Ed25519ph, M otherwise. Fills dom (capacity 34 + 255) and *phm (either msg or ph). */
static size_t dom2_and_ph(uint8_t dom[34 + 255], uint8_t ph[64], const uint8_t **phm, size_t *phmlen,
                          ref_ed_variant v, const uint8_t *ctx, size_t ctxlen, const uint8_t *msg, size_t msglen) {
    static const char tag[] = "SigEd25519 no Ed25519 collisions";
    *phm = msg;
    *phmlen = msglen;
    if (v == REF_ED25519) return 0;
    if (ctxlen > 255) die("context over 255 bytes");
    memcpy(dom, tag, 32);
    dom[32] = (v == REF_ED25519PH) ? 1 : 0;
    dom[33] = (uint8_t)ctxlen;
    if (ctxlen) memcpy(dom + 34, ctx, ctxlen);
    if (v == REF_ED25519PH) {
        ref_sha512(ph, msg, msglen, NULL, 0, NULL, 0, NULL, 0);
        *phm = ph;
        *phmlen = 64;
    }
    return 34 + ctxlen;
}

void ref_ed25519_challenge(mpz_t k, ref_ed_variant v, const uint8_t *ctx, size_t ctxlen, const uint8_t R[32],
                           const uint8_t A[32], const uint8_t *msg, size_t msglen) {
    uint8_t dom[34 + 255], ph[64], h[64];
    const uint8_t *m;
    size_t mlen;
    size_t domlen = dom2_and_ph(dom, ph, &m, &mlen, v, ctx, ctxlen, msg, msglen);
    /* The hash of dom2 || R || A || PH(M), with the first two joined so that four parts suffice. */
    uint8_t domR[34 + 255 + 32];
    memcpy(domR, dom, domlen);
    memcpy(domR + domlen, R, 32);
    ref_sha512(h, domR, domlen + 32, A, 32, m, mlen, NULL, 0);
    ref_from_le(k, h, 64);
    mpz_mod(k, k, ref_l);
}

void ref_ed25519_sign(uint8_t sig[64], ref_ed_variant v, const uint8_t *ctx, size_t ctxlen, const uint8_t *msg,
                      size_t msglen, const uint8_t seed[32]) {
    mpz_t s, r, k, S;
    mpz_inits(s, r, k, S, NULL);
    uint8_t prefix[32], A[32], dom[34 + 255], ph[64], h[64];
    ref_ed25519_expand(s, prefix, A, seed);
    const uint8_t *m;
    size_t mlen;
    size_t domlen = dom2_and_ph(dom, ph, &m, &mlen, v, ctx, ctxlen, msg, msglen);
    /* r = SHA-512(dom2 || prefix || PH(M)) mod l; R = [r]B. */
    ref_sha512(h, dom, domlen, prefix, 32, m, mlen, NULL, 0);
    ref_from_le(r, h, 64);
    mpz_mod(r, r, ref_l);
    ref_pt B, Rp;
    ref_pt_init(&B);
    ref_pt_init(&Rp);
    ref_pt_base(&B);
    ref_pt_mul(&Rp, r, &B);
    ref_pt_encode(sig, &Rp);
    /* S = (r + k s) mod l. */
    ref_ed25519_challenge(k, v, ctx, ctxlen, sig, A, msg, msglen);
    mpz_mul(S, k, s);
    mpz_add(S, S, r);
    mpz_mod(S, S, ref_l);
    ref_to_le(sig + 32, 32, S);
    ref_pt_clear(&B);
    ref_pt_clear(&Rp);
    mpz_clears(s, r, k, S, NULL);
}

static int verify_general(const uint8_t sig[64], ref_ed_variant v, const uint8_t *ctx, size_t ctxlen,
                          const uint8_t *msg, size_t msglen, const uint8_t pub[32], int cofactored,
                          int small_order_rules, int strict_decode) {
    int rc;
    ref_pt A, R, B, lhs, rhs, t;
    ref_pt_init(&A);
    ref_pt_init(&R);
    ref_pt_init(&B);
    ref_pt_init(&lhs);
    ref_pt_init(&rhs);
    ref_pt_init(&t);
    mpz_t S, k;
    mpz_inits(S, k, NULL);
    /* 1. A canonical and on the curve (strict), or only on the curve (ZIP-215). */
    if (strict_decode ? ref_pt_decode(&A, pub, 1) != REF_DEC_OK : ref_pt_decode(&A, pub, 0) == REF_DEC_NOT_ON_CURVE) {
        rc = ECOPT_ERR_ENCODING;
        goto out;
    }
    /* 2. A not of small order. */
    if (small_order_rules && ref_pt_small_order(&A) != 0) {
        rc = ECOPT_ERR_SMALL_ORDER;
        goto out;
    }
    /* 3, 4. The same for R. */
    if (strict_decode ? ref_pt_decode(&R, sig, 1) != REF_DEC_OK : ref_pt_decode(&R, sig, 0) == REF_DEC_NOT_ON_CURVE) {
        rc = ECOPT_ERR_ENCODING;
        goto out;
    }
    if (small_order_rules && ref_pt_small_order(&R) != 0) {
        rc = ECOPT_ERR_SMALL_ORDER;
        goto out;
    }
    /* 5. S < l. */
    ref_from_le(S, sig + 32, 32);
    if (mpz_cmp(S, ref_l) >= 0) {
        rc = ECOPT_ERR_ENCODING;
        goto out;
    }
    /* 6. [8][S]B = [8]R + [8][k]A (cofactored), or [S]B = R + [k]A. */
    ref_ed25519_challenge(k, v, ctx, ctxlen, sig, pub, msg, msglen);
    ref_pt_base(&B);
    ref_pt_mul(&lhs, S, &B);
    ref_pt_mul(&t, k, &A);
    ref_pt_add(&rhs, &R, &t);
    if (cofactored) {
        ref_pt_mul_ui(&lhs, 8, &lhs);
        ref_pt_mul_ui(&rhs, 8, &rhs);
    }
    rc = ref_pt_eq(&lhs, &rhs) ? ECOPT_OK : ECOPT_ERR_VERIFY;
out:
    ref_pt_clear(&A);
    ref_pt_clear(&R);
    ref_pt_clear(&B);
    ref_pt_clear(&lhs);
    ref_pt_clear(&rhs);
    ref_pt_clear(&t);
    mpz_clears(S, k, NULL);
    return rc;
}

int ref_ed25519_verify_policy(const uint8_t sig[64], ref_ed_variant v, const uint8_t *ctx, size_t ctxlen,
                              const uint8_t *msg, size_t msglen, const uint8_t pub[32], int cofactored,
                              int small_order_rules) {
    return verify_general(sig, v, ctx, ctxlen, msg, msglen, pub, cofactored, small_order_rules, 1);
}

int ref_ed25519_verify_zip215(const uint8_t sig[64], const uint8_t *msg, size_t msglen, const uint8_t pub[32]) {
    return verify_general(sig, REF_ED25519, NULL, 0, msg, msglen, pub, 1, 0, 0);
}
