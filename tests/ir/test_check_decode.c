/* test_check_decode.c — machine code in (check/elf.c, check/decode.c).
 *
 * 1. Corpus: the multiply and square of curve25519_64, curve25519_solinas_64, p256_64, secp256k1_montgomery_64 and
 *    poly1305_64 (ir_fiat_load), emitted as C (emit_c), compiled with gcc -O2 -fno-tree-vectorize and clang -O2
 *    -fno-vectorize -fno-slp-vectorize into objects; each function is read back (check_code_read) and decoded. The
 *    instruction count, every address, length and byte, and every relocation agree with `objdump -d -r` on the same
 *    object (its text parsed here, independently), and every mnemonic with `objdump -M intel`'s (condition-code
 *    synonyms mapped); objdump's branches and divisions are ours; every instruction is
 *    classified SUPPORTED. The set of mnemonics per compiler is printed (it decides the executor's semantics).
 * 2. A hand-written .S: a branch, a call, a division, a RIP-relative load, an AVX instruction, lock/rep/movq-memory
 *    forms, a label without .size, a size-0 function, and one function of supported instructions whose operands and
 *    flag effects are compared with the Intel SDM ("Flags Affected"), written out here.
 * 3. Bad inputs: a missing file, garbage, every truncation of a valid object, a corrupted object (random byte flips:
 *    an error or a result, never a crash), a wrong machine and class, a missing symbol (the message lists the
 *    functions), a .S that does not assemble (the assembler's error line), undecodable and cut-off bytes.
 *
 * Usage: test_check_decode [--fiat DIR [--explore]] [--seed N] [--keep]. --explore also compiles the corpus with
 * -O3, -O2 -march=haswell and -O3 -march=native and lists what is not supported (information, never a failure). Exit 0 pass, 1 fail, 2 usage, 77 skip (no gcc, clang
 * or objdump). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cc_util.h"
#include "check/decode.h"
#include "check/elf.h"
#include "emit/emit_c.h"
#include "ir/ir.h"

static int failures;
#define FAIL(...)                                                                                                    \
    do {                                                                                                             \
        fprintf(stderr, "FAIL: " __VA_ARGS__);                                                                       \
        fprintf(stderr, "\n");                                                                                       \
        failures++;                                                                                                  \
    } while (0)

static char tmpdir[512];
static uint64_t rng_state;

static uint64_t rng(void)
{
    /* splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014) */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    for (size_t got; b && (got = fread(b + n, 1, cap - n, fp)) > 0;) {
        n += got;
        if (n == cap) {
            char *nb = realloc(b, 2 * cap + 1);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(fp);
    if (b)
        b[n] = '\0';
    if (len)
        *len = n;
    return b;
}

static int write_file(const char *path, const void *data, size_t len)
{
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return -1;
    size_t w = fwrite(data, 1, len, fp);
    return (fclose(fp) == 0 && w == len) ? 0 : -1;
}

/* run argv with stdout into outpath (no shell); exit status, or -1 */
static int run_to(char *const *argv, const char *outpath)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(outpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0)
            _exit(126);
        dup2(fd, 1);
        int nul = open("/dev/null", O_WRONLY);
        if (nul >= 0)
            dup2(nul, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* ---- objdump's view of one function ---------------------------------------------------------------------------- */

typedef struct {
    uint64_t addr;
    unsigned len;
    uint8_t bytes[16];
    char text[96]; /* mnemonic and operands as objdump prints them */
} od_insn;

typedef struct {
    od_insn *v;
    size_t n;
    uint64_t reloc_addr[64];
    char reloc_type[64][32];
    size_t nrel;
} od_func;

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* objdump -d -r --insn-width=16 [-M intel] on obj; the lines of `<name>:` up to the next blank line. 0, or -1. */
static int objdump_func_syntax(const char *obj, const char *name, od_func *f, int intel)
{
    memset(f, 0, sizeof *f);
    char outpath[700];
    snprintf(outpath, sizeof outpath, "%s/objdump.txt", tmpdir);
    char *argv[] = { (char *)"objdump", (char *)"-d", (char *)"-r", (char *)"--insn-width=16", (char *)obj,
                     intel ? (char *)"-M" : NULL, (char *)"intel", NULL };
    if (run_to(argv, outpath) != 0)
        return -1;
    char *txt = slurp(outpath, NULL);
    if (!txt)
        return -1;
    char head[300];
    snprintf(head, sizeof head, " <%s>:\n", name);
    char *p = strstr(txt, head);
    if (!p) {
        free(txt);
        return -1;
    }
    p = strchr(p, '\n') + 1;
    size_t cap = 0;
    while (*p && *p != '\n') {
        char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        char *q = p;
        while (*q == ' ' || *q == '\t')
            q++;
        uint64_t a = 0;
        int digits = 0;
        for (int h; (h = hexval(*q)) >= 0; q++, digits++)
            a = a * 16 + (uint64_t)h;
        if (digits && *q == ':' && q[1] == ' ' && !strncmp(q + 2, "R_", 2)) { /* relocation line */
            if (f->nrel < 64) {
                f->reloc_addr[f->nrel] = a;
                size_t k = 0;
                for (char *r = q + 2; r < eol && *r != '\t' && *r != ' ' && k < 31; r++)
                    f->reloc_type[f->nrel][k++] = *r;
                f->reloc_type[f->nrel][k] = '\0';
                f->nrel++;
            }
        } else if (digits && *q == ':' && q[1] == '\t') {
            if (f->n == cap) {
                cap = cap ? 2 * cap : 256;
                f->v = realloc(f->v, cap * sizeof *f->v);
            }
            od_insn *in = &f->v[f->n++];
            memset(in, 0, sizeof *in);
            in->addr = a;
            q += 2;
            while (q < eol && *q != '\t') {
                if (hexval(q[0]) >= 0 && hexval(q[1]) >= 0 && in->len < 16) {
                    in->bytes[in->len++] = (uint8_t)(hexval(q[0]) * 16 + hexval(q[1]));
                    q += 2;
                } else
                    q++;
            }
            if (*q == '\t')
                q++;
            snprintf(in->text, sizeof in->text, "%.*s", (int)(eol - q), q);
        }
        p = *eol ? eol + 1 : eol;
    }
    free(txt);
    return 0;
}

static int objdump_func(const char *obj, const char *name, od_func *f)
{
    return objdump_func_syntax(obj, name, f, 0);
}

/* objdump's Intel-syntax mnemonic in Zydis' spelling: prefixes dropped (rep/repz/lock/cs/ds/data16/notrack/bnd), the
 * condition-code synonyms objdump prefers turned into Zydis' (e -> z, ae -> nb, ...), movabs -> mov. Into out. */
static void od_mnemonic(const char *text, char *out, size_t len)
{
    static const char *const prefixes[] = { "rep ", "repz ", "repnz ", "repe ", "repne ", "lock ", "cs ", "ds ",
                                            "data16 ", "notrack ", "bnd ", "ss ", "es " };
    const char *t = text;
    for (int again = 1; again;) {
        again = 0;
        for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
            if (!strncmp(t, prefixes[i], strlen(prefixes[i]))) {
                t += strlen(prefixes[i]);
                while (*t == ' ')
                    t++;
                again = 1;
            }
    }
    size_t n = 0;
    while (t[n] && t[n] != ' ' && t[n] != '\t' && n + 1 < len)
        n++;
    snprintf(out, len, "%.*s", (int)n, t);
    /* string instructions: objdump writes the size as an operand ("stos BYTE PTR es:[rdi],al"), Zydis in the name */
    if (!strcmp(out, "stos") || !strcmp(out, "lods") || !strcmp(out, "movs") || !strcmp(out, "scas") ||
        !strcmp(out, "cmps")) {
        const char *sz = strstr(t, "QWORD") ? "q" : strstr(t, "DWORD") ? "d" : strstr(t, "WORD") ? "w" : "b";
        size_t ol = strlen(out);
        snprintf(out + ol, len - ol, "%s", sz);
        return;
    }
    if (!strcmp(out, "movabs")) {
        snprintf(out, len, "mov");
        return;
    }
    static const char *const stems[] = { "cmov", "set", "j" };
    static const char *const cc[][2] = { { "e", "z" },    { "ne", "nz" }, { "ae", "nb" }, { "nae", "b" },
                                         { "c", "b" },    { "nc", "nb" }, { "a", "nbe" }, { "na", "be" },
                                         { "g", "nle" },  { "ge", "nl" }, { "ng", "le" }, { "nge", "l" },
                                         { "pe", "p" },   { "po", "np" } };
    for (size_t i = 0; i < 3; i++) {
        size_t sl = strlen(stems[i]);
        if (strncmp(out, stems[i], sl))
            continue;
        for (size_t k = 0; k < sizeof cc / sizeof cc[0]; k++)
            if (!strcmp(out + sl, cc[k][0])) {
                char tmp[64];
                snprintf(tmp, sizeof tmp, "%s%s", stems[i], cc[k][1]);
                snprintf(out, len, "%s", tmp);
                return;
            }
    }
}

static int od_is_branch(const char *t)
{
    return t[0] == 'j' || !strncmp(t, "call", 4) || !strncmp(t, "loop", 4) || !strncmp(t, "bnd j", 5) ||
           !strncmp(t, "notrack j", 9);
}

static int od_is_div(const char *t)
{
    return !strncmp(t, "div", 3) || !strncmp(t, "idiv", 4);
}

/* Compare decoding and objdump for one function; cls_all_supported: every insn must be SUPPORTED. */
static void compare_with_objdump(const char *label, const char *obj, const char *name, const check_code *code,
                                 const check_insn_list *l)
{
    od_func od;
    if (objdump_func(obj, name, &od) != 0) {
        FAIL("%s: objdump has no function %s in %s", label, name, obj);
        return;
    }
    if (od.n != l->n)
        FAIL("%s: %zu instructions decoded, objdump shows %zu", label, l->n, od.n);
    for (size_t i = 0; i < od.n && i < l->n; i++) {
        const check_insn *in = &l->insns[i];
        const od_insn *o = &od.v[i];
        if (in->addr != o->addr || in->len != o->len || memcmp(in->bytes, o->bytes, o->len) != 0) {
            FAIL("%s: instruction %zu: 0x%llx+%u decoded, objdump 0x%llx+%u (%s)", label, i,
                 (unsigned long long)in->addr, in->len, (unsigned long long)o->addr, o->len, o->text);
            break;
        }
        int br = od_is_branch(o->text), dv = od_is_div(o->text);
        if (br != (in->cls == CHECK_INSN_BRANCH) || dv != (in->cls == CHECK_INSN_DIVISION))
            FAIL("%s: 0x%llx `%s` classified %d (objdump: branch %d, division %d)", label,
                 (unsigned long long)in->addr, o->text, (int)in->cls, br, dv);
    }
    /* the mnemonics, against objdump's Intel syntax */
    od_func oi;
    if (objdump_func_syntax(obj, name, &oi, 1) != 0 || oi.n != l->n)
        FAIL("%s: objdump -M intel shows %zu instructions, %zu decoded", label, oi.n, l->n);
    else
        for (size_t i = 0; i < oi.n; i++) {
            char m[64];
            od_mnemonic(oi.v[i].text, m, sizeof m);
            if (strcmp(m, check_mnemonic(&l->insns[i]))) {
                FAIL("%s: 0x%llx decoded as `%s`, objdump -M intel: `%s`", label,
                     (unsigned long long)l->insns[i].addr, check_mnemonic(&l->insns[i]), oi.v[i].text);
                break;
            }
        }
    free(oi.v);
    if (od.nrel != code->nrelocs)
        FAIL("%s: %zu relocations read, objdump shows %zu", label, code->nrelocs, od.nrel);
    for (size_t i = 0; i < od.nrel && i < code->nrelocs; i++)
        if (code->addr + code->relocs[i].offset != od.reloc_addr[i])
            FAIL("%s: relocation %zu at 0x%llx, objdump 0x%llx (%s)", label, i,
                 (unsigned long long)(code->addr + code->relocs[i].offset), (unsigned long long)od.reloc_addr[i],
                 od.reloc_type[i]);
    free(od.v);
}

/* ---- 1. the corpus -------------------------------------------------------------------------------------------- */

#define MAXMN 512
static const char *seen[4][MAXMN]; /* gcc, clang; with --explore: gcc, clang over the other flags */
static unsigned nseen[4];

static void note_mnemonic(int c, const char *m)
{
    for (unsigned i = 0; i < nseen[c]; i++)
        if (!strcmp(seen[c][i], m))
            return;
    if (nseen[c] < MAXMN)
        seen[c][nseen[c]++] = m;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char *const compilers[2] = { "gcc", "clang" };
static const char *const copts[2] = { "-O2 -fno-tree-vectorize", "-O2 -fno-vectorize -fno-slp-vectorize" };

/* --explore: other flags (not part of ctest; what the executor may meet beyond the corpus). Unsupported
 * instructions are listed, not failures. */
static int explore;
static const char *const explore_opts[3] = { "-O3", "-O2 -march=haswell", "-O3 -march=native" };

static void corpus(const char *fiatdir)
{
    static const char *const files[5] = { "curve25519_64", "curve25519_solinas_64", "p256_64",
                                          "secp256k1_montgomery_64", "poly1305_64" };
    static const char *const fns[5][2] = {
        { "fiat_25519_carry_mul", "fiat_25519_carry_square" },
        { "fiat_curve25519_solinas_mul", "fiat_curve25519_solinas_square" },
        { "fiat_p256_mul", "fiat_p256_square" },
        { "fiat_secp256k1_montgomery_mul", "fiat_secp256k1_montgomery_square" },
        { "fiat_poly1305_carry_mul", "fiat_poly1305_carry_square" },
    };
    size_t total[2] = { 0, 0 };
    unsigned nfunc = 0;
    for (int fi = 0; fi < 5; fi++) {
        char path[1024], err[1024];
        snprintf(path, sizeof path, "%s/%s.json", fiatdir, files[fi]);
        size_t len;
        char *json = slurp(path, &len);
        if (!json) {
            FAIL("%s: cannot read", path);
            continue;
        }
        for (int k = 0; k < 2; k++) {
            ir_func *f = ir_fiat_load(json, len, path, fns[fi][k], err, sizeof err);
            if (!f) {
                FAIL("%s: %s", fns[fi][k], err);
                continue;
            }
            char *src = emit_c(f, NULL, err, sizeof err);
            if (!src) {
                FAIL("%s: emit_c: %s", fns[fi][k], err);
                ir_func_free(f);
                continue;
            }
            for (int c = 0; c < 2; c++)
                for (int x = 0; explore && x < 3; x++) {
                    char obj[1024], stem[160];
                    snprintf(stem, sizeof stem, "%s_%s_x%d", fns[fi][k], compilers[c], x);
                    check_code code;
                    check_insn_list l;
                    if (cc_build_obj(compilers[c], explore_opts[x], src, tmpdir, stem, obj, sizeof obj, err,
                                     sizeof err) != 0 ||
                        check_code_read(obj, fns[fi][k], &code, err, sizeof err) != 0) {
                        printf("explore %s %s %s: %s\n", compilers[c], explore_opts[x], fns[fi][k], err);
                        continue;
                    }
                    if (check_decode_code(&code, &l, err, sizeof err) == 0) {
                        for (size_t i = 0; i < l.n; i++) {
                            note_mnemonic(2 + c, check_mnemonic(&l.insns[i]));
                            if (l.insns[i].cls != CHECK_INSN_SUPPORTED) {
                                char d[200];
                                printf("explore %s %s %s: %s\n", compilers[c], explore_opts[x], fns[fi][k],
                                       check_insn_describe(&l.insns[i], d, sizeof d));
                            }
                        }
                        check_insn_list_free(&l);
                    }
                    check_code_free(&code);
                }
            for (int c = 0; c < 2; c++) {
                char obj[1024], label[256], stem[128];
                snprintf(stem, sizeof stem, "%s_%s", fns[fi][k], compilers[c]);
                snprintf(label, sizeof label, "%s (%s)", fns[fi][k], compilers[c]);
                if (cc_build_obj(compilers[c], copts[c], src, tmpdir, stem, obj, sizeof obj, err, sizeof err) != 0) {
                    FAIL("%s: does not compile: %s", label, err);
                    continue;
                }
                check_code code;
                if (check_code_read(obj, fns[fi][k], &code, err, sizeof err) != 0) {
                    FAIL("%s: %s", label, err);
                    continue;
                }
                check_insn_list l;
                if (check_decode_code(&code, &l, err, sizeof err) != 0) {
                    FAIL("%s: %s", label, err);
                    check_code_free(&code);
                    continue;
                }
                compare_with_objdump(label, obj, fns[fi][k], &code, &l);
                if (code.nrelocs)
                    FAIL("%s: %zu relocations inside the function (first at +0x%llx, %s)", label, code.nrelocs,
                         (unsigned long long)code.relocs[0].offset, code.relocs[0].sym);
                for (size_t i = 0; i < l.n; i++) {
                    note_mnemonic(c, check_mnemonic(&l.insns[i]));
                    if (l.insns[i].cls != CHECK_INSN_SUPPORTED) {
                        char d[200];
                        FAIL("%s: %s", label, check_insn_describe(&l.insns[i], d, sizeof d));
                    }
                }
                total[c] += l.n;
                nfunc++;
                check_insn_list_free(&l);
                check_code_free(&code);
            }
            free(src);
            ir_func_free(f);
        }
        free(json);
    }
    printf("corpus: %u functions decoded; %zu instructions from gcc, %zu from clang\n", nfunc, total[0], total[1]);
    for (int c = 0; c < (explore ? 4 : 2); c++) {
        qsort(seen[c], nseen[c], sizeof seen[c][0], cmp_str);
        printf("mnemonics (%s%s, %u):", compilers[c % 2], c >= 2 ? ", --explore flags" : "", nseen[c]);
        for (unsigned i = 0; i < nseen[c]; i++)
            printf(" %s", seen[c][i]);
        printf("\n");
    }
}

/* ---- 2. hand-written assembly ------------------------------------------------------------------------------------ */

static const char HAND_S[] =
    "\t.text\n"
    "\t.globl f_branch\n\t.type f_branch,@function\n"
    "f_branch:\n\tmov (%rsi), %rax\n\ttest %rax, %rax\n\tjz 1f\n\tadd $1, %rax\n1:\tmov %rax, (%rdi)\n\tret\n"
    "\t.size f_branch, .-f_branch\n"
    "\t.globl f_div\n\t.type f_div,@function\n"
    "f_div:\n\tmov %rdx, %rcx\n\tmov (%rsi), %rax\n\txor %edx, %edx\n\tdiv %rcx\n\tidivq 8(%rsi)\n\tret\n"
    "\t.size f_div, .-f_div\n"
    "\t.globl f_rip\n\t.type f_rip,@function\n"
    "f_rip:\n\tmov k19(%rip), %rax\n\tmov %rax, (%rdi)\n\tret\n"
    "\t.size f_rip, .-f_rip\n"
    "\t.globl f_abs\n\t.type f_abs,@function\n"
    "f_abs:\n\tmov k19, %rax\n\tret\n"
    "\t.size f_abs, .-f_abs\n"
    "\t.globl f_avx\n\t.type f_avx,@function\n"
    "f_avx:\n\tvmovdqu (%rsi), %ymm0\n\tvpaddq %ymm0, %ymm0, %ymm1\n\tret\n"
    "\t.size f_avx, .-f_avx\n"
    "\t.globl f_call\n\t.type f_call,@function\n"
    "f_call:\n\tpush %rbx\n\tcall f_div\n\tpop %rbx\n\tret\n"
    "\t.size f_call, .-f_call\n"
    "\t.globl f_odd\n\t.type f_odd,@function\n"
    "f_odd:\n\tlock addq $1, (%rdi)\n\tmovq (%rsi), %xmm0\n\tvmovq %xmm0, %xmm1\n\trep stosb\n\tmov %fs:0, %rax\n"
    "\tret $8\n"
    "\t.size f_odd, .-f_odd\n"
    "\t.globl f_label\n"
    "f_label:\n\tmov (%rsi), %rax\n\tret\n"
    "\t.globl f_next\n"
    "f_next:\n\tret\n"
    "\t.globl f_zero\n\t.type f_zero,@function\n"
    "f_zero:\n\t.size f_zero, 0\n\tret\n"
    "\t.globl f_ok\n\t.type f_ok,@function\n"
    "f_ok:\n"
    "\tadd %rcx, %rax\n"          /* 0 */
    "\tadc 8(%rsi,%rcx,4), %rax\n" /* 1 */
    "\tadcx %r8, %r9\n"            /* 2 */
    "\tadox %r10, %r11\n"          /* 3 */
    "\tmul %rcx\n"                 /* 4 */
    "\tmulx %r8, %r9, %r10\n"      /* 5 */
    "\timul %rcx, %rax\n"          /* 6 */
    "\tshl $3, %rax\n"             /* 7 */
    "\tshrd $5, %rcx, %rax\n"      /* 8 */
    "\tshlx %rcx, %rax, %rdx\n"    /* 9 */
    "\tbzhi %rcx, %rax, %rdx\n"    /* 10 */
    "\txor %eax, %eax\n"           /* 11 */
    "\tneg %rax\n"                 /* 12 */
    "\tnot %rax\n"                 /* 13 */
    "\tsbb %rdx, %rdx\n"           /* 14 */
    "\tcmovc %rcx, %rax\n"         /* 15 */
    "\tsetl %al\n"                 /* 16 */
    "\tclc\n"                      /* 17 */
    "\tstc\n"                      /* 18 */
    "\tlea 19(%rax,%rax,8), %rdx\n"/* 19 */
    "\tmovabs $0x123456789abcdef0, %rax\n" /* 20 */
    "\tmovzbl %al, %eax\n"         /* 21 */
    "\tmovslq %ecx, %rax\n"        /* 22 */
    "\tcltq\n"                     /* 23 */
    "\txchg %rax, %rcx\n"          /* 24 */
    "\tmovq %rax, %xmm3\n"         /* 25 */
    "\tvmovq %xmm3, %rax\n"        /* 26 */
    "\tsar $1, %rax\n"             /* 27 */
    "\tshr %cl, %rax\n"            /* 28 */
    "\ttest $-8, %rax\n"           /* 29 */
    "\tcmp %rax, (%rdi)\n"         /* 30 */
    "\tpush %r12\n"                /* 31 */
    "\tpop %r12\n"                 /* 32 */
    "\tsete %al\n"                 /* 33 */
    "\tmov $-1, %rax\n"            /* 34 */
    "\tshl $1, %rax\n"             /* 35 */
    "\tshl $64, %rax\n"            /* 36: count masked to 0 */
    "\tshld $1, %rcx, %rax\n"      /* 37 */
    "\tret\n"                      /* 38 */
    "\t.size f_ok, .-f_ok\n"
    "\t.data\nk19:\t.quad 19\n"
    "\t.section .note.GNU-stack,\"\",@progbits\n";

#define CF CHECK_FLAG_CF
#define PF CHECK_FLAG_PF
#define AF CHECK_FLAG_AF
#define ZF CHECK_FLAG_ZF
#define SF CHECK_FLAG_SF
#define OF CHECK_FLAG_OF
#define ALL6 (CF | PF | AF | ZF | SF | OF)

/* Intel SDM Vol. 2, "Flags Affected" of each instruction of f_ok, in order: read, written (defined), undefined.
 * Shifts (SHL/SHR/SAR, SHLD/SHRD): OF undefined unless the count is 1, AF undefined, nothing if the count is 0. BZHI: ZF SF CF written, OF cleared, AF PF
 * undefined. Logic ops: OF CF cleared, SF ZF PF set, AF undefined. MUL/IMUL: CF OF, the rest undefined. */
static const struct {
    const char *mnemonic;
    uint32_t rd, wr, und;
} ok_expect[] = {
    { "add", 0, ALL6, 0 },
    { "adc", CF, ALL6, 0 },
    { "adcx", CF, CF, 0 },
    { "adox", OF, OF, 0 },
    { "mul", 0, CF | OF, SF | ZF | AF | PF },
    { "mulx", 0, 0, 0 },
    { "imul", 0, CF | OF, SF | ZF | AF | PF },
    { "shl", 0, CF | SF | ZF | PF, OF | AF },
    { "shrd", 0, CF | SF | ZF | PF, OF | AF },
    { "shlx", 0, 0, 0 },
    { "bzhi", 0, ZF | SF | CF | OF, AF | PF },
    { "xor", 0, CF | OF | SF | ZF | PF, AF },
    { "neg", 0, ALL6, 0 },
    { "not", 0, 0, 0 },
    { "sbb", CF, ALL6, 0 },
    { "cmovb", CF, 0, 0 },
    { "setl", SF | OF, 0, 0 },
    { "clc", 0, CF, 0 },
    { "stc", 0, CF, 0 },
    { "lea", 0, 0, 0 },
    { "mov", 0, 0, 0 },
    { "movzx", 0, 0, 0 },
    { "movsxd", 0, 0, 0 },
    { "cdqe", 0, 0, 0 },
    { "xchg", 0, 0, 0 },
    { "movq", 0, 0, 0 },
    { "vmovq", 0, 0, 0 },
    { "sar", 0, ALL6 & ~AF, AF },      /* count 1: OF cleared for SAR */
    { "shr", 0, CF | SF | ZF | PF, OF | AF }, /* count in cl: unknown, so OF may be undefined; flags_conditional */
    { "test", 0, CF | OF | SF | ZF | PF, AF },
    { "cmp", 0, ALL6, 0 },
    { "push", 0, 0, 0 },
    { "pop", 0, 0, 0 },
    { "setz", ZF, 0, 0 },
    { "mov", 0, 0, 0 },
    { "shl", 0, CF | SF | ZF | PF | OF, AF }, /* 1-bit shift: OF defined */
    { "shl", 0, 0, 0 },                       /* count 0: no flag affected */
    { "shld", 0, CF | SF | ZF | PF | OF, AF },
    { "ret", 0, 0, 0 },
};

static const check_insn *find_insn(const check_insn_list *l, const char *mn)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(check_mnemonic(&l->insns[i]), mn))
            return &l->insns[i];
    return NULL;
}

static int decode_sym(const char *obj, const char *name, check_code *code, check_insn_list *l)
{
    char err[1024];
    if (check_code_read(obj, name, code, err, sizeof err) != 0) {
        FAIL("%s: %s", name, err);
        return -1;
    }
    if (check_decode_code(code, l, err, sizeof err) != 0) {
        FAIL("%s: %s", name, err);
        check_code_free(code);
        return -1;
    }
    compare_with_objdump(name, obj, name, code, l);
    return 0;
}

static void expect_class(const check_insn_list *l, const char *fn, const char *mn, check_insn_class cls,
                         const char *describe_part)
{
    const check_insn *in = find_insn(l, mn);
    if (!in) {
        FAIL("%s: no `%s` decoded", fn, mn);
        return;
    }
    char d[256];
    check_insn_describe(in, d, sizeof d);
    if (in->cls != cls)
        FAIL("%s: `%s` classified %d, expected %d (%s)", fn, mn, (int)in->cls, (int)cls, d);
    if (describe_part && !strstr(d, describe_part))
        FAIL("%s: `%s` described as \"%s\", expected to contain \"%s\"", fn, mn, d, describe_part);
}

static void hand_written(void)
{
    char spath[700], opath[700], err[1024];
    snprintf(spath, sizeof spath, "%s/hand.S", tmpdir);
    if (write_file(spath, HAND_S, sizeof HAND_S - 1) != 0) {
        FAIL("cannot write %s", spath);
        return;
    }
    /* the .o for objdump (built the same way the reader assembles: cc -c) */
    snprintf(opath, sizeof opath, "%s/hand.o", tmpdir);
    char *argv[] = { (char *)"cc", (char *)"-c", (char *)"-o", opath, spath, NULL };
    char logp[700];
    snprintf(logp, sizeof logp, "%s/cc.log", tmpdir);
    if (run_to(argv, logp) != 0) {
        FAIL("hand.S does not assemble with cc");
        return;
    }
    check_code code;
    check_insn_list l;

    /* the .S path (assembled by check_code_read) and the .o give the same bytes */
    check_code a, b;
    if (check_code_read(spath, "f_ok", &a, err, sizeof err) != 0)
        FAIL("f_ok from .S: %s", err);
    else {
        if (check_code_read(opath, "f_ok", &b, err, sizeof err) != 0)
            FAIL("f_ok from .o: %s", err);
        else {
            if (a.size != b.size || memcmp(a.bytes, b.bytes, a.size) || a.addr != b.addr)
                FAIL("f_ok: .S and .o give different bytes");
            check_code_free(&b);
        }
        check_code_free(&a);
    }

    char want[128];
    if (decode_sym(opath, "f_branch", &code, &l) == 0) {
        const check_insn *j = find_insn(&l, "jz");
        snprintf(want, sizeof want, "branch `jz` at 0x%llx", j ? (unsigned long long)j->addr : 0ull);
        expect_class(&l, "f_branch", "jz", CHECK_INSN_BRANCH, want);
        expect_class(&l, "f_branch", "test", CHECK_INSN_SUPPORTED, NULL);
        check_insn_list_free(&l);
        check_code_free(&code);
    }
    if (decode_sym(opath, "f_div", &code, &l) == 0) {
        expect_class(&l, "f_div", "div", CHECK_INSN_DIVISION, "division `div`");
        expect_class(&l, "f_div", "idiv", CHECK_INSN_DIVISION, "division `idiv`");
        check_insn_list_free(&l);
        check_code_free(&code);
    }
    if (decode_sym(opath, "f_rip", &code, &l) == 0) {
        const check_insn *in = l.n ? &l.insns[0] : NULL;
        if (!in || !in->rip_relative || in->reloc < 0)
            FAIL("f_rip: the first instruction is not marked RIP-relative with a relocation");
        else if (code.relocs[in->reloc].type != 2 /* R_X86_64_PC32 */ || strcmp(code.relocs[in->reloc].sym, ".data"))
            FAIL("f_rip: relocation type %u against %s, expected R_X86_64_PC32 (2) against .data",
                 code.relocs[in->reloc].type, code.relocs[in->reloc].sym);
        if (l.n > 1 && (l.insns[1].rip_relative || l.insns[1].reloc >= 0))
            FAIL("f_rip: the store is marked RIP-relative or relocated");
        check_insn_list_free(&l);
        check_code_free(&code);
    }
    if (decode_sym(opath, "f_abs", &code, &l) == 0) {
        if (!l.n || !l.insns[0].absolute || l.insns[0].reloc < 0 || l.insns[0].rip_relative)
            FAIL("f_abs: the load is not marked absolute with a relocation");
        check_insn_list_free(&l);
        check_code_free(&code);
    }
    if (decode_sym(opath, "f_avx", &code, &l) == 0) {
        const check_insn *v = find_insn(&l, "vpaddq");
        snprintf(want, sizeof want, "unknown instruction `vpaddq` at 0x%llx", v ? (unsigned long long)v->addr : 0ull);
        expect_class(&l, "f_avx", "vpaddq", CHECK_INSN_UNKNOWN, want);
        expect_class(&l, "f_avx", "vmovdqu", CHECK_INSN_UNKNOWN, "unknown instruction `vmovdqu`");
        check_insn_list_free(&l);
        check_code_free(&code);
    }
    if (decode_sym(opath, "f_call", &code, &l) == 0) {
        expect_class(&l, "f_call", "call", CHECK_INSN_BRANCH, "branch `call`");
        const check_insn *c = find_insn(&l, "call");
        if (c && (c->reloc < 0 || code.relocs[c->reloc].type != 4 /* R_X86_64_PLT32 */))
            FAIL("f_call: the call carries no R_X86_64_PLT32 relocation");
        expect_class(&l, "f_call", "push", CHECK_INSN_SUPPORTED, NULL);
        check_insn_list_free(&l);
        check_code_free(&code);
    }
    if (decode_sym(opath, "f_odd", &code, &l) == 0) {
        const char *whys[] = { "lock", "general-purpose", "general-purpose", "`stosb`", "fs/gs", "ret imm16" };
        if (l.n != 6)
            FAIL("f_odd: %zu instructions, expected 6", l.n);
        for (size_t i = 0; i < l.n && i < 6; i++) {
            char d[256];
            check_insn_describe(&l.insns[i], d, sizeof d);
            if (l.insns[i].cls != CHECK_INSN_UNKNOWN || !strstr(d, whys[i]))
                FAIL("f_odd: instruction %zu: \"%s\", expected an unsupported form mentioning \"%s\"", i, d, whys[i]);
        }
        check_insn_list_free(&l);
        check_code_free(&code);
    }
    if (decode_sym(opath, "f_label", &code, &l) == 0) {
        od_func od;
        if (objdump_func(opath, "f_next", &od) != 0 || !od.n)
            FAIL("f_label: objdump shows no f_next");
        else if (code.addr + code.size != od.v[0].addr)
            FAIL("f_label: a label without .size should end at f_next (0x%llx), ends at 0x%llx",
                 (unsigned long long)od.v[0].addr, (unsigned long long)(code.addr + code.size));
        free(od.v);
        check_insn_list_free(&l);
        check_code_free(&code);
    }
    if (check_code_read(opath, "f_zero", &code, err, sizeof err) == 0) {
        FAIL("f_zero: size 0 accepted");
        check_code_free(&code);
    } else if (!strstr(err, "size 0"))
        FAIL("f_zero: error \"%s\" does not say size 0", err);

    if (decode_sym(opath, "f_ok", &code, &l) == 0) {
        size_t ne = sizeof ok_expect / sizeof ok_expect[0];
        if (l.n != ne)
            FAIL("f_ok: %zu instructions, expected %zu", l.n, ne);
        for (size_t i = 0; i < l.n && i < ne; i++) {
            const check_insn *in = &l.insns[i];
            char d[256];
            if (in->cls != CHECK_INSN_SUPPORTED)
                FAIL("f_ok: %s", check_insn_describe(in, d, sizeof d));
            if (strcmp(check_mnemonic(in), ok_expect[i].mnemonic))
                FAIL("f_ok: instruction %zu is `%s`, expected `%s`", i, check_mnemonic(in), ok_expect[i].mnemonic);
            uint32_t rd = in->flags_read & CHECK_FLAGS_STATUS, wr = in->flags_written & CHECK_FLAGS_STATUS,
                     un = in->flags_undefined & CHECK_FLAGS_STATUS;
            if (rd != ok_expect[i].rd || wr != ok_expect[i].wr || un != ok_expect[i].und)
                FAIL("f_ok: `%s` at 0x%llx flags read/written/undefined %#x/%#x/%#x, the SDM says %#x/%#x/%#x",
                     ok_expect[i].mnemonic, (unsigned long long)in->addr, rd, wr, un, ok_expect[i].rd,
                     ok_expect[i].wr, ok_expect[i].und);
        }
        if (l.n == ne) {
            /* operands: adc 8(%rsi,%rcx,4), %rax — Intel order: rax (read+write), then the memory operand */
            const check_insn *in = &l.insns[1];
            if (in->nvisible != 2 || in->ops[0].kind != CHECK_OPND_REG || in->ops[0].reg != ZYDIS_REGISTER_RAX ||
                in->ops[0].access != (CHECK_OPND_READ | CHECK_OPND_WRITE) || in->ops[1].kind != CHECK_OPND_MEM ||
                in->ops[1].mem.base != ZYDIS_REGISTER_RSI || in->ops[1].mem.index != ZYDIS_REGISTER_RCX ||
                in->ops[1].mem.scale != 4 || in->ops[1].mem.disp != 8 || in->ops[1].size != 64 ||
                in->ops[1].access != CHECK_OPND_READ)
                FAIL("f_ok: adc's operands decoded wrongly");
            /* mul %rcx: visible rcx, hidden rax (read, written) and rdx (written) */
            in = &l.insns[4];
            int rax = 0, rdx = 0;
            for (unsigned k = in->nvisible; k < in->nops; k++) {
                if (in->ops[k].kind == CHECK_OPND_REG && in->ops[k].reg == ZYDIS_REGISTER_RAX && in->ops[k].hidden &&
                    in->ops[k].access == (CHECK_OPND_READ | CHECK_OPND_WRITE))
                    rax = 1;
                if (in->ops[k].kind == CHECK_OPND_REG && in->ops[k].reg == ZYDIS_REGISTER_RDX && in->ops[k].hidden &&
                    (in->ops[k].access & CHECK_OPND_WRITE))
                    rdx = 1;
            }
            if (in->nvisible != 1 || in->ops[0].reg != ZYDIS_REGISTER_RCX || !rax || !rdx)
                FAIL("f_ok: mul's operands decoded wrongly (visible %u, rax %d, rdx %d)", in->nvisible, rax, rdx);
            /* lea 19(%rax,%rax,8), %rdx: an address, no memory access */
            in = &l.insns[19];
            if (in->ops[1].kind != CHECK_OPND_MEM || !in->ops[1].mem.is_agen || in->ops[1].access != 0 ||
                in->ops[1].mem.disp != 19 || in->ops[1].mem.scale != 8 || in->ops[0].reg != ZYDIS_REGISTER_RDX)
                FAIL("f_ok: lea's operands decoded wrongly");
            in = &l.insns[20];
            if (in->ops[1].kind != CHECK_OPND_IMM || in->ops[1].imm != 0x123456789abcdef0ull || in->len != 10)
                FAIL("f_ok: movabs's immediate decoded wrongly");
            in = &l.insns[34]; /* mov $-1, %rax: imm32 sign-extended */
            if (in->ops[1].kind != CHECK_OPND_IMM || in->ops[1].imm != UINT64_MAX)
                FAIL("f_ok: mov $-1's immediate is %#llx", (unsigned long long)in->ops[1].imm);
            in = &l.insns[29]; /* test $-8, %rax */
            if (in->ops[1].kind != CHECK_OPND_IMM || in->ops[1].imm != (uint64_t)-8)
                FAIL("f_ok: test $-8's immediate is %#llx", (unsigned long long)in->ops[1].imm);
            for (size_t i = 0; i < l.n; i++)
                if (l.insns[i].flags_conditional != (i == 28))
                    FAIL("f_ok: instruction %zu: flags_conditional %d (only the shift by %%cl has it)", i,
                         (int)l.insns[i].flags_conditional);
            in = &l.insns[5]; /* mulx %r8, %r9, %r10: r10:r9 = rdx * r8 (hidden rdx) */
            if (in->nvisible != 3 || in->ops[0].reg != ZYDIS_REGISTER_R10 || in->ops[1].reg != ZYDIS_REGISTER_R9 ||
                in->ops[2].reg != ZYDIS_REGISTER_R8)
                FAIL("f_ok: mulx's operands decoded wrongly");
            char t[128];
            check_insn_format(&l.insns[1], t, sizeof t);
            if (strcmp(t, "adcq 0x08(%rsi,%rcx,4), %rax") && !strstr(t, "(%rsi,%rcx,4)"))
                FAIL("f_ok: formatted adc as \"%s\"", t);
        }
        check_insn_list_free(&l);
        check_code_free(&code);
    }
}

/* ---- 3. bad inputs ------------------------------------------------------------------------------------------------ */

static void expect_error(const char *label, const char *path, const char *name, const char *part)
{
    check_code code;
    char err[1024] = "";
    if (check_code_read(path, name, &code, err, sizeof err) == 0) {
        FAIL("%s: accepted", label);
        check_code_free(&code);
        return;
    }
    if (!*err || strchr(err, '\n') || (part && !strstr(err, part)))
        FAIL("%s: error \"%s\" (expected one line containing \"%s\")", label, err, part ? part : "");
}

static void bad_inputs(void)
{
    char p[700], opath[700];
    snprintf(opath, sizeof opath, "%s/hand.o", tmpdir);
    size_t olen;
    uint8_t *obj = (uint8_t *)slurp(opath, &olen);
    if (!obj) {
        FAIL("no hand.o for the bad-input tests");
        return;
    }
    snprintf(p, sizeof p, "%s/does-not-exist.o", tmpdir);
    expect_error("missing file", p, "f_ok", "No such file");

    uint8_t junk[4096];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (uint8_t)rng();
    snprintf(p, sizeof p, "%s/garbage.o", tmpdir);
    write_file(p, junk, sizeof junk);
    expect_error("garbage", p, "f_ok", "not an ELF");
    write_file(p, "", 0);
    expect_error("empty file", p, "f_ok", "not an ELF");

    expect_error("missing symbol", opath, "nope", "no symbol `nope`; functions: f_branch, f_div");
    expect_error("a data symbol", opath, "k19", "not a function");

    uint8_t *m = malloc(olen);
    memcpy(m, obj, olen);
    m[18] = 183; /* e_machine = EM_AARCH64 */
    m[19] = 0;
    snprintf(p, sizeof p, "%s/aarch64.o", tmpdir);
    write_file(p, m, olen);
    expect_error("wrong machine", p, "f_ok", "not ELF64 x86-64");
    memcpy(m, obj, olen);
    m[4] = 1; /* ELFCLASS32 */
    write_file(p, m, olen);
    expect_error("ELFCLASS32", p, "f_ok", "not ELF64 x86-64");

    /* every truncation: an error, never a crash (most cut the section headers, at the end of the file) */
    snprintf(p, sizeof p, "%s/trunc.o", tmpdir);
    unsigned trunc_ok = 0;
    for (size_t n = 0; n < olen; n += (n < 128 ? 1 : 7)) {
        check_code code;
        char err[512] = "";
        if (check_code_from_object(obj, n, "trunc.o", "f_ok", &code, err, sizeof err) == 0) {
            FAIL("truncated to %zu of %zu bytes: accepted", n, olen);
            check_code_free(&code);
        } else if (!*err)
            FAIL("truncated to %zu bytes: no message", n);
        else
            trunc_ok++;
    }
    write_file(p, obj, olen / 2);
    expect_error("truncated ELF (half)", p, "f_ok", "truncated");

    /* random corruption: errors or results, never a crash (ASan build) */
    unsigned accepted = 0, rejected = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(m, obj, olen);
        int flips = 1 + (int)(rng() % 4);
        for (int k = 0; k < flips; k++) {
            size_t at = (size_t)(rng() % olen);
            if (rng() & 1)
                at = (size_t)(rng() % 64); /* the ELF header */
            m[at] = (uint8_t)rng();
        }
        check_code code;
        char err[512];
        if (check_code_from_object(m, olen, "corrupt.o", "f_ok", &code, err, sizeof err) == 0) {
            check_insn_list l;
            if (check_decode_code(&code, &l, err, sizeof err) == 0)
                check_insn_list_free(&l);
            check_code_free(&code);
            accepted++;
        } else
            rejected++;
    }
    free(m);
    printf("bad inputs: %u truncations rejected; corrupted objects: %u read, %u rejected, no crash\n", trunc_ok,
           accepted, rejected);

    snprintf(p, sizeof p, "%s/broken.S", tmpdir);
    const char *broken = "\t.text\n\t.globl g\ng:\n\tmov %rax, %rbx\n\tfrobnicate %rax\n\tret\n";
    write_file(p, broken, strlen(broken));
    expect_error("a .S that does not assemble", p, "g", "frobnicate");
    snprintf(p, sizeof p, "%s/garbage.txt", tmpdir);
    write_file(p, "hello\n", 6);
    expect_error("text that is neither ELF nor .S", p, "g", "not an ELF object, and not an assembly file");

    /* the assembler's temporary directory is removed, after success and after failure */
    char td[700], sp[700];
    snprintf(td, sizeof td, "%s/astmp", tmpdir);
    snprintf(sp, sizeof sp, "%s/hand.S", tmpdir);
    if (mkdir(td, 0700) != 0)
        FAIL("cannot create %s", td);
    else {
        const char *old = getenv("TMPDIR");
        char *saved = old ? strdup(old) : NULL;
        setenv("TMPDIR", td, 1);
        check_code code;
        char e2[512];
        if (check_code_read(sp, "f_ok", &code, e2, sizeof e2) == 0)
            check_code_free(&code);
        else
            FAIL("hand.S with TMPDIR=%s: %s", td, e2);
        snprintf(p, sizeof p, "%s/broken.S", tmpdir);
        expect_error("a .S that does not assemble (TMPDIR)", p, "g", "frobnicate");
        if (saved) {
            setenv("TMPDIR", saved, 1);
            free(saved);
        } else
            unsetenv("TMPDIR");
        DIR *d = opendir(td);
        unsigned left = 0;
        for (struct dirent *de; d && (de = readdir(d));)
            left += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
        if (d)
            closedir(d);
        if (left)
            FAIL("the assembler left %u entries in TMPDIR %s", left, td);
    }

    /* bytes that do not decode, and an instruction cut off at the end */
    check_insn_list l;
    char err[512];
    static const uint8_t ud[] = { 0x48, 0x89, 0xc8, 0x06, 0x90 }; /* 06: push es, invalid in 64-bit mode */
    if (check_decode(ud, sizeof ud, 0x40, &l, err, sizeof err) == 0) {
        FAIL("undecodable bytes accepted");
        check_insn_list_free(&l);
    } else if (!strstr(err, "undecodable bytes at 0x43"))
        FAIL("undecodable bytes: \"%s\"", err);
    static const uint8_t cut[] = { 0xc3, 0x48, 0xb8, 0x01, 0x02 };
    if (check_decode(cut, sizeof cut, 0, &l, err, sizeof err) == 0) {
        FAIL("a cut-off movabs accepted");
        check_insn_list_free(&l);
    } else if (!strstr(err, "0x1") || !strstr(err, "past"))
        FAIL("cut-off instruction: \"%s\"", err);
    free(obj);
}

int main(int argc, char **argv)
{
    const char *fiat = NULL;
    int keep = 0;
    rng_state = (uint64_t)time(NULL);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--fiat") && i + 1 < argc)
            fiat = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            rng_state = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--keep"))
            keep = 1;
        else if (!strcmp(argv[i], "--explore"))
            explore = 1;
        else {
            fprintf(stderr, "usage: test_check_decode [--fiat DIR [--explore]] [--seed N] [--keep]\n");
            return 2;
        }
    }
    printf("seed %llu\n", (unsigned long long)rng_state);
    for (int c = 0; c < 2; c++)
        if (!cc_available(compilers[c])) {
            printf("SKIP: %s not found\n", compilers[c]);
            return 77;
        }
    char *od[] = { (char *)"objdump", (char *)"--version", NULL };
    if (run_to(od, "/dev/null") != 0) {
        printf("SKIP: objdump not found\n");
        return 77;
    }
    char err[512];
    if (cc_tmpdir(tmpdir, sizeof tmpdir, err, sizeof err) != 0) {
        fprintf(stderr, "FAIL: %s\n", err);
        return 1;
    }
    hand_written();
    bad_inputs();
    if (fiat)
        corpus(fiat);
    if (keep)
        printf("kept %s\n", tmpdir);
    else
        cc_rmtree(tmpdir);
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
