/* fiat_json.c — the fiat-crypto JSON reader: ir_fiat_load (ir/ir.h).
 *
 * The format is fiat-crypto's ad-hoc JSON (../shared/fiat-json/FORMAT.md): a list of functions, each with
 * "arguments" and "returns" (typed, with per-limb lbound/ubound) and a "body" of statements; a statement is an
 * expression object {datatype, name, operation, [parameters], arguments} whose arguments are names, literals or
 * nested unnamed expressions. The mapping to the IR:
 *   - arrays: every return first (fiat's out1; it may alias every input), then every argument (arg1, arg2), each a
 *     u64[n] limb array with its bounds;
 *   - `arg1[3]` read as an operand is a load (one per limb, made at its first use, named arg1_3); `out1[2]` as a
 *     statement's name is a store;
 *   - `static_cast` and `=` between widths are IR_CAST; to the same width they make no node (the same value under
 *     a new name); `>> << & | ^ ~ ! + - *`, mulx/addcarryx/subborrowx (parameters.size) and cmovznz map to the IR
 *     operation of the same meaning; literals are constants of their context's width (shift amounts are u64);
 *   - names: x<N> is a variable (SSA: assigned once), `_` an unused result; unnamed sub-expressions get fresh
 *     names from ir_emit (t<N>).
 * Only the field operations are loaded (mul, square, carry_mul, carry_square, carry, add, sub, opp,
 * to_montgomery, from_montgomery); the prime and limb layout come from ir/fiat_table.c, keyed by the file name.
 * Anything else is refused with one line naming the function, the statement (its 0-based index in "body") and the
 * construct. The loaded function passes ir_validate and ir_bounds, or the load fails with their message. */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/fiat_table.h"
#include "ir/ir.h"

#define MAX_VAR (1u << 22) /* x<N>: N below this */

typedef struct {
    ir_func *f;
    const fiat_table_entry *te;
    char fname[300];              /* the function's (or the file's) name, printable, for messages */
    long stmt;                    /* index in "body" of the statement being read, -1 outside the body */
    char *err;
    size_t errlen;
    ir_val *var;                  /* x<N> -> value, IR_NOVAL when not (yet) assigned */
    uint32_t nvar;
    ir_val *load;                 /* [arr * 64 + limb]: the load of an input limb, IR_NOVAL before its first use */
    uint8_t *stored;              /* [arr * 64 + limb]: output limb already assigned */
    uint32_t stmt_first_val;      /* values from this index on were made by the current statement */
} loader;

/* show — s made printable for a one-line message: control and non-ASCII bytes, quotes and backslashes as \xNN,
 * cut after 64 bytes. */
static const char *show(const char *s, char *buf, size_t len)
{
    size_t o = 0;
    if (!s)
        s = "(null)";
    for (size_t i = 0; s[i] && o + 8 < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i == 64) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
            o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
        else
            buf[o++] = (char)c;
    }
    buf[o] = 0;
    return buf;
}

static int lerr(loader *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int lerr(loader *L, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (L->stmt >= 0)
        snprintf(L->err, L->errlen, "%s: statement %ld: %s", L->fname, L->stmt, msg);
    else
        snprintf(L->err, L->errlen, "%s: %s", L->fname, msg);
    return -1;
}

/* ---- names and types ------------------------------------------------------------------------------------------ */

/* parse_var — "x<N>" (N decimal without leading zeros) into *n; false for anything else. */
static bool parse_var(const char *s, uint32_t *n)
{
    if (s[0] != 'x' || s[1] < '0' || s[1] > '9' || (s[1] == '0' && s[2]))
        return false;
    uint64_t v = 0;
    for (const char *p = s + 1; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        v = v * 10 + (uint64_t)(*p - '0');
        if (v >= MAX_VAR)
            return false;
    }
    *n = (uint32_t)v;
    return true;
}

static bool is_ident(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

/* parse_limb — "name[i]" into the array name (buf, size IR_NAME_MAX) and i; false if s is not of that form. */
static bool parse_limb(const char *s, char *name, uint32_t *limb)
{
    const char *br = strchr(s, '[');
    size_t n = br ? (size_t)(br - s) : 0;
    if (!br || n == 0 || n >= IR_NAME_MAX)
        return false;
    memcpy(name, s, n);
    name[n] = 0;
    if (!is_ident(name))
        return false;
    uint64_t v = 0;
    const char *p = br + 1;
    if (*p < '0' || *p > '9')
        return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > 1000000)
            return false;
    }
    if (p[0] != ']' || p[1])
        return false;
    *limb = (uint32_t)v;
    return true;
}

/* scalar_type — the width of type dt: 1, 64 or 128, 0 for "(auto)"; -1 with the error for any other type. */
static int scalar_type(loader *L, const char *dt)
{
    char b[300];
    if (!strcmp(dt, "u1"))
        return 1;
    if (!strcmp(dt, "u64"))
        return 64;
    if (!strcmp(dt, "u128"))
        return 128;
    if (!strcmp(dt, "(auto)"))
        return 0;
    if (strchr(dt, '['))
        return lerr(L, "type \"%s\" (an array) in an expression is not supported", show(dt, b, sizeof b));
    return lerr(L, "type \"%s\" is not supported (only u1, u64 and u128)", show(dt, b, sizeof b));
}

/* ---- operands ------------------------------------------------------------------------------------------------- */

static int literal(loader *L, const char *s, unsigned width, ir_val *out)
{
    char b[300];
    ir_u128 k;
    if (ir_u128_parse(s, &k) < 0)
        return lerr(L, "literal \"%s\" is not a decimal or 0x hex number below 2^128", show(s, b, sizeof b));
    if (width == 0)
        return lerr(L, "the type of literal %s cannot be inferred (type \"(auto)\")", show(s, b, sizeof b));
    if (k > ir_width_max(width))
        return lerr(L, "literal %s does not fit its type u%u", show(s, b, sizeof b), width);
    *out = ir_const(L->f, width, k);
    return *out == IR_NOVAL ? lerr(L, "%s", L->f->err) : 0;
}

/* lookup — the value that operand name s stands for (loading an input limb at its first use). */
static int lookup(loader *L, const char *s, ir_val *out)
{
    char b[300], an[IR_NAME_MAX];
    uint32_t n, limb;
    if (!strcmp(s, "_"))
        return lerr(L, "the unused name \"_\" is read as an operand");
    if (s[0] == '&')
        return lerr(L, "name \"%s\" (a reference) is not supported", show(s, b, sizeof b));
    if (s[0] == '*')
        return lerr(L, "name \"%s\" (a dereference) is not supported", show(s, b, sizeof b));
    if (parse_var(s, &n)) {
        if (n >= L->nvar || L->var[n] == IR_NOVAL)
            return lerr(L, "variable %s is used before it is defined", s);
        *out = L->var[n];
        return 0;
    }
    if (parse_limb(s, an, &limb)) {
        int a = ir_array_find(L->f, an);
        if (a < 0)
            return lerr(L, "%s: no array named %s", show(s, b, sizeof b), an);
        if (L->f->arr[a].is_output)
            return lerr(L, "%s reads an output (outputs are only written)", show(s, b, sizeof b));
        if (limb >= L->f->arr[a].len)
            return lerr(L, "%s is beyond the %u limbs of %s", show(s, b, sizeof b), L->f->arr[a].len, an);
        ir_val *slot = &L->load[(uint32_t)a * 64 + limb];
        if (*slot == IR_NOVAL) {
            *slot = ir_load(L->f, (uint32_t)a, limb, NULL);
            if (*slot == IR_NOVAL)
                return lerr(L, "%s", L->f->err);
        }
        *out = *slot;
        return 0;
    }
    return lerr(L, "name \"%s\" is not a variable (x<N>), an input limb or a literal", show(s, b, sizeof b));
}

static int eval_expr(loader *L, const cJSON *e, bool top, ir_val res[IR_MAX_RES], unsigned *nres, unsigned *width);

/* eval_arg — argument a (a name, a literal of width litw, or a nested unnamed expression) as one value. */
static int eval_arg(loader *L, const cJSON *a, unsigned litw, unsigned pos, ir_val *out)
{
    if (cJSON_IsString(a)) {
        const char *s = a->valuestring;
        if (s[0] >= '0' && s[0] <= '9')
            return literal(L, s, litw, out);
        return lookup(L, s, out);
    }
    if (cJSON_IsObject(a)) {
        ir_val r[IR_MAX_RES];
        unsigned nr, w;
        if (eval_expr(L, a, false, r, &nr, &w) < 0)
            return -1;
        *out = r[0];
        return 0;
    }
    return lerr(L, "argument %u is neither a name, a literal (a string) nor an expression (an object)", pos + 1);
}

/* ---- expressions ------------------------------------------------------------------------------------------------ */

static const struct {
    const char *s;
    ir_op op;
    unsigned nargs;
} ops[] = {
    { "static_cast", IR_CAST, 1 }, { "=", IR_CAST, 1 },       { ">>", IR_SHR, 2 },          { "<<", IR_SHL, 2 },
    { "&", IR_AND, 2 },            { "|", IR_OR, 2 },         { "^", IR_XOR, 2 },           { "~", IR_NOT, 1 },
    { "!", IR_LNOT, 1 },           { "+", IR_ADD, 2 },        { "-", IR_SUB, 2 },           { "*", IR_MUL, 2 },
    { "mulx", IR_MULX, 2 },        { "addcarryx", IR_ADDCARRYX, 3 }, { "subborrowx", IR_SUBBORROWX, 3 },
    { "cmovznz", IR_CMOVZNZ, 3 },
};

/* size_param — parameters.size of mulx/addcarryx/subborrowx: a number or numeric string in 1..64. */
static int size_param(loader *L, const cJSON *e, const char *on, unsigned *size)
{
    char b[300];
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, "parameters");
    const cJSON *s = cJSON_IsObject(p) ? cJSON_GetObjectItemCaseSensitive(p, "size") : NULL;
    double d;
    if (cJSON_IsNumber(s)) {
        d = s->valuedouble;
    } else if (cJSON_IsString(s)) {
        ir_u128 k;
        if (ir_u128_parse(s->valuestring, &k) < 0)
            return lerr(L, "%s: size parameter \"%s\" is not a number", on, show(s->valuestring, b, sizeof b));
        d = k > 1000 ? 1000.0 : (double)k;
    } else {
        return lerr(L, "%s has no size parameter (parameters.size)", on);
    }
    if (!(d >= 1 && d <= 64) || d != (double)(unsigned)d)
        return lerr(L, "%s: size parameter %g is not an integer in 1..64", on, d);
    *size = (unsigned)d;
    return 0;
}

/* eval_expr — one expression object: its results (1, or 2 for mulx/addcarryx/subborrowx) and the width of the
 * first. A top-level statement's names are bound by the caller; a nested expression must be unnamed and single. */
static int eval_expr(loader *L, const cJSON *e, bool top, ir_val res[IR_MAX_RES], unsigned *nres, unsigned *width)
{
    char b[300];
    const cJSON *jop = cJSON_GetObjectItemCaseSensitive(e, "operation");
    const cJSON *jdt = cJSON_GetObjectItemCaseSensitive(e, "datatype");
    const cJSON *jargs = cJSON_GetObjectItemCaseSensitive(e, "arguments");
    const cJSON *jnames = cJSON_GetObjectItemCaseSensitive(e, "name");
    if (!cJSON_IsString(jop))
        return lerr(L, "an expression has no \"operation\" string");
    const char *on = jop->valuestring;
    size_t oi;
    for (oi = 0; oi < sizeof ops / sizeof ops[0]; oi++)
        if (!strcmp(ops[oi].s, on))
            break;
    if (oi == sizeof ops / sizeof ops[0])
        return lerr(L, "operation \"%s\" is not supported", show(on, b, sizeof b));
    if (!cJSON_IsString(jdt))
        return lerr(L, "%s has no \"datatype\" string", on);
    if (!cJSON_IsArray(jargs))
        return lerr(L, "%s has no \"arguments\" list", on);
    if (!cJSON_IsArray(jnames))
        return lerr(L, "%s has no \"name\" list", on);
    if (!top && cJSON_GetArraySize(jnames) != 0)
        return lerr(L, "%s: a nested expression with a name is not supported", on);
    ir_op op = ops[oi].op;
    int w = scalar_type(L, jdt->valuestring);
    if (w < 0)
        return -1;
    bool multi = op == IR_MULX || op == IR_ADDCARRYX || op == IR_SUBBORROWX;
    unsigned size = 0;
    if (multi) {
        if (w != 0 && w != 64)
            return lerr(L, "%s with type u%d (its first result is u64)", on, w);
        if (!top)
            return lerr(L, "%s inside an expression is not supported (it has two results)", on);
        w = 64;
        if (size_param(L, e, on, &size) < 0)
            return -1;
    } else if (w == 0 && op != IR_CAST) {
        return lerr(L, "%s with type \"(auto)\" is not supported", on);
    }
    int na = cJSON_GetArraySize(jargs);
    if (na != (int)ops[oi].nargs)
        return lerr(L, "operation %s takes %u arguments, not %d", on, ops[oi].nargs, na);

    ir_val args[IR_MAX_ARGS];
    unsigned i = 0;
    for (const cJSON *a = jargs->child; a; a = a->next, i++) {
        unsigned litw = (unsigned)w;
        if ((op == IR_SHR || op == IR_SHL) && i == 1)
            litw = 64;
        else if ((op == IR_ADDCARRYX || op == IR_SUBBORROWX || op == IR_CMOVZNZ) && i == 0)
            litw = 1;
        if (eval_arg(L, a, litw, i, &args[i]) < 0)
            return -1;
    }
    if ((op == IR_SHR || op == IR_SHL) && !L->f->val[args[1]].is_const)
        return lerr(L, "%s: the shift amount %s is not a constant", on, L->f->val[args[1]].name);

    if (op == IR_CAST) {
        unsigned aw = L->f->val[args[0]].width;
        if (w == 0)
            w = (int)aw;
        if (aw == (unsigned)w) { /* same width: no node, the same value */
            res[0] = args[0];
            *nres = 1;
            *width = (unsigned)w;
            return 0;
        }
    }
    if (ir_emit(L->f, op, (unsigned)w, size, args, ops[oi].nargs, res, NULL) < 0)
        return lerr(L, "%s", L->f->err);
    *nres = multi ? 2 : 1;
    *width = (unsigned)w;
    return 0;
}

/* ---- statements ----------------------------------------------------------------------------------------------- */

/* bind — give value v the statement's result name s: a variable, `_`, or an output limb (a store). */
static int bind(loader *L, const char *s, ir_val v)
{
    char b[300], an[IR_NAME_MAX];
    uint32_t n, limb;
    if (!strcmp(s, "_"))
        return 0;
    if (s[0] == '&')
        return lerr(L, "name \"%s\" (a reference) is not supported", show(s, b, sizeof b));
    if (s[0] == '*')
        return lerr(L, "name \"%s\" (a dereference) is not supported", show(s, b, sizeof b));
    if (parse_var(s, &n)) {
        if (n < L->nvar && L->var[n] != IR_NOVAL)
            return lerr(L, "variable %s is assigned twice", s);
        if (n >= L->nvar) {
            uint32_t cap = L->nvar ? L->nvar : 1024;
            while (cap <= n)
                cap *= 2;
            ir_val *nv = realloc(L->var, cap * sizeof *nv);
            if (!nv)
                return lerr(L, "out of memory");
            for (uint32_t i = L->nvar; i < cap; i++)
                nv[i] = IR_NOVAL;
            L->var = nv;
            L->nvar = cap;
        }
        L->var[n] = v;
        /* A value this statement made (not a load, not a constant) takes the variable's name. */
        const ir_value *val = &L->f->val[v];
        if (v >= L->stmt_first_val && !val->is_const && L->f->node[val->node].op != IR_LOAD)
            ir_set_name(L->f, v, s);
        return 0;
    }
    if (parse_limb(s, an, &limb)) {
        int a = ir_array_find(L->f, an);
        if (a < 0)
            return lerr(L, "%s: no array named %s", show(s, b, sizeof b), an);
        if (!L->f->arr[a].is_output)
            return lerr(L, "%s: assigns to an input", show(s, b, sizeof b));
        if (limb >= L->f->arr[a].len)
            return lerr(L, "%s is beyond the %u limbs of %s", show(s, b, sizeof b), L->f->arr[a].len, an);
        if (L->stored[(uint32_t)a * 64 + limb])
            return lerr(L, "output %s is assigned twice", s);
        if (ir_store(L->f, (uint32_t)a, limb, v) < 0)
            return lerr(L, "%s", L->f->err);
        L->stored[(uint32_t)a * 64 + limb] = 1;
        return 0;
    }
    return lerr(L, "name \"%s\" is not a variable (x<N>), \"_\" or an output limb", show(s, b, sizeof b));
}

static int statement(loader *L, const cJSON *st)
{
    if (!cJSON_IsObject(st))
        return lerr(L, "not an expression object");
    L->stmt_first_val = L->f->nval;
    ir_val res[IR_MAX_RES];
    unsigned nres, w;
    if (eval_expr(L, st, true, res, &nres, &w) < 0)
        return -1;
    const cJSON *jnames = cJSON_GetObjectItemCaseSensitive(st, "name");
    int nn = cJSON_GetArraySize(jnames);
    const char *on = cJSON_GetObjectItemCaseSensitive(st, "operation")->valuestring;
    if (nn == 0)
        return lerr(L, "the result of %s is not assigned to a name", on);
    if (nn != (int)nres)
        return lerr(L, "%s has %u result%s but %d name%s", on, nres, nres > 1 ? "s" : "", nn, nn > 1 ? "s" : "");
    unsigned i = 0;
    for (const cJSON *n = jnames->child; n; n = n->next, i++) {
        if (!cJSON_IsString(n))
            return lerr(L, "name %u of %s is not a string", i + 1, on);
        if (bind(L, n->valuestring, res[i]) < 0)
            return -1;
    }
    return 0;
}

/* ---- declarations --------------------------------------------------------------------------------------------- */

/* bound_list — n limb bounds from JSON list j (hex strings) into out. */
static int bound_list(loader *L, const cJSON *j, const char *what, const char *an, uint32_t n, ir_u128 *out)
{
    char b[300];
    if (!cJSON_IsArray(j))
        return lerr(L, "%s %s: %s is not a list of limb bounds", what, an, cJSON_IsNull(j) ? "null" : "missing");
    if (cJSON_GetArraySize(j) != (int)n)
        return lerr(L, "%s %s: %d bounds for %u limbs", what, an, cJSON_GetArraySize(j), n);
    uint32_t i = 0;
    for (const cJSON *x = j->child; x; x = x->next, i++) {
        if (!cJSON_IsString(x))
            return lerr(L, "%s %s: the bound of limb %u is %s, not a hex string", what, an, i,
                        cJSON_IsNull(x) ? "null" : "not a string");
        if (ir_u128_parse(x->valuestring, &out[i]) < 0 || out[i] > ir_width_max(64))
            return lerr(L, "%s %s: the bound \"%s\" of limb %u is not a number below 2^64", what, an,
                        show(x->valuestring, b, sizeof b), i);
    }
    return 0;
}

/* arrays — declare the arrays of list j (fiat's "returns" when is_output, else "arguments"). */
static int arrays(loader *L, const cJSON *j, bool is_output)
{
    char b[300], b2[300];
    const char *what = is_output ? "return" : "argument";
    if (!cJSON_IsArray(j))
        return lerr(L, "\"%ss\" is not a list", what);
    int k = 0;
    for (const cJSON *a = j->child; a; a = a->next, k++) {
        const cJSON *jn = cJSON_GetObjectItemCaseSensitive(a, "name");
        const cJSON *jdt = cJSON_GetObjectItemCaseSensitive(a, "datatype");
        if (!cJSON_IsString(jn) || !cJSON_IsString(jdt))
            return lerr(L, "%s %d has no \"name\" or \"datatype\" string", what, k + 1);
        const char *an = jn->valuestring, *dt = jdt->valuestring;
        if (!is_ident(an) || strlen(an) >= IR_NAME_MAX)
            return lerr(L, "%s %d: \"%s\" is not a name", what, k + 1, show(an, b, sizeof b));
        unsigned len = 0;
        int used = 0;
        if (sscanf(dt, "u64[%u]%n", &len, &used) != 1 || used != (int)strlen(dt) || len == 0 || len > 64) {
            if (!strchr(dt, '['))
                return lerr(L, "%s %s: a scalar of type \"%s\" is not supported (only u64[n] limb arrays)", what,
                            an, show(dt, b2, sizeof b2));
            return lerr(L, "%s %s: type \"%s\" is not supported (only u64[n] limb arrays, n <= 64)", what, an,
                        show(dt, b2, sizeof b2));
        }
        if (len != L->te->nlimbs)
            return lerr(L, "%s %s: %u limbs, but %s has %u", what, an, len, L->te->file, L->te->nlimbs);
        ir_u128 lo[64], hi[64];
        if (bound_list(L, cJSON_GetObjectItemCaseSensitive(a, "lbound"), what, an, len, lo) < 0 ||
            bound_list(L, cJSON_GetObjectItemCaseSensitive(a, "ubound"), what, an, len, hi) < 0)
            return -1;
        if (ir_array_add(L->f, an, is_output, len, lo, hi) < 0)
            return lerr(L, "%s", L->f->err);
    }
    return 0;
}

/* ---- which functions load --------------------------------------------------------------------------------------- */

static const struct {
    const char *suffix;
    ir_kind kind;
} kinds[] = {
    { "mul", IR_KIND_MUL },     { "carry_mul", IR_KIND_MUL }, { "square", IR_KIND_SQUARE },
    { "carry_square", IR_KIND_SQUARE }, { "carry", IR_KIND_CARRY }, { "add", IR_KIND_ADD },
    { "sub", IR_KIND_SUB },     { "opp", IR_KIND_OPP },       { "to_montgomery", IR_KIND_TO_MONT },
    { "from_montgomery", IR_KIND_FROM_MONT },
};

/* Why the other functions of fiat's files are not loaded, by the start of the name after the file's prefix. */
static const struct {
    const char *start;
    const char *why;
} refused[] = {
    { "to_bytes", "converts a field element to bytes (a u8 array)" },
    { "from_bytes", "converts bytes (a u8 array) to a field element" },
    { "divstep_precomp", "returns a constant (it has no inputs)" },
    { "divstep", "is a step of the safegcd inversion (scalar and several array inputs and outputs)" },
    { "selectznz", "selects on a scalar condition argument" },
    { "nonzero", "returns a single word, not a field element" },
    { "set_one", "returns a constant (it has no inputs)" },
    { "msat", "returns a constant (it has no inputs)" },
    { "relax", "only restates the limb bounds (relax)" },
    { "carry_scmul", "multiplies by a constant (scmul)" },
    { "addcarryx_u", "is a helper: field operations use addcarryx as an operation" },
    { "subborrowx_u", "is a helper: field operations use subborrowx as an operation" },
    { "mulx_u", "is a helper: field operations use mulx as an operation" },
    { "cmovznz_u", "is a helper: field operations use cmovznz as an operation" },
};

static int function_kind(loader *L, const char *name, ir_kind *kind)
{
    size_t pl = strlen(L->te->prefix);
    if (strncmp(name, L->te->prefix, pl) != 0)
        return lerr(L, "not a function of %s (its names start with %s)", L->te->file, L->te->prefix);
    const char *rest = name + pl;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(rest, kinds[i].suffix)) {
            *kind = kinds[i].kind;
            if ((*kind == IR_KIND_TO_MONT || *kind == IR_KIND_FROM_MONT) && L->te->repr != IR_REPR_MONTGOMERY)
                return lerr(L, "not supported: %s is not a Montgomery file", L->te->file);
            return 0;
        }
    const char *why = "is not a field operation";
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (!strncmp(rest, refused[i].start, strlen(refused[i].start))) {
            why = refused[i].why;
            break;
        }
    return lerr(L, "not supported: it %s; the reader loads only mul, square, carry_mul, carry_square, carry, add, "
                   "sub, opp, to_montgomery and from_montgomery", why);
}

/* ---- the entry point ------------------------------------------------------------------------------------------- */

/* ends_early — whether cJSON's error position `off` shows text cut short: cJSON stops at the end of the text, or
 * at the start of a last token that the end cut (a string with no closing quote, a number or a word). */
static bool ends_early(const char *json, size_t len, size_t off)
{
    if (off + 1 >= len)
        return true;
    if (json[off] == '"' || (off > 0 && json[off - 1] == '"')) { /* cJSON stops at or just after the quote */
        for (size_t i = json[off] == '"' ? off + 1 : off; i < len; i++)
            if (json[i] == '\\')
                i++;
            else if (json[i] == '"')
                return false;
        return true;
    }
    for (size_t i = off; i < len; i++)
        if (!((json[i] >= '0' && json[i] <= '9') || (json[i] >= 'a' && json[i] <= 'z') || json[i] == '.' ||
              json[i] == '-' || json[i] == '+' || (json[i] >= 'A' && json[i] <= 'Z')))
            return false;
    return true;
}

/* json_error — the message for text that cJSON could not parse (early: it stopped at the end of the text), or
 * that has data after its value. */
static void json_error(loader *L, const char *json, size_t len, const char *at, const char *what, bool early)
{
    size_t off = at && at >= json && at <= json + len ? (size_t)(at - json) : 0;
    unsigned line = 1, col = 1;
    for (size_t i = 0; i < off; i++, col++)
        if (json[i] == '\n')
            line++, col = 0;
    bool has_error = false;
    for (size_t i = 0; i + 6 <= len && !has_error; i++)
        has_error = json[i] == '#' && !memcmp(json + i, "#error", 6);
    lerr(L, "%s%s at line %u, column %u (byte %zu)%s", what, early ? ": the text ends early" : "", line, col, off,
         has_error ? ": the file contains \"#error\" (fiat-crypto could not print this code)" : "");
}

ir_func *ir_fiat_load(const char *json, size_t len, const char *path, const char *name, char *err, size_t errlen)
{
    char ebuf[512], b[300];
    loader L;
    memset(&L, 0, sizeof L);
    L.err = err && errlen ? err : ebuf;
    L.errlen = err && errlen ? errlen : sizeof ebuf;
    L.stmt = -1;
    snprintf(L.fname, sizeof L.fname, "%s", "fiat");
    if (!json || !path || !name) {
        lerr(&L, "ir_fiat_load: no %s", !json ? "JSON text" : !path ? "file name" : "function name");
        return NULL;
    }

    /* The table entry, from the file's basename without .json. */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base);
    if (bl > 5 && !strcmp(base + bl - 5, ".json"))
        bl -= 5;
    L.te = fiat_table_find(base, bl);
    snprintf(L.fname, sizeof L.fname, "%s", show(base, b, sizeof b));
    if (!L.te) {
        char known[400];
        size_t o = 0;
        for (size_t i = 0; i < fiat_table_size() && o < sizeof known; i++)
            o += (size_t)snprintf(known + o, sizeof known - o, "%s%s", i ? ", " : "", fiat_table_at(i)->file);
        lerr(&L, "not a known fiat-crypto file (the table knows %s)", known);
        return NULL;
    }

    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, false);
    if (!root) {
        json_error(&L, json, len, end, "malformed JSON",
                   end && end >= json && end <= json + len && ends_early(json, len, (size_t)(end - json)));
        return NULL;
    }
    for (; end && end < json + len && (*end == ' ' || *end == '\n' || *end == '\r' || *end == '\t'); end++)
        ;
    if (end && end < json + len && *end) {
        json_error(&L, json, len, end, "malformed JSON: text after the list of functions", false);
        cJSON_Delete(root);
        return NULL;
    }

    ir_func *f = NULL;
    const cJSON *fn = NULL;
    if (!cJSON_IsArray(root)) {
        lerr(&L, "malformed file: the top level is not a list of functions");
        goto fail;
    }
    int idx = 0;
    for (const cJSON *x = root->child; x; x = x->next, idx++) {
        const cJSON *op = cJSON_GetObjectItemCaseSensitive(x, "operation");
        if (!cJSON_IsObject(x) || !cJSON_IsString(op)) {
            lerr(&L, "malformed file: entry %d is not a function object with an \"operation\" name", idx);
            goto fail;
        }
        if (!strcmp(op->valuestring, name)) {
            if (fn) {
                lerr(&L, "function %s is defined twice", show(name, b, sizeof b));
                goto fail;
            }
            fn = x;
        }
    }
    if (!fn) {
        lerr(&L, "no function named \"%s\"", show(name, b, sizeof b));
        goto fail;
    }

    snprintf(L.fname, sizeof L.fname, "%s", show(name, b, sizeof b));
    if (strlen(name) >= IR_NAME_MAX) {
        lerr(&L, "the function name is longer than %d bytes", IR_NAME_MAX - 1);
        goto fail;
    }
    ir_kind kind = IR_KIND_NONE;
    if (function_kind(&L, name, &kind) < 0)
        goto fail;
    f = ir_func_new(name);
    L.f = f;
    if (!f) {
        lerr(&L, "out of memory");
        goto fail;
    }
    snprintf(f->prime, sizeof f->prime, "%s", L.te->prime);
    f->repr = L.te->repr;
    f->nlimbw = L.te->nlimbs;
    memcpy(f->limbw, L.te->limbw, L.te->nlimbs);
    f->kind = kind;
    f->pre_lt_p = L.te->repr == IR_REPR_MONTGOMERY;

    if (arrays(&L, cJSON_GetObjectItemCaseSensitive(fn, "returns"), true) < 0 ||
        arrays(&L, cJSON_GetObjectItemCaseSensitive(fn, "arguments"), false) < 0)
        goto fail;
    uint64_t inputs = 0;
    for (uint32_t a = 0; a < f->narr; a++)
        if (!f->arr[a].is_output)
            inputs |= (uint64_t)1 << a;
    for (uint32_t a = 0; a < f->narr; a++)
        if (f->arr[a].is_output)
            f->arr[a].alias = inputs; /* fiat allows out1 == arg1 (and == arg2) */

    L.load = malloc((f->narr ? f->narr : 1) * 64 * sizeof *L.load);
    L.stored = calloc((f->narr ? f->narr : 1) * 64, 1);
    if (!L.load || !L.stored) {
        lerr(&L, "out of memory");
        goto fail;
    }
    for (uint32_t i = 0; i < f->narr * 64; i++)
        L.load[i] = IR_NOVAL;

    const cJSON *body = cJSON_GetObjectItemCaseSensitive(fn, "body");
    if (!cJSON_IsArray(body)) {
        lerr(&L, "\"body\" is not a list of statements");
        goto fail;
    }
    L.stmt = 0;
    for (const cJSON *st = body->child; st; st = st->next, L.stmt++)
        if (statement(&L, st) < 0)
            goto fail;
    L.stmt = -1;
    for (uint32_t a = 0; a < f->narr; a++)
        for (uint32_t l = 0; f->arr[a].is_output && l < f->arr[a].len; l++)
            if (!L.stored[a * 64 + l]) {
                lerr(&L, "output %s[%u] is never assigned", f->arr[a].name, l);
                goto fail;
            }
    if (ir_validate(f) < 0) {
        lerr(&L, "%s", f->err);
        goto fail;
    }
    if (ir_bounds(f) < 0) {
        lerr(&L, "bounds: %s", f->err);
        goto fail;
    }
    f->err[0] = 0;
    free(L.var);
    free(L.load);
    free(L.stored);
    cJSON_Delete(root);
    return f;

fail:
    free(L.var);
    free(L.load);
    free(L.stored);
    ir_func_free(f);
    cJSON_Delete(root);
    return NULL;
}
