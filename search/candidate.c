/* candidate.c — schedules and decisions of the optimizer's search (candidate.h). */
#include "search/candidate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit_asm.h"

/* ---- random numbers ------------------------------------------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void cand_rng_seed(cand_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t cand_rng_next(cand_rng *r)
{
    uint64_t *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return res;
}

uint64_t cand_rng_below(cand_rng *r, uint64_t n)
{
    if (n <= 1)
        return 0;
    uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;
    do
        x = cand_rng_next(r);
    while (x >= lim);
    return x % n;
}

/* ---- graph --------------------------------------------------------------------------------------------------- */

typedef struct {
    uint32_t from, to;
} edge;

typedef struct {
    edge *e;
    size_t n, cap;
} edges;

static int add_edge(edges *es, uint32_t from, uint32_t to)
{
    if (from == to)
        return 0;
    if (es->n == es->cap) {
        size_t cap = es->cap ? 2 * es->cap : 256;
        edge *e = realloc(es->e, cap * sizeof *e);
        if (!e)
            return -1;
        es->e = e;
        es->cap = cap;
    }
    es->e[es->n].from = from;
    es->e[es->n].to = to;
    es->n++;
    return 0;
}

static int cmp_edge(const void *a, const void *b)
{
    const edge *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return 0;
}

/* The constant operand of x (IR_NOVAL when none). */
static ir_val const_arg(const ir_func *f, const ir_node *x)
{
    for (int a = 0; a < x->nargs; a++)
        if (f->val[x->arg[a]].is_const)
            return x->arg[a];
    return IR_NOVAL;
}

/* The decision bytes that change the code of node x of f, each once. */
static unsigned node_choices(const ir_func *f, const ir_node *x, emit_asm_target target, uint8_t *out)
{
    bool adx = target == EMIT_ASM_TARGET_ADX; /* BMI2 and ADX: the OF chain, bzhi, shlx/shrx */
    uint8_t base[CAND_MAX_CHOICES];
    unsigned k = 0;
    base[k++] = 0;
    switch (x->op) {
    case IR_ADDCARRYX:
        if (adx)
            base[k++] = EMIT_ASM_D_OF;
        break;
    case IR_ADD: /* a u1 carry plus a u64 value: adc $0 or setc + movzbl + lea (the emitter checks the flags) */
        if (x->nargs == 2 && f->val[x->res[0]].width == 64 &&
            ((!f->val[x->arg[0]].is_const && f->val[x->arg[0]].width == 1) ||
             (!f->val[x->arg[1]].is_const && f->val[x->arg[1]].width == 1)))
            base[k++] = EMIT_ASM_D_ADC0;
        break;
    case IR_MULX:
        base[k++] = EMIT_ASM_D_RDX_A;
        base[k++] = EMIT_ASM_D_RDX_B;
        break;
    case IR_AND: { /* a mask 2^j - 1, 1 <= j <= 63 */
        ir_val c = const_arg(f, x);
        if (c != IR_NOVAL && f->val[x->res[0]].width == 64) {
            ir_u128 m = f->val[c].k;
            if (adx && m != 0 && m < ((ir_u128)1 << 63) && ((m + 1) & m) == 0)
                base[k++] = EMIT_ASM_D_BZHI;
        }
        break;
    }
    case IR_MUL: /* by a constant >= 2: lea, imul, or shl for a power of two */
    case IR_SHL: {
        ir_val c = const_arg(f, x);
        if (c == IR_NOVAL || f->val[x->res[0]].width != 64)
            break;
        ir_u128 m = f->val[c].k;
        if (x->op == IR_MUL) {
            if (m < 2 || m > 0x7fffffff)
                break;
            base[k++] = EMIT_ASM_D_CMUL_LEA;
            base[k++] = EMIT_ASM_D_CMUL_IMUL;
            if ((m & (m - 1)) == 0)
                base[k++] = EMIT_ASM_D_CMUL_SHL;
        } else {
            if (m >= 1 && m <= 3)
                base[k++] = EMIT_ASM_D_CMUL_LEA;
            if (m >= 1 && m <= 30)
                base[k++] = EMIT_ASM_D_CMUL_IMUL;
            if (adx && m >= 1 && m <= 63)
                base[k++] = EMIT_ASM_D_SHX;
        }
        break;
    }
    case IR_CMOVZNZ: /* K or 0: cmov of two immediates, or sbb r, r + and (the emitter checks the flags too) */
        if (x->arg[1] < f->nval && x->arg[2] < f->nval && f->val[x->arg[1]].is_const && f->val[x->arg[1]].k == 0 &&
            f->val[x->arg[2]].is_const && f->val[x->arg[2]].k >= 1 && f->val[x->arg[2]].k <= 0x7fffffff)
            base[k++] = EMIT_ASM_D_SBB;
        break;
    case IR_SHR: { /* by a constant: shr or shrx (no flag written) */
        ir_val c = const_arg(f, x);
        if (adx && c != IR_NOVAL && f->val[x->res[0]].width == 64 && f->val[c].k >= 1 && f->val[c].k <= 63)
            base[k++] = EMIT_ASM_D_SHX;
        break;
    }
    default:
        break;
    }
    unsigned n = 0;
    for (unsigned i = 0; i < k; i++)
        out[n++] = base[i];
    /* a result that may be spilled: to the stack (default) or to an xmm register */
    if (x->nres > 0 && x->op != IR_STORE && 2 * k <= CAND_MAX_CHOICES)
        for (unsigned i = 0; i < k; i++)
            out[n++] = (uint8_t)(base[i] | EMIT_ASM_D_XMM);
    return n;
}

void cand_graph_free(cand_graph *g)
{
    free(g->pred_start);
    free(g->pred);
    free(g->succ_start);
    free(g->succ);
    free(g->nchoices);
    free(g->choices);
    free(g->flexible);
    memset(g, 0, sizeof *g);
}

int cand_graph_build(cand_graph *g, const ir_func *f, emit_asm_target target, char *err, size_t errlen)
{
    edges es = { 0 };
    uint32_t n = f->nnode, *last_store = NULL, *first_store = NULL;
    memset(g, 0, sizeof *g);
    if (n == 0) {
        snprintf(err, errlen, "%s has no nodes", f->name);
        return -1;
    }
    g->f = f;
    g->n = n;
    last_store = malloc(f->narr * sizeof *last_store + 1);
    first_store = malloc(f->narr * sizeof *first_store + 1);
    if (!last_store || !first_store)
        goto oom;
    for (uint32_t a = 0; a < f->narr; a++)
        last_store[a] = first_store[a] = IR_NOVAL;
    for (uint32_t v = 0; v < n; v++) {
        const ir_node *x = &f->node[v];
        for (int a = 0; a < x->nargs; a++) {
            const ir_value *val = &f->val[x->arg[a]];
            if (!val->is_const && val->node != IR_NOVAL && add_edge(&es, val->node, v))
                goto oom;
        }
        if (x->op == IR_STORE && x->arr < f->narr) {
            if (last_store[x->arr] != IR_NOVAL && add_edge(&es, last_store[x->arr], v))
                goto oom;
            if (first_store[x->arr] == IR_NOVAL)
                first_store[x->arr] = v;
            last_store[x->arr] = v;
        }
    }
    /* the alias rule: every load of input i before the first store to each output that may alias i */
    for (uint32_t v = 0; v < n; v++) {
        const ir_node *x = &f->node[v];
        if (x->op != IR_LOAD)
            continue;
        for (uint32_t o = 0; o < f->narr; o++)
            if (f->arr[o].is_output && x->arr < 64 && (f->arr[o].alias >> x->arr & 1) && first_store[o] != IR_NOVAL &&
                add_edge(&es, v, first_store[o]))
                goto oom;
    }
    /* dedupe, then CSR both ways */
    if (es.n)
        qsort(es.e, es.n, sizeof *es.e, cmp_edge);
    size_t m = 0;
    for (size_t i = 0; i < es.n; i++)
        if (m == 0 || cmp_edge(&es.e[m - 1], &es.e[i]) != 0)
            es.e[m++] = es.e[i];
    g->pred_start = calloc(n + 1, sizeof *g->pred_start);
    g->succ_start = calloc(n + 1, sizeof *g->succ_start);
    g->pred = malloc((m + 1) * sizeof *g->pred);
    g->succ = malloc((m + 1) * sizeof *g->succ);
    g->nchoices = malloc(n);
    g->choices = malloc(n * sizeof *g->choices);
    g->flexible = malloc(n * sizeof *g->flexible);
    if (!g->pred_start || !g->succ_start || !g->pred || !g->succ || !g->nchoices || !g->choices || !g->flexible)
        goto oom;
    for (size_t i = 0; i < m; i++) {
        g->succ_start[es.e[i].from + 1]++;
        g->pred_start[es.e[i].to + 1]++;
    }
    for (uint32_t v = 0; v < n; v++) {
        g->succ_start[v + 1] += g->succ_start[v];
        g->pred_start[v + 1] += g->pred_start[v];
    }
    {
        uint32_t *fs = calloc(n, sizeof *fs), *fp = calloc(n, sizeof *fp);
        if (!fs || !fp) {
            free(fs);
            free(fp);
            goto oom;
        }
        for (size_t i = 0; i < m; i++) {
            uint32_t u = es.e[i].from, v = es.e[i].to;
            g->succ[g->succ_start[u] + fs[u]++] = v;
            g->pred[g->pred_start[v] + fp[v]++] = u;
        }
        free(fs);
        free(fp);
    }
    for (uint32_t v = 0; v < n; v++) {
        g->nchoices[v] = (uint8_t)node_choices(f, &f->node[v], target, g->choices[v]);
        if (g->nchoices[v] > 1)
            g->flexible[g->nflexible++] = v;
    }
    free(es.e);
    free(last_store);
    free(first_store);
    return 0;
oom:
    free(es.e);
    free(last_store);
    free(first_store);
    cand_graph_free(g);
    snprintf(err, errlen, "out of memory");
    return -1;
}

/* ---- candidates ---------------------------------------------------------------------------------------------- */

int cand_init(candidate *c, const cand_graph *g)
{
    c->n = g->n;
    c->order = malloc(g->n * sizeof *c->order);
    c->pos = malloc(g->n * sizeof *c->pos);
    c->dec = calloc(g->n, 1);
    if (!c->order || !c->pos || !c->dec) {
        cand_free(c);
        return -1;
    }
    for (uint32_t k = 0; k < g->n; k++)
        c->order[k] = c->pos[k] = k;
    return 0;
}

void cand_free(candidate *c)
{
    free(c->order);
    free(c->pos);
    free(c->dec);
    memset(c, 0, sizeof *c);
}

void cand_copy(candidate *dst, const candidate *src)
{
    memcpy(dst->order, src->order, src->n * sizeof *src->order);
    memcpy(dst->pos, src->pos, src->n * sizeof *src->pos);
    memcpy(dst->dec, src->dec, src->n);
}

/* A random post-order of the predecessor graph from the sinks (nodes without successors, the stores, taken in
 * f's order): every node comes right after the last of its operands' subtrees, so values are computed just
 * before their use (few live at once, as in Sethi and Ullman, "The generation of optimal code for arithmetic
 * expressions", JACM 17(4), 1970). Operands are visited in random order. A post-order lists every predecessor
 * first, so it is legal. The producer of a carry operand is visited last (right before its consumer). Returns -1 when memory runs out (order untouched). */
static int random_postorder(candidate *c, const cand_graph *g, cand_rng *r)
{
    uint32_t n = g->n, k = 0, sp = 0;
    uint8_t *seen = calloc(n, 1);
    uint32_t *stack = malloc(n * sizeof *stack), *next = malloc(n * sizeof *next), *perm = NULL;
    size_t npred = g->pred_start[n];
    perm = malloc((npred + 1) * sizeof *perm);
    if (!seen || !stack || !next || !perm) {
        free(seen);
        free(stack);
        free(next);
        free(perm);
        return -1;
    }
    /* a random order of each node's predecessors */
    memcpy(perm, g->pred, npred * sizeof *perm);
    for (uint32_t v = 0; v < n; v++) {
        uint32_t b = g->pred_start[v], m = g->pred_start[v + 1] - b;
        for (uint32_t i = m; i > 1; i--) {
            uint32_t j = (uint32_t)cand_rng_below(r, i), t = perm[b + i - 1];
            perm[b + i - 1] = perm[b + j];
            perm[b + j] = t;
        }
        /* the producer of a carry operand last: it then sits right before v, and nothing in between overwrites
         * the flag that holds the carry (no setc/seto needed) */
        const ir_node *x = &g->f->node[v];
        for (uint32_t i = 0; i + 1 < m; i++) {
            bool carry = false;
            for (int a = 0; a < x->nargs; a++) {
                const ir_value *val = &g->f->val[x->arg[a]];
                carry |= !val->is_const && val->width == 1 && val->node == perm[b + i];
            }
            if (carry) {
                uint32_t t = perm[b + i];
                memmove(perm + b + i, perm + b + i + 1, (m - i - 1) * sizeof *perm);
                perm[b + m - 1] = t;
                break;
            }
        }
    }
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t root = 0; root < n; root++) {
            /* pass 0: the sinks; pass 1: anything left (none after dead-code elimination) */
            if (seen[root] || (pass == 0 && g->succ_start[root + 1] != g->succ_start[root]))
                continue;
            seen[root] = 1;
            stack[sp] = root;
            next[sp++] = 0;
            while (sp) {
                uint32_t v = stack[sp - 1], b = g->pred_start[v], m = g->pred_start[v + 1] - b;
                if (next[sp - 1] < m) {
                    uint32_t u = perm[b + next[sp - 1]++];
                    if (!seen[u]) {
                        seen[u] = 1;
                        stack[sp] = u;
                        next[sp++] = 0;
                    }
                } else {
                    c->order[k++] = v;
                    sp--;
                }
            }
        }
    free(seen);
    free(stack);
    free(next);
    free(perm);
    return 0;
}

void cand_random(candidate *c, const cand_graph *g, cand_rng *r)
{
    uint32_t n = g->n, nready = 0;
    /* c->pos is used as the remaining in-degree while the order is built, then rewritten */
    uint32_t *indeg = c->pos, *ready = NULL;
    if ((cand_rng_next(r) & 1) && random_postorder(c, g, r) == 0)
        goto decisions;
    ready = malloc(n * sizeof *ready);
    if (!ready) { /* keep f's own order: legal */
        for (uint32_t k = 0; k < n; k++)
            c->order[k] = c->pos[k] = k;
        memset(c->dec, 0, n);
        return;
    }
    for (uint32_t v = 0; v < n; v++) {
        indeg[v] = g->pred_start[v + 1] - g->pred_start[v];
        if (indeg[v] == 0)
            ready[nready++] = v;
    }
    /* Kahn's algorithm; the ready list is kept in the order nodes became ready, and 3 times in 4 the pick is among
     * the 4 that became ready last (a randomised depth-first order: the consumers of a value follow it soon, so
     * fewer values are live at once than in a uniformly random order), else uniform. */
    for (uint32_t k = 0; k < n && nready; k++) {
        uint32_t i;
        if (cand_rng_below(r, 4) != 0) {
            uint32_t w = nready < 4 ? nready : 4;
            i = nready - 1 - (uint32_t)cand_rng_below(r, w);
        } else {
            i = (uint32_t)cand_rng_below(r, nready);
        }
        uint32_t v = ready[i];
        memmove(ready + i, ready + i + 1, (nready - i - 1) * sizeof *ready);
        nready--;
        c->order[k] = v;
        for (uint32_t e = g->succ_start[v]; e < g->succ_start[v + 1]; e++)
            if (--indeg[g->succ[e]] == 0)
                ready[nready++] = g->succ[e];
    }
    free(ready);
decisions:
    for (uint32_t k = 0; k < n; k++)
        c->pos[c->order[k]] = k;
    /* decisions: the default 3 times in 4, else a random one that applies */
    for (uint32_t v = 0; v < n; v++)
        c->dec[v] = cand_rng_below(r, 4) ? 0 : g->choices[v][cand_rng_below(r, g->nchoices[v])];
}

/* Move node v from its place to position q (shifting the nodes between). */
static void move_to(candidate *c, uint32_t v, uint32_t q)
{
    uint32_t p = c->pos[v];
    if (q > p) {
        for (uint32_t k = p; k < q; k++) {
            c->order[k] = c->order[k + 1];
            c->pos[c->order[k]] = k;
        }
    } else {
        for (uint32_t k = p; k > q; k--) {
            c->order[k] = c->order[k - 1];
            c->pos[c->order[k]] = k;
        }
    }
    c->order[q] = v;
    c->pos[v] = q;
}

cand_mutation cand_mutate(candidate *c, const cand_graph *g, cand_rng *r)
{
    bool try_dec = g->nflexible > 0 && (cand_rng_next(r) & 1);
    if (try_dec) {
        uint32_t v = g->flexible[cand_rng_below(r, g->nflexible)];
        unsigned cur = 0;
        for (unsigned i = 0; i < g->nchoices[v]; i++)
            if (g->choices[v][i] == c->dec[v])
                cur = i;
        unsigned pick = (unsigned)cand_rng_below(r, g->nchoices[v] - 1u);
        if (pick >= cur)
            pick++;
        c->dec[v] = g->choices[v][pick];
        return CAND_MUT_DECISION;
    }
    for (int tries = 0; tries < 64; tries++) {
        uint32_t v = (uint32_t)cand_rng_below(r, g->n), lo = 0, hi = g->n; /* legal places: [lo, hi) */
        for (uint32_t e = g->pred_start[v]; e < g->pred_start[v + 1]; e++)
            if (c->pos[g->pred[e]] + 1 > lo)
                lo = c->pos[g->pred[e]] + 1;
        for (uint32_t e = g->succ_start[v]; e < g->succ_start[v + 1]; e++)
            if (c->pos[g->succ[e]] < hi)
                hi = c->pos[g->succ[e]];
        if (hi - lo < 2)
            continue;
        uint32_t q;
        uint64_t how = cand_rng_below(r, 4);
        if (how == 0 && lo != c->pos[v])
            q = lo; /* right after its last predecessor */
        else if (how == 1 && hi - 1 != c->pos[v])
            q = hi - 1; /* right before its first successor */
        else {
            q = lo + (uint32_t)cand_rng_below(r, hi - lo - 1u);
            if (q >= c->pos[v])
                q++;
        }
        move_to(c, v, q);
        return CAND_MUT_MOVE;
    }
    if (g->nflexible > 0) {
        uint32_t v = g->flexible[cand_rng_below(r, g->nflexible)];
        c->dec[v] = c->dec[v] == g->choices[v][0] ? g->choices[v][1] : g->choices[v][0];
        return CAND_MUT_DECISION;
    }
    return CAND_MUT_NONE;
}

bool cand_valid(const candidate *c, const cand_graph *g)
{
    if (c->n != g->n)
        return false;
    for (uint32_t k = 0; k < g->n; k++)
        if (c->order[k] >= g->n || c->pos[c->order[k]] != k)
            return false;
    for (uint32_t v = 0; v < g->n; v++) {
        for (uint32_t e = g->succ_start[v]; e < g->succ_start[v + 1]; e++)
            if (c->pos[g->succ[e]] <= c->pos[v])
                return false;
        bool ok = false;
        for (unsigned i = 0; i < g->nchoices[v]; i++)
            ok |= g->choices[v][i] == c->dec[v];
        if (!ok)
            return false;
    }
    return true;
}

void cand_apply(const candidate *c, const cand_graph *g, ir_func *dst, uint8_t *dec)
{
    const ir_func *f = g->f;
    for (uint32_t k = 0; k < g->n; k++) {
        uint32_t v = c->order[k];
        dst->node[k] = f->node[v];
        for (int i = 0; i < dst->node[k].nres; i++)
            dst->val[dst->node[k].res[i]].node = k;
        if (dec)
            dec[k] = c->dec[v];
    }
}
