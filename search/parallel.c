/* parallel.c — search_run_jobs (search.h): independent searches in child processes, one per CPU, and their results
 * measured again side by side. */
#define _GNU_SOURCE /* prctl's PR_SET_PDEATHSIG */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emit/encode.h"
#include "search/baseline.h"
#include "search/measure.h"
#include "search/search.h"

/* What a child sends back through its pipe: this record, then r.text_len bytes of text, then r.code_len bytes of
 * code (r's pointers are zeroed in the record). Parent and child are one program image, so the layout is shared. */
typedef struct {
    int rc;
    char err[1024];
    search_result r;
} job_record;

static int write_all(int fd, const void *p, size_t n)
{
    const char *b = p;
    while (n > 0) {
        ssize_t k = write(fd, b, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

/* 0 when all n bytes were read, -1 on an error or an early end of file */
static int read_all(int fd, void *p, size_t n)
{
    char *b = p;
    while (n > 0) {
        ssize_t k = read(fd, b, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The child: search k, its record into fd, then exit (never returns). */
static void job_child(const ir_func *f, const ir_func *ref, const search_opts *o, unsigned k, int cpu, int fd,
                      pid_t parent)
{
    /* a parent that dies (killed, interrupted) takes its searches with it: a search of the default budget would
     * otherwise run on, orphaned, for minutes */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(1);
    measure_after_fork();
    search_opts co = *o;
    co.seed = o->seed + k;
    co.cpu = cpu;
    co.quiet = true;
    co.baselines = false;
    job_record rec;
    memset(&rec, 0, sizeof rec);
    rec.rc = search_run(f, ref, &co, &rec.r, rec.err, sizeof rec.err);
    char *text = rec.r.text;
    uint8_t *code = rec.r.code;
    search_result sent = rec.r;
    sent.text = NULL;
    sent.code = NULL;
    sent.best = NULL;
    sent.decisions = NULL;
    if (rec.rc != 0)
        sent.text_len = sent.code_len = 0;
    rec.r = sent;
    int bad = write_all(fd, &rec, sizeof rec) != 0 ||
              (rec.rc == 0 && (write_all(fd, text, sent.text_len) != 0 || write_all(fd, code, sent.code_len) != 0));
    _exit(bad ? 1 : 0);
}

/* "exited 1" / "died of signal 9" into buf */
static void child_status(int st, char *buf, size_t n)
{
    if (WIFSIGNALED(st))
        snprintf(buf, n, "died of signal %d", WTERMSIG(st));
    else if (WIFEXITED(st))
        snprintf(buf, n, "exited %d without a result", WEXITSTATUS(st));
    else
        snprintf(buf, n, "ended without a result");
}

int search_run_jobs(const ir_func *f, const ir_func *ref, const search_opts *o, unsigned jobs, const int *cpus,
                    search_result *r, search_jobs_info *info, char *err, size_t errlen)
{
    pid_t pid[SEARCH_MAX_JOBS];
    int fd[SEARCH_MAX_JOBS];
    search_result res[SEARCH_MAX_JOBS];
    void *map[SEARCH_MAX_JOBS];
    size_t maplen[SEARCH_MAX_JOBS];
    baseline gcc, clang;
    measure_ctx *m = NULL;
    unsigned started = 0, got = 0;
    int rc = -1;

    memset(r, 0, sizeof *r);
    memset(info, 0, sizeof *info);
    memset(res, 0, sizeof res);
    memset(map, 0, sizeof map);
    memset(&gcc, 0, sizeof gcc);
    memset(&clang, 0, sizeof clang);
    if (jobs < 1 || jobs > SEARCH_MAX_JOBS || cpus == NULL) {
        snprintf(err, errlen, "jobs %u: not from 1 to %d", jobs, SEARCH_MAX_JOBS);
        return -1;
    }
    for (unsigned k = 0; k < jobs; k++)
        for (unsigned j = 0; j < k; j++)
            if (cpus[j] == cpus[k] || cpus[k] < 0) {
                snprintf(err, errlen, "the searches' CPUs are not distinct CPUs");
                return -1;
            }
    info->jobs = jobs;
    info->measure_cpu = cpus[0];
    for (unsigned k = 0; k < jobs; k++) {
        info->seed[k] = o->seed + k;
        info->cpu[k] = cpus[k];
    }
    if (!o->quiet) {
        fprintf(stderr, "opt: -j %u: %u searches of %llu evals (seeds %llu to %llu) on CPUs", jobs, jobs,
                (unsigned long long)o->evals, (unsigned long long)o->seed, (unsigned long long)(o->seed + jobs - 1));
        for (unsigned k = 0; k < jobs; k++)
            fprintf(stderr, "%s%d", k ? ", " : " ", cpus[k]);
        fprintf(stderr, "\n");
    }
    fflush(stdout);
    fflush(stderr);
    double t0 = now_s();
    pid_t self = getpid();
    for (unsigned k = 0; k < jobs; k++) {
        int p[2];
        if (pipe(p) != 0) {
            snprintf(err, errlen, "pipe: %s", strerror(errno));
            goto out;
        }
        pid_t c = fork();
        if (c < 0) {
            snprintf(err, errlen, "fork: %s", strerror(errno));
            close(p[0]);
            close(p[1]);
            goto out;
        }
        if (c == 0) {
            close(p[0]);
            for (unsigned j = 0; j < k; j++)
                close(fd[j]);
            job_child(f, ref, o, k, cpus[k], p[1], self);
        }
        close(p[1]);
        pid[k] = c;
        fd[k] = p[0];
        started++;
    }
    /* the results in search order: a child that finishes early waits in its write until it is read */
    for (; got < jobs; got++) {
        unsigned k = got;
        job_record rec;
        int st = 0;
        int ok = read_all(fd[k], &rec, sizeof rec) == 0;
        if (ok && rec.rc == 0) {
            res[k] = rec.r;
            res[k].text = malloc(rec.r.text_len + 1);
            res[k].code = malloc(rec.r.code_len ? rec.r.code_len : 1);
            if (!res[k].text || !res[k].code) {
                snprintf(err, errlen, "out of memory");
                goto out;
            }
            ok = read_all(fd[k], res[k].text, rec.r.text_len) == 0 &&
                 read_all(fd[k], res[k].code, rec.r.code_len) == 0;
            res[k].text[rec.r.text_len] = 0;
        }
        close(fd[k]);
        fd[k] = -1;
        while (waitpid(pid[k], &st, 0) < 0 && errno == EINTR)
            ;
        pid[k] = 0;
        if (!ok) {
            char why[64];
            child_status(st, why, sizeof why);
            snprintf(err, errlen, "search %u (seed %llu): %s", k + 1, (unsigned long long)info->seed[k], why);
            got++;
            goto out;
        }
        if (rec.rc != 0) {
            snprintf(err, errlen, "search %u (seed %llu): %.900s", k + 1, (unsigned long long)info->seed[k],
                     rec.err);
            got++;
            goto out;
        }
        info->evals[k] = res[k].evals;
        info->seconds[k] = res[k].seconds;
        if (!o->quiet)
            fprintf(stderr, "opt: search %u of %u (seed %llu, CPU %d): %llu evals in %.1f s, %.2f %s\n", k + 1, jobs,
                    (unsigned long long)info->seed[k], cpus[k], (unsigned long long)res[k].evals, res[k].seconds,
                    res[k].ticks, res[k].unit);
    }

    /* side by side, on one CPU, with the compilers: only ratios of one measurement compare (measure.h) */
    measure_fn fns[SEARCH_MAX_JOBS + 2];
    double ticks[SEARCH_MAX_JOBS + 2], q[SEARCH_MAX_JOBS + 2];
    int n = (int)jobs;
    if (measure_pin(cpus[0], err, errlen) < 0)
        goto out;
    for (unsigned k = 0; k < jobs; k++) {
        map[k] = encode_exec_map(res[k].code, res[k].code_len, &maplen[k]);
        if (!map[k]) {
            snprintf(err, errlen, "cannot map search %u's code: %s", k + 1, strerror(errno));
            goto out;
        }
        memcpy(&fns[k], &map[k], sizeof fns[k]);
    }
    if (o->baselines) {
        if (baseline_build(ref, "gcc", &gcc, err, errlen) != 0 || baseline_build(ref, "clang", &clang, err, errlen) != 0)
            goto out;
        fns[n++] = gcc.fn;
        fns[n++] = clang.fn;
    }
    m = measure_new(f, o->seed ^ 0x6d656173ull, err, errlen);
    if (!m)
        goto out;
    if (measure_set_rounds(m, o->final_rounds) != 0) {
        snprintf(err, errlen, "final rounds %d: not from 1 to 1001", o->final_rounds);
        goto out;
    }
    if (measure_set_objective(m, o->objective, err, errlen) != 0 ||
        measure_run_ratio(m, fns, n, ticks, q, err, errlen) != 0)
        goto out;
    unsigned w = 0;
    for (unsigned k = 1; k < jobs; k++)
        if (q[k] < q[w])
            w = k;
    for (unsigned k = 0; k < jobs; k++) {
        info->ticks[k] = ticks[k];
        info->ratio[k] = q[k];
    }
    info->winner = w;
    *r = res[w];
    memset(&res[w], 0, sizeof res[w]);
    r->ticks = ticks[w];
    snprintf(r->unit, sizeof r->unit, "%s", measure_unit());
    if (o->baselines) {
        r->ticks_gcc = ticks[jobs];
        r->ticks_clang = ticks[jobs + 1];
        r->speedup_gcc = q[jobs] / q[w];
        r->speedup_clang = q[jobs + 1] / q[w];
        snprintf(r->gcc_version, sizeof r->gcc_version, "%s", gcc.version);
        snprintf(r->clang_version, sizeof r->clang_version, "%s", clang.version);
    }
    if (!o->quiet) {
        fprintf(stderr, "opt: -j %u: side by side on CPU %d (%d rounds):", jobs, cpus[0], o->final_rounds);
        for (unsigned k = 0; k < jobs; k++)
            fprintf(stderr, " seed %llu %.2f %s (%.4f)%s", (unsigned long long)info->seed[k], ticks[k], r->unit, q[k],
                    k + 1 < jobs ? "," : "");
        fprintf(stderr, "; seed %llu wins (%.1f s in all)\n", (unsigned long long)info->seed[w], now_s() - t0);
    }
    rc = 0;
out:
    for (unsigned k = got; k < started; k++) { /* after a failure: stop and reap the searches still running */
        if (fd[k] >= 0)
            close(fd[k]);
        if (pid[k] > 0) {
            kill(pid[k], SIGTERM);
            while (waitpid(pid[k], NULL, 0) < 0 && errno == EINTR)
                ;
        }
    }
    for (unsigned k = 0; k < jobs; k++) {
        encode_exec_unmap(map[k], maplen[k]);
        free(res[k].text);
        free(res[k].code);
    }
    measure_free(m);
    baseline_free(&gcc);
    baseline_free(&clang);
    if (rc != 0)
        search_result_free(r);
    return rc;
}
