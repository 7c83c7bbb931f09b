/* test_emit_asm.c — the assembly emitter (emit/emit_asm.c): lowered IR to x86-64 .S, assembled by the system
 * assembler (cc -shared / cc -c), loaded and run on edge and random inputs against the interpreter (ir_eval of the
 * UNLOWERED program, so ir_lower is not trusted either), also with the output array passed as each input it may
 * alias. Functions: generated ones (gen_build), fiat-crypto's (ir_fiat_load, with --fiat DIR) and the hand-made
 * programs of emit_progs.c (ep_rprogs: more values live than registers and xmm registers, stack-passed arguments,
 * carries that outlive another chain's flag write, carries needed twice, cmov on a flag, aliased outputs).
 * Variants of each function: 0 the default decisions (iters inputs); 1 random decisions among those that apply to
 * each node; 2 every decision bit random; 3 a random schedule (a random topological order that keeps the loads
 * and stores in order: it interleaves carry chains with other flag writers and stretches live ranges) with every
 * bit random; hand-made programs also 4: every spill to xmm, bzhi, shl/lea multiples, OF chains. Variants 1-4 run
 * on iters / 10 inputs. The object has no branch (objdump, default variant, without the checker; the text is searched
 * in all), the text has the sections the contract names and is the same when emitted twice; decisions that do not
 * apply to their nodes change nothing. Bad input (u128 left, mulx.32, a symbol that is no identifier, a
 * header_extra line without " * ") is an error. The check build does not run the random schedules (emit.asm does)
 * unless --check-shuffled.
 * When the checker is built (ECOPT_HAVE_CHECK) the emissions of variants 0, 1, 2 and 4 go through check_file and
 * the verdict is printed (with the decision bytes when not PROVED); a rejection that is not "unproved" (a
 * counterexample, a broken rule) fails, and --require-proved makes anything but PROVED a failure.
 *
 * Usage: test_emit_asm [--seed N] [--iters N] [--fiat DIR] [--keep] [--require-proved] [--check-shuffled]
 *                      [--dec-mask M] [--only NAME]
 *   --check-shuffled  also check variant 3 (slow: the solver may time out on reordered Montgomery multiplies)
 *   --dec-mask M      random variants set only the decision bits in M (to find which decision is at fault)
 * Exit 0 pass, 1 fail, 2 usage, 77 skip (no cc, or the CPU lacks BMI2/ADX for mulx/adcx/adox). */
#define _GNU_SOURCE
#include <cpuid.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cc_util.h"
#include "emit/emit_asm.h"
#include "emit_progs.h"
#include "gen/gen.h"
#include "ir/ir.h"
#ifdef ECOPT_HAVE_CHECK
#include "check/check.h"
#endif

static int failures;
#define FAIL(...)                                                                                                    \
    do {                                                                                                             \
        fprintf(stderr, "FAIL: " __VA_ARGS__);                                                                       \
        fprintf(stderr, "\n");                                                                                       \
        failures++;                                                                                                  \
    } while (0)

static uint64_t seed = 1;
static long iters = 10000;
static int require_proved, check_shuffled;
static unsigned dec_mask = 0xff; /* --dec-mask: the decision bits random variants may set */
static emit_asm_target target;  /* --target x86-64: baseline code, no BMI2/ADX instruction in any text */
static char dir[512];

/* ---- running a command ------------------------------------------------------------------------------------- */

static int run(char *const argv[], char *log, size_t loglen)
{
    char lp[600];
    snprintf(lp, sizeof lp, "%s/cmd.log", dir);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(lp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int st = 0;
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    log[0] = 0;
    FILE *fp = fopen(lp, "r");
    if (fp) {
        size_t n = fread(log, 1, loglen - 1, fp);
        log[n] = 0;
        fclose(fp);
    }
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static int write_file(const char *path, const char *s, size_t n)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        return -1;
    size_t w = fwrite(s, 1, n, fp);
    return fclose(fp) == 0 && w == n ? 0 : -1;
}

/* ---- one emitted function: assemble, run, compare --------------------------------------------------------- */

static void run_code(const ir_func *src, cc_fn fn, const char *what, long n)
{
    static uint64_t in[EP_MAXARR][EP_MAXLIMB], want[EP_MAXARR][EP_MAXLIMB], got[EP_MAXARR][EP_MAXLIMB];
    static uint64_t inbuf[EP_MAXARR][EP_MAXLIMB];
    uint64_t state = seed * 0x9e3779b97f4a7c15u + strlen(src->name);
    unsigned bad = 0;
    for (long t = -(long)EP_NEDGE; t < n && bad < 3; t++) {
        memset(in, 0, sizeof in);
        ep_inputs(src, t < 0 ? (int)(t + EP_NEDGE) : -1, &state, in);
        memset(want, 0, sizeof want);
        if (ep_eval(src, in, want) < 0) {
            FAIL("ir_eval: out of memory");
            return;
        }
        for (int alias = -1; alias < (int)src->narr; alias++) {
            int oa = -1;
            if (alias >= 0) {
                if (src->arr[alias].is_output)
                    continue;
                for (uint32_t j = 0; j < src->narr && oa < 0; j++)
                    if (src->arr[j].is_output && ((src->arr[j].alias >> alias) & 1) &&
                        src->arr[j].len == src->arr[alias].len)
                        oa = (int)j;
                if (oa < 0)
                    continue;
            }
            memcpy(inbuf, in, sizeof in);
            memset(got, 0xee, sizeof got);
            void *args[EP_MAXARR];
            unsigned na = 0;
            for (int pass = 0; pass < 2; pass++)
                for (uint32_t j = 0; j < src->narr; j++)
                    if (src->arr[j].is_output == (pass == 0))
                        args[na++] = (int)j == oa ? (void *)inbuf[alias] : pass == 0 ? (void *)got[j]
                                                                                     : (void *)inbuf[j];
            if (cc_call_arrays(fn, na, args) < 0) {
                FAIL("%s: %u arrays, more than cc_call_arrays takes", src->name, na);
                return;
            }
            if (oa >= 0)
                memcpy(got[oa], inbuf[alias], src->arr[oa].len * sizeof(uint64_t));
            /* inputs that are not the output are untouched */
            for (uint32_t j = 0; j < src->narr; j++)
                if (!src->arr[j].is_output && (int)j != alias &&
                    memcmp(inbuf[j], in[j], src->arr[j].len * sizeof(uint64_t))) {
                    FAIL("%s (%s): input %s was written", src->name, what, src->arr[j].name);
                    bad++;
                }
            for (uint32_t j = 0; j < src->narr; j++) {
                if (!src->arr[j].is_output || !memcmp(got[j], want[j], src->arr[j].len * sizeof(uint64_t)))
                    continue;
                for (uint32_t l = 0; l < src->arr[j].len; l++)
                    if (got[j][l] != want[j][l]) {
                        FAIL("%s (%s%s%s): %s[%u] = 0x%016llx, the interpreter says 0x%016llx (input %s %ld)",
                             src->name, what, oa >= 0 ? ", output = " : "", oa >= 0 ? src->arr[alias].name : "",
                             src->arr[j].name, l, (unsigned long long)got[j][l], (unsigned long long)want[j][l],
                             t < 0 ? "edge" : "random", t < 0 ? t + EP_NEDGE : t);
                        break;
                    }
                for (uint32_t k = 0; k < src->narr; k++)
                    if (!src->arr[k].is_output)
                        ep_print_limbs(src->arr[k].name, in[k], src->arr[k].len);
                bad++;
            }
        }
    }
}

static void check_text(const char *sym, const char *s, bool hidden)
{
    char want[400];
    const char *need[6];
    char b0[400], b1[400], b2[400];
    snprintf(b0, sizeof b0, "\t.globl\t%s\n", sym);
    snprintf(b1, sizeof b1, "\t.type\t%s, @function\n", sym);
    snprintf(b2, sizeof b2, "\t.size\t%s, .-%s\n", sym, sym);
    need[0] = "\t.text\n";
    need[1] = b0;
    need[2] = b1;
    need[3] = b2;
    need[4] = "\t.section\t.note.GNU-stack,\"\",@progbits\n";
    need[5] = "\tret\n";
    for (int i = 0; i < 6; i++)
        if (!strstr(s, need[i]))
            FAIL("%s: the .S lacks \"%s\"", sym, need[i]);
    snprintf(want, sizeof want, "\t.hidden\t%s\n", sym);
    if (!!strstr(s, want) != hidden)
        FAIL("%s: .hidden %s", sym, hidden ? "missing" : "present without the option");
    /* no branch or call mnemonic in the text (the object is disassembled too) */
    for (const char *p = s; (p = strstr(p, "\n\t")); p += 2)
        if (p[2] == 'j' || !strncmp(p + 2, "call", 4) || !strncmp(p + 2, "loop", 4))
            FAIL("%s: a branch in the text: %.20s", sym, p + 2);
}

/* Instruction forms the emitter has paths for: each must appear in some emitted text (the programs above and the
 * random decisions and schedules reach every path that picks one). */
static const char *const FORMS[] = { "\tmulx ", "\tadcx ", "\tadox ", "\taddq ", "\tadcq ", "\tsubq ", "\tsbbq ",
                                     "\tclc\n", "\tstc\n", "\tnegq ", "\tsetc ", "\tseto ", "\tsete ",
                                     "\tmovzbl ", "\tcmovcq ", "\tcmovnzq ", "\ttestq ", "\tleaq ", "\timulq ",
                                     "\tmovabsq ", "\tshrdq ", "\tshrq ", "\tshlq ", "\tandq ", "\torq ",
                                     "\txorq ", "\tnotq ", "\tpushq ", "\tpopq ", "\tsubq $", "\tbzhiq ",
                                     ", %xmm", "\tmovq %xmm", "\tshlq $10,", "\tshlxq ",
                                     "\tshrxq ", "\txorl %" };
#define NFORMS (sizeof FORMS / sizeof FORMS[0])
static unsigned form_seen[NFORMS];
/* --target x86-64: these must appear instead (mulq from memory and from a register, the square's mulq %rax), and
 * none of NOT_X64 anywhere */
static const char *const FORMS_X64[] = { "\tmulq ", "\tmulq %rax\n", "\tmulq 8(", "\tadcq ", "\taddq ", "\tsbbq ",
                                         "\tnegq ", "\tsetc ", "\tmovzbl ", "\tcmovcq ", "\tleaq ", "\timulq ",
                                         "\tshrdq ", "\tshrq ", "\tshlq ", "\tandq ", ", %xmm" };
#define NFORMS_X64 (sizeof FORMS_X64 / sizeof FORMS_X64[0])
static unsigned form_seen_x64[NFORMS_X64];
static const char *const NOT_X64[] = { "\tmulx", "\tadcx", "\tadox", "\tbzhi", "\tshlx", "\tshrx", "\tsarx",
                                       "\tandn", "\trorx", "\tseto", "\tcmovo" };

static void count_forms(const char *s)
{
    if (target == EMIT_ASM_TARGET_X86_64) {
        for (size_t i = 0; i < NFORMS_X64; i++)
            if (strstr(s, FORMS_X64[i]))
                form_seen_x64[i]++;
        for (size_t i = 0; i < sizeof NOT_X64 / sizeof NOT_X64[0]; i++)
            if (strstr(s, NOT_X64[i]))
                FAIL("target x86-64: the text has %s", NOT_X64[i] + 1);
        if (!strstr(s, "\n * Target:  x86-64 "))
            FAIL("target x86-64: no Target: x86-64 line in the header");
        return;
    }
    for (size_t i = 0; i < NFORMS; i++)
        if (strstr(s, FORMS[i]))
            form_seen[i]++;
}

/* emit, assemble, run; variant 0 = default decisions, else random ones from the variant number */
static void test_one(const ir_func *src, const ir_func *low, int variant, long n, const char *label)
{
    char err[1024], sym[160], path[700], so[700], obj[700], log[4096];
    snprintf(sym, sizeof sym, "%s_v%d", low->name, variant);
    const char *vname = variant == 3 ? "shuffled" : variant == 4 ? "xmm" : variant ? "random" : "default";
    uint8_t *dec = NULL;
    if (variant >= 1) { /* 3: a random schedule, with random decisions too */
        dec = calloc(low->nnode + 1, 1);
        if (!dec) {
            FAIL("out of memory");
            return;
        }
        uint64_t st = seed + 77 * (uint64_t)variant;
        for (uint32_t i = 0; i < low->nnode; i++) {
            uint64_t r = ep_rand(&st);
            if (variant == 4) { /* every spill to xmm while xmm registers are free, shl for multiples (lea where
                                   shl does not apply), bzhi, OF chains; the rdx operand random */
                dec[i] = (uint8_t)(EMIT_ASM_D_XMM | EMIT_ASM_D_BZHI | EMIT_ASM_D_OF |
                                   (i % 2 ? EMIT_ASM_D_CMUL_SHL : EMIT_ASM_D_CMUL_LEA) |
                                   (r & (EMIT_ASM_D_RDX_A | EMIT_ASM_D_RDX_B)));
                continue;
            }
            if (variant == 2 || variant == 3) { /* every bit random, whether it applies to the node or not */
                dec[i] = (uint8_t)r;
                continue;
            }
            /* variant 1: the bits that apply to the node, each likely */
            if (low->node[i].op == IR_ADDCARRYX)
                dec[i] = (r & 3) ? EMIT_ASM_D_OF : 0;
            else if (low->node[i].op == IR_ADD)
                dec[i] = (r & 1) ? EMIT_ASM_D_ADC0 : 0;
            else if (low->node[i].op == IR_MULX)
                dec[i] = (r % 3) == 0 ? EMIT_ASM_D_RDX_A : (r % 3) == 1 ? EMIT_ASM_D_RDX_B : 0;
            else if (low->node[i].op == IR_AND)
                dec[i] = (r & 1) ? EMIT_ASM_D_BZHI : 0;
            else if (low->node[i].op == IR_MUL || low->node[i].op == IR_SHL)
                dec[i] = (uint8_t)((r >> 8) & EMIT_ASM_D_CMUL_MASK);
            if ((low->node[i].op == IR_SHL || low->node[i].op == IR_SHR) && ((r >> 12) & 1))
                dec[i] |= EMIT_ASM_D_SHX;
            if ((r >> 16) & 1)
                dec[i] |= EMIT_ASM_D_XMM;
        }
        for (uint32_t i = 0; i < low->nnode; i++)
            dec[i] &= dec_mask;
    }
    emit_asm_stats stats;
    emit_asm_opts o = { .symbol = sym, .hidden = true, .decisions = dec, .command = "test_emit_asm",
                        .stats = &stats, .target = target };
    char *s = NULL, *s2 = NULL;
    size_t len = 0, len2 = 0;
    /* the hidden variant: its text only (dlsym cannot see a hidden symbol) */
    if (emit_asm(low, &o, &s2, &len2, err, sizeof err) < 0) {
        FAIL("%s: emit_asm: %s", label, err);
        free(dec);
        return;
    }
    check_text(sym, s2, true);
    free(s2);
    o.hidden = false;
    if (emit_asm(low, &o, &s, &len, err, sizeof err) < 0) {
        FAIL("%s: emit_asm: %s", label, err);
        free(dec);
        return;
    }
    if (emit_asm(low, &o, &s2, &len2, err, sizeof err) < 0 || len != len2 || memcmp(s, s2, len))
        FAIL("%s: emit_asm is not deterministic", label);
    free(s2);
    check_text(sym, s, false);
    count_forms(s);
    if (variant == 0) {
        /* a decision that does not apply to its node changes nothing: every node gets all the bits that do not
         * apply to its operation */
        uint8_t *na = calloc(low->nnode + 1, 1);
        for (uint32_t i = 0; na && i < low->nnode; i++) {
            unsigned keep = EMIT_ASM_D_XMM;
            switch ((ir_op)low->node[i].op) {
            case IR_ADDCARRYX: keep |= EMIT_ASM_D_OF; break;
            case IR_ADD: keep |= EMIT_ASM_D_ADC0; break;
            case IR_MULX: keep |= EMIT_ASM_D_RDX_A | EMIT_ASM_D_RDX_B; break;
            case IR_AND: keep |= EMIT_ASM_D_BZHI; break;
            case IR_MUL:
            case IR_SHL: keep |= EMIT_ASM_D_CMUL_MASK | (low->node[i].op == IR_SHL ? EMIT_ASM_D_SHX : 0); break;
            case IR_SHR: keep |= EMIT_ASM_D_SHX; break;
            case IR_CMOVZNZ: keep |= EMIT_ASM_D_SBB; break;
            default: break;
            }
            na[i] = (uint8_t)(0xffu & ~keep);
        }
        emit_asm_opts on = o;
        on.decisions = na;
        on.stats = NULL;
        if (!na || emit_asm(low, &on, &s2, &len2, err, sizeof err) < 0)
            FAIL("%s: emit_asm with decisions that do not apply: %s", label, na ? err : "out of memory");
        else if (len != len2 || memcmp(s, s2, len))
            FAIL("%s: decisions that do not apply to their nodes changed the code", label);
        free(s2);
        s2 = NULL;
        free(na);
    }
    /* h_consts with its own decisions: the constant 38 is written once (rdx keeps it for the next mulx), one
     * testq serves the three selects on c, and the last select's zero is an xorl (then c is tested again) */
    if (variant == 0 && target == EMIT_ASM_TARGET_ADX && !strcmp(low->name, "h_consts")) {
        unsigned n38 = 0, ntest = 0;
        for (const char *p = s; (p = strstr(p, "$38,")); p++)
            n38++;
        for (const char *p = s; (p = strstr(p, "\ttestq ")); p++)
            ntest++;
        if (n38 != 1 || ntest != 2 || !strstr(s, "\txorl %"))
            FAIL("%s: %u writes of $38 (want 1), %u testq (want 2), xorl zero %s", label, n38, ntest,
                 strstr(s, "\txorl %") ? "present" : "missing");
    }
    /* h_consts with every chain on OF: the third chain starts while the second's carry is live in CF, and OF is
     * cleared by `adox %t, %t` of a zero t */
    if (variant == 4 && target == EMIT_ASM_TARGET_ADX && !strcmp(low->name, "h_consts")) {
        bool found = false;
        for (const char *p = s; !found && (p = strstr(p, "\tadox %")); p++) {
            const char *q = strchr(p + 7, ',');
            size_t rl = q ? (size_t)(q - (p + 6)) : 0;
            found = q && !strncmp(q + 2, p + 6, rl) && q[2 + rl] == '\n';
        }
        if (!found)
            FAIL("%s: no adox of a register with itself (OF cleared with CF live)", label);
    }
    /* forty values live at once with every spill to xmm: all 16 xmm registers, then stack slots */
    if (variant == 4 && !strcmp(low->name, "h_live40") && (stats.nxmmregs != 16 || !stats.nspills))
        FAIL("%s: xmm spills: %u xmm registers and %u stack spills, want 16 and some", label, stats.nxmmregs,
             stats.nspills);
    snprintf(path, sizeof path, "%s/%s.S", dir, sym);
    snprintf(so, sizeof so, "%s/%s.so", dir, sym);
    snprintf(obj, sizeof obj, "%s/%s.o", dir, sym);
    if (write_file(path, s, len) < 0) {
        FAIL("cannot write %s", path);
        goto out;
    }
    char *cso[] = { "cc", "-shared", "-fPIC", "-o", so, path, NULL };
    char *cobj[] = { "cc", "-c", "-o", obj, path, NULL };
    /* the object is disassembled for the default decisions only (the text is searched for branches every time;
     * two processes fewer per variant keep the test within its time under the sanitizers) */
#ifdef ECOPT_HAVE_CHECK
    bool disasm = false; /* emit.asm does it; the checker decodes every instruction (a branch is a rejection) */
#else
    bool disasm = variant == 0;
#endif
    if (run(cso, log, sizeof log) < 0 || (disasm && run(cobj, log, sizeof log) < 0)) {
        FAIL("%s: the assembler refused %s:\n%s", label, path, log);
        goto out;
    }
    char report[2048];
    int nj = disasm ? cc_find_conditional_jumps(obj, report, sizeof report) : 0;
    if (nj != 0)
        FAIL("%s: %d branches in the object (or objdump failed): %s", label, nj, report);
    void *h = cc_dlopen(so, err, sizeof err);
    if (!h) {
        FAIL("%s: %s", label, err);
        goto out;
    }
    cc_fn fn = cc_dlsym(h, sym, err, sizeof err);
    if (!fn)
        FAIL("%s: %s", label, err);
    else
        run_code(src, fn, variant == 3 ? "random schedule" : variant == 4 ? "xmm spills" : variant ? "random decisions"
                                                                                                 : "default",
                 n);
    cc_dlclose(h);
    printf("  %-44s %-8s %5u insns %4u spills %4u reloads %3u slots %u saved %3u flag saves %2u xmm spills\n",
           label, vname, stats.ninsns, stats.nspills, stats.nreloads, stats.nslots, stats.nsaved, stats.nflags,
           stats.nxmm);
#ifdef ECOPT_HAVE_CHECK
    if (variant != 3 || check_shuffled) {
        check_result r;
        memset(&r, 0, sizeof r);
        check_verdict v = check_file(src, path, sym, NULL, &r);
        printf("    ecopt check: %s%s%s (%.2f s)\n", v == CHECK_PROVED ? "PROVED" : v == CHECK_REJECTED ? "REJECTED"
                                                                                                  : "BAD INPUT",
               v == CHECK_PROVED ? "" : ": ", v == CHECK_PROVED ? "" : r.reason, r.seconds_total);
        if (v != CHECK_PROVED && dec) { /* which decisions: node, operation, byte */
            printf("    decisions (seed %llu, variant %d):", (unsigned long long)seed, variant);
            for (uint32_t i = 0; i < low->nnode; i++)
                if (dec[i])
                    printf(" %u:%s:0x%02x", i, ir_op_name((ir_op)low->node[i].op), dec[i]);
            printf("\n");
        }
        if (require_proved && v != CHECK_PROVED)
            FAIL("%s: not PROVED: %s", label, r.reason);
        else if (v != CHECK_PROVED && !(v == CHECK_REJECTED && r.rule == CHECK_RULE_UNPROVED))
            FAIL("%s: the checker rejects it (%s): %s %s", label, check_rule_name(r.rule), r.reason, r.cex);
    }
#endif
out:
    free(s);
    free(dec);
}

static const char *only; /* --only NAME: just that function */


static void test_func(ir_func *src, const char *label, bool xmm_variant)
{
    char err[1024];
    if (only && strcmp(only, src->name))
        return;
    ir_func *low = ir_lower(src, err, sizeof err);
    if (!low) {
        FAIL("%s: ir_lower: %s", label, err);
        return;
    }
    test_one(src, low, 0, iters, label);
    test_one(src, low, 1, iters / 10, label);
    test_one(src, low, 2, iters / 10, label);
    uint64_t st = seed ^ 0x5eed;
#ifdef ECOPT_HAVE_CHECK
    /* the random schedules are run by emit.asm (same seed); here only when they are checked too */
    ir_func *sh = check_shuffled ? ep_random_schedule(low, &st) : NULL;
    if (check_shuffled && !sh)
        FAIL("%s: out of memory", label);
    else if (sh)
        test_one(src, sh, 3, iters / 10, label);
#else
    ir_func *sh = ep_random_schedule(low, &st);
    if (!sh)
        FAIL("%s: out of memory", label);
    else
        test_one(src, sh, 3, iters / 10, label);
#endif
    ir_func_free(sh);
    if (xmm_variant)
        test_one(src, low, 4, iters / 10, label);
    ir_func_free(low);
}

/* ---- aliased outputs under the optimizer's schedules ---------------------------------------------------------- */
#ifndef ECOPT_HAVE_CHECK

/* A random schedule as the optimizer's search builds them (search/candidate.c): any topological order of the data
 * dependences in which the stores to each output keep their order and every load of input i precedes the first
 * store (in f's order) to each output that may alias i; loads otherwise move freely. Half the picks prefer a ready
 * load or store, so stores come early and many loaded limbs are still needed at the first store. */
static ir_func *search_schedule(const ir_func *f, uint64_t *st)
{
    uint32_t n = f->nnode;
    ir_func *g = ir_func_clone(f);
    uint32_t *order = calloc(n + 1, sizeof *order), *ready = calloc(n + 1, sizeof *ready);
    uint32_t *first = calloc(f->narr + 1, sizeof *first);
    uint8_t *done = calloc(n + 1, 1);
    if (!g || !order || !ready || !first || !done) {
        ir_func_free(g);
        g = NULL;
        goto out;
    }
    for (uint32_t j = 0; j < f->narr; j++)
        first[j] = UINT32_MAX;
    for (uint32_t i = n; i-- > 0;)
        if (f->node[i].op == IR_STORE)
            first[f->node[i].arr] = i;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t nr = 0, nmem = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (done[i])
                continue;
            const ir_node *x = &f->node[i];
            int ok = 1;
            for (int a = 0; a < x->nargs && ok; a++)
                if (!f->val[x->arg[a]].is_const && !done[f->val[x->arg[a]].node])
                    ok = 0;
            for (uint32_t j = 0; j < i && ok && x->op == IR_STORE; j++) /* earlier stores to the same output */
                if (!done[j] && f->node[j].op == IR_STORE && f->node[j].arr == x->arr)
                    ok = 0;
            for (uint32_t j = 0; j < n && ok && x->op == IR_STORE; j++) /* loads the alias rule puts first */
                if (!done[j] && f->node[j].op == IR_LOAD && first[x->arr] <= i &&
                    ((f->arr[x->arr].alias >> f->node[j].arr) & 1))
                    ok = 0;
            if (!ok)
                continue;
            if (x->op == IR_LOAD || x->op == IR_STORE) { /* memory nodes first in ready[] */
                ready[nr++] = ready[nmem];
                ready[nmem++] = i;
            } else
                ready[nr++] = i;
        }
        uint64_t r = ep_rand(st);
        uint32_t pick = (r & 1) && nmem ? ready[(r >> 1) % nmem] : ready[(r >> 1) % nr];
        done[pick] = 1;
        order[k] = pick;
    }
    for (uint32_t k = 0; k < n; k++) {
        g->node[k] = f->node[order[k]];
        for (int r = 0; r < g->node[k].nres; r++)
            g->val[g->node[k].res[r]].node = k;
    }
out:
    free(order);
    free(ready);
    free(first);
    free(done);
    return g;
}

/* Regression (ecopt opt refused candidates with "internal: node N: value V has no location" and kept none of the
 * wrong ones only because it runs every candidate against the interpreter): outputs that alias inputs, random
 * schedules as the search makes them, random decision bytes (half of them spilling to xmm). Every candidate must
 * be emitted and must compute what ir_eval computes, also with the output passed as each input it may alias. The
 * candidates of a program are assembled into one shared object (one cc run). */
#define ALIAS_CANDS 250
static void test_alias_sched(void)
{
    char err[1024], path[700], so[700], log[4096];
    for (unsigned pi = 0; pi < ep_naprogs; pi++) {
        ir_func *src = ep_aprog_build(pi);
        if (only && strcmp(only, src->name)) {
            ir_func_free(src);
            continue;
        }
        ir_func *low = ir_lower(src, err, sizeof err);
        if (!low) {
            FAIL("%s: ir_lower: %s", src->name, err);
            ir_func_free(src);
            continue;
        }
        snprintf(path, sizeof path, "%s/%s_sched.S", dir, src->name);
        snprintf(so, sizeof so, "%s/%s_sched.so", dir, src->name);
        FILE *fp = fopen(path, "w");
        if (!fp) {
            FAIL("cannot write %s", path);
            ir_func_free(low);
            ir_func_free(src);
            continue;
        }
        uint64_t st = seed * 1000003u + pi;
        unsigned emitted = 0, spills = 0, xmm = 0, rescues = 0;
        for (unsigned k = 0; k < ALIAS_CANDS; k++) {
            ir_func *g = search_schedule(low, &st);
            uint8_t *dec = calloc(low->nnode + 1, 1);
            if (!g || !dec) {
                FAIL("out of memory");
                ir_func_free(g);
                free(dec);
                break;
            }
            for (uint32_t i = 0; i < low->nnode; i++)
                dec[i] = (uint8_t)(ep_rand(&st) & dec_mask) | (k % 2 ? EMIT_ASM_D_XMM : 0);
            char sym[160];
            snprintf(sym, sizeof sym, "%s_s%u", src->name, k);
            emit_asm_stats stt;
            emit_asm_opts o = { .symbol = sym, .decisions = dec, .stats = &stt, .target = target };
            char *s = NULL;
            size_t len = 0;
            if (emit_asm(g, &o, &s, &len, err, sizeof err) < 0)
                FAIL("%s: schedule %u (--seed %llu): emit_asm: %s", src->name, k, (unsigned long long)seed, err);
            else {
                fwrite(s, 1, len, fp);
                emitted++;
                spills += stt.nspills;
                xmm += stt.nxmm;
                rescues += stt.nreloads;
            }
            free(s);
            free(dec);
            ir_func_free(g);
        }
        if (fclose(fp) != 0)
            FAIL("cannot write %s", path);
        char *cso[] = { "cc", "-shared", "-fPIC", "-o", so, path, NULL };
        void *h = NULL;
        if (run(cso, log, sizeof log) < 0)
            FAIL("%s: the assembler refused %s:\n%s", src->name, path, log);
        else if (!(h = cc_dlopen(so, err, sizeof err)))
            FAIL("%s: %s", src->name, err);
        for (unsigned k = 0; h && k < ALIAS_CANDS; k++) {
            char sym[160], what[200];
            snprintf(sym, sizeof sym, "%s_s%u", src->name, k);
            cc_fn fn = cc_dlsym(h, sym, err, sizeof err);
            if (!fn)
                continue; /* not emitted: already a failure */
            snprintf(what, sizeof what, "search schedule %u, --seed %llu", k, (unsigned long long)seed);
            run_code(src, fn, what, 2);
        }
        if (h)
            cc_dlclose(h);
        printf("  %-44s %u search schedules x random decisions emitted and run (%u spills, %u xmm spills, %u "
               "reloads)\n",
               src->name, emitted, spills, xmm, rescues);
        ir_func_free(low);
        ir_func_free(src);
    }
}
#endif

/* ---- the functions ------------------------------------------------------------------------------------------ */

static void test_gen(void)
{
    static const struct {
        const char *prime;
        gen_method m;
        unsigned limbs;
        ir_kind op;
    } specs[] = {
        { "2^255-19", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_MUL },
        { "2^255-19", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_SQUARE },
        { "2^255-19", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_ADD },
        { "2^255-19", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_SUB },
        { "2^255-19", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_CARRY },
        { "2^255-19", GEN_SOLINAS_SATURATED, 4, IR_KIND_MUL },
        { "2^255-19", GEN_SOLINAS_SATURATED_2CHAIN, 4, IR_KIND_MUL }, /* two live carry chains: CF and OF */
        { "2^255-19", GEN_SOLINAS_SATURATED_2CHAIN, 4, IR_KIND_SQUARE },
        { "2^256-2^224+2^192+2^96-1", GEN_MONTGOMERY, 4, IR_KIND_MUL },
        { "2^256-2^224+2^192+2^96-1", GEN_MONTGOMERY, 4, IR_KIND_ADD },
        { "2^256-2^224+2^192+2^96-1", GEN_MONTGOMERY, 4, IR_KIND_SUB },
        { "2^521-1", GEN_SOLINAS_UNSATURATED, 9, IR_KIND_MUL },
        /* shifted copies of m joined by `|` (montgomery-sparse); m = T_0 (2^32 + 1) by shifts (P-384) */
        { "2^256-2^224+2^192+2^96-1", GEN_MONTGOMERY_SPARSE, 4, IR_KIND_MUL },
        { "2^384-2^128-2^96+2^32-1", GEN_MONTGOMERY_SPARSE, 6, IR_KIND_SQUARE },
        { "2^256-2^32-977", GEN_MONTGOMERY_SPARSE, 4, IR_KIND_MUL },
        { "2^256-2^32-977", GEN_SOLINAS_SATURATED, 4, IR_KIND_MUL },
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        gen_spec s = { .prime = specs[i].prime, .method = specs[i].m, .limbs = specs[i].limbs, .op = specs[i].op };
        char err[512];
        ir_func *f = gen_build(&s, err, sizeof err);
        if (!f) {
            FAIL("gen_build %s: %s", specs[i].prime, err);
            continue;
        }
        test_func(f, f->name, false);
        ir_func_free(f);
    }
}

static char *read_all(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *b = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 65536 > cap) {
            cap = 2 * cap + 65536;
            char *nb = realloc(b, cap + 1);
            if (!nb) {
                free(b);
                fclose(fp);
                return NULL;
            }
            b = nb;
        }
        size_t r = fread(b + n, 1, cap - n, fp);
        n += r;
        if (r == 0)
            break;
    }
    fclose(fp);
    b[n] = 0;
    *len = n;
    return b;
}

static void test_fiat(const char *fdir)
{
    static const char *const fns[][2] = {
        { "curve25519_64.json", "fiat_25519_carry_mul" },
        { "curve25519_64.json", "fiat_25519_carry_square" },
        { "p256_64.json", "fiat_p256_mul" },
        { "p384_64.json", "fiat_p384_mul" },
        { "p434_64.json", "fiat_p434_mul" },
        { "secp256k1_montgomery_64.json", "fiat_secp256k1_montgomery_mul" },
        { "poly1305_64.json", "fiat_poly1305_carry_mul" },
        { "p256_64.json", "fiat_p256_add" },
        { "p256_64.json", "fiat_p256_sub" },
    };
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
        char path[1024], err[1024];
        snprintf(path, sizeof path, "%s/%s", fdir, fns[i][0]);
        size_t len = 0;
        char *json = read_all(path, &len);
        if (!json) {
            FAIL("cannot read %s", path);
            continue;
        }
        ir_func *f = ir_fiat_load(json, len, path, fns[i][1], err, sizeof err);
        free(json);
        if (!f) {
            FAIL("%s: %s", fns[i][1], err);
            continue;
        }
        test_func(f, f->name, false);
        ir_func_free(f);
    }
}

/* Hand-made programs for the register allocator and the flags (emit_progs.c, ep_rprogs) */
static void test_hand(void)
{
    for (unsigned i = 0; i < ep_nrprogs; i++) {
        ir_func *f = ep_rprog_build(i);
        test_func(f, f->name, true);
        ir_func_free(f);
    }
}

/* bad input: a clear error, no text */
static void test_bad(void)
{
    char err[512];
    char *s = NULL;
    gen_spec sp = { .prime = "2^255-19", .method = GEN_SOLINAS_UNSATURATED, .limbs = 5, .op = IR_KIND_MUL };
    ir_func *f = gen_build(&sp, err, sizeof err);
    if (!f) {
        FAIL("gen_build: %s", err);
        return;
    }
    if (emit_asm(f, NULL, &s, NULL, err, sizeof err) == 0 || s || !strstr(err, "u128") || !strstr(err, "ir_lower"))
        FAIL("an unlowered function: want an error naming u128 and ir_lower, got \"%s\"", s ? "text" : err);
    ir_func *low = ir_lower(f, err, sizeof err);
    emit_asm_opts o = { .symbol = "1x" };
    if (!low || emit_asm(low, &o, &s, NULL, err, sizeof err) == 0 || !strstr(err, "not an identifier"))
        FAIL("a bad symbol: want \"not an identifier\", got \"%s\"", err);
    /* header_extra: verbatim lines " * ..." at the end of the header comment; anything else is refused */
    static const char *const bad_extra[] = { "seed 5", " * seed 5\nticks 3", " * a */ b", " *" };
    for (size_t i = 0; low && i < sizeof bad_extra / sizeof bad_extra[0]; i++) {
        emit_asm_opts ob = { .header_extra = bad_extra[i] };
        s = NULL;
        if (emit_asm(low, &ob, &s, NULL, err, sizeof err) == 0 || s || !strstr(err, "header_extra line"))
            FAIL("header_extra \"%s\": want an error naming the line, got \"%s\"", bad_extra[i], s ? "text" : err);
        free(s);
        s = NULL;
    }
    emit_asm_opts og = { .header_extra = " * seed 5\n * verdict: PROVED" };
    if (low && emit_asm(low, &og, &s, NULL, err, sizeof err) < 0)
        FAIL("header_extra: %s", err);
    else if (low && (!strstr(s, "\n * seed 5\n * verdict: PROVED\n */\n") || strstr(s, "*/") != strrchr(s, '/') - 1))
        FAIL("header_extra: the lines are not at the end of the header comment");
    free(s);
    s = NULL;
    ir_func_free(low);
    ir_func_free(f);
    f = ir_parse("func m32\n  in a[1] 0..0xffffffff\n  out o[2]\n  a0:u64 = load a[0]\n"
                 "  l:u64, h:u64 = mulx.32 a0, a0\n  store o[0], l\n  store o[1], h\nend\n",
                 err, sizeof err);
    if (!f)
        FAIL("mulx.32 program: %s", err);
    else if (emit_asm(f, NULL, &s, NULL, err, sizeof err) == 0 || !strstr(err, "node 1 (mulx.32)"))
        FAIL("mulx.32: want an error naming node 1 (mulx.32), got \"%s\"", err);
    ir_func_free(f);
    if (emit_asm(NULL, NULL, &s, NULL, err, sizeof err) == 0)
        FAIL("NULL function accepted");
}

static int cpu_has_adx_bmi2(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    return (b >> 8 & 1) && (b >> 19 & 1); /* BMI2, ADX */
}

int main(int argc, char **argv)
{
    const char *fdir = NULL;
    int keep = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = strtol(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--fiat") && i + 1 < argc)
            fdir = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--keep"))
            keep = 1;
        else if (!strcmp(argv[i], "--require-proved"))
            require_proved = 1;
        else if (!strcmp(argv[i], "--dec-mask") && i + 1 < argc)
            dec_mask = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--check-shuffled"))
            check_shuffled = 1;
        else if (!strcmp(argv[i], "--target") && i + 1 < argc && emit_asm_target_parse(argv[i + 1], &target) == 0)
            i++;
        else {
            fprintf(stderr, "usage: test_emit_asm [--seed N] [--iters N] [--fiat DIR] [--keep] [--require-proved] "
                            "[--check-shuffled] [--only NAME] [--target adx|x86-64]\n");
            return 2;
        }
    }
    printf("test_emit_asm --seed %llu --iters %ld --target %s\n", (unsigned long long)seed, iters,
           emit_asm_target_name(target));
    test_bad();
    if (target == EMIT_ASM_TARGET_ADX && !cpu_has_adx_bmi2()) {
        printf("SKIP: this CPU has no BMI2/ADX (mulx, adcx, adox)\n");
        return failures ? 1 : 77;
    }
    if (!cc_available("cc")) {
        printf("SKIP: no cc to assemble with\n");
        return failures ? 1 : 77;
    }
    char err[512];
    if (cc_tmpdir(dir, sizeof dir, err, sizeof err) < 0) {
        FAIL("%s", err);
        return 1;
    }
    test_hand();
#ifndef ECOPT_HAVE_CHECK
    test_alias_sched(); /* emit.asm only: the candidates are run, not checked */
#endif
    test_gen();
    if (fdir)
        test_fiat(fdir);
    for (size_t i = 0; target == EMIT_ASM_TARGET_ADX && i < NFORMS; i++)
        if (!form_seen[i] && !only)
            FAIL("no emitted text has the form \"%s\": a path of the emitter went untested", FORMS[i] + 1);
    for (size_t i = 0; target == EMIT_ASM_TARGET_X86_64 && i < NFORMS_X64; i++)
        if (!form_seen_x64[i] && !only)
            FAIL("target x86-64: no emitted text has the form \"%s\": a path of the emitter went untested",
                 FORMS_X64[i] + 1);
    if (keep)
        printf("kept %s\n", dir);
    else
        cc_rmtree(dir);
    printf("%s (%d failures)\n", failures ? "FAIL" : "ok", failures);
    return failures ? 1 : 0;
}
