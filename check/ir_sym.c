/* ir_sym.c — symbolic execution of an ir_func into check/expr.h expressions, one IR operation at a time with the
 * IR's semantics (ir/ir.h: operands zero-extended, results mod 2^width). */
#include "check/ir_sym.h"

#include <stdio.h>
#include <stdlib.h>

int ir_sym_run(ex_ctx *x, const ir_func *f, ex_id *const *out, char *err, size_t errlen)
{
    ex_id *v = calloc(f->nval ? f->nval : 1, sizeof *v);
    if (!v) {
        snprintf(err, errlen, "%s: out of memory", f->name);
        return -1;
    }
    for (uint32_t j = 0; j < f->narr; j++)
        if (f->arr[j].is_output)
            for (uint32_t i = 0; i < f->arr[j].len; i++)
                out[j][i] = 0;
    int rc = 0;
    for (uint32_t i = 0; i < f->nnode && rc == 0; i++) {
        const ir_node *n = &f->node[i];
        ex_id a[IR_MAX_ARGS] = { 0, 0, 0 }, r0 = 0, r1 = 0;
        ir_u128 k[IR_MAX_ARGS] = { 0, 0, 0 };
        const char *why = NULL;
        for (unsigned j = 0; j < n->nargs && !why; j++) {
            ir_val av = n->arg[j];
            if (av >= f->nval) {
                why = "operand out of range";
                break;
            }
            const ir_value *val = &f->val[av];
            k[j] = val->k;
            a[j] = val->is_const ? ex_const(x, val->k) : v[av];
            if (!a[j])
                why = val->is_const ? ex_err(x) : "operand used before it is defined";
        }
        unsigned w = n->nres && n->res[0] < f->nval ? f->val[n->res[0]].width : 64;
        if (!why) {
            switch ((ir_op)n->op) {
            case IR_LOAD:
                if (n->arr >= f->narr || f->arr[n->arr].is_output || n->limb >= f->arr[n->arr].len) {
                    why = "load outside an input array";
                    break;
                }
                r0 = ex_input(x, n->arr, n->limb, f->arr[n->arr].lo[n->limb], f->arr[n->arr].hi[n->limb]);
                break;
            case IR_STORE:
                if (n->arr >= f->narr || !f->arr[n->arr].is_output || n->limb >= f->arr[n->arr].len) {
                    why = "store outside an output array";
                    break;
                }
                out[n->arr][n->limb] = ex_trunc(x, 64, a[0]);
                if (!out[n->arr][n->limb])
                    why = ex_err(x);
                break;
            case IR_CAST: r0 = ex_trunc(x, w, a[0]); break;
            case IR_ADD: r0 = ex_add(x, w, a[0], a[1]); break;
            case IR_SUB: r0 = ex_sub(x, w, a[0], a[1]); break;
            case IR_MUL: r0 = ex_mul(x, w, a[0], a[1]); break;
            case IR_SHL: r0 = k[1] >= 128 ? ex_const(x, 0) : ex_shl(x, w, a[0], (unsigned)k[1]); break;
            case IR_SHR: r0 = k[1] >= 128 ? ex_const(x, 0) : ex_shr(x, w, a[0], (unsigned)k[1]); break;
            case IR_AND: r0 = ex_and(x, w, a[0], a[1]); break;
            case IR_OR: r0 = ex_or(x, w, a[0], a[1]); break;
            case IR_XOR: r0 = ex_xor(x, w, a[0], a[1]); break;
            case IR_NOT: r0 = ex_not(x, w, a[0]); break;
            case IR_LNOT: r0 = ex_trunc(x, w, ex_lnot(x, a[0])); break;
            case IR_MULX:
                if (ex_mulx(x, n->size, a[0], a[1], &r0, &r1) != 0)
                    why = ex_err(x);
                break;
            case IR_ADDCARRYX:
                if (ex_addcarry(x, n->size, a[0], a[1], a[2], &r0, &r1) != 0)
                    why = ex_err(x);
                break;
            case IR_SUBBORROWX:
                if (ex_subborrow(x, n->size, a[0], a[1], a[2], &r0, &r1) != 0)
                    why = ex_err(x);
                break;
            case IR_CMOVZNZ: r0 = ex_select(x, w, a[0], a[1], a[2]); break;
            case IR_SHRD: r0 = k[2] >= 128 ? ex_const(x, 0) : ex_shrd(x, a[0], a[1], (unsigned)k[2]); break;
            default: why = "unknown operation"; break;
            }
        }
        if (!why && n->nres >= 1) {
            if (!r0 || (n->nres > 1 && !r1))
                why = ex_err(x);
            else if (n->res[0] >= f->nval || (n->nres > 1 && n->res[1] >= f->nval))
                why = "result out of range";
            else {
                /* the results' declared widths (mulx hi: 64, carry/borrow: 1) */
                v[n->res[0]] = ex_trunc(x, f->val[n->res[0]].width, r0);
                if (n->nres > 1)
                    v[n->res[1]] = ex_trunc(x, f->val[n->res[1]].width, r1);
                if (!v[n->res[0]] || (n->nres > 1 && !v[n->res[1]]))
                    why = ex_err(x);
            }
        }
        if (why) {
            snprintf(err, errlen, "%s: node %u (%s): %s", f->name, i, ir_op_name((ir_op)n->op), why);
            rc = -1;
        }
    }
    free(v);
    return rc;
}
