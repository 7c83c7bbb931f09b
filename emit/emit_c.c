/* emit_c.c — IR to readable, deterministic C (see emit_c.h).
 *
 * Layout of the text: the header (GENERATED line, command, input hashes), <stdint.h>, the typedefs and static
 * inline helpers, the contract comment (STYLE.md), a prototype, then the function: one line per IR node in IR
 * order, except that every load is hoisted above the first store when the IR has a load after a store (an output
 * may be the same array as an input, and C evaluates in statement order).
 *
 * Types: u1 is ecopt_u1 (uint8_t), u64 uint64_t, u128 ecopt_u128 (unsigned __int128). An operation is computed in
 * the widest of its operand and result types (at least uint64_t, so that nothing is promoted to int) and reduced
 * to its result type by a cast (u1: `& 1`, then the cast), which is the IR's rule "zero-extend, apply, reduce mod
 * 2^width". Constants are written in hex at the computation type (UINT64_C(0x13)).
 *
 * No branch in the text: selects go through ecopt_cmovznz_*, whose mask passes a value barrier; the text has no
 * `?:`, `if`, `&&` or `||` (tests/ir/test_emit.c checks it, and that the compiled code has no conditional jump). */
#include "emit/emit_c.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a growing string ------------------------------------------------------------------------------------------ */

typedef struct {
    char *s;
    size_t n, cap;
    int oom;
} sbuf;

static void sb_vadd(sbuf *b, const char *fmt, va_list ap)
{
    if (b->oom)
        return;
    va_list ap2;
    va_copy(ap2, ap);
    int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap2);
    va_end(ap2);
    if (k < 0) {
        b->oom = 1;
        return;
    }
    if (!b->s || b->n + (size_t)k + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + (size_t)k + 1)
            cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->oom = 1;
            return;
        }
        b->s = ns;
        b->cap = cap;
        vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    }
    b->n += (size_t)k;
}

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vadd(b, fmt, ap);
    va_end(ap);
}

/* text that goes inside a comment: no "*" "/" pair, no control characters; continuation lines start " * " */
static void sb_comment_text(sbuf *b, const char *s, const char *indent)
{
    for (; *s; s++) {
        if (*s == '\n') {
            sb_add(b, "\n%s", indent);
        } else if (*s == '*' && s[1] == '/') {
            sb_add(b, "* ");
        } else if ((unsigned char)*s < 0x20 || *s == 0x7f) {
            sb_add(b, " ");
        } else {
            sb_add(b, "%c", *s);
        }
    }
}

/* ---- the helpers --------------------------------------------------------------------------------------------- */

static const char helpers_text[] =
    "/* Helpers: static inline, marked unused since a file need not use every one (clang warns otherwise). */\n"
    "__extension__ typedef unsigned __int128 ecopt_u128;\n"
    "typedef uint8_t ecopt_u1;\n"
    "\n"
    "/* ecopt_barrier_u64 — x, hidden from the optimizer. The empty asm claims to change x, so the compiler cannot\n"
    " * know that a mask is all zeros or all ones and cannot turn a select made from it into a branch. */\n"
    "static inline __attribute__((unused))\n"
    "uint64_t ecopt_barrier_u64(uint64_t x)\n"
    "{\n"
    "    __asm__(\"\" : \"+r\"(x));\n"
    "    return x;\n"
    "}\n"
    "\n"
    "/* ecopt_mulx — the product p = a * b split at bit s: *lo = p mod 2^s, *hi = (p >> s) mod 2^64. */\n"
    "static inline __attribute__((unused))\n"
    "void ecopt_mulx(uint64_t *lo, uint64_t *hi, unsigned s, uint64_t a, uint64_t b)\n"
    "{\n"
    "    ecopt_u128 p = (ecopt_u128)a * b;\n"
    "    *lo = (uint64_t)(p & (((ecopt_u128)1 << s) - 1));\n"
    "    *hi = (uint64_t)(p >> s);\n"
    "}\n"
    "\n"
    "/* ecopt_addcarryx — t = c + a + b: *sum = t mod 2^s, *carry = bit s of t. */\n"
    "static inline __attribute__((unused))\n"
    "void ecopt_addcarryx(uint64_t *sum, ecopt_u1 *carry, unsigned s, uint64_t c, uint64_t a, uint64_t b)\n"
    "{\n"
    "    ecopt_u128 t = (ecopt_u128)c + a + b;\n"
    "    *sum = (uint64_t)(t & (((ecopt_u128)1 << s) - 1));\n"
    "    *carry = (ecopt_u1)((t >> s) & 1);\n"
    "}\n"
    "\n"
    "/* ecopt_subborrowx — t = a - b - c: *diff = t mod 2^s, *borrow = 1 exactly when t < 0 (the sign bit of t taken\n"
    " * mod 2^128, since |t| < 2^66). */\n"
    "static inline __attribute__((unused))\n"
    "void ecopt_subborrowx(uint64_t *diff, ecopt_u1 *borrow, unsigned s, uint64_t c, uint64_t a, uint64_t b)\n"
    "{\n"
    "    ecopt_u128 t = (ecopt_u128)a - b - c;\n"
    "    *diff = (uint64_t)(t & (((ecopt_u128)1 << s) - 1));\n"
    "    *borrow = (ecopt_u1)(t >> 127);\n"
    "}\n"
    "\n"
    "/* ecopt_cmovznz_u64 — z when c is 0, nz otherwise, by masks: m is all ones exactly when c != 0. */\n"
    "static inline __attribute__((unused))\n"
    "uint64_t ecopt_cmovznz_u64(uint64_t c, uint64_t z, uint64_t nz)\n"
    "{\n"
    "    uint64_t m = ecopt_barrier_u64(0 - (uint64_t)(c != 0));\n"
    "    return (m & nz) | (~m & z);\n"
    "}\n"
    "\n"
    "/* ecopt_cmovznz_u128 — the same for 128-bit values. */\n"
    "static inline __attribute__((unused))\n"
    "ecopt_u128 ecopt_cmovznz_u128(uint64_t c, ecopt_u128 z, ecopt_u128 nz)\n"
    "{\n"
    "    uint64_t m = ecopt_barrier_u64(0 - (uint64_t)(c != 0));\n"
    "    ecopt_u128 mm = ((ecopt_u128)m << 64) | m;\n"
    "    return (mm & nz) | (~mm & z);\n"
    "}\n"
    "\n"
    "/* ecopt_shrd — bits k to k+63 of hi * 2^64 + lo, k < 64 (the x86 shrd funnel shift). */\n"
    "static inline __attribute__((unused))\n"
    "uint64_t ecopt_shrd(uint64_t hi, uint64_t lo, unsigned k)\n"
    "{\n"
    "    return (uint64_t)((((ecopt_u128)hi << 64) | lo) >> k);\n"
    "}\n";

char *emit_c_helpers(void)
{
    size_t n = sizeof helpers_text;
    char *s = malloc(n);
    if (s)
        memcpy(s, helpers_text, n);
    return s;
}

/* ---- identifiers ------------------------------------------------------------------------------------------------ */

/* words the emitted code may not use as a variable or parameter name */
static const char *const reserved_words[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "asm",
    "typeof", "alignas", "alignof", "bool", "true", "false", "noreturn", "static_assert", "thread_local", "NULL",
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "intptr_t",
    "uintptr_t", "intmax_t", "uintmax_t", "size_t", "ptrdiff_t", "UINT8_C", "UINT16_C", "UINT32_C", "UINT64_C",
    "INT8_C", "INT16_C", "INT32_C", "INT64_C", "UINT64_MAX", "UINT32_MAX", "UINT8_MAX", "INT64_MAX", "INT64_MIN",
    "main", "errno", "assert",
};

static int is_reserved(const char *s)
{
    if (s[0] == '_' || !strncmp(s, "ecopt_", 6))
        return 1; /* reserved for the implementation, and the helpers' prefix */
    for (size_t i = 0; i < sizeof reserved_words / sizeof reserved_words[0]; i++)
        if (!strcmp(s, reserved_words[i]))
            return 1;
    return 0;
}

static int is_ident_char(char ch, int first)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || (!first && ch >= '0' && ch <= '9');
}

/* A function name may start with ecopt_ (the library's generated functions do) but must not be a helper's name. */
static int is_function_name(const char *s)
{
    static const char *const helper_names[] = { "ecopt_u128", "ecopt_u1", "ecopt_barrier_u64", "ecopt_mulx",
                                                 "ecopt_addcarryx", "ecopt_subborrowx", "ecopt_cmovznz_u64",
                                                 "ecopt_cmovznz_u128", "ecopt_shrd" };
    if (!*s || s[0] == '_')
        return 0;
    for (size_t i = 0; s[i]; i++)
        if (!is_ident_char(s[i], i == 0))
            return 0;
    for (size_t i = 0; i < sizeof helper_names / sizeof helper_names[0]; i++)
        if (!strcmp(s, helper_names[i]) || !strncmp(s, "ECOPT_EMIT_C", 12))
            return 0;
    for (size_t i = 0; i < sizeof reserved_words / sizeof reserved_words[0]; i++)
        if (!strcmp(s, reserved_words[i]))
            return 0;
    return 1;
}

#define CNAME_MAX (IR_NAME_MAX + 16)

/* a set of the identifiers in use (open addressing) */
typedef struct {
    char **slot;
    size_t n, cap;
    int oom;
} nameset;

static uint32_t str_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static int ns_has(const nameset *ns, const char *s)
{
    if (!ns->cap)
        return 0;
    for (size_t i = str_hash(s) & (ns->cap - 1);; i = (i + 1) & (ns->cap - 1)) {
        if (!ns->slot[i])
            return 0;
        if (!strcmp(ns->slot[i], s))
            return 1;
    }
}

static void ns_put(nameset *ns, char *s) /* s is owned by the caller and outlives the set */
{
    if (ns->oom || ns_has(ns, s))
        return;
    if (2 * (ns->n + 1) > ns->cap) {
        size_t cap = ns->cap ? 2 * ns->cap : 256;
        char **nsl = calloc(cap, sizeof *nsl);
        if (!nsl) {
            ns->oom = 1;
            return;
        }
        for (size_t i = 0; i < ns->cap; i++) {
            if (!ns->slot[i])
                continue;
            size_t j = str_hash(ns->slot[i]) & (cap - 1);
            while (nsl[j])
                j = (j + 1) & (cap - 1);
            nsl[j] = ns->slot[i];
        }
        free(ns->slot);
        ns->slot = nsl;
        ns->cap = cap;
    }
    size_t i = str_hash(s) & (ns->cap - 1);
    while (ns->slot[i])
        i = (i + 1) & (ns->cap - 1);
    ns->slot[i] = s;
    ns->n++;
}

/* the C identifier for IR name `in` into out (CNAME_MAX): invalid characters become '_', a leading digit or a
 * reserved word gets the prefix "v_", and a name already taken gets "_2", "_3", ... */
static void make_ident(nameset *ns, const char *in, char *out)
{
    char base[CNAME_MAX];
    size_t k = 0;
    for (size_t i = 0; in[i] && k < IR_NAME_MAX; i++)
        base[k++] = is_ident_char(in[i], 0) ? in[i] : '_';
    base[k] = 0;
    if (!k || !is_ident_char(base[0], 1) || is_reserved(base)) {
        char tmp[CNAME_MAX];
        snprintf(tmp, sizeof tmp, "v_%s", base);
        memcpy(base, tmp, sizeof base);
        base[IR_NAME_MAX + 2] = 0;
    }
    snprintf(out, CNAME_MAX, "%s", base);
    for (unsigned n = 2; ns_has(ns, out); n++)
        snprintf(out, CNAME_MAX, "%.*s_%u", IR_NAME_MAX + 2, base, n);
}

/* ---- the emitter ---------------------------------------------------------------------------------------------- */

typedef struct {
    const ir_func *f;
    sbuf *b;
    char (*vname)[CNAME_MAX]; /* per value */
    char (*aname)[CNAME_MAX]; /* per array */
    uint32_t *uses;           /* per value: how many node operands use it */
} emitter;

static const char *ctype(unsigned width)
{
    return width == 1 ? "ecopt_u1" : width == 64 ? "uint64_t" : "ecopt_u128";
}

/* operand v rendered at computation width W (64 or 128) */
static void operand(emitter *e, ir_val v, unsigned W)
{
    const ir_value *x = &e->f->val[v];
    char h1[40], h2[40];
    if (x->is_const) {
        if (W <= 64)
            sb_add(e->b, "UINT64_C(%s)", ir_u128_hex(x->k & UINT64_MAX, h1));
        else if (x->k <= UINT64_MAX)
            sb_add(e->b, "(ecopt_u128)UINT64_C(%s)", ir_u128_hex(x->k, h1));
        else
            sb_add(e->b, "(((ecopt_u128)UINT64_C(%s) << 64) | UINT64_C(%s))", ir_u128_hex(x->k >> 64, h1),
                   ir_u128_hex(x->k & UINT64_MAX, h2));
        return;
    }
    if (x->width == W)
        sb_add(e->b, "%s", e->vname[v]);
    else /* widened, or a u128 operand taken mod 2^64 */
        sb_add(e->b, "(%s)%s", ctype(W), e->vname[v]);
}

static unsigned maxw(unsigned a, unsigned b) { return a > b ? a : b; }

static const char *binop_text(ir_op op)
{
    switch (op) {
    case IR_ADD: return "+";
    case IR_SUB: return "-";
    case IR_MUL: return "*";
    case IR_AND: return "&";
    case IR_OR: return "|";
    case IR_XOR: return "^";
    case IR_SHL: return "<<";
    case IR_SHR: return ">>";
    default: return NULL;
    }
}

/* "T r = " for result value r */
static void decl(emitter *e, ir_val r)
{
    sb_add(e->b, "    %s %s = ", ctype(e->f->val[r].width), e->vname[r]);
}

/* close a one-result statement: the expression was computed at width W, the result has width w */
static void open_reduce(emitter *e, unsigned w, unsigned W)
{
    if (w == 1)
        sb_add(e->b, "(ecopt_u1)((");
    else if (w < W)
        sb_add(e->b, "(%s)(", ctype(w));
}

static void close_reduce(emitter *e, unsigned w, unsigned W)
{
    if (w == 1)
        sb_add(e->b, ") & 1)");
    else if (w < W)
        sb_add(e->b, ")");
}

static void end_stmt(emitter *e, ir_val r)
{
    sb_add(e->b, ";");
    if (r != IR_NOVAL && !e->uses[r])
        sb_add(e->b, " (void)%s;", e->vname[r]);
    sb_add(e->b, "\n");
}

static int emit_node(emitter *e, uint32_t i, char *err, size_t errlen)
{
    const ir_func *f = e->f;
    const ir_node *n = &f->node[i];
    ir_val r = n->nres ? n->res[0] : IR_NOVAL;
    unsigned w = n->nres ? f->val[r].width : 64;
    unsigned aw = n->nargs > 0 ? f->val[n->arg[0]].width : 0;
    unsigned bw = n->nargs > 1 ? f->val[n->arg[1]].width : 0;
    unsigned W = maxw(64, maxw(w, maxw(aw, bw)));
    switch ((ir_op)n->op) {
    case IR_LOAD:
        decl(e, r);
        sb_add(e->b, "%s[%u]", e->aname[n->arr], n->limb);
        end_stmt(e, r);
        return 0;
    case IR_STORE:
        if (aw > 64) {
            snprintf(err, errlen, "node %u: store of the u128 value %s", i, f->val[n->arg[0]].name);
            return -1;
        }
        sb_add(e->b, "    %s[%u] = ", e->aname[n->arr], n->limb);
        operand(e, n->arg[0], f->val[n->arg[0]].is_const || aw == 64 ? 64 : aw);
        end_stmt(e, IR_NOVAL);
        return 0;
    case IR_CAST:
        decl(e, r);
        if (w == 1 && aw == 1) {
            operand(e, n->arg[0], 1);
        } else if (w == 1) {
            sb_add(e->b, "(ecopt_u1)(");
            operand(e, n->arg[0], maxw(64, aw));
            sb_add(e->b, " & 1)");
        } else {
            operand(e, n->arg[0], w);
        }
        end_stmt(e, r);
        return 0;
    case IR_ADD:
    case IR_SUB:
    case IR_MUL:
    case IR_AND:
    case IR_OR:
    case IR_XOR:
        decl(e, r);
        open_reduce(e, w, W);
        operand(e, n->arg[0], W);
        sb_add(e->b, " %s ", binop_text((ir_op)n->op));
        operand(e, n->arg[1], W);
        close_reduce(e, w, W);
        end_stmt(e, r);
        return 0;
    case IR_SHL:
    case IR_SHR: {
        unsigned k = (unsigned)f->val[n->arg[1]].k;
        W = maxw(64, maxw(w, aw));
        if (k >= W) {
            snprintf(err, errlen, "node %u: shift by %u of a %u-bit value", i, k, W);
            return -1;
        }
        decl(e, r);
        open_reduce(e, w, W);
        operand(e, n->arg[0], W);
        sb_add(e->b, " %s %u", binop_text((ir_op)n->op), k);
        close_reduce(e, w, W);
        end_stmt(e, r);
        return 0;
    }
    case IR_NOT:
        decl(e, r);
        W = maxw(64, maxw(w, aw));
        open_reduce(e, w, W);
        sb_add(e->b, "~");
        operand(e, n->arg[0], W);
        close_reduce(e, w, W);
        end_stmt(e, r);
        return 0;
    case IR_LNOT:
        decl(e, r);
        sb_add(e->b, "(%s)(", ctype(w));
        operand(e, n->arg[0], aw == 1 ? 1 : aw);
        sb_add(e->b, " == 0)");
        end_stmt(e, r);
        return 0;
    case IR_MULX:
    case IR_ADDCARRYX:
    case IR_SUBBORROWX: {
        for (unsigned k = 0; k < n->nargs; k++)
            if (f->val[n->arg[k]].width > 64) {
                snprintf(err, errlen, "node %u: %s operand %s is u128", i, ir_op_name((ir_op)n->op),
                         f->val[n->arg[k]].name);
                return -1;
            }
        ir_val r1 = n->res[1];
        sb_add(e->b, "    %s %s; %s %s; ecopt_%s(&%s, &%s, %u", ctype(f->val[r].width), e->vname[r],
               ctype(f->val[r1].width), e->vname[r1], ir_op_name((ir_op)n->op), e->vname[r], e->vname[r1], n->size);
        for (unsigned k = 0; k < n->nargs; k++) {
            sb_add(e->b, ", ");
            operand(e, n->arg[k], 64);
        }
        sb_add(e->b, ")");
        end_stmt(e, IR_NOVAL);
        return 0;
    }
    case IR_CMOVZNZ: {
        const ir_value *c = &f->val[n->arg[0]];
        unsigned sel = w == 128 ? 128 : 64;
        decl(e, r);
        if (w == 1)
            sb_add(e->b, "(ecopt_u1)(");
        sb_add(e->b, "ecopt_cmovznz_u%u(", sel);
        if (c->width == 128 && !c->is_const)
            sb_add(e->b, "(uint64_t)(%s != 0)", e->vname[n->arg[0]]);
        else if (c->is_const)
            sb_add(e->b, "UINT64_C(%s)", c->k != 0 ? "1" : "0");
        else
            operand(e, n->arg[0], 64);
        sb_add(e->b, ", ");
        operand(e, n->arg[1], sel);
        sb_add(e->b, ", ");
        operand(e, n->arg[2], sel);
        sb_add(e->b, ")");
        if (w == 1)
            sb_add(e->b, " & 1)");
        end_stmt(e, r);
        return 0;
    }
    case IR_SHRD:
        if (aw > 64 || bw > 64) {
            snprintf(err, errlen, "node %u: shrd operand is u128", i);
            return -1;
        }
        decl(e, r);
        sb_add(e->b, "ecopt_shrd(");
        operand(e, n->arg[0], 64);
        sb_add(e->b, ", ");
        operand(e, n->arg[1], 64);
        sb_add(e->b, ", %u)", (unsigned)f->val[n->arg[2]].k);
        end_stmt(e, r);
        return 0;
    default:
        snprintf(err, errlen, "node %u: unknown operation %u", i, (unsigned)n->op);
        return -1;
    }
}

/* ---- the contract comment ------------------------------------------------------------------------------------- */

static void formula(emitter *e)
{
    const ir_func *f = e->f;
    const char *o = "out", *x = "x", *y = "y";
    int nin = 0, nout = 0;
    for (uint32_t j = 0; j < f->narr; j++) {
        if (f->arr[j].is_output) {
            if (nout++ == 0)
                o = e->aname[j];
        } else {
            if (nin == 0)
                x = e->aname[j];
            else if (nin == 1)
                y = e->aname[j];
            nin++;
        }
    }
    int mont = f->repr == IR_REPR_MONTGOMERY;
    unsigned n = 0;
    for (uint32_t j = 0; j < f->narr; j++)
        if (!f->arr[j].is_output)
            n = f->arr[j].len;
    sbuf *b = e->b;
    switch (f->kind) {
    case IR_KIND_MUL: sb_add(b, "%s = %s * %s%s mod p", o, x, y, mont ? " * R^-1" : ""); break;
    case IR_KIND_SQUARE: sb_add(b, "%s = %s^2%s mod p", o, x, mont ? " * R^-1" : ""); break;
    case IR_KIND_CARRY: sb_add(b, "%s = %s mod p, limbs carried to the output bounds", o, x); break;
    case IR_KIND_ADD: sb_add(b, "%s = %s + %s mod p", o, x, y); break;
    case IR_KIND_SUB: sb_add(b, "%s = %s - %s mod p", o, x, y); break;
    case IR_KIND_OPP: sb_add(b, "%s = -%s mod p", o, x); break;
    case IR_KIND_TO_MONT: sb_add(b, "%s = %s * R mod p", o, x); break;
    case IR_KIND_FROM_MONT: sb_add(b, "%s = %s * R^-1 mod p", o, x); break;
    default: sb_add(b, "a straight-line program over 64-bit limbs (no field formula stated)"); return;
    }
    sb_add(b, ", p = ");
    if (f->prime[0])
        sb_comment_text(b, f->prime, " *          ");
    else
        sb_add(b, "(not stated)");
    if (mont || f->kind == IR_KIND_TO_MONT || f->kind == IR_KIND_FROM_MONT)
        sb_add(b, ", R = 2^%u", 64 * n);
}

static void shapes(emitter *e)
{
    const ir_func *f = e->f;
    sbuf *b = e->b;
    /* arrays grouped by length, in declaration order: outputs, then inputs */
    uint8_t *done = calloc(f->narr ? f->narr : 1, 1);
    int first = 1;
    if (!done) {
        b->oom = 1;
        return;
    }
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = 0; j < f->narr; j++) {
            if (!done || done[j] || f->arr[j].is_output != (pass == 0))
                continue;
            if (!first)
                sb_add(b, "; ");
            first = 0;
            int k = 0;
            for (int pass2 = pass; pass2 < 2; pass2++)
                for (uint32_t m = 0; m < f->narr; m++)
                    if (!done[m] && f->arr[m].is_output == (pass2 == 0) && f->arr[m].len == f->arr[j].len) {
                        sb_add(b, "%s%s", k++ ? ", " : "", e->aname[m]);
                        done[m] = 1;
                    }
            sb_add(b, ": %u limb%s of uint64_t", f->arr[j].len, f->arr[j].len == 1 ? "" : "s");
        }
    free(done);
    switch (f->repr) {
    case IR_REPR_RADIX:
        sb_add(b, ", little-endian; value = sum of limb i * 2^(w_0 + ... + w_(i-1)) with w =");
        for (unsigned i = 0; i < f->nlimbw; i++)
            sb_add(b, "%s %u", i ? "," : "", f->limbw[i]);
        sb_add(b, " bits (a limb may exceed w_i bits within its bounds)");
        break;
    case IR_REPR_MONTGOMERY:
        sb_add(b, ", little-endian 64-bit words of x * R mod p (Montgomery form)");
        break;
    default:
        sb_add(b, ", representation not stated");
        break;
    }
}

static void bounds_line(emitter *e)
{
    const ir_func *f = e->f;
    sbuf *b = e->b;
    char h1[40], h2[40];
    int first = 1;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = 0; j < f->narr; j++) {
            const ir_array *a = &f->arr[j];
            if (a->is_output == (pass == 0))
                continue; /* inputs first, then outputs */
            for (uint32_t l = 0; l < a->len;) {
                uint32_t m = l;
                while (m + 1 < a->len && a->lo[m + 1] == a->lo[l] && a->hi[m + 1] == a->hi[l])
                    m++;
                sb_add(b, "%s", first ? "" : "; ");
                first = 0;
                if (m == l)
                    sb_add(b, "%s[%u]", e->aname[j], l);
                else
                    sb_add(b, "%s[%u..%u]", e->aname[j], l, m);
                sb_add(b, " in [%s, %s]", ir_u128_hex(a->lo[l], h1), ir_u128_hex(a->hi[l], h2));
                l = m + 1;
            }
        }
}

static void alias_line(emitter *e)
{
    const ir_func *f = e->f;
    int any = 0;
    for (uint32_t j = 0; j < f->narr; j++) {
        if (!f->arr[j].is_output || !f->arr[j].alias)
            continue;
        sb_add(e->b, "%s%s may equal", any ? "; " : "", e->aname[j]);
        int k = 0;
        for (uint32_t m = 0; m < f->narr && m < 64; m++)
            if ((f->arr[j].alias >> m) & 1)
                sb_add(e->b, "%s %s", k++ ? "," : "", e->aname[m]);
        any = 1;
    }
    if (!any)
        sb_add(e->b, "none (outputs must not overlap inputs)");
}

static void contract(emitter *e, const emit_c_opts *o)
{
    sbuf *b = e->b;
    const char *ind = " *          ";
    sb_add(b, "/* %s — ", e->f->name);
    formula(e);
    sb_add(b, ".\n * Shapes:  ");
    shapes(e);
    sb_add(b, "\n * Bounds:  ");
    bounds_line(e);
    sb_add(b, "\n * Alias:   ");
    alias_line(e);
    sb_add(b, "\n * Time:    constant in all arguments: straight-line code, selects by masks, no secret-dependent "
              "branch or memory index");
    sb_add(b, "\n * Returns: nothing; inputs outside the bounds above are not detected%s",
           e->f->pre_lt_p ? ", nor inputs >= p (each input must be < p)" : "");
    sb_add(b, "\n * Source:  ");
    if (o->command && o->command[0])
        sb_comment_text(b, o->command, ind);
    else
        sb_add(b, "hand-written IR (no generating command given)");
    sb_add(b, " */\n");
}

/* ---- emit_c ------------------------------------------------------------------------------------------------- */

static void signature(emitter *e, const emit_c_opts *o)
{
    const ir_func *f = e->f;
    sb_add(e->b, "%svoid %s(", o->is_static ? "static " : "", f->name);
    int k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = 0; j < f->narr; j++)
            if (f->arr[j].is_output == (pass == 0))
                sb_add(e->b, "%s%suint64_t %s[%u]", k++ ? ", " : "", pass ? "const " : "", e->aname[j], f->arr[j].len);
    if (!k)
        sb_add(e->b, "void");
    sb_add(e->b, ")");
}

char *emit_c(const ir_func *f, const emit_c_opts *opts, char *err, size_t errlen)
{
    static const emit_c_opts defaults;
    const emit_c_opts *o = opts ? opts : &defaults;
    char dummy[8];
    if (!err || !errlen) {
        err = dummy;
        errlen = sizeof dummy;
    }
    err[0] = 0;
    if (!is_function_name(f->name)) {
        snprintf(err, errlen, "function name `%s` is not a C identifier (or is reserved)", f->name);
        return NULL;
    }
    ir_func *chk = ir_func_clone(f);
    if (!chk) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (ir_validate(chk) < 0) {
        snprintf(err, errlen, "%s: %s", f->name, chk->err);
        ir_func_free(chk);
        return NULL;
    }
    ir_func_free(chk);

    sbuf b = { 0 };
    nameset ns = { 0 };
    emitter e = { .f = f, .b = &b };
    e.vname = calloc(f->nval ? f->nval : 1, sizeof *e.vname);
    e.aname = calloc(f->narr ? f->narr : 1, sizeof *e.aname);
    e.uses = calloc(f->nval ? f->nval : 1, sizeof *e.uses);
    char fname[CNAME_MAX];
    snprintf(fname, sizeof fname, "%s", f->name);
    char *result = NULL;
    uint8_t *loaded = NULL, *stored = NULL;
    if (!e.vname || !e.aname || !e.uses)
        goto oom;
    ns_put(&ns, fname);
    for (uint32_t j = 0; j < f->narr; j++) {
        make_ident(&ns, f->arr[j].name, e.aname[j]);
        ns_put(&ns, e.aname[j]);
    }
    /* values in node order (deterministic), results only: constants are written inline */
    for (uint32_t i = 0; i < f->nnode; i++) {
        const ir_node *n = &f->node[i];
        for (unsigned k = 0; k < n->nargs; k++)
            e.uses[n->arg[k]]++;
        for (unsigned k = 0; k < n->nres; k++) {
            make_ident(&ns, f->val[n->res[k]].name, e.vname[n->res[k]]);
            ns_put(&ns, e.vname[n->res[k]]);
        }
    }
    if (ns.oom)
        goto oom;

    if (!o->no_header) {
        sb_add(&b, "/* GENERATED by ecopt — do not edit.\n * Command: ");
        if (o->command && o->command[0])
            sb_comment_text(&b, o->command, " *          ");
        else
            sb_add(&b, "none");
        sb_add(&b, "\n * Inputs:  ");
        if (o->inputs && o->inputs[0]) {
            size_t len = strlen(o->inputs);
            /* drop one trailing newline so that the list ends on its last line */
            char *in = malloc(len + 1);
            if (!in)
                goto oom;
            memcpy(in, o->inputs, len + 1);
            if (len && in[len - 1] == '\n')
                in[len - 1] = 0;
            sb_comment_text(&b, in, " *          ");
            free(in);
        } else {
            sb_add(&b, "none");
        }
        sb_add(&b, "\n */\n#include <stdint.h>\n\n");
    }
    /* The guard lets several generated files be #included into one translation unit (the library does). */
    if (!o->no_helpers)
        sb_add(&b, "#ifndef ECOPT_EMIT_C_HELPERS\n#define ECOPT_EMIT_C_HELPERS\n%s#endif /* ECOPT_EMIT_C_HELPERS */\n\n",
               helpers_text);
    contract(&e, o);
    if (!o->is_static) {
        signature(&e, o);
        sb_add(&b, ";\n");
    }
    signature(&e, o);
    sb_add(&b, "\n{\n");

    /* unused parameters: cast to void so that -Wextra stays quiet */
    loaded = calloc(f->narr ? f->narr : 1, 1);
    stored = calloc(f->narr ? f->narr : 1, 1);
    if (!loaded || !stored)
        goto oom;
    int hoist = 0, seen_store = 0;
    for (uint32_t i = 0; i < f->nnode; i++) {
        const ir_node *n = &f->node[i];
        if (n->op == IR_LOAD) {
            loaded[n->arr] = 1;
            hoist |= seen_store;
        } else if (n->op == IR_STORE) {
            stored[n->arr] = 1;
            seen_store = 1;
        }
    }
    for (uint32_t j = 0; j < f->narr; j++)
        if (!(f->arr[j].is_output ? stored[j] : loaded[j]))
            sb_add(&b, "    (void)%s;\n", e.aname[j]);
    /* loads first when a load follows a store in the IR: an output may be the same memory as an input */
    for (int pass = hoist ? 0 : 1; pass < 2; pass++)
        for (uint32_t i = 0; i < f->nnode; i++) {
            int is_load = f->node[i].op == IR_LOAD;
            if (hoist && pass == 0 && !is_load)
                continue;
            if (hoist && pass == 1 && is_load)
                continue;
            if (emit_node(&e, i, err, errlen) < 0)
                goto fail;
        }
    sb_add(&b, "}\n");
    if (b.oom)
        goto oom;
    result = b.s;
    b.s = NULL;
    goto done;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    result = NULL;
done:
    free(b.s);
    free(ns.slot);
    free(e.vname);
    free(e.aname);
    free(e.uses);
    free(loaded);
    free(stored);
    return result;
}
