/* bench_asm.c — ecopt_bench_asm: several .S files of one IR program side by side, by paired ratios (not a test).
 *
 *   ecopt_bench_asm --ir PROGRAM.ir [--runs N] [--rounds R] [--cpu C] [--objective latency|throughput]
 *                   [-I DIR]... A.S B.S ...
 *
 * Each file (an `ecopt opt` output, or any function with the program's fiat signature) becomes its own shared
 * object, dlopened; all run interleaved on the program's random inputs (search/measure.h). Three kinds of file, by
 * name: FILE.S is preprocessed (`cc -E`, with the -I folders: s2n-bignum's files #include its headers and make
 * their `.globl` with a macro), its `.hidden` lines are blanked (so dlsym finds the symbol that its first `.globl`
 * names) and it is assembled with `cc -fPIC -shared`; FILE.s the same without the preprocessor; FILE.asm is NASM
 * (CryptOpt's published files), assembled with `nasm -f elf64` (the -I folders passed on) and linked with
 * `cc -shared`; its symbol is the one its first `global` line names. Each run prints, per file, the median ticks per
 * call and the paired ratio to A (the median over the rounds of the file's batch time / A's batch time in the same
 * round: measure_run_ratio); then the median and range of each ratio over the runs. Files are labelled A-Z, a-z.
 * --objective (search/measure.h): throughput (default), independent calls on the same inputs; latency, a dependent
 * chain (the program's first output fed back as its first input, measure_chain; a program that cannot chain is
 * bad input, exit 2).
 *
 * Why separate runs: on a shared host a function's time has regimes (another tenant on the SMT sibling, or not)
 * that rank code differently (docs/optimizer.md, "Two regimes"); A's ticks in each line say which regime that run saw. Run the
 * tool several times too: the placement of the code in memory alone moves identical copies by up to ~1.5%.
 * Nothing is proved here: prove each file with `ecopt check` first. A file whose header has a `Shapes:` line (as
 * `ecopt opt` writes) must take as many arrays as the program; other files are trusted to (a function that reads
 * more arguments than it is given crashes). Exit: 0; 1 a measurement failed; 2 bad usage or input (an unreadable
 * or malformed file, a preprocessor or assembler error, a missing symbol, a Shapes line that does not match, a
 * --cpu that is not a CPU of this machine); 3 the environment failed (a CPU that exists but this process may not
 * run on, e.g. outside its cpuset; no temporary directory; cc or nasm cannot be run). ecopt_bench uses the same
 * codes. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ir/ir.h"
#include "search/measure.h"

#define MAX_FILES 52 /* labelled A-Z, a-z; measure_run_ratio takes up to 64 */
#define MAX_RUNS 1000
#define MAX_INCLUDES 16

/* the label of file i: A-Z, then a-z */
static char label(int i)
{
    return (char)(i < 26 ? 'A' + i : 'a' + (i - 26));
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    while (b) {
        size_t k = fread(b + n, 1, cap - n, f);
        n += k;
        if (n < cap)
            break;
        char *nb = realloc(b, 2 * cap + 1);
        if (!nb) {
            free(b);
            b = NULL;
            break;
        }
        b = nb;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (b == NULL || bad) {
        free(b);
        return NULL;
    }
    b[n] = 0;
    return b;
}

/* the symbol of the first `.globl` / `.global` line (nasm: the first `global` line, any case, its name up to a
 * `:` type suffix), into sym; 0 found */
static int globl_symbol(const char *text, int nasm, char *sym, size_t n)
{
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *q = p;
        while (q < p + len && (*q == ' ' || *q == '\t'))
            q++;
        size_t kw = 0;
        if (nasm)
            kw = p + len - q > 6 && strncasecmp(q, "global", 6) == 0 ? 6 : 0;
        else
            kw = strncmp(q, ".globl", 6) == 0 ? 6 : strncmp(q, ".global", 7) == 0 ? 7 : 0;
        if (kw && q + kw < p + len && (q[kw] == ' ' || q[kw] == '\t')) {
            q += kw;
            while (q < p + len && (*q == ' ' || *q == '\t'))
                q++;
            size_t k = 0;
            while (q + k < p + len && !strchr(" \t\r,;:", q[k]))
                k++;
            if (k == 0 || k >= n)
                return -1;
            memcpy(sym, q, k);
            sym[k] = 0;
            return 0;
        }
        p = e ? e + 1 : p + len;
    }
    return -1;
}

/* text with its `.hidden` lines blanked (not dropped: the assembler's line numbers stay those of the text), written
 * to path; 0 ok */
static int write_unhidden(const char *text, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) + 1 : strlen(p);
        const char *q = p;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, ".hidden", 7) != 0 || (q[7] != ' ' && q[7] != '\t'))
            fwrite(p, 1, len, f);
        else if (e)
            fputc('\n', f);
        p += len;
    }
    return fclose(f) == 0 ? 0 : -1;
}

/* the file's kind, by the end of its name */
enum file_kind { KIND_CPP, KIND_GAS, KIND_NASM };
static enum file_kind file_kind_of(const char *path)
{
    size_t n = strlen(path);
    if (n >= 4 && strcasecmp(path + n - 4, ".asm") == 0)
        return KIND_NASM;
    if (n >= 2 && strcmp(path + n - 2, ".s") == 0)
        return KIND_GAS;
    return KIND_CPP;
}

/* the number of parameters on the header's `Shapes:  void NAME(...)` line; -1 when there is none */
static int shapes_params(const char *text)
{
    const char *p = strstr(text, "Shapes:");
    if (!p)
        return -1;
    const char *e = strchr(p, '\n');
    const char *o = strchr(p, '(');
    if (!o || (e && o > e))
        return -1;
    int n = 1, depth = 0;
    for (const char *q = o + 1; *q && q != e; q++) {
        if (*q == '(' || *q == '[')
            depth++;
        else if (*q == ']')
            depth--;
        else if (*q == ')') {
            if (depth == 0)
                return n;
            depth--;
        } else if (*q == ',' && depth == 0)
            n++;
    }
    return -1;
}

/* the first line of a tool's stderr file that says "error" (any case), else its first line, into buf ("" if
 * none); a line about the temporary copy (its path under tmp) is cut to start at the word */
static void first_line(const char *path, const char *tmp, char *buf, size_t n)
{
    char line[512];
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        const char *t = strcasestr(line, "error");
        if (!buf[0] || t) {
            const char *src = t && strstr(line, tmp) ? t : line;
            size_t k = strlen(src) < n - 1 ? strlen(src) : n - 1; /* cut to fit */
            memcpy(buf, src, k);
            buf[k] = 0;
            if (t)
                break;
        }
    }
    fclose(f);
}

/* The temporary directory, for the handler of the terminating signals a user or a closing terminal sends (SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT): an interrupted run stops the assembler's whole process group, waits until every process of it
 * is gone, removes the directory with everything in it, and then dies of the signal as it would have. The
 * assembler runs with TMPDIR set to this directory, so its own temporaries (gcc's cc*.s, collect2's cc*.cdtor.c ...)
 * are inside it too: nothing is left in the caller's TMPDIR. Only async-signal-safe calls are made from the handler
 * (kill, waitpid, nanosleep, open, getdents64, unlinkat, close, signal, raise). */
static const int tmp_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
enum { NTMP_SIGNALS = sizeof tmp_signals / sizeof tmp_signals[0] };
static char tmp_dir[512];
static volatile sig_atomic_t tmp_live;
static volatile pid_t cc_child; /* the assembler's process group (its driver's pid) while it runs, else 0 */

/* How long an interrupted run waits for the assembler's group: TERM_MS after SIGTERM (gcc's driver, cc1, as and ld
 * die of it at once; a process the driver forked after the signal was sent gets it from a later round), then SIGKILL
 * and at most KILL_MS more. A group still there after that is left; its files are removed anyway. */
enum { GROUP_TERM_MS = 2000, GROUP_KILL_MS = 1000, GROUP_POLL_MS = 2 };

/* group_stop — signal the process group pgid every GROUP_POLL_MS until none of it is left (the kill fails with
 * ESRCH, as kill(-pgid, 0) would; sending SIGTERM each time, not 0, also stops a process forked since the last
 * round), reaping the processes of it that are this process's children (the driver, and its orphans: the tool is
 * their subreaper, see main). Bounded: about GROUP_TERM_MS + GROUP_KILL_MS. Async-signal-safe. */
static void group_stop(pid_t pgid)
{
    struct timespec tick = { 0, GROUP_POLL_MS * 1000000L };
    for (int ms = 0; ms < GROUP_TERM_MS + GROUP_KILL_MS; ms += GROUP_POLL_MS) {
        while (waitpid(-pgid, NULL, WNOHANG) > 0) /* zombies count as members until reaped */
            ;
        if (kill(-pgid, ms < GROUP_TERM_MS ? SIGTERM : SIGKILL) != 0 && errno == ESRCH)
            return;
        nanosleep(&tick, NULL);
    }
}

/* rm_tree_at — remove everything below the directory at/name, then it; subdirectories to depth levels (cc writes
 * files only). Async-signal-safe (getdents64 and the *at calls, not opendir/readdir). 0 ok. */
static int rm_tree_at(int at, const char *name, int depth)
{
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : -1;
    char buf[4096] __attribute__((aligned(8))); /* per level: a subdirectory's listing does not clobber this one */
    int bad = 0;
    for (;;) {
        ssize_t n = getdents64(fd, buf, sizeof buf);
        if (n <= 0) {
            bad |= n < 0;
            break;
        }
        for (ssize_t off = 0; off < n;) {
            const struct dirent64 *d = (const struct dirent64 *)(const void *)(buf + off);
            off += d->d_reclen;
            if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
                continue;
            if (unlinkat(fd, d->d_name, 0) == 0)
                continue;
            if ((errno == EISDIR || errno == EPERM) && depth > 0)
                bad |= rm_tree_at(fd, d->d_name, depth - 1) != 0;
            else
                bad = 1;
        }
    }
    close(fd);
    if (unlinkat(at, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
        bad = 1;
    return bad ? -1 : 0;
}

static int rm_tree(const char *path)
{
    return rm_tree_at(AT_FDCWD, path, 4);
}

static void tmp_cleanup_on_signal(int sig)
{
    pid_t child = cc_child;
    if (child > 0) /* the assembler's whole process group: the driver and its cc1, as, collect2, ld */
        group_stop(child);
    if (tmp_live)
        rm_tree(tmp_dir);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* tmp_signals_hold — blocks tmp_signals, the previous mask into was */
static void tmp_signals_hold(sigset_t *was)
{
    sigset_t hold;
    sigemptyset(&hold);
    for (int k = 0; k < NTMP_SIGNALS; k++)
        sigaddset(&hold, tmp_signals[k]);
    sigprocmask(SIG_BLOCK, &hold, was);
}

/* run_tool — argv (argv[0] found on PATH) with TMPDIR=tmp_dir and its stderr into errpath, as the leader of its own
 * process group; 0 ok, -1 it failed, -2 it could not be run (not found: exit 127 from the child) */
static int run_tool(char *const argv[], const char *errpath)
{
    /* tmp_signals held from the fork until cc_child names the child, so the handler never misses it; the child
     * leads its own process group (the handler signals the group: a driver stopped alone leaves its cc1 or ld
     * running, which then writes temporaries after the driver removed its own). */
    sigset_t was;
    tmp_signals_hold(&was);
    pid_t pid = fork();
    if (pid < 0) {
        sigprocmask(SIG_SETMASK, &was, NULL);
        return -2;
    }
    if (pid == 0) {
        setpgid(0, 0);
        sigprocmask(SIG_SETMASK, &was, NULL);
        FILE *e = freopen(errpath, "w", stderr);
        (void)e;
        /* setenv after fork is safe here: the tool has one thread */
        if (setenv("TMPDIR", tmp_dir, 1) != 0)
            _exit(126);
        execvp(argv[0], argv);
        fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* also here: the handler may signal the group before the child has run */
    cc_child = pid;
    sigprocmask(SIG_SETMASK, &was, NULL);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            cc_child = 0;
            return -1;
        }
    cc_child = 0;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
        return -2;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* tool_failed — the message for a step of load_file whose tool failed (r from run_tool); the exit code */
static int tool_failed(const char *file, const char *what, int r, const char *epath)
{
    char line[300];
    first_line(epath, tmp_dir, line, sizeof line);
    if (r == -2) {
        fprintf(stderr, "ecopt_bench_asm: %s: cannot run %s%s%s\n", file, what, line[0] ? ": " : "", line);
        return 3;
    }
    fprintf(stderr, "ecopt_bench_asm: %s: %s failed%s%s\n", file, what, line[0] ? ": " : "", line);
    return 2;
}

/* load_file — file number i (path) into its own shared object under dir, dlopened into *dl, its symbol into *fn
 * (the file's kind by its name: file_kind_of); the temporaries are removed. 0 ok, else the exit code (a message
 * said why). */
static int load_file(const char *path, int i, const char *dir, const char *const *incs, int ninc, uint32_t narr,
                     void **dl, measure_fn *fn)
{
    enum { MAXARGV = 16 + 2 * MAX_INCLUDES };
    char sym[256], ipath[600], spath[600], opath[600], sopath[600], epath[600];
    char incbuf[MAX_INCLUDES][600];
    char *av[MAXARGV];
    enum file_kind kind = file_kind_of(path);
    int rc = 0, r = 0, n = 0;
    snprintf(ipath, sizeof ipath, "%s/f%d.i", dir, i);
    snprintf(spath, sizeof spath, "%s/f%d.s", dir, i);
    snprintf(opath, sizeof opath, "%s/f%d.o", dir, i);
    snprintf(sopath, sizeof sopath, "%s/f%d.so", dir, i);
    snprintf(epath, sizeof epath, "%s/f%d.err", dir, i);
    errno = 0;
    char *text = read_text(path), *asmtext = NULL;
    int np = text ? shapes_params(text) : -1;
    if (!text) {
        fprintf(stderr, "ecopt_bench_asm: %s: %s\n", path, strerror(errno ? errno : EIO));
        rc = 2;
    } else if (np >= 0 && (uint32_t)np != narr) {
        fprintf(stderr, "ecopt_bench_asm: %s: its Shapes line has %d arrays, the program %u\n", path, np, narr);
        rc = 2;
    } else if (kind == KIND_NASM) {
        if (globl_symbol(text, 1, sym, sizeof sym) != 0) {
            fprintf(stderr, "ecopt_bench_asm: %s: no global symbol (a NASM file: its name ends in .asm)\n", path);
            rc = 2;
        } else {
            av[n++] = (char *)"nasm";
            av[n++] = (char *)"-f";
            av[n++] = (char *)"elf64";
            for (int k = 0; k < ninc; k++) { /* nasm prefixes the folder as given to the included name */
                size_t len = strlen(incs[k]);
                snprintf(incbuf[k], sizeof incbuf[k], "-I%s%s", incs[k], len && incs[k][len - 1] == '/' ? "" : "/");
                av[n++] = incbuf[k];
            }
            av[n++] = (char *)"-o";
            av[n++] = opath;
            av[n++] = (char *)path;
            av[n] = NULL;
            if ((r = run_tool(av, epath)) != 0) {
                rc = tool_failed(path, "nasm -f elf64", r, epath);
            } else {
                char *lv[] = { (char *)"cc", (char *)"-shared", (char *)"-Wl,-z,noexecstack", (char *)"-o", sopath,
                               opath, NULL };
                if ((r = run_tool(lv, epath)) != 0)
                    rc = tool_failed(path, "cc -shared", r, epath);
            }
        }
    } else {
        if (kind == KIND_CPP) { /* cc -E: its line markers keep the assembler's messages on the file's lines */
            av[n++] = (char *)"cc";
            av[n++] = (char *)"-E";
            av[n++] = (char *)"-x";
            av[n++] = (char *)"assembler-with-cpp";
            for (int k = 0; k < ninc; k++) {
                snprintf(incbuf[k], sizeof incbuf[k], "-I%s", incs[k]);
                av[n++] = incbuf[k];
            }
            av[n++] = (char *)"-o";
            av[n++] = ipath;
            av[n++] = (char *)path;
            av[n] = NULL;
            if ((r = run_tool(av, epath)) != 0)
                rc = tool_failed(path, "cc -E", r, epath);
            else if (!(asmtext = read_text(ipath))) {
                fprintf(stderr, "ecopt_bench_asm: %s: its preprocessed text: %s\n", path, strerror(errno ? errno : EIO));
                rc = 3;
            }
        }
        const char *t = asmtext ? asmtext : text;
        if (rc != 0) {
        } else if (globl_symbol(t, 0, sym, sizeof sym) != 0) {
            fprintf(stderr, "ecopt_bench_asm: %s: no .globl symbol\n", path);
            rc = 2;
        } else if (write_unhidden(t, spath) != 0) {
            fprintf(stderr, "ecopt_bench_asm: %s: %s\n", spath, strerror(errno ? errno : EIO));
            rc = 3;
        } else {
            char *cv[] = { (char *)"cc", (char *)"-fPIC", (char *)"-shared", (char *)"-Wl,-z,noexecstack",
                           (char *)"-o", sopath, spath, NULL };
            if ((r = run_tool(cv, epath)) != 0)
                rc = tool_failed(path, "cc -fPIC -shared", r, epath);
        }
    }
    if (rc == 0 && !(*dl = dlopen(sopath, RTLD_NOW | RTLD_LOCAL))) {
        fprintf(stderr, "ecopt_bench_asm: %s: dlopen: %s\n", path, dlerror());
        rc = 2;
    } else if (rc == 0) {
        void *p = dlsym(*dl, sym);
        if (!p) {
            fprintf(stderr, "ecopt_bench_asm: %s: symbol %s not found\n", path, sym);
            rc = 2;
        }
        memcpy(fn, &p, sizeof p); /* object pointer to function pointer (POSIX dlsym) */
    }
    free(text);
    free(asmtext);
    unlink(ipath);
    unlink(spath);
    unlink(opath);
    unlink(sopath);
    unlink(epath);
    return rc;
}

static int usage(const char *msg)
{
    FILE *o = msg ? stderr : stdout;
    if (msg)
        fprintf(stderr, "ecopt_bench_asm: %s\n", msg);
    fprintf(o, "usage: ecopt_bench_asm --ir PROGRAM.ir [--runs N] [--rounds R] [--cpu C]\n"
               "                       [--objective latency|throughput] [-I DIR]... A.S B.S ...\n"
               "  (2 to %d files, labelled A-Z, a-z: FILE.S preprocessed (cc -E, with the -I folders) and\n"
               "  assembled by cc, FILE.s assembled by cc, FILE.asm NASM (nasm -f elf64, with the -I folders);\n"
               "  -I up to %d times; runs 1..%d, default 5; rounds 1..1001, default 101, at least 31 advised;\n"
               "  cpu: default the one it starts on; objective: throughput (default), independent calls, or\n"
               "  latency, a dependent chain: the first output fed back as the first input, as ecopt opt does)\n"
               "exit status: 0; 1 a measurement failed; 2 bad usage or input (an option or its value, --cpu not a\n"
               "  CPU of this machine, an -I that is not a folder, an unreadable or malformed file, a preprocessor\n"
               "  or assembler error, a missing symbol); 3 the environment failed (the CPU exists but this process\n"
               "  may not run on it, the temporary directory cannot be created, cc or nasm cannot be run); the same\n"
               "  codes as ecopt_bench\n",
            MAX_FILES, MAX_INCLUDES, MAX_RUNS);
    return msg ? 2 : 0;
}

int main(int argc, char **argv)
{
    const char *irpath = NULL, *files[MAX_FILES], *incs[MAX_INCLUDES];
    int nf = 0, ninc = 0, runs = 5, rounds = 101, cpu = -1;
    static const char *const opts[5] = {"--ir", "--runs", "--rounds", "--cpu", "--objective"};
    int seen[5] = {0};
    measure_objective objective = MEASURE_THROUGHPUT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *end = NULL;
        int k = -1;
        for (int j = 0; j < 5; j++)
            if (!strcmp(a, opts[j]))
                k = j;
        if (k >= 0) {
            if (i + 1 >= argc)
                return usage("an option without its value");
            if (seen[k]++)
                return usage("an option given more than once");
            const char *v = argv[++i];
            if (k == 0) {
                irpath = v;
                continue;
            }
            if (k == 4) {
                if (measure_objective_parse(v, &objective) != 0)
                    return usage("--objective: not latency or throughput");
                continue;
            }
            errno = 0;
            long x = strtol(v, &end, 10);
            if (errno || end == v || *end)
                return usage("not a number");
            if (!strcmp(a, "--runs"))
                runs = (int)(x >= 1 && x <= MAX_RUNS ? x : -1);
            else if (!strcmp(a, "--rounds"))
                rounds = (int)(x >= 1 && x <= 1001 ? x : -1);
            else
                cpu = (int)(x >= 0 && x < 4096 ? x : -2);
            if (runs < 0 || rounds < 0 || cpu == -2)
                return usage("a value out of range");
        } else if (!strncmp(a, "-I", 2)) {
            const char *v = a[2] ? a + 2 : i + 1 < argc ? argv[++i] : NULL;
            struct stat st;
            if (!v || !v[0])
                return usage("-I without its folder");
            if (ninc == MAX_INCLUDES)
                return usage("-I given too many times");
            if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) {
                fprintf(stderr, "ecopt_bench_asm: -I %s: not a folder\n", v);
                return 2;
            }
            incs[ninc++] = v;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            return usage(NULL);
        } else if (a[0] == '-' && a[1]) {
            return usage("unknown option");
        } else if (nf < MAX_FILES) {
            files[nf++] = a;
        } else {
            return usage("too many files");
        }
    }
    if (!irpath || nf < 2)
        return usage(!irpath ? "--ir is required" : "at least two files");

    char err[512];
    char *irtext = read_text(irpath);
    if (!irtext) {
        fprintf(stderr, "ecopt_bench_asm: %s: %s\n", irpath, strerror(errno ? errno : EIO));
        return 2;
    }
    ir_func *f = ir_parse(irtext, err, sizeof err);
    free(irtext);
    if (!f) {
        fprintf(stderr, "ecopt_bench_asm: %s: %s\n", irpath, err);
        return 2;
    }
    char chain[192];
    if (objective == MEASURE_LATENCY && measure_chain(f, chain, sizeof chain) < 0) {
        fprintf(stderr, "ecopt_bench_asm: %s: --objective latency: its calls cannot be chained: %s\n", irpath, chain);
        ir_func_free(f);
        return 2;
    }
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    if (cpu >= 0 && ncpu > 0 && cpu >= ncpu) { /* bad usage: the machine has no such CPU */
        fprintf(stderr, "ecopt_bench_asm: --cpu %d: no such CPU (this machine has CPUs 0 to %ld)\n", cpu, ncpu - 1);
        ir_func_free(f);
        return 2;
    }
    int pinned = measure_pin(cpu, err, sizeof err); /* before any file: the environment may refuse the CPU */
    if (pinned < 0) {
        fprintf(stderr, "ecopt_bench_asm: --cpu %d: this process may not run on it (%s)\n", cpu, err);
        ir_func_free(f);
        return 3;
    }
    char dir[512];
    const char *tmpdir = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/ecopt-bench-asm-XXXXXX", tmpdir && tmpdir[0] ? tmpdir : "/tmp");
    struct sigaction sa, old_sa[NTMP_SIGNALS];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = tmp_cleanup_on_signal;
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < NTMP_SIGNALS; k++) { /* a signal the caller ignores (a background job's SIGINT, nohup's
                                              * SIGHUP) stays ignored */
        sigaction(tmp_signals[k], NULL, &old_sa[k]);
        if (old_sa[k].sa_handler != SIG_IGN)
            sigaction(tmp_signals[k], &sa, NULL);
    }
    if (!mkdtemp(dir)) {
        fprintf(stderr, "ecopt_bench_asm: %s: cannot create the temporary directory: %s\n", dir, strerror(errno));
        for (int k = 0; k < NTMP_SIGNALS; k++)
            sigaction(tmp_signals[k], &old_sa[k], NULL);
        ir_func_free(f);
        return 3;
    }
#ifdef PR_SET_CHILD_SUBREAPER
    /* the assembler's orphans (a cc1 or ld whose driver died of the signal) become this process's children, so the
     * handler can reap them: a zombie still counts in its process group, and an init that does not reap (in some
     * containers) would keep it there */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif
    memcpy(tmp_dir, dir, sizeof tmp_dir);
    tmp_live = 1;
    void *dl[MAX_FILES] = {0};
    measure_fn fns[MAX_FILES];
    int rc = 0;
    for (int i = 0; i < nf && rc == 0; i++)
        rc = load_file(files[i], i, dir, incs, ninc, f->narr, &dl[i], &fns[i]);
    sigset_t was; /* the handler and this removal never run at once */
    tmp_signals_hold(&was);
    rm_tree(dir);
    tmp_live = 0;
    sigprocmask(SIG_SETMASK, &was, NULL);
    for (int k = 0; k < NTMP_SIGNALS; k++)
        sigaction(tmp_signals[k], &old_sa[k], NULL);
    if (rc != 0) {
        for (int i = 0; i < nf; i++)
            if (dl[i])
                dlclose(dl[i]);
        ir_func_free(f);
        return rc;
    }

    measure_ctx *m = measure_new(f, 7, err, sizeof err);
    if (!m || measure_set_rounds(m, rounds) != 0 || measure_set_objective(m, objective, err, sizeof err) != 0) {
        fprintf(stderr, "ecopt_bench_asm: %s\n", err);
        measure_free(m);
        ir_func_free(f);
        return 1;
    }
    double *q = calloc((size_t)runs * (size_t)nf, sizeof *q);
    printf("ecopt_bench_asm: %s, %d runs of %d interleaved rounds, pinned to CPU %d, %s per call (%s) and the "
           "paired ratio to A\n",
           irpath, runs, rounds, pinned, measure_unit(), measure_objective_name(objective));
    for (int i = 0; i < nf; i++)
        printf("  %c = %s\n", label(i), files[i]);
    fflush(stdout);
    for (int r = 0; r < runs && q; r++) {
        double res[MAX_FILES], ratio[MAX_FILES];
        if (measure_run_ratio(m, fns, nf, res, ratio, err, sizeof err) != 0) {
            fprintf(stderr, "ecopt_bench_asm: %s\n", err);
            rc = 1;
            break;
        }
        printf("run %3d:", r + 1);
        for (int i = 0; i < nf; i++) {
            printf("  %c %9.1f / %.4f", label(i), res[i], ratio[i]);
            q[(size_t)i * (size_t)runs + (size_t)r] = ratio[i];
        }
        printf("\n");
        fflush(stdout);
    }
    if (!q) {
        fprintf(stderr, "ecopt_bench_asm: out of memory\n");
        rc = 1;
    } else if (rc == 0) {
        printf("ratio to A, median [min-max] over %d runs:", runs);
        for (int i = 1; i < nf; i++) {
            double *v = q + (size_t)i * (size_t)runs;
            qsort(v, (size_t)runs, sizeof *v, cmp_double);
            double med = runs % 2 ? v[runs / 2] : 0.5 * (v[runs / 2 - 1] + v[runs / 2]);
            printf("  %c %.4f [%.4f-%.4f]", label(i), med, v[0], v[runs - 1]);
        }
        printf("\n");
    }
    free(q);
    measure_free(m);
    for (int i = 0; i < nf; i++)
        dlclose(dl[i]);
    ir_func_free(f);
    return rc;
}
