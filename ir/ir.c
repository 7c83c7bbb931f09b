/* ir.c — the IR's data structure: construction, validation, bounds (interval analysis), interpreter. */
#include "ir/ir.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[IR_NOPS] = {
    [IR_LOAD] = "load", [IR_STORE] = "store", [IR_CAST] = "cast",      [IR_ADD] = "add",
    [IR_SUB] = "sub",   [IR_MUL] = "mul",     [IR_SHL] = "shl",        [IR_SHR] = "shr",
    [IR_AND] = "and",   [IR_OR] = "or",       [IR_XOR] = "xor",        [IR_NOT] = "not",
    [IR_LNOT] = "lnot", [IR_MULX] = "mulx",   [IR_ADDCARRYX] = "addcarryx",
    [IR_SUBBORROWX] = "subborrowx",           [IR_CMOVZNZ] = "cmovznz", [IR_SHRD] = "shrd",
};

static const char *const kind_names[IR_NKINDS] = {
    [IR_KIND_NONE] = "none", [IR_KIND_MUL] = "mul",         [IR_KIND_SQUARE] = "square",
    [IR_KIND_CARRY] = "carry", [IR_KIND_ADD] = "add",       [IR_KIND_SUB] = "sub",
    [IR_KIND_OPP] = "opp",   [IR_KIND_TO_MONT] = "to-montgomery", [IR_KIND_FROM_MONT] = "from-montgomery",
};

const char *ir_op_name(ir_op op) { return (unsigned)op < IR_NOPS ? op_names[op] : "?"; }
bool ir_op_sized(ir_op op) { return op == IR_MULX || op == IR_ADDCARRYX || op == IR_SUBBORROWX; }
const char *ir_kind_name(ir_kind k) { return (unsigned)k < IR_NKINDS ? kind_names[k] : "?"; }

ir_u128 ir_width_max(unsigned width)
{
    return width >= 128 ? ~(ir_u128)0 : (((ir_u128)1 << width) - 1);
}

char *ir_u128_hex(ir_u128 x, char *buf)
{
    char tmp[40];
    int n = 0;
    do {
        tmp[n++] = "0123456789abcdef"[(unsigned)(x & 15)];
        x >>= 4;
    } while (x);
    buf[0] = '0';
    buf[1] = 'x';
    for (int i = 0; i < n; i++)
        buf[2 + i] = tmp[n - 1 - i];
    buf[2 + n] = 0;
    return buf;
}

int ir_u128_parse(const char *s, ir_u128 *out)
{
    ir_u128 v = 0;
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return -1;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return -1;
        if (v > (~(ir_u128)0 - d) / base)
            return -1;
        v = v * base + d;
    }
    *out = v;
    return 0;
}

static int fail(ir_func *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ir_func *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->err, sizeof f->err, fmt, ap);
    va_end(ap);
    return -1;
}

ir_func *ir_func_new(const char *name)
{
    ir_func *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    snprintf(f->name, sizeof f->name, "%s", name ? name : "f");
    return f;
}

void ir_func_free(ir_func *f)
{
    if (!f)
        return;
    for (uint32_t i = 0; i < f->narr; i++) {
        free(f->arr[i].lo);
        free(f->arr[i].hi);
    }
    free(f->arr);
    free(f->val);
    free(f->node);
    free(f);
}

ir_func *ir_func_clone(const ir_func *f)
{
    ir_func *g = malloc(sizeof *g);
    if (!g)
        return NULL;
    *g = *f;
    g->arr = NULL;
    g->val = NULL;
    g->node = NULL;
    g->narr = 0;
    g->arr = calloc(f->narr ? f->narr : 1, sizeof *g->arr);
    g->val = malloc((f->capval ? f->capval : 1) * sizeof *g->val);
    g->node = malloc((f->capnode ? f->capnode : 1) * sizeof *g->node);
    if (!g->arr || !g->val || !g->node) {
        ir_func_free(g);
        return NULL;
    }
    for (uint32_t i = 0; i < f->narr; i++) {
        g->arr[i] = f->arr[i];
        g->arr[i].lo = malloc(f->arr[i].len * sizeof(ir_u128) + 1);
        g->arr[i].hi = malloc(f->arr[i].len * sizeof(ir_u128) + 1);
        g->narr = i + 1;
        if (!g->arr[i].lo || !g->arr[i].hi) {
            ir_func_free(g);
            return NULL;
        }
        memcpy(g->arr[i].lo, f->arr[i].lo, f->arr[i].len * sizeof(ir_u128));
        memcpy(g->arr[i].hi, f->arr[i].hi, f->arr[i].len * sizeof(ir_u128));
    }
    /* a function with no values or nodes has NULL arrays, and memcpy from NULL is undefined even for 0 bytes */
    if (f->nval)
        memcpy(g->val, f->val, f->nval * sizeof *g->val);
    if (f->nnode)
        memcpy(g->node, f->node, f->nnode * sizeof *g->node);
    return g;
}

int ir_array_add(ir_func *f, const char *name, bool is_output, uint32_t len, const ir_u128 *lo, const ir_u128 *hi)
{
    if (len == 0 || len > 64)
        return fail(f, "array %s: %u limbs (1 to 64 allowed)", name, len);
    if (f->narr >= 64)
        return fail(f, "array %s: more than 64 arrays", name);
    if (ir_array_find(f, name) >= 0)
        return fail(f, "array %s declared twice", name);
    ir_array *na = realloc(f->arr, (f->narr + 1) * sizeof *na);
    if (!na)
        return fail(f, "out of memory");
    f->arr = na;
    ir_array *a = &f->arr[f->narr];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    a->is_output = is_output;
    a->len = len;
    a->width = 64;
    a->lo = calloc(len, sizeof(ir_u128));
    a->hi = calloc(len, sizeof(ir_u128));
    if (!a->lo || !a->hi) {
        free(a->lo);
        free(a->hi);
        return fail(f, "out of memory");
    }
    for (uint32_t i = 0; i < len; i++) {
        a->lo[i] = lo ? lo[i] : 0;
        a->hi[i] = hi ? hi[i] : ir_width_max(64);
        if (a->hi[i] > ir_width_max(64) || a->lo[i] > a->hi[i]) {
            free(a->lo);
            free(a->hi);
            return fail(f, "array %s limb %u: bounds are not within 0..2^64-1 with lo <= hi", name, i);
        }
    }
    return (int)f->narr++;
}

int ir_array_find(const ir_func *f, const char *name)
{
    for (uint32_t i = 0; i < f->narr; i++)
        if (!strcmp(f->arr[i].name, name))
            return (int)i;
    return -1;
}

static ir_val new_value(ir_func *f, unsigned width)
{
    if (f->nval == f->capval) {
        uint32_t cap = f->capval ? 2 * f->capval : 256;
        ir_value *nv = realloc(f->val, cap * sizeof *nv);
        if (!nv)
            return IR_NOVAL;
        f->val = nv;
        f->capval = cap;
    }
    ir_value *v = &f->val[f->nval];
    memset(v, 0, sizeof *v);
    v->width = (uint8_t)width;
    v->node = IR_NOVAL;
    v->hi = ir_width_max(width);
    return f->nval++;
}

ir_val ir_const(ir_func *f, unsigned width, ir_u128 k)
{
    if ((width != 1 && width != 64 && width != 128) || k > ir_width_max(width)) {
        fail(f, "constant does not fit u%u", width);
        return IR_NOVAL;
    }
    for (uint32_t i = 0; i < f->nval; i++)
        if (f->val[i].is_const && f->val[i].width == width && f->val[i].k == k)
            return i;
    ir_val v = new_value(f, width);
    if (v == IR_NOVAL) {
        fail(f, "out of memory");
        return IR_NOVAL;
    }
    f->val[v].is_const = true;
    f->val[v].k = f->val[v].lo = f->val[v].hi = k;
    char buf[40];
    snprintf(f->val[v].name, IR_NAME_MAX, "%s", ir_u128_hex(k, buf));
    return v;
}

void ir_set_name(ir_func *f, ir_val v, const char *name)
{
    snprintf(f->val[v].name, IR_NAME_MAX, "%s", name);
}

/* ---- operand rules --------------------------------------------------------------------------------------------- */

int ir_op_nargs(ir_op op)
{
    switch (op) {
    case IR_LOAD: return 0;
    case IR_STORE: case IR_CAST: case IR_NOT: case IR_LNOT: return 1;
    case IR_ADDCARRYX: case IR_SUBBORROWX: case IR_CMOVZNZ: case IR_SHRD: return 3;
    default: return 2;
    }
}

int ir_op_nres(ir_op op)
{
    switch (op) {
    case IR_STORE: return 0;
    case IR_MULX: case IR_ADDCARRYX: case IR_SUBBORROWX: return 2;
    default: return 1;
    }
}

static const char *vname(const ir_func *f, ir_val v)
{
    return v < f->nval ? f->val[v].name : "?";
}

/* Bounds of one node's results from its operands' bounds; sets overflow flags. Never fails. */
static void node_bounds(ir_func *f, ir_node *n)
{
    ir_value *r0 = n->nres > 0 ? &f->val[n->res[0]] : NULL;
    ir_value *r1 = n->nres > 1 ? &f->val[n->res[1]] : NULL;
    const ir_value *a = n->nargs > 0 ? &f->val[n->arg[0]] : NULL;
    const ir_value *b = n->nargs > 1 ? &f->val[n->arg[1]] : NULL;
    const ir_value *c = n->nargs > 2 ? &f->val[n->arg[2]] : NULL;
    ir_u128 lo = 0, hi = 0, max = r0 ? ir_width_max(r0->width) : 0, t;
    bool ovf = false;
    if (r0)
        r0->overflow = false;
    if (r1)
        r1->overflow = false;
    switch ((ir_op)n->op) {
    case IR_LOAD:
        r0->lo = f->arr[n->arr].lo[n->limb];
        r0->hi = f->arr[n->arr].hi[n->limb];
        return;
    case IR_STORE:
        return;
    case IR_CAST:
        if (a->hi <= max)
            lo = a->lo, hi = a->hi;
        else
            lo = 0, hi = max;
        break;
    case IR_ADD:
        if (__builtin_add_overflow(a->hi, b->hi, &hi) || hi > max)
            ovf = true, lo = 0, hi = max;
        else
            lo = a->lo + b->lo;
        break;
    case IR_SUB:
        if (a->lo < b->hi)
            ovf = true, lo = 0, hi = max;
        else
            lo = a->lo - b->hi, hi = a->hi - b->lo;
        if (hi > max)
            ovf = true, lo = 0, hi = max;
        break;
    case IR_MUL:
        if (__builtin_mul_overflow(a->hi, b->hi, &hi) || hi > max)
            ovf = true, lo = 0, hi = max;
        else
            lo = a->lo * b->lo;
        break;
    case IR_SHL: {
        unsigned k = (unsigned)b->k;
        if (k >= 128 || (k > 0 && (a->hi >> (128 - k)) != 0) || (a->hi << k) > max)
            ovf = true, lo = 0, hi = max;
        else
            lo = a->lo << k, hi = a->hi << k;
        break;
    }
    case IR_SHR: {
        unsigned k = (unsigned)b->k;
        lo = k >= 128 ? 0 : a->lo >> k;
        hi = k >= 128 ? 0 : a->hi >> k;
        if (hi > max) /* a shift into a narrower type that drops bits: not one of the wrapping operations */
            ovf = true, lo = 0, hi = max;
        break;
    }
    case IR_AND:
        lo = 0;
        hi = a->hi < b->hi ? a->hi : b->hi;
        if (a->is_const && b->is_const)
            lo = hi = a->k & b->k & max; /* the result is reduced mod 2^w: a narrowing & of constants too */
        if (hi > max)
            lo = 0, hi = max;
        break;
    case IR_OR:
    case IR_XOR:
        t = a->hi > b->hi ? a->hi : b->hi;
        hi = 0;
        while (hi < t)
            hi = (hi << 1) | 1;
        lo = (n->op == IR_OR) ? (a->lo > b->lo ? a->lo : b->lo) : 0;
        if (hi > max)
            ovf = true, lo = 0, hi = max;
        break;
    case IR_NOT:
        if (a->hi <= max)
            lo = max - a->hi, hi = max - a->lo;
        else
            lo = 0, hi = max;
        break;
    case IR_LNOT:
        lo = a->lo == 0 && a->hi == 0 ? 1 : 0;
        hi = a->lo == 0 ? 1 : 0;
        break;
    case IR_MULX: {
        ir_u128 plo = a->lo * b->lo, phi = a->hi * b->hi; /* operands are at most 64 bits: no wrap */
        ir_u128 m = ir_width_max(n->size);
        if (a->hi > m || b->hi > m) { /* an operand wider than s bits: hi would not fit (ir.h) */
            ovf = true;
            plo = 0, phi = m * m;
        }
        if (phi <= m)
            lo = plo, hi = phi;
        else
            lo = 0, hi = m;
        r1->lo = plo >> n->size;
        r1->hi = phi >> n->size;
        break;
    }
    case IR_ADDCARRYX:
    case IR_SUBBORROWX: {
        ir_u128 m = ir_width_max(n->size);
        /* args: c, a, b (fiat order): operands at most 64 bits, so nothing below wraps in 128 bits. An operand
         * wider than s bits would lose bits (a carry of 2, a borrow that is not the sign): an overflow. */
        if (b->hi > m || c->hi > m)
            ovf = true;
        if (n->op == IR_ADDCARRYX) {
            ir_u128 slo = a->lo + b->lo + c->lo, shi = a->hi + b->hi + c->hi;
            if (shi <= m)
                lo = slo, hi = shi;
            else
                lo = 0, hi = m;
            r1->lo = slo >> n->size;
            r1->hi = shi >> n->size;
            if (r1->hi > 1)
                r1->hi = 1;
        } else {
            ir_u128 sub_hi = c->hi + a->hi, sub_lo = c->lo + a->lo; /* subtrahend: b + borrow-in */
            if (b->lo >= sub_hi) {
                lo = b->lo - sub_hi, hi = b->hi - sub_lo;
                r1->lo = r1->hi = 0;
            } else if (b->hi < sub_lo) {
                /* always negative: 2^s + (b - sub) */
                lo = (m + 1) - (sub_hi - b->lo), hi = (m + 1) - (sub_lo - b->hi);
                r1->lo = r1->hi = 1;
                if (sub_hi - b->lo > m + 1)
                    lo = 0, hi = m;
            } else {
                lo = 0, hi = m;
                r1->lo = 0, r1->hi = 1;
            }
        }
        break;
    }
    case IR_CMOVZNZ:
        if (a->lo == a->hi)
            lo = (a->lo == 0 ? b : c)->lo, hi = (a->lo == 0 ? b : c)->hi;
        else
            lo = b->lo < c->lo ? b->lo : c->lo, hi = b->hi > c->hi ? b->hi : c->hi;
        if (hi > max)
            ovf = true, lo = 0, hi = max;
        break;
    case IR_SHRD: {
        unsigned k = (unsigned)c->k;
        ir_u128 vlo = (a->lo << 64) | b->lo, vhi = (a->hi << 64) | b->hi;
        if (a->lo == a->hi)
            ; /* hi word fixed: the 128-bit interval is exact */
        else
            vlo = a->lo << 64, vhi = (a->hi << 64) | ir_width_max(64);
        lo = vlo >> k, hi = vhi >> k;
        if (hi > max)
            lo = 0, hi = max;
        break;
    }
    default:
        break;
    }
    r0->lo = lo;
    r0->hi = hi;
    r0->overflow = ovf;
    if (ovf && r1) { /* the second result's bounds mean nothing then; keep them within its type */
        r1->lo = 0;
        r1->hi = ir_width_max(r1->width);
    }
}

static int check_operands(ir_func *f, ir_op op, unsigned width, unsigned size, const ir_val *args, unsigned nargs)
{
    const char *on = ir_op_name(op);
    if ((unsigned)op >= IR_NOPS)
        return fail(f, "unknown operation %d", (int)op);
    if ((int)nargs != ir_op_nargs(op))
        return fail(f, "%s takes %d operands, got %u", on, ir_op_nargs(op), nargs);
    for (unsigned i = 0; i < nargs; i++)
        if (args[i] >= f->nval)
            return fail(f, "%s: operand %u is not a value", on, i + 1);
    if (op != IR_STORE && width != 1 && width != 64 && width != 128)
        return fail(f, "%s: result type u%u (u1, u64 or u128 allowed)", on, width);
    switch (op) {
    case IR_SHL:
    case IR_SHR:
        if (nargs < 2) /* unreachable (checked above); lets gcc -O3 see the bound (-Warray-bounds) */
            break;
        if (!f->val[args[1]].is_const)
            return fail(f, "%s: the shift amount %s is not a constant", on, vname(f, args[1]));
        if (f->val[args[1]].k >= f->val[args[0]].width && f->val[args[1]].k >= width)
            return fail(f, "%s: shift amount %u is not below the operand width", on, (unsigned)f->val[args[1]].k);
        break;
    case IR_SHRD:
        if (nargs < 3) /* unreachable, as above */
            break;
        if (width != 64)
            return fail(f, "shrd: result must be u64");
        if (!f->val[args[2]].is_const || f->val[args[2]].k >= 64)
            return fail(f, "shrd: the shift amount must be a constant below 64");
        if (f->val[args[0]].width > 64 || f->val[args[1]].width > 64)
            return fail(f, "shrd: operands must be at most 64 bits");
        break;
    case IR_MULX:
    case IR_ADDCARRYX:
    case IR_SUBBORROWX:
        if (size < 1 || size > 64)
            return fail(f, "%s: size %u (1 to 64 allowed)", on, size);
        if (width != 64)
            return fail(f, "%s: first result must be u64", on);
        for (unsigned i = 0; i < nargs; i++)
            if (f->val[args[i]].width > 64)
                return fail(f, "%s: operand %s is u128", on, vname(f, args[i]));
        if (op != IR_MULX && f->val[args[0]].width != 1 && f->val[args[0]].hi > 1)
            return fail(f, "%s: carry operand %s can exceed 1", on, vname(f, args[0]));
        break;
    case IR_CMOVZNZ:
        break;
    case IR_STORE:
        break;
    default:
        break;
    }
    return 0;
}

int ir_emit(ir_func *f, ir_op op, unsigned width, unsigned size, const ir_val *args, unsigned nargs, ir_val *res,
            const char *const *names)
{
    if (check_operands(f, op, width, size, args, nargs) < 0)
        return -1;
    if (f->nnode == f->capnode) {
        uint32_t cap = f->capnode ? 2 * f->capnode : 128;
        ir_node *nn = realloc(f->node, cap * sizeof *nn);
        if (!nn)
            return fail(f, "out of memory");
        f->node = nn;
        f->capnode = cap;
    }
    ir_node *n = &f->node[f->nnode];
    memset(n, 0, sizeof *n);
    n->op = (uint8_t)op;
    n->nargs = (uint8_t)nargs;
    n->nres = (uint8_t)ir_op_nres(op);
    n->size = (op == IR_MULX || op == IR_ADDCARRYX || op == IR_SUBBORROWX) ? (uint8_t)size : 0;
    n->arg[0] = n->arg[1] = n->arg[2] = IR_NOVAL;
    n->res[0] = n->res[1] = IR_NOVAL;
    for (unsigned i = 0; i < nargs; i++)
        n->arg[i] = args[i];
    for (unsigned i = 0; i < n->nres; i++) {
        unsigned w = i == 0 ? width : (op == IR_MULX ? 64 : 1);
        ir_val v = new_value(f, w);
        if (v == IR_NOVAL)
            return fail(f, "out of memory");
        n = &f->node[f->nnode];
        n->res[i] = v;
        f->val[v].node = f->nnode;
        f->val[v].slot = (uint8_t)i;
        if (names && names[i] && names[i][0])
            snprintf(f->val[v].name, IR_NAME_MAX, "%s", names[i]);
        else
            snprintf(f->val[v].name, IR_NAME_MAX, "t%u", v);
        if (res)
            res[i] = v;
    }
    f->nnode++;
    node_bounds(f, n);
    return 0;
}

ir_val ir_load(ir_func *f, uint32_t arr, uint32_t limb, const char *name)
{
    if (arr >= f->narr || f->arr[arr].is_output || limb >= f->arr[arr].len) {
        fail(f, "load: no input limb %u[%u]", arr, limb);
        return IR_NOVAL;
    }
    ir_val r;
    const char *names[1] = { name };
    /* ir_emit fills arr/limb after the fact: do it by hand so bounds see them */
    if (f->nnode == f->capnode) {
        uint32_t cap = f->capnode ? 2 * f->capnode : 128;
        ir_node *nn = realloc(f->node, cap * sizeof *nn);
        if (!nn) {
            fail(f, "out of memory");
            return IR_NOVAL;
        }
        f->node = nn;
        f->capnode = cap;
    }
    r = new_value(f, 64);
    if (r == IR_NOVAL) {
        fail(f, "out of memory");
        return IR_NOVAL;
    }
    ir_node *n = &f->node[f->nnode];
    memset(n, 0, sizeof *n);
    n->op = IR_LOAD;
    n->nres = 1;
    n->arr = arr;
    n->limb = limb;
    n->arg[0] = n->arg[1] = n->arg[2] = IR_NOVAL;
    n->res[0] = r;
    n->res[1] = IR_NOVAL;
    f->val[r].node = f->nnode;
    if (names[0] && names[0][0])
        snprintf(f->val[r].name, IR_NAME_MAX, "%s", names[0]);
    else
    {
        char nm[IR_NAME_MAX + 16];
        snprintf(nm, sizeof nm, "%s_%u", f->arr[arr].name, limb);
        snprintf(f->val[r].name, IR_NAME_MAX, "%.*s", IR_NAME_MAX - 1, nm);
    }
    f->nnode++;
    node_bounds(f, n);
    return r;
}

int ir_store(ir_func *f, uint32_t arr, uint32_t limb, ir_val v)
{
    if (arr >= f->narr || !f->arr[arr].is_output || limb >= f->arr[arr].len)
        return fail(f, "store: no output limb %u[%u]", arr, limb);
    if (v >= f->nval)
        return fail(f, "store: not a value");
    if (f->val[v].width > 64)
        return fail(f, "store %s[%u]: value %s is u128", f->arr[arr].name, limb, vname(f, v));
    if (ir_emit(f, IR_STORE, 64, 0, &v, 1, NULL, NULL) < 0)
        return -1;
    f->node[f->nnode - 1].arr = arr;
    f->node[f->nnode - 1].limb = limb;
    return 0;
}

ir_val ir_op1(ir_func *f, ir_op op, unsigned width, ir_val a, const char *name)
{
    ir_val r[2];
    const char *names[2] = { name, NULL };
    return ir_emit(f, op, width, 0, &a, 1, r, names) < 0 ? IR_NOVAL : r[0];
}

ir_val ir_op2(ir_func *f, ir_op op, unsigned width, ir_val a, ir_val b, const char *name)
{
    ir_val r[2], args[2] = { a, b };
    const char *names[2] = { name, NULL };
    return ir_emit(f, op, width, 0, args, 2, r, names) < 0 ? IR_NOVAL : r[0];
}

ir_val ir_op3(ir_func *f, ir_op op, unsigned width, ir_val a, ir_val b, ir_val c, const char *name)
{
    ir_val r[2], args[3] = { a, b, c };
    const char *names[2] = { name, NULL };
    return ir_emit(f, op, width, 0, args, 3, r, names) < 0 ? IR_NOVAL : r[0];
}

/* ---- validation and bounds ------------------------------------------------------------------------------------- */

static void describe_node(const ir_func *f, uint32_t i, char *buf, size_t len)
{
    const ir_node *n = &f->node[i];
    int o = 0;
    if (n->nres)
        o += snprintf(buf + o, len - (size_t)o, "%s%s%s = ", vname(f, n->res[0]), n->nres > 1 ? ", " : "",
                      n->nres > 1 ? vname(f, n->res[1]) : "");
    o += snprintf(buf + o, len - (size_t)o, "%s", ir_op_name((ir_op)n->op));
    if (n->op == IR_LOAD || n->op == IR_STORE)
        o += snprintf(buf + o, len - (size_t)o, " %s[%u]", f->arr[n->arr].name, n->limb);
    for (unsigned k = 0; k < n->nargs && o < (int)len; k++)
        o += snprintf(buf + o, len - (size_t)o, "%s %s", k ? "," : "", vname(f, n->arg[k]));
}

/* The metadata says what the function computes; emitters print it as a formula and `call` trusts a Montgomery
 * function's "outputs < p". So it must at least be coherent: a prime that is an expression (its value is checked
 * where GMP is at hand: gen, the tests, the ecopt command), the kind's number of inputs, the limb widths' count. */
static int validate_metadata(ir_func *f)
{
    uint32_t nin = 0, nout = 0, len = 0;
    int depth = 0;
    for (uint32_t i = 0; i < f->narr; i++) {
        if (f->arr[i].is_output)
            nout++;
        else
            nin++;
        if (i == 0)
            len = f->arr[i].len;
    }
    for (const char *c = f->prime; *c; c++) {
        if (*c == '(')
            depth++;
        else if (*c == ')') {
            if (--depth < 0)
                break;
        } else if (!strchr("0123456789abcdefABCDEFxX+-*^ ", *c))
            return fail(f, "prime `%s`: `%c` is not part of an integer expression", f->prime, *c);
    }
    if (depth != 0)
        return fail(f, "prime `%s`: unbalanced parentheses", f->prime);
    if ((f->kind != IR_KIND_NONE || f->pre_lt_p) && !f->prime[0])
        return fail(f, "kind %s or `require inputs < p` needs a prime", ir_kind_name(f->kind));
    if (f->kind != IR_KIND_NONE) {
        unsigned want = (f->kind == IR_KIND_MUL || f->kind == IR_KIND_ADD || f->kind == IR_KIND_SUB) ? 2 : 1;
        if (nin != want || nout != 1)
            return fail(f, "kind %s takes %u input array%s and gives 1 output array; this function has %u and %u",
                        ir_kind_name(f->kind), want, want > 1 ? "s" : "", nin, nout);
        for (uint32_t i = 0; i < f->narr; i++)
            if (f->arr[i].len != len)
                return fail(f, "kind %s: array %s has %u limbs, %s has %u", ir_kind_name(f->kind), f->arr[i].name,
                            f->arr[i].len, f->arr[0].name, len);
        if (f->repr == IR_REPR_RADIX && f->nlimbw != len)
            return fail(f, "repr radix gives %u limb widths for %u limbs", f->nlimbw, len);
    }
    return 0;
}

int ir_validate(ir_func *f)
{
    char d[200];
    if (validate_metadata(f) < 0)
        return -1;
    uint8_t *defined = calloc(f->nval ? f->nval : 1, 1);
    if (!defined)
        return fail(f, "out of memory");
    for (uint32_t v = 0; v < f->nval; v++)
        defined[v] = f->val[v].is_const;
    int rc = 0;
    uint32_t stored_total = 0, want_total = 0;
    for (uint32_t i = 0; i < f->narr && !rc; i++)
        if (f->arr[i].is_output)
            want_total += f->arr[i].len;
    uint8_t *stored = calloc(64 * 64, 1);
    if (!stored) {
        free(defined);
        return fail(f, "out of memory");
    }
    for (uint32_t i = 0; i < f->nnode && !rc; i++) {
        const ir_node *n = &f->node[i];
        describe_node(f, i, d, sizeof d);
        for (unsigned k = 0; k < n->nargs; k++)
            if (n->arg[k] >= f->nval || !defined[n->arg[k]]) {
                rc = fail(f, "node %u (%s): operand %u used before it is defined", i, d, k + 1);
                break;
            }
        if (rc)
            break;
        if (n->op == IR_LOAD && (n->arr >= f->narr || f->arr[n->arr].is_output || n->limb >= f->arr[n->arr].len))
            rc = fail(f, "node %u (%s): load out of range", i, d);
        if (n->op == IR_STORE) {
            if (n->arr >= f->narr || !f->arr[n->arr].is_output || n->limb >= f->arr[n->arr].len)
                rc = fail(f, "node %u (%s): store out of range", i, d);
            else if (stored[n->arr * 64 + n->limb]++)
                rc = fail(f, "node %u (%s): %s[%u] stored twice", i, d, f->arr[n->arr].name, n->limb);
            else
                stored_total++;
        }
        for (unsigned k = 0; k < n->nres; k++) {
            if (n->res[k] >= f->nval || f->val[n->res[k]].node != i || defined[n->res[k]]) {
                rc = fail(f, "node %u (%s): result %u is not an SSA value of this node", i, d, k + 1);
                break;
            }
            defined[n->res[k]] = 1;
        }
    }
    if (!rc && stored_total != want_total) {
        for (uint32_t a = 0; a < f->narr; a++)
            for (uint32_t l = 0; f->arr[a].is_output && l < f->arr[a].len; l++)
                if (!stored[a * 64 + l]) {
                    rc = fail(f, "output %s[%u] is never stored", f->arr[a].name, l);
                    goto out;
                }
    }
out:
    free(stored);
    free(defined);
    return rc;
}

int ir_bounds(ir_func *f)
{
    char d[200], b1[40], b2[40];
    int rc = 0;
    for (uint32_t i = 0; i < f->nnode; i++) {
        ir_node *n = &f->node[i];
        node_bounds(f, n);
        if (rc)
            continue;
        if (n->nres && f->val[n->res[0]].overflow) {
            const ir_value *r = &f->val[n->res[0]];
            char ops[3 * 40 + 16] = "";
            size_t o = 0;
            for (unsigned k = 0; k < n->nargs; k++)
                o += (size_t)snprintf(ops + o, sizeof ops - o, "%s%s", k ? (k + 1 == n->nargs ? " and " : ", ") : "",
                                      ir_u128_hex(f->val[n->arg[k]].hi, b1));
            describe_node(f, i, d, sizeof d);
            rc = fail(f, "node %u (%s): the u%u result can overflow (operands up to %s): overflow", i, d, r->width, ops);
        } else if (n->op == IR_STORE) {
            const ir_array *a = &f->arr[n->arr];
            const ir_value *v = &f->val[n->arg[0]];
            if (v->hi > a->hi[n->limb])
                rc = fail(f, "output %s[%u] = %s can reach %s, above its declared bound %s", a->name, n->limb,
                          v->name, ir_u128_hex(v->hi, b1), ir_u128_hex(a->hi[n->limb], b2));
            else if (v->lo < a->lo[n->limb])
                rc = fail(f, "output %s[%u] = %s can be as low as %s, below its declared bound %s", a->name,
                          n->limb, v->name, ir_u128_hex(v->lo, b1), ir_u128_hex(a->lo[n->limb], b2));
        }
    }
    return rc;
}

uint32_t ir_count_ops(const ir_func *f)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < f->nnode; i++)
        c += f->node[i].op != IR_LOAD && f->node[i].op != IR_STORE;
    return c;
}

/* ---- interpreter ------------------------------------------------------------------------------------------------ */

int ir_eval(const ir_func *f, const uint64_t *const *in, uint64_t *const *out)
{
    ir_u128 *x = malloc((f->nval ? f->nval : 1) * sizeof *x);
    if (!x)
        return -1;
    for (uint32_t v = 0; v < f->nval; v++)
        x[v] = f->val[v].is_const ? f->val[v].k : 0;
    for (uint32_t i = 0; i < f->nnode; i++) {
        const ir_node *n = &f->node[i];
        ir_u128 a = n->nargs > 0 ? x[n->arg[0]] : 0, b = n->nargs > 1 ? x[n->arg[1]] : 0;
        ir_u128 c = n->nargs > 2 ? x[n->arg[2]] : 0, r = 0, r1 = 0;
        ir_u128 max = n->nres ? ir_width_max(f->val[n->res[0]].width) : 0;
        ir_u128 sm = ir_width_max(n->size);
        switch ((ir_op)n->op) {
        case IR_LOAD: r = in[n->arr][n->limb]; break;
        case IR_STORE: out[n->arr][n->limb] = (uint64_t)a; continue;
        case IR_CAST: r = a; break;
        case IR_ADD: r = a + b; break;
        case IR_SUB: r = a - b; break;
        case IR_MUL: r = a * b; break;
        case IR_SHL: r = b >= 128 ? 0 : a << b; break;
        case IR_SHR: r = b >= 128 ? 0 : a >> b; break;
        case IR_AND: r = a & b; break;
        case IR_OR: r = a | b; break;
        case IR_XOR: r = a ^ b; break;
        case IR_NOT: r = ~a; break;
        case IR_LNOT: r = a == 0; break;
        case IR_MULX: {
            ir_u128 p = a * b;
            r = p & sm;
            r1 = p >> n->size;
            break;
        }
        case IR_ADDCARRYX: {
            ir_u128 s = a + b + c; /* c_in + a + b: 64-bit operands, no 128-bit wrap */
            r = s & sm;
            r1 = (s >> n->size) & 1;
            break;
        }
        case IR_SUBBORROWX: {
            ir_u128 sub = c + a; /* b - c - borrow */
            r = (b - sub) & sm;
            r1 = b < sub;
            break;
        }
        case IR_CMOVZNZ: r = a == 0 ? b : c; break;
        case IR_SHRD: r = ((a << 64) | b) >> (unsigned)c; break;
        default: break;
        }
        x[n->res[0]] = r & max;
        if (n->nres > 1)
            x[n->res[1]] = r1 & ir_width_max(f->val[n->res[1]].width);
    }
    free(x);
    return 0;
}

/* ---- dead code ---------------------------------------------------------------------------------------------------- */

void ir_dce(ir_func *f)
{
    uint8_t *live = calloc(f->nval ? f->nval : 1, 1);
    uint8_t *keep = calloc(f->nnode ? f->nnode : 1, 1);
    if (!live || !keep) {
        free(live);
        free(keep);
        return;
    }
    for (uint32_t i = f->nnode; i-- > 0;) {
        ir_node *n = &f->node[i];
        bool k = n->op == IR_STORE;
        for (unsigned j = 0; j < n->nres; j++)
            k = k || live[n->res[j]];
        if (!k)
            continue;
        keep[i] = 1;
        for (unsigned j = 0; j < n->nargs; j++)
            live[n->arg[j]] = 1;
    }
    /* compact nodes; values stay (unreferenced ones are harmless) but their node index is renumbered */
    uint32_t o = 0;
    for (uint32_t i = 0; i < f->nnode; i++) {
        if (!keep[i]) {
            for (unsigned j = 0; j < f->node[i].nres; j++)
                f->val[f->node[i].res[j]].node = IR_NOVAL;
            continue;
        }
        f->node[o] = f->node[i];
        for (unsigned j = 0; j < f->node[o].nres; j++)
            f->val[f->node[o].res[j]].node = o;
        o++;
    }
    f->nnode = o;
    free(live);
    free(keep);
}
