/* elf.c — a function's bytes and relocations from an ELF64 x86-64 object, with libelf (see elf.h).
 * References: System V ABI, AMD64 supplement (ELF64 relocatable objects, R_X86_64_*); the ELF gABI (symbol tables,
 * SHT_RELA/SHT_REL: sh_info names the section the relocations apply to). */
#define _GNU_SOURCE
#include "check/elf.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    /* one line: cut at the first newline */
    char *nl = strchr(err, '\n');
    if (nl)
        *nl = '\0';
}

void check_code_free(check_code *c)
{
    if (!c)
        return;
    free(c->bytes);
    free(c->relocs);
    memset(c, 0, sizeof *c);
}

/* ---- reading files ----------------------------------------------------------------------------------------------- */

static int read_file(const char *path, uint8_t **buf, size_t *len, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        seterr(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *b = malloc(cap);
    if (!b) {
        fclose(fp);
        seterr(err, errlen, "%s: out of memory", path);
        return -1;
    }
    errno = 0; /* what a failed fread leaves is the message */
    for (;;) {
        if (n == cap) {
            uint8_t *nb = cap > ((size_t)1 << 30) ? NULL : realloc(b, cap * 2);
            if (!nb) {
                free(b);
                fclose(fp);
                seterr(err, errlen, "%s: too large or out of memory", path);
                return -1;
            }
            b = nb;
            cap *= 2;
        }
        size_t got = fread(b + n, 1, cap - n, fp);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(fp), why = errno;
    fclose(fp);
    if (bad) {
        free(b);
        seterr(err, errlen, "%s: %s", path, why ? strerror(why) : "read error"); /* EISDIR: "Is a directory" */
        return -1;
    }
    *buf = b;
    *len = n;
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* ---- the assembler -------------------------------------------------------------------------------------------- */

/* the first line of msgs that reports an error ("x.S:3: Error: ..." from GNU as, "error:" from clang), else the
 * first non-empty line */
static void first_error_line(const char *msgs, char *out, size_t outlen)
{
    const char *pick = NULL, *first = NULL;
    for (const char *l = msgs; *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        if (n && !first)
            first = l;
        for (size_t i = 0; i + 6 <= n && !pick; i++)
            if (!strncmp(l + i, "Error:", 6) || !strncmp(l + i, "error:", 6))
                pick = l;
        if (pick)
            break;
        l = e ? e + 1 : l + n;
    }
    if (!pick)
        pick = first;
    if (!pick) {
        snprintf(out, outlen, "(no message)");
        return;
    }
    const char *e = strchr(pick, '\n');
    size_t n = e ? (size_t)(e - pick) : strlen(pick);
    snprintf(out, outlen, "%.*s", (int)n, pick);
}

/* name_source — msg with each name of a file in the directory dir ("DIR/ccAB12cd.s", up to a ':' or a blank)
 * replaced by src: a message about the end of the preprocessed file names that file, not the .S */
static void name_source(char *msg, size_t len, const char *dir, const char *src)
{
    char out[400];
    size_t o = 0, dl = strlen(dir);
    for (const char *p = msg; *p && o + 1 < sizeof out;) {
        if (!strncmp(p, dir, dl) && p[dl] == '/') {
            p += dl;
            while (*p && *p != ':' && *p != ' ' && *p != '\t')
                p++;
            o += (size_t)snprintf(out + o, sizeof out - o, "%s", src);
            if (o >= sizeof out)
                o = sizeof out - 1;
            continue;
        }
        out[o++] = *p++;
    }
    out[o] = '\0';
    snprintf(msg, len, "%s", out);
}

/* run_assembler — `prog -c -o objpath src`, stdout and stderr into msgpath, without a shell. 0 when it exited 0,
 * -1 when it failed or could not be run (127), -2 when fork/wait failed (errno). */
static int run_assembler(const char *prog, const char *src, const char *objpath, const char *msgpath,
                         const char *tmpdir)
{
    pid_t pid = fork();
    if (pid < 0)
        return -2;
    if (pid == 0) {
        int fd = open(msgpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        /* the driver's intermediate files (gcc's preprocessed ccXXXXXX.s) in our directory, where their names in
         * the messages can be recognized and replaced by the source's */
        setenv("TMPDIR", tmpdir, 1);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        /* a name starting with '-' would be read as an option */
        char srcarg[4096];
        snprintf(srcarg, sizeof srcarg, "%s%s", src[0] == '-' ? "./" : "", src);
        char *argv[] = { (char *)prog, (char *)"-c", (char *)"-o", (char *)objpath, srcarg, NULL };
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", prog, strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -2;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int check_assemble(const char *src, uint8_t **obj, size_t *len, char *err, size_t errlen)
{
    *obj = NULL;
    *len = 0;
    struct stat st;
    if (stat(src, &st) != 0) {
        seterr(err, errlen, "%s: %s", src, strerror(errno));
        return -1;
    }
    const char *tmp = getenv("TMPDIR");
    const char *base = tmp && *tmp ? tmp : "/tmp";
    char dir[512];
    if (snprintf(dir, sizeof dir, "%s/ecopt-as-XXXXXX", base) >= (int)sizeof dir) {
        seterr(err, errlen, "%s: the temporary directory is unusable (%s): its name is too long", base,
               tmp && *tmp ? "TMPDIR" : "TMPDIR is not set");
        return -2;
    }
    if (!mkdtemp(dir)) { /* the environment's fault, not the input's: the caller says so (ecopt check exits 3) */
        seterr(err, errlen, "%s: the temporary directory is unusable (%s): %s", base,
               tmp && *tmp ? "TMPDIR" : "TMPDIR is not set", strerror(errno));
        return -2;
    }
    char objpath[600], msgpath[600];
    snprintf(objpath, sizeof objpath, "%s/out.o", dir);
    snprintf(msgpath, sizeof msgpath, "%s/messages", dir);
    int rc = -1;
    /* the system compiler driver first (GNU as behind gcc); if it fails, clang's integrated assembler, which also
     * reads the directives clang writes (.addrsig); the first driver's message is the one reported */
    char first[400] = "";
    int ok = 0;
    for (int attempt = 0; attempt < 2 && !ok; attempt++) {
        const char *prog = attempt == 0 ? "cc" : "clang";
        int ast = run_assembler(prog, src, objpath, msgpath, dir);
        if (ast == 0) {
            ok = 1;
            break;
        }
        if (attempt == 0) {
            if (ast == -2) {
                seterr(err, errlen, "cannot run the assembler (fork or wait failed): %s", strerror(errno));
                rc = -2;
                goto out;
            }
            uint8_t *m = NULL;
            size_t mlen = 0;
            if (read_file(msgpath, &m, &mlen, NULL, 0) == 0) {
                char *t = malloc(mlen + 1);
                if (t) {
                    memcpy(t, m, mlen);
                    t[mlen] = '\0';
                    first_error_line(t, first, sizeof first);
                    name_source(first, sizeof first, dir, src);
                    free(t);
                } else
                    snprintf(first, sizeof first, "(out of memory)");
                free(m);
            } else
                snprintf(first, sizeof first, "(no message)");
        }
    }
    if (!ok) {
        seterr(err, errlen, "%s: the assembler failed: %s", src, first);
        goto out;
    }
    if (read_file(objpath, obj, len, err, errlen) != 0)
        goto out;
    rc = 0;
out:
    unlink(objpath);
    unlink(msgpath);
    rmdir(dir);
    return rc;
}

int check_source_conditional(const char *src, unsigned *line, char *what, size_t len)
{
    uint8_t *buf = NULL;
    size_t n = 0;
    if (read_file(src, &buf, &n, NULL, 0) != 0)
        return -1;
    static const char *const dirs[] = { "ifdef", "ifndef", "if", "include" };
    unsigned ln = 1;
    int found = 0;
    for (size_t i = 0; i < n && !found;) {
        size_t j = i;
        while (j < n && (buf[j] == ' ' || buf[j] == '\t'))
            j++;
        if (j < n && buf[j] == '.') {
            /* the assembler's own conditionals and inclusions: every .if variant (.ifdef, .ifc, .ifeqs, ...; they
             * depend on --defsym and on the assembler), .include and .incbin (files that differ between systems) */
            size_t k = j + 1, m = 0;
            char word[12];
            while (k < n && m + 1 < sizeof word &&
                   ((unsigned)((buf[k] | 0x20) - 'a') < 26u || (unsigned)(buf[k] - '0') < 10u || buf[k] == '_'))
                word[m++] = (char)(buf[k++] | 0x20);
            word[m] = '\0';
            int ident = k < n && ((unsigned)((buf[k] | 0x20) - 'a') < 26u || buf[k] == '_');
            if (!ident && (!strncmp(word, "if", 2) || !strcmp(word, "include") || !strcmp(word, "incbin"))) {
                snprintf(what, len, ".%s", word);
                *line = ln;
                found = 1;
            }
        }
        if (j < n && buf[j] == '#') {
            j++;
            while (j < n && (buf[j] == ' ' || buf[j] == '\t'))
                j++;
            for (size_t d = 0; d < sizeof dirs / sizeof dirs[0] && !found; d++) {
                size_t k = strlen(dirs[d]);
                if (j + k <= n && !memcmp(buf + j, dirs[d], k) &&
                    (j + k == n || !(buf[j + k] == '_' || (unsigned)((buf[j + k] | 0x20) - 'a') < 26u ||
                                     (unsigned)(buf[j + k] - '0') < 10u))) {
                    snprintf(what, len, "#%s", dirs[d]);
                    *line = ln;
                    found = 1;
                }
            }
        }
        while (i < n && buf[i] != '\n')
            i++;
        i++;
        ln++;
    }
    free(buf);
    return found;
}

/* ---- ELF --------------------------------------------------------------------------------------------------------- */

static int cmp_reloc(const void *a, const void *b)
{
    const check_reloc *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static const char *libelf_msg(void)
{
    const char *m = elf_errmsg(-1);
    return m ? m : "malformed ELF";
}

/* is this symbol a candidate function: defined, and STT_FUNC or a global/weak STT_NOTYPE label */
static int is_function_symbol(const GElf_Sym *s)
{
    int t = GELF_ST_TYPE(s->st_info), b = GELF_ST_BIND(s->st_info);
    if (s->st_shndx == SHN_UNDEF || s->st_shndx == SHN_ABS || s->st_shndx >= SHN_LORESERVE)
        return 0;
    return t == STT_FUNC || (t == STT_NOTYPE && (b == STB_GLOBAL || b == STB_WEAK));
}

static void set_flaw(check_code *c, check_code_flaw k, const char *fmt, ...)
{
    if (c->flaw != CHECK_CODE_SOUND)
        return; /* the first reason found is the one reported */
    c->flaw = k;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->flaw_reason, sizeof c->flaw_reason, fmt, ap);
    va_end(ap);
    char *nl = strchr(c->flaw_reason, '\n');
    if (nl)
        *nl = '\0';
}

/* ---- relocation types ------------------------------------------------------------------------------------------ */

/* The bytes each R_X86_64_* type lets the linker rewrite, relative to r_offset: [-before, after). The field widths
 * are the psABI's (AMD64 supplement, "Relocation Types": word8 1, word16 2, word32 4, word64 8; R_X86_64_TLSDESC
 * two words). The types the linker may relax rewrite the instruction around the field (psABI appendix "Linker
 * Optimization", and its TLS chapter): GOTPCRELX changes the opcode and ModRM bytes before the field (2), its REX
 * form also the prefix (3), the APX CODE_n forms up to n + 2 bytes before; GOTTPOFF and GOTPC32_TLSDESC rewrite
 * `mov/add/lea x@..(%rip), %reg` whole (3 before); TLSDESC_CALL turns `call *(%rax)` (2 or 3 bytes) into a nop;
 * TLSGD rewrites the 16-byte `data16 lea x@tlsgd(%rip), %rdi; data16 data16 rex64 call __tls_get_addr` from 4
 * bytes before the field, TLSLD the 12- or 13-byte `lea x@tlsld(%rip), %rdi; call ...` from 3 before. Plain
 * GOTPCREL is given the GOTPCRELX reach too. A reach here may be wider than a linker uses, never narrower: a
 * wider one only rejects more. COPY copies the symbol's st_size bytes. */
typedef struct {
    uint32_t type;
    const char *name;
    uint8_t before, after;
} reloc_kind;

static const reloc_kind reloc_kinds[] = {
    { 0, "R_X86_64_NONE", 0, 0 },
    { 1, "R_X86_64_64", 0, 8 },
    { 2, "R_X86_64_PC32", 0, 4 },
    { 3, "R_X86_64_GOT32", 0, 4 },
    { 4, "R_X86_64_PLT32", 0, 4 },
    { 5, "R_X86_64_COPY", 0, 0 },
    { 6, "R_X86_64_GLOB_DAT", 0, 8 },
    { 7, "R_X86_64_JUMP_SLOT", 0, 8 },
    { 8, "R_X86_64_RELATIVE", 0, 8 },
    { 9, "R_X86_64_GOTPCREL", 3, 4 },
    { 10, "R_X86_64_32", 0, 4 },
    { 11, "R_X86_64_32S", 0, 4 },
    { 12, "R_X86_64_16", 0, 2 },
    { 13, "R_X86_64_PC16", 0, 2 },
    { 14, "R_X86_64_8", 0, 1 },
    { 15, "R_X86_64_PC8", 0, 1 },
    { 16, "R_X86_64_DTPMOD64", 0, 8 },
    { 17, "R_X86_64_DTPOFF64", 0, 8 },
    { 18, "R_X86_64_TPOFF64", 0, 8 },
    { 19, "R_X86_64_TLSGD", 4, 12 },
    { 20, "R_X86_64_TLSLD", 3, 10 },
    { 21, "R_X86_64_DTPOFF32", 0, 4 },
    { 22, "R_X86_64_GOTTPOFF", 3, 4 },
    { 23, "R_X86_64_TPOFF32", 0, 4 },
    { 24, "R_X86_64_PC64", 0, 8 },
    { 25, "R_X86_64_GOTOFF64", 0, 8 },
    { 26, "R_X86_64_GOTPC32", 0, 4 },
    { 27, "R_X86_64_GOT64", 0, 8 },
    { 28, "R_X86_64_GOTPCREL64", 0, 8 },
    { 29, "R_X86_64_GOTPC64", 0, 8 },
    { 30, "R_X86_64_GOTPLT64", 0, 8 },
    { 31, "R_X86_64_PLTOFF64", 0, 8 },
    { 32, "R_X86_64_SIZE32", 0, 4 },
    { 33, "R_X86_64_SIZE64", 0, 8 },
    { 34, "R_X86_64_GOTPC32_TLSDESC", 3, 4 },
    { 35, "R_X86_64_TLSDESC_CALL", 0, 3 },
    { 36, "R_X86_64_TLSDESC", 0, 16 },
    { 37, "R_X86_64_IRELATIVE", 0, 8 },
    { 38, "R_X86_64_RELATIVE64", 0, 8 },
    { 39, "R_X86_64_PC32_BND", 0, 4 },
    { 40, "R_X86_64_PLT32_BND", 0, 4 },
    { 41, "R_X86_64_GOTPCRELX", 2, 4 },
    { 42, "R_X86_64_REX_GOTPCRELX", 3, 4 },
    { 43, "R_X86_64_CODE_4_GOTPCRELX", 6, 4 },
    { 44, "R_X86_64_CODE_4_GOTTPOFF", 6, 4 },
    { 45, "R_X86_64_CODE_4_GOTPC32_TLSDESC", 6, 4 },
    { 46, "R_X86_64_CODE_5_GOTPCRELX", 7, 4 },
    { 47, "R_X86_64_CODE_5_GOTTPOFF", 7, 4 },
    { 48, "R_X86_64_CODE_5_GOTPC32_TLSDESC", 7, 4 },
    { 49, "R_X86_64_CODE_6_GOTPCRELX", 8, 4 },
    { 50, "R_X86_64_CODE_6_GOTTPOFF", 8, 4 },
    { 51, "R_X86_64_CODE_6_GOTPC32_TLSDESC", 8, 4 },
    { 250, "R_X86_64_GNU_VTINHERIT", 0, 0 },
    { 251, "R_X86_64_GNU_VTENTRY", 0, 0 },
};

/* the kind of type t, or NULL */
static const reloc_kind *reloc_kind_of(uint32_t t)
{
    for (size_t i = 0; i < sizeof reloc_kinds / sizeof reloc_kinds[0]; i++)
        if (reloc_kinds[i].type == t)
            return &reloc_kinds[i];
    return NULL;
}

/* ---- symbol resolution --------------------------------------------------------------------------------------- */

/* one definition of the name: from .symtab or .dynsym, with its version in name ("f@@V1") */
typedef struct {
    GElf_Sym s;
    char name[160];
    const char *table;
} sym_def;

/* the part of a symbol name before its version ("f" of "f@@V1", "f@V1") has length n and equals want's */
static int base_name_is(const char *n, const char *want)
{
    size_t a = strcspn(n, "@"), b = strcspn(want, "@");
    return a == b && !memcmp(n, want, a);
}

static const char *sym_type_name(int t)
{
    static const char *const names[] = { "NOTYPE", "OBJECT", "FUNC", "SECTION", "FILE", "COMMON", "TLS" };
    if (t >= 0 && t < 7)
        return names[t];
    return t == STT_GNU_IFUNC ? "GNU_IFUNC" : "type?";
}

static const char *sym_bind_name(int b)
{
    return b == STB_LOCAL    ? "LOCAL"
           : b == STB_GLOBAL ? "GLOBAL"
           : b == STB_WEAK   ? "WEAK"
           : b == STB_GNU_UNIQUE ? "UNIQUE"
                                 : "binding?";
}

/* describe — "`f@@V1` (FUNC GLOBAL at 0xa, .symtab)" */
static const char *describe(const sym_def *d, char *buf, size_t len)
{
    snprintf(buf, len, "`%s` (%s %s at 0x%llx, %s)", d->name, sym_type_name(GELF_ST_TYPE(d->s.st_info)),
             sym_bind_name(GELF_ST_BIND(d->s.st_info)), (unsigned long long)d->s.st_value, d->table);
    return buf;
}

/* version_of — the version suffix of .dynsym entry i ("@@V1", "@V1" hidden; "" for none) from .gnu.version and
 * .gnu.version_d (gABI, "Symbol Versioning"; the low 15 bits of a versym index the verdef, bit 15 hides it) */
static void version_of(Elf *e, Elf_Scn *versym, Elf_Scn *verdef, size_t i, char *out, size_t len)
{
    out[0] = '\0';
    Elf_Data *vd = versym ? elf_getdata(versym, NULL) : NULL;
    GElf_Versym vs;
    if (!vd || !gelf_getversym(vd, (int)i, &vs))
        return;
    unsigned idx = vs & 0x7fff, hidden = (vs & 0x8000) != 0;
    if (idx < 2)
        return; /* 0 local, 1 the base (unversioned) definition */
    GElf_Shdr dsh;
    Elf_Data *dd = verdef ? elf_getdata(verdef, NULL) : NULL;
    if (!dd || !gelf_getshdr(verdef, &dsh)) {
        snprintf(out, len, "%s<version %u>", hidden ? "@" : "@@", idx);
        return;
    }
    size_t off = 0;
    for (unsigned n = 0; n < 4096; n++) {
        GElf_Verdef d;
        if (!gelf_getverdef(dd, (int)off, &d))
            break;
        if (d.vd_ndx == idx) {
            GElf_Verdaux aux;
            const char *vn = NULL;
            if (gelf_getverdaux(dd, (int)(off + d.vd_aux), &aux))
                vn = elf_strptr(e, dsh.sh_link, aux.vda_name);
            snprintf(out, len, "%s%s", hidden ? "@" : "@@", vn ? vn : "?");
            return;
        }
        if (!d.vd_next)
            break;
        off += d.vd_next;
    }
    snprintf(out, len, "%s<version %u>", hidden ? "@" : "@@", idx);
}

/* in_comdat — section index sec is a member of a COMDAT group (SHT_GROUP whose first word has GRP_COMDAT): the
 * linker keeps one group of that signature from all its inputs, maybe another object's */
static int in_comdat(Elf *e, size_t sec)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_GROUP)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || !d->d_buf || d->d_size < 4)
            return 1; /* unreadable: assume the worst */
        const uint32_t *w = d->d_buf;
        if (!(w[0] & GRP_COMDAT))
            continue;
        for (size_t k = 1; k < d->d_size / 4; k++)
            if (w[k] == sec)
                return 1;
    }
    return 0;
}

/* vaddr_to_offset — the file offset of the n bytes at virtual address va in a PT_LOAD segment's file image; 0 with
 * *off, or -1 */
static int vaddr_to_offset(Elf *e, size_t len, uint64_t va, uint64_t n, uint64_t *off)
{
    size_t nph = 0;
    if (elf_getphdrnum(e, &nph) != 0)
        return -1;
    for (size_t i = 0; i < nph; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || va < ph.p_vaddr || va - ph.p_vaddr > ph.p_filesz ||
            n > ph.p_filesz - (va - ph.p_vaddr) || ph.p_offset > len || ph.p_filesz > len - ph.p_offset)
            continue;
        *off = ph.p_offset + (va - ph.p_vaddr);
        return 0;
    }
    return -1;
}

/* dynamic_view — in a linked file, what ld.so sees of the name: it reads the dynamic symbols through PT_DYNAMIC
 * (DT_SYMTAB, DT_STRTAB, DT_STRSZ; the count from DT_HASH's nchain or by walking DT_GNU_HASH's last chain, gABI
 * "Hash Table" and the GNU hash layout), never through section headers, which may point elsewhere. Every
 * definition of the name there must be the one picked (fsym: address, size, type), and when the section headers
 * show a .dynsym definition, the dynamic view must hold one too. Flaws set under `symbol`. */
static void dynamic_view(Elf *e, const void *obj, size_t len, const char *name, const GElf_Sym *fsym,
                         int shdr_dynsym_def, const char *d1, check_code *out)
{
    size_t nph = 0;
    if (elf_getphdrnum(e, &nph) != 0)
        nph = 0;
    const uint8_t *f = obj;
    int have_dyn = 0;
    uint64_t symtab = 0, strtab = 0, strsz = 0, hash = 0, gnuhash = 0, syment = 24;
    for (size_t p = 0; p < nph; p++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e, (int)p, &ph) || ph.p_type != PT_DYNAMIC)
            continue;
        if (have_dyn) {
            set_flaw(out, CHECK_CODE_SYMBOL, "the file has two PT_DYNAMIC segments");
            return;
        }
        have_dyn = 1;
        if (ph.p_offset > len || ph.p_filesz > len - ph.p_offset) {
            set_flaw(out, CHECK_CODE_SYMBOL, "the dynamic section lies beyond the end of the file");
            return;
        }
        for (uint64_t k = 0; k + 16 <= ph.p_filesz; k += 16) {
            int64_t tag;
            uint64_t val;
            memcpy(&tag, f + ph.p_offset + k, 8);
            memcpy(&val, f + ph.p_offset + k + 8, 8);
            if (tag == DT_NULL)
                break;
            if (tag == DT_SYMTAB) symtab = val;
            if (tag == DT_STRTAB) strtab = val;
            if (tag == DT_STRSZ) strsz = val;
            if (tag == DT_HASH) hash = val;
            if (tag == DT_GNU_HASH) gnuhash = val;
            if (tag == DT_SYMENT) syment = val;
        }
    }
    if (!have_dyn || !symtab) {
        /* nothing for ld.so to bind the name to: a .dynsym in the section headers is then not the loader's */
        if (shdr_dynsym_def)
            set_flaw(out, CHECK_CODE_SYMBOL, "%s: the section headers show a dynamic symbol table the loader does "
                     "not read (no DT_SYMTAB)", d1);
        return;
    }
    uint64_t off, stroff, nsym = 0;
    if (syment != 24 || !strtab || !strsz || vaddr_to_offset(e, len, strtab, strsz, &stroff) != 0) {
        set_flaw(out, CHECK_CODE_SYMBOL, "the dynamic string table (DT_STRTAB, DT_STRSZ) is not in the file");
        return;
    }
    if (hash) {
        if (vaddr_to_offset(e, len, hash, 8, &off) != 0) {
            set_flaw(out, CHECK_CODE_SYMBOL, "the DT_HASH table is not in the file");
            return;
        }
        uint32_t nchain;
        memcpy(&nchain, f + off + 4, 4);
        nsym = nchain;
    } else if (gnuhash) {
        uint32_t hdr[4];
        if (vaddr_to_offset(e, len, gnuhash, 16, &off) != 0) {
            set_flaw(out, CHECK_CODE_SYMBOL, "the DT_GNU_HASH table is not in the file");
            return;
        }
        memcpy(hdr, f + off, 16);
        uint64_t nb = hdr[0], symoff = hdr[1], bloom = hdr[2];
        uint64_t boff = 16 + 8 * bloom, coff = boff + 4 * nb;
        if (bloom > (1u << 24) || nb > (1u << 24) || vaddr_to_offset(e, len, gnuhash, coff, &off) != 0) {
            set_flaw(out, CHECK_CODE_SYMBOL, "the DT_GNU_HASH table is not in the file");
            return;
        }
        uint64_t last = 0;
        for (uint64_t b = 0; b < nb; b++) {
            uint32_t v;
            memcpy(&v, f + off + boff + 4 * b, 4);
            if (v > last)
                last = v;
        }
        if (last < symoff)
            nsym = symoff;
        else {
            for (;;) { /* the chain of the highest bucket ends at the last symbol: its low bit set */
                uint64_t at = coff + 4 * (last - symoff), ch;
                uint32_t v;
                if (last - symoff > (1u << 24) || vaddr_to_offset(e, len, gnuhash, at + 4, &ch) != 0) {
                    set_flaw(out, CHECK_CODE_SYMBOL, "the DT_GNU_HASH chains run past the end of the file");
                    return;
                }
                memcpy(&v, f + ch + at, 4);
                if (v & 1)
                    break;
                last++;
            }
            nsym = last + 1;
        }
    } else {
        set_flaw(out, CHECK_CODE_SYMBOL, "the dynamic symbol table has no DT_HASH or DT_GNU_HASH: how many symbols "
                 "the loader reads is not known");
        return;
    }
    if (nsym > len / 24 || vaddr_to_offset(e, len, symtab, nsym * 24, &off) != 0) {
        set_flaw(out, CHECK_CODE_SYMBOL, "the dynamic symbol table (DT_SYMTAB, %llu symbols) is not in the file",
                 (unsigned long long)nsym);
        return;
    }
    const char *strs = (const char *)f + stroff;
    int found = 0;
    for (uint64_t i = 1; i < nsym; i++) {
        GElf_Sym s; /* Elf64_Sym: name 4, info 1, other 1, shndx 2, value 8, size 8 */
        const uint8_t *r = f + off + 24 * i;
        uint32_t nm;
        uint16_t shndx;
        memcpy(&nm, r, 4);
        s.st_info = r[4];
        memcpy(&shndx, r + 6, 2);
        memcpy(&s.st_value, r + 8, 8);
        memcpy(&s.st_size, r + 16, 8);
        if (shndx == SHN_UNDEF || nm >= strsz)
            continue;
        const char *n = strs + nm;
        size_t room = strsz - nm, nl = strnlen(n, room);
        if (nl == room || !base_name_is(n, name))
            continue;
        found = 1;
        if (s.st_value != fsym->st_value || s.st_size != fsym->st_size ||
            GELF_ST_TYPE(s.st_info) != GELF_ST_TYPE(fsym->st_info))
            set_flaw(out, CHECK_CODE_SYMBOL, "%s, but the loader's dynamic symbol table (DT_SYMTAB) has `%s` (%s at "
                     "0x%llx, %llu bytes): the section headers disagree with what ld.so binds to", d1, n,
                     sym_type_name(GELF_ST_TYPE(s.st_info)), (unsigned long long)s.st_value,
                     (unsigned long long)s.st_size);
    }
    if (!found && shdr_dynsym_def)
        set_flaw(out, CHECK_CODE_SYMBOL, "%s, but the loader's dynamic symbol table (DT_SYMTAB) has no `%s`: the "
                 "section headers disagree with what ld.so binds to", d1, name);
}

int check_code_from_object(const void *obj, size_t len, const char *what, const char *name, check_code *out,
                           char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (len < EI_NIDENT || memcmp(obj, ELFMAG, SELFMAG) != 0) {
        seterr(err, errlen, "%s: not an ELF file", what);
        return -1;
    }
    const unsigned char *id = obj;
    if (id[EI_CLASS] != ELFCLASS64 || id[EI_DATA] != ELFDATA2LSB) {
        seterr(err, errlen, "%s: not ELF64 x86-64 (%s, %s)", what,
               id[EI_CLASS] == ELFCLASS32 ? "ELFCLASS32" : "not ELFCLASS64",
               id[EI_DATA] == ELFDATA2LSB ? "little-endian" : "not little-endian");
        return -1;
    }
    if (elf_version(EV_CURRENT) == EV_NONE) {
        seterr(err, errlen, "%s: libelf: %s", what, libelf_msg());
        return -1;
    }
    /* libelf wants a mutable image; work on a private copy */
    char *image = malloc(len);
    if (!image) {
        seterr(err, errlen, "%s: out of memory", what);
        return -1;
    }
    memcpy(image, obj, len);
    int rc = -1;
    uint8_t *bytes = NULL;
    check_reloc *relocs = NULL;
    size_t nrelocs = 0, caprelocs = 0;
    Elf *e = elf_memory(image, len);
    if (!e || elf_kind(e) != ELF_K_ELF) {
        seterr(err, errlen, "%s: not a readable ELF file: %s", what, e ? "unknown kind" : libelf_msg());
        goto out;
    }
    GElf_Ehdr eh;
    if (!gelf_getehdr(e, &eh)) {
        seterr(err, errlen, "%s: truncated or malformed ELF header: %s", what, libelf_msg());
        goto out;
    }
    if (gelf_getclass(e) != ELFCLASS64 || eh.e_machine != EM_X86_64) {
        seterr(err, errlen, "%s: not ELF64 x86-64 (e_machine %u)", what, (unsigned)eh.e_machine);
        goto out;
    }
    if (eh.e_shoff > len || (uint64_t)eh.e_shnum * eh.e_shentsize > len - eh.e_shoff) {
        seterr(err, errlen, "%s: truncated ELF: the section headers lie beyond the end of the file", what);
        goto out;
    }
    size_t shstrndx;
    if (elf_getshdrstrndx(e, &shstrndx) != 0) {
        seterr(err, errlen, "%s: malformed ELF: %s", what, libelf_msg());
        goto out;
    }

    /* the symbol tables: .symtab (the static linker's view) and .dynsym (the dynamic linker's), and the version
     * sections of .dynsym; the listing and a label's extent use .symtab, else .dynsym */
    Elf_Scn *symscn = NULL, *scn = NULL, *tabs[2] = { NULL, NULL }, *versym = NULL, *verdef = NULL;
    size_t dynidx = 0;
    GElf_Shdr symsh;
    memset(&symsh, 0, sizeof symsh);
    while ((scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) {
            seterr(err, errlen, "%s: malformed section header: %s", what, libelf_msg());
            goto out;
        }
        if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !symscn)) {
            symscn = scn;
            symsh = sh;
        }
        if (sh.sh_type == SHT_SYMTAB && !tabs[0])
            tabs[0] = scn;
        if (sh.sh_type == SHT_DYNSYM && !tabs[1]) {
            tabs[1] = scn;
            dynidx = elf_ndxscn(scn);
        }
        if (sh.sh_type == SHT_GNU_versym && !versym)
            versym = scn;
        if (sh.sh_type == SHT_GNU_verdef && !verdef)
            verdef = scn;
    }
    if (!symscn) {
        seterr(err, errlen, "%s: no symbol `%s` (the file has no symbol table)", what, name);
        goto out;
    }
    if (versym) {
        GElf_Shdr vsh;
        if (!gelf_getshdr(versym, &vsh) || vsh.sh_link != dynidx)
            versym = NULL;
    }
    if (symsh.sh_offset > len || symsh.sh_size > len - symsh.sh_offset) {
        seterr(err, errlen, "%s: truncated ELF: the symbol table lies beyond the end of the file", what);
        goto out;
    }
    Elf_Data *symdata = elf_getdata(symscn, NULL);
    if (!symdata || !symsh.sh_entsize) {
        seterr(err, errlen, "%s: unreadable symbol table: %s", what, libelf_msg());
        goto out;
    }
    size_t nsyms = symsh.sh_size / symsh.sh_entsize;

    /* every definition of the name, in both tables: what ld and ld.so may bind a reference to the name to */
    sym_def defs[16];
    size_t ndefs = 0, moredefs = 0;
    int undefined = 0;
    for (int t = 0; t < 2; t++) {
        GElf_Shdr tsh;
        Elf_Data *td;
        if (!tabs[t] || !gelf_getshdr(tabs[t], &tsh) || !tsh.sh_entsize || tsh.sh_offset > len ||
            tsh.sh_size > len - tsh.sh_offset || !(td = elf_getdata(tabs[t], NULL)))
            continue;
        for (size_t i = 0; i < tsh.sh_size / tsh.sh_entsize; i++) {
            GElf_Sym s;
            if (!gelf_getsym(td, (int)i, &s))
                continue;
            const char *n = elf_strptr(e, tsh.sh_link, s.st_name);
            int ty = GELF_ST_TYPE(s.st_info);
            if (!n || !base_name_is(n, name) || ty == STT_SECTION || ty == STT_FILE)
                continue;
            if (s.st_shndx == SHN_UNDEF) {
                undefined = 1;
                continue;
            }
            if (ndefs == sizeof defs / sizeof defs[0]) {
                moredefs++;
                continue;
            }
            sym_def *d = &defs[ndefs++];
            d->s = s;
            d->table = t ? ".dynsym" : ".symtab";
            char ver[80] = "";
            if (t == 1)
                version_of(e, versym, verdef, i, ver, sizeof ver);
            snprintf(d->name, sizeof d->name, "%s%s", n, ver);
        }
    }
    int has_fn = 0; /* a definition that could be the function (else the name is data: a usage error) */
    for (size_t i = 0; i < ndefs; i++) {
        int ty = GELF_ST_TYPE(defs[i].s.st_info), bi = GELF_ST_BIND(defs[i].s.st_info);
        has_fn |= ty == STT_FUNC || ty == STT_GNU_IFUNC || (ty == STT_NOTYPE && bi != STB_LOCAL);
    }
    if (!has_fn) {
        char list[512] = "";
        size_t used = 0;
        unsigned listed = 0, more = 0;
        for (size_t i = 0; i < nsyms; i++) {
            GElf_Sym s;
            if (!gelf_getsym(symdata, (int)i, &s) || !is_function_symbol(&s))
                continue;
            const char *n = elf_strptr(e, symsh.sh_link, s.st_name);
            if (!n || !*n)
                continue;
            if (used + strlen(n) + 3 < sizeof list - 8) {
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", listed ? ", " : "", n);
                listed++;
            } else
                more++;
        }
        if (more)
            snprintf(list + used, sizeof list - used, ", ...");
        if (ndefs)
            seterr(err, errlen, "%s: symbol `%s` is data (STT_%s), not a function; functions: %s", what, name,
                   sym_type_name(GELF_ST_TYPE(defs[0].s.st_info)), listed ? list : "(none)");
        else if (undefined)
            seterr(err, errlen, "%s: symbol `%s` is undefined, not a function defined here; functions: %s", what,
                   name, listed ? list : "(none)");
        else
            seterr(err, errlen, "%s: no symbol `%s`; functions: %s", what, name, listed ? list : "(none)");
        goto out;
    }
    /* the one callers bind to: a global or weak function or label; else the first function; else the first */
    size_t pick = ndefs;
    for (size_t i = 0; i < ndefs && pick == ndefs; i++) {
        int ty = GELF_ST_TYPE(defs[i].s.st_info), bi = GELF_ST_BIND(defs[i].s.st_info);
        if ((ty == STT_FUNC || ty == STT_NOTYPE) && (bi == STB_GLOBAL || bi == STB_WEAK))
            pick = i;
    }
    for (size_t i = 0; i < ndefs && pick == ndefs; i++)
        if (GELF_ST_TYPE(defs[i].s.st_info) == STT_FUNC)
            pick = i;
    if (pick == ndefs)
        pick = 0;
    GElf_Sym fsym = defs[pick].s;
    char d1[240], d2[240];
    describe(&defs[pick], d1, sizeof d1);
    for (size_t i = 0; i < ndefs; i++)
        if (GELF_ST_TYPE(defs[i].s.st_info) == STT_GNU_IFUNC)
            set_flaw(out, CHECK_CODE_SYMBOL, "%s is an indirect function: its resolver chooses the code at run time",
                     describe(&defs[i], d2, sizeof d2));
    for (size_t i = 0; i < ndefs; i++)
        if (defs[i].s.st_shndx != fsym.st_shndx || defs[i].s.st_value != fsym.st_value)
            set_flaw(out, CHECK_CODE_SYMBOL, "`%s` has %zu definitions at different places, %s and %s: callers may "
                     "bind to either", name, ndefs + moredefs, d1, describe(&defs[i], d2, sizeof d2));
    {
        int ty = GELF_ST_TYPE(fsym.st_info), bi = GELF_ST_BIND(fsym.st_info);
        if (ty != STT_FUNC && ty != STT_NOTYPE)
            set_flaw(out, CHECK_CODE_SYMBOL, "%s is not a function (STT_%s)", d1, sym_type_name(ty));
        if (bi != STB_GLOBAL && bi != STB_WEAK)
            set_flaw(out, CHECK_CODE_SYMBOL, "%s is not GLOBAL or WEAK: outside this file the name binds to another "
                     "definition or to none", d1);
        if (fsym.st_shndx == SHN_ABS || fsym.st_shndx == SHN_COMMON || fsym.st_shndx >= SHN_LORESERVE)
            set_flaw(out, CHECK_CODE_SYMBOL, "%s is not in a section (index 0x%x)", d1, (unsigned)fsym.st_shndx);
    }
    if (eh.e_type != ET_REL) {
        int shdr_dyn = 0;
        for (size_t i = 0; i < ndefs; i++)
            shdr_dyn |= !strcmp(defs[i].table, ".dynsym");
        dynamic_view(e, obj, len, name, &fsym, shdr_dyn, d1, out);
    }
    if (out->flaw != CHECK_CODE_SOUND) {
        rc = 0; /* read: the checker rejects it, with no bytes to decode */
        goto out;
    }
    Elf_Scn *code = elf_getscn(e, fsym.st_shndx);
    GElf_Shdr csh;
    if (!code || !gelf_getshdr(code, &csh)) {
        seterr(err, errlen, "%s: `%s`: bad section index %u: %s", what, name, (unsigned)fsym.st_shndx, libelf_msg());
        goto out;
    }
    const char *secname = elf_strptr(e, shstrndx, csh.sh_name);
    snprintf(out->section, sizeof out->section, "%s", secname ? secname : "?");
    if (csh.sh_type != SHT_PROGBITS || !(csh.sh_flags & SHF_EXECINSTR)) {
        seterr(err, errlen, "%s: `%s` is in section %s, which holds no code", what, name, out->section);
        goto out;
    }
    if (!(csh.sh_flags & SHF_ALLOC))
        set_flaw(out, CHECK_CODE_SYMBOL, "%s is in section %s, which is not loaded (no SHF_ALLOC)", d1, out->section);
    if (csh.sh_flags & SHF_COMPRESSED)
        set_flaw(out, CHECK_CODE_SYMBOL, "%s is in section %s, which is compressed (SHF_COMPRESSED)", d1,
                 out->section);
    /* a mergeable section is a table of entries (sh_entsize bytes, or strings) that ld deduplicates across its
     * inputs and between each other, rewriting what the function's addresses hold */
    if (csh.sh_flags & (SHF_MERGE | SHF_STRINGS))
        set_flaw(out, CHECK_CODE_SYMBOL, "%s is in section %s, which the linker merges (SHF_MERGE/SHF_STRINGS): "
                 "it may deduplicate or share its bytes", d1, out->section);
    if (eh.e_type == ET_REL && (csh.sh_flags & SHF_EXCLUDE))
        set_flaw(out, CHECK_CODE_SYMBOL, "%s is in section %s, which the linker drops (SHF_EXCLUDE)", d1,
                 out->section);
    /* legacy COMDAT by name: ld keeps the first .gnu.linkonce.* section of each name from all inputs */
    if (eh.e_type == ET_REL && secname && !strncmp(secname, ".gnu.linkonce.", 14))
        set_flaw(out, CHECK_CODE_SYMBOL, "%s is in section %s (legacy COMDAT, .gnu.linkonce.*): the linker may "
                 "keep another file's copy", d1, out->section);
    if ((csh.sh_flags & SHF_GROUP) && in_comdat(e, fsym.st_shndx))
        set_flaw(out, CHECK_CODE_SYMBOL, "%s is in section %s of a COMDAT group: the linker may keep another "
                 "file's copy", d1, out->section);
    if (out->flaw != CHECK_CODE_SOUND) {
        rc = 0;
        goto out;
    }
    /* section-relative start: st_value in a relocatable object, st_value - sh_addr otherwise */
    uint64_t base = eh.e_type == ET_REL ? 0 : csh.sh_addr;
    if (fsym.st_value < base || fsym.st_value - base > csh.sh_size) {
        seterr(err, errlen, "%s: `%s` lies outside its section %s", what, name, out->section);
        goto out;
    }
    uint64_t start = fsym.st_value - base, size = fsym.st_size;
    if (size == 0 && GELF_ST_TYPE(fsym.st_info) == STT_NOTYPE) {
        /* a label without .size: up to the next symbol of the section, or the section's end */
        uint64_t end = csh.sh_size;
        for (size_t i = 0; i < nsyms; i++) {
            GElf_Sym s;
            if (!gelf_getsym(symdata, (int)i, &s) || s.st_shndx != fsym.st_shndx)
                continue;
            int t = GELF_ST_TYPE(s.st_info);
            if (t == STT_SECTION || t == STT_FILE || s.st_value < base)
                continue;
            uint64_t v = s.st_value - base;
            if (v > start && v < end)
                end = v;
        }
        size = end - start;
    }
    if (size == 0) {
        seterr(err, errlen, "%s: `%s` has size 0", what, name);
        goto out;
    }
    if (size > csh.sh_size - start) {
        seterr(err, errlen, "%s: `%s` (%llu bytes at 0x%llx) runs past the end of %s", what, name,
               (unsigned long long)size, (unsigned long long)start, out->section);
        goto out;
    }
    if (csh.sh_offset > len || csh.sh_size > len - csh.sh_offset) {
        seterr(err, errlen, "%s: truncated ELF: section %s lies beyond the end of the file", what, out->section);
        goto out;
    }
    Elf_Data *cdata = elf_getdata(code, NULL);
    if (!cdata || !cdata->d_buf || cdata->d_size < start + size) {
        seterr(err, errlen, "%s: unreadable section %s: %s", what, out->section, cdata ? "short" : libelf_msg());
        goto out;
    }
    bytes = malloc((size_t)size);
    if (!bytes) {
        seterr(err, errlen, "%s: out of memory", what);
        goto out;
    }
    memcpy(bytes, (const uint8_t *)cdata->d_buf + start, (size_t)size);

    /* a linked file: the loader maps program segments, not sections; the bytes it maps at the function's
     * addresses (one PT_LOAD, executable, from the file) must be the section's */
    if (eh.e_type != ET_REL) {
        size_t nph = 0, nload = 0;
        int same = 0;
        if (elf_getphdrnum(e, &nph) != 0)
            nph = 0;
        for (size_t i = 0; i < nph; i++) {
            GElf_Phdr ph;
            if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
                continue;
            if (ph.p_vaddr >= fsym.st_value + size || ph.p_vaddr + ph.p_memsz <= fsym.st_value)
                continue;
            nload++;
            uint64_t at = fsym.st_value - ph.p_vaddr;
            same = fsym.st_value >= ph.p_vaddr && (ph.p_flags & PF_X) && at <= ph.p_filesz &&
                   size <= ph.p_filesz - at && ph.p_offset <= len && ph.p_filesz <= len - ph.p_offset &&
                   !memcmp((const uint8_t *)obj + ph.p_offset + at, bytes, (size_t)size);
        }
        if (nload != 1 || !same)
            set_flaw(out, CHECK_CODE_SYMBOL, "%s: the loader maps other bytes there (%zu loadable segments hold "
                     "them%s)", d1, nload, nload == 1 ? "; not executable, or other contents" : "");
    }

    /* relocations that may rewrite the function's bytes. In an object, a relocation section names the section it
     * patches (sh_info); in a linked file the dynamic ones (.rela.dyn: sh_info 0, .relr.dyn) patch virtual
     * addresses anywhere: every one is matched by address. lo .. hi: the function's addresses in r_offset's terms */
    uint64_t lo = eh.e_type == ET_REL ? start : fsym.st_value, hi = lo + size;
    scn = NULL;
    while ((scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) ||
            (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL && !(sh.sh_type == SHT_RELR && eh.e_type != ET_REL)) ||
            !sh.sh_entsize || (eh.e_type == ET_REL && sh.sh_info != fsym.st_shndx))
            continue;
        if (sh.sh_offset > len || sh.sh_size > len - sh.sh_offset) {
            seterr(err, errlen, "%s: truncated ELF: a relocation section lies beyond the end of the file", what);
            goto out;
        }
        const char *rsecname = elf_strptr(e, shstrndx, sh.sh_name);
        if (!rsecname)
            rsecname = "?";
        if (sh.sh_type == SHT_RELR) {
            /* packed R_X86_64_RELATIVE (gABI, "Relative Relocation"): an even word is an address (and the next
             * one is 8 bytes on), an odd word a bitmap of the 63 words from there */
            if (sh.sh_entsize != 8 || sh.sh_size % 8) {
                set_flaw(out, CHECK_CODE_RELOCATION, "%s: malformed SHT_RELR section", rsecname);
                continue;
            }
            const uint8_t *w = (const uint8_t *)obj + sh.sh_offset;
            uint64_t where = 0;
            for (size_t i = 0; i < sh.sh_size / 8; i++) {
                uint64_t v;
                memcpy(&v, w + 8 * i, 8);
                if (!(v & 1)) {
                    if (v < hi && v + 8 > lo)
                        set_flaw(out, CHECK_CODE_RELOCATION, "an R_X86_64_RELATIVE relocation (%s) at 0x%llx "
                                 "rewrites bytes of `%s`", rsecname, (unsigned long long)v, name);
                    where = v + 8;
                    continue;
                }
                for (unsigned b = 1; b < 64; b++) {
                    uint64_t a = where + 8 * (uint64_t)(b - 1);
                    if ((v >> b & 1) && a < hi && a + 8 > lo)
                        set_flaw(out, CHECK_CODE_RELOCATION, "an R_X86_64_RELATIVE relocation (%s) at 0x%llx "
                                 "rewrites bytes of `%s`", rsecname, (unsigned long long)a, name);
                }
                where += 63 * 8;
            }
            continue;
        }
        Elf_Data *rd = elf_getdata(scn, NULL);
        if (!rd) {
            seterr(err, errlen, "%s: unreadable relocations: %s", what, libelf_msg());
            goto out;
        }
        /* the symbols the relocations name: sh_link (normally the .symtab found above) */
        Elf_Scn *rsymscn = elf_getscn(e, sh.sh_link);
        GElf_Shdr rsymsh;
        Elf_Data *rsymdata = NULL;
        if (rsymscn && gelf_getshdr(rsymscn, &rsymsh))
            rsymdata = elf_getdata(rsymscn, NULL);
        size_t n = sh.sh_size / sh.sh_entsize;
        for (size_t i = 0; i < n; i++) {
            GElf_Rela r;
            if (sh.sh_type == SHT_RELA) {
                if (!gelf_getrela(rd, (int)i, &r))
                    continue;
            } else {
                GElf_Rel rl;
                if (!gelf_getrel(rd, (int)i, &rl))
                    continue;
                r.r_offset = rl.r_offset;
                r.r_info = rl.r_info;
                r.r_addend = 0;
            }
            uint32_t type = (uint32_t)GELF_R_TYPE(r.r_info);
            GElf_Sym rs;
            size_t si = GELF_R_SYM(r.r_info);
            int have_rs = rsymdata && si && gelf_getsym(rsymdata, (int)si, &rs);
            const reloc_kind *k = reloc_kind_of(type);
            uint64_t before = k ? k->before : 0, after = k ? k->after : 0;
            if (type == R_X86_64_COPY)
                after = have_rs ? rs.st_size : UINT64_MAX / 2;
            if (!k) {
                set_flaw(out, CHECK_CODE_RELOCATION, "a relocation of unknown type %u at 0x%llx (%s): which bytes it "
                         "rewrites is not known", type, (unsigned long long)r.r_offset, rsecname);
                continue;
            }
            uint64_t a = r.r_offset, rlo = a >= before ? a - before : 0;
            uint64_t rhi = a + after < a ? UINT64_MAX : a + after;
            if (rhi <= lo || rlo >= hi)
                continue; /* its reach misses the function */
            if (a < lo || a >= hi) {
                uint64_t from = rlo > lo ? rlo : lo, to = rhi < hi ? rhi : hi;
                set_flaw(out, CHECK_CODE_RELOCATION, "%s at 0x%llx (%s), outside `%s` (bytes 0x%llx to 0x%llx), "
                         "rewrites its bytes +%llu..+%llu", k->name, (unsigned long long)a, rsecname, name,
                         (unsigned long long)lo, (unsigned long long)(hi - 1), (unsigned long long)(from - lo),
                         (unsigned long long)(to - lo - 1));
                continue;
            }
            if (nrelocs == caprelocs) {
                size_t nc = caprelocs ? caprelocs * 2 : 8;
                check_reloc *nr = realloc(relocs, nc * sizeof *nr);
                if (!nr) {
                    seterr(err, errlen, "%s: out of memory", what);
                    goto out;
                }
                relocs = nr;
                caprelocs = nc;
            }
            check_reloc *cr = &relocs[nrelocs++];
            memset(cr, 0, sizeof *cr);
            cr->offset = a - lo;
            cr->before = (uint32_t)before;
            cr->after = after > UINT32_MAX ? UINT32_MAX : (uint32_t)after;
            cr->type = type;
            cr->addend = r.r_addend;
            const char *rn = NULL;
            if (have_rs) {
                if (GELF_ST_TYPE(rs.st_info) == STT_SECTION) {
                    Elf_Scn *ts = elf_getscn(e, rs.st_shndx);
                    GElf_Shdr tsh;
                    if (ts && gelf_getshdr(ts, &tsh))
                        rn = elf_strptr(e, shstrndx, tsh.sh_name);
                } else
                    rn = elf_strptr(e, rsymsh.sh_link, rs.st_name);
            }
            snprintf(cr->sym, sizeof cr->sym, "%s", rn && *rn ? rn : "?");
        }
    }
    /* a linked file: the loader reads its relocation tables from the dynamic section (DT_RELA, DT_REL, DT_JMPREL,
     * DT_RELR), not from section headers, which may omit or disguise one: each entry must be one seen above */
    if (eh.e_type != ET_REL) {
        size_t nph = 0;
        if (elf_getphdrnum(e, &nph) != 0)
            nph = 0;
        for (size_t p = 0; p < nph; p++) {
            GElf_Phdr ph;
            if (!gelf_getphdr(e, (int)p, &ph) || ph.p_type != PT_DYNAMIC)
                continue;
            if (ph.p_offset > len || ph.p_filesz > len - ph.p_offset) {
                set_flaw(out, CHECK_CODE_RELOCATION, "the dynamic section lies beyond the end of the file");
                break;
            }
            uint64_t tab[4] = { 0, 0, 0, 0 }, tsz[4] = { 0, 0, 0, 0 }, pltrel = DT_RELA;
            const uint8_t *dyn = (const uint8_t *)obj + ph.p_offset;
            for (uint64_t k = 0; k + 16 <= ph.p_filesz; k += 16) {
                int64_t tag;
                uint64_t val;
                memcpy(&tag, dyn + k, 8);
                memcpy(&val, dyn + k + 8, 8);
                if (tag == DT_NULL)
                    break;
                if (tag == DT_RELA) tab[0] = val;
                if (tag == DT_RELASZ) tsz[0] = val;
                if (tag == DT_REL) tab[1] = val;
                if (tag == DT_RELSZ) tsz[1] = val;
                if (tag == DT_JMPREL) tab[2] = val;
                if (tag == DT_PLTRELSZ) tsz[2] = val;
                if (tag == DT_PLTREL) pltrel = val;
                if (tag == DT_RELR) tab[3] = val;
                if (tag == DT_RELRSZ) tsz[3] = val;
            }
            for (int t = 0; t < 4; t++) {
                if (!tab[t] || !tsz[t])
                    continue;
                uint64_t off;
                if (vaddr_to_offset(e, len, tab[t], tsz[t], &off) != 0) {
                    set_flaw(out, CHECK_CODE_RELOCATION, "a dynamic relocation table at 0x%llx is not in the file",
                             (unsigned long long)tab[t]);
                    continue;
                }
                const uint8_t *w = (const uint8_t *)obj + off;
                int rela = t == 0 || (t == 2 && pltrel == DT_RELA);
                if (t == 3) {
                    uint64_t where = 0;
                    for (uint64_t k = 0; k + 8 <= tsz[t]; k += 8) {
                        uint64_t v;
                        memcpy(&v, w + k, 8);
                        for (unsigned b = 0; b < 64; b++) {
                            uint64_t a = (v & 1) ? where + 8 * (uint64_t)(b - 1) : v;
                            if (((v & 1) ? (b > 0 && (v >> b & 1)) : b == 0) && a < hi && a + 8 > lo)
                                set_flaw(out, CHECK_CODE_RELOCATION, "an R_X86_64_RELATIVE relocation (DT_RELR) at "
                                         "0x%llx rewrites bytes of `%s`", (unsigned long long)a, name);
                        }
                        where = (v & 1) ? where + 63 * 8 : v + 8;
                    }
                    continue;
                }
                uint64_t ent = rela ? 24 : 16;
                for (uint64_t k = 0; k + ent <= tsz[t]; k += ent) {
                    uint64_t a, info;
                    memcpy(&a, w + k, 8);
                    memcpy(&info, w + k + 8, 8);
                    uint32_t type = (uint32_t)GELF_R_TYPE(info);
                    const reloc_kind *kd = reloc_kind_of(type);
                    if (!kd) {
                        set_flaw(out, CHECK_CODE_RELOCATION, "a dynamic relocation of unknown type %u at 0x%llx: which "
                                 "bytes it rewrites is not known", type, (unsigned long long)a);
                        continue;
                    }
                    uint64_t after = kd->after;
                    if (type == R_X86_64_COPY) { /* its symbol's size (.dynsym), or everything from a on */
                        GElf_Sym cs;
                        Elf_Data *dd = tabs[1] ? elf_getdata(tabs[1], NULL) : NULL;
                        size_t si = GELF_R_SYM(info);
                        after = dd && si && gelf_getsym(dd, (int)si, &cs) ? cs.st_size : UINT64_MAX / 2;
                    }
                    uint64_t rlo = a >= kd->before ? a - kd->before : 0;
                    uint64_t rhi = a + after < a ? UINT64_MAX : a + after;
                    if (rhi <= lo || rlo >= hi)
                        continue;
                    int seen = 0;
                    for (size_t q = 0; q < nrelocs && !seen; q++)
                        seen = relocs[q].offset == a - lo && relocs[q].type == type;
                    if (!seen)
                        set_flaw(out, CHECK_CODE_RELOCATION, "%s at 0x%llx (the dynamic section's table) rewrites bytes "
                                 "of `%s` (bytes 0x%llx to 0x%llx)", kd->name, (unsigned long long)a, name,
                                 (unsigned long long)lo, (unsigned long long)(hi - 1));
                }
            }
        }
    }
    if (nrelocs)
        qsort(relocs, nrelocs, sizeof *relocs, cmp_reloc);
    out->bytes = bytes;
    out->size = (size_t)size;
    out->addr = fsym.st_value;
    out->relocs = relocs;
    out->nrelocs = nrelocs;
    bytes = NULL;
    relocs = NULL;
    rc = 0;
out:
    if (e)
        elf_end(e);
    free(image);
    free(bytes);
    free(relocs);
    if (rc != 0)
        memset(out, 0, sizeof *out);
    return rc;
}

int check_code_read(const char *path, const char *name, check_code *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    uint8_t *buf = NULL;
    size_t len = 0;
    if (read_file(path, &buf, &len, err, errlen) != 0)
        return -1;
    if (len < SELFMAG || memcmp(buf, ELFMAG, SELFMAG) != 0) {
        free(buf);
        if (!ends_with(path, ".S") && !ends_with(path, ".s")) {
            seterr(err, errlen, "%s: not an ELF object, and not an assembly file (.S or .s)", path);
            return -1;
        }
        int arc = check_assemble(path, &buf, &len, err, errlen);
        if (arc != 0)
            return arc;
    }
    int rc = check_code_from_object(buf, len, path, name, out, err, errlen);
    free(buf);
    return rc;
}
