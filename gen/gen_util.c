/* gen_util.c — the generators' builder (fresh names, first failure kept) and multi-word arithmetic with proven
 * maxima. */
#include "gen/gen_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- builder ------------------------------------------------------------------------------------------------- */

static void fresh(gen_b *b, char *buf, size_t len)
{
    snprintf(buf, len, "x%u", b->next++);
}

static bool ok_args(const gen_b *b, const ir_val *a, unsigned n)
{
    if (b->failed)
        return false;
    for (unsigned i = 0; i < n; i++)
        if (a[i] == IR_NOVAL)
            return false;
    return true;
}

static ir_val note(gen_b *b, ir_val v)
{
    if (v == IR_NOVAL)
        b->failed = true;
    return v;
}

ir_val gb_k64(gen_b *b, uint64_t k)
{
    return b->failed ? IR_NOVAL : note(b, ir_const(b->f, 64, k));
}

ir_val gb_k1(gen_b *b, unsigned k)
{
    return b->failed ? IR_NOVAL : note(b, ir_const(b->f, 1, k));
}

ir_val gb_op1(gen_b *b, ir_op op, unsigned width, ir_val x)
{
    char n0[16];
    if (!ok_args(b, &x, 1))
        return b->failed = true, IR_NOVAL;
    fresh(b, n0, sizeof n0);
    return note(b, ir_op1(b->f, op, width, x, n0));
}

ir_val gb_op2(gen_b *b, ir_op op, unsigned width, ir_val x, ir_val y)
{
    char n0[16];
    ir_val a[2] = { x, y };
    if (!ok_args(b, a, 2))
        return b->failed = true, IR_NOVAL;
    fresh(b, n0, sizeof n0);
    return note(b, ir_op2(b->f, op, width, x, y, n0));
}

ir_val gb_op3(gen_b *b, ir_op op, unsigned width, ir_val x, ir_val y, ir_val z)
{
    char n0[16];
    ir_val a[3] = { x, y, z };
    if (!ok_args(b, a, 3))
        return b->failed = true, IR_NOVAL;
    fresh(b, n0, sizeof n0);
    return note(b, ir_op3(b->f, op, width, x, y, z, n0));
}

/* A two-result node of size 64 (mulx, addcarryx, subborrowx). */
static void two(gen_b *b, ir_op op, const ir_val *args, unsigned nargs, ir_val *r0, ir_val *r1)
{
    char n0[16], n1[16];
    ir_val res[2];
    *r0 = *r1 = IR_NOVAL;
    if (!ok_args(b, args, nargs)) {
        b->failed = true;
        return;
    }
    fresh(b, n0, sizeof n0);
    fresh(b, n1, sizeof n1);
    const char *names[2] = { n0, n1 };
    if (ir_emit(b->f, op, 64, 64, args, nargs, res, names) < 0) {
        b->failed = true;
        return;
    }
    *r0 = res[0];
    *r1 = res[1];
}

void gb_mulx(gen_b *b, ir_val x, ir_val y, ir_val *lo, ir_val *hi)
{
    ir_val a[2] = { x, y };
    two(b, IR_MULX, a, 2, lo, hi);
}

void gb_adc(gen_b *b, ir_val c, ir_val x, ir_val y, ir_val *s, ir_val *co)
{
    ir_val a[3] = { c, x, y };
    two(b, IR_ADDCARRYX, a, 3, s, co);
}

void gb_sbb(gen_b *b, ir_val c, ir_val x, ir_val y, ir_val *d, ir_val *bo)
{
    ir_val a[3] = { c, x, y };
    two(b, IR_SUBBORROWX, a, 3, d, bo);
}

ir_val gb_load(gen_b *b, uint32_t arr, uint32_t limb)
{
    return b->failed ? IR_NOVAL : note(b, ir_load(b->f, arr, limb, NULL));
}

void gb_store(gen_b *b, uint32_t arr, uint32_t limb, ir_val v)
{
    if (!ok_args(b, &v, 1) || ir_store(b->f, arr, limb, v) < 0)
        b->failed = true;
}

ir_u128 gb_hi(const gen_b *b, ir_val v)
{
    return v == IR_NOVAL ? 0 : b->f->val[v].hi;
}

bool gb_const(const gen_b *b, ir_val v, ir_u128 *k)
{
    if (v == IR_NOVAL || !b->f->val[v].is_const)
        return false;
    *k = b->f->val[v].k;
    return true;
}

ir_func *gen_func_new(const char *name, unsigned n, unsigned nin, const ir_u128 *inhi, const ir_u128 *outhi,
                      char *err, size_t errlen)
{
    ir_func *f = ir_func_new(name);
    if (!f) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    static const char *const in_names[2] = { "arg1", "arg2" };
    if (ir_array_add(f, "out1", true, n, NULL, outhi) < 0)
        goto fail;
    for (unsigned i = 0; i < nin; i++) {
        if (ir_array_add(f, in_names[i], false, n, NULL, inhi) < 0)
            goto fail;
        f->arr[0].alias |= (uint64_t)1 << (i + 1);
    }
    return f;
fail:
    snprintf(err, errlen, "%s", f->err);
    ir_func_free(f);
    return NULL;
}

ir_func *gen_finish(gen_b *b, const char *what, char *err, size_t errlen)
{
    ir_func *f = b->f;
    b->f = NULL;
    if (!f)
        return NULL;
    if (!b->failed)
        ir_dce(f); /* the generators make no dead node; this keeps that true if one ever does */
    if (b->failed || ir_validate(f) < 0 || ir_bounds(f) < 0) {
        snprintf(err, errlen, "%s: %s", what, f->err);
        ir_func_free(f);
        return NULL;
    }
    return f;
}

/* ---- multi-word values --------------------------------------------------------------------------------------- */

static unsigned words_of(const mpz_t x)
{
    return mpz_sgn(x) == 0 ? 0 : (unsigned)((mpz_sizeinbase(x, 2) + 63) / 64);
}

void mw_init(gen_mw *m)
{
    for (unsigned i = 0; i < GEN_MW; i++)
        m->w[i] = IR_NOVAL;
    m->len = 0;
    mpz_init(m->max);
}

void mw_clear(gen_mw *m)
{
    mpz_clear(m->max);
}

void mw_set(gen_mw *m, const ir_val *x, unsigned len, const mpz_t max)
{
    for (unsigned i = 0; i < GEN_MW; i++)
        m->w[i] = i < len ? x[i] : IR_NOVAL;
    m->len = len;
    mpz_set(m->max, max);
}

/* A word that is known to be zero (absent, the constant 0, or bounded by 0) counts as absent. */
static ir_val nz(const gen_b *b, ir_val v)
{
    return v != IR_NOVAL && gb_hi(b, v) == 0 ? IR_NOVAL : v;
}

void mw_add(gen_b *b, gen_mw *acc, const ir_val *x, unsigned xlen, unsigned off, const mpz_t xmax,
            const mpz_t summax, ir_val *top)
{
    mpz_t nm;
    mpz_init(nm);
    if (summax) {
        mpz_set(nm, summax);
    } else {
        mpz_mul_2exp(nm, xmax, 64 * off);
        mpz_add(nm, nm, acc->max);
    }
    unsigned len = words_of(nm);
    if (len < acc->len)
        len = acc->len; /* higher words of acc are zero by the maximum; keep them as they are */
    if (len > GEN_MW) {
        b->failed = true;
        snprintf(b->f->err, sizeof b->f->err, "a multi-word value needs %u words (at most %u)", len, GEN_MW);
        mpz_clear(nm);
        return;
    }
    if (top)
        *top = IR_NOVAL;
    ir_val carry = IR_NOVAL;
    for (unsigned k = off; k < len; k++) {
        ir_val a = nz(b, k < acc->len ? acc->w[k] : IR_NOVAL);
        ir_val y = nz(b, k - off < xlen ? x[k - off] : IR_NOVAL);
        bool last = k + 1 == len;
        ir_val r = IR_NOVAL;
        int count = (a != IR_NOVAL) + (y != IR_NOVAL) + (carry != IR_NOVAL);
        if (count == 0) {
            r = IR_NOVAL;
        } else if (count == 1 && carry == IR_NOVAL) {
            r = a != IR_NOVAL ? a : y;
        } else if (count == 1) {
            if (last && top)
                *top = carry;
            else
                r = gb_op1(b, IR_CAST, 64, carry);
            carry = IR_NOVAL;
        } else if (count == 2 && last && (ir_u128)gb_hi(b, a) + gb_hi(b, y) + gb_hi(b, carry) <= UINT64_MAX) {
            /* the top word, two terms whose sum provably fits (like a mulx high half plus a carry): a plain add */
            ir_val u = a != IR_NOVAL ? a : y, v = carry != IR_NOVAL ? carry : y;
            r = gb_op2(b, IR_ADD, 64, u, v);
            carry = IR_NOVAL;
        } else {
            ir_val co;
            gb_adc(b, carry != IR_NOVAL ? carry : gb_k1(b, 0), a != IR_NOVAL ? a : gb_k64(b, 0),
                   y != IR_NOVAL ? y : gb_k64(b, 0), &r, &co);
            /* The carry out of the top word is zero: the sum is at most nm < 2^(64 len). */
            carry = last ? IR_NOVAL : co;
        }
        acc->w[k] = r;
    }
    for (unsigned k = acc->len; k < off && k < len; k++)
        acc->w[k] = IR_NOVAL;
    acc->len = len;
    mpz_set(acc->max, nm);
    mpz_clear(nm);
}

void mw_sub(gen_b *b, gen_mw *acc, const ir_val *x, unsigned xlen, const mpz_t resmax)
{
    /* Words at and above len: the difference is below 2^(64 len) and not negative, so what the chain would put
     * there (the top words of acc minus the borrow) is zero; the chain stops at word len-1 and its last borrow is
     * dropped. */
    unsigned len = words_of(resmax);
    if (len > GEN_MW) {
        b->failed = true;
        snprintf(b->f->err, sizeof b->f->err, "a multi-word value needs %u words (at most %u)", len, GEN_MW);
        return;
    }
    ir_val borrow = IR_NOVAL;
    for (unsigned k = 0; k < len; k++) {
        ir_val a = nz(b, k < acc->len ? acc->w[k] : IR_NOVAL);
        ir_val y = nz(b, k < xlen ? x[k] : IR_NOVAL);
        ir_val r = a;
        if (y != IR_NOVAL || borrow != IR_NOVAL) {
            ir_val bo;
            gb_sbb(b, borrow != IR_NOVAL ? borrow : gb_k1(b, 0), a != IR_NOVAL ? a : gb_k64(b, 0),
                   y != IR_NOVAL ? y : gb_k64(b, 0), &r, &bo);
            borrow = k + 1 == len ? IR_NOVAL : bo;
        }
        acc->w[k] = r;
    }
    for (unsigned k = len; k < GEN_MW; k++)
        acc->w[k] = IR_NOVAL;
    acc->len = len;
    mpz_set(acc->max, resmax);
}

void mw_mul_word(gen_b *b, gen_mw *out, const gen_mw *a, ir_val y, const mpz_t ymax)
{
    ir_val lo[GEN_MW], hi[GEN_MW];
    ir_u128 ky = 0, ka = 0;
    bool ycon = gb_const(b, y, &ky);
    unsigned n = a->len;
    mpz_t pm, zero;
    mpz_init(pm);
    mpz_init(zero);
    mpz_mul(pm, a->max, ymax);
    for (unsigned j = 0; j < n; j++) {
        ir_val aj = nz(b, a->w[j]);
        bool acon = gb_const(b, aj, &ka);
        lo[j] = hi[j] = IR_NOVAL;
        if (aj == IR_NOVAL || y == IR_NOVAL || (ycon && ky == 0))
            continue;
        if (ycon && ky == 1)
            lo[j] = aj;
        else if (acon && ka == 1)
            lo[j] = y;
        else
            gb_mulx(b, aj, y, &lo[j], &hi[j]);
    }
    /* a*y = sum lo_j 2^(64j) + sum hi_j 2^(64(j+1)), at most a->max * ymax: that maximum bounds the chain. */
    mw_set(out, lo, n, zero);
    mw_add(b, out, hi, n, 1, zero, pm, NULL);
    mpz_clear(pm);
    mpz_clear(zero);
}
