/* explain.c — `ecopt check --explain` (check/explain.h): the limb, the instruction, the input. */
#include "check/explain.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check/decode.h"
#include "check/exec.h"
#include "check/expr.h"
#include "check/ir_sym.h"

#define NAGREE 8 /* random inputs besides the counterexample on which a value must be the program's to agree */

typedef struct {
    size_t insn;
    ex_id e;
    int where;
    uint32_t arr, limb;
} wrec;

typedef struct {
    wrec *w;
    size_t n, cap;
    bool oom;
} trace;

static void on_write(void *arg, size_t insn, ex_id e, int where, uint32_t arr, uint32_t limb)
{
    trace *t = arg;
    if (t->n == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 1024;
        wrec *p = realloc(t->w, nc * sizeof *p);
        if (!p) {
            t->oom = true;
            return;
        }
        t->w = p;
        t->cap = nc;
    }
    t->w[t->n++] = (wrec){ insn, e, where, arr, limb };
}

/* ---- a set of 64-bit values (open addressing) ---------------------------------------------------------------- */

typedef struct {
    uint64_t *v;
    bool *used;
    size_t cap;
} vset;

static size_t vhash(uint64_t v, size_t cap)
{
    v ^= v >> 33;
    v *= 0xff51afd7ed558ccdull;
    v ^= v >> 33;
    return (size_t)(v & (cap - 1));
}

static void vset_add(vset *s, uint64_t v)
{
    size_t i = vhash(v, s->cap);
    while (s->used[i] && s->v[i] != v)
        i = (i + 1) & (s->cap - 1);
    s->used[i] = true;
    s->v[i] = v;
}

static bool vset_has(const vset *s, uint64_t v)
{
    size_t i = vhash(v, s->cap);
    while (s->used[i]) {
        if (s->v[i] == v)
            return true;
        i = (i + 1) & (s->cap - 1);
    }
    return false;
}

/* ---- the counterexample's inputs ------------------------------------------------------------------------------- */

/* parse_cex — the input limbs from check.c's cex text ("arg1 = {0x.., _, ...}, arg2 = {...}: out1[2] = ..."); a
 * limb printed "_" (the solver's model leaves it free) takes its lower bound. 0, or -1 when the text is not that. */
static int parse_cex(const ir_func *f, const char *cex, uint64_t *const *in)
{
    const char *p = cex;
    for (uint32_t j = 0; j < f->narr; j++) {
        if (f->arr[j].is_output)
            continue;
        size_t nl = strlen(f->arr[j].name);
        const char *q = p;
        while ((q = strstr(q, f->arr[j].name)) != NULL) {
            if ((q == cex || q[-1] == ' ') && strncmp(q + nl, " = {", 4) == 0)
                break;
            q++;
        }
        if (!q)
            return -1;
        p = q + nl + 4;
        for (uint32_t i = 0; i < f->arr[j].len; i++) {
            if (i) {
                if (strncmp(p, ", ", 2) != 0)
                    return -1;
                p += 2;
            }
            if (*p == '_') {
                in[j][i] = (uint64_t)f->arr[j].lo[i];
                p++;
                continue;
            }
            char *end = NULL;
            if (strncmp(p, "0x", 2) != 0)
                return -1;
            in[j][i] = strtoull(p, &end, 16);
            p = end;
        }
        if (*p != '}')
            return -1;
        p++;
    }
    return 0;
}

static uint64_t splitmix(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void print_input(FILE *out, const ir_func *f, uint64_t *const *in)
{
    fprintf(out, "explain: input:");
    bool first = true;
    for (uint32_t j = 0; j < f->narr; j++) {
        if (f->arr[j].is_output)
            continue;
        fprintf(out, "%s %s = {", first ? "" : ",", f->arr[j].name);
        first = false;
        for (uint32_t i = 0; i < f->arr[j].len; i++)
            fprintf(out, "%s0x%016" PRIx64, i ? ", " : "", in[j][i]);
        fprintf(out, "}");
    }
    fprintf(out, "\n");
}

static void print_insn(FILE *out, const char *what, const check_insn *in)
{
    char t[200];
    check_insn_format(in, t, sizeof t);
    fprintf(out, "explain: %s 0x%llx: %s\n", what, (unsigned long long)in->addr, t);
}

/* recovers — whether a value computed from instruction i's result (forward in the data flow, inside the slice)
 * through registers and memory (not flags: a carry is right as often as not) is again a program node, the same
 * normal form (not merely an equal value: the high half of 38 * (x + 1) usually equals that of 38 * x), and not a
 * small one (0, 1, a carry): then i computed a temporary of its own (a compiler's 9x on the way to the program's
 * 19x), not the first wrong value. queue: scratch of ni + 1 entries. */
static bool recovers(const trace *tr, uint32_t n, ex_id boundary, const ir_u128 *vals0, const size_t *edge_from,
                     const size_t *edge_to, const bool *edge_flag, size_t ne, const bool *inslice, size_t ni, size_t i,
                     size_t *queue)
{
    bool *seen = calloc(ni + 1, sizeof *seen);
    if (!seen)
        return false;
    size_t qh = 0, qt = 0;
    bool rec = false;
    seen[i] = true;
    queue[qt++] = i;
    while (qh < qt && !rec) {
        size_t c = queue[qh++];
        for (size_t k = 0; k < ne; k++)
            if (edge_to[k] == c && !edge_flag[k] && inslice[edge_from[k]] && !seen[edge_from[k]]) {
                seen[edge_from[k]] = true;
                queue[qt++] = edge_from[k];
            }
        if (c == i)
            continue;
        for (size_t q = 0; q < tr->n && !rec; q++) {
            const wrec *w = &tr->w[q];
            if (w->insn == c && w->e <= n && (w->where == CHECK_EXEC_AT_REG || w->where == CHECK_EXEC_AT_STACK) &&
                w->e <= boundary && vals0[w->e] >= 65536)
                rec = true;
        }
    }
    free(seen);
    return rec;
}

/* ---- the explanation ------------------------------------------------------------------------------------------- */

int check_explain(const ir_func *f0, const check_code *code, const check_opts *o, const check_result *r, FILE *out)
{
    if (r->verdict != CHECK_REJECTED)
        return 0;
    check_insn_list insns = { NULL, 0 };
    char err[512];
    int rc = 0;
    if (r->rule != CHECK_RULE_OUTPUT_DIFFERS) {
        fprintf(out, "explain: rule %s broken: %s\n", check_rule_name(r->rule), r->reason);
        if (r->has_addr && check_decode_code(code, &insns, err, sizeof err) == 0) {
            for (size_t i = 0; i < insns.n; i++)
                if (insns.insns[i].addr == r->addr)
                    print_insn(out, "the instruction:", &insns.insns[i]);
            check_insn_list_free(&insns);
        }
        if (r->rule == CHECK_RULE_UNPROVED)
            fprintf(out, "explain: no input on which the two differ is known (sampling found none, the solver "
                         "gave no answer)\n");
        return 0;
    }
    if (r->alias_case[0]) {
        /* the re-run below is of the disjoint case, where the code may agree with the program: saying so would
         * contradict the verdict */
        fprintf(out, "explain: rule output-differs broken in the aliasing case %s: %s\n", r->alias_case, r->reason);
        fprintf(out, "explain: the instruction-level explanation is available only for the disjoint case, where "
                     "the arrays do not overlap\n");
        return 0;
    }
    ir_func *f = ir_func_clone(f0);
    ex_ctx *x = ex_ctx_new();
    trace tr = { NULL, 0, 0, false };
    ex_id **prog = NULL, **codev = NULL;
    uint64_t **in = NULL, *inbuf = NULL;
    ex_id *ids = NULL;
    ir_u128 *vals = NULL, *vals0 = NULL;
    bool *agree = NULL;
    uint64_t **in2 = NULL, *inbuf2 = NULL;
    size_t *writer = NULL;
    vset P = { NULL, NULL, 0 };
    if (!f || !x || ir_validate(f) != 0 || ir_bounds(f) != 0) {
        fprintf(out, "explain: the program cannot be re-run\n");
        goto out;
    }
    uint32_t total = 0;
    for (uint32_t j = 0; j < f->narr; j++)
        total += f->arr[j].len;
    prog = calloc(f->narr, sizeof *prog);
    codev = calloc(f->narr, sizeof *codev);
    in = calloc(f->narr, sizeof *in);
    inbuf = calloc(total + 1, sizeof *inbuf);
    in2 = calloc(f->narr, sizeof *in2);
    inbuf2 = calloc(total + 1, sizeof *inbuf2);
    ids = calloc(2 * (size_t)total + 1, sizeof *ids);
    if (!prog || !codev || !in || !inbuf || !ids || !in2 || !inbuf2)
        goto oom;
    for (uint32_t j = 0, at = 0; j < f->narr; j++) {
        prog[j] = ids + at;
        codev[j] = ids + total + at;
        in[j] = inbuf + at;
        in2[j] = inbuf2 + at;
        at += f->arr[j].len;
    }
    if (ir_sym_run(x, f, prog, err, sizeof err) != 0) {
        fprintf(out, "explain: the program cannot be re-run: %s\n", err);
        goto out;
    }
    ex_id boundary = ex_count(x);
    if (check_decode_code(code, &insns, err, sizeof err) != 0) {
        fprintf(out, "explain: the code does not decode: %s\n", err);
        goto out;
    }
    uint32_t argmap[16];
    check_exec_argmap(f, argmap);
    check_result er;
    memset(&er, 0, sizeof er);
    check_exec_obs obs;
    memset(&obs, 0, sizeof obs);
    obs.write = on_write;
    obs.arg = &tr;
    if (check_exec_observed(x, f, argmap, &insns, o && o->no_red_zone, codev, &er, &obs) != 0 || tr.oom) {
        fprintf(out, "explain: the code cannot be re-run: %s\n", tr.oom ? "out of memory" : er.reason);
        goto out;
    }
    uint32_t n = ex_count(x);
    vals = malloc(((size_t)n + 1) * sizeof *vals);
    vals0 = malloc(((size_t)n + 1) * sizeof *vals0);
    writer = malloc(((size_t)n + 1) * sizeof *writer);
    P.cap = 64;
    while (P.cap < 4 * (size_t)boundary + 64)
        P.cap *= 2;
    P.v = malloc(P.cap * sizeof *P.v);
    P.used = calloc(P.cap, sizeof *P.used);
    if (!vals || !vals0 || !writer || !P.v || !P.used)
        goto oom;

    /* the input: the counterexample's, else sampled within the bounds */
    bool from_cex = r->cex[0] && parse_cex(f, r->cex, in) == 0;
    uint32_t oj = 0, oi = 0;
    bool found = false;
    uint64_t st = 0x243f6a8885a308d3ull;
    for (unsigned tries = 0; tries < 4096 && !found; tries++) {
        if (!from_cex || tries > 0)
            for (uint32_t j = 0; j < f->narr; j++)
                for (uint32_t i = 0; i < f->arr[j].len && !f->arr[j].is_output; i++) {
                    ir_u128 lo = f->arr[j].lo[i], span = f->arr[j].hi[i] - lo;
                    uint64_t v = splitmix(&st);
                    if (tries % 4 == 1)
                        v = 0;
                    if (tries % 4 == 2)
                        v = ~(uint64_t)0;
                    in[j][i] = (uint64_t)(span >= UINT64_MAX ? v : lo + (ir_u128)v % (span + 1));
                }
        if (ex_eval_all(x, (const uint64_t *const *)in, vals) != 0)
            goto oom;
        for (uint32_t j = 0; j < f->narr && !found; j++)
            for (uint32_t i = 0; i < f->arr[j].len && !found && f->arr[j].is_output; i++)
                if (prog[j][i] && codev[j][i] && (uint64_t)vals[prog[j][i]] != (uint64_t)vals[codev[j][i]]) {
                    found = true;
                    oj = j;
                    oi = i;
                }
    }
    if (!found) {
        fprintf(out, "explain: no input found on which an output limb differs (%s)\n", r->reason);
        rc = 0;
        goto out;
    }
    ex_id ce = codev[oj][oi], pe = prog[oj][oi];
    fprintf(out, "explain: output limb %s[%u] differs: 0x%016" PRIx64 " (code), 0x%016" PRIx64 " (program)%s\n",
            f->arr[oj].name, oi, (uint64_t)vals[ce], (uint64_t)vals[pe],
            from_cex ? "" : " (on an input found here: the counterexample could not be read)");
    print_input(out, f, in);
    size_t store = SIZE_MAX;
    for (size_t k = 0; k < tr.n; k++)
        if (tr.w[k].where == CHECK_EXEC_AT_ARRAY && tr.w[k].arr == oj && tr.w[k].limb == oi)
            store = tr.w[k].insn;
    if (store != SIZE_MAX)
        print_insn(out, "the limb is stored by", &insns.insns[store]);

    /* agree[v]: the value is one the program computes, on this input and on NAGREE more random ones within the
     * bounds (one input alone lets values coincide: an input of all ones makes many sums equal) */
    agree = malloc(((size_t)n + 1) * sizeof *agree);
    if (!agree)
        goto oom;
    for (ex_id id = 0; id <= n; id++)
        agree[id] = true;
    for (unsigned t = 0; t <= NAGREE; t++) {
        if (t > 0) {
            for (uint32_t j = 0; j < f->narr; j++)
                for (uint32_t i = 0; i < f->arr[j].len && !f->arr[j].is_output; i++) {
                    ir_u128 lo = f->arr[j].lo[i], span = f->arr[j].hi[i] - lo;
                    uint64_t v = splitmix(&st);
                    in2[j][i] = (uint64_t)(span >= UINT64_MAX ? v : lo + (ir_u128)v % (span + 1));
                }
            if (ex_eval_all(x, (const uint64_t *const *)in2, vals) != 0)
                goto oom;
        }
        memset(P.used, 0, P.cap * sizeof *P.used);
        for (ex_id id = 1; id <= boundary; id++) {
            const ex_node *nd = ex_get(x, id);
            vset_add(&P, (uint64_t)vals[id]);
            if (nd && nd->width > 64)
                vset_add(&P, (uint64_t)(vals[id] >> 64));
        }
        for (ex_id id = boundary + 1; id <= n; id++)
            if (ex_get(x, id)->kind != EX_INPUT && !vset_has(&P, (uint64_t)vals[id]))
                agree[id] = false;
        if (t == 0)
            memcpy(vals0, vals, ((size_t)n + 1) * sizeof *vals);
    }
    /* the instructions' data flow: each read's producer is the latest earlier instruction that wrote that value */
    size_t ni = insns.n;
    size_t *last = writer; /* reused: the latest writer of each id so far */
    for (uint32_t id = 0; id <= n; id++)
        last[id] = SIZE_MAX;
    /* per instruction: its reads' producers (edges) and whether it is in the limb's slice */
    size_t *edge_from = malloc((tr.n + 1) * sizeof *edge_from), *edge_to = malloc((tr.n + 1) * sizeof *edge_to);
    bool *edge_flag = malloc((tr.n + 1) * sizeof *edge_flag);
    bool *inslice = calloc(ni + 1, sizeof *inslice);
    size_t *queue = malloc((ni + 1) * sizeof *queue);
    if (!edge_from || !edge_to || !edge_flag || !inslice || !queue) {
        free(edge_flag);
        free(edge_from);
        free(edge_to);
        free(inslice);
        free(queue);
        goto oom;
    }
    size_t ne = 0;
    for (size_t k = 0; k < tr.n; k++) {
        const wrec *w = &tr.w[k];
        if (w->e > n)
            continue;
        if (w->where == CHECK_EXEC_READ || w->where == CHECK_EXEC_READ_FLAG) {
            if (last[w->e] != SIZE_MAX && last[w->e] != w->insn) {
                edge_flag[ne] = w->where == CHECK_EXEC_READ_FLAG;
                edge_from[ne] = w->insn;
                edge_to[ne++] = last[w->e];
            }
        } else
            last[w->e] = w->insn;
    }
#define AGREES(v) (agree[v])
    size_t best = SIZE_MAX;
    ex_id bestv = 0;
    if (store != SIZE_MAX) {
        size_t qh = 0, qt = 0;
        inslice[store] = true;
        queue[qt++] = store;
        while (qh < qt) { /* edges are few per instruction: a scan per step is enough for explain */
            size_t i = queue[qh++];
            for (size_t k = 0; k < ne; k++)
                if (edge_from[k] == i && !inslice[edge_to[k]]) {
                    inslice[edge_to[k]] = true;
                    queue[qt++] = edge_to[k];
                }
        }
        /* the earliest instruction of the slice that writes a value that does not agree, all its reads agreeing, and
         * whose result does not lead back to a program node */
        size_t k = 0;
        for (size_t i = 0; i < ni && best == SIZE_MAX; i++) {
            while (k < tr.n && tr.w[k].insn < i)
                k++;
            if (!inslice[i] || i == store)
                continue;
            bool reads_ok = true, off = false;
            ex_id offv = 0;
            for (size_t q = k; q < tr.n && tr.w[q].insn == i; q++) {
                ex_id e = tr.w[q].e;
                if (e > n)
                    continue;
                if (tr.w[q].where == CHECK_EXEC_READ_FLAG || tr.w[q].where == CHECK_EXEC_AT_FLAG)
                    continue; /* a flag's tag only links the flow: its value is 0 or 1 */
                if (tr.w[q].where == CHECK_EXEC_READ)
                    reads_ok = reads_ok && AGREES(e);
                else if (!AGREES(e) && !off) {
                    off = true;
                    offv = e;
                }
            }
            if (off && reads_ok && !recovers(&tr, n, boundary, vals0, edge_from, edge_to, edge_flag, ne, inslice, ni, i, queue)) {
                best = i;
                bestv = offv;
            }
        }
    }
    free(edge_flag);
    free(edge_from);
    free(edge_to);
    free(inslice);
    free(queue);
#undef AGREES
    if (best != SIZE_MAX) {
        print_insn(out, "the two sides part at", &insns.insns[best]);
        fprintf(out, "explain: its result (0x%016" PRIx64 " on this input) is no value the program computes; every "
                     "value it is computed from is one\n",
                (uint64_t)vals0[bestv]);
    } else if (store != SIZE_MAX) {
        print_insn(out, "the two sides part at the store", &insns.insns[store]);
        fprintf(out, "explain: every value in the limb's data flow is one the program computes on this input, but "
                     "not this limb's\n");
    }
    rc = 0;
    goto out;
oom:
    fprintf(out, "explain: out of memory\n");
    rc = -1;
out:
    free(P.v);
    free(P.used);
    free(writer);
    free(vals);
    free(vals0);
    free(agree);
    free(in2);
    free(inbuf2);
    free(tr.w);
    free(ids);
    free(inbuf);
    free(in);
    free(codev);
    free(prog);
    check_insn_list_free(&insns);
    ex_ctx_free(x);
    ir_func_free(f);
    return rc;
}
