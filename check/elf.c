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

/* run_assembler — `prog -c -o objpath src`, stdout and stderr into msgpath, without a shell. 0 when it exited 0,
 * -1 when it failed or could not be run (127), -2 when fork/wait failed (errno). */
static int run_assembler(const char *prog, const char *src, const char *objpath, const char *msgpath)
{
    pid_t pid = fork();
    if (pid < 0)
        return -2;
    if (pid == 0) {
        int fd = open(msgpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
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
        int ast = run_assembler(prog, src, objpath, msgpath);
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

    /* the symbol table: .symtab, else .dynsym */
    Elf_Scn *symscn = NULL, *scn = NULL;
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
    }
    if (!symscn) {
        seterr(err, errlen, "%s: no symbol `%s` (the file has no symbol table)", what, name);
        goto out;
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
    GElf_Sym fsym;
    memset(&fsym, 0, sizeof fsym);
    int found = 0, nfunc = 0;
    for (size_t i = 0; i < nsyms; i++) {
        GElf_Sym s;
        if (!gelf_getsym(symdata, (int)i, &s))
            continue;
        const char *n = elf_strptr(e, symsh.sh_link, s.st_name);
        if (n && !strcmp(n, name)) {
            if (is_function_symbol(&s)) {
                if (nfunc++ == 0)
                    fsym = s;
                found = 1;
            } else if (!found) {
                fsym = s;
                found = 1;
            }
        }
    }
    if (nfunc > 1) {
        /* a local and a global of one name (ld -r keeps both): which one callers reach is not ours to guess */
        seterr(err, errlen, "%s: the symbol %s is defined %d times: ambiguous", what, name, nfunc);
        goto out;
    }
    if (!found || !is_function_symbol(&fsym)) {
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
        if (found)
            seterr(err, errlen, "%s: symbol `%s` is %s, not a function defined here; functions: %s", what, name,
                   fsym.st_shndx == SHN_UNDEF ? "undefined" : "not a function", listed ? list : "(none)");
        else
            seterr(err, errlen, "%s: no symbol `%s`; functions: %s", what, name, listed ? list : "(none)");
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

    /* relocations that apply to the function's bytes */
    scn = NULL;
    while ((scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        /* in an object, a relocation section names the section it patches (sh_info); in a linked file the dynamic
         * ones (.rela.dyn: sh_info 0) patch virtual addresses anywhere: every one is matched by address */
        if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) || !sh.sh_entsize ||
            (eh.e_type == ET_REL && sh.sh_info != fsym.st_shndx))
            continue;
        if (sh.sh_offset > len || sh.sh_size > len - sh.sh_offset) {
            seterr(err, errlen, "%s: truncated ELF: a relocation section lies beyond the end of the file", what);
            goto out;
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
            uint64_t off = r.r_offset - (eh.e_type == ET_REL ? 0 : csh.sh_addr);
            if (off < start || off >= start + size)
                continue;
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
            cr->offset = off - start;
            cr->type = (uint32_t)GELF_R_TYPE(r.r_info);
            cr->addend = r.r_addend;
            GElf_Sym rs;
            size_t si = GELF_R_SYM(r.r_info);
            const char *rn = NULL;
            if (rsymdata && si && gelf_getsym(rsymdata, (int)si, &rs)) {
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
