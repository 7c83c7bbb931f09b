/* cc_util.c — compile, load and disassemble C text at test time (see cc_util.h). */
#define _GNU_SOURCE
#include "cc_util.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CC_MAX_ARGV 64

static void set_err(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t len, const char *fmt, ...)
{
    if (!err || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

/* Run argv with stdout and stderr into log (or /dev/null). Returns the exit status, 127 when it could not start,
 * -1 when fork failed. */
static int run(char *const *argv, const char *log)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int in = open("/dev/null", O_RDONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        if (in >= 0)
            dup2(in, 0);
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* the first len-1 bytes of file path into buf (NUL-terminated); "" when unreadable */
static void read_into(const char *path, char *buf, size_t len)
{
    if (!buf || !len)
        return;
    buf[0] = 0;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return;
    size_t n = fread(buf, 1, len - 1, fp);
    buf[n] = 0;
    fclose(fp);
}

int cc_available(const char *cc)
{
    static struct {
        char name[64];
        int ok;
    } cache[8];
    static unsigned ncache;
    for (unsigned i = 0; i < ncache; i++)
        if (!strcmp(cache[i].name, cc))
            return cache[i].ok;
    char *argv[] = { (char *)cc, (char *)"--version", NULL };
    int ok = run(argv, NULL) == 0;
    if (ncache < sizeof cache / sizeof cache[0] && strlen(cc) < sizeof cache[0].name) {
        snprintf(cache[ncache].name, sizeof cache[ncache].name, "%s", cc);
        cache[ncache++].ok = ok;
    }
    return ok;
}

int cc_tmpdir(char *dir, size_t len, char *err, size_t errlen)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    if ((size_t)snprintf(dir, len, "%s/ecopt-cc-XXXXXX", base) >= len) {
        set_err(err, errlen, "temporary directory name too long under %s", base);
        return -1;
    }
    if (!mkdtemp(dir)) {
        set_err(err, errlen, "mkdtemp %s: %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

static int rm_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb;
    (void)type;
    (void)ftw;
    return remove(path) < 0 ? -1 : 0;
}

int cc_rmtree(const char *dir)
{
    if (!dir || !*dir)
        return -1;
    return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS) < 0 ? -1 : 0;
}

static int write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        return -1;
    size_t n = strlen(text);
    int rc = fwrite(text, 1, n, fp) == n ? 0 : -1;
    if (fclose(fp) != 0)
        rc = -1;
    return rc;
}

/* split a copy of s at spaces into argv[*argc...]; returns -1 when too many words */
static int split_into(char *s, char **argv, int *argc)
{
    for (char *tok = strtok(s, " \t"); tok; tok = strtok(NULL, " \t")) {
        if (*argc >= CC_MAX_ARGV - 8)
            return -1;
        argv[(*argc)++] = tok;
    }
    return 0;
}

static int build(const char *cc, const char *opt, const char *csrc, const char *dir, const char *stem, int shared,
                 char *out_path, size_t out_len, char *err, size_t errlen)
{
    char src[1024], log[1024], warn[] = CC_UTIL_WARN;
    char *optcopy = strdup(opt ? opt : "");
    if (!optcopy) {
        set_err(err, errlen, "out of memory");
        return -1;
    }
    if ((size_t)snprintf(src, sizeof src, "%s/%s.c", dir, stem) >= sizeof src ||
        (size_t)snprintf(log, sizeof log, "%s/%s.log", dir, stem) >= sizeof log ||
        (size_t)snprintf(out_path, out_len, "%s/%s.%s", dir, stem, shared ? "so" : "o") >= out_len) {
        set_err(err, errlen, "path too long: %s/%s", dir, stem);
        free(optcopy);
        return -1;
    }
    if (write_file(src, csrc) < 0) {
        set_err(err, errlen, "cannot write %s: %s", src, strerror(errno));
        free(optcopy);
        return -1;
    }
    char *argv[CC_MAX_ARGV];
    int argc = 0;
    argv[argc++] = (char *)cc;
    if (split_into(warn, argv, &argc) < 0 || split_into(optcopy, argv, &argc) < 0) {
        set_err(err, errlen, "too many compiler options: %s", opt);
        free(optcopy);
        return -1;
    }
    argv[argc++] = (char *)"-fPIC";
    argv[argc++] = (char *)(shared ? "-shared" : "-c");
    argv[argc++] = (char *)"-o";
    argv[argc++] = out_path;
    argv[argc++] = src;
    argv[argc] = NULL;
    int st = run(argv, log);
    free(optcopy);
    if (st != 0) {
        char msg[4096];
        read_into(log, msg, sizeof msg);
        if (st == 127)
            set_err(err, errlen, "%s could not be run", cc);
        else
            set_err(err, errlen, "%s %s failed (status %d) on %s:\n%s", cc, opt ? opt : "", st, src, msg);
        return -1;
    }
    return 0;
}

int cc_build_so(const char *cc, const char *opt, const char *csrc, const char *dir, const char *stem, char *so_path,
                size_t so_len, char *err, size_t errlen)
{
    return build(cc, opt, csrc, dir, stem, 1, so_path, so_len, err, errlen);
}

int cc_build_obj(const char *cc, const char *opt, const char *csrc, const char *dir, const char *stem,
                 char *obj_path, size_t obj_len, char *err, size_t errlen)
{
    return build(cc, opt, csrc, dir, stem, 0, obj_path, obj_len, err, errlen);
}

void *cc_dlopen(const char *path, char *err, size_t errlen)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        set_err(err, errlen, "dlopen %s: %s", path, e ? e : "unknown error");
    }
    return h;
}

void cc_dlclose(void *handle)
{
    if (handle)
        dlclose(handle);
}

cc_fn cc_dlsym(void *handle, const char *name, char *err, size_t errlen)
{
    dlerror();
    void *p = dlsym(handle, name);
    if (!p) {
        const char *e = dlerror();
        set_err(err, errlen, "symbol %s: %s", name, e ? e : "not found");
        return NULL;
    }
    /* POSIX guarantees that a data pointer from dlsym converts to a function pointer; memcpy says so to C */
    cc_fn fn;
    memcpy(&fn, &p, sizeof fn);
    return fn;
}

int cc_call_arrays(cc_fn fn, unsigned n, void *const *a)
{
    typedef uint64_t *P;
    switch (n) {
    case 1: ((void (*)(P))fn)(a[0]); return 0;
    case 2: ((void (*)(P, P))fn)(a[0], a[1]); return 0;
    case 3: ((void (*)(P, P, P))fn)(a[0], a[1], a[2]); return 0;
    case 4: ((void (*)(P, P, P, P))fn)(a[0], a[1], a[2], a[3]); return 0;
    case 5: ((void (*)(P, P, P, P, P))fn)(a[0], a[1], a[2], a[3], a[4]); return 0;
    case 6: ((void (*)(P, P, P, P, P, P))fn)(a[0], a[1], a[2], a[3], a[4], a[5]); return 0;
    case 7: ((void (*)(P, P, P, P, P, P, P))fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6]); return 0;
    case 8: ((void (*)(P, P, P, P, P, P, P, P))fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]); return 0;
    default: return -1;
    }
}

/* ---- branches in the disassembly ------------------------------------------------------------------------------ */

/* instruction prefixes objdump prints before the mnemonic */
static int is_prefix(const char *w)
{
    static const char *const p[] = { "bnd", "notrack", "lock", "rep", "repz", "repe", "repnz", "repne", "data16",
                                     "addr32", "cs", "ds", "es", "ss", "fs", "gs", "rex", "rex.W", "rex.B",
                                     "rex.WB", "rex.R", "rex.X", "rex.WR", "rex.WX", "rex.RB", "rex.XB", "rex.WRB",
                                     "rex.WXB", "rex.RX", "rex.WRX", "rex.RXB", "rex.WRXB", "ds:", "cs:" };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        if (!strcmp(w, p[i]))
            return 1;
    return 0;
}

static int is_branch(const char *m)
{
    return m[0] == 'j' || !strncmp(m, "loop", 4);
}

/* a `jmp` to the start of a function: "jmp    2ad0 <lw_modadd_lowered>" (no "+0x" in the target) */
static int is_tail_call(const char *insn, const char *func)
{
    const char *lt = strrchr(insn, '<'), *gt = lt ? strchr(lt, '>') : NULL;
    if (!lt || !gt || gt[1] || memchr(lt, '+', (size_t)(gt - lt)))
        return 0;
    return strncmp(lt + 1, func, (size_t)(gt - lt - 1)) || strlen(func) != (size_t)(gt - lt - 1);
}

static void report_line(char *report, size_t report_len, size_t *used, const char *func, unsigned long long off,
                        const char *insn)
{
    if (!report || *used + 1 >= report_len)
        return;
    int k = snprintf(report + *used, report_len - *used, "%s+0x%llx: %s\n", func, off, insn);
    if (k > 0)
        *used = *used + (size_t)k < report_len ? *used + (size_t)k : report_len - 1;
}

int cc_find_conditional_jumps(const char *objpath, char *report, size_t report_len)
{
    char dis[1100];
    if (report && report_len)
        report[0] = 0;
    if ((size_t)snprintf(dis, sizeof dis, "%s.dis", objpath) >= sizeof dis) {
        set_err(report, report_len, "path too long: %s", objpath);
        return -1;
    }
    char *argv[] = { (char *)"objdump", (char *)"-d", (char *)"-r", (char *)"--no-show-raw-insn", (char *)objpath,
                     NULL };
    int st = run(argv, dis);
    if (st != 0) {
        char msg[1024];
        read_into(dis, msg, sizeof msg);
        set_err(report, report_len, st == 127 ? "objdump could not be run" : "objdump -d %s failed: %s", objpath,
                msg);
        return -1;
    }
    FILE *fp = fopen(dis, "r");
    if (!fp) {
        set_err(report, report_len, "cannot read %s: %s", dis, strerror(errno));
        return -1;
    }
    char line[1024], func[256] = "?";
    unsigned long long fstart = 0;
    int found = 0, ninsn = 0;
    size_t used = 0;
    /* a jmp whose target is only known from its relocation (the next line) is a tail call to another symbol */
    char pending[1024] = "";
    unsigned long long pending_off = 0;
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\n")] = 0;
        if (pending[0]) {
            if (!strstr(line, "R_X86_64_")) {
                report_line(report, report_len, &used, func, pending_off, pending);
                found++;
            }
            pending[0] = 0;
        }
        unsigned long long addr;
        char name[256];
        /* "0000000000000000 <fname>:" starts a function */
        if (line[0] != ' ' && sscanf(line, "%llx <%255[^>]>:", &addr, name) == 2) {
            snprintf(func, sizeof func, "%s", name);
            fstart = addr;
            continue;
        }
        /* "   1f:\tjne    40 <f+0x40>" is an instruction; "\t\t\t1f: R_X86_64_PLT32\tg-0x4" a relocation */
        char *colon = strchr(line, ':');
        if (!colon || line[0] != ' ' || sscanf(line, " %llx:", &addr) != 1)
            continue;
        char *p = colon + 1;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '(' || !strncmp(p, "R_X86_64_", 9))
            continue;
        ninsn++;
        char copy[1024], *save = NULL, *w;
        snprintf(copy, sizeof copy, "%s", p);
        for (w = strtok_r(copy, " \t", &save); w && is_prefix(w); w = strtok_r(NULL, " \t", &save))
            ;
        if (!w || !is_branch(w))
            continue;
        if (!strncmp(w, "jmp", 3) && !strchr(p, '*')) {
            if (is_tail_call(p, func))
                continue;
            snprintf(pending, sizeof pending, "%s", p);
            pending_off = addr - fstart;
            continue;
        }
        found++;
        report_line(report, report_len, &used, func, addr - fstart, p);
    }
    if (pending[0]) {
        report_line(report, report_len, &used, func, pending_off, pending);
        found++;
    }
    fclose(fp);
    if (ninsn == 0) {
        set_err(report, report_len, "objdump -d %s printed no instructions", objpath);
        return -1;
    }
    return found;
}
