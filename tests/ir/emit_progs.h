/* emit_progs.h — hand-built IR programs for the lowering and C emitter tests (tests/ir/test_lower.c,
 * tests/ir/test_emit.c): one program per group of lowering rules, programs that wrap on purpose, two field
 * operations written from their published algorithms (checked against GMP), and the inputs to run them on. */
#ifndef ECOPT_TESTS_IR_EMIT_PROGS_H
#define ECOPT_TESTS_IR_EMIT_PROGS_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"

#define EP_MAXARR 8
#define EP_MAXLIMB 64

typedef struct {
    const char *name;
    ir_func *(*build)(void);
    bool bounds_ok;         /* the program passes ir_bounds (false: it wraps on purpose) */
    bool lowerable;         /* ir_lower accepts it */
    const char *expect_ops; /* operations the lowered form must contain, space-separated ("mulx addcarryx") */
} ep_prog;

extern const ep_prog ep_progs[];
extern const unsigned ep_nprogs;

/* ep_find — the program called name, or NULL. */
const ep_prog *ep_find(const char *name);

/* Hand-made programs for the register allocator and flag handling of the assembly emitter (tests/ir/
 * test_emit_asm.c: small programs that force spills and flag clobbers): carries that outlive another
 * chain's flag write, carries needed twice, cmov on a condition still in a flag, more values live than registers
 * (and than xmm registers), more than six arrays (pointers from the stack), outputs that alias inputs. All pass
 * ir_validate and ir_bounds and are already lowered (u64 and u1 only). */
typedef struct {
    const char *name;
    const char *text; /* IR text form, or NULL when ep_rprog_build generates it */
} ep_rprog;

extern const ep_rprog ep_rprogs[];
extern const unsigned ep_nrprogs;

/* ep_rprog_build — program i of ep_rprogs parsed (free with ir_func_free); NULL when i is out of range. A program
 * that does not parse is a bug in emit_progs.c: it exits with a message. */
ir_func *ep_rprog_build(unsigned i);

/* Aliased programs for the random schedules of the assembly emitter (test_emit_asm.c): outputs that may alias
 * several inputs, with more limbs of those inputs needed after the first store than there are registers when a
 * schedule moves the arithmetic after it. Already lowered; ep_aprog_build as ep_rprog_build. */
extern const ep_rprog ep_aprogs[];
extern const unsigned ep_naprogs;
ir_func *ep_aprog_build(unsigned i);

/* ---- random numbers (splitmix64; Steele, Lea, Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014) ------------------------------------------------------------------------------------------------- */
uint64_t ep_rand(uint64_t *state);

/* ep_inputs — input limbs for every input array of f into in[arr][limb], each within its declared bounds:
 * mode < 0 random with varying bit density (uniform, sparse, dense, at lo, at hi), mode >= 0 the edge vector number
 * mode (every limb at its lo, at its hi, 0/1/2^64-1 clipped to the bounds, and mixtures). */
void ep_inputs(const ir_func *f, int mode, uint64_t *state, uint64_t in[EP_MAXARR][EP_MAXLIMB]);
#define EP_NEDGE 12

/* ep_eval — ir_eval over the fixed-size buffers. 0 or -1. */
int ep_eval(const ir_func *f, uint64_t in[EP_MAXARR][EP_MAXLIMB], uint64_t out[EP_MAXARR][EP_MAXLIMB]);

/* ep_fiat_load_dir — every mul, square, carry_mul, carry_square, carry, add, sub and opp of the .json files in dir
 * (in file-name order), loaded with ir_fiat_load into fns (at most max). Returns how many were loaded, or -1 when
 * dir cannot be opened; every file or function that fails to load is printed to stderr and counted in *failed. */
int ep_fiat_load_dir(const char *dir, ir_func **fns, unsigned max, unsigned *failed);

/* ep_has_op — f has a node with operation op. */
bool ep_has_op(const ir_func *f, ir_op op);

/* ep_hex_limbs — print "label: 0x.., 0x.." for n limbs to stderr. */
void ep_print_limbs(const char *label, const uint64_t *x, unsigned n);

/* ep_random_schedule — a copy of f whose nodes are in a random topological order (every operand defined before its
 * use) in which the loads and stores keep their relative order (the alias rule), drawn with ep_rand(st); the
 * optimizer's search moves nodes the same way. NULL when memory runs out. */
ir_func *ep_random_schedule(const ir_func *f, uint64_t *st);

#endif
