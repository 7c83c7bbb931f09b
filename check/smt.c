/* smt.c — the z3 query of smt.h, through z3's C API (z3_api.h; Z3 4.x). Bit-vector semantics as in SMT-LIB's
 * FixedSizeBitVectors theory; uninterpreted functions for two-operand products (QF_UFBV). */
#define _POSIX_C_SOURCE 200809L
#include "check/smt.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <z3.h>

const char *smt_verdict_name(smt_verdict v)
{
    switch (v) {
    case SMT_EQUAL: return "EQUAL";
    case SMT_DIFFERENT: return "DIFFERENT";
    case SMT_UNKNOWN: return "UNKNOWN";
    default: return "ERROR";
    }
}

void smt_result_free(smt_result *r)
{
    free(r->cex);
    r->cex = NULL;
    r->ncex = 0;
}

static void quiet_handler(Z3_context c, Z3_error_code e)
{
    (void)c;
    (void)e;
}

typedef struct {
    Z3_context z;
    Z3_solver s;
    Z3_func_decl mul_lo, mul_hi, mul_wide;
    Z3_ast *t;
    bool exact; /* products as bit-vector multiplication (the fallback after a spurious model) */
    const smt_cuts *cuts; /* cut-points (smt_differ_cut), or NULL */
    Z3_ast *cutvar;       /* per class: its fresh variable, made on first use */
    struct sum_plan **plan; /* with cuts, per sum node: the cut sums found inside it (resum), or NULL */
    uint32_t ncutvars;
} tr;

/* sum_plan — a sum S (k + sum c_i t_i) mod 2^w seen as (k' + sum_j m_j C_j + sum_{kept i} c_i t_i) mod 2^w, where
 * each C_j = (K_j + sum d_ji t_ji) mod 2^(w_j) is a cut sum whose terms all occur in S with coefficients
 * c = m_j d_ji (mod 2^w), and either w_j >= w or C_j cannot wrap (expr.c: then K_j + sum d_ji t_ji, its stored
 * coefficients as they are, is below 2^(w_j) and C_j is that integer): an identity mod 2^w (k' = k - sum_j m_j K_j),
 * so C_j's class variable stands in for those terms. Needed because a sum that takes a word of its own width (or
 * an exact sum) as an operand is flattened (expr.h), and the shared word then no longer appears as a node. */
typedef struct sum_plan {
    uint32_t nsub;
    ex_id *sub;     /* the C_j */
    ir_u128 *m;     /* their multipliers */
    uint8_t *keep;  /* per operand of S: still a term (1) or covered by a C_j (0) */
    ir_u128 k;      /* k' */
} sum_plan;

static Z3_ast num(tr *T, ir_u128 v, unsigned w)
{
    if (w <= 64) {
        if (w < 64)
            v &= (((ir_u128)1 << w) - 1);
        return Z3_mk_unsigned_int64(T->z, (uint64_t)v, Z3_mk_bv_sort(T->z, w));
    }
    return Z3_mk_concat(T->z, num(T, v >> 64, w - 64), num(T, (uint64_t)v, 64));
}

static Z3_ast conv(tr *T, Z3_ast a, unsigned from, unsigned to)
{
    if (from == to)
        return a;
    if (to > from)
        return Z3_mk_zero_ext(T->z, to - from, a);
    return Z3_mk_extract(T->z, to - 1, 0, a);
}

static Z3_ast bit(tr *T, Z3_ast cond)
{
    return Z3_mk_ite(T->z, cond, num(T, 1, 1), num(T, 0, 1));
}

static unsigned max3(unsigned a, unsigned b, unsigned c)
{
    unsigned m = a > b ? a : b;
    return m > c ? m : c;
}

/* const_mul — c * t mod 2^w as shifts and adds along the non-adjacent form of c (Reitwiesner 1960) when it has at
 * most 4 nonzero digits (2^64 - 1 = 2^64 - 2^0, 2^64 - 2^32 + 1, ...): solvers prove identities over a few shifted
 * adders far faster than over a bit-blasted constant multiplier. Otherwise a bit-vector multiplication. */
static Z3_ast const_mul(tr *T, ir_u128 c, Z3_ast t, unsigned w)
{
    if (w < 128)
        c &= (((ir_u128)1 << w) - 1);
    int digit[130];
    unsigned nd = 0, nz = 0;
    ir_u128 k = c; /* the NAF: an odd k gets the digit 2 - (k mod 4), so the next digit is 0; mod 2^128 wrapping of
                      k + 1 drops only digits at or above bit 128, which vanish mod 2^w */
    while (k && nd < w) {
        int d = 0;
        if (k & 1) {
            d = (k & 3) == 1 ? 1 : -1;
            k = d > 0 ? k - 1 : k + 1;
        }
        digit[nd++] = d;
        nz += d != 0;
        k >>= 1;
    }
    if (nz == 0)
        return num(T, 0, w);
    if (nz > 4)
        return Z3_mk_bvmul(T->z, num(T, c, w), t);
    Z3_ast acc = NULL;
    for (unsigned i = 0; i < nd && i < w; i++) {
        if (!digit[i])
            continue;
        Z3_ast s = i ? Z3_mk_bvshl(T->z, t, num(T, i, w)) : t;
        if (!acc)
            acc = digit[i] > 0 ? s : Z3_mk_bvneg(T->z, s);
        else
            acc = digit[i] > 0 ? Z3_mk_bvadd(T->z, acc, s) : Z3_mk_bvsub(T->z, acc, s);
    }
    return acc ? acc : num(T, 0, w);
}

/* cut_of — the cut class of node id in this query (0: none); constants and input leaves are never cut */
static uint32_t cut_of(const tr *T, const ex_ctx *x, ex_id id)
{
    if (!T->cuts || id > T->cuts->nnodes || !T->cuts->cls[id] || T->cuts->cls[id] > T->cuts->ncls)
        return 0;
    ex_kind k = (ex_kind)ex_get(x, id)->kind;
    return k == EX_CONST || k == EX_INPUT ? 0 : T->cuts->cls[id];
}

/* cut_term — node id as its class's variable: one fresh bit-vector of the class's width per class, within the
 * class's bounds, seen at the node's width (the bounds keep it below 2^width of every member) */
static Z3_ast cut_term(tr *T, const ex_ctx *x, ex_id id, uint32_t c)
{
    const smt_cuts *C = T->cuts;
    unsigned cw = C->width[c];
    if (!T->cutvar[c]) {
        char name[32];
        snprintf(name, sizeof name, "cut%u", (unsigned)c);
        Z3_ast v = Z3_mk_const(T->z, Z3_mk_string_symbol(T->z, name), Z3_mk_bv_sort(T->z, cw));
        Z3_solver_assert(T->z, T->s, Z3_mk_bvule(T->z, num(T, C->lo[c], cw), v));
        Z3_solver_assert(T->z, T->s, Z3_mk_bvule(T->z, v, num(T, C->hi[c], cw)));
        T->cutvar[c] = v;
        T->ncutvars++;
    }
    return conv(T, T->cutvar[c], cw, ex_get(x, id)->width);
}

/* term — the bit-vector term of node id (operands already translated). NULL for an unknown leaf. */
static Z3_ast term(tr *T, const ex_ctx *x, ex_id id)
{
    const ex_node *n = ex_get(x, id);
    const ex_arg *a = ex_args(x, id);
    Z3_context z = T->z;
    unsigned w = n->width;
#define W(i) (ex_get(x, a[i].id)->width)
#define TT(i) (T->t[a[i].id])
    switch ((ex_kind)n->kind) {
    case EX_CONST: return num(T, n->k, w);
    case EX_INPUT: {
        char name[48];
        snprintf(name, sizeof name, "x%u_%u", (unsigned)(n->k >> 32), (unsigned)n->k);
        Z3_ast v = Z3_mk_const(z, Z3_mk_string_symbol(z, name), Z3_mk_bv_sort(z, 64));
        Z3_solver_assert(z, T->s, Z3_mk_bvule(z, num(T, n->lo, 64), v));
        Z3_solver_assert(z, T->s, Z3_mk_bvule(z, v, num(T, n->hi, 64)));
        return v;
    }
    case EX_UNKNOWN: return NULL;
    case EX_SUM: {
        const sum_plan *pl = T->plan ? T->plan[id] : NULL;
        Z3_ast acc = num(T, pl ? pl->k : n->k, w);
        for (uint32_t j = 0; pl && j < pl->nsub; j++) {
            ex_id c = pl->sub[j];
            Z3_ast t = conv(T, cut_term(T, x, c, T->cuts->cls[c]), ex_get(x, c)->width, w);
            if (pl->m[j] != 1)
                t = const_mul(T, pl->m[j], t, w);
            acc = Z3_mk_bvadd(z, acc, t);
        }
        for (uint32_t i = 0; i < n->nargs; i++) {
            if (pl && !pl->keep[i])
                continue;
            Z3_ast t = conv(T, TT(i), W(i), w);
            if (a[i].c != 1)
                t = const_mul(T, a[i].c, t, w);
            acc = Z3_mk_bvadd(z, acc, t);
        }
        return acc;
    }
    case EX_MUL: {
        Z3_ast p;
        if (T->exact) {
            p = Z3_mk_bvmul(z, conv(T, TT(0), W(0), 128), conv(T, TT(1), W(1), 128));
        } else if (W(0) <= 64 && W(1) <= 64) {
            Z3_ast ops[2] = { conv(T, TT(0), W(0), 64), conv(T, TT(1), W(1), 64) };
            p = Z3_mk_concat(z, Z3_mk_app(z, T->mul_hi, 2, ops), Z3_mk_app(z, T->mul_lo, 2, ops));
        } else {
            Z3_ast ops[2] = { conv(T, TT(0), W(0), 128), conv(T, TT(1), W(1), 128) };
            p = Z3_mk_app(z, T->mul_wide, 2, ops);
        }
        if (!n->wraps) {
            /* what the real product satisfies: lo <= p <= hi (the node's interval) */
            Z3_solver_assert(z, T->s, Z3_mk_bvule(z, num(T, n->lo, 128), p));
            Z3_solver_assert(z, T->s, Z3_mk_bvule(z, p, num(T, n->hi, 128)));
        }
        return conv(T, p, 128, w);
    }
    case EX_SHR: {
        unsigned wa = W(0);
        if (n->k >= wa)
            return num(T, 0, w);
        return conv(T, Z3_mk_bvlshr(z, TT(0), num(T, n->k, wa)), wa, w);
    }
    case EX_AND:
    case EX_OR:
    case EX_XOR: {
        unsigned m = max3(W(0), W(1), w);
        Z3_ast p = conv(T, TT(0), W(0), m), q = conv(T, TT(1), W(1), m);
        Z3_ast r = n->kind == EX_AND ? Z3_mk_bvand(z, p, q) : n->kind == EX_OR ? Z3_mk_bvor(z, p, q)
                                                                                : Z3_mk_bvxor(z, p, q);
        return conv(T, r, m, w);
    }
    case EX_EQZ: return conv(T, bit(T, Z3_mk_eq(z, TT(0), num(T, 0, W(0)))), 1, w);
    case EX_LT: {
        unsigned m = W(0) > W(1) ? W(0) : W(1);
        return conv(T, bit(T, Z3_mk_bvult(z, conv(T, TT(0), W(0), m), conv(T, TT(1), W(1), m))), 1, w);
    }
    case EX_SELECT:
        return Z3_mk_ite(z, Z3_mk_eq(z, TT(0), num(T, 0, W(0))), conv(T, TT(1), W(1), w), conv(T, TT(2), W(2), w));
    default: return NULL;
    }
#undef W
#undef TT
}

static bool model_value(tr *T, Z3_model m, Z3_ast t, ir_u128 *out)
{
    Z3_ast v = NULL;
    if (!Z3_model_eval(T->z, m, t, true, &v) || !v)
        return false;
    Z3_string str = Z3_get_numeral_string(T->z, v);
    return str && ir_u128_parse(str, out) == 0;
}

/* refine — counterexample-guided refinement of the uninterpreted products (Clarke et al. 2000, CEGAR): for each
 * product whose value in the current model is not the real product of its operands' model values, assert the
 * instance (a = va and b = vb) -> p = va * vb, true of real multiplication. Returns how many were added (0: the
 * model's products are all real), -1 on error. */
static int refine(tr *T, const ex_ctx *x, const uint8_t *mark, uint32_t nn)
{
    Z3_model m = Z3_solver_get_model(T->z, T->s);
    if (!m)
        return -1;
    Z3_model_inc_ref(T->z, m);
    int added = 0;
    for (uint32_t id = 1; id <= nn; id++) {
        const ex_node *n = ex_get(x, id);
        if (mark[id] != 1 || n->kind != EX_MUL)
            continue; /* not in the query, or a cut-point (its operands are not) */
        const ex_arg *a = ex_args(x, id);
        ir_u128 va, vb, vp;
        if (!model_value(T, m, T->t[a[0].id], &va) || !model_value(T, m, T->t[a[1].id], &vb) ||
            !model_value(T, m, T->t[id], &vp))
            continue;
        ir_u128 real = va * vb;
        if (n->width < 128)
            real &= (((ir_u128)1 << n->width) - 1);
        if (real == vp)
            continue;
        unsigned wa = ex_get(x, a[0].id)->width, wb = ex_get(x, a[1].id)->width;
        Z3_ast eqs[2] = { Z3_mk_eq(T->z, T->t[a[0].id], num(T, va, wa)),
                          Z3_mk_eq(T->z, T->t[a[1].id], num(T, vb, wb)) };
        Z3_solver_assert(T->z, T->s,
                         Z3_mk_implies(T->z, Z3_mk_and(T->z, 2, eqs),
                                       Z3_mk_eq(T->z, T->t[id], num(T, real, n->width))));
        added++;
    }
    Z3_model_dec_ref(T->z, m);
    return added;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static smt_verdict finish(smt_result *r, smt_verdict v, double t0)
{
    r->verdict = v;
    r->seconds = now() - t0;
    return v;
}

static ir_u128 mask_w(ir_u128 v, unsigned w)
{
    return w >= 128 ? v : v & (((ir_u128)1 << w) - 1);
}

/* arg_index — the position of term t among sum id's operands (sorted by id: expr.h), or -1 */
static int arg_index(const ex_ctx *x, ex_id id, ex_id t)
{
    const ex_arg *a = ex_args(x, id);
    int lo = 0, hi = (int)ex_get(x, id)->nargs - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (a[mid].id == t)
            return mid;
        if (a[mid].id < t)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* make_plan — the resum of sum id (sum_plan) over the cut sums subs[0..nsubs) (most terms first): greedily each C
 * whose terms all remain in S with one multiplier m (found from an odd coefficient of C, checked on every term).
 * NULL when none fits or memory runs out (then S is translated term by term: also exact). */
static sum_plan *make_plan(const tr *T, const ex_ctx *x, ex_id id, const ex_id *subs, uint32_t nsubs)
{
    const ex_node *n = ex_get(x, id);
    const ex_arg *a = ex_args(x, id);
    unsigned w = n->width;
    if (n->kind != EX_SUM || n->nargs < 2)
        return NULL;
    sum_plan *pl = calloc(1, sizeof *pl);
    if (!pl)
        return NULL;
    pl->keep = malloc(n->nargs);
    pl->sub = malloc(n->nargs * sizeof *pl->sub);
    pl->m = malloc(n->nargs * sizeof *pl->m);
    if (!pl->keep || !pl->sub || !pl->m)
        goto none;
    memset(pl->keep, 1, n->nargs);
    pl->k = n->k;
    for (uint32_t q = 0; q < nsubs && pl->nsub < n->nargs; q++) {
        ex_id c = subs[q];
        const ex_node *cn = ex_get(x, c);
        const ex_arg *ca = ex_args(x, c);
        if (c == id || (cn->width < w && cn->wraps) || cn->nargs > n->nargs || cut_of(T, x, c) == 0)
            continue;
        /* the multiplier, from C's first odd coefficient: m d = c (mod 2^w) */
        int at = -1;
        for (uint32_t i = 0; i < cn->nargs && at < 0; i++)
            if (ca[i].c & 1)
                at = (int)i;
        if (at < 0)
            continue;
        int si = arg_index(x, id, ca[at].id);
        if (si < 0 || !pl->keep[si])
            continue;
        ir_u128 d = ca[at].c, inv = d; /* Newton: inv = d^-1 mod 2^128 (each step doubles the correct bits) */
        for (int it = 0; it < 7; it++)
            inv *= 2 - d * inv;
        ir_u128 m = mask_w(a[si].c * inv, w);
        bool fits = m != 0;
        for (uint32_t i = 0; i < cn->nargs && fits; i++) {
            int j = arg_index(x, id, ca[i].id);
            fits = j >= 0 && pl->keep[j] && mask_w(m * ca[i].c, w) == a[j].c;
        }
        if (!fits)
            continue;
        for (uint32_t i = 0; i < cn->nargs; i++)
            pl->keep[arg_index(x, id, ca[i].id)] = 0;
        pl->k = mask_w(pl->k - m * cn->k, w);
        pl->sub[pl->nsub] = c;
        pl->m[pl->nsub++] = m;
    }
    if (pl->nsub)
        return pl;
none:
    free(pl->keep);
    free(pl->sub);
    free(pl->m);
    free(pl);
    return NULL;
}

static void free_plans(tr *T, uint32_t nn)
{
    for (uint32_t id = 0; T->plan && id <= nn; id++)
        if (T->plan[id]) {
            free(T->plan[id]->keep);
            free(T->plan[id]->sub);
            free(T->plan[id]->m);
            free(T->plan[id]);
        }
    free(T->plan);
    T->plan = NULL;
}

/* stale_cuts — after a spurious model of a cut query: the classes whose variable the model gives a value that the
 * class's node does not have when the real expressions are evaluated on the model's inputs (in). Such a class is
 * where the cut forgot a relation the difference needs (a Montgomery digit cut loose from the word it is a multiple
 * of, a carry word from the sum it came from): badcls[c] = 1 for each, *nbad counts them. 0, or -1 when memory runs
 * out. */
static int stale_cuts(tr *T, const ex_ctx *x, Z3_model m, const uint8_t *mark, uint32_t nn, const uint64_t *const *in,
                      uint8_t *badcls, uint32_t *nbad)
{
    ir_u128 *ev = malloc(((size_t)nn + 1) * sizeof *ev);
    if (!ev || ex_eval_all(x, in, ev) != 0) {
        free(ev);
        return -1;
    }
    for (uint32_t id = 1; id <= nn; id++) {
        if (mark[id] != 2)
            continue;
        uint32_t c = cut_of(T, x, id);
        ir_u128 mv;
        if (!c || badcls[c] || !model_value(T, m, T->t[id], &mv))
            continue;
        if (mv != mask_w(ev[id], ex_get(x, id)->width)) {
            badcls[c] = 1;
            (*nbad)++;
        }
    }
    free(ev);
    return 0;
}

static smt_verdict query(ex_ctx *x, ex_id a, ex_id b, unsigned timeout_ms, smt_result *r, bool exact,
                         const smt_cuts *cuts, uint8_t *badcls, uint32_t *nbad)
{
    if (nbad)
        *nbad = 0;
    double t0 = now();
    memset(r, 0, sizeof *r);
    uint32_t nn = ex_count(x);
    if (!ex_get(x, a) || !ex_get(x, b)) {
        snprintf(r->err, sizeof r->err, "no such expression");
        return finish(r, SMT_ERROR, t0);
    }
    if (a == b)
        return finish(r, SMT_EQUAL, t0);
    if (ex_has_unknown(x, a) || ex_has_unknown(x, b)) {
        snprintf(r->err, sizeof r->err, "an expression depends on an unknown value");
        return finish(r, SMT_ERROR, t0);
    }
    /* the nodes under a and b (ids are topological: operands below their node) */
    uint8_t *mark = calloc(nn + 1, 1);
    tr T = { 0 };
    T.exact = exact;
    T.cuts = cuts;
    T.t = calloc(nn + 1, sizeof *T.t);
    T.cutvar = cuts ? calloc((size_t)cuts->ncls + 1, sizeof *T.cutvar) : NULL;
    if (!mark || !T.t || (cuts && !T.cutvar)) {
        free(mark);
        free(T.t);
        free(T.cutvar);
        snprintf(r->err, sizeof r->err, "out of memory");
        return finish(r, SMT_ERROR, t0);
    }
    /* with cuts: the cut sums of two or more terms, most terms first (make_plan's candidates) */
    ex_id *subs = NULL;
    uint32_t nsubs = 0;
    if (cuts) {
        T.plan = calloc(nn + 1, sizeof *T.plan);
        subs = malloc((nn + 1) * sizeof *subs);
        for (uint32_t id = 1; subs && T.plan && id <= nn; id++)
            if (cut_of(&T, x, id) && ex_get(x, id)->kind == EX_SUM && ex_get(x, id)->nargs >= 2)
                subs[nsubs++] = id;
        for (uint32_t i = 1; subs && T.plan && i < nsubs; i++) { /* insertion sort: stable, few hundred */
            ex_id v = subs[i];
            uint32_t j = i;
            while (j > 0 && ex_get(x, subs[j - 1])->nargs < ex_get(x, v)->nargs) {
                subs[j] = subs[j - 1];
                j--;
            }
            subs[j] = v;
        }
        if (!subs || !T.plan) {
            free(subs);
            free(mark);
            free(T.t);
            free(T.cutvar);
            free(T.plan);
            snprintf(r->err, sizeof r->err, "out of memory");
            return finish(r, SMT_ERROR, t0);
        }
    }
    mark[a] = mark[b] = 1;
    uint32_t ninputs = 0;
    for (uint32_t id = nn; id >= 1; id--) {
        if (!mark[id])
            continue;
        if (cut_of(&T, x, id)) {
            mark[id] = 2; /* a cut-point: its class's variable; what is below it stays out of the query */
            continue;
        }
        const ex_node *n = ex_get(x, id);
        const ex_arg *args = ex_args(x, id);
        if (cuts && n->kind == EX_SUM)
            T.plan[id] = make_plan(&T, x, id, subs, nsubs);
        for (uint32_t i = 0; i < n->nargs; i++)
            if (!T.plan || !T.plan[id] || T.plan[id]->keep[i])
                mark[args[i].id] = 1;
        if (n->kind == EX_INPUT)
            ninputs++;
    }
    Z3_config cfg = Z3_mk_config();
    Z3_set_param_value(cfg, "model", "true");
    T.z = Z3_mk_context(cfg);
    Z3_del_config(cfg);
    Z3_set_error_handler(T.z, quiet_handler);
    T.s = Z3_mk_solver_for_logic(T.z, Z3_mk_string_symbol(T.z, "QF_UFBV"));
    Z3_solver_inc_ref(T.z, T.s);
    if (timeout_ms || (cuts && cuts->rlimit)) {
        Z3_params p = Z3_mk_params(T.z);
        Z3_params_inc_ref(T.z, p);
        if (timeout_ms)
            Z3_params_set_uint(T.z, p, Z3_mk_string_symbol(T.z, "timeout"), timeout_ms);
        if (cuts && cuts->rlimit) /* z3's own work count: the same answer on a busy machine as on an idle one */
            Z3_params_set_uint(T.z, p, Z3_mk_string_symbol(T.z, "rlimit"), cuts->rlimit);
        Z3_solver_set_params(T.z, T.s, p);
        Z3_params_dec_ref(T.z, p);
    }
    Z3_sort bv64 = Z3_mk_bv_sort(T.z, 64), bv128 = Z3_mk_bv_sort(T.z, 128);
    Z3_sort d64[2] = { bv64, bv64 }, d128[2] = { bv128, bv128 };
    T.mul_lo = Z3_mk_func_decl(T.z, Z3_mk_string_symbol(T.z, "mul_lo"), 2, d64, bv64);
    T.mul_hi = Z3_mk_func_decl(T.z, Z3_mk_string_symbol(T.z, "mul_hi"), 2, d64, bv64);
    T.mul_wide = Z3_mk_func_decl(T.z, Z3_mk_string_symbol(T.z, "mul_wide"), 2, d128, bv128);
    smt_verdict v = SMT_ERROR;
    for (uint32_t id = 1; id <= nn; id++) {
        if (!mark[id])
            continue;
        T.t[id] = mark[id] == 2 ? cut_term(&T, x, id, cut_of(&T, x, id)) : term(&T, x, id);
        r->nnodes += mark[id] == 1;
        if (cuts && getenv("ECOPT_CUT_DEBUG")) { /* a debugging aid: the nodes the cut query translates */
            static char pb[240];
            ex_print(x, id, pb, sizeof pb);
            fprintf(stderr, "  %s %u w%u%s: %s\n", mark[id] == 2 ? "cut" : "node", id, ex_get(x, id)->width,
                    T.plan && T.plan[id] ? " (resum)" : "", pb);
        }
        r->nresums += T.plan && T.plan[id] ? T.plan[id]->nsub : 0;
        if (!T.t[id] || Z3_get_error_code(T.z) != Z3_OK) {
            snprintf(r->err, sizeof r->err, "cannot translate node %u (%s)", id,
                     ex_kind_name((ex_kind)ex_get(x, id)->kind));
            goto out;
        }
    }
    unsigned wa = ex_get(x, a)->width, wb = ex_get(x, b)->width, w = wa > wb ? wa : wb;
    Z3_solver_assert(T.z, T.s, Z3_mk_not(T.z, Z3_mk_eq(T.z, conv(&T, T.t[a], wa, w), conv(&T, T.t[b], wb, w))));
    {
        /* ECOPT_SMT_DUMP=FILE (a debugging aid): the query, as SMT-LIB text, appended to FILE */
        const char *dump = getenv("ECOPT_SMT_DUMP");
        FILE *df = dump && dump[0] ? fopen(dump, "a") : NULL;
        if (df) {
            fprintf(df, "; query %u vs %u%s\n%s\n", a, b, cuts ? " (cut-points)" : "", Z3_solver_to_string(T.z, T.s));
            fclose(df);
        }
    }
    Z3_lbool res;
    for (unsigned round = 0;; round++) {
        res = Z3_solver_check(T.z, T.s);
        if (res != Z3_L_TRUE || round >= 64 || refine(&T, x, mark, nn) <= 0)
            break;
    }
    if (res == Z3_L_FALSE) {
        v = SMT_EQUAL;
    } else if (res == Z3_L_UNDEF) {
        snprintf(r->err, sizeof r->err, "solver: %s", Z3_solver_get_reason_unknown(T.z, T.s));
        v = SMT_UNKNOWN;
    } else {
        Z3_model m = Z3_solver_get_model(T.z, T.s);
        Z3_model_inc_ref(T.z, m);
        r->cex = calloc(ninputs ? ninputs : 1, sizeof *r->cex);
        uint32_t maxarr = 0, maxlimb = 0;
        for (uint32_t id = 1; id <= nn && r->cex; id++) {
            const ex_node *n = ex_get(x, id);
            if (!mark[id] || n->kind != EX_INPUT)
                continue;
            Z3_ast val = NULL;
            uint64_t u = (uint64_t)n->lo;
            if (Z3_model_eval(T.z, m, T.t[id], true, &val) && val)
                Z3_get_numeral_uint64(T.z, val, &u);
            smt_limb *l = &r->cex[r->ncex++];
            l->arr = (uint32_t)(n->k >> 32);
            l->limb = (uint32_t)n->k;
            l->v = u;
            if (l->arr > maxarr)
                maxarr = l->arr;
            if (l->limb > maxlimb)
                maxlimb = l->limb;
        }
        /* ex_eval computes every node up to the one asked for: give every input leaf a value (its lower bound
         * when the query does not read it) */
        for (uint32_t id = 1; id <= nn; id++) {
            const ex_node *n = ex_get(x, id);
            if (n->kind != EX_INPUT)
                continue;
            if ((uint32_t)(n->k >> 32) > maxarr)
                maxarr = (uint32_t)(n->k >> 32);
            if ((uint32_t)n->k > maxlimb)
                maxlimb = (uint32_t)n->k;
        }
        /* check the model by concrete evaluation */
        uint64_t *buf = calloc((size_t)(maxarr + 1) * (maxlimb + 1), sizeof *buf);
        const uint64_t **in = calloc(maxarr + 1, sizeof *in);
        if (!r->cex || !buf || !in) {
            Z3_model_dec_ref(T.z, m);
            free(buf);
            free(in);
            snprintf(r->err, sizeof r->err, "out of memory");
            goto out;
        }
        for (uint32_t i = 0; i <= maxarr; i++)
            in[i] = buf + (size_t)i * (maxlimb + 1);
        for (uint32_t id = 1; id <= nn; id++) {
            const ex_node *n = ex_get(x, id);
            if (n->kind == EX_INPUT)
                buf[(size_t)(uint32_t)(n->k >> 32) * (maxlimb + 1) + (uint32_t)n->k] = (uint64_t)n->lo;
        }
        for (uint32_t i = 0; i < r->ncex; i++)
            buf[(size_t)r->cex[i].arr * (maxlimb + 1) + r->cex[i].limb] = r->cex[i].v;
        int e1 = ex_eval(x, a, in, &r->va), e2 = ex_eval(x, b, in, &r->vb);
        if (!e1 && !e2 && r->va == r->vb && cuts && badcls)
            e1 = stale_cuts(&T, x, m, mark, nn, (const uint64_t *const *)in, badcls, nbad);
        Z3_model_dec_ref(T.z, m);
        free(buf);
        free(in);
        if (e1 || e2) {
            snprintf(r->err, sizeof r->err, "out of memory");
        } else if (r->va != r->vb) {
            v = SMT_DIFFERENT;
        } else {
            snprintf(r->err, sizeof r->err, "%s",
                     cuts ? "the solver's model is spurious (the uninterpreted products, or the free cut-points)"
                          : "the solver's model is spurious (the uninterpreted products)");
            v = SMT_UNKNOWN;
        }
    }
out:
    r->ncutvars = T.ncutvars;
    Z3_solver_dec_ref(T.z, T.s);
    Z3_del_context(T.z);
    free(mark);
    free(T.t);
    free(T.cutvar);
    free(subs);
    free_plans(&T, nn);
    if (v != SMT_DIFFERENT)
        smt_result_free(r);
    return finish(r, v, t0);
}

/* sample — evaluate a and b on n pseudo-random inputs within the leaves' bounds (edges often); on a difference fill
 * r as SMT_DIFFERENT with every input leaf of the context as the counterexample. 1 found, 0 not, -1 no memory. */
static int sample(ex_ctx *x, ex_id a, ex_id b, unsigned n, smt_result *r)
{
    uint32_t nn = ex_count(x), maxarr = 0, maxlimb = 0, nin = 0;
    for (uint32_t id = 1; id <= nn; id++) {
        const ex_node *e = ex_get(x, id);
        if (e->kind != EX_INPUT)
            continue;
        nin++;
        if ((uint32_t)(e->k >> 32) > maxarr)
            maxarr = (uint32_t)(e->k >> 32);
        if ((uint32_t)e->k > maxlimb)
            maxlimb = (uint32_t)e->k;
    }
    size_t stride = (size_t)maxlimb + 1;
    uint64_t *buf = calloc((maxarr + 1) * stride, sizeof *buf);
    const uint64_t **in = calloc(maxarr + 1, sizeof *in);
    int found = 0;
    if (!buf || !in) {
        found = -1;
        goto out;
    }
    for (uint32_t i = 0; i <= maxarr; i++)
        in[i] = buf + i * stride;
    uint64_t st = 0x243f6a8885a308d3u ^ ((uint64_t)a << 32 | b);
    for (unsigned it = 0; it < n && !found; it++) {
        for (uint32_t id = 1; id <= nn; id++) {
            const ex_node *e = ex_get(x, id);
            if (e->kind != EX_INPUT)
                continue;
            uint64_t z = (st += 0x9e3779b97f4a7c15u);
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
            z ^= z >> 31;
            uint64_t lo = (uint64_t)e->lo, hi = (uint64_t)e->hi, v;
            switch (z % 4) {
            case 0: v = hi; break;
            case 1: v = lo; break;
            default: v = hi - lo == ~(uint64_t)0 ? z : lo + (z >> 2) % (hi - lo + 1); break;
            }
            buf[(uint32_t)(e->k >> 32) * stride + (uint32_t)e->k] = v;
        }
        if (ex_eval(x, a, in, &r->va) != 0 || ex_eval(x, b, in, &r->vb) != 0) {
            found = -1;
            goto out;
        }
        if (r->va != r->vb)
            found = 1;
    }
    if (found == 1) {
        r->cex = calloc(nin, sizeof *r->cex);
        if (!r->cex) {
            found = -1;
            goto out;
        }
        for (uint32_t id = 1; id <= nn; id++) {
            const ex_node *e = ex_get(x, id);
            if (e->kind != EX_INPUT)
                continue;
            smt_limb *l = &r->cex[r->ncex++];
            l->arr = (uint32_t)(e->k >> 32);
            l->limb = (uint32_t)e->k;
            l->v = buf[l->arr * stride + l->limb];
        }
        r->verdict = SMT_DIFFERENT;
        r->sampled = true;
    }
out:
    free(buf);
    free(in);
    return found;
}

smt_verdict smt_differ(ex_ctx *x, ex_id a, ex_id b, unsigned timeout_ms, smt_result *r)
{
    return query(x, a, b, timeout_ms, r, false, NULL, NULL, NULL);
}

smt_verdict smt_differ_cut(ex_ctx *x, ex_id a, ex_id b, const smt_cuts *cuts, unsigned timeout_ms, smt_result *r)
{
    if (!cuts || !cuts->refine)
        return query(x, a, b, timeout_ms, r, false, cuts, NULL, NULL);
    /* counterexample-guided refinement of the cuts: a class whose variable the spurious model sets to a value its
     * node does not really take on the model's inputs is uncut, and the query asked again. Each query keeps the
     * cut rule (a subset of proved classes is still a set of proved classes), so unsat in any round is a proof. */
    double t0 = now();
    uint32_t *cls = malloc(((size_t)cuts->nnodes + 1) * sizeof *cls);
    uint8_t *bad = calloc((size_t)cuts->ncls + 1, 1);
    if (!cls || !bad) {
        free(cls);
        free(bad);
        return query(x, a, b, timeout_ms, r, false, cuts, NULL, NULL);
    }
    memcpy(cls, cuts->cls, ((size_t)cuts->nnodes + 1) * sizeof *cls);
    smt_cuts c2 = *cuts;
    c2.cls = cls;
    smt_verdict v = SMT_ERROR;
    unsigned round;
    for (round = 0;; round++) {
        unsigned left = timeout_ms;
        if (timeout_ms) {
            double used = (now() - t0) * 1e3;
            left = used >= timeout_ms ? 1 : timeout_ms - (unsigned)used;
        }
        uint32_t nbad = 0;
        v = query(x, a, b, left, r, false, &c2, bad, &nbad);
        if (v != SMT_UNKNOWN || !nbad || round >= cuts->refine)
            break;
        for (uint32_t id = 1; id <= cuts->nnodes; id++)
            if (cls[id] && cls[id] <= cuts->ncls && bad[cls[id]])
                cls[id] = 0;
        smt_result_free(r);
    }
    r->refines = round;
    r->seconds = now() - t0;
    free(cls);
    free(bad);
    return v;
}

smt_verdict smt_differ_sampled(ex_ctx *x, ex_id a, ex_id b, unsigned nsamples, unsigned timeout_ms, smt_result *r)
{
    double t0 = now();
    memset(r, 0, sizeof *r);
    if (ex_get(x, a) && ex_get(x, b) && a != b && !ex_has_unknown(x, a) && !ex_has_unknown(x, b) &&
        sample(x, a, b, nsamples, r) == 1) {
        r->seconds = now() - t0;
        return SMT_DIFFERENT;
    }
    smt_verdict v = query(x, a, b, timeout_ms, r, false, NULL, NULL, NULL);
    r->seconds = now() - t0;
    return v;
}
