/* harness_ref.c — reference semantics (GMP) and input generators for the IR cross-check harness (harness.h).
 *
 * Every expected value is computed from the field operation the function claims, with mpz arithmetic on whole
 * integers; nothing here looks at a function's nodes. Montgomery reduction is the textbook map x -> x*R^-1 mod p
 * (Montgomery 1985, "Modular multiplication without trial division"), computed with mpz_invert, not with a
 * word-by-word algorithm. */
#include "harness.h"

#include <stdio.h>
#include <string.h>

#include "gen/gen.h"

static int binary_kind(ir_kind k)
{
    return k == IR_KIND_MUL || k == IR_KIND_ADD || k == IR_KIND_SUB;
}

int hx_field_init(hx_field *h, const ir_func *f, char *err, size_t errlen)
{
    memset(h, 0, sizeof *h);
    mpz_inits(h->p, h->R, h->Rinv, NULL);
    h->repr = f->repr;
    h->kind = f->kind;
    h->out = h->in[0] = h->in[1] = -1;
    if (!f->prime[0]) {
        snprintf(err, errlen, "%s: no prime stated", f->name);
        return -1;
    }
    char perr[256];
    if (gen_prime_eval(f->prime, h->p, perr, sizeof perr) < 0) {
        snprintf(err, errlen, "%s: prime %s: %s", f->name, f->prime, perr);
        return -1;
    }
    if (h->kind == IR_KIND_NONE || h->kind >= IR_NKINDS) {
        snprintf(err, errlen, "%s: no kind stated", f->name);
        return -1;
    }
    for (uint32_t i = 0; i < f->narr; i++) {
        if (f->arr[i].is_output) {
            if (h->out >= 0) {
                snprintf(err, errlen, "%s: more than one output array", f->name);
                return -1;
            }
            h->out = (int)i;
        } else {
            if (h->nin >= 2) {
                snprintf(err, errlen, "%s: more than two input arrays", f->name);
                return -1;
            }
            h->in[h->nin++] = (int)i;
        }
        if (i == 0)
            h->n = f->arr[i].len;
        else if (f->arr[i].len != h->n) {
            snprintf(err, errlen, "%s: arrays of different lengths", f->name);
            return -1;
        }
    }
    if (h->out < 0 || h->nin == 0) {
        snprintf(err, errlen, "%s: needs an output and at least one input array", f->name);
        return -1;
    }
    if (h->n > HX_MAXLIMBS) {
        snprintf(err, errlen, "%s: %u limbs (the harness takes at most %d)", f->name, h->n, HX_MAXLIMBS);
        return -1;
    }
    if ((unsigned)binary_kind(h->kind) + 1 != h->nin) {
        snprintf(err, errlen, "%s: kind %s with %u input arrays", f->name, ir_kind_name(h->kind), h->nin);
        return -1;
    }
    if (h->repr == IR_REPR_RADIX) {
        if (f->nlimbw != h->n) {
            snprintf(err, errlen, "%s: %u limb widths for %u limbs", f->name, f->nlimbw, h->n);
            return -1;
        }
        for (unsigned i = 0; i < h->n; i++) {
            if (f->limbw[i] == 0 || f->limbw[i] > 64) {
                snprintf(err, errlen, "%s: limb width %u of limb %u", f->name, f->limbw[i], i);
                return -1;
            }
            h->W[i + 1] = h->W[i] + f->limbw[i];
        }
        if (h->kind == IR_KIND_TO_MONT || h->kind == IR_KIND_FROM_MONT) {
            snprintf(err, errlen, "%s: %s on a radix layout", f->name, ir_kind_name(h->kind));
            return -1;
        }
    } else if (h->repr == IR_REPR_MONTGOMERY) {
        mpz_set_ui(h->R, 1);
        mpz_mul_2exp(h->R, h->R, 64 * h->n);
        if (!mpz_invert(h->Rinv, h->R, h->p)) {
            snprintf(err, errlen, "%s: R = 2^%u is not invertible mod p", f->name, 64 * h->n);
            return -1;
        }
        if (h->kind == IR_KIND_CARRY) {
            snprintf(err, errlen, "%s: carry on a Montgomery layout", f->name);
            return -1;
        }
    } else {
        snprintf(err, errlen, "%s: no representation stated", f->name);
        return -1;
    }
    return 0;
}

void hx_field_clear(hx_field *h)
{
    mpz_clears(h->p, h->R, h->Rinv, NULL);
}

void hx_value(mpz_t v, const hx_field *h, const uint64_t *limbs)
{
    mpz_t t;
    mpz_init(t);
    mpz_set_ui(v, 0);
    for (unsigned i = 0; i < h->n; i++) {
        mpz_set_ui(t, (unsigned long)limbs[i]);
        mpz_mul_2exp(t, t, h->repr == IR_REPR_RADIX ? h->W[i] : 64 * i);
        mpz_add(v, v, t);
    }
    mpz_clear(t);
}

int hx_limbs(uint64_t *limbs, const hx_field *h, const mpz_t v)
{
    mpz_t t, m;
    int rc = 0;
    mpz_inits(t, m, NULL);
    for (unsigned i = 0; i < h->n; i++) {
        unsigned at = h->repr == IR_REPR_RADIX ? h->W[i] : 64 * i;
        unsigned w = h->repr == IR_REPR_RADIX ? h->W[i + 1] - h->W[i] : 64;
        mpz_tdiv_q_2exp(t, v, at);
        if (i + 1 < h->n)
            mpz_fdiv_r_2exp(t, t, w);
        if (mpz_sizeinbase(t, 2) > 64)
            rc = -1;
        limbs[i] = (uint64_t)mpz_get_ui(t);
    }
    mpz_clears(t, m, NULL);
    return rc;
}

void hx_expected(mpz_t e, const hx_field *h, const mpz_t a, const mpz_t b)
{
    switch (h->kind) {
    case IR_KIND_MUL: mpz_mul(e, a, b); break;
    case IR_KIND_SQUARE: mpz_mul(e, a, a); break;
    case IR_KIND_ADD: mpz_add(e, a, b); break;
    case IR_KIND_SUB: mpz_sub(e, a, b); break;
    case IR_KIND_OPP: mpz_neg(e, a); break;
    case IR_KIND_TO_MONT: mpz_mul(e, a, h->R); break;
    default: mpz_set(e, a); break; /* carry: the identity; from-montgomery multiplies by R^-1 below */
    }
    if (h->repr == IR_REPR_MONTGOMERY &&
        (h->kind == IR_KIND_MUL || h->kind == IR_KIND_SQUARE || h->kind == IR_KIND_FROM_MONT))
        mpz_mul(e, e, h->Rinv);
    mpz_mod(e, e, h->p);
}

bool hx_in_bounds(const ir_func *f, int arr, const uint64_t *x)
{
    const ir_array *a = &f->arr[arr];
    for (uint32_t i = 0; i < a->len; i++)
        if (x[i] < a->lo[i] || x[i] > a->hi[i])
            return false;
    return true;
}

const char *hx_check(const hx_field *h, const ir_func *f, const mpz_t e, const uint64_t *out)
{
    const char *why = NULL;
    mpz_t v;
    mpz_init(v);
    hx_value(v, h, out);
    if (h->repr == IR_REPR_RADIX) {
        mpz_sub(v, v, e);
        if (!mpz_divisible_p(v, h->p))
            why = "output not congruent to the reference mod p";
    } else if (mpz_cmp(v, e) != 0) {
        why = mpz_cmp(v, h->p) >= 0 ? "output not below p" : "output differs from the reference";
    }
    mpz_clear(v);
    if (!why && !hx_in_bounds(f, h->out, out))
        why = "output limb outside its declared bounds";
    return why;
}

/* ---- inputs ------------------------------------------------------------------------------------------------ */

static uint64_t rng_density_word(tu_rng *rng)
{
    uint64_t w;
    tu_rng_bytes_density(rng, (uint8_t *)&w, sizeof w);
    return w;
}

/* A value in [lo, hi] by one of: uniform, bit density over hi's bits, lo, hi. */
static uint64_t limb_in(tu_rng *rng, uint64_t lo, uint64_t hi, unsigned mode)
{
    uint64_t span = hi - lo, v;
    switch (mode) {
    case 0: /* uniform */
        return span == UINT64_MAX ? tu_rng_u64(rng) : lo + tu_rng_below(rng, span + 1);
    case 1: /* bit density on hi's bits: x & hi <= hi keeps long runs of ones and zeros */
        v = rng_density_word(rng) & hi;
        if (v >= lo)
            return v;
        return span == UINT64_MAX ? v : lo + v % (span + 1);
    case 2: return lo;
    default: return hi;
    }
}

int hx_random_input(uint64_t *limbs, const hx_field *h, const ir_func *f, int arr, tu_rng *rng, char *err,
                    size_t errlen)
{
    const ir_array *a = &f->arr[arr];
    if (h->repr == IR_REPR_RADIX || !f->pre_lt_p) {
        unsigned style = (unsigned)tu_rng_below(rng, 4);
        for (unsigned i = 0; i < h->n; i++) {
            unsigned mode = style == 0 ? 0 : style == 1 ? 1 : (unsigned)tu_rng_below(rng, 4);
            limbs[i] = limb_in(rng, (uint64_t)a->lo[i], (uint64_t)a->hi[i], mode);
        }
        return 0;
    }
    /* Montgomery: a value below p. */
    mpz_t v, t;
    mpz_inits(v, t, NULL);
    size_t pbits = mpz_sizeinbase(h->p, 2);
    unsigned style = (unsigned)tu_rng_below(rng, 8);
    uint64_t w[HX_MAXLIMBS + 1];
    if (style < 3) { /* uniform: n+1 random words mod p */
        for (unsigned i = 0; i <= h->n; i++)
            w[i] = tu_rng_u64(rng);
        mpz_import(v, h->n + 1, -1, sizeof(uint64_t), 0, 0, w);
        mpz_mod(v, v, h->p);
    } else if (style < 6) { /* bit density, masked to p's length; below 2^bits(p) < 2p, so one subtraction */
        tu_rng_bytes_density(rng, (uint8_t *)w, 8 * h->n);
        mpz_import(v, h->n, -1, sizeof(uint64_t), 0, 0, w);
        mpz_fdiv_r_2exp(v, v, pbits);
        if (mpz_cmp(v, h->p) >= 0)
            mpz_sub(v, v, h->p);
    } else { /* small, or p minus small */
        mpz_set_ui(v, (unsigned long)(tu_rng_u64(rng) >> tu_rng_below(rng, 64)));
        mpz_mod(v, v, h->p);
        if (style == 7) {
            mpz_sub(v, h->p, v);
            mpz_sub_ui(v, v, 1);
        }
    }
    hx_limbs(limbs, h, v);
    mpz_clears(v, t, NULL);
    if (!hx_in_bounds(f, arr, limbs)) {
        snprintf(err, errlen, "%s: a value below p is outside %s's declared limb bounds", f->name, a->name);
        return -1;
    }
    return 0;
}

unsigned hx_edge_inputs(uint64_t *limbs, unsigned max, const hx_field *h, const ir_func *f, int arr)
{
    const ir_array *a = &f->arr[arr];
    unsigned cnt = 0, n = h->n;
    uint64_t x[HX_MAXLIMBS];
    mpz_t v;
    mpz_init(v);
#define HX_PUSH()                                                                                                 \
    do {                                                                                                          \
        if (cnt < max && hx_in_bounds(f, arr, x))                                                                 \
            memcpy(limbs + (size_t)cnt++ * n, x, n * sizeof *x);                                                  \
    } while (0)
    if (h->repr == IR_REPR_RADIX || !f->pre_lt_p) {
        for (unsigned i = 0; i < n; i++)
            x[i] = (uint64_t)a->lo[i];
        HX_PUSH(); /* zero (or each limb at its lower bound) */
        memset(x, 0, sizeof x);
        x[0] = 1;
        HX_PUSH();
        for (unsigned i = 0; i < n; i++)
            x[i] = (uint64_t)a->hi[i];
        HX_PUSH(); /* every limb at its bound */
        for (int d = -1; d <= 1; d++) { /* p-1, p, p+1 in canonical limbs */
            if (d < 0)
                mpz_sub_ui(v, h->p, 1);
            else
                mpz_add_ui(v, h->p, (unsigned long)d);
            if (hx_limbs(x, h, v) == 0)
                HX_PUSH();
        }
    } else {
        static const int rel[5] = { 0, 1, 2, -2, -1 }; /* 0, 1, 2, p-2, p-1 */
        for (unsigned k = 0; k < 5; k++) {
            if (rel[k] >= 0)
                mpz_set_ui(v, (unsigned long)rel[k]);
            else
                mpz_sub_ui(v, h->p, (unsigned long)-rel[k]);
            if (hx_limbs(x, h, v) == 0)
                HX_PUSH();
        }
    }
#undef HX_PUSH
    mpz_clear(v);
    return cnt;
}

/* ---- printing ------------------------------------------------------------------------------------------------ */

void hx_print_limbs(const char *label, const uint64_t *x, unsigned n)
{
    fprintf(stderr, "    %-10s", label);
    for (unsigned i = 0; i < n; i++)
        fprintf(stderr, " 0x%016llx", (unsigned long long)x[i]);
    fprintf(stderr, "\n");
}

void hx_print_mpz(const char *label, const mpz_t v)
{
    fprintf(stderr, "    %-10s 0x", label);
    mpz_out_str(stderr, 16, v);
    fprintf(stderr, "\n");
}

