/* text.c — the IR's text form: ir_print and ir_parse, with `call` inlining (grammar and rules: ir/TEXT.md).
 *
 * The form is line based: a `func NAME` line, metadata lines (prime, repr, kind, require), array declarations
 * (in, out), statements (one node per line, or a `const` array, or a `call`), `end`. Printing then parsing gives
 * back the same function (arrays, bounds, metadata, node order, value names and widths, constants by width and
 * value), and the printer's output is a fixed point: print(parse(print(f))) == print(f).
 *
 * Names are looked up in open-addressing hash tables (FNV-1a), so both directions are linear in the size of the
 * function; constants are deduplicated through a table of their own rather than ir_const's linear scan. */
#include "ir/ir.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_MAX_ARR 64 /* ir_array_add's limits: arrays per function, limbs per array */
#define TEXT_MAX_LEN 64


/* The operand printed in decimal: shift amounts (shl/shr operand 2, shrd operand 3). */
static bool op_shift_operand(ir_op op, unsigned k)
{
    return ((op == IR_SHL || op == IR_SHR) && k == 1) || (op == IR_SHRD && k == 2);
}

/* ---- hash table: identifier (at most IR_NAME_MAX-1 bytes) -> int32 ------------------------------------------- */

typedef struct {
    int32_t v;
    char key[IR_NAME_MAX]; /* "" = empty slot */
} hent;

typedef struct {
    hent *e;
    uint32_t cap, n; /* cap is 0 or a power of two */
} htab;

static uint32_t hash_str(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= (uint8_t)s[i];
        h *= 16777619u;
    }
    return h;
}

static hent *ht_slot(const htab *t, const char *s, size_t n)
{
    uint32_t i = hash_str(s, n) & (t->cap - 1);
    for (;;) {
        hent *e = &t->e[i];
        if (!e->key[0] || (strlen(e->key) == n && !memcmp(e->key, s, n)))
            return e;
        i = (i + 1) & (t->cap - 1);
    }
}

/* ht_get — 1 and *v when s[0..n) is present, else 0. */
static int ht_get(const htab *t, const char *s, size_t n, int32_t *v)
{
    if (!t->cap || n == 0 || n >= IR_NAME_MAX)
        return 0;
    hent *e = ht_slot(t, s, n);
    if (!e->key[0])
        return 0;
    if (v)
        *v = e->v;
    return 1;
}

static int ht_has(const htab *t, const char *s) { return ht_get(t, s, strlen(s), NULL); }

/* ht_put — insert or overwrite; -1 when memory runs out (or the key is empty or too long). */
static int ht_put(htab *t, const char *s, size_t n, int32_t v)
{
    if (n == 0 || n >= IR_NAME_MAX)
        return -1;
    if (2 * (t->n + 1) > t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 64;
        hent *ne = calloc(cap, sizeof *ne);
        if (!ne)
            return -1;
        htab nt = { ne, cap, 0 };
        for (uint32_t i = 0; i < t->cap; i++)
            if (t->e[i].key[0]) {
                hent *d = ht_slot(&nt, t->e[i].key, strlen(t->e[i].key));
                *d = t->e[i];
                nt.n++;
            }
        free(t->e);
        *t = nt;
    }
    hent *e = ht_slot(t, s, n);
    if (!e->key[0]) {
        memcpy(e->key, s, n);
        e->key[n] = 0;
        t->n++;
    }
    e->v = v;
    return 0;
}

static void ht_free(htab *t)
{
    free(t->e);
    t->e = NULL;
    t->cap = t->n = 0;
}

/* ================================================================================================================
 * Printing
 * ============================================================================================================= */

typedef struct {
    char *s;
    size_t n, cap;
    bool oom;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->n + n + 1 > cap)
            cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->oom = true;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

static void sb_str(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof tmp) {
        sb_put(b, tmp, (size_t)n);
        return;
    }
    /* longer than the stack buffer (a long prime expression): format again into the heap */
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_put(b, big, (size_t)n);
    free(big);
}

/* A number as printed: below 10 in decimal (the same in every base), otherwise 0x hex; `dec` prints values below
 * 256 in decimal (shift amounts read better that way). */
static void sb_num(sbuf *b, ir_u128 k, bool dec)
{
    char buf[48];
    if (k < 10 || (dec && k < 256))
        snprintf(buf, sizeof buf, "%u", (unsigned)k);
    else
        ir_u128_hex(k, buf);
    sb_str(b, buf);
}

static bool is_id_start(int c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
static bool is_id_char(int c) { return is_id_start(c) || (c >= '0' && c <= '9'); }

/* sanitize — in as an identifier: other characters become '_', a leading digit gets a 'v', "" becomes fallback. */
static void sanitize(const char *in, char out[IR_NAME_MAX], const char *fallback)
{
    size_t n = 0, o = 0;
    while (n < IR_NAME_MAX - 1 && in[n])
        n++;
    if (n == 0) {
        snprintf(out, IR_NAME_MAX, "%s", fallback);
        return;
    }
    if (!is_id_start((unsigned char)in[0]))
        out[o++] = 'v';
    for (size_t i = 0; i < n && o < IR_NAME_MAX - 1; i++)
        out[o++] = is_id_char((unsigned char)in[i]) ? in[i] : '_';
    out[o] = 0;
}

/* with_suffix — base (truncated so that the result fits a name) followed by suffix. */
static void with_suffix(const char *base, const char *suffix, char out[IR_NAME_MAX])
{
    size_t sl = strlen(suffix), bl = strlen(base);
    if (sl > IR_NAME_MAX - 2)
        sl = IR_NAME_MAX - 2;
    if (bl > IR_NAME_MAX - 1 - sl)
        bl = IR_NAME_MAX - 1 - sl;
    memmove(out, base, bl);
    memcpy(out + bl, suffix, sl);
    out[bl + sl] = 0;
}

/* unique_names — make the n names nm[order[0..n)] distinct identifiers, in that order: the first holder of a
 * spelling keeps it, a later duplicate becomes <name>_<id> (id = its index in nm), and <name>_<id>_<k>, k = 2,
 * 3, ... if that is taken too. All original spellings are reserved first, so a new spelling never takes one.
 * -1 when memory runs out. */
static int unique_names(char (*nm)[IR_NAME_MAX], const uint32_t *order, uint32_t n)
{
    htab t = { 0 };
    int rc = 0;
    for (uint32_t i = 0; i < n && !rc; i++) {
        const char *s = nm[order[i]];
        if (!ht_get(&t, s, strlen(s), NULL) && ht_put(&t, s, strlen(s), (int32_t)i) < 0)
            rc = -1;
    }
    for (uint32_t i = 0; i < n && !rc; i++) {
        char *s = nm[order[i]], cand[IR_NAME_MAX], suf[32];
        int32_t owner;
        if (ht_get(&t, s, strlen(s), &owner) && owner == (int32_t)i)
            continue;
        snprintf(suf, sizeof suf, "_%u", order[i]);
        with_suffix(s, suf, cand);
        for (unsigned k = 2; ht_has(&t, cand); k++) {
            snprintf(suf, sizeof suf, "_%u_%u", order[i], k);
            with_suffix(s, suf, cand);
        }
        if (ht_put(&t, cand, strlen(cand), (int32_t)i) < 0)
            rc = -1;
        memcpy(s, cand, IR_NAME_MAX);
    }
    ht_free(&t);
    return rc;
}

static const char *width_name(unsigned w)
{
    return w == 1 ? "u1" : w == 64 ? "u64" : w == 128 ? "u128" : "u?";
}

static void print_operand(sbuf *b, const ir_func *f, char (*vn)[IR_NAME_MAX], ir_val v, bool dec)
{
    if (v >= f->nval) {
        sb_str(b, "?");
        return;
    }
    const ir_value *x = &f->val[v];
    if (!x->is_const) {
        sb_str(b, vn[v]);
        return;
    }
    /* literal: bare is u64 below 2^64 and u128 from 2^64 on; any other width says so */
    sb_num(b, x->k, dec);
    if (x->width == 64 && x->k <= ir_width_max(64))
        return;
    if (x->width == 128 && x->k > ir_width_max(64))
        return;
    sb_str(b, ":");
    sb_str(b, width_name(x->width));
}

static void print_bounds(sbuf *b, const ir_array *a)
{
    bool full = true, same = true;
    for (uint32_t i = 0; i < a->len; i++) {
        full = full && a->lo[i] == 0 && a->hi[i] == ir_width_max(64);
        same = same && a->lo[i] == a->lo[0] && a->hi[i] == a->hi[0];
    }
    if (full || a->len == 0)
        return;
    for (uint32_t i = 0; i < (same ? 1 : a->len); i++) {
        sb_str(b, i ? ", " : " ");
        sb_num(b, a->lo[i], false);
        sb_str(b, "..");
        sb_num(b, a->hi[i], false);
    }
}

char *ir_print(const ir_func *f)
{
    sbuf b = { 0 };
    char (*vn)[IR_NAME_MAX] = calloc(f->nval ? f->nval : 1, sizeof *vn);
    char (*an)[IR_NAME_MAX] = calloc(f->narr ? f->narr : 1, sizeof *an);
    uint32_t *order = malloc((f->nval > f->narr ? f->nval : f->narr) * sizeof *order + 1);
    uint8_t *seen = calloc(f->nval ? f->nval : 1, 1);
    if (!vn || !an || !order || !seen)
        goto oom;

    /* names: arrays, then values in definition order (node results in node order, then anything left) */
    for (uint32_t i = 0; i < f->narr; i++) {
        sanitize(f->arr[i].name, an[i], "a");
        order[i] = i;
    }
    if (unique_names(an, order, f->narr) < 0)
        goto oom;
    uint32_t no = 0;
    for (uint32_t i = 0; i < f->nnode; i++)
        for (unsigned k = 0; k < f->node[i].nres && k < IR_MAX_RES; k++) {
            ir_val v = f->node[i].res[k];
            if (v < f->nval && !seen[v] && !f->val[v].is_const) {
                seen[v] = 1;
                order[no++] = v;
            }
        }
    for (uint32_t v = 0; v < f->nval; v++)
        if (!seen[v] && !f->val[v].is_const)
            order[no++] = v;
    for (uint32_t i = 0; i < no; i++) {
        char fb[24];
        snprintf(fb, sizeof fb, "t%u", order[i]);
        sanitize(f->val[order[i]].name, vn[order[i]], fb);
    }
    if (unique_names(vn, order, no) < 0)
        goto oom;

    char fname[IR_NAME_MAX];
    sanitize(f->name, fname, "f");
    sb_printf(&b, "func %s\n", fname);

    /* the prime, trimmed, with characters that would end or break the line replaced */
    char prime[sizeof f->prime];
    size_t pl = 0, p0 = 0;
    while (pl < sizeof f->prime - 1 && f->prime[pl])
        pl++;
    while (p0 < pl && (f->prime[p0] == ' ' || f->prime[p0] == '\t'))
        p0++;
    while (pl > p0 && (f->prime[pl - 1] == ' ' || f->prime[pl - 1] == '\t'))
        pl--;
    for (size_t i = p0; i < pl; i++) {
        char c = f->prime[i];
        prime[i - p0] = (c == '\t') ? ' ' : (c < 0x20 || c > 0x7e || c == '#') ? '?' : c;
    }
    prime[pl - p0] = 0;
    if (prime[0])
        sb_printf(&b, "  prime %s\n", prime);
    if (f->repr != IR_REPR_NONE || f->nlimbw) {
        sb_str(&b, f->repr == IR_REPR_RADIX ? "  repr radix" : f->repr == IR_REPR_MONTGOMERY ? "  repr montgomery"
                                                                                             : "  repr none");
        for (unsigned i = 0; i < f->nlimbw && i < sizeof f->limbw; i++)
            sb_printf(&b, "%s%u", i ? "," : " ", f->limbw[i]);
        sb_str(&b, "\n");
    }
    if (f->kind != IR_KIND_NONE && (unsigned)f->kind < IR_NKINDS)
        sb_printf(&b, "  kind %s\n", ir_kind_name(f->kind));
    if (f->pre_lt_p)
        sb_str(&b, "  require inputs < p\n");

    for (uint32_t i = 0; i < f->narr; i++) {
        const ir_array *a = &f->arr[i];
        sb_printf(&b, "  %s %s[%u]", a->is_output ? "out" : "in", an[i], a->len);
        print_bounds(&b, a);
        if (a->is_output && a->alias) {
            bool first = true;
            for (uint32_t j = 0; j < f->narr && j < 64; j++)
                if (a->alias >> j & 1) {
                    sb_str(&b, first ? " alias " : ", ");
                    sb_str(&b, an[j]);
                    first = false;
                }
        }
        sb_str(&b, "\n");
    }

    for (uint32_t i = 0; i < f->nnode; i++) {
        const ir_node *n = &f->node[i];
        ir_op op = (ir_op)n->op;
        const char *arr = n->arr < f->narr ? an[n->arr] : "?";
        sb_str(&b, "  ");
        if (op == IR_STORE) {
            sb_printf(&b, "store %s[%u], ", arr, n->limb);
            print_operand(&b, f, vn, n->nargs ? n->arg[0] : IR_NOVAL, false);
            sb_str(&b, "\n");
            continue;
        }
        for (unsigned k = 0; k < n->nres && k < IR_MAX_RES; k++) {
            ir_val v = n->res[k];
            sb_printf(&b, "%s%s:%s", k ? ", " : "", v < f->nval ? vn[v] : "?",
                      v < f->nval ? width_name(f->val[v].width) : "u?");
        }
        sb_printf(&b, " = %s", ir_op_name(op));
        if (ir_op_sized(op))
            sb_printf(&b, ".%u", n->size);
        if (op == IR_LOAD)
            sb_printf(&b, " %s[%u]", arr, n->limb);
        for (unsigned k = 0; k < n->nargs && k < IR_MAX_ARGS; k++) {
            sb_str(&b, k ? ", " : " ");
            print_operand(&b, f, vn, n->arg[k], op_shift_operand(op, k));
        }
        sb_str(&b, "\n");
    }
    sb_str(&b, "end\n");
    if (b.oom)
        goto oom;
    free(vn);
    free(an);
    free(order);
    free(seen);
    return b.s;
oom:
    free(b.s);
    free(vn);
    free(an);
    free(order);
    free(seen);
    return NULL;
}

/* ================================================================================================================
 * Parsing
 * ============================================================================================================= */

enum { T_END = 0, T_ID = 1, T_NUM = 2, T_ARROW = 3, T_DOTDOT = 4 }; /* punctuation: the character itself */

typedef struct {
    int k;
    const char *s;
    int n;
} tok;

/* A local array of the function being parsed: a `const` array or the result of a `call`. */
typedef struct {
    char name[IR_NAME_MAX];
    uint32_t len;
    ir_val v[TEXT_MAX_LEN];
    const ir_func *from; /* the callee whose output it is; NULL for a const array */
    int line;
} local_arr;

typedef struct {
    uint32_t out;
    char name[IR_NAME_MAX];
    int line;
} pending_alias;

/* Array table values: >= 0 an ir_array index, < 0 local array -(v + 1). */
typedef struct {
    ir_func *f;
    htab vals, arrs, consts;
    int *vline;            /* defining line per value */
    uint32_t capvline, vdone;
    local_arr *loc;
    uint32_t nloc, caploc;
    pending_alias *pal;
    uint32_t npal, cappal;
    int arr_line[TEXT_MAX_ARR];
    int stored[TEXT_MAX_ARR][TEXT_MAX_LEN];   /* line of the store of each output limb, 0 = not stored */
    ir_val loaded[TEXT_MAX_ARR][TEXT_MAX_LEN]; /* first load of each input limb (reused by calls) */
    int first_store[TEXT_MAX_ARR];             /* line of the first store to each output array */
    bool body, seen_prime, seen_repr, seen_kind, seen_req;
} fstate;

typedef struct {
    int line;
    char *err;
    size_t errlen;
    char *buf;
    size_t capbuf;
    tok *tok;
    int ntok, captok, ti;
    ir_func **fn;
    int *fnline;
    int nfn, capfn;
    htab fnames;
    fstate *cur;
} parser;

static int perr_at(parser *P, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int perr_at(parser *P, int line, const char *fmt, ...)
{
    if (P->err && P->errlen) {
        int o = snprintf(P->err, P->errlen, "line %d: ", line);
        if (o >= 0 && (size_t)o < P->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(P->err + o, P->errlen - (size_t)o, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

#define perr(P, ...) perr_at((P), (P)->line, __VA_ARGS__)

static int oom(parser *P) { return perr(P, "out of memory"); }

/* ---- tokens ---------------------------------------------------------------------------------------------------- */

static int push_tok(parser *P, int k, const char *s, int n)
{
    if (P->ntok == P->captok) {
        int cap = P->captok ? 2 * P->captok : 64;
        tok *nt = realloc(P->tok, (size_t)cap * sizeof *nt);
        if (!nt)
            return oom(P);
        P->tok = nt;
        P->captok = cap;
    }
    P->tok[P->ntok++] = (tok){ k, s, n };
    return 0;
}

static bool is_space(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static int tokenize(parser *P, const char *s)
{
    P->ntok = 0;
    P->ti = 0;
    while (*s) {
        unsigned char c = (unsigned char)*s;
        const char *b = s;
        if (is_space(c)) {
            s++;
        } else if (is_id_start(c)) {
            while (is_id_char((unsigned char)*s))
                s++;
            if (push_tok(P, T_ID, b, (int)(s - b)) < 0)
                return -1;
        } else if (c >= '0' && c <= '9') {
            while (is_id_char((unsigned char)*s))
                s++;
            if (push_tok(P, T_NUM, b, (int)(s - b)) < 0)
                return -1;
        } else if (c == '-' && s[1] == '>') {
            s += 2;
            if (push_tok(P, T_ARROW, b, 2) < 0)
                return -1;
        } else if (c == '.' && s[1] == '.') {
            s += 2;
            if (push_tok(P, T_DOTDOT, b, 2) < 0)
                return -1;
        } else if (strchr(":,=[]()<.", c)) {
            s++;
            if (push_tok(P, c, b, 1) < 0)
                return -1;
        } else if (c >= 0x21 && c <= 0x7e) {
            return perr(P, "unexpected character `%c`", c);
        } else {
            return perr(P, "unexpected byte 0x%02x", c);
        }
    }
    return push_tok(P, T_END, s, 0);
}

static tok *peek(parser *P) { return &P->tok[P->ti]; }
static tok *peek2(parser *P) { return &P->tok[P->ti + (P->tok[P->ti].k != T_END)]; }
static tok *take(parser *P)
{
    tok *t = &P->tok[P->ti];
    if (t->k != T_END)
        P->ti++;
    return t;
}

static bool tok_is(const tok *t, const char *w)
{
    return t->k == T_ID && (size_t)t->n == strlen(w) && !memcmp(t->s, w, (size_t)t->n);
}

/* describe — a token for messages: `x` (cut short when long) or "the end of the line". */
static const char *describe(const tok *t, char *buf, size_t len)
{
    if (t->k == T_END)
        snprintf(buf, len, "the end of the line");
    else
        snprintf(buf, len, "`%.*s%s`", t->n > 40 ? 40 : t->n, t->s, t->n > 40 ? "..." : "");
    return buf;
}

static int expect(parser *P, int k, const char *what)
{
    tok *t = take(P);
    char d[64];
    if (t->k != k)
        return perr(P, "expected %s, found %s", what, describe(t, d, sizeof d));
    return 0;
}

static int expect_end(parser *P)
{
    return expect(P, T_END, "the end of the line");
}

/* ident — the next token as a name (an identifier of at most IR_NAME_MAX-1 characters) into out. */
static int ident(parser *P, char out[IR_NAME_MAX], const char *what)
{
    tok *t = take(P);
    char d[64];
    if (t->k != T_ID)
        return perr(P, "expected %s, found %s", what, describe(t, d, sizeof d));
    if (t->n >= IR_NAME_MAX)
        return perr(P, "name `%.*s...` is longer than %d characters", 20, t->s, IR_NAME_MAX - 1);
    memcpy(out, t->s, (size_t)t->n);
    out[t->n] = 0;
    return 0;
}

static int number(parser *P, ir_u128 *v, const char *what)
{
    tok *t = take(P);
    char d[64], buf[48];
    *v = 0;
    if (t->k != T_NUM)
        return perr(P, "expected %s, found %s", what, describe(t, d, sizeof d));
    if (t->n >= (int)sizeof buf)
        return perr(P, "number %s does not fit 128 bits", describe(t, d, sizeof d));
    memcpy(buf, t->s, (size_t)t->n);
    buf[t->n] = 0;
    if (ir_u128_parse(buf, v) < 0) {
        /* well formed (decimal digits, or 0x and hex digits) but too large, or malformed */
        bool hex = t->n > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'), ok = true;
        for (int i = hex ? 2 : 0; i < t->n; i++)
            ok = ok && (hex ? strchr("0123456789abcdefABCDEF", buf[i]) != NULL : (buf[i] >= '0' && buf[i] <= '9'));
        if (ok)
            return perr(P, "number %s does not fit 128 bits", describe(t, d, sizeof d));
        return perr(P, "bad number %s (decimal or 0x hex)", describe(t, d, sizeof d));
    }
    return 0;
}

/* small — a number below max (limb index, length, size). */
static int small(parser *P, uint32_t *out, uint32_t max, const char *what)
{
    ir_u128 v = 0;
    *out = 0;
    if (number(P, &v, what) < 0)
        return -1;
    if (v > max)
        return perr(P, "%s is too large (at most %u)", what, max);
    *out = (uint32_t)v;
    return 0;
}

static int type_name(parser *P, unsigned *w)
{
    tok *t = take(P);
    char d[64];
    if (tok_is(t, "u1"))
        *w = 1;
    else if (tok_is(t, "u64"))
        *w = 64;
    else if (tok_is(t, "u128"))
        *w = 128;
    else
        return perr(P, "expected a type (u1, u64 or u128), found %s", describe(t, d, sizeof d));
    return 0;
}

/* ---- function state ------------------------------------------------------------------------------------------------- */

static void fstate_free(fstate *S)
{
    if (!S)
        return;
    ht_free(&S->vals);
    ht_free(&S->arrs);
    ht_free(&S->consts);
    free(S->vline);
    free(S->loc);
    free(S->pal);
    ir_func_free(S->f);
    free(S);
}

/* track — record the line of every value created since the last call. */
static int track(parser *P)
{
    fstate *S = P->cur;
    ir_func *f = S->f;
    if (f->nval > S->capvline) {
        uint32_t cap = S->capvline ? S->capvline : 256;
        while (cap < f->nval)
            cap *= 2;
        int *nl = realloc(S->vline, cap * sizeof *nl);
        if (!nl)
            return oom(P);
        S->vline = nl;
        S->capvline = cap;
    }
    for (; S->vdone < f->nval; S->vdone++)
        S->vline[S->vdone] = P->line;
    return 0;
}

/* const_val — the constant k of the given width, deduplicated through a hash table. */
static int const_val(parser *P, unsigned width, ir_u128 k, ir_val *out)
{
    fstate *S = P->cur;
    char key[48], hex[40];
    int n = snprintf(key, sizeof key, "%u:%s", width, ir_u128_hex(k, hex));
    int32_t v;
    if (ht_get(&S->consts, key, (size_t)n, &v)) {
        *out = (ir_val)v;
        return 0;
    }
    ir_val c = ir_const(S->f, width, k);
    if (c == IR_NOVAL)
        return perr(P, "%s", S->f->err);
    if (ht_put(&S->consts, key, (size_t)n, (int32_t)c) < 0 || track(P) < 0)
        return oom(P);
    *out = c;
    return 0;
}

/* bounds_fail — a node just appended can overflow or a stored limb exceeds its bound: ir_bounds names it. */
static int bounds_fail(parser *P)
{
    ir_func *f = P->cur->f;
    if (ir_bounds(f) == 0)
        return perr(P, "%s: bounds check failed", f->name);
    return perr(P, "%s: %s", f->name, f->err);
}

/* check_last — after appending a node: its first result must not overflow, a store must respect the bound. */
static int check_last(parser *P)
{
    ir_func *f = P->cur->f;
    const ir_node *n = &f->node[f->nnode - 1];
    if (n->nres && f->val[n->res[0]].overflow)
        return bounds_fail(P);
    if (n->op == IR_STORE) {
        const ir_value *v = &f->val[n->arg[0]];
        const ir_array *a = &f->arr[n->arr];
        if (v->hi > a->hi[n->limb] || v->lo < a->lo[n->limb])
            return bounds_fail(P);
    }
    return track(P);
}

static int define_name(parser *P, const char *name, ir_val v)
{
    if (ht_put(&P->cur->vals, name, strlen(name), (int32_t)v) < 0)
        return oom(P);
    return 0;
}

/* fresh — the line must not define `name` again. */
static int fresh(parser *P, const char *name)
{
    int32_t v;
    if (ht_get(&P->cur->vals, name, strlen(name), &v))
        return perr(P, "%s is already defined (line %d)", name, P->cur->vline[v]);
    return 0;
}

/* unique — base if no value has that name (and it is not `avoid`), else base_2, base_3, ... (cut to fit). */
static void unique(fstate *S, const char *base, const char *avoid, char out[IR_NAME_MAX])
{
    char suf[16];
    snprintf(out, IR_NAME_MAX, "%s", base);
    for (unsigned k = 2; ht_has(&S->vals, out) || (avoid && !strcmp(out, avoid)); k++) {
        snprintf(suf, sizeof suf, "_%u", k);
        with_suffix(base, suf, out);
    }
}

/* array lookup: 1 with *idx (see fstate) when name is an array, else 0. */
static int find_array(fstate *S, const char *name, int32_t *idx)
{
    return ht_get(&S->arrs, name, strlen(name), idx);
}

static int array_line(fstate *S, int32_t idx)
{
    return idx >= 0 ? S->arr_line[idx] : S->loc[-idx - 1].line;
}

/* ---- operands ------------------------------------------------------------------------------------------------------- */

/* limb_ref — `NAME[LIMB]` where NAME is a local array: its limb value. */
static int limb_ref(parser *P, const char *name, ir_val *out)
{
    fstate *S = P->cur;
    int32_t idx;
    uint32_t limb;
    if (!find_array(S, name, &idx))
        return perr(P, "unknown array `%s`", name);
    if (idx >= 0 && S->f->arr[idx].is_output)
        return perr(P, "%s is an output array of %s and cannot be read", name, S->f->name);
    if (idx >= 0)
        return perr(P, "%s is an input array: read its limbs with `load`", name);
    const local_arr *L = &S->loc[-idx - 1];
    if (expect(P, '[', "`[`") < 0 || small(P, &limb, 0xffffffffu, "a limb index") < 0 || expect(P, ']', "`]`") < 0)
        return -1;
    if (limb >= L->len)
        return perr(P, "%s[%u]: %s has %u limbs", name, limb, name, L->len);
    *out = L->v[limb];
    return 0;
}

static int operand(parser *P, ir_val *out)
{
    fstate *S = P->cur;
    tok *t = peek(P);
    char d[64], name[IR_NAME_MAX], hex[40];
    if (t->k == T_NUM) {
        ir_u128 k;
        unsigned w;
        if (number(P, &k, "a number") < 0)
            return -1;
        if (peek(P)->k == ':') {
            take(P);
            if (type_name(P, &w) < 0)
                return -1;
            if (k > ir_width_max(w))
                return perr(P, "literal %s does not fit u%u", ir_u128_hex(k, hex), w);
        } else {
            w = k > ir_width_max(64) ? 128 : 64;
        }
        return const_val(P, w, k, out);
    }
    if (t->k != T_ID)
        return perr(P, "expected an operand (a value name or a number), found %s", describe(t, d, sizeof d));
    if (ident(P, name, "a value name") < 0)
        return -1;
    if (peek(P)->k == '[')
        return limb_ref(P, name, out);
    int32_t v;
    if (!ht_get(&S->vals, name, strlen(name), &v))
        return perr(P, "undefined value `%s`", name);
    *out = (ir_val)v;
    return 0;
}

/* array_limb — `NAME[LIMB]` naming a limb of an ir array (load, store). */
static int array_limb(parser *P, bool output, uint32_t *arr, uint32_t *limb)
{
    fstate *S = P->cur;
    char name[IR_NAME_MAX];
    int32_t idx;
    if (ident(P, name, "an array name") < 0)
        return -1;
    if (!find_array(S, name, &idx))
        return perr(P, "unknown array `%s`", name);
    if (idx < 0)
        return perr(P, output ? "%s is a local array (line %d); only output arrays are stored"
                              : "%s is a local array (line %d): use %s[i] as an operand, not a load",
                    name, array_line(S, idx), name);
    if (S->f->arr[idx].is_output != output)
        return perr(P, output ? "%s is an input array; only outputs are stored"
                              : "%s is an output array of %s and cannot be read",
                    name, S->f->name);
    if (expect(P, '[', "`[`") < 0 || small(P, limb, 0xffffffffu, "a limb index") < 0 || expect(P, ']', "`]`") < 0)
        return -1;
    if (*limb >= S->f->arr[idx].len)
        return perr(P, "%s[%u]: %s has %u limbs", name, *limb, name, S->f->arr[idx].len);
    *arr = (uint32_t)idx;
    return 0;
}

/* ---- header lines ----------------------------------------------------------------------------------------------------- */

static int resolve_aliases(parser *P)
{
    fstate *S = P->cur;
    for (uint32_t i = 0; i < S->npal; i++) {
        const pending_alias *a = &S->pal[i];
        int32_t j;
        if (!find_array(S, a->name, &j))
            return perr_at(P, a->line, "%s: alias names unknown array `%s`", S->f->arr[a->out].name, a->name);
        if (S->f->arr[j].is_output)
            return perr_at(P, a->line, "%s: alias names %s, an output; outputs may alias inputs only",
                           S->f->arr[a->out].name, a->name);
        S->f->arr[a->out].alias |= (uint64_t)1 << j;
    }
    S->npal = 0;
    return 0;
}

static int parse_bound(parser *P, ir_u128 *lo, ir_u128 *hi)
{
    char b1[40], b2[40];
    if (number(P, lo, "a bound lo..hi") < 0 || expect(P, T_DOTDOT, "`..` in a bound lo..hi") < 0 ||
        number(P, hi, "the upper end of a bound lo..hi") < 0)
        return -1;
    if (*hi > ir_width_max(64))
        return perr(P, "bad bound %s..%s: above 2^64-1", ir_u128_hex(*lo, b1), ir_u128_hex(*hi, b2));
    if (*lo > *hi)
        return perr(P, "bad bound %s..%s: lo > hi", ir_u128_hex(*lo, b1), ir_u128_hex(*hi, b2));
    return 0;
}

/* `in NAME[LEN] [bounds]` / `out NAME[LEN] [bounds] [alias NAME, ...]` */
static int st_array(parser *P, bool output)
{
    fstate *S = P->cur;
    char name[IR_NAME_MAX];
    uint32_t len;
    ir_u128 lo[TEXT_MAX_LEN], hi[TEXT_MAX_LEN];
    int32_t idx;
    if (ident(P, name, "an array name") < 0)
        return -1;
    if (find_array(S, name, &idx))
        return perr(P, "array %s is already declared (line %d)", name, array_line(S, idx));
    if (S->f->narr >= TEXT_MAX_ARR)
        return perr(P, "array %s: more than %d arrays", name, TEXT_MAX_ARR);
    if (expect(P, '[', "`[` and the limb count") < 0 || small(P, &len, 0xffffffffu, "a limb count") < 0 ||
        expect(P, ']', "`]`") < 0)
        return -1;
    if (len < 1 || len > TEXT_MAX_LEN)
        return perr(P, "array %s: %u limbs (1 to %d allowed)", name, len, TEXT_MAX_LEN);
    uint32_t nb = 0;
    if (peek(P)->k == T_NUM) {
        for (;;) {
            if (nb == len)
                return perr(P, "array %s has %u limbs but more bounds are given", name, len);
            if (parse_bound(P, &lo[nb], &hi[nb]) < 0)
                return -1;
            nb++;
            if (peek(P)->k != ',')
                break;
            take(P);
        }
        if (nb != 1 && nb != len)
            return perr(P, "array %s has %u limbs but %u bounds are given (one for every limb, or one each)",
                        name, len, nb);
        for (uint32_t i = nb; i < len; i++)
            lo[i] = lo[0], hi[i] = hi[0];
    }
    int a = ir_array_add(S->f, name, output, len, nb ? lo : NULL, nb ? hi : NULL);
    if (a < 0)
        return perr(P, "%s", S->f->err);
    S->arr_line[a] = P->line;
    if (ht_put(&S->arrs, name, strlen(name), a) < 0)
        return oom(P);
    if (tok_is(peek(P), "alias")) {
        take(P);
        if (!output)
            return perr(P, "array %s: only outputs declare aliases", name);
        for (;;) {
            if (S->npal == S->cappal) {
                uint32_t cap = S->cappal ? 2 * S->cappal : 16;
                pending_alias *np = realloc(S->pal, cap * sizeof *np);
                if (!np)
                    return oom(P);
                S->pal = np;
                S->cappal = cap;
            }
            pending_alias *pa = &S->pal[S->npal];
            if (ident(P, pa->name, "an input array name after alias") < 0)
                return -1;
            pa->out = (uint32_t)a;
            pa->line = P->line;
            S->npal++;
            if (peek(P)->k != ',')
                break;
            take(P);
        }
    }
    return expect_end(P);
}

/* `repr radix|montgomery|none [w, w, ...]` */
static int st_repr(parser *P)
{
    ir_func *f = P->cur->f;
    tok *t = take(P);
    char d[64];
    if (P->cur->seen_repr)
        return perr(P, "repr is given twice");
    P->cur->seen_repr = true;
    if (tok_is(t, "radix"))
        f->repr = IR_REPR_RADIX;
    else if (tok_is(t, "montgomery"))
        f->repr = IR_REPR_MONTGOMERY;
    else if (tok_is(t, "none"))
        f->repr = IR_REPR_NONE;
    else
        return perr(P, "expected radix, montgomery or none after repr, found %s", describe(t, d, sizeof d));
    while (peek(P)->k == T_NUM) {
        uint32_t w;
        if (f->nlimbw == sizeof f->limbw)
            return perr(P, "repr: more than %u limb widths", (unsigned)sizeof f->limbw);
        if (small(P, &w, 0xffffffffu, "a limb width") < 0)
            return -1;
        if (w < 1 || w > 64)
            return perr(P, "repr: limb width %u (1 to 64 allowed)", w);
        f->limbw[f->nlimbw++] = (uint8_t)w;
        if (peek(P)->k != ',')
            break;
        take(P);
        if (peek(P)->k != T_NUM)
            return perr(P, "repr: expected a limb width after `,`, found %s", describe(peek(P), d, sizeof d));
    }
    return expect_end(P);
}

/* raw_rest — the text after the keyword at the start of line s, trimmed. */
static const char *raw_rest(const char *s, const char *kw, size_t *len)
{
    while (is_space((unsigned char)*s))
        s++;
    s += strlen(kw);
    while (is_space((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && is_space((unsigned char)s[n - 1]))
        n--;
    *len = n;
    return s;
}

static int st_prime(parser *P, const char *line)
{
    ir_func *f = P->cur->f;
    size_t n;
    const char *s = raw_rest(line, "prime", &n);
    if (P->cur->seen_prime)
        return perr(P, "prime is given twice");
    P->cur->seen_prime = true;
    if (n == 0)
        return perr(P, "prime: expected an expression such as 2^255-19");
    if (n >= sizeof f->prime)
        return perr(P, "prime: the expression is longer than %u characters", (unsigned)sizeof f->prime - 1);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
            return perr(P, "prime: unexpected byte 0x%02x", (unsigned char)s[i]);
    memcpy(f->prime, s, n);
    f->prime[n] = 0;
    for (size_t i = 0; i < n; i++)
        if (f->prime[i] == '\t')
            f->prime[i] = ' ';
    return 0;
}

static int st_kind(parser *P, const char *line)
{
    size_t n;
    const char *s = raw_rest(line, "kind", &n);
    if (P->cur->seen_kind)
        return perr(P, "kind is given twice");
    P->cur->seen_kind = true;
    for (unsigned k = 0; k < IR_NKINDS; k++) {
        const char *kn = ir_kind_name((ir_kind)k);
        if (strlen(kn) == n && !memcmp(kn, s, n)) {
            P->cur->f->kind = (ir_kind)k;
            return 0;
        }
    }
    return perr(P, "unknown kind `%.*s` (mul, square, carry, add, sub, opp, to-montgomery, from-montgomery, none)",
                n > 40 ? 40 : (int)n, s);
}

static int st_require(parser *P)
{
    if (P->cur->seen_req)
        return perr(P, "require is given twice");
    P->cur->seen_req = true;
    if (!tok_is(take(P), "inputs") || take(P)->k != '<' || !tok_is(take(P), "p") || peek(P)->k != T_END)
        return perr(P, "expected `require inputs < p`");
    P->cur->f->pre_lt_p = true;
    return 0;
}

/* ---- statements ------------------------------------------------------------------------------------------------------ */

static int find_op(const tok *t, ir_op *op)
{
    for (int o = 0; o < IR_NOPS; o++)
        if (tok_is(t, ir_op_name((ir_op)o))) {
            *op = (ir_op)o;
            return 0;
        }
    return -1;
}

/* `NAME:TYPE [, NAME:TYPE] = OP[.SIZE] operands` and `NAME:u64 = load ARR[LIMB]` */
static int st_define(parser *P)
{
    fstate *S = P->cur;
    ir_func *f = S->f;
    char rn[IR_MAX_RES][IR_NAME_MAX], d[64];
    unsigned rw[IR_MAX_RES];
    int nr = 0;
    for (;;) {
        if (nr == IR_MAX_RES)
            return perr(P, "at most %d results", IR_MAX_RES);
        if (ident(P, rn[nr], "a result name") < 0 || fresh(P, rn[nr]) < 0)
            return -1;
        if (nr == 1 && !strcmp(rn[0], rn[1]))
            return perr(P, "%s is named twice", rn[1]);
        if (expect(P, ':', "`:` and the result's type") < 0 || type_name(P, &rw[nr]) < 0)
            return -1;
        nr++;
        if (peek(P)->k != ',')
            break;
        take(P);
    }
    if (expect(P, '=', "`=`") < 0)
        return -1;
    tok *ot = take(P);
    ir_op op;
    if (ot->k != T_ID)
        return perr(P, "expected an operation, found %s", describe(ot, d, sizeof d));
    if (find_op(ot, &op) < 0)
        return perr(P, "unknown operation %s", describe(ot, d, sizeof d));
    const char *on = ir_op_name(op);
    if (op == IR_STORE)
        return perr(P, "store has no result: write `store ARRAY[LIMB], VALUE`");
    if (nr != ir_op_nres(op))
        return perr(P, "%s has %d result%s, got %d", on, ir_op_nres(op), ir_op_nres(op) > 1 ? "s" : "", nr);
    uint32_t size = 0;
    if (peek(P)->k == '.') {
        take(P);
        if (!ir_op_sized(op))
            return perr(P, "%s takes no size suffix", on);
        if (small(P, &size, 0xffffffffu, "a size") < 0)
            return -1;
        if (size < 1 || size > 64)
            return perr(P, "%s.%u: size 1 to 64 allowed", on, size);
    } else if (ir_op_sized(op)) {
        return perr(P, "%s needs a size suffix, e.g. %s.64", on, on);
    }
    if (nr == 2) {
        unsigned w1 = op == IR_MULX ? 64 : 1;
        if (rw[1] != w1)
            return perr(P, "%s: the second result %s is u%u, not u%u", on, rn[1], w1, rw[1]);
    }
    ir_val res[IR_MAX_RES];
    if (op == IR_LOAD) {
        uint32_t arr, limb;
        if (array_limb(P, false, &arr, &limb) < 0 || expect_end(P) < 0)
            return -1;
        if (rw[0] != 64)
            return perr(P, "load: the result %s is u64, not u%u", rn[0], rw[0]);
        res[0] = ir_load(f, arr, limb, rn[0]);
        if (res[0] == IR_NOVAL)
            return perr(P, "%s", f->err);
        if (S->loaded[arr][limb] == IR_NOVAL)
            S->loaded[arr][limb] = res[0];
    } else {
        ir_val args[IR_MAX_ARGS];
        unsigned na = 0;
        if (peek(P)->k != T_END)
            for (;;) {
                ir_val a;
                if (operand(P, &a) < 0)
                    return -1;
                if (na < IR_MAX_ARGS)
                    args[na] = a;
                na++;
                if (peek(P)->k == T_END)
                    break;
                if (expect(P, ',', "`,` or the end of the line") < 0)
                    return -1;
            }
        if ((int)na != ir_op_nargs(op))
            return perr(P, "%s takes %d operand%s, got %u", on, ir_op_nargs(op), ir_op_nargs(op) > 1 ? "s" : "", na);
        const char *names[IR_MAX_RES] = { rn[0], nr > 1 ? rn[1] : NULL };
        if (ir_emit(f, op, rw[0], size, args, na, res, names) < 0)
            return perr(P, "%s", f->err);
    }
    for (int i = 0; i < nr; i++)
        if (define_name(P, rn[i], res[i]) < 0)
            return -1;
    return check_last(P);
}

/* `store ARR[LIMB], operand` */
static int st_store(parser *P)
{
    fstate *S = P->cur;
    uint32_t arr, limb;
    ir_val v;
    if (array_limb(P, true, &arr, &limb) < 0 || expect(P, ',', "`,` and the stored value") < 0 ||
        operand(P, &v) < 0 || expect_end(P) < 0)
        return -1;
    if (S->stored[arr][limb])
        return perr(P, "%s[%u] is already stored (line %d)", S->f->arr[arr].name, limb, S->stored[arr][limb]);
    if (ir_store(S->f, arr, limb, v) < 0)
        return perr(P, "%s", S->f->err);
    S->stored[arr][limb] = P->line;
    if (!S->first_store[arr])
        S->first_store[arr] = P->line;
    return check_last(P);
}

static local_arr *new_local(parser *P, const char *name, uint32_t len, const ir_func *from)
{
    fstate *S = P->cur;
    if (S->nloc == S->caploc) {
        uint32_t cap = S->caploc ? 2 * S->caploc : 16;
        local_arr *nl = realloc(S->loc, cap * sizeof *nl);
        if (!nl) {
            oom(P);
            return NULL;
        }
        S->loc = nl;
        S->caploc = cap;
    }
    local_arr *L = &S->loc[S->nloc];
    memset(L, 0, sizeof *L);
    snprintf(L->name, sizeof L->name, "%s", name);
    L->len = len;
    L->from = from;
    L->line = P->line;
    if (ht_put(&S->arrs, name, strlen(name), -(int32_t)S->nloc - 1) < 0) {
        oom(P);
        return NULL;
    }
    S->nloc++;
    return L;
}

/* `const NAME[LEN] = k, k, ...` */
static int st_const(parser *P)
{
    fstate *S = P->cur;
    char name[IR_NAME_MAX], hex[40];
    uint32_t len;
    int32_t idx;
    ir_val v[TEXT_MAX_LEN];
    if (ident(P, name, "an array name") < 0)
        return -1;
    if (find_array(S, name, &idx))
        return perr(P, "array %s is already declared (line %d)", name, array_line(S, idx));
    if (expect(P, '[', "`[` and the limb count") < 0 || small(P, &len, 0xffffffffu, "a limb count") < 0 ||
        expect(P, ']', "`]`") < 0 || expect(P, '=', "`=` and the limbs") < 0)
        return -1;
    if (len < 1 || len > TEXT_MAX_LEN)
        return perr(P, "const %s: %u limbs (1 to %d allowed)", name, len, TEXT_MAX_LEN);
    uint32_t n = 0;
    for (;;) {
        ir_u128 k;
        if (number(P, &k, "a limb value") < 0)
            return -1;
        if (peek(P)->k == ':') {
            unsigned w;
            take(P);
            if (type_name(P, &w) < 0)
                return -1;
            if (w != 64)
                return perr(P, "const %s: limbs are u64, not u%u", name, w);
        }
        if (k > ir_width_max(64))
            return perr(P, "const %s: limb %u = %s does not fit u64", name, n, ir_u128_hex(k, hex));
        if (n == len)
            return perr(P, "const %s has %u limbs but more values are given", name, len);
        if (const_val(P, 64, k, &v[n]) < 0)
            return -1;
        n++;
        if (peek(P)->k != ',')
            break;
        take(P);
    }
    if (expect_end(P) < 0)
        return -1;
    if (n != len)
        return perr(P, "const %s has %u limbs but %u values are given", name, len, n);
    local_arr *L = new_local(P, name, len, NULL);
    if (!L)
        return -1;
    memcpy(L->v, v, len * sizeof *v);
    return 0;
}

/* same_prime — both functions state the same prime expression (compared without blanks). */
static bool same_prime(const ir_func *a, const ir_func *b)
{
    const char *x = a->prime, *y = b->prime;
    if (!*x || !*y)
        return false;
    for (;;) {
        while (*x == ' ')
            x++;
        while (*y == ' ')
            y++;
        if (*x != *y)
            return false;
        if (!*x)
            return true;
        x++, y++;
    }
}

/* The kinds whose outputs are < p by contract when the representation is Montgomery. */
static bool lt_p_kind(ir_kind k)
{
    return k == IR_KIND_MUL || k == IR_KIND_SQUARE || k == IR_KIND_ADD || k == IR_KIND_SUB || k == IR_KIND_OPP ||
           k == IR_KIND_TO_MONT || k == IR_KIND_FROM_MONT;
}

typedef struct {
    int32_t idx;      /* array table value */
    bool new_local;   /* target: a new local array */
    char name[IR_NAME_MAX];
    local_arr *loc;   /* target local, once created */
} call_arr;

/* call_check_arg — argument k of a call to g: an input or local array of matching length, within g's input bounds,
 * and < p when g requires it (see TEXT.md, "call"). */
static int call_check_arg(parser *P, const ir_func *g, uint32_t gi, unsigned k, const call_arr *a)
{
    fstate *S = P->cur;
    ir_func *f = S->f;
    const ir_array *ga = &g->arr[gi];
    char b1[40], b2[40], vn[IR_NAME_MAX + 24];
    uint32_t len = a->idx >= 0 ? f->arr[a->idx].len : S->loc[-a->idx - 1].len;
    if (a->idx >= 0 && f->arr[a->idx].is_output)
        return perr(P, "call %s: argument %u (%s) is an output of %s; outputs cannot be read", g->name, k + 1,
                    a->name, f->name);
    if (len != ga->len)
        return perr(P, "call %s: argument %u (%s) has %u limbs, %s's input %s has %u", g->name, k + 1, a->name, len,
                    g->name, ga->name, ga->len);
    for (uint32_t l = 0; l < len; l++) {
        ir_u128 lo, hi;
        if (a->idx >= 0) {
            lo = f->arr[a->idx].lo[l], hi = f->arr[a->idx].hi[l];
            snprintf(vn, sizeof vn, "%s[%u]", a->name, l);
        } else {
            const ir_value *v = &f->val[S->loc[-a->idx - 1].v[l]];
            lo = v->lo, hi = v->hi;
            if (v->is_const)
                snprintf(vn, sizeof vn, "%s[%u]", a->name, l);
            else
                snprintf(vn, sizeof vn, "%s", v->name);
        }
        if (hi > ga->hi[l])
            return perr(P, "call %s: argument %u limb %u (%s) can reach %s, above %s's input bound %s", g->name,
                        k + 1, l, vn, ir_u128_hex(hi, b1), g->name, ir_u128_hex(ga->hi[l], b2));
        if (lo < ga->lo[l])
            return perr(P, "call %s: argument %u limb %u (%s) can be as low as %s, below %s's input bound %s",
                        g->name, k + 1, l, vn, ir_u128_hex(lo, b1), g->name, ir_u128_hex(ga->lo[l], b2));
    }
    if (!g->pre_lt_p)
        return 0;
    if (a->idx >= 0) {
        if (!f->pre_lt_p || !same_prime(f, g))
            return perr(P, "call %s: argument %u (%s) must be < %s (%s requires inputs < p): the caller %s does not "
                        "state `require inputs < p` with the same prime",
                        g->name, k + 1, a->name, g->prime[0] ? g->prime : "p", g->name, f->name);
        return 0;
    }
    const local_arr *L = &S->loc[-a->idx - 1];
    if (!L->from)
        return perr(P, "call %s: argument %u (%s) must be < p (%s requires inputs < p), which a const array is not "
                    "known to be",
                    g->name, k + 1, a->name, g->name);
    if (L->from->repr != IR_REPR_MONTGOMERY || !lt_p_kind(L->from->kind) || !same_prime(L->from, g))
        return perr(P, "call %s: argument %u (%s) must be < p (%s requires inputs < p), but it comes from %s, which "
                    "is not a Montgomery mul, square, add, sub, opp, to- or from-montgomery of the same prime",
                    g->name, k + 1, a->name, g->name, L->from->name);
    return 0;
}

/* inline_call — append g's nodes to the caller: loads read the argument arrays' limbs (a caller input's limb is
 * loaded once and reused), stores define the targets' limbs (stores into a caller output), every other node is
 * copied with its results renamed <first target>_<name> (made unique). */
static int inline_call(parser *P, const ir_func *g, const uint32_t *gslot, const call_arr *args, call_arr *tgts)
{
    fstate *S = P->cur;
    ir_func *f = S->f;
    ir_val *map = malloc((g->nval ? g->nval : 1) * sizeof *map);
    if (!map)
        return oom(P);
    for (uint32_t v = 0; v < g->nval; v++)
        map[v] = IR_NOVAL;
    int rc = 0;
    const char *prefix = tgts[0].name;
    for (uint32_t i = 0; i < g->nnode && !rc; i++) {
        const ir_node *n = &g->node[i];
        ir_val a[IR_MAX_ARGS], res[IR_MAX_RES];
        for (unsigned k = 0; k < n->nargs && !rc; k++) {
            const ir_value *gv = &g->val[n->arg[k]];
            if (gv->is_const)
                rc = const_val(P, gv->width, gv->k, &a[k]);
            else if ((a[k] = map[n->arg[k]]) == IR_NOVAL)
                rc = perr(P, "call %s: %s is used before it is defined", g->name, gv->name);
        }
        if (rc)
            break;
        if (n->op == IR_LOAD) {
            const call_arr *src = &args[gslot[n->arr]];
            if (src->idx < 0) {
                map[n->res[0]] = S->loc[-src->idx - 1].v[n->limb];
                continue;
            }
            ir_val *ld = &S->loaded[src->idx][n->limb];
            if (*ld == IR_NOVAL) {
                for (uint32_t o = 0; o < f->narr; o++)
                    if (f->arr[o].is_output && (f->arr[o].alias >> src->idx & 1) && S->first_store[o]) {
                        rc = perr(P, "call %s: reads %s[%u] after a store to %s (line %d), which may alias %s",
                                  g->name, src->name, n->limb, f->arr[o].name, S->first_store[o], src->name);
                        break;
                    }
                if (rc)
                    break;
                char base[IR_NAME_MAX + 16], nm[IR_NAME_MAX];
                snprintf(base, sizeof base, "%s_%u", src->name, n->limb);
                base[IR_NAME_MAX - 1] = 0;
                unique(S, base, NULL, nm);
                *ld = ir_load(f, (uint32_t)src->idx, n->limb, nm);
                if (*ld == IR_NOVAL) {
                    rc = perr(P, "call %s: %s", g->name, f->err);
                    break;
                }
                if ((rc = define_name(P, nm, *ld)) == 0)
                    rc = check_last(P);
            }
            map[n->res[0]] = *ld;
            continue;
        }
        if (n->op == IR_STORE) {
            call_arr *t = &tgts[gslot[n->arr]];
            if (t->loc) {
                t->loc->v[n->limb] = a[0];
                continue;
            }
            uint32_t o = (uint32_t)t->idx;
            if (S->stored[o][n->limb]) {
                rc = perr(P, "call %s: %s[%u] is already stored (line %d)", g->name, t->name, n->limb,
                          S->stored[o][n->limb]);
                break;
            }
            if (ir_store(f, o, n->limb, a[0]) < 0) {
                rc = perr(P, "call %s: %s", g->name, f->err);
                break;
            }
            S->stored[o][n->limb] = P->line;
            if (!S->first_store[o])
                S->first_store[o] = P->line;
            rc = check_last(P);
            continue;
        }
        char nm[IR_MAX_RES][IR_NAME_MAX];
        const char *names[IR_MAX_RES] = { NULL, NULL };
        for (unsigned k = 0; k < n->nres; k++) {
            char base[2 * IR_NAME_MAX];
            snprintf(base, sizeof base, "%s_%s", prefix, g->val[n->res[k]].name);
            base[IR_NAME_MAX - 1] = 0;
            unique(S, base, k ? nm[0] : NULL, nm[k]);
            names[k] = nm[k];
        }
        if (ir_emit(f, (ir_op)n->op, g->val[n->res[0]].width, n->size, a, n->nargs, res, names) < 0) {
            rc = perr(P, "call %s: %s", g->name, f->err);
            break;
        }
        for (unsigned k = 0; k < n->nres && !rc; k++) {
            map[n->res[k]] = res[k];
            rc = define_name(P, nm[k], res[k]);
        }
        if (!rc)
            rc = check_last(P);
    }
    free(map);
    return rc;
}

/* `call NAME(ARR, ...) -> (ARR, ...)` */
static int st_call(parser *P)
{
    fstate *S = P->cur;
    char gname[IR_NAME_MAX];
    int32_t gi;
    call_arr args[TEXT_MAX_ARR], tgts[TEXT_MAX_ARR];
    unsigned na = 0, nt = 0;
    if (ident(P, gname, "the called function's name") < 0)
        return -1;
    if (!ht_get(&P->fnames, gname, strlen(gname), &gi))
        return perr(P, "call: unknown function `%s` (a callee is defined earlier in the text)", gname);
    const ir_func *g = P->fn[gi];
    if (expect(P, '(', "`(` and the argument arrays") < 0)
        return -1;
    if (peek(P)->k != ')')
        for (;;) {
            if (na == TEXT_MAX_ARR)
                return perr(P, "call %s: more than %d arguments", g->name, TEXT_MAX_ARR);
            call_arr *a = &args[na];
            memset(a, 0, sizeof *a);
            if (ident(P, a->name, "an argument array") < 0)
                return -1;
            if (!find_array(S, a->name, &a->idx))
                return perr(P, "call %s: argument %u: unknown array `%s`", g->name, na + 1, a->name);
            na++;
            if (peek(P)->k != ',')
                break;
            take(P);
        }
    if (expect(P, ')', "`)` after the arguments") < 0 || expect(P, T_ARROW, "`->` and the result arrays") < 0 ||
        expect(P, '(', "`(` and the result arrays") < 0)
        return -1;
    for (;;) {
        if (nt == TEXT_MAX_ARR)
            return perr(P, "call %s: more than %d results", g->name, TEXT_MAX_ARR);
        call_arr *t = &tgts[nt];
        memset(t, 0, sizeof *t);
        if (ident(P, t->name, "a result array") < 0)
            return -1;
        for (unsigned j = 0; j < nt; j++)
            if (!strcmp(tgts[j].name, t->name))
                return perr(P, "call %s: %s is named twice as a result", g->name, t->name);
        nt++;
        if (peek(P)->k != ',')
            break;
        take(P);
    }
    if (expect(P, ')', "`)` after the result arrays") < 0 || expect_end(P) < 0)
        return -1;

    /* g's arrays in order: inputs take the arguments, outputs the results */
    uint32_t gslot[TEXT_MAX_ARR], gin = 0, gout = 0;
    for (uint32_t i = 0; i < g->narr && i < TEXT_MAX_ARR; i++)
        gslot[i] = g->arr[i].is_output ? gout++ : gin++;
    if (na != gin)
        return perr(P, "call %s: %s takes %u input array%s, got %u", g->name, g->name, gin, gin == 1 ? "" : "s", na);
    if (nt != gout)
        return perr(P, "call %s: %s has %u output array%s, got %u", g->name, g->name, gout, gout == 1 ? "" : "s",
                    nt);
    for (uint32_t i = 0, k = 0; i < g->narr; i++)
        if (!g->arr[i].is_output && call_check_arg(P, g, i, k++, &args[gslot[i]]) < 0)
            return -1;
    for (uint32_t i = 0; i < g->narr; i++) {
        if (!g->arr[i].is_output)
            continue;
        call_arr *t = &tgts[gslot[i]];
        const ir_array *ga = &g->arr[i];
        if (!find_array(S, t->name, &t->idx)) {
            t->new_local = true;
            continue;
        }
        if (t->idx < 0)
            return perr(P, "call %s: result %s is already defined (line %d); a result is a new array or an output",
                        g->name, t->name, array_line(S, t->idx));
        const ir_array *fa = &S->f->arr[t->idx];
        if (!fa->is_output)
            return perr(P, "call %s: result %s is an input array; a result is a new array or an output", g->name,
                        t->name);
        if (fa->len != ga->len)
            return perr(P, "call %s: result %s has %u limbs, %s's output %s has %u", g->name, t->name, fa->len,
                        g->name, ga->name, ga->len);
        for (uint32_t l = 0; l < fa->len; l++)
            if (S->stored[t->idx][l])
                return perr(P, "call %s: %s[%u] is already stored (line %d)", g->name, t->name, l,
                            S->stored[t->idx][l]);
    }
    /* new local targets are created before inlining (their limbs are filled by g's stores) but named only after:
     * the arguments were resolved above, so a call cannot read its own results */
    for (uint32_t i = 0; i < g->narr; i++) {
        call_arr *t = &tgts[gslot[i]];
        if (!g->arr[i].is_output || !t->new_local)
            continue;
        if (!new_local(P, t->name, g->arr[i].len, g))
            return -1;
    }
    /* new_local may move S->loc: take the pointers once all exist */
    for (unsigned j = 0; j < nt; j++)
        if (tgts[j].new_local) {
            int32_t idx;
            find_array(S, tgts[j].name, &idx);
            tgts[j].loc = &S->loc[-idx - 1];
            tgts[j].idx = idx;
        }
    return inline_call(P, g, gslot, args, tgts);
}

/* ---- blocks ---------------------------------------------------------------------------------------------------------- */

static int st_func(parser *P)
{
    char name[IR_NAME_MAX];
    int32_t prev;
    if (ident(P, name, "a function name after func") < 0 || expect_end(P) < 0)
        return -1;
    if (ht_get(&P->fnames, name, strlen(name), &prev))
        return perr(P, "function %s is already defined (line %d)", name, P->fnline[prev]);
    fstate *S = calloc(1, sizeof *S);
    if (!S)
        return oom(P);
    S->f = ir_func_new(name);
    if (!S->f) {
        free(S);
        return oom(P);
    }
    for (int a = 0; a < TEXT_MAX_ARR; a++)
        for (int l = 0; l < TEXT_MAX_LEN; l++)
            S->loaded[a][l] = IR_NOVAL;
    P->cur = S;
    return 0;
}

static int st_end(parser *P, int func_line)
{
    fstate *S = P->cur;
    ir_func *f = S->f;
    if (expect_end(P) < 0)
        return -1;
    if (!S->body && resolve_aliases(P) < 0)
        return -1;
    for (uint32_t a = 0; a < f->narr; a++)
        for (uint32_t l = 0; f->arr[a].is_output && l < f->arr[a].len; l++)
            if (!S->stored[a][l])
                return perr(P, "%s: output %s[%u] is never stored", f->name, f->arr[a].name, l);
    if (ir_validate(f) < 0 || ir_bounds(f) < 0)
        return perr(P, "%s: %s", f->name, f->err);
    if (P->nfn == P->capfn) {
        int cap = P->capfn ? 2 * P->capfn : 8;
        ir_func **nf = realloc(P->fn, (size_t)cap * sizeof *nf);
        if (!nf)
            return oom(P);
        P->fn = nf;
        int *nl = realloc(P->fnline, (size_t)cap * sizeof *nl);
        if (!nl)
            return oom(P);
        P->fnline = nl;
        P->capfn = cap;
    }
    if (ht_put(&P->fnames, f->name, strlen(f->name), P->nfn) < 0)
        return oom(P);
    P->fn[P->nfn] = f;
    P->fnline[P->nfn] = func_line;
    P->nfn++;
    S->f = NULL;
    fstate_free(S);
    P->cur = NULL;
    return 0;
}

/* A line that starts with an identifier followed by `:` or `,` defines values (whatever the identifier). */
static bool is_definition(parser *P)
{
    return P->tok[0].k == T_ID && (peek2(P)->k == ':' || peek2(P)->k == ',');
}

/* raw_keyword — the line starts with keyword kw used as a keyword (not a value name followed by `:` or `,`). */
static bool raw_keyword(const char *s, const char *kw)
{
    size_t n = strlen(kw);
    while (is_space((unsigned char)*s))
        s++;
    if (strncmp(s, kw, n) || is_id_char((unsigned char)s[n]))
        return false;
    s += n;
    while (is_space((unsigned char)*s))
        s++;
    return *s != ':' && *s != ',';
}

static int body_start(parser *P)
{
    if (P->cur->body)
        return 0;
    P->cur->body = true;
    return resolve_aliases(P);
}

static int header_line(parser *P, const char *kw)
{
    if (P->cur->body)
        return perr(P, "`%s` must come before the first statement of %s", kw, P->cur->f->name);
    return 0;
}

static int do_line(parser *P, const char *line, int *func_line)
{
    if (P->cur && raw_keyword(line, "prime"))
        return header_line(P, "prime") < 0 ? -1 : st_prime(P, line);
    if (P->cur && raw_keyword(line, "kind"))
        return header_line(P, "kind") < 0 ? -1 : st_kind(P, line);
    if (tokenize(P, line) < 0)
        return -1;
    tok *t = peek(P);
    char d[64];
    if (t->k == T_END)
        return 0;
    if (!P->cur) {
        if (!tok_is(t, "func"))
            return perr(P, "expected `func NAME`, found %s", describe(t, d, sizeof d));
        take(P);
        *func_line = P->line;
        return st_func(P);
    }
    if (is_definition(P))
        return body_start(P) < 0 ? -1 : st_define(P);
    if (t->k != T_ID)
        return perr(P, "expected a statement, found %s", describe(t, d, sizeof d));
    take(P);
    if (tok_is(t, "end"))
        return st_end(P, *func_line);
    if (tok_is(t, "func"))
        return perr(P, "`func` inside func %s (missing `end`?)", P->cur->f->name);
    if (tok_is(t, "in") || tok_is(t, "out"))
        return header_line(P, t->s[0] == 'i' ? "in" : "out") < 0 ? -1 : st_array(P, t->s[0] == 'o');
    if (tok_is(t, "repr"))
        return header_line(P, "repr") < 0 ? -1 : st_repr(P);
    if (tok_is(t, "require"))
        return header_line(P, "require") < 0 ? -1 : st_require(P);
    if (tok_is(t, "store"))
        return body_start(P) < 0 ? -1 : st_store(P);
    if (tok_is(t, "const"))
        return body_start(P) < 0 ? -1 : st_const(P);
    if (tok_is(t, "call"))
        return body_start(P) < 0 ? -1 : st_call(P);
    if (peek(P)->k == '=')
        return perr(P, "%s: a result needs a type, e.g. `%.*s:u64 = ...`", describe(t, d, sizeof d), t->n > 40 ? 40 : t->n,
                    t->s);
    return perr(P, "unknown statement %s", describe(t, d, sizeof d));
}

ir_func *ir_parse(const char *text, char *err, size_t errlen)
{
    parser P;
    memset(&P, 0, sizeof P);
    P.err = err;
    P.errlen = errlen;
    if (err && errlen)
        err[0] = 0;
    int rc = 0, func_line = 0;
    const char *s = text ? text : "";
    while (*s && !rc) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        P.line++;
        if (n + 1 > P.capbuf) {
            size_t cap = P.capbuf ? P.capbuf : 256;
            while (cap < n + 1)
                cap *= 2;
            char *nb = realloc(P.buf, cap);
            if (!nb) {
                rc = oom(&P);
                break;
            }
            P.buf = nb;
            P.capbuf = cap;
        }
        memcpy(P.buf, s, n);
        P.buf[n] = 0;
        char *hash = strchr(P.buf, '#');
        if (hash)
            *hash = 0;
        rc = do_line(&P, P.buf, &func_line);
        s = e ? e + 1 : s + n;
    }
    if (!rc && P.cur)
        rc = perr(&P, "func %s: missing `end`", P.cur->f->name);
    if (!rc && P.nfn == 0)
        rc = perr(&P, "no function in the text (expected `func NAME` ... `end`)");
    ir_func *res = NULL;
    if (!rc) {
        res = P.fn[P.nfn - 1];
        P.nfn--;
    }
    for (int i = 0; i < P.nfn; i++)
        ir_func_free(P.fn[i]);
    fstate_free(P.cur);
    free(P.fn);
    free(P.fnline);
    free(P.buf);
    free(P.tok);
    ht_free(&P.fnames);
    return res;
}
