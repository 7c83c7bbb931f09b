/* explain.h — why a function was rejected, in terms of its instructions (`ecopt check --explain`).
 *
 * For a rejection by a rule of check.h other than output-differs: the rule, its reason and the instruction it names.
 * For output-differs: the first output limb (in array and limb order) whose code value differs from the program's
 * on the counterexample input (check_result.cex, limbs it leaves open taken as 0; when it cannot be read, random
 * inputs within the bounds until one differs), both values, the input, the instruction that stored the limb, and
 * the instruction where the two sides part:
 *   the code and the program are executed into one expression context (as check_function does) and evaluated on
 *   the input and on 8 random inputs within the bounds; a value an instruction writes or reads "agrees" when it
 *   is a program node, an input limb, or on each of those inputs a value the program computes (a node's value, or
 *   a 64-bit half of a 128-bit one: one input alone lets values coincide, an input of all ones makes many sums
 *   equal). The limb's data flow: from the store of the limb, each register or memory value an instruction reads
 *   back to the latest earlier instruction that wrote that value (flags are not followed: a carry is 0 or 1, a
 *   value every program computes). The instruction that parts is the earliest in that flow that writes a value
 *   that does not agree while every value it reads does, and from whose result no later value in the flow is a
 *   program node again (by identical normal form, not a small value): the first step off the program's values
 *   for good, not a temporary of the code's own (gcc computes 19x as x + 2 * (9x), and 9x is no program value). When every value in the limb's data flow agrees, the store itself is
 *   named (the code stores a value the program computes, but not this limb's).
 * A heuristic for people, not part of the proof. A wrong instruction whose result is itself a value the program
 * computes (a product of the wrong limbs, a condition flipped between two program values) is not named: the
 * first instruction that combines it is. */
#ifndef ECOPT_CHECK_EXPLAIN_H
#define ECOPT_CHECK_EXPLAIN_H

#include <stdio.h>

#include "check/check.h"
#include "check/elf.h"
#include "ir/ir.h"

/* check_explain — print the explanation of r (a check_function result for f and code) to out, lines starting
 * "explain: ". Returns 0, or -1 when memory ran out or the code cannot be re-run (a line says so). */
int check_explain(const ir_func *f, const check_code *code, const check_opts *o, const check_result *r, FILE *out);

#endif
