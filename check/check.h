/* check.h — `ecopt check`: does this machine code compute exactly what this IR program computes? (DESIGN.md
 * "The checker"; docs/checker.md).
 *
 * The function's bytes (check/elf.h: from a .o, or a .S assembled by the system assembler) are decoded with Zydis
 * (check/decode.h) and executed symbolically (check/exec.h) into one normalised expression (check/expr.h) per
 * output limb; the unlowered IR program is executed into the same expression context (check/ir_sym.h), so both
 * share their input leaves. Each output limb is then PROVED equal by identical normal forms or, where the forms
 * differ, by an unsat answer of z3 (check/smt.h). Nothing else counts: a limb that the solver cannot decide is
 * "unproved", never PROVED on the strength of tests.
 *
 * Calling convention: System V AMD64, the fiat signature (emit/emit_c.h): every output array (in declaration
 * order), then every input array, each a pointer to 64-bit limbs; the first six in rdi rsi rdx rcx r8 r9, the
 * rest on the stack at 8(%rsp), 16(%rsp), ... at entry. Output j may be the same pointer as input i exactly when
 * the program declares the alias (ir_array.alias); other arrays are disjoint. PROVED holds in every aliasing case
 * the program allows, each proved on its own (check_function): all arrays disjoint, and each assignment of outputs
 * to inputs they may alias (no two outputs to one input), where an output and its input are one memory (a store
 * to out1[k] is what a later load of arg1[k] reads) and the result is compared with the program on the original
 * input values. A case that fails is named in check_result.alias_case.
 *
 * What is trusted: the x86-64 semantics written in check/exec.c (with Zydis' decoding and its flag tables as
 * corrected in check/decode.c), the normaliser (check/expr.c, each rule tested against concrete evaluation), the
 * translation to bit-vectors (check/smt.c) and z3 itself. */
#ifndef ECOPT_CHECK_CHECK_H
#define ECOPT_CHECK_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check/elf.h"
#include "ir/ir.h"

typedef enum { CHECK_PROVED = 0, CHECK_REJECTED = 1, CHECK_BAD_INPUT = 2 } check_verdict;

/* Why a function was rejected: one rule per class (the mutation tests assert the class). */
typedef enum {
    CHECK_RULE_NONE = 0,
    CHECK_RULE_UNKNOWN_INSN,     /* an instruction without semantics here (named) */
    CHECK_RULE_UNSUPPORTED,      /* a supported mnemonic in a form not modelled (a signed widening multiply, a
                                    partial-limb access, a shift by a non-constant count, ...) */
    CHECK_RULE_BRANCH,           /* jcc, jmp, call, loop, or code after ret, or no ret */
    CHECK_RULE_DIVISION,         /* div, idiv */
    CHECK_RULE_RIP_DATA,         /* RIP-relative or absolute data, or bytes under a relocation */
    CHECK_RULE_DATA_ADDRESS,     /* an address computed from data (not from an argument pointer or rsp plus
                                    constants) */
    CHECK_RULE_MEMORY_BOUNDS,    /* memory outside the argument arrays and the stack frame (below entry rsp;
                                    the red zone 128 bytes below the current rsp unless no_red_zone) */
    CHECK_RULE_STORE_INPUT,      /* a store into an input array */
    CHECK_RULE_STACK_UNWRITTEN,  /* a stack slot read before it was written */
    CHECK_RULE_UNKNOWN_VALUE,    /* an undefined flag read, or an output / condition / address that depends on
                                    a value the function did not compute (a register's value at entry) */
    CHECK_RULE_CALLEE_SAVED,     /* rbx rbp r12 r13 r14 r15 not restored at ret */
    CHECK_RULE_STACK_UNBALANCED, /* rsp at ret is not the entry rsp */
    CHECK_RULE_OUTPUT_MISSING,   /* an output limb never stored */
    CHECK_RULE_OUTPUT_DIFFERS,   /* a counterexample: inputs on which the code and the program differ */
    CHECK_RULE_UNPROVED,         /* normal forms differ and the solver gave no answer */
    CHECK_RULE_RELOCATION,       /* a relocation from outside the function whose reach (elf.h) overlaps its
                                    bytes, or one of a type whose reach is not known */
    CHECK_RULE_SYMBOL,           /* the name may bind to other bytes than the ones read (elf.h): another
                                    definition, a local, non-function or indirect one, a COMDAT copy, a section
                                    not loaded as read, ... */
    CHECK_RULE_FRAME_SIZE,       /* the stack reached more than a page below what was touched before it: the
                                    bytes may lie beyond the guard page (exec.h) */
    CHECK_RULE_COUNT
} check_rule;

/* check_rule_name — a stable short label: "unknown-insn", "unsupported", "branch", "division", "rip-data",
 * "data-address", "memory-bounds", "store-input", "stack-unwritten", "unknown-value",
 * "callee-saved", "stack-unbalanced", "output-missing", "output-differs", "unproved", "relocation", "symbol",
 * "frame-size" ("none" for NONE). */
const char *check_rule_name(check_rule r);
/* check_rule_parse — the inverse; -1 for an unknown label. */
int check_rule_parse(const char *s);

typedef struct {
    bool no_red_zone;      /* forbid the 128-byte red zone below rsp */
    unsigned timeout_ms;   /* per solver query; 0 = 60000 */
    unsigned nsamples;     /* concrete input samples tried before each solver query; 0 = 64; plus, when the program
                              states its prime, the inputs at its edges p - 1 .. 2p (check/edges.h; at most 35
                              for two input arrays) */
    bool no_sweep;         /* skip the cut stage's sweep (check.c: pairs proved equal by small queries) */
} check_opts;

typedef struct {
    check_verdict verdict;
    check_rule rule;           /* REJECTED: which rule; PROVED / BAD_INPUT: NONE */
    bool has_addr;             /* reason names an instruction at addr */
    uint64_t addr;
    char reason[768];          /* one line: REJECTED: the first reason; BAD_INPUT: what is wrong */
    char cex[1024];            /* OUTPUT_DIFFERS: the inputs and both values, one line; else "" */
    char alias_case[96];       /* REJECTED in an aliasing case: "out1 == arg1" (the reason and cex are that
                                  case's); "" when the arrays were disjoint */
    unsigned ncases;           /* aliasing cases proved or tried: 1 (disjoint) + the ones the program allows */
    unsigned ncases_same;      /* ... of them proved by the disjoint case's proof (the same output nodes) */
    /* statistics */
    size_t ninsns;             /* instructions executed */
    unsigned nlimbs;           /* output limbs compared */
    unsigned nlimbs_identical; /* ... proved by identical normal forms */
    unsigned nlimbs_linear;    /* ... proved by identical linear forms with floors (lf.h) */
    unsigned nranged;          /* nodes of the code given the program's form by the range rule (lf_range_equal) */
    unsigned nlimbs_smt;       /* ... proved by the solver */
    unsigned nswept;           /* node pairs the sweep proved equal by small cut queries (check.c) */
    double seconds_exec;       /* decode + symbolic execution of both */
    double seconds_smt;        /* solver (and sampling) */
    double seconds_total;
} check_result;

/* check_function — check code (the function's bytes, check_code_read) against the program f (unlowered; any
 * ir_func that passes ir_validate and ir_bounds). Fills r and returns r->verdict. BAD_INPUT: f is not valid, has
 * no output, or has more arrays than the convention passes (16); memory ran out. */
check_verdict check_function(const ir_func *f, const check_code *code, const check_opts *o, check_result *r);

/* check_file — check_code_read(path, symbol) then check_function; a file or symbol that cannot be read is
 * BAD_INPUT with check_code_read's message. */
check_verdict check_file(const ir_func *f, const char *path, const char *symbol, const check_opts *o,
                         check_result *r);

/* check_cut_sweep — (for tests: the cut stage on one pair of nodes) the cut query of code node c against program
 * node p in the raw context x (ex_ctx_set_raw; the program's nodes are the ids up to boundary, its input leaves
 * ex_input(x, array, limb, ...) of f's input arrays; f has one output array of one limb, for the bounds), with
 * z3's resource count limited to rlimit (0: none); when it is not unsat and sweep is set, the sweep (check.c) and
 * the query again. 1 proved, 0 not, -1 out of memory; *nswept: the pairs the sweep proved equal. */
struct ex_ctx;
int check_cut_sweep(const ir_func *f, struct ex_ctx *x, uint32_t boundary, uint32_t c, uint32_t p, unsigned rlimit,
                    bool sweep, unsigned *nswept);

#endif
