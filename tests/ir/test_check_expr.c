/* test_check_expr.c — the checker's expression language (check/expr.c), IR symbolic execution (check/ir_sym.c)
 * and the z3 query (check/smt.c).
 *
 *   1. Rules: random sequences of every constructor on random and edge operands (0, 1, 2^64-1, 2^128-1, 2^51-1 and
 *      limbs with narrow bounds), lowered two-word additions and shifts (the carry-chain rules), each result checked against this file's own evaluation of the IR semantics of the
 *      un-normalised operation (u128 arithmetic) and against the node's interval bounds.
 *   2. Normal forms: identities that must give the same id (commutativity, associativity, mulx = u128 product,
 *      add-with-carry = u128 sum, 19*x by shifts and adds, ~~x) and the cross-width rule (a wrapping u64 sum is
 *      not merged into a u128 sum; the values really differ at 2^64-1), unknown leaves are tracked.
 *      Then the exact linear forms (lf.h), the range rule, exact division, and cut-points (smt_differ_cut with
 *      lf_cut_classes: a query z3 decides only with the cuts, a wrong constant never proved, the resum's multiplier).
 *   3. ir_sym on every mul/square/carry_mul/carry_square/add/sub/opp/carry of ../shared/fiat-json and some
 *      generated functions: output expressions evaluate like ir_eval on random inputs within bounds; then the
 *      ir_lower result: output limbs with identical normal forms are counted, the others must be EQUAL by z3;
 *      the time per function is printed.
 *   4. Broken lowered variants (a constant changed, a carry dropped), confirmed broken by ir_eval on random
 *      inputs, must get a DIFFERENT limb whose counterexample really differs under ir_eval; a limb that random
 *      testing shows different is never EQUAL.
 *
 * Usage: test_check_expr [--seed N] [--quick] */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/check.h"
#include "check/expr.h"
#include "check/lf.h"
#include "check/ir_sym.h"
#include "check/smt.h"
#include "gen/gen.h"
#include "ir/ir.h"

#ifndef FIAT_JSON_DIR
#error "FIAT_JSON_DIR must name ../shared/fiat-json"
#endif

typedef unsigned __int128 u128;
static int failures;
static bool quick;

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    if (++failures > 40) {
        printf("too many failures\n");
        exit(1);
    }
}

static uint64_t rng_state;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static u128 msk(unsigned w)
{
    return w >= 128 ? ~(u128)0 : (((u128)1 << w) - 1);
}

/* a value in [lo, hi], often an edge */
static uint64_t rnd_in(u128 lo, u128 hi)
{
    uint64_t l = (uint64_t)lo, h = (uint64_t)hi;
    switch (rnd() % 6) {
    case 0: return l;
    case 1: return h;
    case 2: return l + (h - l > 0 ? 1 : 0);
    default: break;
    }
    uint64_t r = rnd();
    if (rnd() % 2)
        r >>= rnd() % 64;
    return h - l == ~(uint64_t)0 ? r : l + r % (h - l + 1);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void hex(u128 v, char *buf)
{
    ir_u128_hex(v, buf);
}

/* ---- 1. rules against concrete evaluation ------------------------------------------------------------------------ */

typedef struct {
    ex_id id;
    unsigned w; /* the IR width of the value (its value is below 2^w) */
    u128 v;     /* the reference value */
} entry;

#define POOL 400
static entry pool[POOL];
static unsigned npool;

static void push(ex_id id, unsigned w, u128 v)
{
    if (npool < POOL)
        pool[npool++] = (entry){ id, w, v & msk(w) };
}

static const entry *pick(unsigned maxw)
{
    for (;;) {
        const entry *e = &pool[rnd() % npool];
        if (e->w <= maxw)
            return e;
    }
}

static unsigned rules_checked;

static void check_node(ex_ctx *x, const char *what, ex_id id, u128 want, const uint64_t *const *in)
{
    char b1[40], b2[40], pr[300];
    rules_checked++;
    if (!id) {
        failf("%s: no result (%s)", what, ex_err(x));
        return;
    }
    u128 got;
    if (ex_eval(x, id, in, &got) != 0) {
        failf("%s: eval failed", what);
        return;
    }
    const ex_node *n = ex_get(x, id);
    if (got != want) {
        ex_print(x, id, pr, sizeof pr);
        hex(got, b1);
        hex(want, b2);
        failf("%s: normal form %s evaluates to %s, the operation gives %s", what, pr, b1, b2);
    } else if (got < n->lo || got > n->hi) {
        ex_print(x, id, pr, sizeof pr);
        hex(got, b1);
        failf("%s: value %s outside the node's bounds (%s)", what, b1, pr);
    }
}

/* check_linear — every node of x translated to lf.h's linear form, evaluated on LF_INPUTS random and edge input
 * vectors against ex_eval_all, with every atom and sum within its bounds (lf_check_eval). The rules of lf.h (floor
 * splitting, symmetric remainders, common powers of two, carries absorbed into wider floors, sign atoms, two-valued
 * atoms, bounds) are all exercised by the random nodes test_rules builds. */
#define LF_INPUTS 6
static unsigned lf_nodes, lf_trials;
static void check_linear(ex_ctx *x, unsigned trial, const uint64_t *const *in0)
{
    uint32_t n = ex_count(x);
    ex_id *ids = malloc((n + 1) * sizeof *ids);
    ir_u128 *ev = malloc((n + 1) * sizeof *ev);
    lf_ctx *l = lf_new(x);
    if (!ids || !ev || !l) {
        failf("linear: out of memory");
        goto out;
    }
    uint32_t m = 0;
    for (ex_id e = 1; e <= n; e++)
        if (!ex_has_unknown(x, e))
            ids[m++] = e;
    lf_trials++;
    lf_nodes += m;
    for (unsigned r = 0; r < LF_INPUTS; r++) {
        uint64_t a0[4], a1[4];
        const uint64_t *in[2] = { a0, a1 };
        for (unsigned i = 0; i < 4; i++) {
            if (r == 0) {
                a0[i] = in0[0][i];
                a1[i] = in0[1][i];
                continue;
            }
            static const uint64_t edge0[] = { 0, 1, ~(uint64_t)0, ~(uint64_t)0 - 1 };
            static const uint64_t edge1[] = { 0, 1, ((uint64_t)1 << 51) - 1, ((uint64_t)1 << 51) - 2 };
            a0[i] = r == 1 ? edge0[rnd() % 4] : rnd_in(0, ~(uint64_t)0);
            a1[i] = r == 1 ? edge1[rnd() % 4] : rnd_in(0, ((uint64_t)1 << 51) - 1);
        }
        ex_eval_all(x, in, ev);
        ex_id bad = 0;
        int rc = lf_check_eval(l, ids, m, in, ev, &bad);
        if (rc != 0) {
            char pr[300];
            if (bad)
                ex_print(x, bad, pr, sizeof pr);
            failf("linear: trial %u input %u: %s", trial, r,
                  rc < 0 ? "out of memory" : bad ? pr : "an atom outside its bounds");
            break;
        }
    }
out:
    lf_free(l);
    free(ids);
    free(ev);
}

static void test_rules(unsigned trials)
{
    static const unsigned widths[] = { 1, 32, 51, 64, 64, 64, 128, 128 };
    for (unsigned t = 0; t < trials; t++) {
        ex_ctx *x = ex_ctx_new();
        ex_ctx_set_raw(x, t % 2 == 1); /* the raw context prove_linear uses, and the normal one */
        uint64_t a0[4], a1[4];
        const uint64_t *in[2] = { a0, a1 };
        npool = 0;
        for (unsigned i = 0; i < 4; i++) {
            a0[i] = rnd_in(0, ~(uint64_t)0);
            a1[i] = rnd_in(0, ((uint64_t)1 << 51) - 1);
            push(ex_input(x, 0, i, 0, ~(uint64_t)0), 64, a0[i]);
            push(ex_input(x, 1, i, 0, ((uint64_t)1 << 51) - 1), 64, a1[i]);
        }
        static const u128 consts[] = { 0, 1, 19, ((u128)1 << 51) - 1, ~(uint64_t)0, ~(u128)0 };
        for (unsigned i = 0; i < sizeof consts / sizeof consts[0]; i++)
            push(ex_const(x, consts[i]), consts[i] >> 64 ? 128 : 64, consts[i]);
        push(ex_const(x, 1), 1, 1);
        for (unsigned step = 0; step < 60; step++) {
            unsigned w = widths[rnd() % 8];
            const entry *A = pick(128), *B = pick(128), *C = pick(128);
            u128 a = A->v, b = B->v, m = msk(w);
            unsigned k = (unsigned)(rnd() % 132);
            unsigned op = (unsigned)(rnd() % 24);
            char what[64];
            snprintf(what, sizeof what, "trial %u step %u op %u w %u", t, step, op, w);
            ex_id r = 0, r1 = 0;
            u128 want = 0, want1 = 0;
            switch (op) {
            case 0: r = ex_add(x, w, A->id, B->id), want = a + b; break;
            case 1: r = ex_sub(x, w, A->id, B->id), want = a - b; break;
            case 2: r = ex_mul(x, w, A->id, B->id), want = a * b; break;
            case 3: r = ex_shl(x, w, A->id, k), want = k >= 128 ? 0 : a << k; break;
            case 4: r = ex_shr(x, w, A->id, k), want = k >= 128 ? 0 : a >> k; break;
            case 5: r = ex_and(x, w, A->id, B->id), want = a & b; break;
            case 6: r = ex_or(x, w, A->id, B->id), want = a | b; break;
            case 7: r = ex_xor(x, w, A->id, B->id), want = a ^ b; break;
            case 8: r = ex_not(x, w, A->id), want = ~a; break;
            case 9: r = ex_lnot(x, A->id), want = a == 0, w = 1, m = 1; break;
            case 10: r = ex_trunc(x, w, A->id), want = a; break;
            case 11: r = ex_lt(x, A->id, B->id), want = a < b, w = 1, m = 1; break;
            case 12: {
                /* cmovznz, the condition often a 1-bit value */
                const entry *c = rnd() % 2 ? pick(1) : C;
                r = ex_select(x, w, c->id, A->id, B->id), want = c->v == 0 ? a : b;
                break;
            }
            case 13: {
                unsigned s = rnd() % 3 ? 64 : (rnd() % 2 ? 51 : 32);
                const entry *p = pick(64), *q = pick(64);
                u128 pr = p->v * q->v;
                if (ex_mulx(x, s, p->id, q->id, &r, &r1) != 0)
                    failf("%s: mulx failed", what);
                want = pr & msk(s), want1 = (pr >> s) & msk(64), w = 64, m = msk(64);
                check_node(x, what, r1, want1, in);
                push(r1, 64, want1);
                break;
            }
            case 14:
            case 15: {
                unsigned s = rnd() % 3 ? 64 : 51;
                const entry *c = pick(1), *p = pick(64), *q = pick(64);
                if (op == 14) {
                    u128 sum = c->v + p->v + q->v;
                    if (ex_addcarry(x, s, c->id, p->id, q->id, &r, &r1) != 0)
                        failf("%s: addcarry failed", what);
                    want = sum & msk(s), want1 = (sum >> s) & 1;
                } else {
                    if (ex_subborrow(x, s, c->id, p->id, q->id, &r, &r1) != 0)
                        failf("%s: subborrow failed", what);
                    want = (p->v - q->v - c->v) & msk(s), want1 = p->v < q->v + c->v;
                }
                w = 64, m = msk(64);
                check_node(x, what, r1, want1, in);
                push(r1, 1, want1);
                break;
            }
            case 17:
            case 18: {
                /* lowered two-word arithmetic (the carry-chain and shrd rules): (h1:l1) + (h2:l2) from two mulx
                 * products, or a product plus a 64-bit value; then the words, or shrd of the sum */
                const entry *p1 = pick(64), *q1 = pick(64), *p2 = pick(64), *q2 = pick(64);
                ex_id l1, h1, l2, h2, sl, cl, sh, ch;
                u128 P1 = p1->v * q1->v, P2 = p2->v * q2->v;
                ex_mulx(x, 64, p1->id, q1->id, &l1, &h1);
                if (rnd() % 3 == 0) {
                    l2 = p2->id, h2 = ex_const(x, 0), P2 = p2->v;
                } else {
                    ex_mulx(x, 64, p2->id, q2->id, &l2, &h2);
                }
                if (rnd() % 2 == 0) { /* a shifted pair: (h:l) << 1 as lowered (shl, shrd) */
                    h1 = ex_shrd(x, h1, l1, 63), l1 = ex_shl(x, 64, l1, 1);
                    P1 <<= 1;
                }
                ex_addcarry(x, 64, ex_const(x, 0), l1, l2, &sl, &cl);
                ex_addcarry(x, 64, cl, h1, h2, &sh, &ch);
                u128 S = P1 + P2;
                check_node(x, what, sl, S & msk(64), in);
                check_node(x, what, sh, (S >> 64) & msk(64), in);
                bool carry = S < P1; /* the sum's bit 128 */
                check_node(x, what, ch, carry, in);
                k %= 64;
                r = op == 17 ? ex_shrd(x, sh, sl, k) : ex_shr(x, 64, ex_shrd(x, sh, sl, k), 0);
                want = (S >> k) & msk(64), w = 64, m = msk(64);
                break;
            }
            case 19: {
                /* masks from a bit (0 - t, t - 1), then and/or/xor/shr with them (the select rules) */
                const entry *t1 = pick(1), *p = pick(128), *q = pick(128);
                unsigned mw = rnd() % 2 ? 64 : 128;
                bool inv = rnd() % 2;
                ex_id mk = inv ? ex_sub(x, mw, t1->id, ex_const(x, 1)) : ex_sub(x, mw, ex_const(x, 0), t1->id);
                u128 mv = (inv ? t1->v - 1 : 0 - t1->v) & msk(mw);
                ex_id sel = ex_and(x, mw, mk, p->id); /* a select */
                u128 sv = mv & p->v & msk(mw);
                check_node(x, what, sel, sv, in);
                switch (rnd() % 4) {
                case 0: r = ex_or(x, w, sel, ex_and(x, mw, ex_not(x, mw, mk), q->id)), want = sv | (~mv & q->v & msk(mw)); break;
                case 1: r = ex_xor(x, w, ex_and(x, mw, mk, ex_xor(x, mw, p->id, q->id)), q->id),
                        want = (mv & ((p->v ^ q->v) & msk(mw))) ^ q->v; break;
                case 2: r = ex_shr(x, w, mk, k % mw), want = mv >> (k % mw); break;
                default: r = ex_xor(x, w, ex_xor(x, w, p->id, q->id), p->id), want = (p->v ^ q->v) ^ p->v; break;
                }
                break;
            }
            case 20:
            case 21: {
                /* two carries of one addition grouped two ways: (X >> 64) + (((X mod 2^64) + R) >> 64) */
                const entry *p = pick(64), *q = pick(64), *e = pick(64), *f2 = pick(64);
                ex_id X = ex_mul(x, 128, p->id, q->id);
                u128 xv = p->v * q->v;
                if (op == 21) { /* X a sum that may wrap at 2^128 */
                    X = ex_add(x, 128, X, ex_shl(x, 128, e->id, 64));
                    xv += e->v << 64;
                }
                ex_id lo = ex_trunc(x, 64, X), Y = ex_add(x, 128, lo, ex_add(x, 128, e->id, f2->id));
                u128 yv = (xv & msk(64)) + e->v + f2->v;
                if (op == 21 && rnd() % 2) { /* Y a u128 accumulation that may wrap at 2^128 too */
                    const entry *g = pick(64), *h = pick(64);
                    Y = ex_add(x, 128, Y, ex_add(x, 128, ex_mul(x, 128, g->id, h->id), ex_shl(x, 128, g->id, 64)));
                    yv += g->v * h->v + (g->v << 64);
                }
                ex_id hx = ex_shr(x, 64, X, 64), hy = ex_shr(x, 64, Y, 64);
                r = ex_add(x, w, hx, hy), want = (xv >> 64) + (yv >> 64);
                break;
            }
            case 22:
            case 23: {
                /* a constant plus a multiple of a bit, shifted down (linear in the bit); 0 < t, t < 1 */
                const entry *t1 = pick(1);
                u128 cc = rnd() % 2 ? (u128)rnd() : (((u128)rnd() << 64) | rnd()) >> (rnd() % 64 + 2);
                u128 kk = rnd() % 2 ? (u128)rnd() : (((u128)rnd() << 64) | rnd()) >> (rnd() % 64 + 2);
                if (op == 22) {
                    ex_id sm = ex_sum(x, 128, &t1->id, &cc, 1, kk);
                    r = ex_shr(x, w, sm, k % 128), want = (kk + cc * t1->v) >> (k % 128);
                } else if (rnd() % 2) {
                    r = ex_lt(x, ex_const(x, 0), t1->id), want = 0 < t1->v, w = 1, m = 1;
                } else {
                    r = ex_lt(x, t1->id, ex_const(x, 1)), want = t1->v < 1, w = 1, m = 1;
                }
                break;
            }
            default: {
                const entry *p = pick(64), *q = pick(64);
                k %= 128;
                r = ex_shrd(x, p->id, q->id, k), want = ((p->v << 64) | q->v) >> k, w = 64, m = msk(64);
                break;
            }
            }
            check_node(x, what, r, want & m, in);
            push(r, w, want);
        }
        /* the general sum with random coefficients (negative ones too) */
        for (unsigned step = 0; step < 10; step++) {
            unsigned w = widths[rnd() % 8], n = 1 + (unsigned)(rnd() % 5);
            ex_id ids[5];
            u128 c[5], kk = rnd() % 3 ? 0 : rnd(), want = kk;
            for (unsigned i = 0; i < n; i++) {
                const entry *e = pick(128);
                ids[i] = e->id;
                switch (rnd() % 4) {
                case 0: c[i] = 1; break;
                case 1: c[i] = ~(u128)0; break;
                case 2: c[i] = (u128)1 << (rnd() % 128); break;
                default: c[i] = rnd(); break;
                }
                want += c[i] * e->v;
            }
            check_node(x, "sum", ex_sum(x, w, ids, c, n, kk), want & msk(w), in);
        }
        check_linear(x, t, in);
        ex_ctx_free(x);
    }
    printf("rules: %u results checked against concrete evaluation; linear forms: %u nodes of %u expressions "
           "evaluated on %u inputs each\n", rules_checked, lf_nodes, lf_trials, LF_INPUTS);
}

/* ---- 2b. linear forms (check/lf.h): compiler regroupings that must meet ------------------------------------------ */
static unsigned lf_same;
static void expect_linear(ex_ctx *x, lf_ctx *l, const char *what, ex_id a, ex_id b)
{
    lf_id fa = lf_of(l, a), fb = lf_of(l, b);
    if (!fa || fa != fb) {
        char pa[400], pb[400];
        lf_print(l, fa, pa, sizeof pa);
        lf_print(l, fb, pb, sizeof pb);
        failf("linear %s: %s vs %s", what, pa, pb);
        return;
    }
    /* and both evaluate as their expressions do */
    uint64_t in0[4], in1[4];
    const uint64_t *in[2] = { in0, in1 };
    ir_u128 *ev = malloc(((size_t)ex_count(x) + 1) * sizeof *ev);
    ex_id pair[2] = { a, b };
    for (unsigned r = 0; r < 200 && ev; r++) {
        for (unsigned i = 0; i < 4; i++) {
            in0[i] = r < 4 ? (r & 1 ? ~(uint64_t)0 : 0) : rnd();
            in1[i] = r < 4 ? (r & 2 ? 1 : 0) : rnd() & 1;
        }
        ex_eval_all(x, in, ev);
        ex_id bad = 0;
        if (lf_check_eval(l, pair, 2, in, ev, &bad) != 0) {
            failf("linear %s: evaluation differs", what);
            break;
        }
    }
    free(ev);
    lf_same++;
}

static void test_linear_forms(void)
{
    ex_ctx *x = ex_ctx_new();
    ex_ctx_set_raw(x, true);
    lf_ctx *l = lf_new(x);
    const u128 max64 = ~(uint64_t)0;
    ex_id a0 = ex_input(x, 0, 0, 0, max64), a1 = ex_input(x, 0, 1, 0, max64);
    ex_id b0 = ex_input(x, 0, 2, 0, max64), b1 = ex_input(x, 0, 3, 0, max64);
    ex_id cin = ex_input(x, 1, 0, 0, 1);
    ex_id zero = ex_const(x, 0);
    /* a + b + cin: one add-with-carry, or a + b then + cin with the two carries added (gcc's u128 addcarryx) */
    ex_id s, c, s1, c1, s2, c2;
    ex_addcarry(x, 64, cin, a0, b0, &s, &c);
    ex_addcarry(x, 64, zero, a0, b0, &s1, &c1);
    ex_addcarry(x, 64, zero, s1, cin, &s2, &c2);
    expect_linear(x, l, "sum regrouped", s, s2);
    expect_linear(x, l, "carries added", c, ex_add(x, 64, c1, c2));
    /* the high word of m * (2^32 - 1): mulx by the constant, or (m >> 32) - borrow((m << 32) mod 2^64 < m) */
    ex_id lo, hi, d, bw;
    ex_mulx(x, 64, a0, ex_const(x, 0xffffffff), &lo, &hi);
    ex_subborrow(x, 64, zero, ex_shl(x, 64, a0, 32), a0, &d, &bw);
    expect_linear(x, l, "low word by shifts", lo, d);
    expect_linear(x, l, "high word by shifts", hi, ex_sub(x, 64, ex_shr(x, 64, a0, 32), bw));
    /* a borrow: subborrowx, or bit 127 of the 128-bit two's complement a - b - bin (the emitted C's helper) */
    ex_subborrow(x, 64, cin, a0, b0, &d, &bw);
    ex_id t3[3] = { a0, b0, cin };
    u128 c3[3] = { 1, ~(u128)0, ~(u128)0 };
    expect_linear(x, l, "borrow as bit 127", bw, ex_shr(x, 1, ex_sum(x, 128, t3, c3, 3, 0), 127));
    /* a two-word borrow chain, or one comparison of the two-word values */
    ex_id d0, w0, d1, w1;
    ex_subborrow(x, 64, zero, a0, b0, &d0, &w0);
    ex_subborrow(x, 64, w0, a1, b1, &d1, &w1);
    ex_id ta[2] = { a0, a1 }, tb[2] = { b0, b1 };
    u128 cw[2] = { 1, (u128)1 << 64 };
    expect_linear(x, l, "two-word borrow", w1, ex_lt(x, ex_sum(x, 128, ta, cw, 2, 0), ex_sum(x, 128, tb, cw, 2, 0)));
    /* a two-word carry chain, or the carry of the two-word sum */
    ex_addcarry(x, 64, zero, a0, b0, &s1, &c1);
    ex_addcarry(x, 64, c1, a1, b1, &s2, &c2);
    ex_id t4[4] = { a0, a1, b0, b1 };
    u128 c4[4] = { 1, (u128)1 << 64, 1, (u128)1 << 64 };
    ex_id wide = ex_sum(x, 128, t4, c4, 4, 0); /* may wrap: its carry is lost, so compare the high word */
    expect_linear(x, l, "two-word sum, high word", s2, ex_shr(x, 64, wide, 64));
    /* clang adds a bit into the low word of a square without a carry (x^2 mod 2^64 <= 2^64 - 4): as a 64-bit add,
     * or as a 128-bit sum; the bit is the top bit of one word, or of the high word of a wrapping two-word sum
     * (floor(W / 2^127) - 2 floor(W / 2^128) of the unwrapped W is a bit: sum_bounds' pair of floors) */
    ex_id sq = ex_mul(x, 64, a1, a1);
    ex_id bits[2] = { ex_shr(x, 64, b1, 63), ex_shr(x, 64, ex_shr(x, 64, wide, 64), 63) };
    for (unsigned i = 0; i < 2; i++) {
        ex_id tq[2] = { sq, bits[i] };
        ex_id full = ex_sum(x, 128, tq, NULL, 2, 0);
        expect_linear(x, l, i ? "square low word + top bit of a two-word sum" : "square low word + top bit",
                      ex_add(x, 64, sq, bits[i]), full);
        expect_linear(x, l, i ? "square low word + top bit of a two-word sum: no carry" : "square low word + top bit: no carry",
                      ex_shr(x, 64, full, 64), zero);
    }
    /* a field subtraction's a - b + 2^52 as a wrapping 64-bit sum (the coefficient of b is 2^64 - 1) of two 51-bit
     * values, each the low bits of a product (their bounds are narrower than their terms' intervals): the exact
     * integer, so its bits 60 and up are 0 */
    ex_id m51 = ex_const(x, ((u128)1 << 51) - 1);
    ex_id pa = ex_and(x, 64, ex_mul(x, 64, a0, b0), m51), pb = ex_and(x, 64, ex_mul(x, 64, a1, b1), m51);
    ex_id tsub[2] = { pa, pb };
    u128 csub[2] = { 1, msk(64) };
    ex_id fsub = ex_sum(x, 64, tsub, csub, 2, (u128)1 << 52);
    expect_linear(x, l, "a - b + 2^52 of 51-bit values: no bits from 60 up", ex_shr(x, 64, fsub, 60), zero);
    lf_free(l);
    ex_ctx_free(x);
    printf("linear forms: %u regroupings meet\n", lf_same);
}

/* ---- 2c. the range rule (lf_range_equal): equal only by a range argument ----------------------------------------- */
/* The high word of the product p = a * b plus a constant, with the carry from its low word:
 *     X = carry of (hi + k1 + carry of (lo + k0)) = floor((p + k0 + 2^64 k1) / 2^128).
 * With k0 = 2^64 - 2, k1 = 1: p + 2^65 - 2 <= (2^64 - 1)^2 + 2^65 - 2 = 2^128 - 1, so X = 0 always; the exact form
 * cannot see it (the atoms' intervals, lo <= 2^64 - 1 and hi <= 2^64 - 2, allow 2^128 + 2^64 - 3), but the product
 * node p (exact form lo + 2^64 hi, bounds [0, (2^64 - 1)^2]) bounds the floor's operand. With k0 = 2^64 - 1, k1 = 2
 * X is 1 for a = b = 2^64 - 1: the rule must not prove X = 0 (the bound fails). */
static void test_range_rule(void)
{
    ex_ctx *x = ex_ctx_new();
    ex_ctx_set_raw(x, true);
    lf_ctx *l = lf_new(x);
    const u128 max64 = ~(uint64_t)0;
    ex_id a = ex_input(x, 0, 0, 0, max64), b = ex_input(x, 0, 1, 0, max64);
    ex_id p = ex_mul(x, 128, a, b);
    ex_id lo = ex_trunc(x, 64, p), hi = ex_shr(x, 128, p, 64);
    ex_id zero = ex_const(x, 0);
    lf_id z = lf_of(l, zero), cand[3] = { lf_of(l, p), lf_of(l, a), lf_of(l, b) };
    for (int bad = 0; bad < 2; bad++) {
        u128 k0 = bad ? max64 : max64 - 1, k1 = bad ? 2 : 1;
        ex_id s0, c0, s1, c1;
        ex_addcarry(x, 64, zero, lo, ex_const(x, k0), &s0, &c0);
        ex_addcarry(x, 64, c0, hi, ex_const(x, k1), &s1, &c1);
        lf_id fx = lf_of(l, c1);
        if (!fx || !z || !cand[0]) {
            failf("range rule: no linear form");
            break;
        }
        if (fx == z) { /* the test needs a form that differs */
            failf("range rule (%s): the linear forms already meet", bad ? "bound fails" : "proves");
            continue;
        }
        int rc = lf_range_equal(l, fx, z, cand, 3);
        if (rc != (bad ? 0 : 1))
            failf("range rule (%s): lf_range_equal gave %d", bad ? "bound fails" : "proves", rc);
        /* the facts themselves, concretely: X is 0 for every sampled input (1 for a = b = 2^64 - 1 when bad) */
        uint64_t in0[2];
        const uint64_t *in[1] = { in0 };
        ir_u128 v;
        bool one = false;
        for (unsigned r = 0; r < 2000; r++) {
            in0[0] = r < 2 ? max64 - r : rnd();
            in0[1] = r < 2 ? max64 : rnd();
            ex_eval(x, c1, in, &v);
            one |= v != 0;
        }
        if (one != bad)
            failf("range rule (%s): concrete values disagree with the test's premise", bad ? "bound fails" : "proves");
        /* no candidates: nothing to argue with */
        if (lf_range_equal(l, fx, z, cand, 0) != 0)
            failf("range rule: proved without candidates");
    }
    /* a direct combination whose bound is too wide: the carry c of lo + 2^64 - 2 is (lo + 2^64 - 2 - s) / 2^64 with
     * the sum word s, in (-1, 2) by the words' ranges; c is 1 for most inputs, so it must not be proved 0 */
    {
        ex_id s, c;
        ex_addcarry(x, 64, zero, lo, ex_const(x, max64 - 1), &s, &c);
        lf_id wc[2] = { lf_of(l, s), lf_of(l, lo) };
        if (lf_range_equal(l, lf_of(l, c), z, wc, 2) != 0)
            failf("range rule (direct, bound fails): proved");
    }
    /* lf_alias: a node given another's form; a node above it built on it gets the new form */
    ex_id s0, c0, s1, c1;
    ex_addcarry(x, 64, zero, lo, ex_const(x, max64 - 1), &s0, &c0);
    ex_addcarry(x, 64, c0, hi, ex_const(x, 1), &s1, &c1);
    ex_id above = ex_add(x, 64, c1, a);
    if (lf_alias(l, c1, z) != 0 || lf_of(l, above) != lf_of(l, a) || lf_of(l, c1) != z)
        failf("range rule: lf_alias did not reach the node above");
    lf_free(l);
    ex_ctx_free(x);
    printf("range rule: 3 cases\n");
}

/* ---- 2d. Montgomery's dropped word: an exact division ------------------------------------------------------------
 * A Montgomery round (REDC, Montgomery 1985, Math. Comp. 44) adds m * p to t with m = (t0 * m') mod 2^64 and
 * p0 * m' = -1 (mod 2^64), so the low word S = t0 + lo(m * p0) is 0 mod 2^64 and its carry floor(S / 2^64) is S / 2^64
 * exactly: 2^64 * carry = t0 + lo(m * p0) as integers. In lf.h the digit m is an atom (m' = secp256k1's is far from
 * 0 mod 2^64), and the floor of a sum with digits in its low word is rewritten by the formal congruence m = m' t0
 * (mod 2^64) into an exact quotient: the add/adc form and the u128 form of a round meet only through that rewrite
 * (they fail with it disabled). Checked with t0 the low word of a product, and t0 a sum word with its own carry; with
 * m' off by one (p0 m' + 1 = p0 mod 2^64, not 0) the identity is false and the forms must differ. */
static void test_exact_division(void)
{
    ex_ctx *x = ex_ctx_new();
    ex_ctx_set_raw(x, true);
    lf_ctx *l = lf_new(x);
    const u128 max64 = ~(uint64_t)0;
    const uint64_t p0 = 0xfffffffefffffc2full, mp = 0xd838091dd2253531ull; /* secp256k1: p0 * mp = -1 mod 2^64 */
    ex_id a0 = ex_input(x, 0, 0, 0, max64), a1 = ex_input(x, 0, 1, 0, max64);
    ex_id b0 = ex_input(x, 0, 2, 0, max64), b1 = ex_input(x, 0, 3, 0, max64);
    ex_id zero = ex_const(x, 0);
    ex_id t0s[2] = { ex_mul(x, 64, a0, b0), ex_add(x, 64, ex_mul(x, 64, a0, b0), ex_shr(x, 128, ex_mul(x, 128, a1, b1), 64)) };
    unsigned n = 0;
    for (unsigned w = 0; w < 2; w++)
        for (int near = 0; near < 2; near++) {
            ex_id t0 = t0s[w];
            ex_id m = ex_mul(x, 64, t0, ex_const(x, near ? mp + 1 : mp));
            ex_id plo, phi, s0, c0, s1, c1;
            ex_mulx(x, 64, m, ex_const(x, p0), &plo, &phi);
            ex_addcarry(x, 64, zero, t0, plo, &s0, &c0);   /* s0 is dropped: 0 when m' is right */
            ex_addcarry(x, 64, c0, b1, phi, &s1, &c1);
            /* the exact division: 2^64 c0 = t0 + lo(m p0) */
            ex_id lhs = ex_shl(x, 128, c0, 64), rhs = ex_add(x, 128, t0, plo);
            /* the round as a u128 sum: U = t0 + m p0, V = floor(U / 2^64) + t1 */
            ex_id U = ex_add(x, 128, t0, ex_mul(x, 128, m, ex_const(x, p0)));
            ex_id V = ex_add(x, 128, ex_shr(x, 128, U, 64), b1);
            char what[96];
            if (!near) {
                snprintf(what, sizeof what, "exact division (t0 %s)", w ? "a sum word" : "a product word");
                expect_linear(x, l, what, lhs, rhs);
                expect_linear(x, l, what, s0, zero);
                snprintf(what, sizeof what, "Montgomery round as a u128 sum (t0 %s)", w ? "a sum word" : "a product word");
                expect_linear(x, l, what, s1, ex_trunc(x, 64, V));
                expect_linear(x, l, what, c1, ex_shr(x, 128, V, 64));
                n++;
                continue;
            }
            /* near miss: S mod 2^64 = t0 (p0 (m' + 1) + 1) = p0 t0 mod 2^64, not 0; the forms must differ, and so must
             * the values on some input */
            lf_id fl = lf_of(l, lhs), fr = lf_of(l, rhs), fs = lf_of(l, s0), fz = lf_of(l, zero);
            if (!fl || !fr || !fs || !fz || fl == fr || fs == fz)
                failf("exact division, m' off by one (t0 %s): the linear forms meet (or none)", w ? "a sum word" : "a product word");
            uint64_t in0[4];
            const uint64_t *in[1] = { in0 };
            bool differ = false;
            for (unsigned r = 0; r < 64 && !differ; r++) {
                for (unsigned i = 0; i < 4; i++)
                    in0[i] = rnd();
                ir_u128 vl, vr;
                ex_eval(x, lhs, in, &vl);
                ex_eval(x, rhs, in, &vr);
                differ = vl != vr;
            }
            if (!differ)
                failf("exact division, m' off by one: no input shows the difference (the test's premise)");
            n++;
        }
    lf_free(l);
    ex_ctx_free(x);
    printf("exact division: %u cases\n", n);
}

/* ---- quotient digits over one basis (lf.c, exq_form) ---------------------------------------------------------------
 * p384's Montgomery round (m' = 2^32 + 1, p0 = 2^32 - 1; NIST FIPS 186-4, D.1.2.4): the program takes the digit
 * m = (t m') mod 2^64 and the products m p0 as multiplies; gcc computes m as t + (t << 32) and m p0 as
 * (m << 32) - m with shifts. Both sides' exact quotients of the digit must be written over the basis (t, H), so the
 * carries of t + lo(m p0) and the high words meet by their linear forms; each pair is also evaluated (expect_linear:
 * 200 inputs, the first four all-zero and all-ones). */
static void test_digit_basis(void)
{
    ex_ctx *x = ex_ctx_new();
    ex_ctx_set_raw(x, true);
    lf_ctx *l = lf_new(x);
    const u128 max64 = ~(uint64_t)0;
    const uint64_t mp = 0x100000001ull, p0 = 0xffffffffull;
    ex_id a0 = ex_input(x, 0, 0, 0, max64), b0 = ex_input(x, 0, 1, 0, max64), t1 = ex_input(x, 0, 2, 0, max64);
    ex_id t = ex_mul(x, 64, a0, b0);
    ex_id mP = ex_mul(x, 64, t, ex_const(x, mp));
    ex_id mC = ex_add(x, 64, t, ex_shl(x, 64, t, 32));
    expect_linear(x, l, "digit: t m' vs t + (t << 32)", mP, mC);
    /* lo(m p0) and hi(m p0) */
    ex_id prodP = ex_mul(x, 128, mP, ex_const(x, p0));
    ex_id loP = ex_trunc(x, 64, prodP), hiP = ex_shr(x, 128, prodP, 64);
    ex_id loC = ex_sub(x, 64, ex_shl(x, 64, mC, 32), mC);
    ex_id hiC = ex_sub(x, 64, ex_shr(x, 64, mC, 32), ex_lt(x, ex_shl(x, 64, mC, 32), mC));
    expect_linear(x, l, "digit: lo(m p0)", loP, loC);
    expect_linear(x, l, "digit: hi(m p0)", hiP, hiC);
    /* the dropped word's carry and the next word */
    ex_id cP = ex_shr(x, 128, ex_add(x, 128, t, loP), 64);
    ex_id sC = ex_add(x, 64, t, loC);
    ex_id cC = ex_lt(x, sC, t);
    expect_linear(x, l, "digit: carry of t + lo(m p0)", cP, cC);
    ex_id wP = ex_trunc(x, 64, ex_add(x, 128, ex_add(x, 128, hiP, cP), t1));
    ex_id wC = ex_add(x, 64, ex_add(x, 64, hiC, cC), t1);
    expect_linear(x, l, "digit: next word", wP, wC);
    ex_id kP = ex_shr(x, 128, ex_add(x, 128, ex_add(x, 128, hiP, cP), t1), 64);
    ex_id kC = ex_add(x, 64, ex_lt(x, ex_add(x, 64, hiC, t1), t1), ex_lt(x, wC, ex_add(x, 64, hiC, t1)));
    expect_linear(x, l, "digit: next word's carry", kP, kC);
    lf_free(l);
    ex_ctx_free(x);
    printf("digit basis: 6 pairs\n");
}

/* ---- 2e. cut-points (smt_differ_cut, lf_cut_classes) --------------------------------------------------------------
 * The final conditional subtraction of a Montgomery multiply, in miniature: four words W_i = hi(K_i x_i) (x_i
 * inputs, K_i dense even 64-bit constants near 2^64), then out = T - p if T >= p else T (T = W as a 256-bit number, p a
 * constant near 2^256). The "program" takes hi of the u128 product and a subborrow chain selected by its borrow
 * (fiat's cmovznz); the "code" computes each W_i as hi(A x) + hi(B x) + carry(lo(A x) + lo(B x)) with A + B = K_i
 * (another node, the same exact linear form), and the subtraction as T + (2^256 - p) with an add/adc chain and a
 * select by xor, W0 ^ ((W0 ^ e0) & -carry) (opaque to the linear forms: the limbs' forms differ). Without cuts z3 must relate the three constant multipliers of each word (bit-blasted:
 * "unproved" within the timeout); with the words cut to free bounded variables the query is four words through two
 * borrow chains and proves at once. A code whose chain adds a wrong constant (p_3 changed) is never proved, though
 * its cut model is no counterexample (the inputs that reach it are cut away). */
static void test_cut_points(void)
{
    ex_ctx *x = ex_ctx_new();
    ex_ctx_set_raw(x, true);
    lf_ctx *l = lf_new(x);
    const u128 max64 = ~(uint64_t)0;
    /* even constants: lo(c x) for an odd c far from 0 mod 2^64 is a quotient-digit atom (lf.h), not wanted here */
    const uint64_t K[4] = { 0xfffffffe9c3b1f5cull, 0xffffffffd8a24cb2ull, 0xfffffffff7c1e65aull, 0xfffffffffe2a9d10ull };
    const uint64_t A[4] = { 0x9e3779b97f4a7c14ull, 0xbf58476d1ce4e5b8ull, 0x94d049bb133111eaull, 0xd6e8feb86659fd92ull };
    /* p: below 2^256 by more than secp256k1's prime, so that every word decides (W_i < K_i: a word of 2^64 - 1 would
     * let the bounds fix the borrow) */
    const uint64_t P[4] = { 0xfffffffefffffc2full, 0xffffffff00000000ull, 0xfffffffff0000000ull, 0xfffffffff0000000ull };
    ex_id zero = ex_const(x, 0), wp[4], wc[4];
    for (unsigned i = 0; i < 4; i++) {
        ex_id xi = ex_input(x, 0, i, 0, max64), lo, hi, lo1, hi1, lo2, hi2, s, c;
        ex_mulx(x, 64, xi, ex_const(x, K[i]), &lo, &hi);
        wp[i] = hi;
        ex_mulx(x, 64, xi, ex_const(x, A[i]), &lo1, &hi1);
        ex_mulx(x, 64, xi, ex_const(x, K[i] - A[i]), &lo2, &hi2);
        ex_addcarry(x, 64, zero, lo1, lo2, &s, &c);
        wc[i] = ex_add(x, 64, ex_add(x, 64, hi1, hi2), c);
    }
    /* the program: d = W - p by subborrow, out0 = borrow ? W0 : d0 */
    ex_id d[4], b = zero;
    for (unsigned i = 0; i < 4; i++)
        ex_subborrow(x, 64, b, wp[i], ex_const(x, P[i]), &d[i], &b);
    ex_id prog = ex_select(x, 64, b, d[0], wp[0]);
    unsigned n = 0;
    for (int wrong = 0; wrong < 2; wrong++) {
        /* the code: e = W + (2^256 - p) by add/adc, carry c = [W >= p]; out0 = (e0 & -c) | (W0 & ~-c) */
        ex_id e[4], c = zero;
        for (unsigned i = 0; i < 4; i++) {
            uint64_t q = ~P[i] + (i == 0); /* 2^256 - p, word i (no carry out of word 0: p0 != 0) */
            if (wrong && i == 3)
                q ^= 0x4000000000000000ull;
            ex_addcarry(x, 64, c, wc[i], ex_const(x, q), &e[i], &c);
        }
        ex_id mask = ex_sub(x, 64, zero, c);
        ex_id code = ex_xor(x, 64, wc[0], ex_and(x, 64, ex_xor(x, 64, wc[0], e[0]), mask));
        const char *what = wrong ? "cut-points, a wrong constant" : "cut-points";
        if (!code || !prog || code == prog) {
            failf("%s: the code and the program must be different nodes", what);
            continue;
        }
        /* the premise: the words meet by their exact forms, the limbs do not; concretely equal (or not, when wrong) */
        for (unsigned i = 0; i < 4 && !wrong; i++)
            expect_linear(x, l, "cut-points, a word", wc[i], wp[i]);
        if (lf_of(l, code) == lf_of(l, prog))
            failf("%s: the limbs' linear forms already meet", what);
        uint64_t in0[4];
        const uint64_t *in[1] = { in0 };
        bool differ = false;
        for (unsigned r = 0; r < 4000; r++) {
            for (unsigned i = 0; i < 4; i++)
                in0[i] = r < 2 ? (r ? max64 : 0) : (r & 1) ? max64 - (rnd() >> (rnd() % 64)) : rnd();
            ir_u128 vc, vp;
            ex_eval(x, code, in, &vc);
            ex_eval(x, prog, in, &vp);
            differ |= vc != vp;
        }
        if (differ != (bool)wrong)
            failf("%s: concrete values %s (the test's premise)", what, differ ? "differ" : "never differ");
        uint32_t cnt = ex_count(x), nmem = 0;
        uint32_t *cls = calloc((size_t)cnt + 1, sizeof *cls);
        uint8_t *width = calloc((size_t)cnt + 1, 1);
        ir_u128 *clo = calloc((size_t)cnt + 1, sizeof *clo), *chi = calloc((size_t)cnt + 1, sizeof *chi);
        ex_id *members = calloc((size_t)cnt + 1, sizeof *members);
        int ncls = cls && width && clo && chi && members
                       ? lf_cut_classes(l, code, prog, cls, width, clo, chi, members, &nmem)
                       : -1;
        /* every word is a class, holding both of its nodes */
        for (unsigned i = 0; i < 4 && ncls > 0; i++)
            if (!cls[wp[i]] || cls[wp[i]] != cls[wc[i]] || width[cls[wp[i]]] != 64 || chi[cls[wp[i]]] > max64)
                failf("%s: word %u is not one class of both nodes", what, i);
        if (ncls < 4)
            failf("%s: %d classes", what, ncls);
        smt_cuts cuts = { cls, cnt, ncls > 0 ? (uint32_t)ncls : 0, width, clo, chi, 0, 0 };
        smt_result sr;
        smt_verdict v = smt_differ_cut(x, code, prog, &cuts, 20000, &sr);
        if (!wrong && v != SMT_EQUAL)
            failf("%s: with cuts %s (%s), want EQUAL", what, smt_verdict_name(v), sr.err);
        if (wrong && v == SMT_EQUAL)
            failf("%s: proved with cuts", what);
        printf("%s: with cuts %s in %.3f s (%u nodes, %u cut variables, %u cut sums inside sums)\n", what,
               smt_verdict_name(v), sr.seconds, sr.nnodes, sr.ncutvars, sr.nresums);
        smt_result_free(&sr);
        if (!wrong) { /* without the cuts z3 does not decide it in the time */
            v = smt_differ(x, code, prog, 3000, &sr);
            if (v == SMT_EQUAL || v == SMT_DIFFERENT)
                failf("%s: without cuts %s in %.3f s: the test needs a query z3 cannot decide", what,
                      smt_verdict_name(v), sr.seconds);
            printf("%s: without cuts %s in %.3f s (%s)\n", what, smt_verdict_name(v), sr.seconds, sr.err);
            smt_result_free(&sr);
        }
        free(cls);
        free(width);
        free(clo);
        free(chi);
        free(members);
        n++;
    }
    /* resum (smt.c): a cut sum C = x + y inside S = 2x + 3y is not S = 2C + (3 - 2) y dropped: the multiplier found from
     * x must fit every term of C. With C as a class of its own, 2x + 3y against 2x + 2y = 2C is never EQUAL (they
     * differ whenever y != 0), while 2x + 2y against 2C's spelling 2(x + y) is one node. */
    {
        ex_id xa = ex_input(x, 1, 0, 0, max64), ya = ex_input(x, 1, 1, 0, max64);
        ex_id C = ex_add(x, 64, xa, ya);
        ex_id S = ex_add(x, 64, ex_add(x, 64, ex_shl(x, 64, xa, 1), ex_shl(x, 64, ya, 1)), ya);
        ex_id D = ex_shl(x, 64, C, 1);
        uint32_t cnt = ex_count(x);
        uint32_t *cls = calloc((size_t)cnt + 1, sizeof *cls);
        uint8_t width[2] = { 0, 64 };
        ir_u128 clo[2] = { 0, 0 }, chi[2] = { 0, max64 };
        if (cls && C && S && D && C != S && S != D && ex_get(x, S)->nargs == 2 && ex_get(x, D)->nargs == 2) {
            cls[C] = 1;
            smt_cuts cuts = { cls, cnt, 1, width, clo, chi, 0, 0 };
            smt_result sr;
            smt_verdict v = smt_differ_cut(x, S, D, &cuts, 20000, &sr);
            if (v == SMT_EQUAL || sr.nresums != 1)
                failf("cut-points, resum with a multiplier that does not fit: %s, %u cut sums inside sums",
                      smt_verdict_name(v), sr.nresums);
            smt_result_free(&sr);
            n++;
        } else
            failf("cut-points, resum: the sums are not as the test wants them");
        free(cls);
    }
    /* refinement of the cuts (smt_differ_cut): with C = x + y cut to a free variable, C ^ x against
     * ((x | y) + (x & y)) ^ x (the same value by another way, not cut) has models, all spurious (the free C is not
     * x + y). The class is stale in every such model, so it is uncut and the query asked again: EQUAL. Against a
     * wrong partner ((x | y) + (x & y) + 1) ^ x the answer is a real difference (the model replayed), never EQUAL. */
    {
        ex_id xa = ex_input(x, 2, 0, 0, max64), ya = ex_input(x, 2, 1, 0, max64);
        ex_id C = ex_add(x, 64, xa, ya);
        ex_id D = ex_add(x, 64, ex_or(x, 64, xa, ya), ex_and(x, 64, xa, ya));
        ex_id S = ex_xor(x, 64, C, xa), T = ex_xor(x, 64, D, xa);
        ex_id W = ex_xor(x, 64, ex_add(x, 64, D, ex_const(x, 1)), xa);
        uint32_t cnt = ex_count(x);
        uint32_t *cls = calloc((size_t)cnt + 1, sizeof *cls);
        uint8_t width[2] = { 0, 64 };
        ir_u128 clo[2] = { 0, 0 }, chi[2] = { 0, max64 };
        if (cls && C && D && S && T && W && C != D && S != T) {
            cls[C] = 1;
            smt_cuts cuts = { cls, cnt, 1, width, clo, chi, 0, 0 };
            smt_result sr;
            smt_verdict v = smt_differ_cut(x, S, T, &cuts, 20000, &sr);
            if (v == SMT_EQUAL) /* without refinement the free C makes the query fail */
                failf("cut-points, refinement: EQUAL without refinement");
            smt_result_free(&sr);
            cuts.refine = 3;
            v = smt_differ_cut(x, S, T, &cuts, 20000, &sr);
            if (v != SMT_EQUAL || sr.refines != 1)
                failf("cut-points, refinement: %s (%s) after %u refinements, want EQUAL after 1", smt_verdict_name(v),
                      sr.err, sr.refines);
            printf("cut-points, refinement: %s after %u refinements in %.3f s\n", smt_verdict_name(v), sr.refines,
                   sr.seconds);
            smt_result_free(&sr);
            v = smt_differ_cut(x, S, W, &cuts, 20000, &sr);
            if (v != SMT_DIFFERENT || sr.va == sr.vb)
                failf("cut-points, refinement, a wrong partner: %s (%s), want DIFFERENT", smt_verdict_name(v), sr.err);
            smt_result_free(&sr);
            n += 2;
        } else
            failf("cut-points, refinement: the nodes are not as the test wants them");
        free(cls);
    }
    lf_free(l);
    ex_ctx_free(x);
    printf("cut-points: %u cases\n", n);
}

/* test_sweep — the cut stage's sweep (check.c; Kuehlmann & Krohm sec. 3) through check_cut_sweep. The program
 * computes p_i = a_i ^ b_i and out = lo(a_0 b_0) + sum of lo(p_i p_{i+1}) (the first term shared: one class, so
 * that the limb's cut query is asked); the code computes the same words as
 * q_i = (a_i | b_i) - (a_i & b_i) (equal values, different exact forms: the linear forms do not meet, so nothing is
 * cut and the limb's query holds every word). The limb's cut query is given a tiny z3 resource limit (standing for
 * a query too large to decide): without the sweep it must stay unproved; with it, the pairs (q_i, p_i) are proved
 * one by one, the code's products take the program's forms, and the limb's query must then be proved within that
 * same limit. A wrong program (one word off by one where a_3 is one value: its pair agrees on the samples, so the
 * sweep asks it) must stay unproved with the sweep. */
static ir_func *sweep_func(unsigned k)
{
    ir_func *f = ir_func_new("sweep");
    ir_u128 lo[8] = { 0 }, hi[8];
    for (unsigned i = 0; i < 8; i++)
        hi[i] = ~(uint64_t)0;
    if (!f || ir_array_add(f, "a", false, k, lo, hi) < 0 || ir_array_add(f, "b", false, k, lo, hi) < 0 ||
        ir_array_add(f, "out", true, 1, lo, hi) < 0) {
        ir_func_free(f);
        return NULL;
    }
    return f;
}

static void test_sweep(void)
{
    enum { K = 6, LIMB_RLIMIT = 2000 };
    ir_func *f = sweep_func(K);
    if (!f) {
        failf("sweep: no function");
        return;
    }
    const char *what[3] = { "without the sweep", "with the sweep", "wrong program, with the sweep" };
    for (int c = 0; c < 3; c++) {
        ex_ctx *x = ex_ctx_new();
        ex_ctx_set_raw(x, true);
        ex_id a[K], b[K], p[K], q[K];
        for (unsigned i = 0; i < K; i++) {
            a[i] = ex_input(x, 0, i, 0, ~(uint64_t)0);
            b[i] = ex_input(x, 1, i, 0, ~(uint64_t)0);
        }
        for (unsigned i = 0; i < K; i++)
            p[i] = ex_xor(x, 64, a[i], b[i]);
        if (c == 2) /* wrong where a_3 is one value, which sampling never meets: the pair's query must refute it */
            p[3] = ex_select(x, 64, ex_lnot(x, ex_xor(x, 64, a[3], ex_const(x, 0x0123456789abcdefull))), p[3],
                             ex_add(x, 64, p[3], ex_const(x, 1)));
        ex_id shared = ex_mul(x, 64, a[0], b[0]), prog = shared; /* one class: the limb's query is asked */
        for (unsigned i = 0; i + 1 < K; i += 2)
            prog = ex_add(x, 64, prog, ex_mul(x, 64, p[i], p[i + 1]));
        ex_id boundary = ex_count(x);
        for (unsigned i = 0; i < K; i++)
            q[i] = ex_sub(x, 64, ex_or(x, 64, a[i], b[i]), ex_and(x, 64, a[i], b[i]));
        ex_id code = shared;
        for (unsigned i = 0; i + 1 < K; i += 2)
            code = ex_add(x, 64, code, ex_mul(x, 64, q[i], q[i + 1]));
        if (!prog || !code || prog == code) {
            failf("sweep, %s: the expressions are not as the test wants them", what[c]);
            ex_ctx_free(x);
            continue;
        }
        unsigned nswept = 0;
        int rc = check_cut_sweep(f, x, boundary, code, prog, LIMB_RLIMIT, c > 0, &nswept);
        printf("sweep, %s: %s, %u pairs swept\n", what[c], rc == 1 ? "proved" : rc == 0 ? "not proved" : "error",
               nswept);
        if (c == 1 && (rc != 1 || nswept < K - 1))
            failf("sweep, %s: %d with %u pairs swept (want proved, with at least %u)", what[c], rc, nswept, K - 1);
        if (c != 1 && rc != 0)
            failf("sweep, %s: %d (want 0: not proved)", what[c], rc);
        if (c == 0 && nswept != 0)
            failf("sweep, %s: %u pairs swept", what[c], nswept);
        ex_ctx_free(x);
    }
    ir_func_free(f);
}

/* ---- 2. normal forms --------------------------------------------------------------------------------------------- */

static void expect_same(ex_ctx *x, const char *what, ex_id a, ex_id b)
{
    if (!a || !b || a != b) {
        char p1[300], p2[300];
        ex_print(x, a, p1, sizeof p1);
        ex_print(x, b, p2, sizeof p2);
        failf("%s: normal forms differ: %s vs %s", what, p1, p2);
    }
}

static void test_normal_forms(void)
{
    ex_ctx *x = ex_ctx_new();
    const u128 M64 = ~(uint64_t)0, M51 = ((u128)1 << 51) - 1;
    ex_id a = ex_input(x, 0, 0, 0, M64), b = ex_input(x, 0, 1, 0, M64), c = ex_input(x, 0, 2, 0, M64);
    ex_id n1 = ex_input(x, 1, 0, 0, M51), n2 = ex_input(x, 1, 1, 0, M51);
    expect_same(x, "a+b = b+a", ex_add(x, 64, a, b), ex_add(x, 64, b, a));
    {
        /* the selects compilers make from a mask m = 0 - t (emit_c's cmovznz): (m & nz) | (~m & z), and gcc's
         * ((nz ^ z) & m) ^ z, and the borrow kept as 0 - t then shifted down */
        ex_id t = ex_lt(x, a, b), m = ex_sub(x, 64, ex_const(x, 0), t);
        ex_id sel = ex_select(x, 64, t, c, b);
        expect_same(x, "(m & nz) | (~m & z)", ex_or(x, 64, ex_and(x, 64, m, b), ex_and(x, 64, ex_not(x, 64, m), c)),
                    sel);
        expect_same(x, "((nz ^ z) & m) ^ z", ex_xor(x, 64, ex_and(x, 64, ex_xor(x, 64, b, c), m), c), sel);
        expect_same(x, "(0 - t) >> 63 = t", ex_shr(x, 64, m, 63), t);
        ex_id r0, r1;
        ex_addcarry(x, 64, ex_const(x, 0), t, ex_const(x, ~(uint64_t)0), &r0, &r1);
        expect_same(x, "carry(t + 2^64 - 1) = t", r1, t);
        expect_same(x, "0 < t = t", ex_lt(x, ex_const(x, 0), t), t);
        /* a two-word product sum as one u128 sum, and as add/adc of the words (the carries merge) */
        ex_id P = ex_mul(x, 128, a, b), Q = ex_mul(x, 128, b, c), s0, cy, h1, c2;
        ex_addcarry(x, 64, ex_const(x, 0), ex_trunc(x, 64, P), ex_trunc(x, 64, Q), &s0, &cy);
        ex_addcarry(x, 64, cy, ex_shr(x, 64, P, 64), ex_shr(x, 64, Q, 64), &h1, &c2);
        expect_same(x, "hi(P + Q) by add/adc", h1, ex_shr(x, 64, ex_add(x, 128, P, Q), 64));
    }
    expect_same(x, "a*b = b*a (u128)", ex_mul(x, 128, a, b), ex_mul(x, 128, b, a));
    expect_same(x, "a&b = b&a", ex_and(x, 64, a, b), ex_and(x, 64, b, a));
    expect_same(x, "a^b = b^a", ex_xor(x, 64, a, b), ex_xor(x, 64, b, a));
    expect_same(x, "(a+b)+c = a+(b+c) u64", ex_add(x, 64, ex_add(x, 64, a, b), c),
                ex_add(x, 64, a, ex_add(x, 64, b, c)));
    expect_same(x, "(a+b)+c = a+(b+c) u128", ex_add(x, 128, ex_add(x, 128, a, b), c),
                ex_add(x, 128, a, ex_add(x, 128, b, c)));
    expect_same(x, "(a+b)-b = a", ex_sub(x, 64, ex_add(x, 64, a, b), b), a);
    expect_same(x, "~~a = a", ex_not(x, 64, ex_not(x, 64, a)), a);
    expect_same(x, "a^a = 0", ex_xor(x, 64, a, a), ex_const(x, 0));
    ex_id lo, hi, p = ex_mul(x, 128, a, b);
    ex_mulx(x, 64, b, a, &lo, &hi);
    expect_same(x, "mulx lo = (u64)(u128)a*b", lo, ex_trunc(x, 64, p));
    expect_same(x, "mulx hi = (u64)((u128)a*b >> 64)", hi, ex_trunc(x, 64, ex_shr(x, 128, p, 64)));
    ex_id s, cy, u = ex_add(x, 128, a, b);
    ex_addcarry(x, 64, ex_const(x, 0), a, b, &s, &cy);
    expect_same(x, "addcarry sum = (u64)(a+b)", s, ex_trunc(x, 64, u));
    expect_same(x, "addcarry carry = (a+b)>>64", cy, ex_shr(x, 64, u, 64));
    /* 19*x with two lea: t = x + 8x; r = x + 2t */
    ex_id t9 = ex_add(x, 64, a, ex_shl(x, 64, a, 3));
    expect_same(x, "19*a = a + 2*(a + 8*a)", ex_mul(x, 64, a, ex_const(x, 19)), ex_add(x, 64, a, ex_shl(x, 64, t9, 1)));
    /* masks: (u64)((u128 sum) & (2^51-1)) = (u64 sum) & (2^51-1) */
    ex_id mask = ex_const(x, M51), q = ex_mul(x, 128, n1, n2), r = ex_mul(x, 128, n1, n1);
    expect_same(x, "mask of u128 sum = mask of its u64 part", ex_trunc(x, 64, ex_and(x, 128, ex_add(x, 128, q, r), mask)),
                ex_and(x, 64, ex_add(x, 64, ex_trunc(x, 64, q), ex_trunc(x, 64, r)), mask));
    /* cross-width: a wrapping u64 sum is not part of a u128 sum */
    ex_id w1 = ex_add(x, 128, ex_add(x, 64, a, b), c), w2 = ex_add(x, 128, ex_add(x, 128, a, b), c);
    if (w1 == w2)
        failf("a wrapping u64 sum was merged into a u128 sum");
    uint64_t v0[3] = { ~(uint64_t)0, ~(uint64_t)0, 5 }, v1[2] = { 0, 0 };
    const uint64_t *in[2] = { v0, v1 };
    u128 e1, e2;
    ex_eval(x, w1, in, &e1);
    ex_eval(x, w2, in, &e2);
    if (e1 != (((u128)M64 * 2) & M64) + 5 || e2 != (u128)M64 * 2 + 5)
        failf("cross-width sums evaluate wrongly");
    /* ... but one that cannot wrap is */
    expect_same(x, "non-wrapping u64 sum merges", ex_add(x, 128, ex_add(x, 64, n1, n2), c),
                ex_add(x, 128, ex_add(x, 128, n1, n2), c));
    /* unknown values are tracked */
    ex_id unk = ex_unknown(x, 1), su = ex_add(x, 64, a, unk);
    if (!ex_has_unknown(x, su) || ex_has_unknown(x, ex_add(x, 64, a, b)) || ex_unknown(x, 1) == unk)
        failf("unknown values are not tracked");
    smt_result sr;
    if (smt_differ(x, su, a, 0, &sr) != SMT_ERROR)
        failf("smt accepted an expression with an unknown value");
    /* smt: a + 2^64 b regrouped as shrd/add pairs (lowered u128 add) */
    ex_id x1 = ex_add(x, 128, ex_mul(x, 128, a, b), ex_mul(x, 128, b, c));
    ex_id l1, h1, l2, h2, sl, cl;
    ex_mulx(x, 64, a, b, &l1, &h1);
    ex_mulx(x, 64, b, c, &l2, &h2);
    ex_addcarry(x, 64, ex_const(x, 0), l1, l2, &sl, &cl);
    ex_id sh, ch;
    ex_addcarry(x, 64, cl, h1, h2, &sh, &ch);
    ex_id hi_smt = ex_trunc(x, 64, ex_shr(x, 128, x1, 64));
    if (smt_differ(x, hi_smt, sh, 5000, &sr) != SMT_EQUAL)
        failf("smt: u128 sum of products, high word vs mulx/adc: %s %s", smt_verdict_name(sr.verdict), sr.err);
    smt_result_free(&sr);
    if (smt_differ(x, hi_smt, h1, 5000, &sr) != SMT_DIFFERENT || sr.va == sr.vb)
        failf("smt: a dropped product is not DIFFERENT: %s %s", smt_verdict_name(sr.verdict), sr.err);
    smt_result_free(&sr);
    ex_ctx_free(x);
    printf("normal forms: ok\n");
}

/* ---- 3./4. IR functions ------------------------------------------------------------------------------------------ */

typedef struct {
    ex_id *buf;
    ex_id *out[16];
} outs;

static int sym(ex_ctx *x, const ir_func *f, outs *o)
{
    uint32_t total = 0;
    for (uint32_t j = 0; j < f->narr; j++)
        total += f->arr[j].len;
    o->buf = calloc(total + 1, sizeof *o->buf);
    uint32_t off = 0;
    for (uint32_t j = 0; j < f->narr && j < 16; j++) {
        o->out[j] = o->buf + off;
        off += f->arr[j].len;
    }
    char err[256];
    if (ir_sym_run(x, f, o->out, err, sizeof err) != 0) {
        failf("ir_sym_run: %s", err);
        return -1;
    }
    return 0;
}

typedef struct {
    uint64_t *buf;
    uint64_t *p[16];
} limbs;

static void limbs_new(const ir_func *f, limbs *l)
{
    uint32_t total = 0;
    for (uint32_t j = 0; j < f->narr; j++)
        total += f->arr[j].len;
    l->buf = calloc(total + 1, sizeof *l->buf);
    uint32_t off = 0;
    for (uint32_t j = 0; j < f->narr && j < 16; j++) {
        l->p[j] = l->buf + off;
        off += f->arr[j].len;
    }
}

static void random_inputs(const ir_func *f, limbs *l)
{
    for (uint32_t j = 0; j < f->narr; j++)
        if (!f->arr[j].is_output)
            for (uint32_t i = 0; i < f->arr[j].len; i++)
                l->p[j][i] = rnd_in(f->arr[j].lo[i], f->arr[j].hi[i]);
}

static double total_smt_time;
static unsigned nfuncs, nlimbs, nsame, nsmt;

/* check_ir_sym — ir_sym vs ir_eval, then lowered vs unlowered by normal form or z3. */
static void check_ir_sym(const ir_func *f, const char *label)
{
    double t0 = now();
    ex_ctx *x = ex_ctx_new();
    outs o = { 0 }, ol = { 0 };
    limbs in, out;
    limbs_new(f, &in);
    limbs_new(f, &out);
    char err[512];
    ir_func *L = ir_lower(f, err, sizeof err);
    if (!L) {
        failf("%s: ir_lower: %s", label, err);
        goto done;
    }
    if (sym(x, f, &o) != 0 || sym(x, L, &ol) != 0)
        goto done;
    double tsym = now() - t0;
    /* the expressions evaluate like the interpreter */
    ir_u128 *vals = malloc((ex_count(x) + 1) * sizeof *vals);
    for (unsigned it = 0; it < (quick ? 10u : 40u); it++) {
        random_inputs(f, &in);
        ir_eval(f, (const uint64_t *const *)in.p, out.p);
        ex_eval_all(x, (const uint64_t *const *)in.p, vals);
        for (uint32_t j = 0; j < f->narr; j++)
            if (f->arr[j].is_output)
                for (uint32_t i = 0; i < f->arr[j].len; i++) {
                    if (vals[o.out[j][i]] != out.p[j][i] || vals[ol.out[j][i]] != out.p[j][i]) {
                        failf("%s: output %s[%u]: expression %s / lowered %s differ from ir_eval", label,
                              f->arr[j].name, i, vals[o.out[j][i]] != out.p[j][i] ? "wrong" : "right",
                              vals[ol.out[j][i]] != out.p[j][i] ? "wrong" : "right");
                        it = 1000;
                    }
                }
    }
    free(vals);
    /* lowered vs unlowered */
    unsigned same = 0, n = 0, proved = 0;
    double tsmt = 0;
    for (uint32_t j = 0; j < f->narr; j++)
        if (f->arr[j].is_output)
            for (uint32_t i = 0; i < f->arr[j].len; i++) {
                n++;
                if (o.out[j][i] == ol.out[j][i]) {
                    same++;
                    continue;
                }
                smt_result r;
                smt_differ(x, o.out[j][i], ol.out[j][i], 10000, &r);
                tsmt += r.seconds;
                if (r.verdict == SMT_EQUAL)
                    proved++;
                else
                    failf("%s: output %s[%u], lowered vs unlowered: %s %s", label, f->arr[j].name, i,
                          smt_verdict_name(r.verdict), r.err);
                smt_result_free(&r);
            }
    nfuncs++;
    nlimbs += n;
    nsame += same;
    nsmt += proved;
    total_smt_time += tsmt;
    printf("%-44s nodes %5u/%5u  limbs %2u  same %2u  z3 %2u  sym %.3f s  z3 %.3f s\n", label, f->nnode, L->nnode, n,
           same, proved, tsym, tsmt);
done:
    ir_func_free(L);
    free(o.buf);
    free(ol.buf);
    free(in.buf);
    free(out.buf);
    ex_ctx_free(x);
}

static char *read_file(const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FIAT_JSON_DIR, name);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        printf("cannot open %s\n", path);
        exit(1);
    }
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
        printf("cannot read %s\n", path);
        exit(1);
    }
    fclose(fp);
    buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

static const char *const fiat_files[] = {
    "curve25519_64",   "curve25519_solinas_64", "p448_solinas_64", "p521_64",
    "poly1305_64",     "secp256k1_dettman_64",  "p224_64",         "p256_64",
    "p384_64",         "p434_64",               "secp256k1_montgomery_64", "curve25519_scalar_64",
    "p256_scalar_64",
};

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static bool wanted(const char *fn)
{
    static const char *const sufs[] = { "_mul", "_square", "_add", "_sub", "_opp", "_carry" };
    for (size_t i = 0; i < sizeof sufs / sizeof sufs[0]; i++)
        if (ends_with(fn, sufs[i]))
            return true;
    return false;
}

static ir_func *load(const char *file, const char *fn)
{
    char name[128], err[512];
    size_t len;
    snprintf(name, sizeof name, "%s.json", file);
    char *json = read_file(name, &len);
    ir_func *f = ir_fiat_load(json, len, name, fn, err, sizeof err);
    if (!f)
        failf("%s: %s", fn, err);
    free(json);
    return f;
}

static void test_fiat(void)
{
    for (size_t fi = 0; fi < sizeof fiat_files / sizeof fiat_files[0]; fi++) {
        char name[128];
        size_t len;
        snprintf(name, sizeof name, "%s.json", fiat_files[fi]);
        char *json = read_file(name, &len);
        cJSON *root = cJSON_Parse(json);
        if (!root)
            failf("%s: not parsed as JSON", name);
        for (const cJSON *fn = root ? root->child : NULL; fn; fn = fn->next) {
            const cJSON *op = cJSON_GetObjectItemCaseSensitive(fn, "operation");
            if (!cJSON_IsString(op) || !wanted(op->valuestring))
                continue;
            if (quick && !ends_with(op->valuestring, "_mul"))
                continue;
            char err[512];
            ir_func *f = ir_fiat_load(json, len, name, op->valuestring, err, sizeof err);
            if (!f) {
                failf("%s: %s", op->valuestring, err);
                continue;
            }
            check_ir_sym(f, op->valuestring);
            ir_func_free(f);
        }
        cJSON_Delete(root);
        free(json);
    }
}

static void test_gen(void)
{
    static const gen_spec specs[] = {
        { "2^255-19", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_MUL, NULL },
        { "2^255-19", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_SQUARE, NULL },
        { "2^255-19", GEN_SOLINAS_SATURATED, 4, IR_KIND_MUL, NULL },
        { "2^255-19", GEN_SOLINAS_SATURATED_2CHAIN, 4, IR_KIND_SQUARE, NULL },
        { "2^130-5", GEN_SOLINAS_UNSATURATED, 3, IR_KIND_MUL, NULL },
        { "2^256-2^224+2^192+2^96-1", GEN_MONTGOMERY, 4, IR_KIND_MUL, NULL },
        { "2^256-2^32-977", GEN_MONTGOMERY, 4, IR_KIND_SQUARE, NULL },
        { "2^255-19", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_SUB, NULL },
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        char err[512], label[64];
        ir_func *f = gen_build(&specs[i], err, sizeof err);
        if (!f) {
            failf("gen_build: %s", err);
            continue;
        }
        snprintf(label, sizeof label, "gen:%s", f->name);
        check_ir_sym(f, label);
        ir_func_free(f);
    }
}

/* ---- 4. broken variants ------------------------------------------------------------------------------------------ */

/* differs — whether g's outputs differ from f's on in; fills which limbs (flat index) in diff */
static bool differs(const ir_func *f, const ir_func *g, const limbs *in, bool *diff)
{
    limbs o1, o2;
    limbs_new(f, &o1);
    limbs_new(f, &o2);
    ir_eval(f, (const uint64_t *const *)in->p, o1.p);
    ir_eval(g, (const uint64_t *const *)in->p, o2.p);
    bool any = false;
    unsigned k = 0;
    for (uint32_t j = 0; j < f->narr; j++)
        if (f->arr[j].is_output)
            for (uint32_t i = 0; i < f->arr[j].len; i++, k++)
                if (o1.p[j][i] != o2.p[j][i]) {
                    any = true;
                    if (diff)
                        diff[k] = true;
                }
    free(o1.buf);
    free(o2.buf);
    return any;
}

/* mutate — the nth candidate of class cls in g: 0 = change a constant operand of mul/mulx/and/add, 1 = drop the
 * carry-in of an addcarryx (or borrow-in of a subborrowx). Returns false when there is no nth candidate. */
static bool mutate(ir_func *g, int cls, unsigned nth, char *desc, size_t len)
{
    unsigned seen = 0;
    for (uint32_t i = 0; i < g->nnode; i++) {
        ir_node *n = &g->node[i];
        if (cls == 0 && (n->op == IR_MUL || n->op == IR_MULX || n->op == IR_AND || n->op == IR_ADD)) {
            for (unsigned j = 0; j < n->nargs; j++) {
                const ir_value *v = &g->val[n->arg[j]];
                if (v->is_const && v->k > 1 && seen++ == nth) {
                    char h[40];
                    snprintf(desc, len, "node %u (%s): constant %s -> ^1", i, ir_op_name((ir_op)n->op),
                             ir_u128_hex(v->k, h));
                    ir_val c = ir_const(g, v->width, v->k ^ 1);
                    g->node[i].arg[j] = c;
                    return true;
                }
            }
        }
        if (cls == 1 && (n->op == IR_ADDCARRYX || n->op == IR_SUBBORROWX) && !g->val[n->arg[0]].is_const &&
            seen++ == nth) {
            snprintf(desc, len, "node %u (%s): carry-in dropped", i, ir_op_name((ir_op)n->op));
            ir_val c = ir_const(g, g->val[n->arg[0]].width, 0);
            g->node[i].arg[0] = c;
            return true;
        }
    }
    return false;
}

static void test_broken(void)
{
    static const struct {
        const char *file, *fn;
    } cases[] = {
        { "curve25519_64", "fiat_25519_carry_mul" },       { "p256_64", "fiat_p256_mul" },
        { "secp256k1_montgomery_64", "fiat_secp256k1_montgomery_mul" },
        { "curve25519_solinas_64", "fiat_curve25519_solinas_mul" }, { "poly1305_64", "fiat_poly1305_carry_mul" },
    };
    unsigned variants = 0;
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        ir_func *f = load(cases[ci].file, cases[ci].fn);
        if (!f)
            continue;
        char err[512];
        ir_func *L = ir_lower(f, err, sizeof err);
        for (int cls = 0; cls < 2 && L; cls++) {
            unsigned made = 0;
            for (unsigned nth = 0; made < 1 && nth < 40; nth++) {
                ir_func *g = ir_func_clone(L);
                char desc[160];
                if (!mutate(g, cls, nth * 3, desc, sizeof desc)) {
                    ir_func_free(g);
                    break;
                }
                /* broken for real? (random testing, the interpreter) */
                unsigned nout = 0;
                for (uint32_t j = 0; j < f->narr; j++)
                    if (f->arr[j].is_output)
                        nout += f->arr[j].len;
                bool *diff = calloc(nout, sizeof *diff), any = false;
                limbs in;
                limbs_new(f, &in);
                for (unsigned it = 0; it < 3000; it++) {
                    random_inputs(f, &in);
                    any |= differs(f, g, &in, diff);
                }
                if (!any) {
                    free(diff);
                    free(in.buf);
                    ir_func_free(g);
                    continue;
                }
                made++;
                variants++;
                ex_ctx *x = ex_ctx_new();
                outs o = { 0 }, og = { 0 };
                if (sym(x, f, &o) == 0 && sym(x, g, &og) == 0) {
                    unsigned k = 0, ndiff = 0, nsampled = 0;
                    double t = 0;
                    for (uint32_t j = 0; j < f->narr; j++)
                        if (f->arr[j].is_output)
                            for (uint32_t i = 0; i < f->arr[j].len; i++, k++) {
                                if (o.out[j][i] == og.out[j][i]) {
                                    if (diff[k])
                                        failf("%s %s: limb %u has equal normal forms but differs", cases[ci].fn,
                                              desc, i);
                                    continue;
                                }
                                smt_result r;
                                /* sampling first, then the solver (section 2 tests the solver's own models) */
                                smt_differ_sampled(x, o.out[j][i], og.out[j][i], 64, 2000, &r);
                                nsampled += r.verdict == SMT_DIFFERENT && r.sampled;
                                t += r.seconds;
                                if (r.verdict == SMT_EQUAL && diff[k])
                                    failf("%s %s: limb %u EQUAL but ir_eval shows a difference", cases[ci].fn, desc,
                                          i);
                                if (r.verdict == SMT_DIFFERENT) {
                                    /* the counterexample under the interpreter */
                                    for (uint32_t a = 0; a < f->narr; a++)
                                        if (!f->arr[a].is_output)
                                            for (uint32_t b = 0; b < f->arr[a].len; b++)
                                                in.p[a][b] = (uint64_t)f->arr[a].lo[b];
                                    for (uint32_t c = 0; c < r.ncex; c++)
                                        in.p[r.cex[c].arr][r.cex[c].limb] = r.cex[c].v;
                                    bool *d2 = calloc(nout, sizeof *d2);
                                    differs(f, g, &in, d2);
                                    if (!d2[k])
                                        failf("%s %s: limb %u: counterexample does not differ under ir_eval",
                                              cases[ci].fn, desc, i);
                                    else
                                        ndiff++;
                                    free(d2);
                                }
                                smt_result_free(&r);
                            }
                    printf("broken %-36s %-44s DIFFERENT limbs %u (%u by sampling) (%.3f s)\n", cases[ci].fn, desc,
                           ndiff, nsampled, t);
                    if (!ndiff)
                        failf("%s %s: no limb DIFFERENT", cases[ci].fn, desc);
                }
                free(o.buf);
                free(og.buf);
                ex_ctx_free(x);
                free(diff);
                free(in.buf);
                ir_func_free(g);
            }
            if (!made)
                failf("%s: no broken variant of class %d", cases[ci].fn, cls);
        }
        ir_func_free(L);
        ir_func_free(f);
    }
    printf("broken variants: %u\n", variants);
}


int main(int argc, char **argv)
{
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--quick"))
            quick = true;
        else {
            fprintf(stderr, "usage: test_check_expr [--seed N] [--quick]\n");
            return 2;
        }
    }
    rng_state = seed;
    setvbuf(stdout, NULL, _IOLBF, 0);
    test_rules(quick ? 200 : 2000);
    test_normal_forms();
    test_linear_forms();
    test_range_rule();
    test_exact_division();
    test_digit_basis();
    test_cut_points();
    test_sweep();
    test_fiat();
    test_gen();
    printf("functions %u, output limbs %u: identical normal forms %u, z3 EQUAL %u, z3 time %.3f s\n", nfuncs, nlimbs,
           nsame, nsmt, total_smt_time);
    test_broken();
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
