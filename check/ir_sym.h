/* ir_sym.h — symbolic execution of an IR function (unlowered or lowered) into one normalised expression
 * (check/expr.h) per output limb. Input limb j of array a is the leaf ex_input(a, j) with the array's declared
 * bounds, so two functions with the same input arrays (a function and its ir_lower result) share their leaves and
 * their outputs can be compared by id. */
#ifndef ECOPT_CHECK_IR_SYM_H
#define ECOPT_CHECK_IR_SYM_H

#include <stddef.h>

#include "check/expr.h"
#include "ir/ir.h"

/* ir_sym_run — run f symbolically in x. out[j] (for each output array j; entries for inputs are ignored) receives
 * the arrays' limb expressions, f->arr[j].len entries each (0 for a limb never stored). Returns 0, or -1 with err
 * ("node 12 (mulx): out of memory", "node 3: load from output array out1") filled. */
int ir_sym_run(ex_ctx *x, const ir_func *f, ex_id *const *out, char *err, size_t errlen);

#endif
